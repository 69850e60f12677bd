package ddbjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

type (
	avS    = types.AttributeValueMemberS
	avN    = types.AttributeValueMemberN
	avB    = types.AttributeValueMemberB
	avBOOL = types.AttributeValueMemberBOOL
	avNULL = types.AttributeValueMemberNULL
	avSS   = types.AttributeValueMemberSS
	avNS   = types.AttributeValueMemberNS
	avBS   = types.AttributeValueMemberBS
	avL    = types.AttributeValueMemberL
	avM    = types.AttributeValueMemberM
)

// golden pins the exact bytes of the encoding, and that they decode back to the same value.
var golden = []struct {
	name string
	av   types.AttributeValue
	json string
}{
	{"S", &avS{Value: "hello"}, `{"S":"hello"}`},
	{"S empty", &avS{Value: ""}, `{"S":""}`},
	{"S escapes", &avS{Value: "a\"b\\c\nd\re\tf\x00g\x1fh\bi\fj"}, `{"S":"a\"b\\c\nd\re\tf\u0000g\u001fh\u0008i\u000cj"}`},
	{"S no HTML escaping", &avS{Value: "<a href='x'>&amp;</a>/"}, `{"S":"<a href='x'>&amp;</a>/"}`},
	{"S unicode", &avS{Value: "héllo 世界 🎉 \x7f"}, `{"S":"héllo 世界 🎉 \u007f"}`},
	{"S line separators", &avS{Value: "a\u2028b\u2029c"}, `{"S":"a\u2028b\u2029c"}`},
	{"N", &avN{Value: "-12.50"}, `{"N":"-12.50"}`},
	{"N kept as sent", &avN{Value: "1E+2"}, `{"N":"1E+2"}`},
	{"B", &avB{Value: []byte("hi!")}, `{"B":"aGkh"}`},
	{"B padding", &avB{Value: []byte{0xff, 0xfe}}, `{"B":"//4="}`},
	{"B empty", &avB{Value: []byte{}}, `{"B":""}`},
	{"BOOL true", &avBOOL{Value: true}, `{"BOOL":true}`},
	{"BOOL false", &avBOOL{Value: false}, `{"BOOL":false}`},
	{"NULL", &avNULL{Value: true}, `{"NULL":true}`},
	{"NULL false", &avNULL{Value: false}, `{"NULL":false}`},
	{"SS order kept", &avSS{Value: []string{"b", "a", "c"}}, `{"SS":["b","a","c"]}`},
	{"NS", &avNS{Value: []string{"1", "-2.5"}}, `{"NS":["1","-2.5"]}`},
	{"BS", &avBS{Value: [][]byte{{1}, {2, 3}}}, `{"BS":["AQ==","AgM="]}`},
	{"L", &avL{Value: []types.AttributeValue{&avS{Value: "x"}, &avN{Value: "1"}, &avL{Value: []types.AttributeValue{}}}}, `{"L":[{"S":"x"},{"N":"1"},{"L":[]}]}`},
	{"L empty", &avL{Value: []types.AttributeValue{}}, `{"L":[]}`},
	{"M sorted", &avM{Value: map[string]types.AttributeValue{
		"z": &avBOOL{Value: true}, "a": &avS{Value: "1"}, "B": &avNULL{Value: true}, "é": &avN{Value: "2"}, "a\"b": &avM{Value: map[string]types.AttributeValue{}},
	}}, `{"M":{"B":{"NULL":true},"a":{"S":"1"},"a\"b":{"M":{}},"z":{"BOOL":true},"é":{"N":"2"}}}`},
}

func TestGolden(t *testing.T) {
	for _, tt := range golden {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Marshal(tt.av)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.json {
				t.Errorf("Marshal =\n%s\nwant\n%s", got, tt.json)
			}
			back, err := Unmarshal([]byte(tt.json))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, tt.av) {
				t.Errorf("Unmarshal = %#v, want %#v", back, tt.av)
			}
			if !json.Valid(got) {
				t.Errorf("not valid JSON: %s", got)
			}
		})
	}
}

func TestEncodeDeterministic(t *testing.T) {
	item := map[string]types.AttributeValue{}
	for _, k := range strings.Fields("q w e r t y u i o p a s d f g h j k l z x c v b n m") {
		item[k] = &avS{Value: k}
	}
	first, err := MarshalItem(item)
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		again, _ := MarshalItem(item)
		if !bytes.Equal(first, again) {
			t.Fatalf("MarshalItem not deterministic:\n%s\n%s", first, again)
		}
	}
	if !strings.HasPrefix(string(first), `{"a":{"S":"a"},"b":{"S":"b"},"c"`) {
		t.Errorf("keys not sorted: %s", first)
	}
	if b, _ := MarshalItem(nil); string(b) != "{}" {
		t.Errorf("MarshalItem(nil) = %s", b)
	}
	b, _ := AppendItem([]byte("x="), map[string]types.AttributeValue{"k": &avN{Value: "1"}})
	if string(b) != `x={"k":{"N":"1"}}` {
		t.Errorf("AppendItem = %s", b)
	}
}

func TestEncodeErrors(t *testing.T) {
	tests := []struct {
		av   types.AttributeValue
		want string
	}{
		{nil, "ddbjson: nil AttributeValue"},
		{(*avS)(nil), "ddbjson: nil *types.AttributeValueMemberS"},
		{(*avM)(nil), "ddbjson: nil *types.AttributeValueMemberM"},
		{&types.UnknownUnionMember{Tag: "X"}, "ddbjson: unsupported AttributeValue type *types.UnknownUnionMember"},
		{&avM{Value: map[string]types.AttributeValue{"a": &avL{Value: []types.AttributeValue{&avS{}, nil}}}}, "ddbjson: M.a.L[1]: nil AttributeValue"},
		{&avL{Value: []types.AttributeValue{&avM{Value: map[string]types.AttributeValue{"k": nil}}}}, "ddbjson: L[0].M.k: nil AttributeValue"},
	}
	for _, tt := range tests {
		_, err := Marshal(tt.av)
		var ee *EncodeError
		if !errors.As(err, &ee) || err.Error() != tt.want {
			t.Errorf("Marshal(%#v) error = %v, want %q", tt.av, err, tt.want)
		}
	}
	if _, err := MarshalItem(map[string]types.AttributeValue{"pk": nil}); err == nil || err.Error() != "ddbjson: pk: nil AttributeValue" {
		t.Errorf("MarshalItem nil value error = %v", err)
	}
	// A cycle is caught by the depth limit instead of recursing forever.
	l := &avL{Value: make([]types.AttributeValue, 1)}
	l.Value[0] = l
	if _, err := Marshal(l); err == nil || !strings.Contains(err.Error(), "nesting depth") {
		t.Errorf("cyclic value error = %v", err)
	}
}

func TestDecodeAccepts(t *testing.T) {
	tests := []struct {
		in   string
		want types.AttributeValue
	}{
		{" \t\r\n{ \"S\" : \"x\" } \n", &avS{Value: "x"}},
		{`{"S":"\u00e9\ud83c\udf89\/\"\\\b\f\n\r\t"}`, &avS{Value: "é🎉/\"\\\b\f\n\r\t"}},
		{`{"S":"\ud800"}`, &avS{Value: "\uFFFD"}},
		{`{"S":"\udc00\u0041"}`, &avS{Value: "\uFFFDA"}},
		{`{"S":"\ud83cA"}`, &avS{Value: "\uFFFDA"}},
		{"{\"S\":\"a\xffb\"}", &avS{Value: "a\uFFFDb"}},
		{`{"N":"not a number"}`, &avN{Value: "not a number"}},
		{`{"NULL":false}`, &avNULL{Value: false}},
		{`{"S":"a","N":null}`, &avS{Value: "a"}},
		{`{"L":null,"BOOL":true}`, &avBOOL{Value: true}},
		{`{"S":"a","S":"b"}`, &avS{Value: "b"}},
		{`{"S":"a","x":{"deep":[1,2.5,true,null,"s",{"S":1}]},"X":[]}`, &avS{Value: "a"}},
		{`{"s":"lower case is not S","N":"1"}`, &avN{Value: "1"}},
		{`{"B":""}`, &avB{Value: []byte{}}},
		{`{"SS":[]}`, &avSS{Value: []string{}}},
		{`{"BS":[]}`, &avBS{Value: [][]byte{}}},
		{`{"M":{"":{"S":""}}}`, &avM{Value: map[string]types.AttributeValue{"": &avS{Value: ""}}}},
		{`{"M":{"a":{"S":"1"},"a":{"S":"2"}}}`, &avM{Value: map[string]types.AttributeValue{"a": &avS{Value: "2"}}}},
		{`{"M":{"k\u00e9y":{"N":"1"}}}`, &avM{Value: map[string]types.AttributeValue{"kéy": &avN{Value: "1"}}}},
	}
	for _, tt := range tests {
		got, err := Unmarshal([]byte(tt.in))
		if err != nil {
			t.Errorf("Unmarshal(%s): %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Unmarshal(%s) = %#v, want %#v", tt.in, got, tt.want)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		in         string
		msg        string
		offset     int64
		validation bool
	}{
		// DynamoDB's SerializationException texts for wrong JSON types (per member class).
		{`{"S":1}`, "NUMBER_VALUE cannot be converted to String", 5, false},
		{`{"S":-2147483648}`, "NUMBER_VALUE cannot be converted to String", 5, false},
		{`{"N":123}`, "NUMBER_VALUE cannot be converted to String", 5, false},
		{`{"N":34.56}`, "DECIMAL_VALUE cannot be converted to String", 5, false},
		{`{"N":1e5}`, "DECIMAL_VALUE cannot be converted to String", 5, false},
		{`{"S":true}`, "TRUE_VALUE cannot be converted to String", 5, false},
		{`{"S":false}`, "FALSE_VALUE cannot be converted to String", 5, false},
		{`{"S":[]}`, "Unrecognized collection type class java.lang.String", 5, false},
		{`{"S":{}}`, "Start of structure or map found where not expected", 5, false},
		{`{"SS":["a",1]}`, "NUMBER_VALUE cannot be converted to String", 11, false},
		{`{"NS":[{}]}`, "Start of structure or map found where not expected", 7, false},
		{`{"BOOL":"23"}`, "Unexpected token received from parser", 8, false},
		{`{"BOOL":23}`, "NUMBER_VALUE cannot be converted to Boolean", 8, false},
		{`{"NULL":34.56}`, "DECIMAL_VALUE cannot be converted to Boolean", 8, false},
		{`{"NULL":[]}`, "Unrecognized collection type class java.lang.Boolean", 8, false},
		{`{"BOOL":{}}`, "Start of structure or map found where not expected", 8, false},
		{`{"B":true}`, "only base-64-encoded strings are convertible to bytes", 5, false},
		{`{"B":23}`, "only base-64-encoded strings are convertible to bytes", 5, false},
		{`{"B":[]}`, "Unrecognized collection type class java.nio.ByteBuffer", 5, false},
		{`{"B":{}}`, "Start of structure or map found where not expected", 5, false},
		{`{"B":"23456"}`, "Base64 encoded length is expected a multiple of 4 bytes but found: 5", 5, false},
		{`{"B":"=+/="}`, "Invalid last non-pad Base64 character dectected", 5, false},
		{`{"B":"+/+="}`, "Invalid last non-pad Base64 character dectected", 5, false},
		{`{"B":"ab!dabcd"}`, "Invalid Base64 character dectected", 5, false},
		{`{"B":"ab\ncde=="}`, "Invalid Base64 character dectected", 5, false},
		{`{"BS":["AQ==","x"]}`, "Base64 encoded length is expected a multiple of 4 bytes but found: 1", 14, false},
		{`{"SS":"a"}`, "Unexpected field type", 6, false},
		{`{"L":true}`, "Unexpected field type", 5, false},
		{`{"L":{}}`, "Start of structure or map found where not expected", 5, false},
		{`{"M":"x"}`, "Unexpected field type", 5, false},
		{`{"M":[]}`, "Unrecognized collection type java.util.Map<java.lang.String, com.amazonaws.dynamodb.v20120810.AttributeValue>", 5, false},
		{`{"L":["x"]}`, "Unexpected value type in payload", 6, false},
		{`{"L":[[]]}`, "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.AttributeValue", 6, false},
		{`{"M":{"a":5}}`, "Unexpected value type in payload", 10, false},
		{`"x"`, "Unexpected value type in payload", 0, false},
		{`[]`, "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.AttributeValue", 0, false},
		{`null`, "Unexpected value type in payload", 0, false},
		// Not DynamoDB JSON.
		{`{"X":{"a":[1,2,{"b":null}]},"S":1}`, "NUMBER_VALUE cannot be converted to String", 32, false},
		{`{"X":[1,}`, "invalid character '}' looking for a value", 8, false},
		{`{"X":{"a" 1}}`, "expected ':', found '1'", 10, false},
		{`{"SS":["a",null]}`, "null is not a valid set element", 11, false},
		{`{"S":"x"} x`, "unexpected data after the value", 10, false},
		{`{"S":"x"}{}`, "unexpected data after the value", 9, false},
		{``, "unexpected end of input", 0, false},
		{`{"S":"x"`, "unexpected end of input", 8, false},
		{`{"S":"x`, "unterminated string", 5, false},
		{"{\"S\":\"a\nb\"}", "invalid control character in string", 7, false},
		{`{"S":"\x"}`, "invalid escape character in string", 6, false},
		{`{"S":"\u12"}`, `invalid \u escape in string`, 6, false},
		{`{"S" "x"}`, `expected ':', found '"'`, 5, false},
		{`{"S":"x",}`, `expected a type name string, found '}'`, 9, false},
		{`{S:"x"}`, `expected a type name string, found 'S'`, 1, false},
		{`{"BOOL":tru}`, "invalid literal, expected true", 8, false},
		{`{"S":01}`, "NUMBER_VALUE cannot be converted to String", 5, false},
		{`{"S":-}`, "invalid number", 5, false},
		{`{"L":[{"S":"a"} {"S":"b"}]}`, "expected ',' or ']', found '{'", 16, false},
		{`{"M":{"a" {"S":"b"}}}`, `expected ':', found '{'`, 10, false},
		// DynamoDB answers these with a ValidationException.
		{`{}`, "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes", 0, true},
		{`{"S":null}`, "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes", 0, true},
		{`{"L":[null]}`, "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes", 6, true},
		// Unknown member names are skipped, as DynamoDB skips them.
		{`{"X":"a"}`, "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes", 0, true},
		{`{"a":""}`, "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes", 0, true},
		{`{"M":{"a":{"s":"x"}}}`, "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes", 10, true},
		{`{"S":"a","N":"1"}`, "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes", 0, true},
		{`{"M":{"a":{"S":"a","BOOL":true}}}`, "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes", 10, true},
		// … but only when the input is otherwise well formed.
		{`{"L":[{}, {"S":1}]}`, "NUMBER_VALUE cannot be converted to String", 15, false},
		{`{"L":[{}]} x`, "unexpected data after the value", 11, false},
	}
	for _, tt := range tests {
		av, err := Unmarshal([]byte(tt.in))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Unmarshal(%s) = %#v, %v; want *SyntaxError", tt.in, av, err)
			continue
		}
		if av != nil {
			t.Errorf("Unmarshal(%s) returned a value with an error", tt.in)
		}
		if se.Msg != tt.msg || se.Offset != tt.offset || se.Validation != tt.validation {
			t.Errorf("Unmarshal(%s) = {%d %q %v}, want {%d %q %v}", tt.in, se.Offset, se.Msg, se.Validation, tt.offset, tt.msg, tt.validation)
		}
	}
}

func TestDepthLimit(t *testing.T) {
	deep := func(n int) string {
		return strings.Repeat(`{"L":[`, n) + `{"S":"x"}` + strings.Repeat(`]}`, n)
	}
	if _, err := Unmarshal([]byte(deep(MaxDepth/2 - 1))); err != nil {
		t.Errorf("depth %d: %v", MaxDepth-1, err)
	}
	_, err := Unmarshal([]byte(deep(MaxDepth)))
	var se *SyntaxError
	if !errors.As(err, &se) || !strings.Contains(se.Msg, "nesting depth exceeds 1000") {
		t.Errorf("too deep: %v", err)
	}
	// Skipped unknown members are held to the same limit.
	if _, err := Unmarshal([]byte(`{"X":` + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth) + `,"S":"x"}`)); err == nil || !strings.Contains(err.Error(), "nesting depth") {
		t.Errorf("deep skipped member: %v", err)
	}
	// Far deeper than any stack would take, and unterminated.
	if _, err := Unmarshal([]byte(strings.Repeat(`{"M":{"a":`, 1_000_000))); err == nil {
		t.Error("very deep input accepted")
	}
}

func TestUnmarshalItem(t *testing.T) {
	got, err := UnmarshalItem([]byte(`{"pk":{"S":"u#1"},"n":{"N":"5"},"tags":{"SS":["a"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]types.AttributeValue{"pk": &avS{Value: "u#1"}, "n": &avN{Value: "5"}, "tags": &avSS{Value: []string{"a"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("UnmarshalItem = %#v", got)
	}
	if m, err := UnmarshalItem([]byte(`{}`)); err != nil || m == nil || len(m) != 0 {
		t.Errorf("UnmarshalItem({}) = %v, %v", m, err)
	}
	for in, msg := range map[string]string{
		`[]`:                 "Unrecognized collection type java.util.Map<java.lang.String, com.amazonaws.dynamodb.v20120810.AttributeValue>",
		`"x"`:                "Unexpected field type",
		`null`:               "Unexpected field type",
		`{"a":{"S":"x"}} {}`: "unexpected data after the value",
		`{"a":"x"}`:          "Unexpected value type in payload",
		`{"a":{}}`:           "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes",
	} {
		_, err := UnmarshalItem([]byte(in))
		var se *SyntaxError
		if !errors.As(err, &se) || se.Msg != msg {
			t.Errorf("UnmarshalItem(%s) error = %v, want %q", in, err, msg)
		}
	}
}

func TestUnmarshalList(t *testing.T) {
	got, err := UnmarshalList([]byte(` [{"S":"a"},{"N":"1"}] `))
	if err != nil || !reflect.DeepEqual(got, []types.AttributeValue{&avS{Value: "a"}, &avN{Value: "1"}}) {
		t.Errorf("UnmarshalList = %#v, %v", got, err)
	}
	if _, err := UnmarshalList([]byte(`{"S":"a"}`)); err == nil {
		t.Error("UnmarshalList accepted an object")
	}
	b, err := AppendList(nil, got)
	if err != nil || string(b) != `[{"S":"a"},{"N":"1"}]` {
		t.Errorf("AppendList = %s, %v", b, err)
	}
}

func TestEncodingJSONEmbedding(t *testing.T) {
	type request struct {
		TableName string
		Key       Item
		Start     Item  `json:",omitempty"`
		Default   Value `json:",omitzero"`
		Params    List  `json:",omitempty"`
	}
	in := `{"TableName":"t","Key":{"pk":{"S":"a"},"sk":{"N":"1"}},"Default":{"BOOL":true},"Params":[{"NULL":true}]}`
	var r request
	if err := json.Unmarshal([]byte(in), &r); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.Key, Item{"pk": &avS{Value: "a"}, "sk": &avN{Value: "1"}}) || r.Start != nil ||
		!reflect.DeepEqual(r.Default.AttributeValue, &avBOOL{Value: true}) || len(r.Params) != 1 {
		t.Errorf("decoded %#v", r)
	}
	out, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != in {
		t.Errorf("json.Marshal =\n%s\nwant\n%s", out, in)
	}

	var nulls request
	if err := json.Unmarshal([]byte(`{"Key":null,"Default":null,"Params":null}`), &nulls); err != nil || nulls.Key != nil || nulls.Default.AttributeValue != nil {
		t.Errorf("nulls = %#v, %v", nulls, err)
	}
	if b, _ := json.Marshal(struct{ V Value }{}); string(b) != `{"V":null}` {
		t.Errorf("nil Value = %s", b)
	}
	if b, _ := json.Marshal(request{TableName: "t"}); string(b) != `{"TableName":"t","Key":null}` {
		t.Errorf("omitempty/omitzero = %s", b)
	}

	err = json.Unmarshal([]byte(`{"Key":{"pk":{"S":1}}}`), &r)
	var se *SyntaxError
	if !errors.As(err, &se) || se.Msg != "NUMBER_VALUE cannot be converted to String" {
		t.Errorf("embedded error = %v", err)
	}
	if _, err := json.Marshal(Item{"x": nil}); err == nil {
		t.Error("json.Marshal of an item with a nil value succeeded")
	}
}
