package storage

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/codec/ddbjson"
	"github.com/dynamogo/dynamo/internal/itemsize"
)

// Value is a stored item in its encoded form: immutable, a few bytes more
// than its data, with its DynamoDB size computed once when it was encoded.
// Collections hold Values, and readers decode only what they need: Item
// for the attribute map, AppendJSON to answer with it as DynamoDB JSON.
// The zero Value is no item.
//
// The encoding (also the durable engine's log and snapshot format) is a
// uvarint count of attributes, then for each, in ascending byte order of
// names, a uvarint-length-prefixed name and a value. A value is a tag byte
// then its payload:
//
//	S, N    uvarint length, bytes
//	B       uvarint length, bytes
//	T, F    BOOL true / false (no payload)
//	0       NULL (no payload)
//	M       uvarint count, then (name, value) pairs, names in order
//	L       uvarint count, then values
//	s, n, b SS, NS, BS: uvarint count, then length-prefixed members
//
// Names in order make the JSON of a Value a walk of its bytes, the same
// bytes ddbjson.AppendItem writes for the decoded item.
type Value struct {
	enc  string
	size int
}

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

// maxDepth bounds nesting when reading an encoding. DynamoDB allows 32
// levels; a deeper tree can only come from a damaged file, and must not
// exhaust the stack.
const maxDepth = 64

var errShort = errors.New("truncated item encoding")

// IsZero reports whether v is the zero Value (no item).
func (v Value) IsZero() bool { return v.enc == "" }

// Size is the item's size as DynamoDB counts it (the sum of its attribute
// names and values), computed when the Value was made.
func (v Value) Size() int { return v.size }

// Encoded is the encoding of the item, to be read back with ReadValue.
func (v Value) Encoded() string { return v.enc }

// Encode encodes item. A nil or unknown attribute value is an error naming
// the attribute.
func Encode(item Item) (Value, error) {
	bp := encPool.Get().(*[]byte)
	defer func() {
		if cap(*bp) <= 64<<10 {
			encPool.Put(bp)
		}
	}()
	b, size, err := appendItem((*bp)[:0], item, 0)
	*bp = b
	if err != nil {
		return Value{}, err
	}
	return Value{enc: string(b), size: size}, nil
}

// encPool holds Encode's scratch buffers: a Value is one allocation of
// exactly its length.
var encPool = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// MustEncode is Encode for items known to be well formed (built by the
// caller from decoded values); it panics on an error.
func MustEncode(item Item) Value {
	v, err := Encode(item)
	if err != nil {
		panic(err)
	}
	return v
}

type member struct {
	name string
	av   types.AttributeValue
}

// sortedMembers returns m's members in ascending byte order of names.
func sortedMembers(m map[string]types.AttributeValue, arr *[16]member) []member {
	ms := arr[:0]
	for k, v := range m {
		ms = append(ms, member{k, v})
	}
	if len(ms) > 12 {
		slices.SortFunc(ms, func(a, b member) int { return strings.Compare(a.name, b.name) })
		return ms
	}
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && ms[j].name < ms[j-1].name; j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
	return ms
}

func appendString(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// appendItem appends the encoding of an attribute map and returns its size
// as itemsize counts it (a nested map's members cost a byte more each).
func appendItem(dst []byte, item Item, depth int) ([]byte, int, error) {
	var arr [16]member
	ms := sortedMembers(item, &arr)
	dst = binary.AppendUvarint(dst, uint64(len(ms)))
	size := 0
	for _, m := range ms {
		dst = appendString(dst, m.name)
		var n int
		var err error
		if dst, n, err = appendValue(dst, m.av, depth); err != nil {
			return dst, 0, fmt.Errorf("attribute %q: %w", m.name, err)
		}
		if depth > 0 {
			size++
		}
		size += len(m.name) + n
	}
	return dst, size, nil
}

// appendValue appends the encoding of av and returns its size.
func appendValue(dst []byte, av types.AttributeValue, depth int) ([]byte, int, error) {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		if v != nil {
			return appendString(append(dst, tagS), v.Value), len(v.Value), nil
		}
	case *types.AttributeValueMemberN:
		if v != nil {
			return appendString(append(dst, tagN), v.Value), itemsize.Number(v.Value), nil
		}
	case *types.AttributeValueMemberB:
		if v != nil {
			dst = binary.AppendUvarint(append(dst, tagB), uint64(len(v.Value)))
			return append(dst, v.Value...), len(v.Value), nil
		}
	case *types.AttributeValueMemberBOOL:
		if v != nil {
			if v.Value {
				return append(dst, tagTrue), 1, nil
			}
			return append(dst, tagFals), 1, nil
		}
	case *types.AttributeValueMemberNULL:
		if v != nil {
			return append(dst, tagNull), 1, nil
		}
	case *types.AttributeValueMemberM:
		if v != nil {
			dst, n, err := appendItem(append(dst, tagM), v.Value, depth+1)
			return dst, 3 + n, err
		}
	case *types.AttributeValueMemberL:
		if v != nil {
			dst = binary.AppendUvarint(append(dst, tagL), uint64(len(v.Value)))
			size := 3
			for _, m := range v.Value {
				var n int
				var err error
				if dst, n, err = appendValue(dst, m, depth+1); err != nil {
					return dst, 0, err
				}
				size += 1 + n
			}
			return dst, size, nil
		}
	case *types.AttributeValueMemberSS:
		if v != nil {
			dst, n := appendStrings(append(dst, tagSS), v.Value, false)
			return dst, n, nil
		}
	case *types.AttributeValueMemberNS:
		if v != nil {
			dst, n := appendStrings(append(dst, tagNS), v.Value, true)
			return dst, n, nil
		}
	case *types.AttributeValueMemberBS:
		if v != nil {
			dst = binary.AppendUvarint(append(dst, tagBS), uint64(len(v.Value)))
			size := 0
			for _, b := range v.Value {
				dst = binary.AppendUvarint(dst, uint64(len(b)))
				dst = append(dst, b...)
				size += len(b)
			}
			return dst, size, nil
		}
	}
	return dst, 0, fmt.Errorf("cannot store attribute value of type %T", av)
}

func appendStrings(dst []byte, ss []string, numbers bool) ([]byte, int) {
	dst = binary.AppendUvarint(dst, uint64(len(ss)))
	size := 0
	for _, s := range ss {
		dst = appendString(dst, s)
		if numbers {
			size += itemsize.Number(s)
		} else {
			size += len(s)
		}
	}
	return dst, size
}

// ReadValue reads the encoding of one item at the start of enc, checking
// all of it (an encoding from a file may be damaged), and returns the
// Value and the number of bytes it takes. The Value shares enc's memory.
// Attribute names out of order (an encoding written before names were
// sorted) are put in order in a new copy; a name given twice is an error.
func ReadValue(enc string) (Value, int, error) {
	r := reader{s: enc}
	size, sorted, err := r.item(0)
	if err != nil {
		return Value{}, 0, err
	}
	v := Value{enc: enc[:r.off], size: size}
	if !sorted {
		it, err := v.Item()
		if err != nil {
			return Value{}, 0, err
		}
		if v, err = Encode(it); err != nil {
			return Value{}, 0, err
		}
	}
	return v, r.off, nil
}

// TrustedValue is the Value of enc, an encoding that a Value made by Encode
// or ReadValue wrote, with that Value's Size, without checking either:
// for a durable engine reading back its own files, whose records a
// checksum protects. A malformed enc makes later reads fail or panic.
func TrustedValue(enc string, size int) Value {
	return Value{enc: enc, size: size}
}

// reader walks an encoding.
type reader struct {
	s   string
	off int
}

func (r *reader) uvarint() (uint64, error) {
	var x uint64
	var shift uint
	for i := 0; i < binary.MaxVarintLen64; i++ {
		if r.off >= len(r.s) {
			return 0, errShort
		}
		c := r.s[r.off]
		r.off++
		if c < 0x80 {
			if i == binary.MaxVarintLen64-1 && c > 1 {
				return 0, errors.New("uvarint overflows")
			}
			return x | uint64(c)<<shift, nil
		}
		x |= uint64(c&0x7f) << shift
		shift += 7
	}
	return 0, errors.New("uvarint overflows")
}

// count reads a collection length, rejecting one that cannot fit in the
// remaining bytes (every element takes at least one byte), so a damaged
// length cannot make a decoder allocate gigabytes.
func (r *reader) count() (int, error) {
	if r.off < len(r.s) && r.s[r.off] < 0x80 { // most lengths and counts
		n := int(r.s[r.off])
		r.off++
		if n > len(r.s)-r.off {
			return 0, errShort
		}
		return n, nil
	}
	n, err := r.uvarint()
	if err != nil {
		return 0, err
	}
	if n > uint64(len(r.s)-r.off) {
		return 0, errShort
	}
	return int(n), nil
}

func (r *reader) string() (string, error) {
	n, err := r.count()
	if err != nil {
		return "", err
	}
	v := r.s[r.off : r.off+n]
	r.off += n
	return v, nil
}

// item checks an attribute map and returns its size and whether its
// names (and those of every nested map) are in ascending order.
func (r *reader) item(depth int) (size int, sorted bool, err error) {
	n, err := r.count()
	if err != nil {
		return 0, false, err
	}
	sorted = true
	prev := ""
	for i := range n {
		name, err := r.string()
		if err != nil {
			return 0, false, err
		}
		if i > 0 && name <= prev {
			if name == prev {
				return 0, false, errors.New("attribute name given twice")
			}
			sorted = false
		}
		prev = name
		vs, vsorted, err := r.value(depth)
		if err != nil {
			return 0, false, err
		}
		if depth > 0 {
			size++ // a map member costs one byte more than a top-level attribute
		}
		size += len(name) + vs
		sorted = sorted && vsorted
	}
	return size, sorted, nil
}

func (r *reader) value(depth int) (size int, sorted bool, err error) {
	if depth > maxDepth {
		return 0, false, errors.New("attribute values nested too deeply")
	}
	if r.off >= len(r.s) {
		return 0, false, errShort
	}
	tag := r.s[r.off]
	r.off++
	switch tag {
	case tagS, tagB:
		s, err := r.string()
		return len(s), true, err
	case tagN:
		s, err := r.string()
		return itemsize.Number(s), true, err
	case tagTrue, tagFals, tagNull:
		return 1, true, nil
	case tagM:
		size, sorted, err := r.item(depth + 1)
		return 3 + size, sorted, err
	case tagL:
		n, err := r.count()
		if err != nil {
			return 0, false, err
		}
		size, sorted := 3, true
		for range n {
			vs, vsorted, err := r.value(depth + 1)
			if err != nil {
				return 0, false, err
			}
			size += 1 + vs
			sorted = sorted && vsorted
		}
		return size, sorted, nil
	case tagSS, tagNS, tagBS:
		n, err := r.count()
		if err != nil {
			return 0, false, err
		}
		size := 0
		for range n {
			s, err := r.string()
			if err != nil {
				return 0, false, err
			}
			if tag == tagNS {
				size += itemsize.Number(s)
			} else {
				size += len(s)
			}
		}
		return size, true, nil
	default:
		return 0, false, fmt.Errorf("unknown value tag 0x%02x", tag)
	}
}

// Item decodes the item. Its strings share the Value's memory; its byte
// slices are copies, so the caller may keep or change what it gets.
func (v Value) Item() (Item, error) {
	if v.enc == "" {
		return nil, nil
	}
	r := reader{s: v.enc}
	it, err := r.decodeMap(&slabs{})
	if err == nil && r.off != len(r.s) {
		err = errors.New("stray bytes after the item encoding")
	}
	return it, err
}

// Attrs decodes only the top-level attributes of v named in names (sorted,
// without repeats) into dst, cleared first, and returns it (a new map if
// dst is nil): a reader that needs a few attributes (a filter, a
// projection) skips the others' bytes instead of decoding them.
func (v Value) Attrs(dst Item, names []string) (Item, error) {
	return v.attrs(dst, names, &slabs{})
}

// Scratch is memory for the values AttrsScratch decodes, reused from one
// call to the next. The zero Scratch is ready to use.
type Scratch struct {
	s []types.AttributeValueMemberS
	n []types.AttributeValueMemberN
}

// Clear drops the values decoded into sc, which keep the encodings they
// came from allocated, keeping its memory for the next call.
func (sc *Scratch) Clear() {
	clear(sc.s)
	clear(sc.n)
}

// AttrsScratch is Attrs for a reader that decodes item after item and
// keeps none of the values (a filter): the S and N values come from sc,
// so that those of a call are valid only until the next call with sc.
func (v Value) AttrsScratch(dst Item, names []string, sc *Scratch) (Item, error) {
	if len(sc.s) == 0 {
		sc.s, sc.n = make([]types.AttributeValueMemberS, 4), make([]types.AttributeValueMemberN, 4)
	}
	return v.attrs(dst, names, &slabs{s: sc.s, n: sc.n}) // more than four of a kind: a new array
}

func (v Value) attrs(dst Item, names []string, sl *slabs) (Item, error) {
	if dst == nil {
		dst = make(Item, len(names))
	} else {
		clear(dst)
	}
	if v.enc == "" || len(names) == 0 {
		return dst, nil
	}
	r := reader{s: v.enc}
	n, err := r.count()
	if err != nil {
		return nil, err
	}
	for i := 0; i < n && len(names) > 0; i++ {
		name, err := r.string()
		if err != nil {
			return nil, err
		}
		for len(names) > 0 && names[0] < name {
			names = names[1:] // absent from the item
		}
		if len(names) == 0 || names[0] != name {
			r.skip()
			continue
		}
		if dst[name], err = r.decodeValue(sl, len(names)); err != nil {
			return nil, err
		}
		names = names[1:]
	}
	return dst, nil
}

// With returns v changed in the top-level attributes of names (sorted,
// without repeats): each is set to attrs[name], or left out when attrs has
// no such attribute. It is the Value Encode makes of the item so changed
// (the same bytes, the same size), but the attributes it does not change
// are copied as bytes, neither decoded nor encoded again: an update of a
// few attributes pays for those alone. The zero v is an item without
// attributes.
func (v Value) With(attrs Item, names []string) (Value, error) {
	bp := encPool.Get().(*[]byte)
	defer func() {
		if cap(*bp) <= 64<<10 {
			encPool.Put(bp)
		}
	}()
	// The body is written after room for the count, which is known last.
	const room = binary.MaxVarintLen64
	b := append((*bp)[:0], make([]byte, room)...)
	count, size := 0, v.size
	var err error
	add := func(name string) { // names[i]'s new value, if any
		av, ok := attrs[name]
		if !ok || err != nil {
			return
		}
		b = appendString(b, name)
		var n int
		if b, n, err = appendValue(b, av, 0); err != nil {
			err = fmt.Errorf("attribute %q: %w", name, err)
		}
		size += len(name) + n
		count++
	}
	r := reader{s: v.enc}
	n := 0
	if v.enc != "" {
		n = r.jsonUvarint()
	}
	for range n {
		start := r.off
		name := r.jsonString()
		for len(names) > 0 && names[0] < name {
			add(names[0])
			names = names[1:]
		}
		if len(names) > 0 && names[0] == name { // replaced: its old size goes
			vs, _, _ := r.value(0)
			size -= len(name) + vs
			add(name)
			names = names[1:]
			continue
		}
		r.skip()
		b = append(b, v.enc[start:r.off]...)
		count++
	}
	for _, name := range names {
		add(name)
	}
	*bp = b
	if err != nil {
		return Value{}, err
	}
	head := binary.AppendUvarint(make([]byte, 0, room), uint64(count))
	copy(b[room-len(head):], head)
	return Value{enc: string(b[room-len(head):]), size: size}, nil
}

// skip moves past a value of a checked encoding.
func (r *reader) skip() {
	tag := r.s[r.off]
	r.off++
	switch tag {
	case tagS, tagN, tagB:
		r.off += r.jsonUvarint()
	case tagM:
		for range r.jsonUvarint() {
			r.off += r.jsonUvarint()
			r.skip()
		}
	case tagL:
		for range r.jsonUvarint() {
			r.skip()
		}
	case tagSS, tagNS, tagBS:
		for range r.jsonUvarint() {
			r.off += r.jsonUvarint()
		}
	}
}

// slabs hands out the S and N members of one decoded item from shared
// arrays: a few allocations per item instead of one per value.
type slabs struct {
	s []types.AttributeValueMemberS
	n []types.AttributeValueMemberN
}

// next returns the next member of *slab, taking an array of size (at least
// the attributes left to decode) when it is used up.
func next[T any](slab *[]T, size int) *T {
	if len(*slab) == 0 {
		*slab = make([]T, max(size, 4))
	}
	p := &(*slab)[0]
	*slab = (*slab)[1:]
	return p
}

func (r *reader) decodeMap(sl *slabs) (map[string]types.AttributeValue, error) {
	n, err := r.count()
	if err != nil {
		return nil, err
	}
	m := make(map[string]types.AttributeValue, n)
	for i := range n {
		name, err := r.string()
		if err != nil {
			return nil, err
		}
		if m[name], err = r.decodeValue(sl, n-i); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// decodeValue decodes a value, one of left values still to decode at its
// level (the size of a new slab).
func (r *reader) decodeValue(sl *slabs, left int) (types.AttributeValue, error) {
	if r.off >= len(r.s) {
		return nil, errShort
	}
	tag := r.s[r.off]
	r.off++
	switch tag {
	case tagS:
		s, err := r.string()
		p := next(&sl.s, left)
		p.Value = s
		return p, err
	case tagN:
		s, err := r.string()
		p := next(&sl.n, left)
		p.Value = s
		return p, err
	case tagB:
		s, err := r.string()
		return &types.AttributeValueMemberB{Value: []byte(s)}, err
	case tagTrue:
		return &types.AttributeValueMemberBOOL{Value: true}, nil
	case tagFals:
		return &types.AttributeValueMemberBOOL{Value: false}, nil
	case tagNull:
		return &types.AttributeValueMemberNULL{Value: true}, nil
	case tagM:
		m, err := r.decodeMap(sl)
		return &types.AttributeValueMemberM{Value: m}, err
	case tagL:
		n, err := r.count()
		if err != nil {
			return nil, err
		}
		l := make([]types.AttributeValue, n)
		for i := range l {
			if l[i], err = r.decodeValue(sl, n-i); err != nil {
				return nil, err
			}
		}
		return &types.AttributeValueMemberL{Value: l}, nil
	case tagSS, tagNS:
		n, err := r.count()
		if err != nil {
			return nil, err
		}
		ss := make([]string, n)
		for i := range ss {
			if ss[i], err = r.string(); err != nil {
				return nil, err
			}
		}
		if tag == tagSS {
			return &types.AttributeValueMemberSS{Value: ss}, nil
		}
		return &types.AttributeValueMemberNS{Value: ss}, nil
	case tagBS:
		n, err := r.count()
		if err != nil {
			return nil, err
		}
		bs := make([][]byte, n)
		for i := range bs {
			s, err := r.string()
			if err != nil {
				return nil, err
			}
			bs[i] = []byte(s)
		}
		return &types.AttributeValueMemberBS{Value: bs}, nil
	default:
		return nil, fmt.Errorf("unknown value tag 0x%02x", tag)
	}
}

// AppendJSON appends the item as DynamoDB JSON: the bytes ddbjson.AppendItem
// appends for the decoded item, written straight from the encoding.
func (v Value) AppendJSON(dst []byte) []byte {
	if v.enc == "" {
		return append(dst, "{}"...)
	}
	r := reader{s: v.enc}
	return r.jsonMap(dst)
}

// The json methods read encodings checked when their Value was made
// (Encode writes them, ReadValue checks them), so they do not check again.

func (r *reader) jsonUvarint() int {
	if c := r.s[r.off]; c < 0x80 { // most lengths and counts
		r.off++
		return int(c)
	}
	x, _ := r.uvarint()
	return int(x)
}

func (r *reader) jsonString() string {
	n := r.jsonUvarint()
	s := r.s[r.off : r.off+n]
	r.off += n
	return s
}

func (r *reader) jsonMap(dst []byte) []byte {
	dst = append(dst, '{')
	for i := range r.jsonUvarint() {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = ddbjson.AppendString(dst, r.jsonString())
		dst = append(dst, ':')
		dst = r.jsonValue(dst)
	}
	return append(dst, '}')
}

func (r *reader) jsonValue(dst []byte) []byte {
	tag := r.s[r.off]
	r.off++
	switch tag {
	case tagS:
		dst = ddbjson.AppendString(append(dst, `{"S":`...), r.jsonString())
	case tagN:
		dst = ddbjson.AppendString(append(dst, `{"N":`...), r.jsonString())
	case tagB:
		dst = appendBase64(append(dst, `{"B":`...), r.jsonString())
	case tagTrue:
		dst = append(dst, `{"BOOL":true`...)
	case tagFals:
		dst = append(dst, `{"BOOL":false`...)
	case tagNull:
		dst = append(dst, `{"NULL":true`...)
	case tagM:
		dst = r.jsonMap(append(dst, `{"M":`...))
	case tagL:
		dst = append(dst, `{"L":[`...)
		for i := range r.jsonUvarint() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = r.jsonValue(dst)
		}
		dst = append(dst, ']')
	case tagSS, tagNS, tagBS:
		switch tag {
		case tagSS:
			dst = append(dst, `{"SS":[`...)
		case tagNS:
			dst = append(dst, `{"NS":[`...)
		default:
			dst = append(dst, `{"BS":[`...)
		}
		for i := range r.jsonUvarint() {
			if i > 0 {
				dst = append(dst, ',')
			}
			if tag == tagBS {
				dst = appendBase64(dst, r.jsonString())
			} else {
				dst = ddbjson.AppendString(dst, r.jsonString())
			}
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

func appendBase64(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = base64.StdEncoding.AppendEncode(dst, unsafeBytes(s))
	return append(dst, '"')
}
