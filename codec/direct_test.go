package codec_test

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/codec"
	"github.com/shopspring/decimal"
)

type directLine struct {
	SKU   string  `dynamo:"sku"`
	Qty   int16   `dynamo:"qty"`
	Price float32 `dynamo:"price"`
}

type directLevel string

type DirectEmbedded struct {
	Note string `dynamo:"note"`
}

// directAll has a field of every type coded at its address, and an
// embedded pointer whose field is not.
type directAll struct {
	I    int                `dynamo:"i"`
	I8   int8               `dynamo:"i8"`
	I16  int16              `dynamo:"i16"`
	I32  int32              `dynamo:"i32"`
	I64  int64              `dynamo:"i64"`
	U    uint               `dynamo:"u"`
	U8   uint8              `dynamo:"u8"`
	U16  uint16             `dynamo:"u16"`
	U32  uint32             `dynamo:"u32"`
	U64  uint64             `dynamo:"u64"`
	F32  float32            `dynamo:"f32"`
	F64  float64            `dynamo:"f64"`
	B    bool               `dynamo:"b"`
	Lv   directLevel        `dynamo:"lv"`
	At   time.Time          `dynamo:"at"`
	Unix time.Time          `dynamo:"unix,unixtime"`
	Dec  decimal.Decimal    `dynamo:"dec"`
	SS   codec.Set[string]  `dynamo:"ss"`
	NS   codec.Set[int]     `dynamo:"ns"`
	Map  map[string]string  `dynamo:"map"`
	List []directLine       `dynamo:"list"`
	Ints []int16            `dynamo:"ints"`
	P    *int32             `dynamo:"p"`
	PL   *directLine        `dynamo:"pl"`
	Nest map[string]*uint16 `dynamo:"nest"`
	*DirectEmbedded
}

func directValue() directAll {
	p, u := int32(-7), uint16(9)
	return directAll{
		I: -1 << 40, I8: -128, I16: -32768, I32: -1 << 31, I64: -1 << 63,
		U: 1 << 40, U8: 255, U16: 65535, U32: 1<<32 - 1, U64: 1<<64 - 1,
		F32: 0.1, F64: -2.5e-100, B: true, Lv: "high",
		At:   time.Date(2024, 2, 29, 23, 59, 59, 120000000, time.UTC),
		Unix: time.Unix(1717245045, 0).UTC(),
		Dec:  decimal.RequireFromString("-12.340"),
		SS:   codec.NewSet("b", "a"), NS: codec.NewSet(3, -1),
		Map:  map[string]string{"k": "v"},
		List: []directLine{{"A", 2, 1.5}, {"B", -1, 0}},
		Ints: []int16{1, -2}, P: &p, PL: &directLine{SKU: "C"},
		Nest:           map[string]*uint16{"x": &u},
		DirectEmbedded: &DirectEmbedded{Note: "n"},
	}
}

// A struct coded at its address (MarshalItem of a pointer) writes what
// the reflect path writes (Marshal of the struct value, not addressable),
// and loads back the same value.
func TestDirectMatchesReflect(t *testing.T) {
	v := directValue()
	item, err := codec.MarshalItem(&v)
	if err != nil {
		t.Fatal(err)
	}
	av, err := codec.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := jsItem(item), jsItem(av.(*types.AttributeValueMemberM).Value); got != want {
		t.Fatalf("direct %s\nreflect %s", got, want)
	}
	if got := js(item["i64"]) + js(item["u64"]) + js(item["dec"]) + js(item["at"]); got !=
		`{"N":"-9223372036854775808"}{"N":"18446744073709551615"}{"N":"-12.34"}{"S":"2024-02-29T23:59:59.120000000Z"}` {
		t.Errorf("wire forms: %s", got)
	}
	var back directAll
	if err := codec.UnmarshalItem(item, &back); err != nil {
		t.Fatal(err)
	}
	if !back.Dec.Equal(v.Dec) {
		t.Errorf("dec %s, want %s", back.Dec, v.Dec)
	}
	back.Dec, v.Dec = decimal.Decimal{}, decimal.Decimal{}
	if !reflect.DeepEqual(back, v) {
		t.Errorf("round trip:\n got %+v\nwant %+v", back, v)
	}
}

// NULL zeroes a field coded at its address, and a nil pointer; a value
// that does not fit leaves an error naming the field.
func TestDirectNullAndErrors(t *testing.T) {
	v := directValue()
	null := &types.AttributeValueMemberNULL{Value: true}
	item := map[string]types.AttributeValue{"i8": null, "at": null, "p": null, "list": null, "lv": null}
	if err := codec.UnmarshalItem(item, &v); err != nil {
		t.Fatal(err)
	}
	if v.I8 != 0 || !v.At.IsZero() || v.P != nil || v.List != nil || v.Lv != "" || v.I16 != -32768 {
		t.Errorf("after NULL: %+v", v)
	}
	for attr, av := range map[string]types.AttributeValue{
		"i8":   &types.AttributeValueMemberN{Value: "128"},
		"u8":   &types.AttributeValueMemberN{Value: "-1"},
		"f32":  &types.AttributeValueMemberS{Value: "1"},
		"list": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberS{Value: "x"}}},
	} {
		err := codec.UnmarshalItem(map[string]types.AttributeValue{attr: av}, &v)
		if err == nil || !strings.Contains(err.Error(), "directAll."+attr) {
			t.Errorf("%s: %v", attr, err)
		}
	}
}

// Times in the form the codec writes are read without time.Parse; every
// text is read exactly as time.Parse with RFC3339Nano reads it, or
// refused as it refuses it.
func TestTimeTextAsTimeParse(t *testing.T) {
	for _, s := range []string{
		"2024-06-01T12:30:45Z", "2024-06-01T12:30:45.1Z", "2024-06-01T12:30:45.123456789Z",
		"2024-02-29T23:59:59.000Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z",
		"2024-06-01T12:30:45.1234567891Z", "2024-06-01T12:30:45+02:00", "2024-06-01T12:30:45.5-07:30",
		"2023-02-29T00:00:00Z", "2024-04-31T00:00:00Z", "2024-13-01T00:00:00Z", "2024-00-01T00:00:00Z",
		"2024-06-00T00:00:00Z", "2024-06-01T24:00:00Z", "2024-06-01T12:60:00Z", "2024-06-01T12:30:60Z",
		"2024-06-01T12:30:45.Z", "2024-06-01T12:30:45,5Z", "2024-06-01t12:30:45z", "2024-06-01 12:30:45Z",
		"2024-6-01T12:30:45Z", "+2024-06-01T12:30:45Z", "2024-06-01T12:30:4aZ", "2024-06-01T12:30:45",
	} {
		want, werr := time.Parse(time.RFC3339Nano, s)
		var got time.Time
		err := codec.Unmarshal(&types.AttributeValueMemberS{Value: s}, &got)
		switch {
		case (err != nil) != (werr != nil):
			t.Errorf("%q: error %v, time.Parse %v", s, err, werr)
		case err == nil && (got != want.UTC()):
			t.Errorf("%q: %v, want %v", s, got, want.UTC())
		}
	}
}

// The sets and string maps decoded at their address (Set[string],
// Set[int], map[string]string) load what the general path loads for the
// same shapes of another type, and fail where it fails, with the same
// message but for the type's name.
func TestDirectSetsAndMapsMatchGeneral(t *testing.T) {
	type direct struct {
		SS  codec.Set[string] `dynamo:"ss"`
		NS  codec.Set[int]    `dynamo:"ns"`
		Map map[string]string `dynamo:"map"`
	}
	type general struct {
		SS  map[string]struct{}    `dynamo:"ss"`
		NS  map[int]struct{}       `dynamo:"ns"`
		Map map[string]directLevel `dynamo:"map"`
	}
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	null := &types.AttributeValueMemberNULL{Value: true}
	for _, av := range []struct {
		attr string
		av   types.AttributeValue
	}{
		{"ss", &types.AttributeValueMemberSS{Value: []string{"b", "a", ""}}},
		{"ss", &types.AttributeValueMemberSS{Value: []string{}}},
		{"ss", &types.AttributeValueMemberNS{Value: []string{"1"}}},
		{"ss", s("a")},
		{"ss", null},
		{"ns", &types.AttributeValueMemberNS{Value: []string{"3", "-1", "1E2", "0.0", "-9223372036854775808"}}},
		{"ns", &types.AttributeValueMemberNS{Value: []string{"1.5"}}},
		{"ns", &types.AttributeValueMemberNS{Value: []string{"x"}}},
		{"ns", &types.AttributeValueMemberNS{Value: []string{"9223372036854775808"}}},
		{"ns", &types.AttributeValueMemberSS{Value: []string{"1"}}},
		{"ns", null},
		{"map", &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"a": s("x"), "b": null, "": s("")}}},
		{"map", &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}}},
		{"map", &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"a": &types.AttributeValueMemberN{Value: "1"}}}},
		{"map", &types.AttributeValueMemberL{}},
		{"map", null},
	} {
		item := map[string]types.AttributeValue{av.attr: av.av}
		// A set is replaced; a map[string]string too, where other maps
		// merge into the one there: the maps start nil.
		d := direct{SS: codec.NewSet("old"), NS: codec.NewSet(7)}
		g := general{SS: map[string]struct{}{"old": {}}, NS: map[int]struct{}{7: {}}}
		derr, gerr := codec.UnmarshalItem(item, &d), codec.UnmarshalItem(item, &g)
		if derr != nil || gerr != nil {
			got, want := fmt.Sprint(derr), fmt.Sprint(gerr)
			got = strings.NewReplacer("direct.", "general.", "codec.Set[string]", "map[string]struct {}",
				"codec.Set[int]", "map[int]struct {}", "into string", "into codec_test.directLevel",
				"map[string]string", "map[string]codec_test.directLevel").Replace(got)
			if got != want {
				t.Errorf("%s: error %q, general %q", js(av.av), derr, gerr)
			}
			continue
		}
		var got, want string
		switch av.attr {
		case "ss":
			got, want = fmt.Sprint(map[string]struct{}(d.SS)), fmt.Sprint(g.SS)
			if (d.SS == nil) != (g.SS == nil) {
				t.Errorf("%s: nil %v, general nil %v", js(av.av), d.SS == nil, g.SS == nil)
			}
		case "ns":
			got, want = fmt.Sprint(map[int]struct{}(d.NS)), fmt.Sprint(g.NS)
			if (d.NS == nil) != (g.NS == nil) {
				t.Errorf("%s: nil %v, general nil %v", js(av.av), d.NS == nil, g.NS == nil)
			}
		case "map":
			got, want = fmt.Sprint(d.Map), fmt.Sprint(g.Map)
			if (d.Map == nil) != (g.Map == nil) {
				t.Errorf("%s: nil %v, general nil %v", js(av.av), d.Map == nil, g.Map == nil)
			}
		}
		if got != want {
			t.Errorf("%s: loads %s, general %s", js(av.av), got, want)
		}
	}
}

type directNamedPtr *directLine

// MarshalItem and UnmarshalItem of a pointer to a struct take its plan
// from a cache kept by the pointer's type: a nil pointer after a cached
// one is still an error, a named pointer type is coded as its struct, and
// many types sharing the cache's slots each get their own plan.
func TestItemPointerPlans(t *testing.T) {
	v := directLine{SKU: "A", Qty: 2, Price: 1.5}
	want := `{"price":{"N":"1.5"},"qty":{"N":"2"},"sku":{"S":"A"}}`
	for range 2 {
		item, err := codec.MarshalItem(&v)
		if err != nil || jsItem(item) != want {
			t.Fatalf("MarshalItem = %s, %v; want %s", jsItem(item), err, want)
		}
		var back directLine
		if err := codec.UnmarshalItem(item, &back); err != nil || back != v {
			t.Fatalf("UnmarshalItem = %+v, %v", back, err)
		}
		if _, err := codec.MarshalItem((*directLine)(nil)); err == nil || err.Error() != "dynamo: MarshalItem of a nil *codec_test.directLine" {
			t.Errorf("MarshalItem of a nil pointer: %v", err)
		}
		if err := codec.UnmarshalItem(item, (*directLine)(nil)); err == nil || err.Error() != "dynamo: UnmarshalItem needs a non-nil pointer, got *codec_test.directLine" {
			t.Errorf("UnmarshalItem into a nil pointer: %v", err)
		}
		item, err = codec.MarshalItem(directNamedPtr(&v))
		if err != nil || jsItem(item) != want {
			t.Errorf("MarshalItem of a named pointer = %s, %v", jsItem(item), err)
		}
		var named directLine
		if err := codec.UnmarshalItem(item, directNamedPtr(&named)); err != nil || named != v {
			t.Errorf("UnmarshalItem into a named pointer = %+v, %v", named, err)
		}
	}
	const n = 200
	typs := make([]reflect.Type, n)
	for i := range typs {
		typs[i] = reflect.StructOf([]reflect.StructField{{
			Name: "F", Type: reflect.TypeFor[int](), Tag: reflect.StructTag(fmt.Sprintf(`dynamo:"f%d"`, i)),
		}})
	}
	for round := range 2 {
		for i, typ := range typs {
			p := reflect.New(typ)
			p.Elem().Field(0).SetInt(int64(i))
			item, err := codec.MarshalItem(p.Interface())
			if w := fmt.Sprintf(`{"f%d":{"N":"%d"}}`, i, i); err != nil || jsItem(item) != w {
				t.Fatalf("round %d, type %d: MarshalItem = %s, %v; want %s", round, i, jsItem(item), err, w)
			}
			back := reflect.New(typ)
			if err := codec.UnmarshalItem(item, back.Interface()); err != nil || back.Elem().Field(0).Int() != int64(i) {
				t.Fatalf("round %d, type %d: UnmarshalItem = %v, %v", round, i, back.Elem().Interface(), err)
			}
		}
	}
}

// Goroutines coding pointers of types that share the plan cache's slots
// each get their own type's item.
func TestItemPointerPlansConcurrent(t *testing.T) {
	typs := make([]reflect.Type, 100)
	for i := range typs {
		typs[i] = reflect.StructOf([]reflect.StructField{{
			Name: "F", Type: reflect.TypeFor[string](), Tag: reflect.StructTag(fmt.Sprintf(`dynamo:"c%d"`, i)),
		}})
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := range 4 {
		wg.Go(func() {
			for j := range 3 * len(typs) {
				i := (j*7 + g*13) % len(typs)
				p := reflect.New(typs[i])
				p.Elem().Field(0).SetString("v")
				item, err := codec.MarshalItem(p.Interface())
				if w := fmt.Sprintf(`{"c%d":{"S":"v"}}`, i); err != nil || jsItem(item) != w {
					errs <- fmt.Errorf("type %d: MarshalItem = %s, %v; want %s", i, jsItem(item), err, w)
					return
				}
				back := reflect.New(typs[i])
				if err := codec.UnmarshalItem(item, back.Interface()); err != nil || back.Elem().Field(0).String() != "v" {
					errs <- fmt.Errorf("type %d: UnmarshalItem = %v, %v", i, back.Elem().Interface(), err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
