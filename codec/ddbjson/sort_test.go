package ddbjson

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Members come out in byte order of their names at every size (insertion
// sort for few, the standard library for many).
func TestEncodeMemberOrder(t *testing.T) {
	names := []string{"é", "B", "a", "a\"b", "", "Z9", "z", "aa", "A", "ab", "~", "0"}
	for n := range 40 {
		item := map[string]types.AttributeValue{}
		var want []string
		for i := range n {
			name := names[i%len(names)] + strconv.Itoa(i/len(names))
			item[name] = &avN{Value: strconv.Itoa(i)}
			want = append(want, name)
		}
		slices.Sort(want)
		b, err := MarshalItem(item)
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		if _, err := dec.Token(); err != nil { // {
			t.Fatal(err)
		}
		var got []string
		for dec.More() {
			tok, _ := dec.Token()
			got = append(got, tok.(string))
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				t.Fatal(err)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%d members: order %q, want %q", n, got, want)
		}
	}
}
