package codec_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/codec"
)

// The codec writes and reads times, floats and decimals with its own
// digit code; these tests hold it to the standard library's answers over
// the whole range, edges included.

type timeForms struct {
	S  time.Time `dynamo:"s,precision=s"`
	MS time.Time `dynamo:"ms,precision=ms"`
	US time.Time `dynamo:"us,precision=us"`
	NS time.Time `dynamo:"ns"`
}

func TestTimeTextMatchesTimeFormat(t *testing.T) {
	first := time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC)
	last := time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)
	times := []time.Time{first, last,
		time.Date(0, 2, 29, 12, 0, 0, 0, time.UTC), time.Date(0, 3, 1, 0, 0, 0, 0, time.UTC),
		time.Date(1969, 12, 31, 23, 59, 59, 0, time.UTC), time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2000, 2, 29, 0, 0, 0, 0, time.UTC), time.Date(2100, 2, 28, 23, 59, 59, 0, time.UTC),
		time.Date(2024, 6, 1, 12, 30, 45, 123456789, time.FixedZone("x", -7*3600)),
	}
	r := rand.New(rand.NewPCG(1, 2))
	span := last.Unix() - first.Unix()
	for range 20000 {
		times = append(times, time.Unix(first.Unix()+r.Int64N(span), r.Int64N(1e9)))
	}
	for _, at := range times {
		v := timeForms{S: at.Truncate(time.Second), MS: at.Truncate(time.Millisecond), US: at.Truncate(time.Microsecond), NS: at}
		item, err := codec.MarshalItem(v)
		if err != nil {
			t.Fatalf("%v: %v", at, err)
		}
		for name, layout := range map[string]string{
			"s": "2006-01-02T15:04:05Z", "ms": "2006-01-02T15:04:05.000Z",
			"us": "2006-01-02T15:04:05.000000Z", "ns": "2006-01-02T15:04:05.000000000Z",
		} {
			got := item[name].(*types.AttributeValueMemberS).Value
			if want := at.UTC().Format(layout); got != want {
				t.Fatalf("%s of %v = %q, want %q", name, at, got, want)
			}
			parsed, err := time.Parse(time.RFC3339Nano, got)
			if err != nil {
				t.Fatal(err)
			}
			var back time.Time
			if err := codec.Unmarshal(item[name], &back); err != nil {
				t.Fatal(err)
			}
			if back != parsed.UTC() {
				t.Fatalf("%q loads as %#v, want %#v", got, back, parsed.UTC())
			}
		}
	}
	for _, out := range []time.Time{first.Add(-time.Second), last.Add(time.Nanosecond)} {
		if _, err := codec.Marshal(out); err == nil || !strings.Contains(err.Error(), "outside years") {
			t.Errorf("Marshal(%v) = %v, want an error", out, err)
		}
	}
}

// canonicalFloat is the number form the codec writes for a float, built
// from the shortest 'e' digits: plain notation for leading-digit exponents
// in [-7, 21), d.dddE±x beyond.
func canonicalFloat(f float64, bits int) string {
	if f == 0 {
		return "0"
	}
	e := strconv.FormatFloat(f, 'e', -1, bits)
	sign := ""
	if e[0] == '-' {
		sign, e = "-", e[1:]
	}
	mant, exps, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(exps)
	digits := strings.Replace(mant, ".", "", 1)
	switch {
	case exp >= 0 && exp < 21:
		if len(digits) <= exp+1 {
			return sign + digits + strings.Repeat("0", exp+1-len(digits))
		}
		return sign + digits[:exp+1] + "." + digits[exp+1:]
	case exp < 0 && exp >= -7:
		return sign + "0." + strings.Repeat("0", -exp-1) + digits
	}
	out := sign + digits[:1]
	if len(digits) > 1 {
		out += "." + digits[1:]
	}
	if exp >= 0 {
		return out + "E+" + strconv.Itoa(exp)
	}
	return out + "E" + strconv.Itoa(exp)
}

func TestFloatTextIsCanonical(t *testing.T) {
	floats := []float64{1, -1, 0.5, 9.99, 120.5, 1e-7, 1e21, 1e20, 123456789012345678901, 1e-130, 9.99e125, 0.1, 1.0 / 3}
	for _, edge := range []float64{1e-7, 1e21} {
		for x, i := edge, 0; i < 3; i++ {
			x = math.Nextafter(x, 0)
			floats = append(floats, x, math.Nextafter(edge, math.Inf(1)))
		}
	}
	for _, edge := range []float32{1e-7, 1e21} {
		floats = append(floats, float64(edge), float64(math.Nextafter32(edge, 0)), float64(math.Nextafter32(edge, 1e30)))
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 50000 {
		f := math.Float64frombits(r.Uint64())
		if a := math.Abs(f); math.IsNaN(f) || math.IsInf(f, 0) || a > 9e125 || a < 1e-129 {
			continue
		}
		floats = append(floats, f)
		if f32 := float64(float32(f)); !math.IsInf(f32, 0) {
			floats = append(floats, f32)
		}
	}
	for i := range 1000 {
		floats = append(floats, float64(i)/100, r.Float64()*math.Pow10(r.IntN(40)-15))
	}
	for _, f := range floats {
		for _, neg := range []bool{false, true} {
			if neg {
				f = -f
			}
			av, err := codec.Marshal(f)
			if err != nil {
				t.Fatalf("Marshal(%v): %v", f, err)
			}
			if got, want := av.(*types.AttributeValueMemberN).Value, canonicalFloat(f, 64); got != want {
				t.Fatalf("Marshal(%v) = %s, want %s", f, got, want)
			}
			if f32 := float32(f); !math.IsInf(float64(f32), 0) && (f32 == 0 || math.Abs(float64(f32)) >= 1e-38) {
				av, err := codec.Marshal(f32)
				if err != nil {
					t.Fatalf("Marshal(float32 %v): %v", f32, err)
				}
				if got, want := av.(*types.AttributeValueMemberN).Value, canonicalFloat(float64(f32), 32); got != want {
					t.Fatalf("Marshal(float32 %v) = %s, want %s", f32, got, want)
				}
			}
		}
	}
}

func TestIntegerDecodeMatchesStrconv(t *testing.T) {
	texts := []string{"0", "-0", "7", "007", "-128", "127", "128", "-129", "255", "256", "-1",
		"32767", "-32768", "65535", "65536", "2147483647", "-2147483648", "4294967295", "4294967296",
		"999999999999999999", "-999999999999999999", "1000000000000000000", "9223372036854775807",
		"-9223372036854775808", "9223372036854775808", "18446744073709551615", "18446744073709551616",
		"", "-", "+5", "1e3", "1.0", "12a", "--1"}
	r := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		texts = append(texts, strconv.FormatInt(r.Int64()>>r.IntN(64), 10), strconv.FormatUint(r.Uint64()>>r.IntN(64), 10))
	}
	// Where strconv reads the text, or finds it out of range, the codec
	// must agree; other forms ("1e3", "+5", "-0" into an unsigned field)
	// are the slower path's, unchanged here.
	check := func(text string, bits int, got int64, gotErr error, want int64, wantErr error) {
		t.Helper()
		switch {
		case wantErr == nil && (gotErr != nil || got != want):
			t.Errorf("%q into %d bits: got %d, %v; want %d", text, bits, got, gotErr, want)
		case errors.Is(wantErr, strconv.ErrRange) && gotErr == nil:
			t.Errorf("%q into %d bits: got %d, want an overflow error", text, bits, got)
		}
	}
	for _, text := range texts {
		av := &types.AttributeValueMemberN{Value: text}
		var i8 int8
		var i16 int16
		var i32 int32
		var i64 int64
		var u8 uint8
		var u32 uint32
		var u64 uint64
		for _, c := range []struct {
			bits   int
			signed bool
			out    any
			get    func() int64
		}{
			{8, true, &i8, func() int64 { return int64(i8) }},
			{16, true, &i16, func() int64 { return int64(i16) }},
			{32, true, &i32, func() int64 { return int64(i32) }},
			{64, true, &i64, func() int64 { return i64 }},
			{8, false, &u8, func() int64 { return int64(u8) }},
			{32, false, &u32, func() int64 { return int64(u32) }},
			{64, false, &u64, func() int64 { return int64(u64) }},
		} {
			err := codec.Unmarshal(av, c.out)
			if c.signed {
				want, wantErr := strconv.ParseInt(text, 10, c.bits)
				check(text, c.bits, c.get(), err, want, wantErr)
			} else {
				want, wantErr := strconv.ParseUint(text, 10, c.bits)
				check(text, c.bits, c.get(), err, int64(want), wantErr)
			}
		}
	}
}

// A small string set is sorted on the stack by its own insertion sort; at
// every size, on either side of the cut, it is written in slices.Sort's
// order.
func TestStringSetOrderMatchesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	alphabet := []string{"", "a", "b", "A", "é", "ab", "aa", "a\x00", "\xff", "z", "日本"}
	for size := 1; size <= 40; size++ {
		for range 200 {
			s := codec.NewSet[string]()
			for len(s) < size {
				var b strings.Builder
				for range r.IntN(4) {
					b.WriteString(alphabet[r.IntN(len(alphabet))])
				}
				s[b.String()+strconv.Itoa(r.IntN(size*2))] = struct{}{}
			}
			av, err := codec.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]string, 0, len(s))
			for k := range s {
				want = append(want, k)
			}
			slices.Sort(want)
			if got := av.(*types.AttributeValueMemberSS).Value; !slices.Equal(got, want) {
				t.Fatalf("size %d: %q, want %q", size, got, want)
			}
		}
	}
}

// Floats that are short decimals (a price, a quantity) are written and
// read without strconv; around the edges of that path (fraction digits,
// 2^40 units, 15 digits, the floats next to each decimal) the text and
// the value are strconv's.
func TestShortFloatsMatchStrconv(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	var floats []float64
	for range 100000 {
		n := 1 + r.Int64N(1<<(1+r.IntN(42)))
		f := float64(n) / math.Pow10(r.IntN(8))
		floats = append(floats, f, math.Nextafter(f, 0), math.Nextafter(f, math.Inf(1)))
	}
	for _, edge := range []float64{1 << 40, 1<<40 - 1, 1<<40 + 1, (1<<40 - 1) / 1e4, 1e-4, 1e-5, 0.0001, 0.00015} {
		floats = append(floats, edge, math.Nextafter(edge, 0), math.Nextafter(edge, math.Inf(1)))
	}
	for _, f := range floats {
		for _, f := range []float64{f, -f} {
			av, err := codec.Marshal(f)
			if err != nil {
				t.Fatalf("Marshal(%v): %v", f, err)
			}
			if got, want := av.(*types.AttributeValueMemberN).Value, canonicalFloat(f, 64); got != want {
				t.Fatalf("Marshal(%v) = %s, want %s", f, got, want)
			}
		}
	}
	texts := []string{"0", "-0", "0.0", "-0.0", "00.5", "5.", ".5", "-", "", "-.5", "1.2.3", "+1", "1e5",
		"123456789012345", "1234567890123456", "12345678901234.5", "1234567890123.45", "0.000000000000001",
		"9007199254740993", "999999999999999", "-999999999999999", "1_0", "0x10", "NaN", "Inf", "1.5 ", " 1.5"}
	for range 100000 {
		var b strings.Builder
		if r.IntN(3) == 0 {
			b.WriteByte('-')
		}
		nd := 1 + r.IntN(17)
		point := r.IntN(nd + 1)
		for i := range nd {
			if i == point && i > 0 {
				b.WriteByte('.')
			}
			b.WriteByte(byte('0' + r.IntN(10)))
		}
		texts = append(texts, b.String())
	}
	for _, text := range texts {
		var got float64
		err := codec.Unmarshal(&types.AttributeValueMemberN{Value: text}, &got)
		want, werr := strconv.ParseFloat(text, 64)
		switch {
		case werr == nil && (err != nil || math.Float64bits(got) != math.Float64bits(want)):
			t.Fatalf("%q: got %v (%v), want %v", text, got, err, want)
		case werr != nil && err == nil:
			t.Fatalf("%q: got %v, strconv refuses it: %v", text, got, werr)
		}
	}
}

// Integers below 100 take strconv's constant text instead of the slab's;
// either side of the cut the text is strconv's.
func TestSmallIntegerText(t *testing.T) {
	for n := int64(-300); n <= 300; n++ {
		av, err := codec.Marshal(n)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := av.(*types.AttributeValueMemberN).Value, strconv.FormatInt(n, 10); got != want {
			t.Fatalf("Marshal(%d) = %s", n, got)
		}
		if n >= 0 {
			av, err := codec.Marshal(uint16(n))
			if err != nil {
				t.Fatal(err)
			}
			if got, want := av.(*types.AttributeValueMemberN).Value, strconv.FormatInt(n, 10); got != want {
				t.Fatalf("Marshal(uint16 %d) = %s", n, got)
			}
		}
		av, err = codec.Marshal(codec.NewSet(int(n), int(n)+100))
		if err != nil {
			t.Fatal(err)
		}
		want := []string{strconv.FormatInt(n, 10), strconv.FormatInt(n+100, 10)}
		if got := av.(*types.AttributeValueMemberNS).Value; !slices.Equal(got, want) {
			t.Fatalf("Marshal(Set %d) = %q, want %q", n, got, want)
		}
	}
}

type leafName string

// leafUpper is a string kind with its own encoder, which must win over the
// inline string path.
type leafUpper string

func (u leafUpper) MarshalDynamo() (types.AttributeValue, error) {
	return &types.AttributeValueMemberS{Value: strings.ToUpper(string(u))}, nil
}

func (u *leafUpper) UnmarshalDynamo(av types.AttributeValue) error { return nil }

// leafPlain has the scalars a struct's plain fields and a list's elements
// encode inline; leafOmit the same values through the general path of a
// field (omitempty takes it off the short path).
type leafPlain struct {
	S  string    `dynamo:"s,default=d"`
	N  leafName  `dynamo:"n"`
	I  int       `dynamo:"i,default=5"`
	I6 int64     `dynamo:"i6"`
	B  bool      `dynamo:"b,default=true"`
	F  float64   `dynamo:"f"`
	U  leafUpper `dynamo:"u"`
	SL []string  `dynamo:"sl"`
	IL []int     `dynamo:"il"`
	BL []bool    `dynamo:"bl"`
	FL []float64 `dynamo:"fl"`
	UL []leafUpper
}

type leafOmit struct {
	S  string    `dynamo:"s,omitempty"`
	N  leafName  `dynamo:"n,omitempty"`
	I  int       `dynamo:"i,omitempty"`
	I6 int64     `dynamo:"i6,omitempty"`
	B  bool      `dynamo:"b,omitempty"`
	F  float64   `dynamo:"f,omitempty"`
	U  leafUpper `dynamo:"u,omitempty"`
	SL []string  `dynamo:"sl,omitempty"`
	IL []int     `dynamo:"il,omitempty"`
	BL []bool    `dynamo:"bl,omitempty"`
	FL []float64 `dynamo:"fl,omitempty"`
	UL []leafUpper
}

// The scalars encoded inline write what their codecs write: through a
// field's general path, through reflection (a struct value that is not
// addressable), and element by element; zero values are written as they
// are (a default is for absent values only), and a float that cannot be
// stored is an error naming its field or element.
func TestInlineScalarsMatchGeneral(t *testing.T) {
	for _, v := range []leafPlain{
		{S: "x", N: "y", I: -1 << 62, I6: math.MinInt64, B: true, F: 2.5e-100, U: "up",
			SL: []string{"a", ""}, IL: []int{0, 99, 100, -7}, BL: []bool{true, false},
			FL: []float64{0.1, -0, 1e21, 149.95}, UL: []leafUpper{"a", "b"}},
		{I: 99, I6: 100, F: 19.99, SL: []string{}, IL: []int{}},
	} {
		inline, err := codec.MarshalItem(&v)
		if err != nil {
			t.Fatal(err)
		}
		viaReflect, err := codec.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		o := leafOmit(v)
		general, err := codec.MarshalItem(&o)
		if err != nil {
			t.Fatal(err)
		}
		got := jsItem(inline)
		if want := jsItem(viaReflect.(*types.AttributeValueMemberM).Value); got != want {
			t.Errorf("inline  %s\nreflect %s", got, want)
		}
		for k, av := range general {
			if js(av) != js(inline[k]) {
				t.Errorf("%s: inline %s, general %s", k, js(inline[k]), js(av))
			}
		}
		for _, x := range []struct {
			v    any
			name string
		}{{v.S, "s"}, {v.N, "n"}, {v.I, "i"}, {v.I6, "i6"}, {v.B, "b"}, {v.F, "f"}, {v.U, "u"}} {
			av, err := codec.Marshal(x.v)
			if err != nil {
				t.Fatal(err)
			}
			if js(av) != js(inline[x.name]) {
				t.Errorf("%s: inline %s, alone %s", x.name, js(inline[x.name]), js(av))
			}
		}
		var back leafPlain
		if err := codec.UnmarshalItem(inline, &back); err != nil {
			t.Fatal(err)
		}
		if back.S != v.S || back.I != v.I || back.I6 != v.I6 || back.B != v.B || back.F != v.F ||
			!slices.Equal(back.IL, v.IL) || !slices.Equal(back.FL, v.FL) {
			t.Errorf("round trip: %+v, want %+v", back, v)
		}
	}
	var zero leafPlain
	item, err := codec.MarshalItem(&zero)
	if err != nil {
		t.Fatal(err)
	}
	if got := js(item["s"]) + js(item["i"]) + js(item["b"]) + js(item["f"]) + js(item["u"]); got !=
		`{"S":""}{"N":"0"}{"BOOL":false}{"N":"0"}{"S":""}` {
		t.Errorf("zero values: %s", got)
	}
	if _, ok := item["sl"]; ok {
		t.Errorf("nil list written: %s", js(item["sl"]))
	}
	for _, v := range []leafPlain{{F: math.NaN()}, {FL: []float64{1, math.Inf(1)}}} {
		_, err := codec.MarshalItem(&v)
		if err == nil || !strings.Contains(err.Error(), "leafPlain.f") || !strings.Contains(err.Error(), "finite") {
			t.Errorf("%v: %v", v, err)
		}
		if v.FL != nil && !strings.Contains(err.Error(), "fl[1]") {
			t.Errorf("error does not name the element: %v", err)
		}
	}
}

func TestIntSetOrderMatchesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for size := 1; size <= 40; size++ {
		for range 200 {
			s := codec.NewSet[int]()
			for len(s) < size {
				s[r.IntN(size*4)-size*2] = struct{}{}
			}
			av, err := codec.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]int, 0, len(s))
			for k := range s {
				want = append(want, k)
			}
			slices.Sort(want)
			got := av.(*types.AttributeValueMemberNS).Value
			for i, n := range want {
				if got[i] != strconv.Itoa(n) {
					t.Fatalf("size %d: %q, want %v", size, got, want)
				}
			}
		}
	}
}
