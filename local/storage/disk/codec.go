package disk

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unsafe"

	"github.com/dynamogo/dynamo/local/storage"
)

// Records carry items in storage.Value's encoding, the form the memory
// engine holds them in, with their size: writing one appends its bytes, and
// a restart keeps them where it read them, without decoding an attribute.

var errShort = errors.New("truncated data")

func appendBytes(dst, b []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(b)))
	return append(dst, b...)
}

func appendString(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// decoder reads the fields of a record payload, b. Collection names and
// meta keys are copied (collection names once per name, through names);
// keys alias b; a put's key and item as stored alias k, the same bytes
// where the caller keeps them and never changes them (the memory engine
// keeps items there, see storage.ColdPutter), which the decoder does not
// read (but for a format1 item).
type decoder struct {
	b      []byte
	k      []byte
	off    int
	format format
	names  *interner
}

// interner hands out one string per collection name, so that reading a
// file does not allocate one per record. A nil interner copies each.
type interner struct {
	last string
	m    map[string]string
}

func (in *interner) intern(b []byte) string {
	if in == nil {
		return string(b)
	}
	if string(b) == in.last {
		return in.last
	}
	s, ok := in.m[string(b)]
	if !ok {
		s = string(b)
		if in.m == nil {
			in.m = map[string]string{}
		}
		in.m[s] = s
	}
	in.last = s
	return s
}

func (d *decoder) uvarint() (uint64, error) {
	v, n := binary.Uvarint(d.b[d.off:])
	if n <= 0 {
		return 0, errShort
	}
	d.off += n
	return v, nil
}

// count reads a length, rejecting one that cannot fit in the remaining
// bytes, so a damaged length cannot make the decoder allocate gigabytes.
func (d *decoder) count() (int, error) {
	n, err := d.uvarint()
	if err != nil {
		return 0, err
	}
	if n > uint64(len(d.b)-d.off) {
		return 0, errShort
	}
	return int(n), nil
}

func (d *decoder) bytes() ([]byte, error) {
	n, err := d.count()
	if err != nil {
		return nil, err
	}
	b := d.b[d.off : d.off+n]
	d.off += n
	return b, nil
}

func (d *decoder) string() (string, error) {
	b, err := d.bytes()
	return string(b), err
}

// name reads a collection name.
func (d *decoder) name() (string, error) {
	b, err := d.bytes()
	if err != nil {
		return "", err
	}
	return d.names.intern(b), nil
}

// put reads the fields of a put (see appendPutFields). kv is the key and
// the item's encoding as they lie in k, the item right after the key
// (unless a format1 item was rewritten on reading, see storage.ReadValue).
func (d *decoder) put() (p putFields, err error) {
	if p.coll, err = d.name(); err != nil {
		return p, err
	}
	if d.format == format1 {
		if p.key, err = d.bytes(); err != nil {
			return p, err
		}
		keyAt := d.off - len(p.key)
		if p.item, err = d.value(); err != nil {
			return p, err
		}
		p.kv = d.k[keyAt:d.off:d.off]
		return p, nil
	}
	size, err := d.uvarint()
	if err != nil {
		return p, err
	}
	n, err := d.uvarint()
	if err != nil {
		return p, err
	}
	if p.key, err = d.bytes(); err != nil {
		return p, err
	}
	if n == 0 || size > maxPayload {
		return p, fmt.Errorf("item of %d bytes and size %d", n, size)
	}
	if n > uint64(len(d.b)-d.off) {
		return p, errShort
	}
	keyAt := d.off - len(p.key)
	enc := d.k[d.off : d.off+int(n)]
	d.off += int(n)
	p.kv = d.k[keyAt:d.off:d.off]
	p.item = storage.TrustedValue(unsafe.String(unsafe.SliceData(enc), len(enc)), int(size))
	return p, nil
}

// decodePut decodes the payload of a format2 put into r as decodeKept
// does, faster: Open reads little else. It reports false for any payload
// that is not a put decodeKept takes (which then says why).
func decodePut(r *record, payload, kept []byte, names *interner) bool {
	if len(payload) == 0 || len(kept) != len(payload) || payload[0] != opPut {
		return false
	}
	clen, i := uvarintAt(payload, 1)
	if i < 0 || clen > uint64(len(payload)-i) {
		return false
	}
	coll := payload[i : i+int(clen)]
	size, i := uvarintAt(payload, i+int(clen))
	if i < 0 {
		return false
	}
	n, i := uvarintAt(payload, i)
	if i < 0 {
		return false
	}
	klen, i := uvarintAt(payload, i)
	if i < 0 || klen > uint64(len(payload)-i) {
		return false
	}
	keyAt, at := i, i+int(klen)
	// The item is the rest of the payload: no more (that is decodeKept's
	// truncated data) and no less (its stray bytes).
	if n == 0 || size > maxPayload || n != uint64(len(payload)-at) {
		return false
	}
	*r = record{
		ops:  r.ops[:0], // for the next batch (see decoder.batch)
		op:   opPut,
		coll: names.intern(coll),
		key:  payload[keyAt:at:at],
		kv:   kept[keyAt:],
		item: storage.TrustedValue(unsafe.String(&kept[at], int(n)), int(size)),
	}
	return true
}

// uvarintAt reads the uvarint at b[i:] and returns it and the index after
// it, or -1 if there is none (cut short, or over 64 bits).
func uvarintAt(b []byte, i int) (uint64, int) {
	if i < len(b) && b[i] < 0x80 {
		return uint64(b[i]), i + 1 // most are one byte, read inline
	}
	return longUvarintAt(b, i)
}

func longUvarintAt(b []byte, i int) (uint64, int) {
	v, n := binary.Uvarint(b[i:])
	if n <= 0 {
		return 0, -1
	}
	return v, i + n
}

// putFields are the fields of a decoded put: key aliases the bytes
// decoded, kv and item the bytes kept.
type putFields struct {
	coll string
	key  []byte
	kv   []byte // the key and then, normally, the item's encoding, as kept
	item storage.Value
}

// value reads a format1 item encoding where it is kept, checking it (see
// decoder).
func (d *decoder) value() (storage.Value, error) {
	rest := d.k[d.off:]
	v, n, err := storage.ReadValue(unsafe.String(unsafe.SliceData(rest), len(rest)))
	if err != nil {
		return storage.Value{}, err
	}
	d.off += n
	return v, nil
}
