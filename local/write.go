package local

import (
	"bytes"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/internal/itemsize"
)

// This file is the one place where items change: every write to a table
// goes through (*table).apply with the table locked exclusively, and updates
// the item, every index entry and the size counters together.

// apply replaces the item stored under key (old, nil if absent) with nu (nil
// deletes), maintaining every index, and charges the index writes to mt (the
// caller charges the table's own write).
func (t *table) apply(key []byte, old, nu Item, mt *meter) error {
	return t.applySized(key, old, nu, itemsize.Item(old), itemsize.Item(nu), mt)
}

// applySized is apply with the item sizes already known.
func (t *table) applySized(key []byte, old, nu Item, oldSize, newSize int, mt *meter) error {
	m := t.meta
	if nu == nil {
		if old == nil {
			return nil
		}
		if _, _, err := t.items.Delete(key); err != nil {
			return err
		}
	} else if _, _, err := t.items.Put(key, nu); err != nil {
		return err
	}
	t.size += int64(newSize - oldSize)
	t.syncVectors(key, old, nu, mt)
	if len(t.indexes) == 0 {
		return nil
	}
	var ob, nb []byte
	for _, ix := range t.indexes {
		var oldKey, newKey []byte
		var oldIn, newIn bool
		var err error
		if old != nil {
			if oldKey, oldIn, err = m.appendIndexKey(ob[:0], ix.meta, old); err != nil {
				return err
			}
			ob = oldKey
		}
		if nu != nil {
			if newKey, newIn, err = m.appendIndexKey(nb[:0], ix.meta, nu); err != nil {
				return err
			}
			nb = newKey
		}
		var oldP, newP Item
		if oldIn {
			oldP = project(m, ix.meta, old)
		}
		if newIn {
			newP = project(m, ix.meta, nu)
		}
		sameKey := oldIn && newIn && bytes.Equal(oldKey, newKey)
		if sameKey && equalItems(oldP, newP) {
			continue // the index entry does not change: no write, no cost
		}
		if oldIn && !sameKey {
			if _, _, err := ix.coll.Delete(oldKey); err != nil {
				return err
			}
			ix.size -= int64(itemsize.Item(oldP))
			mt.addIndex(ix.meta.Name, writeUnits(itemsize.Item(oldP)))
		}
		if newIn {
			if _, _, err := ix.coll.Put(newKey, newP); err != nil {
				return err
			}
			ix.size += int64(itemsize.Item(newP))
			size := itemsize.Item(newP)
			if sameKey {
				ix.size -= int64(itemsize.Item(oldP))
				size = max(size, itemsize.Item(oldP))
			}
			mt.addIndex(ix.meta.Name, writeUnits(size))
		}
	}
	return nil
}

// project returns the part of item an index stores: the table and index keys
// plus, by projection type, nothing more, the named attributes, or all.
func project(m *tableMeta, ix *indexMeta, item Item) Item {
	if ix.Projection == string(types.ProjectionTypeAll) {
		return item
	}
	out := make(Item, 4+len(ix.NonKey))
	for _, n := range [...]string{m.Hash.Name, m.Range.Name, ix.Hash.Name, ix.Range.Name} {
		if v, ok := item[n]; ok && n != "" {
			out[n] = v
		}
	}
	for _, n := range ix.NonKey {
		if v, ok := item[n]; ok {
			out[n] = v
		}
	}
	return out
}

func equalItems(a, b Item) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || !equalValues(v, w) {
			return false
		}
	}
	return true
}

// equalValues is structural equality of stored (canonical) values; sets
// compare as stored, which only costs a spurious index write when a set was
// rewritten in another order.
func equalValues(a, b types.AttributeValue) bool {
	if a == b {
		return true
	}
	switch x := a.(type) {
	case *types.AttributeValueMemberS:
		y, ok := b.(*types.AttributeValueMemberS)
		return ok && x.Value == y.Value
	case *types.AttributeValueMemberN:
		y, ok := b.(*types.AttributeValueMemberN)
		return ok && x.Value == y.Value
	case *types.AttributeValueMemberB:
		y, ok := b.(*types.AttributeValueMemberB)
		return ok && bytes.Equal(x.Value, y.Value)
	case *types.AttributeValueMemberBOOL:
		y, ok := b.(*types.AttributeValueMemberBOOL)
		return ok && x.Value == y.Value
	case *types.AttributeValueMemberNULL:
		_, ok := b.(*types.AttributeValueMemberNULL)
		return ok
	case *types.AttributeValueMemberSS:
		y, ok := b.(*types.AttributeValueMemberSS)
		return ok && equalSlices(x.Value, y.Value)
	case *types.AttributeValueMemberNS:
		y, ok := b.(*types.AttributeValueMemberNS)
		return ok && equalSlices(x.Value, y.Value)
	case *types.AttributeValueMemberBS:
		y, ok := b.(*types.AttributeValueMemberBS)
		if !ok || len(x.Value) != len(y.Value) {
			return false
		}
		for i := range x.Value {
			if !bytes.Equal(x.Value[i], y.Value[i]) {
				return false
			}
		}
		return true
	case *types.AttributeValueMemberL:
		y, ok := b.(*types.AttributeValueMemberL)
		if !ok || len(x.Value) != len(y.Value) {
			return false
		}
		for i := range x.Value {
			if !equalValues(x.Value[i], y.Value[i]) {
				return false
			}
		}
		return true
	case *types.AttributeValueMemberM:
		y, ok := b.(*types.AttributeValueMemberM)
		return ok && equalItems(x.Value, y.Value)
	}
	return false
}

func equalSlices(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
