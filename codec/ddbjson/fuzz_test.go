package ddbjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

func FuzzUnmarshal(f *testing.F) {
	for _, g := range golden {
		f.Add([]byte(g.json))
	}
	for _, s := range []string{`{}`, `{"S":1}`, `{"L":[{"M":{"a":{"NULL":true}}}]}`, `{"B":"=+/="}`, `{"S":"\ud800\udc00"}`,
		`{"S":"a","N":"1"}`, `{"M":{"a":null}}`, ` {"SS" : [ "a" , "b" ] } `, `{"S":"x"} x`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		av, err := Unmarshal(data)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset > int64(len(data)) {
				t.Fatalf("Unmarshal(%q) error %#v", data, err)
			}
			if av != nil {
				t.Fatalf("Unmarshal(%q) returned a value with an error", data)
			}
			return
		}
		// What decodes is JSON.
		if !json.Valid(data) {
			t.Fatalf("Unmarshal accepted invalid JSON %q", data)
		}
		b, err := Marshal(av)
		if err != nil {
			t.Fatalf("Marshal(Unmarshal(%q)): %v", data, err)
		}
		av2, err := Unmarshal(b)
		if err != nil {
			t.Fatalf("Unmarshal(Marshal(...)) = %v on %s", err, b)
		}
		if !reflect.DeepEqual(av, av2) {
			t.Fatalf("decode → encode → decode changed the value: %q → %s", data, b)
		}
		b2, _ := Marshal(av2)
		if !bytes.Equal(b, b2) {
			t.Fatalf("encoding not stable: %s vs %s", b, b2)
		}
	})
}
