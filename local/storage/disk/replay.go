package disk

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"unsafe"

	"github.com/dynamogo/dynamo/internal/prefault"
	"github.com/dynamogo/dynamo/local/storage"
)

// replayBuf holds the puts and deletes of the logs Open replays, to apply
// each collection's in key order, the last write of each key only.
//
// A log's writes come in the order they were made, which for a table is
// the order of its keys' hashes: random. Applied one by one to the tree
// built from the snapshot, each put of a key the snapshot holds reads the
// stored key it replaces from the snapshot's mapping, a random page of it
// (a TLB and a cache miss, and often the page's first touch). Open
// instead reads the logs first, whole, and merges their writes into the
// snapshot's items as the snapshot is read, in key order (sortedLoad): a
// stored key is then compared where it lies in the read buffer, and the
// tree is built once, bottom-up, from the merged items. Where the
// snapshot's trailer cannot be read first, the snapshot is loaded first
// and the logs' writes are applied to its trees, in key order too
// (flush).
//
// The keys are copied from the read buffer, so sorting them reads no
// mapping. The writes are grouped by collection, then sorted as integers
// (each key's first 4 bytes and the write's index), and only the runs of
// one prefix with more than one key are sorted by key; then the writes
// and their keys are gathered in that order (unless the logs wrote them
// in order), so that the merge reads them from start to end. The buffers
// are reserved from the logs' sizes and prefaulted in huge pages a window
// at a time as they fill, which reading them out of order needs (one TLB
// entry for 2 MB). While Open runs, the buffer and its sorted copy take
// up to about the logs' size, which compactions keep near the snapshot's.
// Logs larger than that (see Engine.mergeLimit) are applied to the loaded
// snapshot a chunk of writes at a time, in buffers reused from one chunk
// to the next, so that what Open holds is bounded by the chunk, not by
// the logs.
type replayBuf struct {
	ops   []bufferedOp
	keys  []byte        // the ops' keys, one after another
	colls []*collection // the ops' collections, numbered as they came
	num   map[*collection]uint32
	last  uint32 // the last op's collection's number
	// How far ops' and keys' capacity is prefaulted (see faultAhead).
	opsFaulted, keysFaulted int
	// chunk, if set, is how many writes add buffers before it flushes
	// them, and flushes how many times it did.
	chunk, flushes int
	// sort's: the ops' indexes in the order to apply them, the last write
	// of each key only, and each collection's run of them; its scratch
	// space, and the buffers it gathers into, kept from one chunk to the
	// next.
	order     []uint64
	runs      []opRun
	scratch   []uint64
	spareOps  []bufferedOp
	spareKeys []byte
	// The meta writes, in order, to apply after the snapshot's, and the
	// collections the logs drop (their snapshot items are gone).
	meta    []*record
	dropped map[string]bool
}

// bufferedOp is a put or a delete (kv nil) of the key keys[at:at+n] of
// colls[coll]. A put's kv is where the key is kept, followed by the item's
// encoding of vlen bytes, whose size is size (32 bytes an op rather than
// 72 with slices and a Value: a restart's log may hold millions). The
// writes to a collection before a log drops it refer to the one dropped
// (collection.dropped), those after it to a new one.
type bufferedOp struct {
	kv   *byte
	at   int
	n    uint32
	vlen uint32
	size uint32
	coll uint32
}

// put returns the kv and item of op, a put.
func (op *bufferedOp) put() ([]byte, storage.Value) {
	kv := unsafe.Slice(op.kv, int(op.n)+int(op.vlen))
	return kv, storage.TrustedValue(unsafe.String(&kv[op.n], int(op.vlen)), int(op.size))
}

// opRun is a collection's writes: order[lo:hi].
type opRun struct {
	c      *collection
	lo, hi int
}

// replayLogRecord is replay for the records of a log, buffering their puts
// and deletes (see replayBuf).
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
		// e.replay drops the collection the writes before it went to.
		if b.dropped == nil {
			b.dropped = map[string]bool{}
		}
		b.dropped[r.coll] = true
	case opPutMeta, opDeleteMeta:
		b.meta = append(b.meta, &record{op: r.op, coll: r.coll, value: r.value}) // a copy already
		return nil
	}
	return e.replay(r)
}

func (b *replayBuf) add(c *collection, key, kv []byte, item storage.Value) error {
	if len(b.ops) == math.MaxUint32 { // order holds an index in 32 bits
		return errors.New("the logs hold more writes than Open sorts at once (4G)")
	}
	if len(b.colls) == 0 || b.colls[b.last] != c {
		n, ok := b.num[c]
		if !ok {
			if b.num == nil {
				b.num = map[*collection]uint32{}
			}
			n = uint32(len(b.colls))
			b.num[c] = n
			b.colls = append(b.colls, c)
		}
		b.last = n
	}
	op := bufferedOp{at: len(b.keys), n: uint32(len(key)), coll: b.last}
	if enc := item.Encoded(); enc != "" {
		if len(kv) != len(key)+len(enc) || unsafe.StringData(enc) != &kv[len(key)] {
			// The item is not kept right after the key (a format1 item
			// rewritten as it was read): keep a copy of both.
			kv = append(append(make([]byte, 0, len(key)+len(enc)), key...), enc...)
		}
		op.kv, op.vlen, op.size = &kv[0], uint32(len(enc)), uint32(item.Size())
	}
	b.ops = append(b.ops, op)
	b.keys = append(b.keys, key...)
	b.opsFaulted = faultAhead(b.ops, b.opsFaulted)
	b.keysFaulted = faultAhead(b.keys, b.keysFaulted)
	if b.chunk > 0 && len(b.ops) >= b.chunk {
		return b.flush()
	}
	return nil
}

// reserve makes room for the writes of a log of size bytes, about a
// 64th of it (a put of a small item takes about 100 bytes of log) and
// their keys a quarter, so that the buffer is not copied as it grows
// (more writes than that grow it by copying): capacity fresh from the
// system is only address space until add writes it.
func (b *replayBuf) reserve(size int64) {
	ops, keys := len(b.ops)+int(size/64), len(b.keys)+int(size/4)
	if b.chunk > 0 { // a chunk's worth at most: flush empties them
		ops, keys = min(ops, b.chunk), min(keys, 32*b.chunk)
	}
	if ops > cap(b.ops) {
		b.ops = append(make([]bufferedOp, 0, ops), b.ops...)
		b.opsFaulted = 0
	}
	if keys > cap(b.keys) {
		b.keys = append(make([]byte, 0, keys), b.keys...)
		b.keysFaulted = 0
	}
}

// faultWindow is how much of a buffer's spare capacity faultAhead
// prefaults at a time: a huge page or two.
const faultWindow = 4 << 20

// faultAhead prefaults the next faultWindow bytes of s's spare capacity
// once s has grown past done, where the window before ended, and returns
// where the new one ends.
func faultAhead[T any](s []T, done int) int {
	if len(s) < done {
		return done
	}
	var zero T
	end := min(cap(s), len(s)+faultWindow/int(unsafe.Sizeof(zero)))
	prefault.Slice(s[len(s):end])
	return end
}

func (b *replayBuf) key(i uint32) []byte {
	op := &b.ops[i]
	end := op.at + int(op.n)
	return b.keys[op.at:end:end]
}

// sort fills order and runs: the live writes grouped by collection (in
// the order each first came), each group in key order, the last write of
// each key only, and gathers ops and keys in that order. It sorts
// integers, each write's key prefix and index, within a collection; of
// the writes sharing a prefix (the writes of one key, and the rare keys
// that share it) it keeps the last if they are of one key, and otherwise
// orders them by key and index.
func (b *replayBuf) sort() {
	b.runs = b.runs[:0]
	for _, c := range b.colls {
		b.runs = append(b.runs, opRun{c: c})
	}
	for i := range b.ops {
		b.runs[b.ops[i].coll].hi++ // a count, for now
	}
	at := 0
	for k := range b.runs {
		n := b.runs[k].hi
		if b.runs[k].c.dropped {
			n = 0
		}
		b.runs[k].lo, b.runs[k].hi = at, at
		at += n
	}
	if cap(b.order) < at {
		b.order = make([]uint64, 0, at)
		prefault.Slice(b.order)
	}
	b.order = b.order[:at]
	for i := range b.ops {
		if r := &b.runs[b.ops[i].coll]; !r.c.dropped {
			b.order[r.hi] = uint64(prefix(b.key(uint32(i))))<<32 | uint64(i)
			r.hi++
		}
	}
	out := 0 // order is compacted in place: out never passes what is read
	for k := range b.runs {
		r := &b.runs[k]
		run := b.order[r.lo:r.hi]
		b.scratch = sortByPrefix(run, b.scratch)
		lo := out
		for j := 0; j < len(run); {
			h := j + 1
			for h < len(run) && run[h]>>32 == run[j]>>32 {
				h++
			}
			switch {
			case h-j == 1:
				b.order[out] = run[j]
				out++
			case b.sameKeys(run[j:h]): // most: the writes of one key, in order
				b.order[out] = run[h-1]
				out++
			default:
				slices.SortFunc(run[j:h], func(x, y uint64) int {
					if c := bytes.Compare(b.key(uint32(x)), b.key(uint32(y))); c != 0 {
						return c
					}
					return int(uint32(x)) - int(uint32(y))
				})
				for x := j; x < h; x++ {
					if x+1 < h && bytes.Equal(b.key(uint32(run[x+1])), b.key(uint32(run[x]))) {
						continue // a later write of the key replaces it
					}
					b.order[out] = run[x]
					out++
				}
			}
			j = h
		}
		r.lo, r.hi = lo, out
	}
	b.order = b.order[:out]
	if slices.IsSortedFunc(b.order, func(x, y uint64) int { return int(uint32(x)) - int(uint32(y)) }) {
		return // the logs wrote the keys in order
	}
	// Gather the writes and their keys in that order: one pass of reads out
	// of order, which the processor overlaps, rather than several in
	// each comparison that reads them later.
	nops, nkeys := len(b.order), len(b.keys)
	if b.chunk > 0 { // they take the next chunk in turn
		nops, nkeys = cap(b.ops), cap(b.keys)
	}
	ops, keys := b.spareOps[:0], b.spareKeys[:0]
	if cap(ops) < nops {
		ops = make([]bufferedOp, 0, nops)
		prefault.Slice(ops)
	}
	if cap(keys) < nkeys {
		keys = make([]byte, 0, nkeys)
		prefault.Slice(keys)
	}
	ops = ops[:len(b.order)]
	for j, o := range b.order {
		op := b.ops[uint32(o)]
		key := b.keys[op.at : op.at+int(op.n)]
		op.at = len(keys)
		keys = append(keys, key...)
		ops[j] = op
		b.order[j] = o&^(1<<32-1) | uint64(j)
	}
	if b.chunk > 0 { // the next chunk gathers into these
		b.spareOps, b.spareKeys = b.ops[:0], b.keys[:0]
	}
	b.ops, b.keys = ops, keys
}

// sortByPrefix sorts a, whose elements are a key prefix in the high 32
// bits and an index in the low ones, in increasing index order, by
// prefix then index: a stable radix sort of the prefixes, a byte at a
// time, which on a million writes takes a fraction of a comparison
// sort's time. It returns the scratch space it used, for the next call.
func sortByPrefix(a, scratch []uint64) []uint64 {
	if len(a) < 2 {
		return scratch
	}
	if cap(scratch) < len(a) {
		scratch = make([]uint64, len(a))
	}
	src, dst := a, scratch[:len(a)]
	for shift := uint(32); shift < 64; shift += 8 {
		var count [257]int
		for _, x := range src {
			count[int(byte(x>>shift))+1]++
		}
		if count[int(byte(src[0]>>shift))+1] == len(src) {
			continue // one digit throughout: nothing moves
		}
		for d := 1; d < len(count); d++ {
			count[d] += count[d-1]
		}
		for _, x := range src {
			d := byte(x >> shift)
			dst[count[d]] = x
			count[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &a[0] {
		copy(a, src)
	}
	return scratch
}

// sameKeys reports whether the writes of run are all of one key.
func (b *replayBuf) sameKeys(run []uint64) bool {
	first := b.key(uint32(run[0]))
	for _, o := range run[1:] {
		if !bytes.Equal(b.key(uint32(o)), first) {
			return false
		}
	}
	return true
}

// flush applies the writes to their collections' trees, each in key
// order, and empties the buffer.
func (b *replayBuf) flush() error {
	b.flushes++
	b.sort()
	for _, r := range b.runs {
		for _, o := range b.order[r.lo:r.hi] {
			i := uint32(o)
			op := &b.ops[i]
			var err error
			if op.kv == nil {
				_, _, err = r.c.mem.Delete(b.key(i))
			} else {
				kv, item := op.put()
				err = r.c.load(kv, b.key(i), item)
			}
			if err != nil {
				return err
			}
		}
	}
	b.ops, b.keys, b.order = b.ops[:0], b.keys[:0], b.order[:0]
	b.opsFaulted, b.keysFaulted = 0, 0
	return nil
}

// prefix is key's first four bytes, big-endian, padded with zeros: keys
// in the order of their prefixes are in key order but for ties.
func prefix(key []byte) uint32 {
	var p [4]byte
	copy(p[:], key)
	return binary.BigEndian.Uint32(p[:])
}

// snapshotCovers reads the snapshot's trailer (its last record, opEnd)
// and returns the last log generation it covers. It reports false if the
// file does not end in a trailer whose frame checks out: loadSnapshot then
// says what is wrong, if anything.
func (e *Engine) snapshotCovers() (uint64, bool) {
	f, err := e.fs.OpenFile(filepath.Join(e.dir, snapshotName), os.O_RDONLY, 0)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, false
	}
	// The trailer is a frame of opEnd and two uvarints: find the start
	// whose length field reaches the end of the file and whose checksum
	// and payload check out.
	n := min(st.Size()-int64(len(snapshotMagic)), frameHeader+1+2*binary.MaxVarintLen64)
	if n < frameHeader+3 {
		return 0, false
	}
	tail := make([]byte, n)
	if _, err := f.ReadAt(tail, st.Size()-n); err != nil {
		return 0, false
	}
	for s := 0; s+frameHeader < len(tail); s++ {
		payload := tail[s+frameHeader:]
		if binary.LittleEndian.Uint32(tail[s:]) != uint32(len(payload)) || payload[0] != opEnd {
			continue
		}
		if frameSum(tail[s:s+4], payload) != binary.LittleEndian.Uint32(tail[s+4:]) {
			continue
		}
		var names interner
		r, err := decodeRecord(payload, format2, &names)
		if err == nil && r.op == opEnd {
			return r.gen, true
		}
	}
	return 0, false
}
