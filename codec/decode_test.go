package codec_test

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/codec"
	"github.com/dynamogo/dynamo/internal/avtest"
	"github.com/shopspring/decimal"
)

var (
	S, N, B, BOOL, NULL = avtest.S, avtest.N, avtest.B, avtest.BOOL, avtest.NULL
	L, M, SS, NS        = avtest.L, avtest.M, avtest.SS, avtest.NS
)

// load decodes av into a new value of out's type and returns it.
func load(t *testing.T, av types.AttributeValue, out any) any {
	t.Helper()
	p := reflect.New(reflect.TypeOf(out))
	if err := codec.Unmarshal(av, p.Interface()); err != nil {
		t.Fatalf("Unmarshal(%s) into %T: %v", js(av), out, err)
	}
	return p.Elem().Interface()
}

func TestUnmarshal(t *testing.T) {
	tm := time.Date(2024, 1, 15, 10, 0, 0, 123000000, time.UTC)
	tests := []struct {
		av   types.AttributeValue
		into any
		want any
	}{
		{S("x"), "", "x"},
		{N("-12"), 0, -12},
		{N("1E+2"), int64(0), int64(100)},
		{N("100.000"), uint16(0), uint16(100)},
		{N("0.1"), 0.0, 0.1},
		{N("1E-130"), 0.0, 1e-130},
		{N("3"), float32(0), float32(3)},
		{N("12345678901234567890123456789.123456789"), codec.Number(""), codec.Number("12345678901234567890123456789.123456789")},
		{BOOL(true), false, true},
		{B(1), []byte(nil), []byte{1}},
		{S("2024-01-15T11:00:00.123+01:00"), time.Time{}, tm},
		{S("2024-01-15T10:00:00.123Z"), time.Time{}, tm},
		{S("2024-02-29"), codec.Date{}, codec.Date{Year: 2024, Month: 2, Day: 29}},
		{S("23:59:59.5"), codec.TimeOfDay{}, codec.TimeOfDay{Hour: 23, Minute: 59, Second: 59, Nanosecond: 5e8}},
		{S("2024-01-02T03:04:05"), codec.DateTime{}, codec.DateTime{Date: codec.Date{Year: 2024, Month: 1, Day: 2}, Time: codec.TimeOfDay{Hour: 3, Minute: 4, Second: 5}}},
		{NULL(), "", ""},
		{NULL(), (*int)(nil), (*int)(nil)},
		{NULL(), codec.Set[string](nil), codec.Set[string](nil)},
		{SS("a", "b"), codec.Set[string](nil), codec.NewSet("a", "b")},
		{NS("1", "2.5"), codec.Set[float64](nil), codec.NewSet(1, 2.5)},
		{SS("a", "b"), []string(nil), []string{"a", "b"}},
		{NS("3", "1"), []int(nil), []int{3, 1}},
		{L(S("a"), NULL()), []*string(nil), []*string{ptr("a"), nil}},
		{L(N("1"), N("2")), [2]int{}, [2]int{1, 2}},
		{M("a", N("1")), map[string]int(nil), map[string]int{"a": 1}},
		{M("7", BOOL(true)), map[int]bool(nil), map[int]bool{7: true}},
		{M("a-b", N("1")), map[textID]int(nil), map[textID]int{{'a', 'b'}: 1}},
		{S("x-y"), textID{}, textID{'x', 'y'}},
		{N("5"), ptr(0), ptr(5)},
	}
	for _, tt := range tests {
		got := load(t, tt.av, tt.into)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Unmarshal(%s) into %T = %#v, want %#v", js(tt.av), tt.into, got, tt.want)
		}
	}
	d := load(t, N("-1.50"), decimal.Decimal{}).(decimal.Decimal)
	if d.String() != "-1.5" {
		t.Errorf("decimal = %s", d)
	}
}

func ptr[T any](v T) *T { return &v }

func TestUnmarshalAny(t *testing.T) {
	tests := []struct {
		av   types.AttributeValue
		want any
	}{
		{S("x"), "x"},
		{N("42"), int64(42)},
		{N("-9223372036854775808"), int64(math.MinInt64)},
		{N("1E+3"), int64(1000)},
		{N("9223372036854775808"), codec.Number("9223372036854775808")}, // 2^63: exact as a float, but its shortest text is 9223372036854776000
		{N("0.1"), 0.1},
		{N("1.5E-8"), 1.5e-8},
		{N("0.10000000000000000001"), codec.Number("0.10000000000000000001")},
		{N("12345678901234567891"), codec.Number("12345678901234567891")},
		{N("1E+300"), codec.Number("1E+300")},
		{N("1E+100"), 1e100},
		{N("123456789012345678901"), codec.Number("123456789012345678901")},
		{BOOL(false), false},
		{NULL(), nil},
		{B([]byte("z")...), []byte("z")},
		{L(S("a"), N("1")), []any{"a", int64(1)}},
		{M("S", S("not an AV")), map[string]any{"S": "not an AV"}},
		{SS("a"), codec.NewSet("a")},
		{NS("1", "2"), codec.NewSet[int64](1, 2)},
		{NS("1", "2.5"), codec.NewSet(1, 2.5)},
		{NS("1", "0.10000000000000000001"), codec.NewSet[codec.Number]("1", "0.10000000000000000001")},
		{&types.AttributeValueMemberBS{Value: [][]byte{{1}}}, codec.BinarySet{{1}}},
	}
	for _, tt := range tests {
		var got any
		if err := codec.Unmarshal(tt.av, &got); err != nil {
			t.Errorf("Unmarshal(%s): %v", js(tt.av), err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Unmarshal(%s) into any = %#v (%T), want %#v (%T)", js(tt.av), got, got, tt.want, tt.want)
		}
	}
}

type Item struct {
	SKU string `dynamo:"sku"`
}

type Cart struct {
	Items []Item          `dynamo:"items"`
	Attrs map[string]Item `dynamo:"attrs"`
	Vec   []float64       `dynamo:"embedding,dim=4"`
	Count int8            `dynamo:"count"`
	When  time.Time       `dynamo:"when,precision=ms"`
	Score float64         `dynamo:"score"`
}

func TestErrors(t *testing.T) {
	load := func(item map[string]types.AttributeValue) error {
		var c Cart
		return codec.UnmarshalItem(item, &c)
	}
	dump := func(c Cart) error {
		_, err := codec.MarshalItem(c)
		return err
	}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"path into list", load(map[string]types.AttributeValue{"items": L(M("sku", S("a")), M("sku", S("b")), M("sku", N("3")))}),
			"dynamo: Cart.items[2].sku: cannot load N into string"},
		{"path into map", load(map[string]types.AttributeValue{"attrs": M("x y", M("sku", BOOL(true)))}),
			`dynamo: Cart.attrs["x y"].sku: cannot load BOOL into string`},
		{"wrong type", load(map[string]types.AttributeValue{"count": S("1")}), "dynamo: Cart.count: cannot load S into int8"},
		{"overflow", load(map[string]types.AttributeValue{"count": N("300")}), "dynamo: Cart.count: number overflows int8"},
		{"fraction into int", load(map[string]types.AttributeValue{"count": N("1.5")}), "dynamo: Cart.count: number is not an integer"},
		{"not a number", load(map[string]types.AttributeValue{"count": N("x")}), `dynamo: Cart.count: not a number`},
		{"vector load", load(map[string]types.AttributeValue{"embedding": L(N("1"))}), "dynamo: Cart.embedding: vector has 1 dimensions, field wants 4"},
		{"vector dump", dump(Cart{Vec: []float64{1, 2, 3}}), "dynamo: Cart.embedding: vector has 3 dimensions, field wants 4"},
		{"vector NaN", dump(Cart{Vec: []float64{1, 2, 3, math.NaN()}}), "dynamo: Cart.embedding[3]: cannot store NaN: DynamoDB numbers are finite"},
		{"NaN", dump(Cart{Score: math.NaN()}), "dynamo: Cart.score: cannot store NaN: DynamoDB numbers are finite"},
		{"Inf", dump(Cart{Score: math.Inf(-1)}), "dynamo: Cart.score: cannot store -Inf: DynamoDB numbers are finite"},
		{"out of range", dump(Cart{Score: 1e126}), "dynamo: Cart.score: cannot store a number outside DynamoDB's range (1E-130 to 9.99…E+125)"},
		{"underflow", dump(Cart{Score: 1e-131}), "dynamo: Cart.score: cannot store a number outside DynamoDB's range (1E-130 to 9.99…E+125)"},
		{"finer than precision", dump(Cart{When: time.Date(2024, 1, 1, 0, 0, 0, 1500000, time.UTC)}),
			"dynamo: Cart.when: time is finer than precision=ms (refusing to truncate)"},
		{"bad time", load(map[string]types.AttributeValue{"when": S("yesterday")}), `dynamo: Cart.when: cannot parse an RFC 3339 time`},
		{"too many digits", func() error {
			_, err := codec.Marshal(codec.Number("123456789012345678901234567890123456789"))
			return err
		}(), "dynamo: number has more than 38 significant digits"},
		{"Number syntax", func() error { _, err := codec.Marshal(codec.Number("1e")); return err }(), `dynamo: not a number`},
		{"Number overflow", func() error { _, err := codec.Marshal(codec.Number("1E+126")); return err }(),
			"dynamo: number overflow: magnitude larger than DynamoDB supports (9.99…E+125)"},
		{"decimal underflow", func() error { _, err := codec.Marshal(decimal.New(1, -131)); return err }(),
			"dynamo: number underflow: magnitude smaller than DynamoDB supports (1E-130)"},
		{"binary set duplicates", func() error { _, err := codec.Marshal(codec.BinarySet{{1}, {1}}); return err }(), "dynamo: binary set holds an element twice"},
		{"Number set duplicates", func() error { _, err := codec.Marshal(codec.NewSet[codec.Number]("1", "1.0")); return err }(), `dynamo: set holds an element twice`},
		{"unsupported in any", func() error { _, err := codec.Marshal([]any{1, make(chan int)}); return err }(), "dynamo: [1]: unsupported Go type chan int"},
		{"complex", func() error { _, err := codec.Marshal(map[string]complex64{}); return err }(), "dynamo: unsupported Go type complex64"},
		{"invalid date", func() error { _, err := codec.Marshal(codec.Date{Year: 2023, Month: 2, Day: 29}); return err }(), "dynamo: invalid date: month or day out of range"},
		{"Unmarshal non-pointer", codec.Unmarshal(S("x"), ""), "dynamo: Unmarshal needs a non-nil pointer, got string"},
		{"MarshalItem scalar", func() error { _, err := codec.MarshalItem(3); return err }(), "dynamo: MarshalItem needs a struct or a map[string]T, got int"},
		{"array length", codec.Unmarshal(L(N("1")), new([2]int)), "dynamo: cannot load a list of 1 into [2]int"},
		{"unsigned", codec.Unmarshal(N("-1"), new(uint)), "dynamo: number is negative, field is unsigned"},
		{"set mismatch", codec.Unmarshal(NS("1"), new(codec.Set[string])), "dynamo: cannot load NS into codec.Set[string]"},
	}
	for _, tt := range tests {
		if tt.err == nil {
			t.Errorf("%s: no error, want %s", tt.name, tt.want)
			continue
		}
		if tt.err.Error() != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, tt.err, tt.want)
		}
		var e *codec.Error
		if !errors.As(tt.err, &e) {
			t.Errorf("%s: %T is not *codec.Error", tt.name, tt.err)
		}
	}
}

type failing struct{}

var errBoom = errors.New("boom")

func (failing) MarshalDynamo() (types.AttributeValue, error) { return nil, errBoom }
func (*failing) UnmarshalDynamo(types.AttributeValue) error  { return errBoom }

func TestUserErrorsUnwrap(t *testing.T) {
	type T struct {
		F failing `dynamo:"f"`
	}
	_, err := codec.MarshalItem(T{})
	if !errors.Is(err, errBoom) || err.Error() != "dynamo: T.f: MarshalDynamo: boom" {
		t.Errorf("marshal err = %v", err)
	}
	var v T
	err = codec.UnmarshalItem(map[string]types.AttributeValue{"f": NULL()}, &v)
	if !errors.Is(err, errBoom) || !strings.Contains(err.Error(), "T.f: UnmarshalDynamo: boom") {
		t.Errorf("unmarshal err = %v", err)
	}
}

type nullSeer struct{ sawNull bool }

func (n *nullSeer) UnmarshalDynamo(av types.AttributeValue) error {
	_, n.sawNull = av.(*types.AttributeValueMemberNULL)
	return nil
}

type awsCodec struct{ V string }

func (a awsCodec) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	return &types.AttributeValueMemberS{Value: "aws:" + a.V}, nil
}

func (a *awsCodec) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	s, ok := av.(*types.AttributeValueMemberS)
	if !ok || !strings.HasPrefix(s.Value, "aws:") {
		return errors.New("not aws")
	}
	a.V = s.Value[4:]
	return nil
}

func TestInterop(t *testing.T) {
	type T struct {
		N   nullSeer       `dynamo:"n"`
		A   awsCodec       `dynamo:"a"`
		AP  *awsCodec      `dynamo:"ap"`
		R   codec.Raw      `dynamo:"r"`
		Any any            `dynamo:"any"`
		RM  map[string]any `dynamo:"rm"`
		RL  []codec.Raw    `dynamo:"rl"`
	}
	item := map[string]types.AttributeValue{
		"n":   NULL(),
		"a":   S("aws:x"),
		"ap":  S("aws:y"),
		"r":   NULL(),
		"any": M("k", SS("a")),
		"rm":  M("S", S("v")),
		"rl":  L(NS("1"), NULL()),
	}
	var v T
	if err := codec.UnmarshalItem(item, &v); err != nil {
		t.Fatal(err)
	}
	if !v.N.sawNull || v.A.V != "x" || v.AP.V != "y" || js(v.R.Value) != `{"NULL":true}` || js(v.RL[0].Value) != `{"NS":["1"]}` {
		t.Errorf("decoded %+v", v)
	}
	if !reflect.DeepEqual(v.Any, map[string]any{"k": codec.NewSet("a")}) || !reflect.DeepEqual(v.RM, map[string]any{"S": "v"}) {
		t.Errorf("any = %#v, rm = %#v", v.Any, v.RM)
	}
	back, err := codec.MarshalItem(v)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"a":{"S":"aws:x"},"any":{"M":{"k":{"SS":["a"]}}},"ap":{"S":"aws:y"},"n":{"M":{}},"r":{"NULL":true},"rl":{"L":[{"NS":["1"]},{"NULL":true}]},"rm":{"M":{"S":{"S":"v"}}}}`
	if got := jsItem(back); got != want {
		t.Errorf("re-encoded\n%s\nwant\n%s", got, want)
	}
}

// The decimal fast path must give decimals that behave exactly like
// decimal.NewFromString's.
func TestDecimalFastPath(t *testing.T) {
	for _, s := range []string{"0", "-0", "0.00", "1", "-1", "149.95", "1.50", "-0.000123", "999999999999999999", "-999999999999999999",
		"1E+2", "12.5e-3", "123456789012345678901234567890", "9.99E+125", "1E-130"} {
		var d decimal.Decimal
		if err := codec.Unmarshal(N(s), &d); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		want := decimal.RequireFromString(s)
		if !d.Equal(want) || d.String() != want.String() || d.Exponent() != want.Exponent() {
			t.Errorf("%s: got %s (exp %d), want %s (exp %d)", s, d, d.Exponent(), want, want.Exponent())
		}
		// Arithmetic must not disturb the loaded value.
		sum := d.Add(decimal.NewFromInt(1)).Sub(decimal.NewFromInt(1))
		if !sum.Equal(want) || !d.Equal(want) || d.Neg().Neg().String() != want.String() {
			t.Errorf("%s: arithmetic changed the value: %s %s", s, sum, d)
		}
	}
}
