package storagetest

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/local/storage"
)

// Run runs the conformance suite against engines made by newEngine; each
// subtest gets a fresh engine and closes it.
func Run(t *testing.T, newEngine func(t *testing.T) storage.Engine) {
	run := func(name string, f func(t *testing.T, e storage.Engine)) {
		t.Run(name, func(t *testing.T) {
			e := newEngine(t)
			t.Cleanup(func() { e.Close() })
			f(t, e)
		})
	}
	run("PutGetDelete", testPutGetDelete)
	run("OrderedScan", testOrderedScan)
	run("Ranges", testRanges)
	run("RandomAgainstModel", testRandomAgainstModel)
	run("Collections", testCollections)
	run("Meta", testMeta)
	run("ConcurrentReaders", testConcurrentReaders)
	run("Close", testClose)
	run("Batch", testBatch)
	run("BatchOrder", testBatchOrder)
	run("BatchAllOrNothing", testBatchAllOrNothing)
	run("BatchAgainstModel", testBatchAgainstModel)
	t.Run("BatchForeignCollection", func(t *testing.T) {
		e, other := newEngine(t), newEngine(t)
		t.Cleanup(func() { e.Close(); other.Close() })
		a, foreign := coll(t, e, "a"), coll(t, other, "a")
		err := e.Apply([]storage.Op{storage.Put(a, []byte("k"), item("k")), storage.Put(foreign, []byte("k"), item("k"))})
		if err == nil {
			t.Fatal("a batch naming another engine's collection was applied")
		}
		if n := a.Len() + foreign.Len(); n != 0 {
			t.Fatalf("the failed batch left %d items", n)
		}
	})
	t.Run("KeyOrder", testKeyOrder)
	run("ValuesKept", testValuesKept)
	run("ValuesOutliveWrites", testValuesOutliveWrites)
	run("FindPutAt", testFindPutAt)
}

func item(v string) storage.Value {
	return storage.MustEncode(storage.Item{"v": &types.AttributeValueMemberS{Value: v}})
}

// padded is item(v) with pad bytes more, for items of many sizes.
func padded(v string, pad int) storage.Value {
	return storage.MustEncode(storage.Item{
		"v": &types.AttributeValueMemberS{Value: v},
		"p": &types.AttributeValueMemberS{Value: strings.Repeat("+", pad)},
	})
}

func val(v storage.Value) string {
	if v.IsZero() {
		return "<nil>"
	}
	it, err := v.Item()
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return it["v"].(*types.AttributeValueMemberS).Value
}

// checkSize checks that c's Size is the sum of its items' sizes.
func checkSize(t *testing.T, c storage.Collection) {
	t.Helper()
	var sum int64
	must(t, c.Ascend(nil, nil, func(_ []byte, v storage.Value) bool { sum += int64(v.Size()); return true }))
	if got := c.Size(); got != sum {
		t.Fatalf("Size = %d, the items' sizes sum to %d", got, sum)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func coll(t *testing.T, e storage.Engine, name string) storage.Collection {
	t.Helper()
	c, err := e.Collection(name)
	must(t, err)
	return c
}

func testPutGetDelete(t *testing.T, e storage.Engine) {
	c := coll(t, e, "t")
	if _, ok, err := c.Get([]byte("a")); ok || err != nil {
		t.Fatalf("Get on empty: ok=%v err=%v", ok, err)
	}
	if _, replaced, err := c.Put([]byte("a"), item("1")); replaced || err != nil {
		t.Fatalf("first Put: replaced=%v err=%v", replaced, err)
	}
	old, replaced, err := c.Put([]byte("a"), item("2"))
	must(t, err)
	if !replaced || val(old) != "1" {
		t.Fatalf("second Put: old=%s replaced=%v", val(old), replaced)
	}
	got, ok, err := c.Get([]byte("a"))
	must(t, err)
	if !ok || val(got) != "2" {
		t.Fatalf("Get = %s, %v", val(got), ok)
	}
	if c.Len() != 1 {
		t.Fatalf("Len = %d, want 1", c.Len())
	}
	// The empty key and keys containing zero bytes are ordinary keys.
	must2(t, c, []byte{}, "empty")
	must2(t, c, []byte{0, 0}, "zeros")
	if got, ok, _ := c.Get([]byte{}); !ok || val(got) != "empty" {
		t.Fatalf("empty key: %s %v", val(got), ok)
	}
	old, deleted, err := c.Delete([]byte("a"))
	must(t, err)
	if !deleted || val(old) != "2" {
		t.Fatalf("Delete: old=%s deleted=%v", val(old), deleted)
	}
	if _, deleted, _ := c.Delete([]byte("a")); deleted {
		t.Fatal("second Delete reported a deletion")
	}
	if c.Len() != 2 {
		t.Fatalf("Len = %d, want 2", c.Len())
	}
}

func must2(t *testing.T, c storage.Collection, k []byte, v string) {
	t.Helper()
	_, _, err := c.Put(k, item(v))
	must(t, err)
}

func keys(t *testing.T, c storage.Collection, start, end []byte, desc bool, limit int) []string {
	t.Helper()
	var out []string
	fn := func(k []byte, it storage.Value) bool {
		if val(it) != string(k) {
			t.Fatalf("key %q holds item %q", k, val(it))
		}
		out = append(out, string(k))
		return limit <= 0 || len(out) < limit
	}
	if desc {
		must(t, c.Descend(start, end, fn))
	} else {
		must(t, c.Ascend(start, end, fn))
	}
	return out
}

func testOrderedScan(t *testing.T, e storage.Engine) {
	c := coll(t, e, "t")
	r := rand.New(rand.NewPCG(1, 2))
	var want []string
	for _, i := range r.Perm(3000) {
		k := fmt.Sprintf("k%05d", i)
		want = append(want, k)
		must2(t, c, []byte(k), k)
	}
	slices.Sort(want)
	if got := keys(t, c, nil, nil, false, 0); !slices.Equal(got, want) {
		t.Fatalf("Ascend order wrong: %d keys, first %v", len(got), got[:min(5, len(got))])
	}
	rev := slices.Clone(want)
	slices.Reverse(rev)
	if got := keys(t, c, nil, nil, true, 0); !slices.Equal(got, rev) {
		t.Fatalf("Descend order wrong")
	}
	if got := keys(t, c, nil, nil, false, 10); !slices.Equal(got, want[:10]) {
		t.Fatalf("early stop: %v", got)
	}
}

func testRanges(t *testing.T, e storage.Engine) {
	c := coll(t, e, "t")
	all := []string{"a", "ab", "abc", "b", "ba", "c"}
	for _, k := range all {
		must2(t, c, []byte(k), k)
	}
	cases := []struct {
		start, end []byte
		want       []string
	}{
		{[]byte("ab"), []byte("b"), []string{"ab", "abc"}},
		{[]byte("aa"), []byte("ba"), []string{"ab", "abc", "b"}},
		{nil, []byte("ab"), []string{"a"}},
		{[]byte("b"), nil, []string{"b", "ba", "c"}},
		{[]byte("d"), nil, nil},
		{[]byte("b"), []byte("b"), nil},
		{[]byte(""), nil, all},
	}
	for _, tc := range cases {
		if got := keys(t, c, tc.start, tc.end, false, 0); !slices.Equal(got, tc.want) {
			t.Errorf("Ascend(%q, %q) = %q, want %q", tc.start, tc.end, got, tc.want)
		}
		rev := slices.Clone(tc.want)
		slices.Reverse(rev)
		if got := keys(t, c, tc.start, tc.end, true, 0); !slices.Equal(got, rev) {
			t.Errorf("Descend(%q, %q) = %q, want %q", tc.start, tc.end, got, rev)
		}
	}
}

// testRandomAgainstModel drives puts and deletes against a sorted-map model
// (enough operations to split and merge B-tree nodes many times).
func testRandomAgainstModel(t *testing.T, e storage.Engine) {
	c := coll(t, e, "t")
	model := map[string]string{}
	r := rand.New(rand.NewPCG(3, 4))
	n := 20000
	if testing.Short() {
		n = 4000
	}
	for i := 0; i < n; i++ {
		k := fmt.Sprintf("%04d", r.IntN(1500))
		if r.IntN(3) == 0 {
			old, deleted, err := c.Delete([]byte(k))
			must(t, err)
			mv, had := model[k]
			if deleted != had || (had && val(old) != mv) {
				t.Fatalf("Delete(%s) = %s,%v; model %s,%v", k, val(old), deleted, mv, had)
			}
			delete(model, k)
		} else {
			_, replaced, err := c.Put([]byte(k), padded(k, r.IntN(40)))
			must(t, err)
			if _, had := model[k]; had != replaced {
				t.Fatalf("Put(%s) replaced=%v, model had=%v", k, replaced, had)
			}
			model[k] = k
		}
		if c.Len() != len(model) {
			t.Fatalf("Len = %d, model %d", c.Len(), len(model))
		}
		if i%500 == 0 {
			checkSize(t, c)
		}
	}
	checkSize(t, c)
	want := make([]string, 0, len(model))
	for k := range model {
		want = append(want, k)
	}
	slices.Sort(want)
	if got := keys(t, c, nil, nil, false, 0); !slices.Equal(got, want) {
		t.Fatalf("contents differ from the model: %d vs %d keys", len(got), len(want))
	}
	// Every range agrees with the model, both directions.
	for i := 0; i < 50; i++ {
		a, b := fmt.Sprintf("%04d", r.IntN(1600)), fmt.Sprintf("%04d", r.IntN(1600))
		if a > b {
			a, b = b, a
		}
		var w []string
		for _, k := range want {
			if k >= a && k < b {
				w = append(w, k)
			}
		}
		if got := keys(t, c, []byte(a), []byte(b), false, 0); !slices.Equal(got, w) {
			t.Fatalf("Ascend(%s,%s) = %v, want %v", a, b, got, w)
		}
		slices.Reverse(w)
		if got := keys(t, c, []byte(a), []byte(b), true, 0); !slices.Equal(got, w) {
			t.Fatalf("Descend(%s,%s) = %v, want %v", a, b, got, w)
		}
	}
}

func testCollections(t *testing.T, e storage.Engine) {
	a, b := coll(t, e, "a"), coll(t, e, "b")
	must2(t, a, []byte("k"), "a")
	if _, ok, _ := b.Get([]byte("k")); ok {
		t.Fatal("collections share items")
	}
	again := coll(t, e, "a")
	if got, ok, _ := again.Get([]byte("k")); !ok || val(got) != "a" {
		t.Fatal("reopening a collection lost its items")
	}
	must(t, e.Drop("a"))
	must(t, e.Drop("never-existed"))
	fresh := coll(t, e, "a")
	if fresh.Len() != 0 {
		t.Fatalf("dropped collection still has %d items", fresh.Len())
	}
}

func testMeta(t *testing.T, e storage.Engine) {
	must(t, e.PutMeta("table/x", []byte(`{"a":1}`)))
	must(t, e.PutMeta("table/y", []byte(`{}`)))
	must(t, e.PutMeta("table/y", nil))
	m, err := e.Meta()
	must(t, err)
	if len(m) != 1 || string(m["table/x"]) != `{"a":1}` {
		t.Fatalf("Meta = %q", m)
	}
	m["table/x"][0] = 'X' // the caller owns what Meta returns
	m2, _ := e.Meta()
	if string(m2["table/x"]) != `{"a":1}` {
		t.Fatal("Meta returned the engine's own buffer")
	}
}

func testConcurrentReaders(t *testing.T, e storage.Engine) {
	c := coll(t, e, "t")
	for i := 0; i < 500; i++ {
		k := fmt.Sprintf("%03d", i)
		must2(t, c, []byte(k), k)
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				k := fmt.Sprintf("%03d", i)
				if got, ok, err := c.Get([]byte(k)); err != nil || !ok || val(got) != k {
					t.Errorf("Get(%s) = %s %v %v", k, val(got), ok, err)
					return
				}
				n := 0
				c.Ascend(nil, nil, func([]byte, storage.Value) bool { n++; return true })
				if n != 500 {
					t.Errorf("Ascend saw %d items", n)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// testClose checks Close's contract: every later call, of the engine or
// of a collection opened before, returns ErrClosed; closing again is not an
// error.
func testClose(t *testing.T, e storage.Engine) {
	c := coll(t, e, "t")
	must2(t, c, []byte("k"), "v")
	must(t, e.Close())
	closed := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, storage.ErrClosed) {
			t.Errorf("%s after Close: %v, want ErrClosed", what, err)
		}
	}
	_, err := e.Collection("t")
	closed("Collection", err)
	closed("Drop", e.Drop("t"))
	closed("PutMeta", e.PutMeta("m", []byte("x")))
	_, err = e.Meta()
	closed("Meta", err)
	closed("Apply", e.Apply([]storage.Op{storage.Put(c, []byte("k"), item("w"))}))
	_, _, err = c.Get([]byte("k"))
	closed("Collection.Get", err)
	_, _, err = c.Put([]byte("k"), item("w"))
	closed("Collection.Put", err)
	_, _, err = c.Delete([]byte("k"))
	closed("Collection.Delete", err)
	closed("Collection.Ascend", c.Ascend(nil, nil, func([]byte, storage.Value) bool { return true }))
	closed("Collection.Descend", c.Descend(nil, nil, func([]byte, storage.Value) bool { return true }))
	if err := e.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// testBatch applies one batch over several collections mixing puts,
// replacements and deletes: afterwards every op is visible.
func testBatch(t *testing.T, e storage.Engine) {
	a, b := coll(t, e, "a"), coll(t, e, "b")
	must2(t, a, []byte("old"), "old")
	must2(t, a, []byte("gone"), "gone")
	must(t, e.Apply(nil))
	must(t, e.Apply([]storage.Op{
		storage.Put(a, []byte("new"), item("new")),
		storage.Put(a, []byte("old"), item("old")),
		storage.Delete(a, []byte("gone")),
		storage.Delete(a, []byte("never-there")),
		storage.Put(b, []byte("x"), item("x")),
		storage.Put(b, []byte{}, item("")),
	}))
	if got := strings.Join(keys(t, a, nil, nil, false, 0), " "); got != "new old" {
		t.Fatalf("collection a after the batch: %s", got)
	}
	if got := strings.Join(keys(t, b, nil, nil, false, 0), " "); got != " x" {
		t.Fatalf("collection b after the batch: %q", got)
	}
	if a.Len() != 2 || b.Len() != 2 {
		t.Fatalf("Len = %d, %d; want 2, 2", a.Len(), b.Len())
	}
	// Deletes alone are a batch too.
	must(t, e.Apply([]storage.Op{storage.Delete(a, []byte("new")), storage.Delete(b, []byte("x"))}))
	if a.Len() != 1 || b.Len() != 1 {
		t.Fatalf("after a batch of deletes: Len = %d, %d; want 1, 1", a.Len(), b.Len())
	}
}

// testBatchOrder: ops on one key apply in order, the last one wins.
func testBatchOrder(t *testing.T, e storage.Engine) {
	c := coll(t, e, "t")
	k := []byte("k")
	must(t, e.Apply([]storage.Op{storage.Put(c, k, item("1")), storage.Delete(c, k)}))
	if _, ok, _ := c.Get(k); ok {
		t.Fatal("put then delete left the key")
	}
	must(t, e.Apply([]storage.Op{storage.Delete(c, k), storage.Put(c, k, item("2")), storage.Put(c, k, item("3"))}))
	if got, ok, _ := c.Get(k); !ok || val(got) != "3" {
		t.Fatalf("delete, put, put: %s %v; want 3", val(got), ok)
	}
}

// testBatchAllOrNothing: a batch with one bad op changes nothing, whatever
// the op's place in it.
func testBatchAllOrNothing(t *testing.T, e storage.Engine) {
	a, d := coll(t, e, "a"), coll(t, e, "dropped")
	must2(t, a, []byte("keep"), "keep")
	must(t, e.Drop("dropped"))
	good := []storage.Op{
		storage.Put(a, []byte("p"), item("p")),
		storage.Delete(a, []byte("keep")),
		storage.Put(a, []byte("keep2"), item("keep2")),
	}
	for at := range len(good) + 1 {
		ops := slices.Insert(slices.Clone(good), at, storage.Put(d, []byte("x"), item("x")))
		if err := e.Apply(ops); err == nil {
			t.Fatalf("a batch writing to a dropped collection (op %d) succeeded", at)
		}
		if got := strings.Join(keys(t, a, nil, nil, false, 0), " "); got != "keep" {
			t.Fatalf("bad op at %d: the failed batch left %q", at, got)
		}
	}
	must(t, e.Close())
	if err := e.Apply(good); err == nil {
		t.Fatal("Apply after Close succeeded")
	}
}

// testBatchAgainstModel applies random batches over three collections and
// compares with a model after each one.
func testBatchAgainstModel(t *testing.T, e storage.Engine) {
	colls := []storage.Collection{coll(t, e, "x"), coll(t, e, "y"), coll(t, e, "z")}
	models := []map[string]string{{}, {}, {}}
	r := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		ops := make([]storage.Op, r.IntN(30))
		for i := range ops {
			c, k := r.IntN(3), fmt.Sprintf("%03d", r.IntN(200))
			if r.IntN(3) == 0 {
				ops[i] = storage.Delete(colls[c], []byte(k))
				delete(models[c], k)
			} else {
				ops[i] = storage.Put(colls[c], []byte(k), padded(k, r.IntN(40)))
				models[c][k] = k
			}
		}
		must(t, e.Apply(ops))
		for c := range colls {
			want := slices.Sorted(maps.Keys(models[c]))
			if got := keys(t, colls[c], nil, nil, false, 0); !slices.Equal(got, want) || colls[c].Len() != len(want) {
				t.Fatalf("collection %d: %d keys, model %d", c, len(got), len(want))
			}
			checkSize(t, colls[c])
		}
	}
}

// testKeyOrder checks that the key encodings order values as DynamoDB does.
func testKeyOrder(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	b := func(v ...byte) types.AttributeValue { return &types.AttributeValueMemberB{Value: v} }
	ordered := [][]types.AttributeValue{
		{s(""), s("A"), s("Z"), s("a"), s("a\x00"), s("a\x00b"), s("ab"), s("é"), s("語")},
		{n("-1E+125"), n("-100"), n("-2.5"), n("-1"), n("-0.001"), n("0"), n("1E-130"), n("0.5"), n("1"), n("1.5"), n("2"), n("10"), n("99999999999999999999999999999999999999")},
		{b(), b(0), b(0, 0), b(0, 1), b(1), b(0x7f), b(0x80), b(0xff)},
	}
	for _, vs := range ordered {
		for i := 1; i < len(vs); i++ {
			for _, enc := range []func([]byte, types.AttributeValue) ([]byte, error){storage.AppendKey, storage.AppendKeyPart} {
				x, err1 := enc(nil, vs[i-1])
				y, err2 := enc(nil, vs[i])
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				if bytes.Compare(x, y) >= 0 {
					t.Errorf("encoding of %v does not sort before %v", vs[i-1], vs[i])
				}
			}
		}
	}
	// Parts compose as tuples: ("a", "z") < ("a\x00", "a").
	p := func(vs ...types.AttributeValue) []byte {
		var out []byte
		for _, v := range vs {
			out, _ = storage.AppendKeyPart(out, v)
		}
		return out
	}
	if bytes.Compare(p(s("a"), s("z")), p(s("a\x00"), s("a"))) >= 0 {
		t.Error("key parts do not compose as tuples")
	}
	if _, err := storage.AppendKey(nil, &types.AttributeValueMemberBOOL{Value: true}); err == nil {
		t.Error("BOOL accepted as a key")
	}
	// Equal numbers in different spellings encode identically.
	x, _ := storage.AppendKey(nil, n("1.50"))
	y, _ := storage.AppendKey(nil, n("15E-1"))
	if !bytes.Equal(x, y) {
		t.Error("1.50 and 15E-1 encode differently")
	}
}

// testValuesKept: a collection gives back the Value it was given, every
// attribute type, with its size, and refuses the zero Value.
func testValuesKept(t *testing.T, e storage.Engine) {
	c := coll(t, e, "t")
	it := storage.Item{
		"s":  &types.AttributeValueMemberS{Value: "héllo\x00\"x\""},
		"n":  &types.AttributeValueMemberN{Value: "-1.5E+10"},
		"b":  &types.AttributeValueMemberB{Value: []byte{0, 255}},
		"t":  &types.AttributeValueMemberBOOL{Value: true},
		"f":  &types.AttributeValueMemberBOOL{Value: false},
		"0":  &types.AttributeValueMemberNULL{Value: true},
		"ss": &types.AttributeValueMemberSS{Value: []string{"b", "a"}},
		"ns": &types.AttributeValueMemberNS{Value: []string{"2", "1"}},
		"bs": &types.AttributeValueMemberBS{Value: [][]byte{{1}, {}}},
		"l":  &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberS{Value: "x"}, &types.AttributeValueMemberL{}}},
		"m":  &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"z": &types.AttributeValueMemberN{Value: "0"}, "a": &types.AttributeValueMemberM{}}},
	}
	v, err := storage.Encode(it)
	must(t, err)
	_, _, err = c.Put([]byte("k"), v)
	must(t, err)
	must(t, e.Apply([]storage.Op{storage.Put(c, []byte("batch"), v)}))
	for _, k := range []string{"k", "batch"} {
		got, ok, err := c.Get([]byte(k))
		must(t, err)
		if !ok || got.Encoded() != v.Encoded() || got.Size() != v.Size() {
			t.Fatalf("%s: got %q (size %d), want %q (size %d)", k, got.Encoded(), got.Size(), v.Encoded(), v.Size())
		}
		dec, err := got.Item()
		must(t, err)
		if fmt.Sprint(dec) == "" || len(dec) != len(it) {
			t.Fatalf("%s: decoded %d attributes, want %d", k, len(dec), len(it))
		}
	}
	if _, _, err := c.Put([]byte("zero"), storage.Value{}); err == nil {
		t.Fatal("Put of the zero Value succeeded")
	}
	if _, ok, _ := c.Get([]byte("zero")); ok {
		t.Fatal("the zero Value was stored")
	}
}

// testValuesOutliveWrites: a Value read stays valid after its item is
// replaced or deleted, and the collection keeps its own copy of a key the
// caller then reuses.
func testValuesOutliveWrites(t *testing.T, e storage.Engine) {
	c := coll(t, e, "t")
	key := []byte("k1")
	_, _, err := c.Put(key, item("first"))
	must(t, err)
	key[1] = '2'
	_, _, err = c.Put(key, item("second"))
	must(t, err)
	if _, ok, _ := c.Get([]byte("k1")); !ok || c.Len() != 2 {
		t.Fatal("the collection kept the caller's key buffer")
	}
	v, _, err := c.Get([]byte("k1"))
	must(t, err)
	_, _, err = c.Put([]byte("k1"), item("replaced"))
	must(t, err)
	must(t, e.Apply([]storage.Op{storage.Delete(c, []byte("k1"))}))
	for range 100 { // reuse freed memory, if anything was freed
		_, _, err = c.Put([]byte("k3"), item(strings.Repeat("x", 20)))
		must(t, err)
	}
	if val(v) != "first" {
		t.Fatalf("a Value read before the item was replaced and deleted now reads %q", val(v))
	}
}

// testFindPutAt checks a Finder's slots against a model: a write through a
// slot, alone (PutAt) or in a batch (Op.At), lands on its key whether the
// slot is fresh, stale after writes that split and merge the tree's nodes,
// or another collection's. Engines whose collections are not Finders skip.
func testFindPutAt(t *testing.T, e storage.Engine) {
	a, b := coll(t, e, "a"), coll(t, e, "b")
	fa, ok := a.(storage.Finder)
	if !ok {
		t.Skip("the collections are not Finders")
	}
	fb := b.(storage.Finder)
	v, at, err := fa.Find([]byte("k"))
	must(t, err)
	if !v.IsZero() || at != (storage.Slot{}) {
		t.Fatalf("Find of an absent key = %s, %v", val(v), at)
	}
	model := map[string]string{}
	type held struct {
		key string
		at  storage.Slot
	}
	var slots []held
	r := rand.New(rand.NewPCG(5, 6))
	n := 20000
	if testing.Short() {
		n = 4000
	}
	for i := range 500 { // b holds keys of a: its slots look like a's
		k := []byte(fmt.Sprintf("%04d", i*3))
		_, _, err := b.Put(k, item("b"))
		must(t, err)
	}
	for i := 0; i < n; i++ {
		k := fmt.Sprintf("%04d", r.IntN(1500))
		w := fmt.Sprintf("%s.%d", k, i)
		// The tree grows and shrinks in turns, so its nodes split and merge
		// while slots are held.
		shrink := i/2000%2 == 1
		switch op := r.IntN(8); {
		case op == 0 || shrink && op <= 3:
			_, _, err := a.Delete([]byte(k))
			must(t, err)
			delete(model, k)
		case op == 1:
			_, _, err := a.Put([]byte(k), item(w))
			must(t, err)
			model[k] = w
		case op <= 4: // find now, write through the slot later (long after, often)
			v, at, err := fa.Find([]byte(k))
			must(t, err)
			if mv, had := model[k]; val(v) != mv && had || !had && !v.IsZero() {
				t.Fatalf("Find(%s) = %s, model %s,%v", k, val(v), mv, had)
			}
			slots = append(slots, held{k, at})
			if _, at, err := fb.Find([]byte(k)); err == nil && r.IntN(4) == 0 {
				slots = append(slots, held{k, at}) // another collection's slot
			}
		case len(slots) > 0 && r.IntN(3) == 0:
			j := r.IntN(len(slots))
			h := slots[j]
			slots = slices.Delete(slots, j, j+1)
			_, had := model[h.key]
			var replaced bool
			if op <= 6 {
				_, replaced, err = fa.PutAt(h.at, []byte(h.key), item(w))
			} else {
				err = e.Apply([]storage.Op{storage.PutAt(a, []byte(h.key), item(w), h.at)})
				replaced = had
			}
			must(t, err)
			if replaced != had {
				t.Fatalf("PutAt(%s) replaced=%v, model had=%v", h.key, replaced, had)
			}
			model[h.key] = w
		}
		if a.Len() != len(model) || b.Len() != 500 {
			t.Fatalf("Len = %d and %d, model %d and 500", a.Len(), b.Len(), len(model))
		}
	}
	want := make([]string, 0, len(model))
	for k, v := range model {
		want = append(want, k+"="+v)
	}
	slices.Sort(want)
	var got []string
	must(t, a.Ascend(nil, nil, func(k []byte, v storage.Value) bool {
		got = append(got, string(k)+"="+val(v))
		return true
	}))
	if !slices.Equal(got, want) {
		t.Fatalf("contents differ from the model: %d vs %d items", len(got), len(want))
	}
	checkSize(t, a)
	checkSize(t, b)
	// A fresh slot replaces in place, alone and in a batch; the size follows.
	for i, pad := range []int{100, 3} {
		k := []byte("size")
		_, _, err := a.Put(k, padded("s", 50))
		must(t, err)
		_, at, err := fa.Find(k)
		must(t, err)
		if i == 0 {
			_, _, err = fa.PutAt(at, k, padded("s", pad))
		} else {
			err = e.Apply([]storage.Op{storage.PutAt(a, k, padded("s", pad), at)})
		}
		must(t, err)
		checkSize(t, a)
	}
	must(t, b.Ascend(nil, nil, func(k []byte, v storage.Value) bool {
		if val(v) != "b" {
			t.Fatalf("b's %s = %s: a write to a went to b", k, val(v))
		}
		return true
	}))
}
