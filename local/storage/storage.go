package storage

import (
	"errors"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Item is an item as an attribute map: what Encode takes and Value.Item
// gives back.
type Item = map[string]types.AttributeValue

// ErrClosed is returned by every method of a closed engine and its collections.
var ErrClosed = errors.New("storage: engine closed")

// Engine stores named collections of items ordered by an encoded key, plus a
// small catalog of metadata blobs (the server keeps its table descriptions
// there, so a durable engine restores tables with their items).
//
// The server serialises the writes to one collection and keeps readers out
// while it writes (it holds a per-table lock), so a collection need not be
// safe for concurrent writes; it must allow concurrent readers.
type Engine interface {
	// Collection opens the named collection, creating it empty if absent.
	Collection(name string) (Collection, error)
	// Drop deletes a collection and its items; dropping an absent one is not an error.
	Drop(name string) error
	// PutMeta stores a catalog entry; a nil value deletes it.
	PutMeta(key string, value []byte) error
	// Meta returns every catalog entry.
	Meta() (map[string][]byte, error)
	// Apply makes every write of ops, in order, or none of them: it checks
	// every op first (each names an open collection of this engine), and a
	// durable engine makes the whole batch durable at once, so a crash
	// leaves all of it or nothing. Readers must be kept out while it runs,
	// as for single writes. An empty batch is a no-op.
	Apply(ops []Op) error
	// Close releases the engine; every later call, of the engine or of a
	// collection it opened, returns ErrClosed (closing again returns nil).
	Close() error
}

// HealthChecker is implemented by engines that can lose the ability to
// write while open (a durable engine whose disk failed or filled up). The
// server answers GET / with 503 while Health returns an error.
type HealthChecker interface {
	Health() error
}

// Deferred is implemented by durable engines whose writes become durable
// some time after they are applied (the durable engine's group commit).
// The server applies a write under its table's lock with ApplyDeferred and
// waits for durability only after releasing the lock, so the next writer's
// record joins the same fsync; it answers nobody, writer or reader of the
// write, before WaitDurable returns.
type Deferred interface {
	// ApplyDeferred is Apply, returning once the batch is applied in
	// memory and ordered in the log, with its Ticket, without waiting for
	// it to be durable. A batch that writes nothing has the zero Ticket.
	ApplyDeferred(ops []Op) (Ticket, error)
	// WaitDurable returns once the batch of t and every batch applied
	// before it are durable (per the engine's sync mode), or the error
	// that broke the engine. The zero Ticket is durable.
	WaitDurable(t Ticket) error
}

// Ticket is a batch's place in a Deferred engine's log: a later batch
// has a greater Ticket, and a durable Ticket means every smaller one is.
type Ticket uint64

// Op is one write of a batch (Engine.Apply): store Value under Key in Coll,
// or delete Key if Value is zero (deleting an absent key is not an error).
type Op struct {
	Coll  Collection // a collection opened from the engine applying the batch
	Key   []byte
	Value Value // zero deletes
	// At is where a Find of Key in Coll found it, if the writer looked
	// (see Finder.PutAt): a store then replaces the value there.
	At Slot
}

// Put is the Op storing v under key in c.
func Put(c Collection, key []byte, v Value) Op { return Op{Coll: c, Key: key, Value: v} }

// PutAt is Put of the key a Find of c found at at.
func PutAt(c Collection, key []byte, v Value, at Slot) Op {
	return Op{Coll: c, Key: key, Value: v, At: at}
}

// Delete is the Op deleting key from c.
func Delete(c Collection, key []byte) Op { return Op{Coll: c, Key: key} }

// Collection is an ordered map from encoded keys (see AppendKey and
// AppendKeyPart) to items, held as Values. Keys compare bytewise. Values
// are immutable: a write replaces the whole item, and a Value read stays
// valid after the item is replaced or deleted.
type Collection interface {
	Get(key []byte) (Value, bool, error)
	// Put stores a copy of key and v (not zero) and returns the Value it
	// replaced, if any.
	Put(key []byte, v Value) (old Value, replaced bool, err error)
	// Delete removes key and returns the Value it held, if any.
	Delete(key []byte) (old Value, deleted bool, err error)
	// Ascend calls fn for each key in [start, end) in ascending order until fn
	// returns false; a nil start or end is unbounded. The key passed to fn is
	// only valid during the call.
	Ascend(start, end []byte, fn func(key []byte, v Value) bool) error
	// Descend is Ascend in descending order, over the same [start, end) range.
	Descend(start, end []byte, fn func(key []byte, v Value) bool) error
	// Len is the number of items.
	Len() int
	// Size is the sum of the items' sizes (Value.Size), kept as they are
	// written: a table's or an index's size without reading its items.
	Size() int64
}

// Finder is implemented by collections that can say where a lookup found
// its key (the memory engine's and the durable engine's), so that a write
// of the item just read, the usual read-modify-write, replaces its value
// there rather than searching the collection a second time.
type Finder interface {
	// Find is Get, also returning where the key is (the zero Slot if it
	// is absent). A Value is never zero when present.
	Find(key []byte) (Value, Slot, error)
	// PutAt is Put of key, which a Find returned at for. If the
	// collection has not been written since, the value is replaced there;
	// otherwise at is stale and PutAt is simply Put. The zero Slot too.
	PutAt(at Slot, key []byte, v Value) (old Value, replaced bool, err error)
}

// Slot is where a collection held a key (Finder.Find); the zero Slot
// is none. Every write to the collection makes the slots before it stale,
// so that a slot can never point into a tree that has moved its entries.
type Slot struct {
	t   *btree
	n   *node
	i   int
	gen uint64
}

// SharedPutter is implemented by the memory engine's collections. A
// durable engine restoring items at Open keeps them in the buffers it read
// its files into rather than copying each into its own allocation.
type SharedPutter interface {
	// PutShared is Put of the key kv[:keyLen] and v, whose encoding is
	// kv[keyLen:] in memory: the collection keeps both where they are
	// instead of copying them, and the caller must never modify kv again.
	// The buffer stays allocated while any item in it is stored, or any
	// Value read from it is held. If v's encoding is elsewhere (one
	// rewritten when it was read), key and v are copied, as by Put.
	PutShared(kv []byte, keyLen int, v Value) (old Value, replaced bool, err error)
}

// ColdPutter is implemented by the memory engine's collections and by the
// Loaders of their LoadSorted. A durable engine restoring items from a file
// it maps reads each record into a buffer of its own to verify it, and
// stores the item where it lies in the mapping without reading it there, so
// that the mapping's pages are first touched when the item is first used.
type ColdPutter interface {
	// PutCold is PutShared of kv[:len(key)] and v, without the old item,
	// where key holds the same bytes as kv[:len(key)]: the collection reads
	// key (during the call only) and never kv or v's encoding, unless a
	// write must compare the key with stored ones. A collection whose every
	// put so far was PutCold keeps a copy of its greatest key, and a PutCold
	// of a key after it appends without comparing. If v's encoding is not
	// kv[len(key):], key and v are copied, as by Put.
	PutCold(kv, key []byte, v Value) error
}

// SortedLoader is implemented by the memory engine's collections. A
// durable engine restoring a snapshot, which holds each collection's items
// in key order, builds the collection from them in one pass rather than
// inserting them one at a time.
type SortedLoader interface {
	// LoadSorted starts loading items into the collection, which must be
	// empty and must not be used until the Loader's Finish.
	LoadSorted() (Loader, error)
}

// A Loader stores items into the collection it was started on. Items in
// ascending key order are built into the collection at Finish; an item out
// of order (not expected of a snapshot) builds what came before and is put
// as by PutShared, as are the items after it.
type Loader interface {
	// PutShared is SharedPutter.PutShared, with the same checks, without
	// the old item.
	PutShared(kv []byte, keyLen int, v Value) error
	// Finish stores the items put; the collection can then be used.
	Finish()
}

// NewMemory returns an in-memory engine: one B-tree per collection.
func NewMemory() Engine {
	return &memEngine{colls: map[string]*memColl{}, meta: map[string][]byte{}}
}

type memEngine struct {
	mu     sync.Mutex
	closed atomic.Bool // set under mu; collections read it without
	colls  map[string]*memColl
	meta   map[string][]byte
}

func (e *memEngine) Collection(name string) (Collection, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed.Load() {
		return nil, ErrClosed
	}
	c, ok := e.colls[name]
	if !ok {
		c = &memColl{engine: e}
		e.colls[name] = c
	}
	return c, nil
}

func (e *memEngine) Drop(name string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed.Load() {
		return ErrClosed
	}
	if c, ok := e.colls[name]; ok {
		c.dropped = true
		delete(e.colls, name)
	}
	return nil
}

func (e *memEngine) PutMeta(key string, value []byte) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed.Load() {
		return ErrClosed
	}
	if value == nil {
		delete(e.meta, key)
	} else {
		e.meta[key] = append([]byte(nil), value...)
	}
	return nil
}

func (e *memEngine) Meta() (map[string][]byte, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed.Load() {
		return nil, ErrClosed
	}
	out := make(map[string][]byte, len(e.meta))
	keys := make([]string, 0, len(e.meta))
	for k := range e.meta {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out[k] = append([]byte(nil), e.meta[k]...)
	}
	return out, nil
}

// Apply checks every op's collection, then applies the ops under the
// engine's lock; nothing in between can fail.
func (e *memEngine) Apply(ops []Op) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed.Load() {
		return ErrClosed
	}
	for i, op := range ops {
		c, ok := op.Coll.(*memColl)
		if !ok || c.engine != e {
			return fmt.Errorf("storage: batch op %d: the collection is not one of this engine's", i)
		}
		if c.dropped {
			return fmt.Errorf("storage: batch op %d: %w", i, errDropped)
		}
	}
	for _, op := range ops {
		c := op.Coll.(*memColl)
		if op.Value.IsZero() {
			c.delete(op.Key)
		} else {
			c.putAt(op.At, op.Key, op.Value)
		}
	}
	return nil
}

func (e *memEngine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.closed.Store(true)
	e.colls = map[string]*memColl{}
	return nil
}

// memColl reads the engine's closed flag without the engine lock: closing is
// rare, and a racing reader sees either the items or ErrClosed.
type memColl struct {
	engine  *memEngine
	dropped bool
	tree    btree
	gen     uint64 // counts the writes, which make earlier Slots stale
	// hi is a copy of the greatest key stored (hiAny: there is one) while
	// every put was a PutCold (hiStale: not so), so that a restart's
	// replay appends keys after it without reading a stored key. A delete
	// leaves it an upper bound.
	hi      []byte
	hiAny   bool
	hiStale bool
}

var (
	_ Finder     = (*memColl)(nil)
	_ ColdPutter = (*memColl)(nil)
	_ ColdPutter = (*memLoader)(nil)
)

var errDropped = errors.New("storage: collection dropped")

func (c *memColl) check() error {
	if c.engine.closed.Load() {
		return ErrClosed
	}
	if c.dropped {
		return errDropped
	}
	return nil
}

func (c *memColl) Get(key []byte) (Value, bool, error) {
	if err := c.check(); err != nil {
		return Value{}, false, err
	}
	v, ok := c.tree.get(unsafeString(key))
	return v, ok, nil
}

func (c *memColl) Put(key []byte, v Value) (Value, bool, error) {
	return c.PutAt(Slot{}, key, v)
}

// Find implements Finder.
func (c *memColl) Find(key []byte) (Value, Slot, error) {
	if err := c.check(); err != nil {
		return Value{}, Slot{}, err
	}
	n, i := c.tree.lookup(unsafeString(key))
	if n == nil {
		return Value{}, Slot{}, nil
	}
	return n.items[i].value(), Slot{t: &c.tree, n: n, i: i, gen: c.gen}, nil
}

// PutAt implements Finder.
func (c *memColl) PutAt(at Slot, key []byte, v Value) (Value, bool, error) {
	if err := c.check(); err != nil {
		return Value{}, false, err
	}
	if v.IsZero() {
		return Value{}, false, errZeroValue
	}
	old, ok := c.putAt(at, key, v)
	return old, ok, nil
}

// putAt stores key and v where at says key is, if at is not stale, or
// where a search finds its place.
func (c *memColl) putAt(at Slot, key []byte, v Value) (Value, bool) {
	c.stale()
	k := unsafeString(key)
	if at.t == &c.tree && at.gen == c.gen && at.n.items[at.i].key() == k {
		c.gen++
		return c.tree.replaceAt(at.n, at.i, k, v), true
	}
	c.gen++
	return c.tree.put(k, v)
}

func (c *memColl) delete(key []byte) (Value, bool) {
	c.gen++
	return c.tree.delete(unsafeString(key))
}

// PutShared implements SharedPutter.
func (c *memColl) PutShared(kv []byte, keyLen int, v Value) (Value, bool, error) {
	e, err := c.sharedEntry(kv, keyLen, v)
	if err != nil {
		return Value{}, false, err
	}
	c.stale()
	c.gen++
	old, replaced := c.tree.putEntry(e, e.key())
	return old, replaced, nil
}

// stale drops hi before a put that is not a PutCold.
func (c *memColl) stale() {
	if !c.hiStale {
		c.hiStale, c.hi = true, nil
	}
}

// PutCold implements ColdPutter.
func (c *memColl) PutCold(kv, key []byte, v Value) error {
	e, err := c.coldEntry(kv, key, v)
	if err != nil {
		return err
	}
	c.putCold(e, key)
	return nil
}

func (c *memColl) putCold(e entry, key []byte) {
	c.gen++
	if !c.hiStale && (!c.hiAny || string(key) > string(c.hi)) {
		c.tree.appendEntry(e)
		c.hi, c.hiAny = append(c.hi[:0], key...), true
		return
	}
	c.tree.putEntry(e, unsafeString(key))
}

// coldEntry checks a PutCold and returns the entry it stores.
func (c *memColl) coldEntry(kv, key []byte, v Value) (entry, error) {
	if err := c.check(); err != nil {
		return entry{}, err
	}
	if v.IsZero() {
		return entry{}, errZeroValue
	}
	if len(key) > len(kv) {
		return entry{}, fmt.Errorf("storage: key of %d bytes in a buffer of %d", len(key), len(kv))
	}
	return coldEntry(kv, key, v), nil
}

// sharedEntry checks a PutShared and returns the entry it stores.
func (c *memColl) sharedEntry(kv []byte, keyLen int, v Value) (entry, error) {
	if err := c.check(); err != nil {
		return entry{}, err
	}
	if v.IsZero() {
		return entry{}, errZeroValue
	}
	if keyLen < 0 || keyLen > len(kv) {
		return entry{}, fmt.Errorf("storage: key of %d bytes in a buffer of %d", keyLen, len(kv))
	}
	e, ok := sharedEntry(kv, keyLen, v)
	if !ok {
		e = newEntry(unsafeString(kv[:keyLen]), v)
	}
	return e, nil
}

// LoadSorted implements SortedLoader.
func (c *memColl) LoadSorted() (Loader, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	if c.tree.length > 0 {
		return nil, errors.New("storage: sorted load into a collection that is not empty")
	}
	return &memLoader{c: c}, nil
}

// memLoader builds its collection's tree bottom-up (see builder) while keys
// come in order, which it checks against hi, a copy of the last key, rather
// than the stored keys; once one does not, it puts into the tree.
type memLoader struct {
	c       *memColl
	b       builder
	hi      []byte
	unorder bool
}

func (l *memLoader) PutShared(kv []byte, keyLen int, v Value) error {
	if keyLen < 0 || keyLen > len(kv) {
		return fmt.Errorf("storage: key of %d bytes in a buffer of %d", keyLen, len(kv))
	}
	return l.PutCold(kv, kv[:keyLen], v)
}

// PutCold implements ColdPutter.
func (l *memLoader) PutCold(kv, key []byte, v Value) error {
	e, err := l.c.coldEntry(kv, key, v)
	if err != nil {
		return err
	}
	if l.unorder {
		l.c.putCold(e, key)
		return nil
	}
	l.c.gen++
	if l.b.length == 0 || string(key) > string(l.hi) {
		l.b.add(e)
		l.hi = append(l.hi[:0], key...)
		return nil
	}
	l.finish()
	l.unorder = true
	l.c.putCold(e, key)
	return nil
}

func (l *memLoader) Finish() {
	if !l.unorder {
		l.finish()
	}
}

// finish builds the tree and hands the collection its greatest key.
func (l *memLoader) finish() {
	stored := l.b.length > 0
	l.b.finish(&l.c.tree)
	l.c.hi, l.c.hiAny, l.c.hiStale = l.hi, stored, false
	l.hi = nil
}

// errZeroValue refuses to store no item: Delete removes one.
var errZeroValue = errors.New("storage: put of the zero Value")

func (c *memColl) Delete(key []byte) (Value, bool, error) {
	if err := c.check(); err != nil {
		return Value{}, false, err
	}
	old, ok := c.delete(key)
	return old, ok, nil
}

func (c *memColl) Ascend(start, end []byte, fn func([]byte, Value) bool) error {
	if err := c.check(); err != nil {
		return err
	}
	if c.tree.root == nil {
		return nil
	}
	c.tree.root.ascend(unsafeString(start), unsafeString(end), start != nil, end != nil, func(k string, v Value) bool {
		return fn(unsafeBytes(k), v)
	})
	return nil
}

func (c *memColl) Descend(start, end []byte, fn func([]byte, Value) bool) error {
	if err := c.check(); err != nil {
		return err
	}
	if c.tree.root == nil {
		return nil
	}
	c.tree.root.descend(unsafeString(start), unsafeString(end), start != nil, end != nil, func(k string, v Value) bool {
		return fn(unsafeBytes(k), v)
	})
	return nil
}

func (c *memColl) Len() int { return c.tree.length }

func (c *memColl) Size() int64 { return c.tree.size }
