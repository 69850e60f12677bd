package vector

import (
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/internal/avtype"
)

// Check validates an item about to be written (PutItem, BatchWriteItem,
// TransactWriteItems Put, and the result of an UpdateItem) against the
// index, with the service's messages (spec/vector-search.md, section 2.5).
// A missing vector or HASH attribute is no error: the item is just not in
// the index. A failure rejects the whole write.
func (ix *Index) Check(item Item) error { return ix.check(item, nil, false) }

// CheckUpdate is Check for UpdateItem: only the attributes the update
// changed (updated, the top-level names local/eval reports) are checked, so
// an item stored before the index existed can still be updated elsewhere;
// an empty HASH value gets the update wording.
func (ix *Index) CheckUpdate(item Item, updated []string) error {
	return ix.check(item, updated, true)
}

func (ix *Index) check(item Item, updated []string, viaUpdate bool) error {
	d := &ix.def
	touched := func(name string) bool { return !viaUpdate || slices.Contains(updated, name) }
	if av, ok := item[d.Attribute]; ok && touched(d.Attribute) {
		if err := ix.checkVector(av); err != nil {
			return err
		}
	}
	if d.HasPartition() {
		if av, ok := item[d.Partition.Name]; ok && touched(d.Partition.Name) {
			if err := ix.checkType(d.Partition, av); err != nil {
				return err
			}
			if isEmptyScalar(av) {
				kind := "string"
				if d.Partition.Type == types.ScalarAttributeTypeB {
					kind = "binary"
				}
				if viaUpdate {
					return validation("One or more parameter values are not valid. The update expression attempted to update a secondary index key to a value that is not supported. The AttributeValue for a key attribute cannot contain an empty " + kind + " value.")
				}
				return validation(fmt.Sprintf("One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty %s value. IndexName: %s, IndexKey: %s", kind, d.Name, d.Partition.Name))
			}
		}
	}
	for _, f := range d.Filters {
		if av, ok := item[f.Name]; ok && touched(f.Name) {
			if err := ix.checkType(f, av); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkVector: elements are checked before the length, as the service
// checks a search vector (the write-path order is not captured).
func (ix *Index) checkVector(av types.AttributeValue) error {
	d := &ix.def
	l, ok := av.(*types.AttributeValueMemberL)
	if !ok {
		return validation(fmt.Sprintf("One or more parameter values were invalid. Invalid type for parameter %s, Expected: 32-bit floating point number list IndexName: %s", d.Attribute, d.Name))
	}
	for i, e := range l.Value {
		n, ok := e.(*types.AttributeValueMemberN)
		if !ok {
			return validation(fmt.Sprintf("One or more parameter values were invalid. Invalid type for parameter %s[%d], Expected: 32-bit floating point number, Actual: %s. IndexName: %s", d.Attribute, i, typeName(e), d.Name))
		}
		if _, syntax, inRange := parseStoredFloat32(n.Value); !syntax || !inRange {
			return validation(fmt.Sprintf("One or more parameter values were invalid. Invalid value for parameter %s[%d], Value: %s is outside valid range [-3.4028235E38, 3.4028235E38]. IndexName: %s", d.Attribute, i, n.Value, d.Name))
		}
	}
	if len(l.Value) != d.Dimensions {
		return validation(fmt.Sprintf("One or more parameter values were invalid. Invalid size for parameter %s, Expected: %d, Actual: %d IndexName: %s", d.Attribute, d.Dimensions, len(l.Value), d.Name))
	}
	return nil
}

func (ix *Index) checkType(a Attr, av types.AttributeValue) error {
	if t := typeName(av); t != string(a.Type) {
		return validation(fmt.Sprintf("One or more parameter values were invalid. Attribute '%s' type mismatch. Expected: %s, Actual: %s. IndexName: %s", a.Name, a.Type, t, ix.def.Name))
	}
	return nil
}

// WriteBytes is the VectorWriteRequestBytes of a write that turns the item
// old into new (either nil for a create or a delete) in this index: 0 when
// the index's stored view does not change (an identical overwrite, or a
// write that touches none of its attributes), else the size of the entry
// written (or removed), at least 1024 (spec/vector-search.md 1.7).
func (ix *Index) WriteBytes(old, new Item) float64 {
	ov, oi := ix.entryOf(old)
	nv, ni := ix.entryOf(new)
	if !oi && !ni {
		return 0
	}
	if oi && ni && avtype.EqualItems(ov, nv) {
		return 0
	}
	view := nv
	if !ni {
		view = ov
	}
	return float64(max(ix.entrySize(view), MinRequestBytes))
}

// entryOf is the index's stored view of item including its vector, and
// whether the item is indexed at all.
func (ix *Index) entryOf(item Item) (Item, bool) {
	if item == nil {
		return nil, false
	}
	d := &ix.def
	if d.HasPartition() {
		if _, ok := ix.hashKey(item); !ok {
			return nil, false
		}
	}
	vec := make([]float32, d.Dimensions)
	if !parseVector(item[d.Attribute], vec) {
		return nil, false
	}
	view := ix.project(item)
	for k := range view {
		if !d.projects(k) {
			delete(view, k)
		}
	}
	view[d.Attribute] = vectorValue(vec)
	return view, true
}

// Set is a table's vector indexes in declaration order, so the server can
// keep them in step with one call per write. Adding and removing indexes is
// not synchronised: do it under the table's write lock (UpdateTable).
type Set struct {
	indexes []*Index
}

// Add appends an index (CreateTable, or UpdateTable's Create once built).
func (s *Set) Add(ix *Index) { s.indexes = append(s.indexes, ix) }

// Remove drops the index named name and reports whether it was there.
func (s *Set) Remove(name string) bool {
	i := slices.IndexFunc(s.indexes, func(ix *Index) bool { return ix.def.Name == name })
	if i < 0 {
		return false
	}
	s.indexes = slices.Delete(s.indexes, i, i+1)
	return true
}

// Get returns the index named name, or nil.
func (s *Set) Get(name string) *Index {
	for _, ix := range s.indexes {
		if ix.def.Name == name {
			return ix
		}
	}
	return nil
}

// All returns the indexes in declaration order.
func (s *Set) All() []*Index { return slices.Clone(s.indexes) }

// Len returns the number of indexes.
func (s *Set) Len() int { return len(s.indexes) }

// Check runs [Index.Check] for every index, in declaration order; the
// first failure names its index.
func (s *Set) Check(item Item) error {
	for _, ix := range s.indexes {
		if err := ix.Check(item); err != nil {
			return err
		}
	}
	return nil
}

// CheckUpdate runs [Index.CheckUpdate] for every index.
func (s *Set) CheckUpdate(item Item, updated []string) error {
	for _, ix := range s.indexes {
		if err := ix.CheckUpdate(item, updated); err != nil {
			return err
		}
	}
	return nil
}

// Upsert runs [Index.Upsert] for every index.
func (s *Set) Upsert(key string, item Item) {
	for _, ix := range s.indexes {
		ix.Upsert(key, item)
	}
}

// Delete runs [Index.Delete] for every index.
func (s *Set) Delete(key string) {
	for _, ix := range s.indexes {
		ix.Delete(key)
	}
}

// WriteBytes returns ConsumedCapacity.VectorIndexes for a write from old to
// new: index name → VectorWriteRequestBytes, only for the indexes whose
// stored view changed; nil when none did. Report it only under
// ReturnConsumedCapacity INDEXES.
func (s *Set) WriteBytes(old, new Item) map[string]float64 {
	var out map[string]float64
	for _, ix := range s.indexes {
		if b := ix.WriteBytes(old, new); b > 0 {
			if out == nil {
				out = make(map[string]float64, len(s.indexes))
			}
			out[ix.def.Name] = b
		}
	}
	return out
}
