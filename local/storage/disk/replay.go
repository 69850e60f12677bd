package disk

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"slices"

	"github.com/dynamogo/dynamo/internal/prefault"
	"github.com/dynamogo/dynamo/local/storage"
)

// replayBuf holds the puts and deletes of the logs being replayed and
// applies them to their collections in key order, a chunk at a time.
//
// A log's writes come in the order they were made, which for a table is
// the order of its keys' hashes: random. Applied one by one, each put of
// a key the snapshot holds reads the stored key it replaces from the
// snapshot's mapping, a random page of it (a TLB and a cache miss, and
// often the page's first touch). In key order, the writes of a chunk walk
// the tree and the mapping from start to end. The keys are copied from the
// read buffer, so sorting them reads no mapping; they are sorted as
// integers of their first 4 bytes and their index, the ops themselves
// staying where they are. The buffers are prefaulted in huge pages, which
// the sort's and the application's reads out of order need (one TLB entry
// for 2 MB). A chunk bounds the memory this takes.
type replayBuf struct {
	ops   []bufferedOp
	keys  []byte   // the ops' keys, one after another
	order []uint64 // flush's: each op's key prefix and index
}

// bufferedOp is a put (item not zero) or a delete of c's key
// keys[at:at+n].
type bufferedOp struct {
	c     *collection
	at, n uint32
	kv    []byte
	item  storage.Value
}

// At most replayChunk writes and replayKeyBytes of their keys are sorted
// and applied at once: about 32 MB. (A variable for the tests.)
var replayChunk = 1 << 18

const replayKeyBytes = 16 << 20

// replayLogRecord is replay for the records of a log, buffering their puts
// and deletes (see replayBuf); Open applies what is left once it has read
// the last log.
func (e *Engine) replayLogRecord(r *record) error {
	b := &e.replayed
	switch r.op {
	case opPut:
		return b.add(e.collLocked(r.coll), r.key, r.kv, r.item)
	case opDelete:
		return b.add(e.collLocked(r.coll), r.key, nil, storage.Value{})
	case opBatch:
		for _, op := range r.ops {
			if err := b.add(e.collLocked(op.coll), op.key, op.kv, op.item); err != nil {
				return err
			}
		}
		return nil
	case opDrop:
		// The writes before a drop are applied first, so that the drop
		// removes them and those after it go to the collection it leaves.
		if err := b.flush(); err != nil {
			return err
		}
	}
	return e.replay(r)
}

// reserve makes room for the writes of a log of size bytes, at once
// rather than by doubling: a fresh array is paid for page by page.
func (b *replayBuf) reserve(size int64) {
	n := int(min(size/64, int64(replayChunk)))
	if cap(b.ops)-len(b.ops) < n {
		b.ops = slices.Grow(b.ops, n)
		b.keys = slices.Grow(b.keys, min(n*32, replayKeyBytes))
		b.order = slices.Grow(b.order, n)
		prefault.Slice(b.ops[len(b.ops):cap(b.ops)])
		prefault.Slice(b.keys[len(b.keys):cap(b.keys)])
		prefault.Slice(b.order[len(b.order):cap(b.order)])
	}
}

func (b *replayBuf) add(c *collection, key, kv []byte, item storage.Value) error {
	if len(b.ops) == replayChunk || len(b.keys) >= replayKeyBytes {
		if err := b.flush(); err != nil {
			return err
		}
	}
	b.ops = append(b.ops, bufferedOp{c: c, at: uint32(len(b.keys)), n: uint32(len(key)), kv: kv, item: item})
	b.keys = append(b.keys, key...)
	return nil
}

func (b *replayBuf) key(i uint32) []byte {
	op := &b.ops[i]
	return b.keys[op.at : op.at+op.n : op.at+op.n]
}

// flush applies the buffered writes, the last of each key only, in the
// order of their keys' first four bytes (each collection's in key order).
// It sorts their prefixes and indexes as integers; the few runs of ops
// with one prefix (the writes of one key, and the rare keys that share
// it) are then sorted by collection, key and index.
func (b *replayBuf) flush() error {
	b.order = b.order[:0]
	for i := range b.ops {
		b.order = append(b.order, uint64(prefix(b.key(uint32(i))))<<32|uint64(i))
	}
	slices.Sort(b.order)
	for lo := 0; lo < len(b.order); {
		hi := lo + 1
		for hi < len(b.order) && b.order[hi]>>32 == b.order[lo]>>32 {
			hi++
		}
		if hi-lo > 1 {
			slices.SortFunc(b.order[lo:hi], func(x, y uint64) int {
				ox, oy := &b.ops[uint32(x)], &b.ops[uint32(y)]
				if ox.c != oy.c {
					return cmp.Compare(ox.c.name, oy.c.name)
				}
				if c := bytes.Compare(b.key(uint32(x)), b.key(uint32(y))); c != 0 {
					return c
				}
				return cmp.Compare(uint32(x), uint32(y))
			})
		}
		lo = hi
	}
	for j, o := range b.order {
		i := uint32(o)
		op := &b.ops[i]
		if j+1 < len(b.order) {
			if next := uint32(b.order[j+1]); b.order[j+1]>>32 == o>>32 && b.ops[next].c == op.c && bytes.Equal(b.key(next), b.key(i)) {
				continue // a later write of the key replaces this one
			}
		}
		var err error
		if op.item.IsZero() {
			_, _, err = op.c.mem.Delete(b.key(i))
		} else {
			err = op.c.load(op.kv, b.key(i), op.item)
		}
		if err != nil {
			return err
		}
	}
	clear(b.ops)
	b.ops, b.keys = b.ops[:0], b.keys[:0]
	return nil
}

// prefix is key's first four bytes, big-endian, padded with zeros: keys
// in the order of their prefixes are in key order but for ties.
func prefix(key []byte) uint32 {
	var p [4]byte
	copy(p[:], key)
	return binary.BigEndian.Uint32(p[:])
}
