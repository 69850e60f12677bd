package storage

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
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

// Entries compare by their first eight bytes first: keys shorter than
// eight bytes, keys with zero bytes and keys that share their first eight
// bytes (one partition) are still found, ordered and told apart.
func TestBtreePrefixes(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	key := func() string {
		b := make([]byte, r.IntN(13))
		for i := range b {
			b[i] = "\x00\x01a\xff"[r.IntN(4)]
		}
		return string(b)
	}
	for range 2000 {
		a, b := key(), key()
		if pa, pb := keyPrefix(a), keyPrefix(b); pa < pb && !(a < b) || a == b && pa != pb {
			t.Fatalf("keyPrefix(%q) = %x, keyPrefix(%q) = %x", a, pa, b, pb)
		}
	}
	var tr btree
	want := map[string]bool{}
	for i := range 5000 {
		k := key()
		if i%3 == 2 {
			tr.delete(k)
			delete(want, k)
		} else {
			tr.put(k, Value{enc: "v", size: 1})
			want[k] = true
		}
	}
	for range 500 {
		k := key()
		if _, ok := tr.get(k); ok != want[k] {
			t.Fatalf("get(%q) found %v, want %v", k, ok, want[k])
		}
	}
	keys := tr.check(t)
	if len(keys) != len(want) {
		t.Fatalf("%d keys, want %d", len(keys), len(want))
	}
}
