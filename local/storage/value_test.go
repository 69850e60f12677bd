package storage_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/codec/ddbjson"
	"github.com/dynamogo/dynamo/internal/itemsize"
	"github.com/dynamogo/dynamo/local/storage"
)

// randomValue is a value of any type, nested up to depth, with strings that
// need JSON escaping and names that sort differently as bytes and as text.
func randomValue(r *rand.Rand, depth int) types.AttributeValue {
	str := func() string {
		alphabet := []string{"a", "B", "é", "\x00", "\"", "\\", "\n", "\u2028", "\x7f", "\xff", "zz", "0"}
		var sb strings.Builder
		for range r.IntN(6) {
			sb.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		return sb.String()
	}
	num := func() string {
		return []string{"0", "1", "-1.5", "12345678901234567890123456789012345678", "1E+10", "0.001", "100"}[r.IntN(7)]
	}
	k := r.IntN(11)
	if depth <= 0 && k >= 8 {
		k = r.IntN(8)
	}
	switch k {
	case 0:
		return &types.AttributeValueMemberS{Value: str()}
	case 1:
		return &types.AttributeValueMemberN{Value: num()}
	case 2:
		return &types.AttributeValueMemberB{Value: []byte(str())}
	case 3:
		return &types.AttributeValueMemberBOOL{Value: r.IntN(2) == 0}
	case 4:
		return &types.AttributeValueMemberNULL{Value: true}
	case 5:
		return &types.AttributeValueMemberSS{Value: []string{str(), str() + "x"}}
	case 6:
		return &types.AttributeValueMemberNS{Value: []string{num(), "7"}}
	case 7:
		return &types.AttributeValueMemberBS{Value: [][]byte{[]byte(str()), {1, 2}}}
	case 8:
		l := make([]types.AttributeValue, r.IntN(4))
		for i := range l {
			l[i] = randomValue(r, depth-1)
		}
		return &types.AttributeValueMemberL{Value: l}
	default:
		return &types.AttributeValueMemberM{Value: randomItem(r, depth-1)}
	}
}

func randomItem(r *rand.Rand, depth int) storage.Item {
	it := storage.Item{}
	for range r.IntN(20) {
		name := fmt.Sprintf("%c%d", "aZé_\x01"[r.IntN(5)], r.IntN(30))
		it[name] = randomValue(r, depth)
	}
	return it
}

// A Value gives back the item it encodes, its JSON as ddbjson writes it,
// and its size as itemsize counts it.
func TestValueRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		it := randomItem(r, 3)
		v, err := storage.Encode(it)
		if err != nil {
			t.Fatal(err)
		}
		checkValue(t, v, it)
		// ReadValue of the encoding (as a restart does) gives the same Value.
		enc := v.Encoded() + "trailing"
		again, n, err := storage.ReadValue(enc)
		if err != nil || n != len(v.Encoded()) || again != v {
			t.Fatalf("item %d: ReadValue = %v, %d, %v", i, again, n, err)
		}
	}
}

func checkValue(t *testing.T, v storage.Value, want storage.Item) {
	t.Helper()
	got, err := v.Item()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("decoded %#v, want %#v", got, want)
	}
	wantJSON, err := ddbjson.AppendItem(nil, want)
	if err != nil {
		t.Fatal(err)
	}
	if gotJSON := v.AppendJSON([]byte("x")); !bytes.Equal(gotJSON[1:], wantJSON) {
		t.Fatalf("AppendJSON\n got %s\nwant %s", gotJSON[1:], wantJSON)
	}
	if v.Size() != itemsize.Item(want) {
		t.Fatalf("Size = %d, want %d", v.Size(), itemsize.Item(want))
	}
}

// Decoded byte slices are copies: changing one does not change the Value.
func TestValueItemIsACopy(t *testing.T) {
	v := storage.MustEncode(storage.Item{"b": &types.AttributeValueMemberB{Value: []byte("abc")}})
	it, _ := v.Item()
	it["b"].(*types.AttributeValueMemberB).Value[0] = 'X'
	it2, _ := v.Item()
	if got := string(it2["b"].(*types.AttributeValueMemberB).Value); got != "abc" {
		t.Fatalf("the Value changed: %q", got)
	}
}

func TestEncodeRejects(t *testing.T) {
	for name, it := range map[string]storage.Item{
		"unknown": {"x": &types.UnknownUnionMember{Tag: "Z"}},
		"nil":     {"x": nil},
		"typed nil in a map": {"x": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
			"y": (*types.AttributeValueMemberS)(nil)}}},
	} {
		if _, err := storage.Encode(it); err == nil || !strings.Contains(err.Error(), `attribute "x"`) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

// An encoding with its names out of order (written before they were
// sorted) reads back in order; a name given twice is damage.
func TestReadValueOrder(t *testing.T) {
	unsorted := "\x02" + "\x01b" + "S\x01y" + "\x01a" + "M\x02\x01z\x30\x01c\x54"
	v, n, err := storage.ReadValue(unsorted)
	if err != nil || n != len(unsorted) {
		t.Fatalf("ReadValue = %d, %v", n, err)
	}
	want := storage.Item{
		"a": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
			"z": &types.AttributeValueMemberNULL{Value: true}, "c": &types.AttributeValueMemberBOOL{Value: true}}},
		"b": &types.AttributeValueMemberS{Value: "y"},
	}
	checkValue(t, v, want)
	if v.Encoded() == unsorted {
		t.Fatal("the names were not put in order")
	}
	for name, enc := range map[string]string{
		"twice":        "\x02\x01aS\x00\x01aS\x00",
		"twice nested": "\x01\x01mM\x02\x01aS\x00\x01aS\x00",
		"short":        "\x02\x01aS\x00",
		"bad tag":      "\x01\x01aZ",
		"huge count":   "\xff\xff\xff\xff\x0f",
	} {
		if _, _, err := storage.ReadValue(enc); err == nil {
			t.Errorf("%s: read", name)
		}
	}
}

// FuzzReadValue: whatever ReadValue accepts decodes, and writes the JSON
// and has the size of what it decodes to.
func FuzzReadValue(f *testing.F) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		f.Add(storage.MustEncode(randomItem(r, 2)).Encoded())
	}
	f.Fuzz(func(t *testing.T, enc string) {
		v, n, err := storage.ReadValue(enc)
		if err != nil {
			return
		}
		if n > len(enc) {
			t.Fatalf("read %d bytes of %d", n, len(enc))
		}
		it, err := v.Item()
		if err != nil {
			t.Fatalf("accepted encoding does not decode: %v", err)
		}
		checkValue(t, v, it)
	})
}

// benchValueItem is the scale benchmarks' item of 116 bytes.
var benchValueItem = storage.Item{
	"pk": &types.AttributeValueMemberS{Value: "user#0000042"},
	"sk": &types.AttributeValueMemberS{Value: "order#0042"},
	"n":  &types.AttributeValueMemberN{Value: "142"},
	"v":  &types.AttributeValueMemberS{Value: strings.Repeat("v", 85)},
}

// BenchmarkValue is what a stored item costs: encoding it once per write,
// decoding it where a read needs the map, and writing its JSON straight from
// the encoding (against ddbjson.AppendItem of the map, which a read used
// to do).
func BenchmarkValue(b *testing.B) {
	v := storage.MustEncode(benchValueItem)
	b.Run("Encode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			storage.Encode(benchValueItem)
		}
	})
	b.Run("Item", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			v.Item()
		}
	})
	buf := make([]byte, 0, 1024)
	b.Run("AppendJSON", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = v.AppendJSON(buf[:0])
		}
	})
	b.Run("ddbjson.AppendItem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf, _ = ddbjson.AppendItem(buf[:0], benchValueItem)
		}
	})
}

// Attrs decodes exactly the named attributes that are present, and so does
// AttrsScratch with memory reused from call to call.
func TestValueAttrs(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var dst storage.Item
	var sc storage.Scratch
	for range 500 {
		it := randomItem(r, 2)
		v := storage.MustEncode(it)
		var names []string
		for name := range it {
			if r.IntN(3) == 0 {
				names = append(names, name)
			}
		}
		names = append(names, "absent", "\x00", "zzz")
		slices.Sort(names)
		names = slices.Compact(names)
		want := storage.Item{}
		for _, n := range names {
			if av, ok := it[n]; ok {
				want[n] = av
			}
		}
		var err error
		if dst, err = v.Attrs(dst, names); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(dst, want) {
			t.Fatalf("Attrs(%q) = %#v, want %#v", names, dst, want)
		}
		if dst, err = v.AttrsScratch(dst, names, &sc); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(dst, want) {
			t.Fatalf("AttrsScratch(%q) = %#v, want %#v", names, dst, want)
		}
	}
}

// With gives the Value Encode makes of the changed item, byte for byte and
// with the same size, whichever attributes it sets, replaces or removes.
func TestValueWith(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := range 2000 {
		it := randomItem(r, 2)
		v := storage.MustEncode(it)
		switch i % 10 {
		case 0:
			it, v = storage.Item{}, storage.Value{} // no item yet
		case 1:
			for j := range 150 { // a count of two varint bytes
				it[fmt.Sprintf("m%03d", j)] = &types.AttributeValueMemberN{Value: "1"}
			}
			v = storage.MustEncode(it)
		}
		var names []string
		attrs := storage.Item{}
		for name := range it {
			if r.IntN(3) == 0 {
				names = append(names, name)
			}
		}
		names = append(names, "absent", "\x00", "zzz", fmt.Sprintf("a%d", r.IntN(30)))
		for _, n := range names {
			if r.IntN(4) > 0 { // set or replaced; the others are removed
				attrs[n] = randomValue(r, 2)
			}
		}
		slices.Sort(names)
		names = slices.Compact(names)
		want := storage.Item{}
		for n, av := range it {
			want[n] = av
		}
		for _, n := range names {
			if av, ok := attrs[n]; ok {
				want[n] = av
			} else {
				delete(want, n)
			}
		}
		got, err := v.With(attrs, names)
		if err != nil {
			t.Fatal(err)
		}
		if enc := storage.MustEncode(want); got != enc {
			t.Fatalf("item %d: With(%q) = %q (size %d), want %q (size %d)", i, names, got.Encoded(), got.Size(), enc.Encoded(), enc.Size())
		}
	}
	// A value that cannot be stored is an error naming its attribute.
	_, err := storage.Value{}.With(storage.Item{"bad": nil}, []string{"bad"})
	if err == nil || !strings.Contains(err.Error(), `"bad"`) {
		t.Fatalf("With(nil value) = %v, want an error naming the attribute", err)
	}
}

// AttrsScratch reuses its memory: decoding a few strings and numbers item
// after item allocates nothing.
func TestAttrsScratchAllocations(t *testing.T) {
	v := storage.MustEncode(storage.Item{"n": &types.AttributeValueMemberN{Value: "1"}, "s": &types.AttributeValueMemberS{Value: "x"}, "z": &types.AttributeValueMemberS{Value: "y"}})
	names := []string{"n", "s"}
	var sc storage.Scratch
	dst, _ := v.AttrsScratch(nil, names, &sc)
	if n := testing.AllocsPerRun(100, func() { dst, _ = v.AttrsScratch(dst, names, &sc) }); n != 0 {
		t.Fatalf("%v allocations per call, want 0", n)
	}
}
