package ddbjson

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestDecoderItemAt decodes items one after another out of one input, as a
// batch request holds them, and checks each against UnmarshalItem of its own
// bytes: the same item, or the same error (offsets in the whole input), and
// items that stay intact once the input is overwritten and the decoder
// released.
func TestDecoderItemAt(t *testing.T) {
	items := []string{
		`{"pk":{"S":"k1"},"sk":{"S":"s"},"n":{"N":"1"}}`,
		`{}`,
		`{"a":{"L":[{"S":"x"},{"M":{"b":{"SS":["p","q"]},"c":{"NS":["1","2.50"]}}},{"L":[{"BOOL":true},{"NULL":true}]}]},"z":{"B":"aGkh"},"bs":{"BS":["AA==","AQ=="]}}`,
		`{"e":{"S":"caf\u00e9 \"q\""},"big":{"N":"123456789012345678901234567890123456.78"}}`,
		` { "ws" : { "S" : "x" } } `,
	}
	input := "["
	offsets := make([]int, len(items))
	for i, it := range items {
		if i > 0 {
			input += ","
		}
		offsets[i] = len(input)
		input += it
	}
	input += ",null]"
	data := []byte(input)
	d := NewDecoder(data)
	var got []map[string]types.AttributeValue
	for i, it := range items {
		m, end, err := d.ItemAt(offsets[i], nil)
		if err != nil {
			t.Fatalf("item %d: %v", i, err)
		}
		if end != offsets[i]+len(it) && end != offsets[i]+len(it)-1 { // the trailing space is the caller's
			t.Errorf("item %d: end %d, want %d", i, end, offsets[i]+len(it))
		}
		got = append(got, m)
	}
	if m, _, err := d.ItemAt(len(input)-len("null]"), nil); err != nil || m != nil {
		t.Errorf("null: %v, %v; want a nil map", m, err)
	}
	d.Release()
	for i := range data {
		data[i] = '#'
	}
	for i, it := range items {
		want, err := UnmarshalItem([]byte(it))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got[i], want) {
			t.Errorf("item %d = %#v, want %#v", i, got[i], want)
		}
	}

	// Errors are UnmarshalItem's, at their offsets in the input; a pending
	// validation failure of one item is not carried to the next.
	for _, bad := range []string{`{"a":{"S":1}}`, `{"a":{}}`, `{"a":{"S":"x","N":"1"}}`, `{"a":"x"}`, `[]`, `{"a":{"B":"x"}}`} {
		in := []byte(`[` + bad + `,{"ok":{"S":"y"}}]`)
		d := NewDecoder(in)
		_, _, err := d.ItemAt(1, nil)
		_, wantErr := UnmarshalItem([]byte(bad))
		var se, want *SyntaxError
		if !errors.As(err, &se) || !errors.As(wantErr, &want) || se.Msg != want.Msg || se.Validation != want.Validation || se.Offset != want.Offset+1 {
			t.Errorf("%s: error %v, want %v (offset +1)", bad, err, wantErr)
		}
		if m, _, err := d.ItemAt(len(bad)+2, nil); err != nil || len(m) != 1 {
			t.Errorf("%s: the next item: %v, %v", bad, m, err)
		}
		d.Release()
	}
}

// TestDecoderItemAtReuse: the map given to reuse becomes the top-level item
// (with {} too), never a nested one, and only for the one item.
func TestDecoderItemAtReuse(t *testing.T) {
	in := []byte(`[{"a":{"M":{"b":{"S":"x"}}},"c":{"N":"1"}},{},{"d":{"S":"y"}}]`)
	d := NewDecoder(in)
	defer d.Release()
	reuse := map[string]types.AttributeValue{}
	m, end, err := d.ItemAt(1, reuse)
	if err != nil || reflect.ValueOf(m).Pointer() != reflect.ValueOf(reuse).Pointer() || len(m) != 2 {
		t.Fatalf("item = %v, %v; want the reused map", m, err)
	}
	if inner := m["a"].(*types.AttributeValueMemberM).Value; reflect.ValueOf(inner).Pointer() == reflect.ValueOf(reuse).Pointer() || len(inner) != 1 {
		t.Fatalf("nested map %v", inner)
	}
	reuse2 := map[string]types.AttributeValue{}
	if m, end, err = d.ItemAt(end+1, reuse2); err != nil || reflect.ValueOf(m).Pointer() != reflect.ValueOf(reuse2).Pointer() || len(m) != 0 {
		t.Fatalf("{} = %v, %v; want the reused map", m, err)
	}
	if m, _, err = d.ItemAt(end+1, nil); err != nil || len(m) != 1 || reflect.ValueOf(m).Pointer() == reflect.ValueOf(reuse2).Pointer() {
		t.Fatalf("third item = %v, %v", m, err)
	}
}

// TestDecoderReset decodes inputs one after another with one Decoder, reset
// between them (and released in between, as a pooled one is): each input's
// items are right while it is in use, and the memory is reused.
func TestDecoderReset(t *testing.T) {
	d := NewDecoder(nil)
	for round := range 50 {
		item := `{"s":{"S":"` + strings.Repeat("x", round) + `"},"n":{"N":"` + strconv.Itoa(round) + `"},"m":{"M":{"e":{"S":"é` + strconv.Itoa(round) + `"}}},"ss":{"SS":["a","b"]}}`
		in := []byte("[" + item + "," + item + "]")
		d.Reset(in)
		want, err := UnmarshalItem([]byte(item))
		if err != nil {
			t.Fatal(err)
		}
		for off := 1; off < len(in); off++ {
			m, end, err := d.ItemAt(off, nil)
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
			if !reflect.DeepEqual(m, want) {
				t.Fatalf("round %d: %v, want %v", round, m, want)
			}
			off = end
		}
		if round%7 == 0 {
			d.Release()
		}
	}
	d.Release()
	if raceEnabled {
		return // the race detector's instrumentation allocates
	}
	in, reuse := []byte(`[{"a":{"S":"x"},"b":{"N":"1"}}]`), make(map[string]types.AttributeValue, 8)
	if n := testing.AllocsPerRun(100, func() {
		clear(reuse)
		d.Reset(in)
		if _, _, err := d.ItemAt(1, reuse); err != nil {
			t.Fatal(err)
		}
		d.Release()
	}); n != 0 {
		t.Errorf("a reset decoder allocates %.0f times per item", n)
	}
}
