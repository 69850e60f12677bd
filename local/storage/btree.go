package storage

import (
	"cmp"
	"strings"
	"unsafe"

	"github.com/dynamogo/dynamo/internal/prefault"
)

// btree is an ordered map from string keys to Values: a classic B-tree (after
// the algorithm of github.com/google/btree) specialised to one entry type so
// lookups compare strings directly, without interfaces or callbacks.
//
// It is not safe for concurrent writes; concurrent readers are safe while no
// writer runs (the server holds a per-table lock).
type btree struct {
	root   *node
	length int
	size   int64 // sum of the entries' sizes
	// last is the rightmost leaf, where a key after every other goes: keys
	// written in order (a restart) are appended there without a descent.
	// Every write that goes through the root sets it again.
	last *node
}

const (
	btreeDegree   = 32
	btreeMaxItems = 2*btreeDegree - 1
	btreeMinItems = btreeDegree - 1
)

// entry is one key and its Value in a single allocation (p points to the
// key then the encoding), so an item costs its bytes plus this 24-byte slot
// and nothing the garbage collector must scan but one pointer. pre is the
// key's first 4 bytes: find compares those in the node before it reads a
// key from its allocation, which on a large tree is a cache miss each.
// (Keys of tables and indexes start with a hash, so they rarely tie.)
type entry struct {
	p          *byte
	klen, vlen uint32
	size       uint32
	pre        uint32
}

func newEntry(key string, v Value) entry {
	b := make([]byte, len(key)+len(v.enc))
	copy(b[copy(b, key):], v.enc)
	return entry{p: unsafe.SliceData(b), klen: uint32(len(key)), vlen: uint32(len(v.enc)), size: uint32(v.size), pre: keyPrefix(key)}
}

// sharedEntry is the entry of kv[:klen] and v without a copy, if v's
// encoding is kv[klen:] (see SharedPutter).
func sharedEntry(kv []byte, klen int, v Value) (entry, bool) {
	if klen < 0 || klen >= len(kv) || len(kv)-klen != len(v.enc) || unsafe.StringData(v.enc) != &kv[klen] {
		return entry{}, false
	}
	return entry{p: &kv[0], klen: uint32(klen), vlen: uint32(len(v.enc)), size: uint32(v.size), pre: keyPrefix(unsafe.String(&kv[0], klen))}, true
}

// coldEntry is sharedEntry without reading kv: key holds the bytes of
// kv[:len(key)] (see ColdPutter). If v's encoding is elsewhere, key and v
// are copied (which reads v).
func coldEntry(kv, key []byte, v Value) entry {
	klen := len(key)
	if klen >= len(kv) || len(kv)-klen != len(v.enc) || unsafe.StringData(v.enc) != &kv[klen] {
		return newEntry(unsafeString(key), v)
	}
	return entry{p: &kv[0], klen: uint32(klen), vlen: uint32(len(v.enc)), size: uint32(v.size), pre: keyPrefix(unsafeString(key))}
}

// keyPrefix is the first 4 bytes of key, big-endian, padded with zeros: if
// keyPrefix(a) < keyPrefix(b) then a < b (a shorter key padded with the
// least byte still sorts before the keys it is a prefix of).
func keyPrefix(key string) uint32 {
	var b [4]byte
	copy(b[:], key)
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}

// less reports whether e's key is less than key, whose prefix is pre.
func (e *entry) less(pre uint32, key string) bool {
	return e.pre < pre || e.pre == pre && e.key() < key
}

// compare compares e's key with key, whose prefix is pre, reading e's key
// only if the prefixes tie.
func (e *entry) compare(pre uint32, key string) int {
	if e.pre != pre {
		return cmp.Compare(e.pre, pre)
	}
	return strings.Compare(e.key(), key)
}

func (e entry) key() string { return unsafe.String(e.p, e.klen) }

func (e entry) value() Value {
	if e.p == nil {
		return Value{}
	}
	return Value{enc: unsafe.String((*byte)(unsafe.Add(unsafe.Pointer(e.p), e.klen)), e.vlen), size: int(e.size)}
}

type node struct {
	items    []entry
	children []*node
}

// find returns the index of the first entry whose key is >= key, and whether
// that entry's key equals key.
func (n *node) find(key string) (int, bool) {
	return n.findPre(keyPrefix(key), key)
}

// findPre is find of key, whose prefix is pre.
func (n *node) findPre(pre uint32, key string) (int, bool) {
	lo, hi := 0, len(n.items)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if n.items[m].less(pre, key) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(n.items) && n.items[lo].pre == pre && n.items[lo].key() == key
}

func insertEntryAt(s []entry, i int, e entry) []entry {
	s = append(s, entry{})
	copy(s[i+1:], s[i:])
	s[i] = e
	return s
}

func removeEntryAt(s []entry, i int) ([]entry, entry) {
	e := s[i]
	copy(s[i:], s[i+1:])
	s[len(s)-1] = entry{}
	return s[:len(s)-1], e
}

func insertChildAt(s []*node, i int, c *node) []*node {
	s = append(s, nil)
	copy(s[i+1:], s[i:])
	s[i] = c
	return s
}

func removeChildAt(s []*node, i int) ([]*node, *node) {
	c := s[i]
	copy(s[i:], s[i+1:])
	s[len(s)-1] = nil
	return s[:len(s)-1], c
}

// split moves the entries after i (and their children) into a new node and
// returns the entry at i, which the caller lifts into the parent.
func (n *node) split(i int) (entry, *node) {
	mid := n.items[i]
	next := &node{items: make([]entry, 0, btreeMaxItems)}
	next.items = append(next.items, n.items[i+1:]...)
	for j := i; j < len(n.items); j++ {
		n.items[j] = entry{}
	}
	n.items = n.items[:i]
	if len(n.children) > 0 {
		next.children = make([]*node, 0, btreeMaxItems+1)
		next.children = append(next.children, n.children[i+1:]...)
		for j := i + 1; j < len(n.children); j++ {
			n.children[j] = nil
		}
		n.children = n.children[:i+1]
	}
	return mid, next
}

// maybeSplitChild splits child i if it is full, before key, whose prefix
// is pre, goes into it.
// A leaf on the right edge about to take a key after all of its own (keys
// written in order, a restart) keeps all but one of its entries, so that
// appends leave leaves full rather than half empty. (A leaf may hold fewer
// than btreeMinItems: removal only merges or steals from leaves, and
// internal nodes, which it must be able to take an entry from, are split in
// the middle.)
func (n *node) maybeSplitChild(i int, pre uint32, key string) bool {
	c := n.children[i]
	if len(c.items) < btreeMaxItems {
		return false
	}
	at := btreeMaxItems / 2
	if i == len(n.items) && len(c.children) == 0 && c.items[len(c.items)-1].less(pre, key) {
		at = btreeMaxItems - 2
	}
	mid, second := c.split(at)
	n.items = insertEntryAt(n.items, i, mid)
	n.children = insertChildAt(n.children, i+1, second)
	return true
}

// insert stores e, whose key is key: the same bytes, which may be where
// the caller can read them more cheaply (see putEntry).
func (n *node) insert(e entry, key string) (Value, bool) {
	var i int
	var found bool
	if last := len(n.items) - 1; last >= 0 && n.items[last].less(e.pre, key) {
		i = last + 1 // an append (keys written in order, a restart): one comparison
	} else {
		i, found = n.findPre(e.pre, key)
	}
	if found {
		old := n.items[i].value()
		n.items[i] = e
		return old, true
	}
	if len(n.children) == 0 {
		n.items = insertEntryAt(n.items, i, e)
		return Value{}, false
	}
	if n.maybeSplitChild(i, e.pre, key) {
		switch c := n.items[i].compare(e.pre, key); {
		case c > 0:
		case c < 0:
			i++
		default:
			old := n.items[i].value()
			n.items[i] = e
			return old, true
		}
	}
	return n.children[i].insert(e, key)
}

func (t *btree) get(key string) (Value, bool) {
	n, i := t.lookup(key) // slot.go
	if n == nil {
		return Value{}, false
	}
	return n.items[i].value(), true
}

// put stores a copy of key and v.
func (t *btree) put(key string, v Value) (Value, bool) {
	return t.putEntry(newEntry(key, v), key)
}

// putEntry stores e, comparing key, a copy of e's key, rather than e's
// own: a restart's entries point into a mapping of the files it read, and
// comparing a copy in the caller's buffer leaves that mapping untouched.
func (t *btree) putEntry(e entry, key string) (Value, bool) {
	if l := t.last; l != nil && len(l.items) > 0 && len(l.items) < btreeMaxItems && l.items[len(l.items)-1].less(e.pre, key) {
		l.items = append(l.items, e)
		t.length++
		t.size += int64(e.size)
		return Value{}, false
	}
	defer t.findLast()
	if t.root == nil {
		t.root = &node{items: make([]entry, 0, btreeMaxItems)}
		t.root.items = append(t.root.items, e)
		t.length++
		t.size += int64(e.size)
		return Value{}, false
	}
	if len(t.root.items) >= btreeMaxItems {
		t.splitRoot(btreeMaxItems / 2)
	}
	old, replaced := t.root.insert(e, key)
	if !replaced {
		t.length++
	}
	t.size += int64(e.size) - int64(old.size)
	return old, replaced
}

// appendEntry stores e, whose key the caller knows sorts after every key
// in t, down the right edge without reading a stored key: into the last
// leaf, splitting the full nodes on the way to it as maybeSplitChild does
// for an append.
func (t *btree) appendEntry(e entry) {
	t.length++
	t.size += int64(e.size)
	if l := t.last; l != nil && len(l.items) < btreeMaxItems {
		l.items = append(l.items, e)
		return
	}
	if t.root == nil {
		t.root = &node{items: make([]entry, 0, btreeMaxItems)}
		t.root.items = append(t.root.items, e)
		t.last = t.root
		return
	}
	if len(t.root.items) >= btreeMaxItems {
		t.splitRoot(appendSplit(t.root))
	}
	n := t.root
	for len(n.children) > 0 {
		c := n.children[len(n.children)-1]
		if len(c.items) >= btreeMaxItems {
			mid, second := c.split(appendSplit(c))
			n.items = append(n.items, mid)
			n.children = append(n.children, second)
			c = second
		}
		n = c
	}
	n.items = append(n.items, e)
	t.last = n
}

// splitRoot splits the full root at i under a new root.
func (t *btree) splitRoot(i int) {
	mid, second := t.root.split(i)
	old := t.root
	t.root = &node{items: make([]entry, 0, btreeMaxItems), children: make([]*node, 0, btreeMaxItems+1)}
	t.root.items = append(t.root.items, mid)
	t.root.children = append(t.root.children, old, second)
}

// appendSplit is where a full node on the right edge splits before an
// append, as in maybeSplitChild: a leaf keeps all but one of its entries,
// an internal node half.
func appendSplit(n *node) int {
	if len(n.children) == 0 {
		return btreeMaxItems - 2
	}
	return btreeMaxItems / 2
}

// findLast sets last after a write that may have changed the tree's shape.
func (t *btree) findLast() {
	n := t.root
	for n != nil && len(n.children) > 0 {
		n = n.children[len(n.children)-1]
	}
	t.last = n
}

func (t *btree) delete(key string) (Value, bool) {
	if t.root == nil || len(t.root.items) == 0 {
		return Value{}, false
	}
	defer t.findLast()
	e, ok := t.root.remove(key, false)
	if len(t.root.items) == 0 && len(t.root.children) > 0 {
		t.root = t.root.children[0]
	}
	if ok {
		t.length--
		t.size -= int64(e.size)
	}
	return e.value(), ok
}

// remove deletes key from the subtree (or its maximum entry when max is set),
// keeping every child it descends into above the minimum size.
func (n *node) remove(key string, max bool) (entry, bool) {
	var i int
	var found bool
	if max {
		i = len(n.items)
		if len(n.children) == 0 {
			if i == 0 {
				return entry{}, false
			}
			var e entry
			n.items, e = removeEntryAt(n.items, i-1)
			return e, true
		}
	} else {
		i, found = n.find(key)
		if len(n.children) == 0 {
			if !found {
				return entry{}, false
			}
			var e entry
			n.items, e = removeEntryAt(n.items, i)
			return e, true
		}
	}
	if len(n.children[i].items) <= btreeMinItems {
		n.growChild(i)
		return n.remove(key, max)
	}
	child := n.children[i]
	if found {
		out := n.items[i]
		pred, _ := child.remove("", true)
		n.items[i] = pred
		return out, true
	}
	return child.remove(key, max)
}

// growChild gives child i at least one more entry, by stealing from a
// sibling or merging with one.
func (n *node) growChild(i int) {
	switch {
	case i > 0 && len(n.children[i-1].items) > btreeMinItems:
		child, from := n.children[i], n.children[i-1]
		var stolen entry
		from.items, stolen = removeEntryAt(from.items, len(from.items)-1)
		child.items = insertEntryAt(child.items, 0, n.items[i-1])
		n.items[i-1] = stolen
		if len(from.children) > 0 {
			var c *node
			from.children, c = removeChildAt(from.children, len(from.children)-1)
			child.children = insertChildAt(child.children, 0, c)
		}
	case i < len(n.items) && len(n.children[i+1].items) > btreeMinItems:
		child, from := n.children[i], n.children[i+1]
		var stolen entry
		from.items, stolen = removeEntryAt(from.items, 0)
		child.items = append(child.items, n.items[i])
		n.items[i] = stolen
		if len(from.children) > 0 {
			var c *node
			from.children, c = removeChildAt(from.children, 0)
			child.children = append(child.children, c)
		}
	default:
		if i >= len(n.items) {
			i--
		}
		child := n.children[i]
		var merge entry
		var mergeChild *node
		n.items, merge = removeEntryAt(n.items, i)
		n.children, mergeChild = removeChildAt(n.children, i+1)
		child.items = append(child.items, merge)
		child.items = append(child.items, mergeChild.items...)
		child.children = append(child.children, mergeChild.children...)
	}
}

// ascend calls fn for entries with start <= key < end in ascending order
// (empty start/end = unbounded when hasStart/hasEnd are false).
func (n *node) ascend(start, end string, hasStart, hasEnd bool, fn func(string, Value) bool) bool {
	i := 0
	if hasStart {
		i, _ = n.find(start)
	}
	for ; i < len(n.items); i++ {
		if len(n.children) > 0 && !n.children[i].ascend(start, end, hasStart, hasEnd, fn) {
			return false
		}
		e := n.items[i]
		k := e.key()
		if hasEnd && k >= end {
			return false
		}
		if !fn(k, e.value()) {
			return false
		}
	}
	if len(n.children) > 0 {
		return n.children[len(n.items)].ascend(start, end, hasStart, hasEnd, fn)
	}
	return true
}

// descend calls fn for entries with start <= key < end in descending order.
func (n *node) descend(start, end string, hasStart, hasEnd bool, fn func(string, Value) bool) bool {
	j := len(n.items)
	if hasEnd {
		j, _ = n.find(end)
	}
	if len(n.children) > 0 && !n.children[j].descend(start, end, hasStart, hasEnd, fn) {
		return false
	}
	for i := j - 1; i >= 0; i-- {
		e := n.items[i]
		k := e.key()
		if hasStart && k < start {
			return false
		}
		if !fn(k, e.value()) {
			return false
		}
		if len(n.children) > 0 && !n.children[i].descend(start, end, hasStart, hasEnd, fn) {
			return false
		}
	}
	return true
}

// bulkLeafItems is how full a bulk build leaves its leaves: one short of
// the maximum (in-order puts leave 61), so a later insert into any leaf
// does not split it at once.
const bulkLeafItems = btreeMaxItems - 1

// builder builds a tree bottom-up from entries in ascending key order: it
// fills leaves as the entries come and builds the levels above them once,
// at finish, instead of descending from the root and splitting a leaf
// every 62 entries. Leaves and their entry arrays come from slabs that
// double up to maxSlabLeaves leaves, so a large collection is a few hundred
// objects for the collector rather than two per node, and a small one
// takes no more than one leaf.
type builder struct {
	leaves []*node // leaves filled so far, in order
	seps   []entry // seps[i] is the entry between leaves[i] and leaves[i+1]
	sep    bool    // seps holds one entry more, which the next leaf follows
	length int     // entries added
	size   int64   // their sizes
	slab   []entry // entry arrays of the leaves to come
	nodes  []node  // nodes to come
	grow   int     // leaves in the next slab
}

const maxSlabLeaves = 64

// newNode returns a node with room for btreeMaxItems entries from the slabs.
func (b *builder) newNode() *node {
	if len(b.nodes) == 0 {
		b.grow = min(max(2*b.grow, 1), maxSlabLeaves)
		b.nodes = make([]node, b.grow)
		b.slab = make([]entry, b.grow*btreeMaxItems)
		prefault.Slice(b.slab)
	}
	n := &b.nodes[0]
	n.items = b.slab[:0:btreeMaxItems]
	b.nodes, b.slab = b.nodes[1:], b.slab[btreeMaxItems:]
	return n
}

// add appends e, whose key must be after every key added before.
func (b *builder) add(e entry) {
	b.length++
	b.size += int64(e.size)
	if len(b.leaves) > 0 && !b.sep {
		if l := b.leaves[len(b.leaves)-1]; len(l.items) < bulkLeafItems {
			l.items = append(l.items, e)
			return
		}
		// The leaf is full: e goes between it and the next one.
		b.seps = append(b.seps, e)
		b.sep = true
		return
	}
	l := b.newNode()
	l.items = append(l.items, e)
	b.leaves = append(b.leaves, l)
	b.sep = false
}

// last returns the entry added last.
func (b *builder) last() *entry {
	if b.sep {
		return &b.seps[len(b.seps)-1]
	}
	l := b.leaves[len(b.leaves)-1]
	return &l.items[len(l.items)-1]
}

// finish stores the entries added into t, which must be empty, with
// leaves and inner nodes between btreeMinItems and btreeMaxItems entries.
func (b *builder) finish(t *btree) {
	if len(b.leaves) == 0 {
		return
	}
	if b.sep {
		// A separator with no leaf after it ends the last leaf, which has
		// room for one more.
		l := b.leaves[len(b.leaves)-1]
		l.items = append(l.items, b.seps[len(b.seps)-1])
		b.seps = b.seps[:len(b.seps)-1]
	}
	if k := len(b.leaves); k > 1 && len(b.leaves[k-1].items) < btreeMinItems {
		// The last leaf is short: share the entries of the last two
		// leaves and the separator between them evenly.
		left, right := b.leaves[k-2], b.leaves[k-1]
		all := make([]entry, 0, len(left.items)+1+len(right.items))
		all = append(append(append(all, left.items...), b.seps[k-2]), right.items...)
		half := len(all) / 2
		left.items = append(left.items[:0], all[:half]...)
		b.seps[k-2] = all[half]
		right.items = append(right.items[:0], all[half+1:]...)
		clear(left.items[len(left.items):cap(left.items)])
	}
	level, seps := b.leaves, b.seps
	for len(level) > 1 {
		level, seps = b.buildLevel(level, seps)
	}
	t.root, t.length, t.size = level[0], b.length, b.size
	t.findLast()
	*b = builder{}
}

// buildLevel groups the nodes of one level, and the entries between them,
// under as few parents as hold them: each parent has at most
// btreeMaxItems+1 children, and as many as the others or one fewer, so at
// least half as many (k nodes need p = ceil(k/64) parents; with p > 1 each
// gets more than 32). It returns the parents and the entries between them.
func (b *builder) buildLevel(level []*node, seps []entry) ([]*node, []entry) {
	const fan = btreeMaxItems + 1
	p := (len(level) + fan - 1) / fan
	parents := make([]*node, 0, p)
	up := make([]entry, 0, p-1)
	items := make([]entry, 0, p*btreeMaxItems)
	children := make([]*node, 0, p*fan)
	nodes := make([]node, p)
	at := 0
	for j := range p {
		n := len(level) / p
		if j < len(level)%p {
			n++
		}
		nd := &nodes[j]
		nd.items = append(items[len(items):len(items):len(items)+btreeMaxItems], seps[at:at+n-1]...)
		items = items[:len(items)+btreeMaxItems]
		nd.children = append(children[len(children):len(children):len(children)+fan], level[at:at+n]...)
		children = children[:len(children)+fan]
		parents = append(parents, nd)
		if j < p-1 {
			up = append(up, seps[at+n-1])
		}
		at += n
	}
	return parents, up
}
