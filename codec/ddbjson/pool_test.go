package ddbjson

import (
	"bytes"
	"reflect"
	"strconv"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestDecodedValuesOwnTheirMemory keeps the values of many decodes — whose working stacks are
// reused through the pool, some of them failing half way — while the input buffer they came
// from is overwritten, and checks every value is still what was decoded: nothing decoded may
// point into pooled or caller memory.
func TestDecodedValuesOwnTheirMemory(t *testing.T) {
	inputs := []string{
		`{"pk":{"S":"k1"},"sk":{"S":"s"},"v":{"S":"caf\u00e9 \"q\""},"n":{"N":"1"}}`,
		`{"a":{"L":[{"S":"x"},{"M":{"b":{"SS":["p","q"]},"c":{"NS":["1","2"]}}},{"L":[{"BOOL":true}]}]},"z":{"B":"aGkh"}}`,
		`{"a":{"L":[{"S":"x"},{"M":{"b":{"SS":["p",` + "\x01" + `]}}}]}}`, // fails deep inside
		`{"k":{"S":"` + string(bytes.Repeat([]byte("long\\n"), 100)) + `"}}`,
		`{"m":{"M":{"x":{"L":[{"N":"3"},{"S":"e\\u0301"}]}}}}`,
		`{"bad":{"S":1}}`,
	}
	want := make([]map[string]types.AttributeValue, len(inputs))
	for i, in := range inputs {
		want[i], _ = UnmarshalItem([]byte(in))
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var kept []map[string]types.AttributeValue
			buf := make([]byte, 0, 1024)
			for round := range 200 {
				i := (round + w) % len(inputs)
				buf = append(buf[:0], inputs[i]...)
				m, _ := UnmarshalItem(buf)
				for j := range buf {
					buf[j] = '#' // the caller reuses its buffer
				}
				kept = append(kept, m)
				if _, err := Unmarshal([]byte(`{"L":[{"S":"` + strconv.Itoa(round) + `"}]}`)); err != nil {
					t.Error(err)
				}
			}
			for round, m := range kept {
				if i := (round + w) % len(inputs); !reflect.DeepEqual(m, want[i]) {
					t.Errorf("input %d, round %d: kept value changed to %#v", i, round, m)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestPooledStacksAreClean checks that a released decoder leaves no pointer to a decoded value
// in the pool, after a success and after a failure half way.
func TestPooledStacksAreClean(t *testing.T) {
	for _, in := range []string{
		`{"a":{"L":[{"S":"x"},{"M":{"b":{"SS":["p","q"]}}}]}}`,
		`{"a":{"L":[{"S":"x"},{"M":{"b":{"SS":["p",` + "\x01" + `]}}}]}}`,
	} {
		d := newDecoder([]byte(in))
		s := d.stk
		d.ws()
		_, _ = d.item(msgFieldType)
		d.release()
		for i, v := range s.avs[:cap(s.avs)] {
			if v != nil {
				t.Errorf("%s: avs[%d] = %v after release", in, i, v)
			}
		}
		for i, v := range s.strs[:cap(s.strs)] {
			if v != "" {
				t.Errorf("%s: strs[%d] = %q after release", in, i, v)
			}
		}
		for i, v := range s.members[:cap(s.members)] {
			if v != (member{}) {
				t.Errorf("%s: members[%d] = %v after release", in, i, v)
			}
		}
		if len(s.avs)+len(s.strs)+len(s.members) != 0 {
			t.Errorf("%s: stacks not empty after release", in)
		}
	}
}

// FuzzDecodedValuesStay decodes an input, then overwrites the input and
// decodes other inputs through the same pool: the first value must encode
// to the same bytes as before.
func FuzzDecodedValuesStay(f *testing.F) {
	for _, g := range golden {
		f.Add([]byte(`{"a":` + g.json + `}`))
	}
	f.Add([]byte(`{"k":{"S":"a\u00e9\n"},"l":{"L":[{"M":{"x":{"SS":["1","2"]}}}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		buf := append([]byte(nil), data...)
		m, err := UnmarshalItem(buf)
		if err != nil {
			return
		}
		want, err := MarshalItem(m)
		if err != nil {
			t.Fatal(err)
		}
		for i := range buf {
			buf[i] = 'x'
		}
		for _, other := range [][]byte{data, []byte(`{"z":{"L":[{"S":"zzzzzzzz"},{"M":{"q":{"NS":["9"]}}}]}}`), []byte(`{"bad":{"L":[{"S":1}]}}`)} {
			UnmarshalItem(other)
			Unmarshal(other)
			UnmarshalList(other)
		}
		got, err := MarshalItem(m)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("value changed after later decodes: %s, was %s (%v)", got, want, err)
		}
	})
}
