package codec

import (
	"strconv"
	"sync"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// encState hands out attribute value members and text from slabs, so that
// encoding an item costs a few allocations instead of one per attribute.
// A member is written once, before it is handed out, and never again; the
// unused rest of a slab goes back to the pool for the next call. Members
// and strings of one slab may belong to different items: they share only
// the backing array, which the garbage collector keeps while any is used.
type encState struct {
	s     slab[types.AttributeValueMemberS]
	n     slab[types.AttributeValueMemberN]
	m     slab[types.AttributeValueMemberM]
	l     slab[types.AttributeValueMemberL]
	bools slab[types.AttributeValueMemberBOOL]
	nulls slab[types.AttributeValueMemberNULL]
	ss    slab[types.AttributeValueMemberSS]
	ns    slab[types.AttributeValueMemberNS]
	strs  []string
	avs   []types.AttributeValue
	text  []byte
	depth int // pointers, lists and maps entered: stops cycles
}

// slab is a run of members handed out one at a time. It moves an index,
// not the slice, so that handing one out stores no pointer (a store into
// the pooled state that the garbage collector's write barrier would
// otherwise record while it marks).
type slab[T any] struct {
	buf  []T
	next int
}

// take returns the next member, starting a new slab of about slabBytes
// when this one is used up.
func (s *slab[T]) take() *T {
	if s.next == len(s.buf) {
		s.refill()
	}
	p := &s.buf[s.next]
	s.next++
	return p
}

func (s *slab[T]) refill() {
	var zero T
	n := slabBytes / max(int(unsafe.Sizeof(zero)), 1)
	s.buf, s.next = make([]T, min(max(n, slabMinMembers), slabMaxMembers)), 0
}

// maxNesting bounds how deep a value may nest, far beyond DynamoDB's own
// limit (32 levels), so that a cyclic Go value is an error, not a stack
// overflow.
const maxNesting = 1000

func (st *encState) enter() error {
	st.depth++
	if st.depth > maxNesting {
		return errorf("value nests deeper than %d levels (a cycle?)", maxNesting)
	}
	return nil
}

func (st *encState) leave() { st.depth-- }

// Slabs are sized in bytes, so that the small members (an M is one
// pointer) come as many to an allocation as the strings do. A slab with
// pointers of over 512 bytes carries the allocator's 8-byte type header,
// so slabs of members and slices are sized to fill the 1 KiB size class
// with it (1,024 bytes of slices would take 1,152): one allocation for
// twice the members of a 512-byte slab, and none of the per-object bitmap
// writing that objects of 512 bytes or less pay. The cost: a member a
// caller keeps keeps up to 1 KiB alive.
const (
	mallocHeader   = 8
	slabBytes      = 1024 - mallocHeader
	slabMinMembers = 16
	slabMaxMembers = 64
	slabSlices     = slabBytes / 16 // strings and attribute values: 16 bytes each
	maxSlabSlice   = 16             // longer slices are allocated on their own
	slabText       = 1024
	minText        = 64
)

var statePool = sync.Pool{New: func() any { return new(encState) }}

func getState() *encState   { return statePool.Get().(*encState) }
func putState(st *encState) { statePool.Put(st) }

func (st *encState) S(v string) *types.AttributeValueMemberS {
	p := st.s.take()
	p.Value = v
	return p
}

func (st *encState) N(v string) *types.AttributeValueMemberN {
	p := st.n.take()
	p.Value = v
	return p
}

func (st *encState) M(v map[string]types.AttributeValue) *types.AttributeValueMemberM {
	p := st.m.take()
	p.Value = v
	return p
}

func (st *encState) L(v []types.AttributeValue) *types.AttributeValueMemberL {
	p := st.l.take()
	p.Value = v
	return p
}

func (st *encState) BOOL(v bool) *types.AttributeValueMemberBOOL {
	p := st.bools.take()
	p.Value = v
	return p
}

func (st *encState) NULL() *types.AttributeValueMemberNULL {
	p := st.nulls.take()
	p.Value = true
	return p
}

func (st *encState) SS(v []string) *types.AttributeValueMemberSS {
	p := st.ss.take()
	p.Value = v
	return p
}

// float is f as an N of its shortest text at its bits (32 or 64).
func (st *encState) float(f float64, bits int) (types.AttributeValue, error) {
	b, err := appendFloat(st.buf(), f, bits)
	if err != nil {
		return nil, err
	}
	return st.N(st.str(b)), nil
}

func (st *encState) NS(v []string) *types.AttributeValueMemberNS {
	p := st.ns.take()
	p.Value = v
	return p
}

// strings returns an empty slice with room for n strings, carved from a
// slab. Its capacity is exactly n, so appending past it (by a caller of
// ours, to a set's Value) copies instead of touching a neighbour.
func (st *encState) strings(n int) []string {
	if n > maxSlabSlice {
		return make([]string, 0, n)
	}
	if cap(st.strs)-len(st.strs) < n {
		st.strs = make([]string, 0, slabSlices)
	}
	l := len(st.strs)
	st.strs = st.strs[:l+n]
	return st.strs[l : l : l+n]
}

// values returns n attribute value slots carved from a slab (capacity n,
// as for strings).
func (st *encState) values(n int) []types.AttributeValue {
	if n > maxSlabSlice {
		return make([]types.AttributeValue, n)
	}
	if cap(st.avs)-len(st.avs) < n {
		st.avs = make([]types.AttributeValue, 0, slabSlices)
	}
	l := len(st.avs)
	st.avs = st.avs[:l+n]
	return st.avs[l : l+n : l+n]
}

// buf returns an empty slice whose capacity is the free text of the slab;
// append to it, then call str.
func (st *encState) buf() []byte {
	if cap(st.text)-len(st.text) < minText {
		st.text = make([]byte, 0, slabText)
	}
	return st.text[len(st.text):len(st.text):cap(st.text)]
}

// str returns b as a string. When b was built in place from buf, the bytes
// are taken from the slab (and never written again); otherwise, as after
// an append outgrew it, they are copied.
func (st *encState) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	free := st.text[len(st.text):cap(st.text)]
	if len(free) >= len(b) && unsafe.SliceData(free) == unsafe.SliceData(b) {
		st.text = st.text[:len(st.text)+len(b)]
		return unsafe.String(unsafe.SliceData(b), len(b))
	}
	return string(b)
}

// itoa returns n in decimal. Below 100 it is strconv's own constant
// text, which takes nothing from the slab; small numbers (counts,
// quantities, versions) are the common ones.
func (st *encState) itoa(n int64) string {
	if uint64(n) < uint64(len(smallInts)) {
		return smallInts[n]
	}
	return st.itoaText(n)
}

// itoaText is itoa's text in the slab, apart so that itoa inlines.
func (st *encState) itoaText(n int64) string {
	return st.str(strconv.AppendInt(st.buf(), n, 10))
}

// utoa is itoa for unsigned numbers.
func (st *encState) utoa(n uint64) string {
	if n < uint64(len(smallInts)) {
		return smallInts[n]
	}
	return st.utoaText(n)
}

// utoaText is itoaText for unsigned numbers.
func (st *encState) utoaText(n uint64) string {
	return st.str(strconv.AppendUint(st.buf(), n, 10))
}

// smallInts holds the text of 0 to 99, read without a call: strconv's
// constant strings, so no byte of it is allocated.
var smallInts = func() (t [100]string) {
	for i := range t {
		t[i] = strconv.Itoa(i)
	}
	return t
}()
