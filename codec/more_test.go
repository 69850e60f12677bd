package codec_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/codec"
	"github.com/shopspring/decimal"
)

func TestItemMaps(t *testing.T) {
	item, err := codec.MarshalItem(map[string]int{"a": 1})
	if err != nil || jsItem(item) != `{"a":{"N":"1"}}` {
		t.Fatalf("MarshalItem(map) = %s, %v", jsItem(item), err)
	}
	raw := map[string]types.AttributeValue{"x": S("y")}
	if got, _ := codec.MarshalItem(raw); reflect.ValueOf(got).Pointer() != reflect.ValueOf(raw).Pointer() {
		t.Error("MarshalItem copied an attribute value map")
	}
	if got, err := codec.MarshalItem(map[string]int(nil)); got != nil || err != nil {
		t.Errorf("nil map = %v, %v", got, err)
	}
	if _, err := codec.MarshalItem((*Order)(nil)); err == nil {
		t.Error("nil struct pointer accepted")
	}
	var m map[string]any
	if err := codec.UnmarshalItem(map[string]types.AttributeValue{"n": N("2"), "l": L(S("x"))}, &m); err != nil ||
		!reflect.DeepEqual(m, map[string]any{"n": int64(2), "l": []any{"x"}}) {
		t.Errorf("UnmarshalItem(map) = %#v, %v", m, err)
	}
	var bad int
	if err := codec.UnmarshalItem(nil, &bad); err == nil || !strings.Contains(err.Error(), "needs a pointer to a struct or a map") {
		t.Errorf("UnmarshalItem(*int) = %v", err)
	}
	var intKeys map[int]string
	err = codec.Unmarshal(M("x", S("y")), &intKeys)
	if err == nil || err.Error() != `dynamo: map key is not an int64` {
		t.Errorf("bad int key = %v", err)
	}
}

func TestNumericSets(t *testing.T) {
	tests := []struct {
		v    any
		want string
	}{
		{codec.NewSet[uint8](200, 1), `{"NS":["1","200"]}`},
		{codec.NewSet[int8](-5, 3), `{"NS":["-5","3"]}`},
		{codec.NewSet[int64](1 << 40), `{"NS":["1099511627776"]}`},
		{codec.NewSet[float32](0.1, -2), `{"NS":["-2","0.1"]}`},
		{codec.NewSet(upper("b"), upper("a")), `{"SS":["a","b"]}`},
	}
	for _, tt := range tests {
		av, err := codec.Marshal(tt.v)
		if err != nil || js(av) != tt.want {
			t.Errorf("Marshal(%v) = %s, %v; want %s", tt.v, js(av), err, tt.want)
			continue
		}
		back := reflect.New(reflect.TypeOf(tt.v))
		if err := codec.Unmarshal(av, back.Interface()); err != nil || !reflect.DeepEqual(back.Elem().Interface(), tt.v) {
			t.Errorf("round trip of %v = %v, %v", tt.v, back.Elem(), err)
		}
	}
	if _, err := codec.Marshal(codec.NewSet(1.0, 0.0, -1e300)); err == nil {
		t.Error("out-of-range float in a set accepted")
	}
	var us []uint
	if err := codec.Unmarshal(NS("3", "4"), &us); err != nil || !reflect.DeepEqual(us, []uint{3, 4}) {
		t.Errorf("NS into []uint = %v, %v", us, err)
	}
	if err := codec.Unmarshal(NS("-3"), &us); err == nil {
		t.Error("negative into []uint accepted")
	}
	var bs [][]byte
	if err := codec.Unmarshal(&types.AttributeValueMemberBS{Value: [][]byte{{1}}}, &bs); err != nil || len(bs) != 1 {
		t.Errorf("BS into [][]byte = %v, %v", bs, err)
	}
	if err := codec.Unmarshal(SS("x"), &bs); err == nil {
		t.Error("SS into [][]byte accepted")
	}
}

func TestSetMethods(t *testing.T) {
	s := codec.NewSet("b", "a", "c")
	s.Delete("c")
	if s.Len() != 2 || s.Has("c") || !reflect.DeepEqual(s.Sorted(), []string{"a", "b"}) {
		t.Errorf("set = %v", s.Sorted())
	}
	if got := codec.NewSet[uint](3, 1).Sorted(); !reflect.DeepEqual(got, []uint{1, 3}) {
		t.Errorf("uint Sorted = %v", got)
	}
	if got := codec.NewSet(2.5, -1.0).Sorted(); !reflect.DeepEqual(got, []float64{-1, 2.5}) {
		t.Errorf("float Sorted = %v", got)
	}
	type pair struct{ a, b int }
	if got := codec.NewSet(pair{2, 1}, pair{1, 2}).Sorted(); !reflect.DeepEqual(got, []pair{{1, 2}, {2, 1}}) {
		t.Errorf("struct Sorted = %v", got)
	}
	b := codec.BinarySet{[]byte("x")}
	if !b.Has([]byte("x")) || b.Has([]byte("y")) || b.Len() != 1 {
		t.Error("BinarySet methods")
	}
	if codec.KindSS.String() != "SS" || codec.KindAny.String() != "any" || codec.Kind(99).String() != "Kind(99)" {
		t.Error("Kind.String")
	}
}

type shape interface{ Area() float64 }

type square struct {
	Side float64 `dynamo:"side"`
}

func (s *square) Area() float64 { return s.Side * s.Side }

func TestInterfaces(t *testing.T) {
	type T struct {
		Shape shape `dynamo:"shape"`
	}
	item, err := codec.MarshalItem(T{Shape: &square{2}})
	if err != nil || jsItem(item) != `{"shape":{"M":{"side":{"N":"2"}}}}` {
		t.Fatalf("MarshalItem = %s, %v", jsItem(item), err)
	}
	v := T{Shape: &square{}}
	if err := codec.UnmarshalItem(item, &v); err != nil || v.Shape.Area() != 4 {
		t.Errorf("decode into a set interface = %v, %v", v.Shape, err)
	}
	var empty T
	err = codec.UnmarshalItem(item, &empty)
	if err == nil || err.Error() != "dynamo: T.shape: cannot load M into interface codec_test.shape" {
		t.Errorf("decode into a nil interface = %v", err)
	}
}

func TestArraysAndText(t *testing.T) {
	var id [4]byte
	if err := codec.Unmarshal(B(1, 2, 3, 4), &id); err != nil || id != [4]byte{1, 2, 3, 4} {
		t.Errorf("B into [4]byte = %v, %v", id, err)
	}
	if err := codec.Unmarshal(B(1), &id); err == nil || err.Error() != "dynamo: cannot load 1 bytes into [4]uint8" {
		t.Errorf("short B = %v", err)
	}
	// A formatted number longer than the text slab's minimum still encodes.
	d := decimal.New(1, 60)
	av, err := codec.Marshal(d)
	if err != nil || js(av) != `{"N":"1E+60"}` {
		t.Errorf("Marshal(1e60) = %s, %v", js(av), err)
	}
	big := decimal.RequireFromString("12345678901234567890.123456789")
	av, err = codec.Marshal(big)
	if err != nil || js(av) != `{"N":"12345678901234567890.123456789"}` {
		t.Errorf("Marshal(big decimal) = %s, %v", js(av), err)
	}
	var tid textID
	if err := codec.Unmarshal(S("bad"), &tid); err == nil || !strings.Contains(err.Error(), "UnmarshalText: bad text id") {
		t.Errorf("bad text = %v", err)
	}
	if err := codec.Unmarshal(N("1"), &tid); err == nil || err.Error() != "dynamo: cannot load N into codec_test.textID" {
		t.Errorf("N into text type = %v", err)
	}
}

func TestEncodeAPIErrors(t *testing.T) {
	s, _ := codec.StructOf(reflect.TypeFor[Order]())
	if _, err := s.Encode(reflect.ValueOf(3), true); err == nil {
		t.Error("Encode of an int accepted")
	}
	if err := s.Decode(nil, reflect.ValueOf(Order{})); err == nil {
		t.Error("Decode into an unaddressable struct accepted")
	}
	f := s.Field("version")
	if _, err := f.Encode(reflect.ValueOf("x")); err == nil {
		t.Error("Field.Encode of the wrong type accepted")
	}
	var x string
	if err := f.Decode(N("1"), reflect.ValueOf(&x).Elem()); err == nil {
		t.Error("Field.Decode into the wrong type accepted")
	}
	if _, err := codec.StructOf(nil); err == nil {
		t.Error("StructOf(nil) accepted")
	}
}

type audit struct {
	By string    `dynamo:"by"`
	At time.Time `dynamo:"at,precision=s"`
}

type withHidden struct {
	audit
	*hiddenPtr
	ID string `dynamo:"id"`
}

type hiddenPtr struct {
	Note string `dynamo:"note"`
}

// Exported fields of unexported embedded structs are promoted, as in
// encoding/json; through a nil unexported pointer they cannot be set.
func TestUnexportedEmbedded(t *testing.T) {
	at := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	item, err := codec.MarshalItem(withHidden{audit: audit{"ann", at}, ID: "1"})
	if err != nil || jsItem(item) != `{"at":{"S":"2024-01-01T00:00:00Z"},"by":{"S":"ann"},"id":{"S":"1"}}` {
		t.Fatalf("MarshalItem = %s, %v", jsItem(item), err)
	}
	var back withHidden
	if err := codec.UnmarshalItem(item, &back); err != nil || back.By != "ann" || !back.At.Equal(at) {
		t.Errorf("UnmarshalItem = %+v, %v", back, err)
	}
	item["note"] = S("n")
	err = codec.UnmarshalItem(item, &back)
	if err == nil || !strings.Contains(err.Error(), "withHidden.note: cannot set embedded pointer to unexported struct codec_test.hiddenPtr") {
		t.Errorf("nil unexported pointer: %v", err)
	}
	back.hiddenPtr = &hiddenPtr{}
	if err := codec.UnmarshalItem(item, &back); err != nil || back.Note != "n" {
		t.Errorf("set unexported pointer: %+v, %v", back, err)
	}
}

// Cyclic values are errors, not stack overflows.
func TestCycles(t *testing.T) {
	n := &Node{Name: "a"}
	n.Next = n
	_, err := codec.MarshalItem(n)
	if err == nil || !strings.Contains(err.Error(), "nests deeper than 1000 levels (a cycle?)") {
		t.Errorf("pointer cycle: %v", err)
	}
	m := map[string]any{}
	m["self"] = m
	if _, err := codec.Marshal(m); err == nil || !strings.Contains(err.Error(), "a cycle?") {
		t.Errorf("map cycle: %v", err)
	}
	l := []any{nil}
	l[0] = l
	if _, err := codec.Marshal(l); err == nil || !strings.Contains(err.Error(), "a cycle?") {
		t.Errorf("list cycle: %v", err)
	}
	self := &types.AttributeValueMemberL{}
	self.Value = []types.AttributeValue{self}
	var a any
	if err := codec.Unmarshal(self, &a); err == nil || !strings.Contains(err.Error(), "a cycle?") {
		t.Errorf("attribute value cycle: %v", err)
	}
	// Deep but finite nesting within DynamoDB's limit is fine.
	var deep any = "leaf"
	for range 31 {
		deep = map[string]any{"n": deep}
	}
	if _, err := codec.Marshal(deep); err != nil {
		t.Error(err)
	}
}

type Tags codec.Set[string]

// Maps to struct{} are sets, whatever their name.
func TestSetLikeMaps(t *testing.T) {
	tests := []struct {
		v    any
		want string
	}{
		{Tags{"b": {}, "a": {}}, `{"SS":["a","b"]}`},
		{map[string]struct{}{"x": {}}, `{"SS":["x"]}`},
		{map[int]struct{}{2: {}, 1: {}}, `{"NS":["1","2"]}`},
		{map[codec.Number]struct{}{"1.50": {}}, `{"NS":["1.5"]}`},
	}
	for _, tt := range tests {
		av, err := codec.Marshal(tt.v)
		if err != nil || js(av) != tt.want {
			t.Errorf("Marshal(%v) = %s, %v; want %s", tt.v, js(av), err, tt.want)
			continue
		}
		back := reflect.New(reflect.TypeOf(tt.v))
		if err := codec.Unmarshal(av, back.Interface()); err != nil {
			t.Errorf("Unmarshal(%s): %v", js(av), err)
		}
	}
	type T struct {
		Tags Tags `dynamo:"tags"`
	}
	s, _ := codec.StructOf(reflect.TypeFor[T]())
	if k := s.Field("tags").Kind; k != codec.KindSS {
		t.Errorf("kind = %v", k)
	}
	if av, err := s.Field("tags").EncodeAny("vip"); err != nil || js(av) != `{"S":"vip"}` {
		t.Errorf("EncodeAny element = %s, %v", js(av), err)
	}
}

func TestAttributeValueField(t *testing.T) {
	type T struct {
		Extra types.AttributeValue   `dynamo:"extra"`
		List  []types.AttributeValue `dynamo:"list"`
	}
	item := map[string]types.AttributeValue{"extra": NULL(), "list": L(SS("a"), N("1"))}
	var v T
	if err := codec.UnmarshalItem(item, &v); err != nil {
		t.Fatal(err)
	}
	if js(v.Extra) != `{"NULL":true}` || len(v.List) != 2 || js(v.List[0]) != `{"SS":["a"]}` {
		t.Errorf("decoded %+v", v)
	}
	back, err := codec.MarshalItem(v)
	if err != nil || jsItem(back) != jsItem(item) {
		t.Errorf("re-encoded %s, %v", jsItem(back), err)
	}
}
