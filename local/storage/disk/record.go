package disk

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"slices"

	"github.com/dynamogo/dynamo/local/storage"
)

// A record is one change, framed for the log and the snapshot:
//
//	length   uint32 LE, bytes of payload
//	checksum uint32 LE, CRC-32C (Castagnoli) of the length field and payload
//	payload  op byte, then the op's fields
//
// The checksum covers the length too, so a damaged length is detected as
// such rather than read as a different record boundary.
const frameHeader = 8

// maxPayload bounds one record. The largest real record is a batch: a 4 MB
// transaction whose items are each projected into up to 25 indexes, about
// 105 MB; anything far beyond is a damaged length field. (A length past the
// end of the file reads as a torn record before anything is allocated.)
const maxPayload = 256 << 20

// Record ops.
const (
	opPut        = 1 // collection, item size, item length, key, item (format1: collection, key, item)
	opDelete     = 2 // collection, key
	opDrop       = 3 // collection
	opPutMeta    = 4 // key, value
	opDeleteMeta = 5 // key
	opEnd        = 6 // snapshot trailer: uvarint count of records before it, uvarint log generation covered
	opBatch      = 7 // uvarint count, then count ops: opPut and its fields, or opDelete and its fields
)

// format is a file's record format, named by the version in its magic
// string. Open reads both; the engine writes format2.
type format int

const (
	// format1 puts carry the collection, the key and the item's encoding,
	// which a restart walks to check it and find its size.
	format1 format = 1
	// format2 puts carry the collection, the item's size and encoded
	// length, the key and the encoding: a restart takes the item as it is.
	// A record's checksum covers its bytes, which were a checked Value when
	// written; an encoding of another version comes in a file with another
	// magic, which Open refuses.
	format2 format = 2
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// beginRecord starts a record at the end of dst; finishRecord frames it.
func beginRecord(dst []byte, op byte) ([]byte, int) {
	start := len(dst)
	dst = append(dst, make([]byte, frameHeader)...)
	return append(dst, op), start
}

func finishRecord(dst []byte, start int) []byte {
	n := len(dst) - start - frameHeader
	binary.LittleEndian.PutUint32(dst[start:], uint32(n))
	binary.LittleEndian.PutUint32(dst[start+4:], frameSum(dst[start:start+4], dst[start+frameHeader:]))
	return dst
}

// frameSum is a frame's checksum: CRC-32C of its length field, then of
// its payload.
func frameSum(length, payload []byte) uint32 {
	return crc32.Update(crc32.Update(0, castagnoli, length), castagnoli, payload)
}

func appendPut(dst []byte, coll string, key []byte, v storage.Value) ([]byte, error) {
	dst, start := beginRecord(dst, opPut)
	dst = appendPutFields(dst, coll, key, v)
	if len(dst)-start-frameHeader > maxPayload {
		return dst[:start], fmt.Errorf("record of %d bytes is over the %d limit", len(dst)-start-frameHeader, maxPayload)
	}
	return finishRecord(dst, start), nil
}

// appendPutFields writes a put's fields: the collection, the item's size
// and encoded length, the key, and the item's encoding right after the key,
// so that a restart keeps key and item where it read them (see
// decoder.put).
func appendPutFields(dst []byte, coll string, key []byte, v storage.Value) []byte {
	dst = appendString(dst, coll)
	dst = binary.AppendUvarint(dst, uint64(v.Size()))
	dst = binary.AppendUvarint(dst, uint64(len(v.Encoded())))
	dst = appendBytes(dst, key)
	return append(dst, v.Encoded()...)
}

// appendBatch frames a whole batch as one record: one checksum covers every
// op, so replay applies all of them or, if the record is torn or damaged,
// none. names[i] is the collection of ops[i].
func appendBatch(dst []byte, names []string, ops []storage.Op) ([]byte, error) {
	dst, start := beginRecord(dst, opBatch)
	dst = binary.AppendUvarint(dst, uint64(len(ops)))
	for i, op := range ops {
		if op.Value.IsZero() {
			dst = append(dst, opDelete)
			dst = appendBytes(appendString(dst, names[i]), op.Key)
			continue
		}
		dst = append(dst, opPut)
		dst = appendPutFields(dst, names[i], op.Key, op.Value)
	}
	if len(dst)-start-frameHeader > maxPayload {
		return dst[:start], fmt.Errorf("batch record of %d bytes is over the %d limit", len(dst)-start-frameHeader, maxPayload)
	}
	return finishRecord(dst, start), nil
}

func appendDelete(dst []byte, coll string, key []byte) []byte {
	dst, start := beginRecord(dst, opDelete)
	dst = appendString(dst, coll)
	return finishRecord(appendBytes(dst, key), start)
}

func appendDrop(dst []byte, coll string) []byte {
	dst, start := beginRecord(dst, opDrop)
	return finishRecord(appendString(dst, coll), start)
}

func appendMeta(dst []byte, key string, value []byte) []byte {
	if value == nil {
		dst, start := beginRecord(dst, opDeleteMeta)
		return finishRecord(appendString(dst, key), start)
	}
	dst, start := beginRecord(dst, opPutMeta)
	dst = appendString(dst, key)
	return finishRecord(appendBytes(dst, value), start)
}

func appendEnd(dst []byte, count, gen uint64) []byte {
	dst, start := beginRecord(dst, opEnd)
	dst = binary.AppendUvarint(dst, count)
	return finishRecord(binary.AppendUvarint(dst, gen), start)
}

// record is a decoded record: key aliases the bytes decoded, kv and item
// the bytes kept (see decodeKept).
type record struct {
	op    byte
	coll  string
	key   []byte
	kv    []byte // opPut: see putFields
	item  storage.Value
	value []byte
	count uint64
	gen   uint64
	ops   []batchOp // opBatch
}

// batchOp is one op of a decoded batch, aliasing as record does.
type batchOp struct {
	coll string
	key  []byte
	kv   []byte        // a put's: see putFields
	item storage.Value // zero deletes
}

// decodeRecord decodes one record's payload in the given file format (see
// decoder for what aliases it).
func decodeRecord(payload []byte, f format, names *interner) (record, error) {
	var r record
	err := decodeKept(&r, payload, payload, f, names)
	return r, err
}

// decodeKept decodes payload into r, whose bytes kept holds too: keys
// alias payload, and the puts' kv and items alias kept, which is read only
// to check a format1 item.
func decodeKept(r *record, payload, kept []byte, f format, names *interner) error {
	*r = record{ops: r.ops[:0]} // for the next batch (see decoder.batch)
	if len(payload) == 0 {
		return errors.New("empty record")
	}
	if len(kept) != len(payload) {
		return fmt.Errorf("record of %d bytes kept as %d", len(payload), len(kept))
	}
	r.op = payload[0]
	d := &decoder{b: payload, k: kept, off: 1, format: f, names: names}
	var err error
	switch r.op {
	case opPut:
		var p putFields
		p, err = d.put()
		r.coll, r.key, r.kv, r.item = p.coll, p.key, p.kv, p.item
	case opDelete:
		if r.coll, err = d.name(); err != nil {
			break
		}
		r.key, err = d.bytes()
	case opDrop:
		r.coll, err = d.name()
	case opPutMeta:
		if r.coll, err = d.string(); err != nil {
			break
		}
		r.value, err = d.bytes()
		r.value = append([]byte{}, r.value...)
	case opDeleteMeta:
		r.coll, err = d.string()
	case opBatch:
		r.ops, err = d.batch(r.ops[:0])
	case opEnd:
		if r.count, err = d.uvarint(); err != nil {
			break
		}
		r.gen, err = d.uvarint()
	default:
		return fmt.Errorf("unknown record op %d", r.op)
	}
	if err == nil && d.off != len(payload) {
		err = fmt.Errorf("%d stray bytes after the record", len(payload)-d.off)
	}
	return err
}

// batch decodes the ops of a batch record into ops, whose memory it
// reuses: a restart reads one batch after another, and what it keeps of
// them it copies.
func (d *decoder) batch(ops []batchOp) ([]batchOp, error) {
	n, err := d.count()
	if err != nil {
		return nil, err
	}
	ops = slices.Grow(ops, n)[:n]
	clear(ops)
	for i := range ops {
		if d.off >= len(d.b) {
			return nil, errShort
		}
		op := d.b[d.off]
		d.off++
		switch op {
		case opPut:
			var p putFields
			p, err = d.put()
			ops[i] = batchOp{coll: p.coll, key: p.key, kv: p.kv, item: p.item}
		case opDelete:
			if ops[i].coll, err = d.name(); err == nil {
				ops[i].key, err = d.bytes()
			}
		default:
			return nil, fmt.Errorf("batch op %d: op %d is not a put or delete", i, op)
		}
		if err != nil {
			return nil, err
		}
	}
	return ops, nil
}

// frameError says where and why reading records stopped. torn means the file
// ended inside a record (a write cut short by a crash); otherwise a complete
// record failed its checksum or did not decode.
type frameError struct {
	offset int64
	torn   bool
	err    error
}

func (e *frameError) Error() string {
	return fmt.Sprintf("record at offset %d: %v", e.offset, e.err)
}

// readRecords reads framed records of format f from src, which holds size
// bytes starting at offset base, and calls fn for each. It returns the
// offset just past the last good record, and a *frameError if it stopped
// before size. Each record is checked and decoded where src read it; its
// keys and items alias where src keeps the same bytes (see source), and
// its key fields, as decoded, are valid only during fn.
func readRecords(src source, base, size int64, f format, fn func(*record) error) (int64, error) {
	var names interner
	var rec record
	off := base
	for off < size {
		fail := func(torn bool, err error) (int64, error) {
			return off, &frameError{offset: off, torn: torn, err: err}
		}
		if size-off < frameHeader {
			return fail(true, fmt.Errorf("%d bytes left, less than a record header", size-off))
		}
		hdr, _, err := src.next(frameHeader)
		if err != nil {
			return fail(true, err)
		}
		n := int64(binary.LittleEndian.Uint32(hdr[:4]))
		want := binary.LittleEndian.Uint32(hdr[4:])
		if n > maxPayload {
			return fail(false, fmt.Errorf("length %d is over the %d limit", n, maxPayload))
		}
		if off+frameHeader+n > size {
			return fail(true, fmt.Errorf("record of %d bytes but only %d left", n, size-off-frameHeader))
		}
		crc := crc32.Update(0, castagnoli, hdr[:4]) // frameSum in two steps: next reuses hdr
		payload, kept, err := src.next(int(n))
		if err != nil {
			return fail(true, err)
		}
		if crc32.Update(crc, castagnoli, payload) != want {
			return fail(false, errors.New("checksum mismatch"))
		}
		if f != format2 || !decodePut(&rec, payload, kept, &names) {
			if err := decodeKept(&rec, payload, kept, f, &names); err != nil {
				return fail(false, err)
			}
		}
		if err := fn(&rec); err != nil {
			return fail(false, err)
		}
		off += frameHeader + n
	}
	return off, nil
}

// A source hands out a file's bytes in order: next returns the next n
// bytes as read, to check and decode, and kept, the same bytes where they
// stay for as long as the process runs, which items alias. read is valid
// until the next call.
type source interface {
	next(n int) (read, kept []byte, err error)
}

// readBufSize is the size of the buffer a mapped file is read through.
const readBufSize = 512 << 10

// blockSize is the size of the buffers files are read into at Open where
// they cannot be mapped. Items stay where they were read
// (storage.ColdPutter), ~1,300 records of ~200 bytes to a block, rather
// than each being copied into an allocation of its own: a block is freed
// once none of its items is stored any more, so the memory a restart's
// items hold is at most the size of the files it read, and shrinks to the
// live items' own as they are replaced or deleted. Smaller blocks free
// memory sooner but read slower (64 KB blocks took twice the CPU of
// reading the file whole; 256 KB as little).
const blockSize = 256 << 10

// readFile is the source of the records in f's bytes [base, size): where
// the system allows (and mapping is set), the file is read through buf and
// kept in a read-only mapping that Open never touches; else it is read in
// blocks that items keep.
//
// A restart's items alias the mapping. Reading through one small buffer
// costs the copy out of the page cache and no more (the buffer's pages are
// faulted in once); items read from the mapping fault its pages in when
// they are first used, from the page cache: fresh heap for the whole file
// costs a page fault per 4 KB on new memory, which on a virtual machine
// took ten times as long (145 MB: 0.55–0.77 s of CPU against 0.05–0.07 s
// mapped and touched once). A mapping's pages are the kernel's page cache:
// clean, shared and evictable. The mapping lasts as long as the process,
// since a stored item or a Value read from one may be held anywhere; a
// file replaced or deleted meanwhile (a compaction) keeps its disk space
// until then. The engine writes its files only past what items alias: logs
// are appended to, cut only past their last good record, and snapshots are
// written anew and renamed.
func readFile(f file, base, size int64, mapping bool, buf *[]byte) source {
	if mapping {
		if m := mapFile(f, size); m != nil {
			if len(*buf) == 0 {
				*buf = make([]byte, readBufSize)
			}
			return &mapped{r: f, m: m, buf: *buf, pos: base, size: size}
		}
	}
	return &blocks{r: io.NewSectionReader(f, base, size-base)}
}

// mapped reads a mapped file through buf: buf[lo:hi] holds the file's bytes
// from pos on.
type mapped struct {
	r      io.ReaderAt
	m      []byte // the file's mapping, from offset 0
	buf    []byte
	lo, hi int
	pos    int64 // file offset of buf[lo]
	size   int64
}

func (s *mapped) next(n int) ([]byte, []byte, error) {
	if s.hi-s.lo < n {
		// Carry the bytes not handed out yet to the front, then fill.
		if n > len(s.buf) {
			s.buf = append(make([]byte, 0, n), s.buf[s.lo:s.hi]...)[:n]
		} else {
			copy(s.buf, s.buf[s.lo:s.hi])
		}
		s.hi -= s.lo
		s.lo = 0
		end := int(min(int64(len(s.buf)), s.size-s.pos))
		if end < n {
			return nil, nil, io.ErrUnexpectedEOF
		}
		k, err := s.r.ReadAt(s.buf[s.hi:end], s.pos+int64(s.hi))
		s.hi += k
		if s.hi < n {
			if err == nil || err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, nil, err
		}
	}
	read := s.buf[s.lo : s.lo+n : s.lo+n]
	kept := s.m[s.pos : s.pos+int64(n) : s.pos+int64(n)]
	s.lo += n
	s.pos += int64(n)
	return read, kept, nil
}

// blocks hands out a file's bytes read from r in blocks of blockSize, in
// contiguous pieces that are never overwritten: read and kept are the same.
type blocks struct {
	r   io.Reader
	buf []byte // buf[off:] is read and not yet handed out
	off int
}

func (b *blocks) next(n int) ([]byte, []byte, error) {
	if len(b.buf)-b.off < n {
		if cap(b.buf)-b.off < n {
			// A new block, starting with the part of the record already read.
			nb := make([]byte, len(b.buf)-b.off, max(blockSize, n))
			copy(nb, b.buf[b.off:])
			b.buf, b.off = nb, 0
		}
		m, err := io.ReadAtLeast(b.r, b.buf[len(b.buf):cap(b.buf)], n-(len(b.buf)-b.off))
		b.buf = b.buf[:len(b.buf)+m]
		if err != nil {
			return nil, nil, err
		}
	}
	p := b.buf[b.off : b.off+n : b.off+n]
	b.off += n
	return p, p, nil
}
