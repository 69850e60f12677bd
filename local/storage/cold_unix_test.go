//go:build unix

package storage

import (
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"strconv"
	"syscall"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// coldBuf is memory the test can make unreadable, as a mapping Open must
// not touch: each item is its key then its encoding.
type coldBuf struct {
	mem []byte
	n   int
}

func newColdBuf(t *testing.T, size int) *coldBuf {
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	return &coldBuf{mem: mem}
}

// add copies key and v in and returns them as PutCold takes them.
func (b *coldBuf) add(key string, v Value) (kv, hot []byte, cv Value) {
	at := b.n
	b.n += copy(b.mem[at:], key)
	b.n += copy(b.mem[b.n:], v.enc)
	kv = b.mem[at:b.n:b.n]
	return kv, []byte(key), TrustedValue(unsafeString(kv[len(key):]), v.Size())
}

func (b *coldBuf) protect(t *testing.T, prot int) {
	if err := syscall.Mprotect(b.mem, prot); err != nil {
		t.Fatal(err)
	}
}

// touches reports whether f read the buffer while it was unreadable.
func (b *coldBuf) touches(t *testing.T, f func()) (touched bool) {
	b.protect(t, syscall.PROT_NONE)
	defer b.protect(t, syscall.PROT_READ|syscall.PROT_WRITE)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if recover() != nil {
			touched = true
		}
	}()
	f()
	return false
}

// A sorted load and then puts of keys after every key stored, all through
// PutCold, never read the stored keys or items; the tree they build is a
// valid B-tree holding them. A key that sorts before the greatest one, or
// any put after a Put, takes the normal path, which compares stored keys.
func TestPutColdReadsNoStoredKey(t *testing.T) {
	item := func(i int) Value {
		return MustEncode(Item{"n": &types.AttributeValueMemberN{Value: strconv.Itoa(i)}})
	}
	buf := newColdBuf(t, 4<<20)
	type put struct {
		kv, key []byte
		v       Value
	}
	var loaded, appended []put
	for i := range 40000 {
		kv, key, v := buf.add(fmt.Sprintf("k%06d", i), item(i))
		if i < 5000 {
			loaded = append(loaded, put{kv, key, v})
		} else {
			appended = append(appended, put{kv, key, v})
		}
	}
	c, _ := NewMemory().Collection("c")
	mc := c.(*memColl)
	if buf.touches(t, func() {
		ld, err := mc.LoadSorted()
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range loaded {
			if err := ld.(ColdPutter).PutCold(p.kv, p.key, p.v); err != nil {
				t.Fatal(err)
			}
		}
		ld.Finish()
		for _, p := range appended { // the right edge splits up to the root
			if err := mc.PutCold(p.kv, p.key, p.v); err != nil {
				t.Fatal(err)
			}
		}
	}) {
		t.Fatal("PutCold read a stored key or item")
	}
	keys := mc.tree.check(t)
	if len(keys) != 40000 || !slices.IsSorted(keys) {
		t.Fatalf("%d keys after the load", len(keys))
	}
	for i, p := range append(loaded, appended...) {
		if v, ok, _ := c.Get(p.key); !ok || v != p.v {
			t.Fatalf("item %d is not the one put where it lay", i)
		}
	}
	// The controls: a put the check must see read the buffer (a read
	// interrupts it, so each goes to a collection of its own).
	// A key inside the range must find its place among the stored keys.
	c1, _ := NewMemory().Collection("c1")
	c2, _ := NewMemory().Collection("c2")
	for _, c := range []Collection{c1, c2} {
		for _, p := range loaded {
			must(t, c.(ColdPutter).PutCold(p.kv, p.key, p.v))
		}
	}
	kv, key, v := buf.add("k000100x", item(-1))
	if !buf.touches(t, func() { c1.(ColdPutter).PutCold(kv, key, v) }) {
		t.Fatal("a key before the greatest was put without comparing (the check cannot fail)")
	}
	// After a Put the greatest key is unknown: even a key after it compares
	// (with the last one, whose first 4 bytes it shares).
	_, _, err := c2.Put([]byte("k000200y"), item(0))
	must(t, err)
	kv, key, v = buf.add("k004999z", item(-2))
	if !buf.touches(t, func() { c2.(ColdPutter).PutCold(kv, key, v) }) {
		t.Fatal("PutCold after a Put appended without comparing")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A PutCold of a key among those stored, as a log's writes of tables'
// hash-prefixed keys are, finds its place by the key the caller passes and
// the stored keys' first 4 bytes: it reads neither its own entry's bytes
// nor a stored key whose first 4 bytes differ from its own.
func TestPutColdComparesTheCallersKey(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	pres := map[uint32]bool{}
	var keys []string
	for len(keys) < 20000 {
		p := r.Uint32()
		if pres[p] {
			continue
		}
		pres[p] = true
		keys = append(keys, string([]byte{byte(p >> 24), byte(p >> 16), byte(p >> 8), byte(p)})+"#"+strconv.Itoa(len(keys)))
	}
	loaded := slices.Sorted(slices.Values(keys[:10000]))
	v := MustEncode(Item{"n": &types.AttributeValueMemberN{Value: "1"}})
	buf := newColdBuf(t, 2<<20)
	c, _ := NewMemory().Collection("c")
	mc := c.(*memColl)
	ld, err := mc.LoadSorted()
	must(t, err)
	for _, k := range loaded {
		kv, key, cv := buf.add(k, v)
		must(t, ld.(ColdPutter).PutCold(kv, key, cv))
	}
	ld.Finish()
	type put struct {
		kv, key []byte
		v       Value
	}
	var puts []put
	for _, k := range keys[10000:] { // in random order
		kv, _, cv := buf.add(k, v)
		puts = append(puts, put{kv, []byte(k), cv})
	}
	if buf.touches(t, func() {
		for _, p := range puts {
			must(t, mc.PutCold(p.kv, p.key, p.v))
		}
	}) {
		t.Fatal("PutCold read its entry's bytes or a stored key whose prefix differs")
	}
	if got := mc.tree.check(t); len(got) != len(keys) || !slices.IsSorted(got) {
		t.Fatalf("%d keys after the puts, want %d", len(got), len(keys))
	}
}

// Appends after a churn of deletes and puts in between keep the tree
// valid: the greatest key PutCold knows stays an upper bound.
func TestPutColdAfterDeletes(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	c, _ := NewMemory().Collection("c")
	mc := c.(*memColl)
	model := map[string]bool{}
	v := MustEncode(Item{})
	next := 0
	for i := range 30000 {
		switch x := r.IntN(10); {
		case x < 7:
			k := fmt.Sprintf("k%06d", next)
			next++
			kv := append([]byte(k), v.enc...)
			if err := mc.PutCold(kv, []byte(k), TrustedValue(unsafeString(kv[len(k):]), v.Size())); err != nil {
				t.Fatal(err)
			}
			model[k] = true
		default:
			k := fmt.Sprintf("k%06d", next-1-r.IntN(min(next, 300)))
			c.Delete([]byte(k))
			delete(model, k)
		}
		if i%1000 == 0 {
			mc.tree.check(t)
		}
	}
	if keys := mc.tree.check(t); len(keys) != len(model) {
		t.Fatalf("%d keys, want %d", len(keys), len(model))
	}
}
