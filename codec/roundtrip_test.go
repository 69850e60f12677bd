package codec_test

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/dynamogo/dynamo/codec"
	"github.com/shopspring/decimal"
)

type Line struct {
	SKU   string          `dynamo:"sku"`
	Qty   int             `dynamo:"qty"`
	Price decimal.Decimal `dynamo:"price"`
	Note  *string         `dynamo:"note"`
}

// Rich has a field of every supported kind; the round-trip property is
// Unmarshal(Marshal(v)) == v for random v.
type Rich struct {
	S     string             `dynamo:"s"`
	I     int64              `dynamo:"i"`
	I8    int8               `dynamo:"i8"`
	U     uint64             `dynamo:"u"`
	F     float64            `dynamo:"f"`
	F32   float32            `dynamo:"f32"`
	Bool  bool               `dynamo:"bool"`
	Bytes []byte             `dynamo:"bytes"`
	Bin   string             `dynamo:"bin,binary"`
	T     time.Time          `dynamo:"t"`
	TS    time.Time          `dynamo:"ts,precision=s"`
	TTL   time.Time          `dynamo:"ttl,unixtime"`
	D     codec.Date         `dynamo:"d"`
	TOD   codec.TimeOfDay    `dynamo:"tod,precision=ns"`
	DT    codec.DateTime     `dynamo:"dt,precision=us"`
	Num   codec.Number       `dynamo:"num"`
	SS    codec.Set[string]  `dynamo:"ss"`
	NSI   codec.Set[int]     `dynamo:"nsi"`
	NSF   codec.Set[float64] `dynamo:"nsf"`
	BS    codec.BinarySet    `dynamo:"bs"`
	List  []string           `dynamo:"list"`
	PList []*int             `dynamo:"plist"`
	Map   map[string]int     `dynamo:"map"`
	Any   map[string]any     `dynamo:"any"`
	One   *Line              `dynamo:"one"`
	Lines []Line             `dynamo:"lines"`
	ByID  map[int64]Line     `dynamo:"by_id"`
	Vec   []float32          `dynamo:"vec,dim=4"`
	P     *string            `dynamo:"p"`
	PP    **int              `dynamo:"pp"`
	Arr   [3]uint16          `dynamo:"arr"`
}

type gen struct{ r *rand.Rand }

func (g gen) str() string {
	const alphabet = "ab#:-_ Z09é€\x00\U0001F600"
	rs := []rune(alphabet)
	n := g.r.IntN(8)
	out := make([]rune, n)
	for i := range out {
		out[i] = rs[g.r.IntN(len(rs))]
	}
	return string(out)
}

func (g gen) maybe() bool { return g.r.IntN(3) == 0 }

func (g gen) float(bits int) float64 {
	switch g.r.IntN(6) {
	case 0:
		return 0
	case 1:
		return float64(g.r.IntN(2000) - 1000)
	}
	e := g.r.IntN(60) - 30
	if bits == 64 {
		e = g.r.IntN(240) - 120
	}
	f := (g.r.Float64()*2 - 1) * math.Pow(10, float64(e))
	if bits == 32 {
		f = float64(float32(f))
	}
	return f
}

func (g gen) time() time.Time {
	sec := g.r.Int64N(253402300799) // years 1970..9999
	ns := g.r.Int64N(1e9)
	zone := time.FixedZone("z", (g.r.IntN(48)-24)*1800)
	return time.Unix(sec, ns).In(zone)
}

func (g gen) decimal() decimal.Decimal {
	return decimal.New(g.r.Int64N(1e15)-5e14, int32(g.r.IntN(40)-20))
}

func (g gen) any(depth int) any {
	n := 7
	if depth > 2 {
		n = 4
	}
	switch g.r.IntN(n) {
	case 0:
		return g.str()
	case 1:
		return g.r.Int64() - math.MaxInt64/2
	case 2:
		return float64(g.r.IntN(1e6)) + 0.25 // non-integral: loads back as float64
	case 3:
		return g.r.IntN(2) == 0
	case 4:
		l := make([]any, g.r.IntN(3))
		for i := range l {
			l[i] = g.any(depth + 1)
		}
		return l
	case 5:
		return g.anyMap(depth + 1)
	default:
		return codec.NewSet(g.str(), "x")
	}
}

func (g gen) anyMap(depth int) map[string]any {
	m := map[string]any{}
	for range g.r.IntN(3) {
		m[g.str()] = g.any(depth)
	}
	return m
}

func (g gen) line() Line {
	l := Line{SKU: g.str(), Qty: g.r.IntN(100), Price: g.decimal()}
	if g.maybe() {
		s := g.str()
		l.Note = &s
	}
	return l
}

func (g gen) rich() Rich {
	v := Rich{
		S: g.str(), I: g.r.Int64() - math.MaxInt64/2, I8: int8(g.r.IntN(256) - 128), U: g.r.Uint64(),
		F: g.float(64), F32: float32(g.float(32)), Bool: g.r.IntN(2) == 0,
		Bin: g.str(), T: g.time(), TS: g.time().Truncate(time.Second), TTL: g.time().Truncate(time.Second),
		TOD: codec.TimeOfDay{Hour: g.r.IntN(24), Minute: g.r.IntN(60), Second: g.r.IntN(60), Nanosecond: g.r.IntN(1e9)},
		Arr: [3]uint16{uint16(g.r.IntN(65536)), 0, 7},
	}
	d := g.time()
	v.D = codec.DateOf(d)
	v.DT = codec.DateTimeOf(d.Truncate(time.Microsecond))
	if g.maybe() {
		v.Bytes = []byte(g.str())
	}
	if g.maybe() {
		v.Num = codec.Number(strconv.FormatInt(g.r.Int64(), 10) + "." + strconv.Itoa(g.r.IntN(1000)+1) + "E-" + strconv.Itoa(g.r.IntN(50)))
	}
	if g.maybe() {
		v.SS = codec.NewSet(g.str(), g.str()+"!")
	}
	if g.maybe() {
		v.NSI = codec.NewSet(g.r.IntN(10), -g.r.IntN(10)-1)
	}
	if g.maybe() {
		v.NSF = codec.NewSet(g.float(64), 1e100)
	}
	if g.maybe() {
		v.BS = codec.BinarySet{[]byte(g.str()), []byte(g.str() + "!")}
		if string(v.BS[0]) > string(v.BS[1]) {
			v.BS[0], v.BS[1] = v.BS[1], v.BS[0] // loads back in sorted order
		}
	}
	if g.maybe() {
		v.List = []string{g.str(), ""}
	}
	if g.maybe() {
		n := g.r.IntN(5)
		v.PList = []*int{nil, &n}
	}
	if g.maybe() {
		v.Map = map[string]int{g.str(): 1, "": g.r.IntN(9)}
	}
	if g.maybe() {
		v.Any = g.anyMap(0)
	}
	if g.maybe() {
		l := g.line()
		v.One = &l
	}
	for range g.r.IntN(3) {
		v.Lines = append(v.Lines, g.line())
	}
	if g.maybe() {
		v.ByID = map[int64]Line{g.r.Int64N(1e6): g.line()}
	}
	if g.maybe() {
		v.Vec = []float32{float32(g.float(32)), 0, 1, -1}
	}
	if g.maybe() {
		s := g.str()
		v.P = &s
	}
	if g.maybe() {
		n := g.r.IntN(9)
		p := &n
		v.PP = &p
	}
	return v
}

// normalize makes v comparable with reflect.DeepEqual after a round trip:
// times in UTC, decimals in canonical form.
func normalize(v *Rich) {
	v.T, v.TS, v.TTL = v.T.UTC(), v.TS.UTC(), v.TTL.UTC()
	canon := func(l *Line) { l.Price = decimal.RequireFromString(l.Price.String()) }
	if v.One != nil {
		canon(v.One)
	}
	for i := range v.Lines {
		canon(&v.Lines[i])
	}
	for k, l := range v.ByID {
		canon(&l)
		v.ByID[k] = l
	}
}

func TestRoundTripProperty(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 200
	}
	g := gen{rand.New(rand.NewPCG(1, 2))}
	for i := range n {
		v := g.rich()
		item, err := codec.MarshalItem(v)
		if err != nil {
			t.Fatalf("case %d: MarshalItem(%+v): %v", i, v, err)
		}
		var back Rich
		if err := codec.UnmarshalItem(item, &back); err != nil {
			t.Fatalf("case %d: UnmarshalItem(%s): %v", i, jsItem(item), err)
		}
		normalize(&v)
		normalize(&back)
		if !reflect.DeepEqual(back, v) {
			t.Fatalf("case %d: round trip differs\n got %+v\nwant %+v\nitem %s", i, back, v, jsItem(item))
		}
		// Encoding is deterministic: the same value gives the same bytes.
		again, _ := codec.MarshalItem(v)
		if jsItem(again) != jsItem(item) {
			t.Fatalf("case %d: encoding not stable\n%s\n%s", i, jsItem(item), jsItem(again))
		}
	}
}

// The float text must read back as the same float for every bit pattern
// in DynamoDB's range.
func TestFloatTextProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		f := math.Float64frombits(r.Uint64())
		av, err := codec.Marshal(f)
		a := math.Abs(f)
		inRange := a == 0 || (a >= 1e-130 && a < 1e126)
		if math.IsNaN(f) || math.IsInf(f, 0) || !inRange {
			if err == nil && (math.IsNaN(f) || math.IsInf(f, 0) || a > 1e126 || (a != 0 && a < 9e-131)) {
				t.Fatalf("Marshal(%v) accepted: %s", f, js(av))
			}
			continue
		}
		if err != nil {
			t.Fatalf("Marshal(%v): %v", f, err)
		}
		var back float64
		if err := codec.Unmarshal(av, &back); err != nil || back != f {
			t.Fatalf("float %v → %s → %v, %v", f, js(av), back, err)
		}
		f32 := float32(f)
		if math.IsInf(float64(f32), 0) || f32 == 0 {
			continue
		}
		av, err = codec.Marshal(f32)
		if err != nil {
			t.Fatalf("Marshal(float32 %v): %v", f32, err)
		}
		var back32 float32
		if err := codec.Unmarshal(av, &back32); err != nil || back32 != f32 {
			t.Fatalf("float32 %v → %s → %v, %v", f32, js(av), back32, err)
		}
	}
}

// Fixed-width times sort as strings in time order.
func TestTimeTextSorts(t *testing.T) {
	g := gen{rand.New(rand.NewPCG(5, 6))}
	for range 2000 {
		a, b := g.time(), g.time()
		x, _ := codec.Marshal(a)
		y, _ := codec.Marshal(b)
		sa, sb := js(x), js(y)
		if (sa < sb) != a.Before(b) && !a.Equal(b) {
			t.Fatalf("%v < %v but %s, %s", a, b, sa, sb)
		}
	}
}
