package local

import (
	"bytes"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/internal/itemsize"
	"github.com/dynamogo/dynamo/local/storage"
)

// This file is the one place where items change: every write to a table
// goes through (*table).apply, or stage and (*writeBatch).commit for several
// items at once, with the table locked exclusively. The item, every index
// entry, the stream record (stream.go) and the point-in-time history entry
// (backup_pitr.go) reach the engine as one batch
// (storage.Engine.Apply, all or nothing, one log record on a durable
// engine), so a crash never leaves an index or a stream out of step with
// its table; the vector indexes and stream positions change only once the
// batch is applied. Sizes are the collections' own (storage.Collection.Size),
// so they change with the batch.
//
// On an engine that makes writes durable after applying them
// (storage.Deferred), a write made for a call is applied without waiting:
// its table remembers the write's ticket, the call waits for it before
// answering (Server.run), and so does every call that reads the table
// meanwhile (readTable and the other lockers note the table's ticket). The
// table's lock is thus released before the fsync, and the next writer's
// record joins the same one.

// apply replaces the item cur (which current found, under the lock the
// caller still holds) with nu (nil deletes), whose encoding enc the caller
// made once (encodeItem; its Size is the new size), maintaining every
// index, and charges the index writes to mt (the caller charges the
// table's own write). The write is c's (see commit).
func (t *table) apply(c *call, cur stored, nu Item, enc storage.Value, mt *meter) error {
	b := batchPool.Get().(*writeBatch)
	defer b.release()
	if err := t.stage(b, cur.key, cur.item, nu, enc, mt); err != nil {
		return err
	}
	if len(b.ops) > 0 && !enc.IsZero() {
		// The item's own write, stage's first, goes where current found
		// its key rather than searching the table again.
		b.ops[0].At = cur.at
	}
	return b.commit(t.engine, c)
}

// encodeItem is the encoding of an item about to be written, made once
// per write: the table and its ALL indexes store it, a stream record of
// the new image too, and its Size is the item's size. A nil item (a
// delete) is the zero Value.
func encodeItem(nu Item) (storage.Value, error) {
	if nu == nil {
		return storage.Value{}, nil
	}
	return storage.Encode(nu)
}

// batchPool keeps single-item writes from allocating a batch each.
var batchPool = sync.Pool{New: func() any { return new(writeBatch) }}

// release empties b (dropping its references to items) and pools it.
func (b *writeBatch) release() {
	if cap(b.ops) > 64 {
		return // a batch of many indexes or items: let it go
	}
	clear(b.ops)
	clear(b.items)
	clear(b.records)
	b.ops, b.items, b.records = b.ops[:0], b.items[:0], b.records[:0]
	batchPool.Put(b)
}

// writeBatch is the engine writes of one or more item writes, and what to
// update in memory once the engine has applied them.
type writeBatch struct {
	ops   []storage.Op
	items []stagedItem

	records []pendingRecord // stream records (stream.go)
	ttl     bool            // the deletes are time to live's (their records say so)
}

// stagedItem is one item write of a batch.
type stagedItem struct {
	t       *table
	key     []byte
	old, nu Item
	mt      *meter
}

// commit applies the batch to the engine, all or nothing, then updates the
// tables' vector indexes. An empty batch is a no-op. A write for
// c does not wait for a Deferred engine to make it durable: c and the
// written tables note its ticket instead, and c waits once it has
// unlocked them (Server.durable). Without a call (a restore's fill) the
// write is durable when commit returns.
func (b *writeBatch) commit(e storage.Engine, c *call) error {
	if len(b.items) == 0 {
		return nil
	}
	var tk storage.Ticket
	if d, ok := e.(storage.Deferred); ok && c != nil {
		var err error
		if tk, err = d.ApplyDeferred(b.ops); err != nil {
			return err
		}
		c.see(tk)
	} else if err := e.Apply(b.ops); err != nil {
		return err
	}
	for _, w := range b.items {
		w.t.ticket = max(w.t.ticket, tk)
		w.t.syncVectors(w.key, w.old, w.nu, w.mt)
	}
	for _, r := range b.records {
		r.committed()
	}
	return nil
}

// applyNoting applies ops that maintain a table (its stream's shards and
// trimming, its point-in-time history) for whatever call holds the
// table's lock. On a Deferred engine it does not wait for the fsync under
// that lock: ticket, the table's, notes the batch, so whoever reads or
// writes the table next waits for it (and the writer that caused it waits
// for its own later batch, which covers it).
func applyNoting(e storage.Engine, ops []storage.Op, ticket *storage.Ticket) error {
	d, ok := e.(storage.Deferred)
	if !ok || ticket == nil { // nil: a stream left by a deleted table
		return e.Apply(ops)
	}
	tk, err := d.ApplyDeferred(ops)
	if err == nil {
		*ticket = max(*ticket, tk)
	}
	return err
}

// wholeItems reports whether stage needs the whole old and new items of a
// write, for the table's index entries, stream records, point-in-time log
// or vector indexes. Without them it needs only to know whether there was
// an item and will be one, so a write may pass just the attributes it
// decoded or changed (any non-nil map stands for an item).
func (t *table) wholeItems() bool {
	return len(t.indexes) > 0 || t.stream != nil || t.history != nil || t.vectors.Len() > 0
}

// stage adds to b the writes that replace the item under key (old; nil if
// absent) with nu (nil deletes), encoded as enc (encodeItem): the item and
// each index entry that changes. It charges the index writes to mt;
// nothing changes until commit. On error b is left as it was. A put may
// pass old nil for an item it replaces when t.wholeItems() is false:
// nothing reads it then.
func (t *table) stage(b *writeBatch, key []byte, old Item, nu Item, enc storage.Value, mt *meter) (err error) {
	if nu == nil && old == nil {
		return nil
	}
	nops, nitems, nrecs := len(b.ops), len(b.items), len(b.records)
	defer func() {
		if err != nil {
			b.ops, b.items, b.records = b.ops[:nops], b.items[:nitems], b.records[:nrecs]
		}
	}()
	m := t.meta
	if b.ops == nil {
		b.ops = make([]storage.Op, 0, 1+2*len(t.indexes))
	}
	b.ops = append(b.ops, storage.Put(t.items, key, enc))
	b.items = append(b.items, stagedItem{t: t, key: key, old: old, nu: nu, mt: mt})
	if t.stream != nil {
		if err = t.stream.stageRecord(b, old, nu, enc); err != nil {
			return err
		}
	}
	if t.history != nil {
		if err = t.history.stage(b, key, old); err != nil {
			return err
		}
	}
	for _, ix := range t.indexes {
		var oldKey, newKey []byte
		var oldIn, newIn bool
		// Each key is its own allocation: the batch holds it until commit.
		if old != nil {
			if oldKey, oldIn, err = m.appendIndexKey(nil, ix.meta, old); err != nil {
				return err
			}
		}
		if nu != nil {
			if newKey, newIn, err = m.appendIndexKey(nil, ix.meta, nu); err != nil {
				return err
			}
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
			b.ops = append(b.ops, storage.Delete(ix.coll, oldKey))
			mt.addIndex(ix.meta.Name, writeUnits(itemsize.Item(oldP)))
		}
		if newIn {
			encP := enc
			if ix.meta.Projection != string(types.ProjectionTypeAll) {
				if encP, err = storage.Encode(newP); err != nil {
					return err
				}
			}
			b.ops = append(b.ops, storage.Put(ix.coll, newKey, encP))
			size := itemsize.Item(newP)
			if sameKey {
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
	for _, n := range append([]string{m.Hash.Name, m.Range.Name}, ix.keyNames()...) {
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
// rewritten in another order. It differs from avtype.Equal (DynamoDB's =,
// numbers by value, sets in any order) on purpose: stored numbers are
// already canonical, so comparing their text is exact, and the write path
// runs this on every GSI/LSI of every write, where a parse per number and a
// map per set would cost for nothing but the rare reordered set.
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
