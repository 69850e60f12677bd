package storage

import (
	"encoding/binary"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// check verifies the tree's order and shape: keys ascending, internal
// nodes between btreeMinItems and btreeMaxItems entries (the root at least
// one) with one child more, leaves at one depth and not over btreeMaxItems.
func (t *btree) check(tb testing.TB) []string {
	tb.Helper()
	var keys []string
	leafDepth := -1
	var walk func(n *node, depth int, root bool)
	walk = func(n *node, depth int, root bool) {
		if len(n.items) > btreeMaxItems {
			tb.Fatalf("node of %d entries", len(n.items))
		}
		if len(n.children) == 0 {
			if leafDepth >= 0 && depth != leafDepth {
				tb.Fatalf("leaves at depths %d and %d", leafDepth, depth)
			}
			leafDepth = depth
			for _, e := range n.items {
				keys = append(keys, e.key())
			}
			return
		}
		if len(n.children) != len(n.items)+1 || len(n.items) == 0 || (!root && len(n.items) < btreeMinItems) {
			tb.Fatalf("internal node of %d entries and %d children", len(n.items), len(n.children))
		}
		for i, c := range n.children {
			walk(c, depth+1, false)
			if i < len(n.items) {
				keys = append(keys, n.items[i].key())
			}
		}
	}
	if t.root != nil {
		walk(t.root, 0, true)
	}
	if !slices.IsSorted(keys) || len(keys) != t.length {
		tb.Fatalf("%d keys, length %d, sorted %v", len(keys), t.length, slices.IsSorted(keys))
	}
	right := t.root
	for right != nil && len(right.children) > 0 {
		right = right.children[len(right.children)-1]
	}
	if t.last != right {
		tb.Fatal("last is not the rightmost leaf")
	}
	return keys
}

// Keys written in order fill the leaves, and the tree stays a valid B-tree
// through deletes in any order and writes in the gaps.
func TestBtreeAppendsThenChurn(t *testing.T) {
	var tr btree
	v := MustEncode(Item{})
	const n = 20000
	for i := range n {
		tr.put(fmt.Sprintf("k%06d", i), v)
	}
	tr.check(t)
	leaves, entries := 0, 0
	var count func(*node)
	count = func(nd *node) {
		if len(nd.children) == 0 {
			leaves++
			entries += len(nd.items)
		}
		for _, c := range nd.children {
			count(c)
		}
	}
	count(tr.root)
	if fill := float64(entries) / float64(leaves*btreeMaxItems); fill < 0.9 {
		t.Fatalf("appends left the leaves %.0f%% full", 100*fill)
	}
	r := rand.New(rand.NewPCG(7, 8))
	model := map[string]bool{}
	for i := range n {
		model[fmt.Sprintf("k%06d", i)] = true
	}
	for i := range 3 * n {
		k := fmt.Sprintf("k%06d", r.IntN(n+n/10))
		if r.IntN(3) == 0 {
			tr.put(k, v)
			model[k] = true
		} else {
			_, ok := tr.delete(k)
			if ok != model[k] {
				t.Fatalf("delete %s: %v, model %v", k, ok, model[k])
			}
			delete(model, k)
		}
		if i%1000 == 0 {
			tr.check(t)
		}
	}
	keys := tr.check(t)
	want := make([]string, 0, len(model))
	for k := range model {
		want = append(want, k)
	}
	slices.Sort(want)
	if !slices.Equal(keys, want) {
		t.Fatalf("%d keys, want %d", len(keys), len(want))
	}
	for len(keys) > 0 { // delete everything, from the left
		if _, ok := tr.delete(keys[0]); !ok {
			t.Fatalf("delete %s failed", keys[0])
		}
		keys = keys[1:]
	}
	tr.check(t)
}

// Keys in order interleaved with deletes at the right edge and writes in
// the gaps: the appends that skip the descent land where a descent would.
func TestBtreeAppendsAtTheRightEdge(t *testing.T) {
	var tr btree
	v := MustEncode(Item{})
	r := rand.New(rand.NewPCG(9, 10))
	model := map[string]bool{}
	next := 0
	for i := range 30000 {
		switch x := r.IntN(10); {
		case x < 7:
			k := fmt.Sprintf("k%06d", next)
			next++
			tr.put(k, v)
			model[k] = true
		case x < 9 && len(model) > 0:
			k := fmt.Sprintf("k%06d", next-1-r.IntN(min(next, 100)))
			tr.delete(k)
			delete(model, k)
		default:
			k := fmt.Sprintf("k%06d", r.IntN(next+1))
			tr.put(k, v)
			model[k] = true
		}
		if i%500 == 0 {
			tr.check(t)
		}
	}
	keys := tr.check(t)
	if len(keys) != len(model) {
		t.Fatalf("%d keys, want %d", len(keys), len(model))
	}
	for _, k := range keys {
		if !model[k] {
			t.Fatalf("key %s should not be there", k)
		}
	}
}

// PutShared keeps a key and item where they are when the item's encoding
// follows the key in the buffer given, and copies them otherwise; either
// way the collection holds them.
func TestPutShared(t *testing.T) {
	c, err := NewMemory().Collection("c")
	if err != nil {
		t.Fatal(err)
	}
	sp := c.(SharedPutter)
	v := MustEncode(Item{"a": &types.AttributeValueMemberS{Value: "x"}})
	buf := append([]byte("key"), v.Encoded()...)
	inBuf := TrustedValue(unsafeString(buf[3:]), v.Size())
	if _, _, err := sp.PutShared(buf, 3, inBuf); err != nil {
		t.Fatal(err)
	}
	got, ok, _ := c.Get([]byte("key"))
	if !ok || got != inBuf || unsafe.StringData(got.Encoded()) != &buf[3] {
		t.Fatal("a key and item in one buffer were copied")
	}
	other := append([]byte("other"), v.Encoded()...)
	if _, _, err := sp.PutShared(other, 5, v); err != nil { // v is not in other
		t.Fatal(err)
	}
	got, ok, _ = c.Get([]byte("other"))
	if !ok || got.Encoded() != v.Encoded() || unsafe.StringData(got.Encoded()) == unsafe.StringData(v.Encoded()) || unsafe.StringData(got.Encoded()) == &other[5] {
		t.Fatal("an item not in the buffer was not copied")
	}
	if _, _, err := sp.PutShared(buf, 3, Value{}); err == nil {
		t.Fatal("PutShared of the zero Value succeeded")
	}
	if _, _, err := sp.PutShared(buf, len(buf)+1, inBuf); err == nil {
		t.Fatal("PutShared of a key longer than its buffer succeeded")
	}
}

// BenchmarkBtreeGet looks up random keys of a tree of 8-byte-hash-prefixed
// keys (as the server's tables hold them), each entry its own allocation:
// a lookup's cost is mostly the memory it touches.
func BenchmarkBtreeGet(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			var t btree
			keys := make([]string, n)
			for i := range keys {
				var k [8]byte
				binary.BigEndian.PutUint64(k[:], uint64(i)*0x9E3779B97F4A7C15)
				keys[i] = string(k[:]) + "k" + strconv.Itoa(i) + "\x00\x01"
				t.put(keys[i], MustEncode(Item{"v": &types.AttributeValueMemberS{Value: strings.Repeat("v", 100)}}))
			}
			r := rand.New(rand.NewPCG(1, 2))
			b.ResetTimer()
			for b.Loop() {
				if _, ok := t.get(keys[r.IntN(n)]); !ok {
					b.Fatal("missing")
				}
			}
		})
	}
}

// TestEntrySize: an item costs its bytes and one 24-byte slot in its node
// (docs/performance.md counts on it).
func TestEntrySize(t *testing.T) {
	if s := unsafe.Sizeof(entry{}); s != 24 {
		t.Errorf("entry is %d bytes, want 24", s)
	}
}

// TestKeyPrefixOrder: find trusts keyPrefix's order where prefixes differ.
func TestKeyPrefixOrder(t *testing.T) {
	keys := []string{"", "\x00", "\x00\x00\x00\x00\x01", "a", "a\x00", "a\x00\x01", "ab", "abcd", "abcd\x00", "abce", "b", "\xff\xff\xff\xff", "\xff\xff\xff\xff\xff"}
	for _, a := range keys {
		for _, b := range keys {
			if keyPrefix(a) < keyPrefix(b) && !(a < b) {
				t.Errorf("keyPrefix(%q) < keyPrefix(%q) but %q >= %q", a, b, a, b)
			}
		}
	}
}

// TestBtreeMixedPrefixes churns keys whose first 4 bytes (keyPrefix) differ,
// tie, or are padded (keys shorter than 4 bytes, zero bytes), against a
// model: every lookup, and the order of a walk, agree with the keys' order.
func TestBtreeMixedPrefixes(t *testing.T) {
	var tr btree
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte{0, 1, 'a', 'b', 0xff}
	key := func() string {
		b := make([]byte, r.IntN(7))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}
	model := map[string]Value{}
	for i := range 20000 {
		k := key()
		v := MustEncode(Item{"i": &types.AttributeValueMemberN{Value: strconv.Itoa(i)}})
		switch r.IntN(3) {
		case 0, 1:
			tr.put(k, v)
			model[k] = v
		default:
			if _, ok := tr.delete(k); ok != (model[k] != Value{}) {
				t.Fatalf("delete %q: %v", k, ok)
			}
			delete(model, k)
		}
		probe := key()
		if got, ok := tr.get(probe); ok != (model[probe] != Value{}) || got != model[probe] {
			t.Fatalf("get %q = %v, %v; want %v", probe, got, ok, model[probe])
		}
	}
	want := slices.Sorted(maps.Keys(model))
	if keys := tr.check(t); !slices.Equal(keys, want) {
		t.Fatalf("walk: %q, want %q", keys, want)
	}
}

// bulk builds a tree of keys (ascending) through builder.
func bulk(keys []string, v Value) *btree {
	var b builder
	for _, k := range keys {
		b.add(newEntry(k, v))
	}
	var t btree
	b.finish(&t)
	return &t
}

// A bulk build holds every key given, as a valid B-tree whose leaves are
// at least half full, at every size around the boundaries of a leaf, a
// level and a slab; and puts and deletes in any order then work on it as
// on a tree built by puts.
func TestBtreeBulkBuild(t *testing.T) {
	v := MustEncode(Item{})
	sizes := []int{0, 1, 2, btreeMinItems, bulkLeafItems - 1, bulkLeafItems, bulkLeafItems + 1, bulkLeafItems + 2,
		2*bulkLeafItems + 1, 2*bulkLeafItems + 2, 2*bulkLeafItems + 3, (bulkLeafItems + 1) * (btreeMaxItems + 1),
		(bulkLeafItems+1)*(btreeMaxItems+1) + 1, (bulkLeafItems+1)*(btreeMaxItems+1)*2 + 40, 300_000}
	r := rand.New(rand.NewPCG(11, 12))
	for range 20 {
		sizes = append(sizes, r.IntN(20000))
	}
	for _, n := range sizes {
		keys := make([]string, n)
		for i := range keys {
			keys[i] = fmt.Sprintf("k%07d", 2*i)
		}
		tr := bulk(keys, v)
		if got := tr.check(t); !slices.Equal(got, keys) && n > 0 {
			t.Fatalf("n=%d: the bulk build holds %d keys", n, len(got))
		}
		var leaves func(*node, bool)
		leaves = func(nd *node, root bool) {
			if len(nd.children) == 0 && !root && len(nd.items) < btreeMinItems {
				t.Fatalf("n=%d: a leaf of %d entries", n, len(nd.items))
			}
			for _, c := range nd.children {
				leaves(c, false)
			}
		}
		if tr.root != nil {
			leaves(tr.root, true)
		}
		for _, k := range keys {
			if _, ok := tr.get(k); !ok {
				t.Fatalf("n=%d: %s is missing", n, k)
			}
		}
		if n > 20000 {
			continue // the churn below is the same at any size
		}
		model := map[string]bool{}
		for _, k := range keys {
			model[k] = true
		}
		for i := range 3 * (n + 100) {
			k := fmt.Sprintf("k%07d", r.IntN(2*n+20))
			switch r.IntN(3) {
			case 0:
				if _, replaced := tr.put(k, v); replaced != model[k] {
					t.Fatalf("n=%d: put %s replaced %v, model %v", n, k, replaced, model[k])
				}
				model[k] = true
			case 1:
				if _, ok := tr.delete(k); ok != model[k] {
					t.Fatalf("n=%d: delete %s: %v, model %v", n, k, ok, model[k])
				}
				delete(model, k)
			default:
				if _, ok := tr.get(k); ok != model[k] {
					t.Fatalf("n=%d: get %s: %v, model %v", n, k, ok, model[k])
				}
			}
			if i%997 == 0 {
				tr.check(t)
			}
		}
		if got, want := tr.check(t), slices.Sorted(maps.Keys(model)); !slices.Equal(got, want) && len(want) > 0 {
			t.Fatalf("n=%d: %d keys after churn, want %d", n, len(got), len(want))
		}
	}
}

// A sorted load holds what puts of the same items would, in order or not
// (an item out of order, or again, is put on the tree built so far), keeps
// the items where they are, and refuses what PutShared refuses.
func TestLoadSorted(t *testing.T) {
	item := func(i int) Value {
		return MustEncode(Item{"n": &types.AttributeValueMemberN{Value: strconv.Itoa(i)}})
	}
	// shared returns key followed by the encoding of v, and v in it.
	shared := func(key string, v Value) ([]byte, Value) {
		buf := append([]byte(key), v.Encoded()...)
		return buf, TrustedValue(unsafeString(buf[len(key):]), v.Size())
	}
	var keys []string
	for i := range 5000 {
		keys = append(keys, fmt.Sprintf("k%05d", i))
	}
	r := rand.New(rand.NewPCG(13, 14))
	for _, order := range []string{"sorted", "then unsorted", "then again"} {
		in := slices.Clone(keys)
		switch order {
		case "then unsorted":
			r.Shuffle(len(in)-3000, func(i, j int) { in[3000+i], in[3000+j] = in[3000+j], in[3000+i] })
		case "then again":
			in = append(in, keys[100:200]...)
		}
		eng := NewMemory()
		c, _ := eng.Collection("c")
		ld, err := c.(SortedLoader).LoadSorted()
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]Value{}
		var first []byte
		for i, k := range in {
			buf, v := shared(k, item(i))
			if i == 0 {
				first = buf
			}
			if err := ld.PutShared(buf, len(k), v); err != nil {
				t.Fatal(err)
			}
			want[k] = v
		}
		ld.Finish()
		if c.Len() != len(want) {
			t.Fatalf("%s: %d items, want %d", order, c.Len(), len(want))
		}
		var got []string
		c.Ascend(nil, nil, func(k []byte, v Value) bool {
			if want[string(k)] != v {
				t.Fatalf("%s: %s holds another item", order, k)
			}
			got = append(got, string(k))
			return true
		})
		if !slices.Equal(got, keys) {
			t.Fatalf("%s: Ascend gives %d keys, want %d", order, len(got), len(keys))
		}
		v, _, _ := c.Get([]byte(in[0]))
		if unsafe.StringData(v.Encoded()) != &first[len(in[0])] {
			t.Fatalf("%s: the item was copied", order)
		}
		if _, _, err := c.Put([]byte("k99999"), item(0)); err != nil || c.Len() != len(want)+1 {
			t.Fatalf("%s: put after the load: %v, %d items", order, err, c.Len())
		}
		if _, ok, _ := c.Delete([]byte(keys[0])); !ok {
			t.Fatalf("%s: delete after the load failed", order)
		}
		if _, err := c.(SortedLoader).LoadSorted(); err == nil {
			t.Fatalf("%s: a sorted load into a collection with items started", order)
		}
	}
	c, _ := NewMemory().Collection("c")
	ld, _ := c.(SortedLoader).LoadSorted()
	buf, v := shared("key", item(1))
	if err := ld.PutShared(buf, 3, Value{}); err == nil {
		t.Fatal("PutShared of the zero Value succeeded")
	}
	if err := ld.PutShared(buf, len(buf)+1, v); err == nil {
		t.Fatal("PutShared of a key longer than its buffer succeeded")
	}
}
