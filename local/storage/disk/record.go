package disk

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

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
	opPut        = 1 // collection, key, item
	opDelete     = 2 // collection, key
	opDrop       = 3 // collection
	opPutMeta    = 4 // key, value
	opDeleteMeta = 5 // key
	opEnd        = 6 // snapshot trailer: uvarint count of records before it, uvarint log generation covered
	opBatch      = 7 // uvarint count, then count ops: opPut and its fields, or opDelete and its fields
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
	crc := crc32.Update(0, castagnoli, dst[start:start+4])
	crc = crc32.Update(crc, castagnoli, dst[start+frameHeader:])
	binary.LittleEndian.PutUint32(dst[start+4:], crc)
	return dst
}

func appendPut(dst []byte, coll string, key []byte, v storage.Value) ([]byte, error) {
	dst, start := beginRecord(dst, opPut)
	dst = appendString(dst, coll)
	dst = appendBytes(dst, key)
	dst = append(dst, v.Encoded()...)
	if len(dst)-start-frameHeader > maxPayload {
		return dst[:start], fmt.Errorf("record of %d bytes is over the %d limit", len(dst)-start-frameHeader, maxPayload)
	}
	return finishRecord(dst, start), nil
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
		dst = appendBytes(appendString(dst, names[i]), op.Key)
		dst = append(dst, op.Value.Encoded()...)
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

// record is a decoded record; key and item alias the read buffer.
type record struct {
	op    byte
	coll  string
	key   []byte
	item  storage.Value
	value []byte
	count uint64
	gen   uint64
	ops   []batchOp // opBatch
}

// batchOp is one op of a decoded batch; key and item alias the read buffer.
type batchOp struct {
	coll string
	key  []byte
	item storage.Value // zero deletes
}

// decodeRecord decodes one record's payload (see decoder for what aliases it).
func decodeRecord(payload []byte) (record, error) {
	if len(payload) == 0 {
		return record{}, errors.New("empty record")
	}
	r := record{op: payload[0]}
	d := &decoder{b: payload, off: 1}
	var err error
	switch r.op {
	case opPut:
		if r.coll, err = d.string(); err != nil {
			break
		}
		if r.key, err = d.bytes(); err != nil {
			break
		}
		r.item, err = d.value()
	case opDelete:
		if r.coll, err = d.string(); err != nil {
			break
		}
		r.key, err = d.bytes()
	case opDrop:
		r.coll, err = d.string()
	case opPutMeta:
		if r.coll, err = d.string(); err != nil {
			break
		}
		r.value, err = d.bytes()
		r.value = append([]byte{}, r.value...)
	case opDeleteMeta:
		r.coll, err = d.string()
	case opBatch:
		r.ops, err = d.batch()
	case opEnd:
		if r.count, err = d.uvarint(); err != nil {
			break
		}
		r.gen, err = d.uvarint()
	default:
		return record{}, fmt.Errorf("unknown record op %d", r.op)
	}
	if err == nil && d.off != len(payload) {
		err = fmt.Errorf("%d stray bytes after the record", len(payload)-d.off)
	}
	return r, err
}

// batch decodes the ops of a batch record.
func (d *decoder) batch() ([]batchOp, error) {
	n, err := d.count()
	if err != nil {
		return nil, err
	}
	ops := make([]batchOp, n)
	for i := range ops {
		if d.off >= len(d.b) {
			return nil, errShort
		}
		op := d.b[d.off]
		d.off++
		if op != opPut && op != opDelete {
			return nil, fmt.Errorf("batch op %d: op %d is not a put or delete", i, op)
		}
		if ops[i].coll, err = d.string(); err != nil {
			return nil, err
		}
		if ops[i].key, err = d.bytes(); err != nil {
			return nil, err
		}
		if op == opPut {
			if ops[i].item, err = d.value(); err != nil {
				return nil, err
			}
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

// readRecords reads framed records from r, which holds size bytes starting at
// offset base, and calls fn for each. It returns the offset just past the
// last good record, and a *frameError if it stopped before size.
func readRecords(r io.Reader, base, size int64, fn func(record) error) (int64, error) {
	var hdr [frameHeader]byte
	var buf []byte
	off := base
	for off < size {
		fail := func(torn bool, err error) (int64, error) {
			return off, &frameError{offset: off, torn: torn, err: err}
		}
		if size-off < frameHeader {
			return fail(true, fmt.Errorf("%d bytes left, less than a record header", size-off))
		}
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			return fail(true, err)
		}
		n := int64(binary.LittleEndian.Uint32(hdr[:4]))
		if n > maxPayload {
			return fail(false, fmt.Errorf("length %d is over the %d limit", n, maxPayload))
		}
		if off+frameHeader+n > size {
			return fail(true, fmt.Errorf("record of %d bytes but only %d left", n, size-off-frameHeader))
		}
		if int64(cap(buf)) < n {
			buf = make([]byte, n)
		}
		buf = buf[:n]
		if _, err := io.ReadFull(r, buf); err != nil {
			return fail(true, err)
		}
		crc := crc32.Update(0, castagnoli, hdr[:4])
		crc = crc32.Update(crc, castagnoli, buf)
		if crc != binary.LittleEndian.Uint32(hdr[4:]) {
			return fail(false, errors.New("checksum mismatch"))
		}
		rec, err := decodeRecord(buf)
		if err != nil {
			return fail(false, err)
		}
		if err := fn(rec); err != nil {
			return fail(false, err)
		}
		off += frameHeader + n
	}
	return off, nil
}
