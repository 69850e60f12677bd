package codec_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/codec"
	"github.com/shopspring/decimal"
)

type Order struct {
	UserID   string            `dynamo:"user_id,pk"`
	PlacedAt time.Time         `dynamo:"placed_at,sk"`
	OrderID  string            `dynamo:"order_id,sk"`
	Total    decimal.Decimal   `dynamo:"total"`
	Status   string            `dynamo:"status,default=pending"`
	Version  int               `dynamo:"version"`
	Tags     codec.Set[string] `dynamo:"tags"`
}

type Base struct {
	ID      string `dynamo:"id,pk,required"`
	Created time.Time
}

type WithEmbed struct {
	Base
	*Extra
	Name   string    `dynamo:"name,omitempty"`
	Vec    []float32 `dynamo:"vec,dim=3"`
	Skip   string    `dynamo:"-"`
	hidden string
}

type Extra struct {
	Note string `dynamo:"note"`
}

func TestStructOfFields(t *testing.T) {
	s, err := codec.StructOf(reflect.TypeFor[Order]())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range s.Fields {
		got = append(got, f.Name+":"+f.Kind.String())
	}
	want := "user_id:S placed_at:S order_id:S total:N status:S version:N tags:SS"
	if strings.Join(got, " ") != want {
		t.Fatalf("fields = %s, want %s", strings.Join(got, " "), want)
	}
	f := s.Field("user_id")
	if !f.PK || f.SK || f.GoName != "UserID" || f.Type != reflect.TypeFor[string]() || !reflect.DeepEqual(f.Index, []int{0}) {
		t.Errorf("user_id field = %+v", f)
	}
	if !s.Field("placed_at").SK || !s.Field("order_id").SK {
		t.Error("sort key flags lost")
	}
	if st := s.Field("status"); !st.HasDefault || st.Default != "pending" {
		t.Errorf("status default = %q %v", st.Default, st.HasDefault)
	}
	if s.Field("nope") != nil {
		t.Error("Field of an undeclared attribute is not nil")
	}
	again, _ := codec.StructOf(reflect.TypeFor[*Order]())
	if again != s {
		t.Error("plan is not cached")
	}
}

func TestStructOfEmbedded(t *testing.T) {
	s, err := codec.StructOf(reflect.TypeFor[WithEmbed]())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range s.Fields {
		names = append(names, f.Name)
	}
	if got := strings.Join(names, ","); got != "id,Created,note,name,vec" {
		t.Fatalf("fields = %s", got)
	}
	if f := s.Field("note"); !reflect.DeepEqual(f.Index, []int{1, 0}) {
		t.Errorf("note index = %v", f.Index)
	}
	if f := s.Field("vec"); f.Dim != 3 || f.Kind != codec.KindL {
		t.Errorf("vec = %+v", f)
	}
	if !s.Field("id").Required {
		t.Error("required flag lost")
	}

	// Through a nil embedded pointer the value is the zero Value.
	v := reflect.ValueOf(WithEmbed{})
	if fv := s.Field("note").Value(v); fv.IsValid() {
		t.Errorf("Value through nil embedded pointer = %v", fv)
	}
	if !s.Field("note").IsZero(s.Field("note").Value(v)) {
		t.Error("IsZero of an unreachable field is false")
	}

	// Decode allocates the embedded pointer.
	var w WithEmbed
	err = s.Decode(map[string]types.AttributeValue{
		"id":   &types.AttributeValueMemberS{Value: "a"},
		"note": &types.AttributeValueMemberS{Value: "n"},
	}, reflect.ValueOf(&w))
	if err != nil || w.Extra == nil || w.Note != "n" || w.ID != "a" {
		t.Fatalf("Decode = %+v, %v", w, err)
	}
}

func TestStructEncodeDecode(t *testing.T) {
	s, _ := codec.StructOf(reflect.TypeFor[Order]())
	o := Order{UserID: "u1", PlacedAt: time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC), OrderID: "o1",
		Total: decimal.RequireFromString("10.50"), Version: 3}
	item, err := s.Encode(reflect.ValueOf(o), true)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"order_id":{"S":"o1"},"placed_at":{"S":"2024-06-01T12:00:00.000000000Z"},"status":{"S":""},"total":{"N":"10.5"},"user_id":{"S":"u1"},"version":{"N":"3"}}`
	if got := jsItem(item); got != want {
		t.Errorf("Encode(omitNil) =\n%s\nwant\n%s", got, want)
	}
	item, _ = s.Encode(reflect.ValueOf(&o), false)
	if got := js(item["tags"]); got != `{"NULL":true}` {
		t.Errorf("empty set without omitNil = %s, want NULL", got)
	}

	var back Order
	if err := s.Decode(item, reflect.ValueOf(&back).Elem()); err != nil {
		t.Fatal(err)
	}
	if back.UserID != "u1" || !back.PlacedAt.Equal(o.PlacedAt) || !back.Total.Equal(o.Total) || back.Status != "" || back.Tags != nil {
		t.Errorf("Decode = %+v", back)
	}

	// A missing attribute with a default loads as the default.
	var d Order
	if err := s.Decode(map[string]types.AttributeValue{}, reflect.ValueOf(&d)); err != nil || d.Status != "pending" {
		t.Errorf("missing status = %q, %v", d.Status, err)
	}
}

func TestRequired(t *testing.T) {
	s, _ := codec.StructOf(reflect.TypeFor[WithEmbed]())
	_, err := s.Encode(reflect.ValueOf(WithEmbed{}), true)
	var e *codec.Error
	if !errors.As(err, &e) || e.Path != "WithEmbed.id" {
		t.Fatalf("err = %v", err)
	}
	if err.Error() != "dynamo: WithEmbed.id: required field is not set" {
		t.Errorf("text = %q", err)
	}
}

func TestFieldEncodeDecode(t *testing.T) {
	s, _ := codec.StructOf(reflect.TypeFor[WithEmbed]())
	f := s.Field("vec")
	av, err := f.Encode(reflect.ValueOf([]float32{1, 0.5, -2}))
	if err != nil || js(av) != `{"L":[{"N":"1"},{"N":"0.5"},{"N":"-2"}]}` {
		t.Fatalf("Encode = %s, %v", js(av), err)
	}
	if av, err := f.Encode(reflect.ValueOf([]float32(nil))); av != nil || err != nil {
		t.Errorf("nil vector = %v, %v", av, err)
	}
	_, err = f.Encode(reflect.ValueOf([]float32{1}))
	if err == nil || err.Error() != "dynamo: vec: vector has 1 dimensions, field wants 3" {
		t.Errorf("short vector err = %v", err)
	}
	var out []float32
	if err := f.Decode(av, reflect.ValueOf(&out).Elem()); err != nil || !reflect.DeepEqual(out, []float32{1, 0.5, -2}) {
		t.Errorf("Decode = %v, %v", out, err)
	}
	err = f.Decode(&types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberN{Value: "1"}}}, reflect.ValueOf(&out).Elem())
	if err == nil || !strings.Contains(err.Error(), "vector has 1 dimensions, field wants 3") {
		t.Errorf("short vector load err = %v", err)
	}
}

func TestStructOfErrors(t *testing.T) {
	type badFlag struct {
		A string `dynamo:"a,wat"`
	}
	type badType struct {
		C chan int `dynamo:"c"`
	}
	type badDefault struct {
		N int `dynamo:"n,default=x"`
	}
	type badPrecision struct {
		N int `dynamo:"n,precision=s"`
	}
	type badDim struct {
		V []string `dynamo:"v,dim=3"`
	}
	type dup struct {
		A string `dynamo:"x"`
		B string `dynamo:"x"`
	}
	type nested struct {
		In struct {
			F func() `dynamo:"f"`
		} `dynamo:"in"`
	}
	tests := []struct {
		typ  reflect.Type
		want string
	}{
		{reflect.TypeFor[badFlag](), `dynamo: badFlag.A: unknown tag flag "wat"`},
		{reflect.TypeFor[badType](), `dynamo: badType.c: unsupported Go type chan int`},
		{reflect.TypeFor[badDefault](), `dynamo: badDefault.n: bad default "x": not a number`},
		{reflect.TypeFor[badPrecision](), `dynamo: badPrecision.n: precision= applies to time.Time, TimeOfDay and DateTime, not int`},
		{reflect.TypeFor[badDim](), `dynamo: badDim.v: dim= applies to []float32 and []float64 vectors, not []string`},
		{reflect.TypeFor[dup](), `dynamo: dup: attribute "x" is declared by both A and B`},
		{reflect.TypeFor[nested](), `dynamo: nested.in.f: unsupported Go type func()`},
		{reflect.TypeFor[int](), `dynamo: int is not a struct type`},
	}
	for _, tt := range tests {
		_, err := codec.StructOf(tt.typ)
		if err == nil || err.Error() != tt.want {
			t.Errorf("StructOf(%v) = %v\nwant %s", tt.typ, err, tt.want)
		}
	}
}

type Node struct {
	Name     string `dynamo:"name"`
	Children []Node `dynamo:"children"`
	Next     *Node  `dynamo:"next"`
}

func TestRecursiveType(t *testing.T) {
	n := Node{Name: "a", Children: []Node{{Name: "b"}}, Next: &Node{Name: "c"}}
	item, err := codec.MarshalItem(n)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"children":{"L":[{"M":{"name":{"S":"b"}}}]},"name":{"S":"a"},"next":{"M":{"name":{"S":"c"}}}}`
	if got := jsItem(item); got != want {
		t.Errorf("got %s", got)
	}
	var back Node
	if err := codec.UnmarshalItem(item, &back); err != nil || !reflect.DeepEqual(back, n) {
		t.Errorf("back = %+v, %v", back, err)
	}
}

func TestFieldEncodeAny(t *testing.T) {
	type T struct {
		Tags  codec.Set[string] `dynamo:"tags"`
		Nums  []int             `dynamo:"nums"`
		Small uint8             `dynamo:"small"`
		Ver   int64             `dynamo:"ver"`
		Total decimal.Decimal   `dynamo:"total"`
		P     *string           `dynamo:"p"`
		When  time.Time         `dynamo:"when,precision=s"`
		Blob  string            `dynamo:"blob,binary"`
	}
	s, err := codec.StructOf(reflect.TypeFor[T]())
	if err != nil {
		t.Fatal(err)
	}
	str := "x"
	tests := []struct {
		attr string
		v    any
		want string
	}{
		{"tags", "vip", `{"S":"vip"}`},
		{"tags", codec.NewSet("b", "a"), `{"SS":["a","b"]}`},
		{"nums", 7, `{"N":"7"}`},
		{"nums", []int{1, 2}, `{"L":[{"N":"1"},{"N":"2"}]}`},
		{"small", 200, `{"N":"200"}`},
		{"small", 300, `error: dynamo: small: cannot encode int as uint8`},
		{"ver", 1, `{"N":"1"}`},
		{"ver", 1.5, `error: dynamo: ver: cannot encode float64 as int64`},
		{"total", 2.5, `{"N":"2.5"}`},
		{"total", decimal.RequireFromString("1.10"), `{"N":"1.1"}`},
		{"p", "x", `{"S":"x"}`},
		{"p", &str, `{"S":"x"}`},
		{"p", (*string)(nil), `{"NULL":true}`},
		{"p", nil, `{"NULL":true}`},
		{"when", time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), `{"S":"2024-01-01T00:00:00Z"}`},
		{"when", "2024-06", `{"S":"2024-06"}`},
		{"when", 1700000000, `error: dynamo: when: cannot encode int as time.Time`},
		{"ver", codec.Number("12"), `{"N":"12"}`},
		{"ver", codec.Number("x"), `error: dynamo: ver: not a number`},
		{"ver", "12", `error: dynamo: ver: cannot encode string as int64`},
		{"blob", "hi", `{"B":"aGk="}`},
		{"tags", codec.Raw{Value: &types.AttributeValueMemberN{Value: "1"}}, `{"N":"1"}`},
	}
	for _, tt := range tests {
		av, err := s.Field(tt.attr).EncodeAny(tt.v)
		got := js(av)
		if err != nil {
			got = "error: " + err.Error()
		}
		if got != tt.want {
			t.Errorf("%s.EncodeAny(%#v) = %s, want %s", tt.attr, tt.v, got, tt.want)
		}
	}
}
