package disk

import (
	"encoding/binary"
	"errors"
	"unsafe"

	"github.com/dynamogo/dynamo/local/storage"
)

// Records carry items in storage.Value's encoding, the form the memory
// engine holds them in: writing one appends its bytes, and a restart checks
// them and copies them into the tree, without decoding an attribute.

var errShort = errors.New("truncated data")

func appendBytes(dst, b []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(b)))
	return append(dst, b...)
}

func appendString(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// decoder reads the fields of a record payload. Collection names and meta
// keys are copied; keys and items alias b, which the caller keeps unchanged
// until it has stored them (the memory engine copies what it keeps).
type decoder struct {
	b   []byte
	off int
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

// value reads an item encoding in place (see decoder).
func (d *decoder) value() (storage.Value, error) {
	rest := d.b[d.off:]
	v, n, err := storage.ReadValue(unsafe.String(unsafe.SliceData(rest), len(rest)))
	if err != nil {
		return storage.Value{}, err
	}
	d.off += n
	return v, nil
}
