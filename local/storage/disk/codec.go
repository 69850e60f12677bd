package disk

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/local/storage"
)

// The item encoding is a compact binary form of an attribute-value tree: a
// uvarint count of attributes, then for each a uvarint-length-prefixed name
// and a value. A value is a tag byte then its payload:
//
//	S, N    uvarint length, bytes
//	B       uvarint length, bytes
//	T, F    BOOL true / false (no payload)
//	0       NULL (no payload)
//	M       uvarint count, then (name, value) pairs
//	L       uvarint count, then values
//	s, n, b SS, NS, BS: uvarint count, then length-prefixed members
//
// It is type-switch driven (no reflection) and decodes without panicking on
// any input: the log's checksums catch corruption, and the decoder's bounds
// checks catch what a checksum cannot (a bug, or a hand-edited file).
const (
	tagS    = 'S'
	tagN    = 'N'
	tagB    = 'B'
	tagTrue = 'T'
	tagFals = 'F'
	tagNull = '0'
	tagM    = 'M'
	tagL    = 'L'
	tagSS   = 's'
	tagNS   = 'n'
	tagBS   = 'b'
)

// maxDepth bounds nesting on decode. DynamoDB allows 32 levels; a deeper
// tree can only come from a damaged file, and must not exhaust the stack.
const maxDepth = 64

var errShort = errors.New("truncated data")

func appendBytes(dst, b []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(b)))
	return append(dst, b...)
}

func appendString(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// appendItem appends the encoding of item.
func appendItem(dst []byte, item storage.Item) ([]byte, error) {
	dst = binary.AppendUvarint(dst, uint64(len(item)))
	for name, av := range item {
		dst = appendString(dst, name)
		var err error
		if dst, err = appendValue(dst, av); err != nil {
			return dst, fmt.Errorf("attribute %q: %w", name, err)
		}
	}
	return dst, nil
}

func appendValue(dst []byte, av types.AttributeValue) ([]byte, error) {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return appendString(append(dst, tagS), v.Value), nil
	case *types.AttributeValueMemberN:
		return appendString(append(dst, tagN), v.Value), nil
	case *types.AttributeValueMemberB:
		return appendBytes(append(dst, tagB), v.Value), nil
	case *types.AttributeValueMemberBOOL:
		if v.Value {
			return append(dst, tagTrue), nil
		}
		return append(dst, tagFals), nil
	case *types.AttributeValueMemberNULL:
		return append(dst, tagNull), nil
	case *types.AttributeValueMemberM:
		dst = binary.AppendUvarint(append(dst, tagM), uint64(len(v.Value)))
		for name, m := range v.Value {
			dst = appendString(dst, name)
			var err error
			if dst, err = appendValue(dst, m); err != nil {
				return dst, err
			}
		}
		return dst, nil
	case *types.AttributeValueMemberL:
		dst = binary.AppendUvarint(append(dst, tagL), uint64(len(v.Value)))
		for _, m := range v.Value {
			var err error
			if dst, err = appendValue(dst, m); err != nil {
				return dst, err
			}
		}
		return dst, nil
	case *types.AttributeValueMemberSS:
		dst = binary.AppendUvarint(append(dst, tagSS), uint64(len(v.Value)))
		for _, s := range v.Value {
			dst = appendString(dst, s)
		}
		return dst, nil
	case *types.AttributeValueMemberNS:
		dst = binary.AppendUvarint(append(dst, tagNS), uint64(len(v.Value)))
		for _, s := range v.Value {
			dst = appendString(dst, s)
		}
		return dst, nil
	case *types.AttributeValueMemberBS:
		dst = binary.AppendUvarint(append(dst, tagBS), uint64(len(v.Value)))
		for _, b := range v.Value {
			dst = appendBytes(dst, b)
		}
		return dst, nil
	default:
		return dst, fmt.Errorf("cannot store attribute value of type %T", av)
	}
}

// decoder reads the encodings appendItem writes. Restarts decode every
// stored item, so it allocates little: decoded strings are substrings of
// s, one copy of the whole record, and with a slabs S and N values are
// carved from shared arrays.
type decoder struct {
	b   []byte
	s   string // b as a string
	off int
	sl  *slabs // nil: allocate each value
}

func newDecoder(b []byte, sl *slabs) *decoder { return &decoder{b: b, s: string(b), sl: sl} }

// slabs hands out S and N values from arrays of slabSize, so a restart
// makes one allocation per slabSize values instead of one per value. (A
// value keeps its array alive: a few KB at most per live item.)
type slabs struct {
	ss []types.AttributeValueMemberS
	ns []types.AttributeValueMemberN
}

const slabSize = 64

func (d *decoder) newS(v string) *types.AttributeValueMemberS {
	if d.sl == nil {
		return &types.AttributeValueMemberS{Value: v}
	}
	p := fromSlab(&d.sl.ss)
	p.Value = v
	return p
}

func (d *decoder) newN(v string) *types.AttributeValueMemberN {
	if d.sl == nil {
		return &types.AttributeValueMemberN{Value: v}
	}
	p := fromSlab(&d.sl.ns)
	p.Value = v
	return p
}

// fromSlab hands out the next value of *slab, taking a new array of
// slabSize when it is used up.
func fromSlab[T any](slab *[]T) *T {
	if len(*slab) == 0 {
		*slab = make([]T, slabSize)
	}
	p := &(*slab)[0]
	*slab = (*slab)[1:]
	return p
}

func (d *decoder) uvarint() (uint64, error) {
	v, n := binary.Uvarint(d.b[d.off:])
	if n <= 0 {
		return 0, errShort
	}
	d.off += n
	return v, nil
}

// count reads a collection length, rejecting one that cannot fit in the
// remaining bytes (every element takes at least one byte), so a damaged
// length cannot make the decoder allocate gigabytes.
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
	n, err := d.count()
	if err != nil {
		return "", err
	}
	v := d.s[d.off : d.off+n]
	d.off += n
	return v, nil
}

func (d *decoder) item() (storage.Item, error) {
	n, err := d.count()
	if err != nil {
		return nil, err
	}
	item := make(storage.Item, n)
	for range n {
		name, err := d.string()
		if err != nil {
			return nil, err
		}
		if item[name], err = d.value(0); err != nil {
			return nil, err
		}
	}
	return item, nil
}

func (d *decoder) value(depth int) (types.AttributeValue, error) {
	if depth > maxDepth {
		return nil, errors.New("attribute values nested too deeply")
	}
	if d.off >= len(d.b) {
		return nil, errShort
	}
	tag := d.b[d.off]
	d.off++
	switch tag {
	case tagS:
		s, err := d.string()
		return d.newS(s), err
	case tagN:
		s, err := d.string()
		return d.newN(s), err
	case tagB:
		b, err := d.bytes()
		return &types.AttributeValueMemberB{Value: append([]byte{}, b...)}, err
	case tagTrue:
		return &types.AttributeValueMemberBOOL{Value: true}, nil
	case tagFals:
		return &types.AttributeValueMemberBOOL{Value: false}, nil
	case tagNull:
		return &types.AttributeValueMemberNULL{Value: true}, nil
	case tagM:
		n, err := d.count()
		if err != nil {
			return nil, err
		}
		m := make(map[string]types.AttributeValue, n)
		for range n {
			name, err := d.string()
			if err != nil {
				return nil, err
			}
			if m[name], err = d.value(depth + 1); err != nil {
				return nil, err
			}
		}
		return &types.AttributeValueMemberM{Value: m}, nil
	case tagL:
		n, err := d.count()
		if err != nil {
			return nil, err
		}
		l := make([]types.AttributeValue, n)
		for i := range l {
			if l[i], err = d.value(depth + 1); err != nil {
				return nil, err
			}
		}
		return &types.AttributeValueMemberL{Value: l}, nil
	case tagSS, tagNS:
		n, err := d.count()
		if err != nil {
			return nil, err
		}
		ss := make([]string, n)
		for i := range ss {
			if ss[i], err = d.string(); err != nil {
				return nil, err
			}
		}
		if tag == tagSS {
			return &types.AttributeValueMemberSS{Value: ss}, nil
		}
		return &types.AttributeValueMemberNS{Value: ss}, nil
	case tagBS:
		n, err := d.count()
		if err != nil {
			return nil, err
		}
		bs := make([][]byte, n)
		for i := range bs {
			b, err := d.bytes()
			if err != nil {
				return nil, err
			}
			bs[i] = append([]byte{}, b...)
		}
		return &types.AttributeValueMemberBS{Value: bs}, nil
	default:
		return nil, fmt.Errorf("unknown value tag 0x%02x", tag)
	}
}
