package vector

import (
	"maps"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/internal/itemsize"
)

// Item is a DynamoDB item as the server stores it.
type Item = map[string]types.AttributeValue

// Index is the searchable state of one vector index: per HASH value, the
// float32 vectors of the indexed items in one contiguous slab, with their
// primary keys, inline filter values and projected attributes in parallel
// columns. An Index is safe for concurrent use; the server calls Upsert and
// Delete inside its write critical section, so the index never disagrees
// with the base table.
type Index struct {
	def Definition

	mu      sync.RWMutex
	parts   map[string]*partition // by the HASH value's equality key ("" without HASH)
	where   map[string]location   // by primary key
	scratch []float32             // Upsert's parse buffer, guarded by mu
	bytes   int64                 // Σ entry sizes, for IndexSizeBytes
	codes   []codebook            // per inline filter attribute
}

type location struct {
	p   *partition
	row int32
}

// partition is the column store of one HASH value. Row r's vector is
// vecs[r*dim : (r+1)*dim]. Deleting a row moves the last row into its place,
// so the columns stay dense.
type partition struct {
	key   string
	keys  []string
	vecs  []float32
	norms []float64 // computed once at write time: |v| for COSINE, |v|² for EUCLIDEAN
	filt  []uint32  // len(Filters) codes per row (see codebook); 0 is absent
	items []Item    // the projected view, without the vector attribute
	sizes []int32   // entry size in bytes (see entrySize)
}

// New returns an empty index for def.
func New(def Definition) (*Index, error) {
	if err := def.check(); err != nil {
		return nil, err
	}
	def.Filters = append([]Attr(nil), def.Filters...)
	return &Index{
		def:     def,
		parts:   make(map[string]*partition),
		where:   make(map[string]location),
		scratch: make([]float32, def.Dimensions),
		codes:   make([]codebook, len(def.Filters)),
	}, nil
}

// Definition returns the index's definition.
func (ix *Index) Definition() Definition { return ix.def }

// Name returns the index name.
func (ix *Index) Name() string { return ix.def.Name }

// Len returns the number of indexed items (DescribeTable's ItemCount).
func (ix *Index) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return len(ix.where)
}

// SizeBytes returns the total size of the index entries (DescribeTable's
// IndexSizeBytes): per item, 4 bytes per dimension, the vector attribute's
// name and the DynamoDB size of the other projected attributes.
func (ix *Index) SizeBytes() int64 {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.bytes
}

// Upsert makes the index reflect the item stored under key: the item is
// indexed if it has a valid vector (and, when the index has a HASH element,
// a valid HASH value), and removed from the index otherwise. It reports
// whether the item is now indexed. key is the item's primary key in any
// encoding the caller keeps stable; ties between equal scores are broken by
// ascending key bytes, so an order-preserving key encoding gives results in
// table key order.
//
// Upsert does not validate: call [Index.Check] (or [Set.Check]) before the
// write to reject what DynamoDB rejects. An item Check would reject is simply
// not indexed, which is also how a backfill treats pre-existing items.
func (ix *Index) Upsert(key string, item Item) bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	d := &ix.def

	pkey := ""
	if d.HasPartition() {
		k, ok := ix.hashKey(item)
		if !ok {
			ix.deleteLocked(key)
			return false
		}
		pkey = k
	}
	vec := ix.scratch
	if !parseVector(item[d.Attribute], vec) {
		ix.deleteLocked(key)
		return false
	}
	var filt [MaxInlineFilters]string
	for i, f := range d.Filters {
		av, ok := item[f.Name]
		if !ok {
			continue // absent filter attributes are indexed (and match no equality)
		}
		k, typ, ok := scalarKey(av)
		if !ok || typ != string(f.Type) {
			ix.deleteLocked(key)
			return false
		}
		filt[i] = k
	}
	view := ix.project(item)
	size := ix.entrySize(view)
	nf := len(d.Filters)
	var codes [MaxInlineFilters]uint32
	for i := range nf {
		codes[i] = ix.codes[i].acquire(filt[i])
	}

	loc, found := ix.where[key]
	if found && loc.p.key != pkey {
		ix.deleteLocked(key)
		found = false
	}
	p := ix.parts[pkey]
	if p == nil {
		p = &partition{key: pkey}
		ix.parts[pkey] = p
	}
	row := int(loc.row)
	dim := d.Dimensions
	if found {
		ix.bytes -= int64(p.sizes[row])
		copy(p.vecs[row*dim:(row+1)*dim], vec)
		ix.releaseCodes(p, row)
		copy(p.filt[row*nf:(row+1)*nf], codes[:nf])
		p.items[row] = view
		p.sizes[row] = size
	} else {
		row = len(p.keys)
		p.keys = append(p.keys, key)
		p.vecs = append(p.vecs, vec...)
		p.filt = append(p.filt, codes[:nf]...)
		p.items = append(p.items, view)
		p.sizes = append(p.sizes, size)
		if d.Distance != types.VectorDistanceFunctionDotProduct {
			p.norms = append(p.norms, 0)
		}
		ix.where[key] = location{p: p, row: int32(row)}
	}
	switch d.Distance {
	case types.VectorDistanceFunctionCosine:
		p.norms[row] = norm32(vec)
	case types.VectorDistanceFunctionEuclidean:
		p.norms[row] = sumSquares(vec)
	}
	ix.bytes += int64(size)
	return true
}

// Delete removes the item stored under key from the index; a key that is
// not indexed is ignored.
func (ix *Index) Delete(key string) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.deleteLocked(key)
}

func (ix *Index) deleteLocked(key string) {
	loc, ok := ix.where[key]
	if !ok {
		return
	}
	delete(ix.where, key)
	p, row := loc.p, int(loc.row)
	ix.bytes -= int64(p.sizes[row])
	ix.releaseCodes(p, row)
	last := len(p.keys) - 1
	dim, nf := ix.def.Dimensions, len(ix.def.Filters)
	if row != last {
		p.keys[row] = p.keys[last]
		copy(p.vecs[row*dim:(row+1)*dim], p.vecs[last*dim:])
		copy(p.filt[row*nf:(row+1)*nf], p.filt[last*nf:])
		p.items[row] = p.items[last]
		p.sizes[row] = p.sizes[last]
		if p.norms != nil {
			p.norms[row] = p.norms[last]
		}
		ix.where[p.keys[row]] = location{p: p, row: int32(row)}
	}
	p.keys[last] = ""
	p.items[last] = nil
	p.keys = p.keys[:last]
	p.vecs = p.vecs[:last*dim]
	p.filt = p.filt[:last*nf]
	p.items = p.items[:last]
	p.sizes = p.sizes[:last]
	if p.norms != nil {
		p.norms = p.norms[:last]
	}
	if last == 0 {
		delete(ix.parts, p.key)
	}
}

// codebook numbers the distinct values of one inline filter attribute, so
// that a row stores, and a search compares, a uint32 rather than a string.
// Codes start at 1 (0 is "absent"); a code no row holds any more is
// forgotten and reused, so the book never outgrows the index.
type codebook struct {
	code map[string]uint32 // by equality key
	keys []string          // by code
	refs []int32           // rows holding each code, by code
	free []uint32
}

// acquire returns the code of the equality key k ("" is absent: 0) and
// counts one more row holding it.
func (b *codebook) acquire(k string) uint32 {
	if k == "" {
		return 0
	}
	c, ok := b.code[k]
	if !ok {
		if b.code == nil {
			b.code, b.keys, b.refs = map[string]uint32{}, []string{""}, []int32{0}
		}
		if n := len(b.free); n > 0 {
			c, b.free = b.free[n-1], b.free[:n-1]
			b.keys[c] = k
		} else {
			c = uint32(len(b.keys))
			b.keys, b.refs = append(b.keys, k), append(b.refs, 0)
		}
		b.code[k] = c
	}
	b.refs[c]++
	return c
}

// release counts one row fewer holding code c.
func (b *codebook) release(c uint32) {
	if c == 0 {
		return
	}
	if b.refs[c]--; b.refs[c] == 0 {
		delete(b.code, b.keys[c])
		b.keys[c] = ""
		b.free = append(b.free, c)
	}
}

// lookup returns the code of the equality key k, or noCode, which no row
// holds, when no row has that value (or k is "").
func (b *codebook) lookup(k string) uint32 {
	if c, ok := b.code[k]; ok {
		return c
	}
	return noCode
}

const noCode = ^uint32(0)

// releaseCodes releases the filter codes of row r of p.
func (ix *Index) releaseCodes(p *partition, r int) {
	nf := len(ix.codes)
	for i, c := range p.filt[r*nf : (r+1)*nf] {
		ix.codes[i].release(c)
	}
}

// hashKey returns the equality key of the item's HASH value; false when the
// value is absent, of the wrong type or empty (such items are not indexed).
func (ix *Index) hashKey(item Item) (string, bool) {
	av, ok := item[ix.def.Partition.Name]
	if !ok || isEmptyScalar(av) {
		return "", false
	}
	k, typ, ok := scalarKey(av)
	if !ok || typ != string(ix.def.Partition.Type) {
		return "", false
	}
	return k, true
}

// parseVector fills dst from a list of len(dst) numbers within the float32
// range; false for anything else.
func parseVector(av types.AttributeValue, dst []float32) bool {
	l, ok := av.(*types.AttributeValueMemberL)
	if !ok || len(l.Value) != len(dst) {
		return false
	}
	for i, e := range l.Value {
		n, ok := e.(*types.AttributeValueMemberN)
		if !ok {
			return false
		}
		f, syntax, inRange := parseStoredFloat32(n.Value)
		if !syntax || !inRange {
			return false
		}
		dst[i] = f
	}
	return true
}

// project returns the attributes of item the index keeps, without the
// vector attribute (kept as float32 in the slab). Under ALL that is every
// other attribute.
func (ix *Index) project(item Item) Item {
	d := &ix.def
	if d.Projection == types.ProjectionTypeAll {
		view := maps.Clone(item)
		delete(view, d.Attribute)
		return view
	}
	view := make(Item, len(d.TableKeys)+len(d.Filters)+len(d.NonKeyAttributes)+1)
	keep := func(name string) {
		if av, ok := item[name]; ok && name != d.Attribute {
			view[name] = av
		}
	}
	for _, k := range d.TableKeys {
		keep(k)
	}
	if d.HasPartition() {
		keep(d.Partition.Name)
	}
	for _, f := range d.Filters {
		keep(f.Name)
	}
	if d.Projection == types.ProjectionTypeInclude {
		for _, a := range d.NonKeyAttributes {
			keep(a)
		}
	}
	return view
}

// entrySize is the bytes one entry occupies: 4 per dimension, the vector
// attribute's name, and the other projected attributes as DynamoDB sizes
// them. It is also the basis of the capacity figures (spec 1.7).
func (ix *Index) entrySize(view Item) int32 {
	n := 4*ix.def.Dimensions + len(ix.def.Attribute)
	for name, av := range view {
		if name != ix.def.Attribute { // counted above as 4 bytes per dimension
			n += len(name) + itemsize.Value(av)
		}
	}
	return int32(n)
}
