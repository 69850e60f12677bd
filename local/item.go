package local

import (
	"encoding/json"
	"math"

	"github.com/dynamogo/dynamo/internal/limits"
	"github.com/dynamogo/dynamo/local/eval"

	"github.com/dynamogo/dynamo/local/storage"
)

// Single-item actions: PutItem, GetItem, UpdateItem, DeleteItem
// (API_PutItem.html, API_GetItem.html, API_UpdateItem.html, API_DeleteItem.html).

// writeOptions are the members the write actions share.
type writeOptions struct {
	TableName                           *string
	ConditionExpression                 *string
	ExpressionAttributeNames            map[string]string
	ExpressionAttributeValues           itemJSON
	ReturnValues                        *string
	ReturnConsumedCapacity              *string
	ReturnItemCollectionMetrics         *string
	ReturnValuesOnConditionCheckFailure *string

	// Legacy parameters (part 2 of the server implements them).
	Expected            json.RawMessage
	ConditionalOperator json.RawMessage
}

// constraints adds the write's member constraints in the order the service
// lists them (UpdateItem, observed 2026-10-09: ReturnConsumedCapacity,
// TableName, ReturnValues, ConditionalOperator, then the Key the caller adds;
// paritysuite/dynamodb-conformance, tests/tier3/validation-ordering/updateItem.test.ts).
func (o *writeOptions) constraints(cs *constraints) {
	cs.enum(o.ReturnConsumedCapacity, "returnConsumedCapacity", "INDEXES", "TOTAL", "NONE")
	cs.itemTableName(o.TableName, "tableName")
	cs.enum(o.ReturnValues, "returnValues", "ALL_NEW", "UPDATED_OLD", "ALL_OLD", "NONE", "UPDATED_NEW")
	cs.enum(o.ReturnItemCollectionMetrics, "returnItemCollectionMetrics", "SIZE", "NONE")
	cs.enum(o.ReturnValuesOnConditionCheckFailure, "returnValuesOnConditionCheckFailure", "ALL_OLD", "NONE")
	if isSet(o.ConditionalOperator) {
		var op string // escapes to json.Unmarshal: only when there is one
		if json.Unmarshal(o.ConditionalOperator, &op) == nil {
			cs.enum(&op, "conditionalOperator", conditionalOperators...)
		}
	}
}

func isSet(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// compile compiles a request's expressions, mapping eval's errors.
func compile(in eval.Input) (*eval.Compiled, error) {
	c, err := eval.Compile(in)
	if err != nil {
		return nil, evalError(err)
	}
	return c, nil
}

func evalError(err error) error {
	if ee, ok := err.(*eval.Error); ok {
		t := ee.Type
		if t == "" {
			t = "ValidationException"
		}
		return &Error{Type: t, Message: ee.Message}
	}
	if _, ok := err.(*Error); ok {
		return err
	}
	return validation(err.Error())
}

// conditionFailed is the ConditionalCheckFailedException, carrying the old
// item when the request asked for ReturnValuesOnConditionCheckFailure ALL_OLD.
func conditionFailed(old Item, rv *string) error {
	e := conditionalFailed()
	if old != nil && str(rv) == "ALL_OLD" {
		r := newResp()
		r.item("Item", old)
		e.item = r.b[len(`{"Item":`):]
	}
	return e
}

// finishWrite answers a write: ReturnValues' attributes, consumed capacity
// and item collection metrics.
func (s *Server) finishWrite(t *table, o *writeOptions, attrs Item, mt *meter, key Item) (any, error) {
	r := newResp()
	if len(attrs) > 0 {
		if err := r.item("Attributes", attrs); err != nil {
			return nil, err
		}
	}
	if c := mt.result(t.meta); c != nil {
		if err := r.json("ConsumedCapacity", c); err != nil {
			return nil, err
		}
	}
	if str(o.ReturnItemCollectionMetrics) == "SIZE" && t.hasLSI() {
		if err := r.json("ItemCollectionMetrics", t.collectionMetrics(key)); err != nil {
			return nil, err
		}
	}
	return r.done(), nil
}

func (t *table) hasLSI() bool {
	for _, ix := range t.meta.Indexes {
		if ix.Local {
			return true
		}
	}
	return false
}

type itemCollectionMetrics struct {
	ItemCollectionKey   itemJSONOut
	SizeEstimateRangeGB [2]float64
}

// itemJSONOut encodes an item as DynamoDB JSON inside encoding/json output.
type itemJSONOut Item

func (it itemJSONOut) MarshalJSON() ([]byte, error) {
	r := newResp()
	r.item("x", Item(it))
	return r.b[len(`{"x":`):], nil
}

// collectionMetrics sizes the item collection (the table items and LSI
// entries sharing the partition key) of key; the caller holds t.mu.
func (t *table) collectionMetrics(key Item) itemCollectionMetrics {
	pk := key[t.meta.Hash.Name]
	size := 0
	if start, end, err := partitionBounds(pk); err == nil {
		t.items.Ascend(start, end, func(_ []byte, v storage.Value) bool { size += v.Size(); return true })
		for _, ix := range t.indexes {
			if ix.meta.Local {
				ix.coll.Ascend(start, end, func(_ []byte, v storage.Value) bool { size += v.Size(); return true })
			}
		}
	}
	gb := float64(size) / (1 << 30)
	lo := math.Floor(gb)
	return itemCollectionMetrics{
		ItemCollectionKey:   itemJSONOut{t.meta.Hash.Name: pk},
		SizeEstimateRangeGB: [2]float64{lo, lo + 1},
	}
}

// check runs the validation PutItem and DeleteItem share, in DynamoDB's
// order: the request's constraints (with the item or key, named by member,
// required), ReturnValues, the legacy parameters, the values, then the
// condition, which it returns compiled.
func (o *writeOptions) check(member string, values Item) (*eval.Compiled, error) {
	var cs constraints
	o.constraints(&cs)
	if values == nil {
		cs.add(nil, member, ruleNotNull)
	}
	if err := cs.err(); err != nil {
		return nil, err
	}
	if rv := str(o.ReturnValues); rv != "" && rv != "NONE" && rv != "ALL_OLD" {
		return nil, validation("ReturnValues can only be ALL_OLD or NONE")
	}
	if err := o.translateLegacy(); err != nil { // legacy.go
		return nil, err
	}
	if err := checkValues(values); err != nil {
		return nil, err
	}
	return compile(eval.Input{Condition: o.ConditionExpression, Names: o.ExpressionAttributeNames, Values: o.ExpressionAttributeValues})
}

// stored is the item a single-item write replaces.
type stored struct {
	key   []byte        // its storage key
	at    storage.Slot  // where the collection holds key, if it is a storage.Finder
	v     storage.Value // its encoding; the zero Value when there is none
	item  Item          // v decoded, nil when there is none: all of it, or some (see current)
	whole bool          // item holds every attribute
}

// all is the whole stored item (nil when there is none).
func (s stored) all() Item {
	if s.whole {
		return s.item
	}
	return itemOf(s.v)
}

// current is the start every single-item write shares once its input is
// checked: the item's storage key, the item stored there, and the write's
// condition evaluated on it (ConditionalCheckFailed if false). Of the
// stored item only the attributes the write's expressions read or write
// are decoded (eval's ItemAttributes), unless the table's indexes, stream,
// history or vector indexes need all of it (wholeItems); attrs lists them,
// sorted, in buf (a caller's array: most writes name a few). With a
// scratch (sc, else nil) the key and those attributes are decoded into
// its memory, which must then outlive the write and its answer.
func (o *writeOptions) current(t *table, keyItem Item, ex *eval.Compiled, buf []string, sc *batchScratch) (cur stored, attrs []string, err error) {
	// The engine copies the key it stores: room to spare lives only as
	// long as the write, and saves growing the key part by part.
	var kb []byte
	if sc != nil {
		kb = sc.keys[:0]
	}
	if cap(kb) < 64 {
		kb = make([]byte, 0, 64)
	}
	key, err := t.meta.appendItemKey(kb, keyItem)
	if err != nil {
		return stored{}, nil, err
	}
	s := stored{key: key, whole: t.wholeItems()}
	if sc != nil {
		sc.keys = key[:0]
	}
	if f, ok := t.items.(storage.Finder); ok {
		s.v, s.at, err = f.Find(key) // apply writes where it found the key
	} else {
		s.v, _, err = t.items.Get(key)
	}
	if err != nil {
		return stored{}, nil, err
	}
	v := s.v
	switch {
	case s.whole:
		s.item = itemOf(v)
	case !v.IsZero() && sc != nil:
		attrs = ex.ItemAttributes(buf)
		if s.item, err = v.AttrsScratch(sc.itemMap(), attrs, &sc.values); err != nil {
			panic(err) // as attrsOf: a stored encoding is valid
		}
	case !v.IsZero():
		attrs = ex.ItemAttributes(buf)
		s.item = attrsOf(v, nil, attrs)
	}
	if ok, err := ex.Condition(s.item); err != nil {
		return stored{}, nil, evalError(err)
	} else if !ok {
		var old Item
		if str(o.ReturnValuesOnConditionCheckFailure) == "ALL_OLD" {
			old = s.all()
		}
		return stored{}, nil, conditionFailed(old, o.ReturnValuesOnConditionCheckFailure)
	}
	return s, attrs, nil
}

// --- PutItem ---

// checkPut validates an item about to be stored whole, in the one order
// PutItem, BatchWriteItem and TransactWriteItems share: the table's key,
// the index keys, the vector attributes, then the item size. It returns
// the item's encoding (encodeItem), which knows the size.
func (t *table) checkPut(item Item) (storage.Value, error) {
	if err := t.meta.checkKey(item, keyOfItem); err != nil {
		return storage.Value{}, err
	}
	if err := t.meta.checkIndexKeys(item); err != nil {
		return storage.Value{}, err
	}
	if err := t.checkVectors(item); err != nil {
		return storage.Value{}, err
	}
	enc, err := encodeItem(item)
	if err != nil {
		return storage.Value{}, err
	}
	if enc.Size() > limits.MaxItemBytes {
		return storage.Value{}, validation("Item size has exceeded the maximum allowed size")
	}
	return enc, nil
}

type putItemInput struct {
	writeOptions
	Item itemJSON
}

func (s *Server) putItem(c *call) (any, error) {
	var in putItemInput
	if err := in.decode(c.body); err != nil {
		return nil, err
	}
	cond, err := in.writeOptions.check("item", Item(in.Item))
	if err != nil {
		return nil, err
	}
	item := Item(in.Item)
	t, err := s.writeTable(c, *in.TableName)
	if err != nil {
		return nil, err
	}
	defer t.mu.Unlock()
	enc, err := t.checkPut(item)
	if err != nil {
		return nil, err
	}
	var names [8]string
	cur, _, err := in.writeOptions.current(t, item, cond, names[:0], nil)
	if err != nil {
		return nil, err
	}
	mt := &meter{mode: str(in.ReturnConsumedCapacity), write: true, table: writeUnits(max(enc.Size(), cur.v.Size()))}
	if err := t.apply(c, cur, item, enc, mt); err != nil {
		return nil, err
	}
	var attrs Item
	if str(in.ReturnValues) == "ALL_OLD" {
		attrs = cur.all()
	}
	return s.finishWrite(t, &in.writeOptions, attrs, mt, item)
}

// --- DeleteItem ---

type deleteItemInput struct {
	writeOptions
	Key itemJSON
}

func (s *Server) deleteItem(c *call) (any, error) {
	var in deleteItemInput
	if err := in.decode(c.body); err != nil {
		return nil, err
	}
	cond, err := in.writeOptions.check("key", Item(in.Key))
	if err != nil {
		return nil, err
	}
	t, err := s.writeTable(c, *in.TableName)
	if err != nil {
		return nil, err
	}
	defer t.mu.Unlock()
	m := t.meta
	if err := m.checkKey(Item(in.Key), keyOfRequest); err != nil {
		return nil, err
	}
	var names [8]string
	cur, _, err := in.writeOptions.current(t, Item(in.Key), cond, names[:0], nil)
	if err != nil {
		return nil, err
	}
	mt := &meter{mode: str(in.ReturnConsumedCapacity), write: true}
	if err := t.apply(c, cur, nil, storage.Value{}, mt); err != nil {
		return nil, err
	}
	mt.table = writeUnits(cur.v.Size())
	var attrs Item
	if str(in.ReturnValues) == "ALL_OLD" {
		attrs = cur.all()
	}
	return s.finishWrite(t, &in.writeOptions, attrs, mt, Item(in.Key))
}

// --- UpdateItem ---

// errUpdateTooLarge is UpdateItem's text for a result over 400 KB, with the
// expression or AttributeUpdates, alone or in a transaction.
const errUpdateTooLarge = "Item size to update has exceeded the maximum allowed size"

type updateItemInput struct {
	writeOptions
	Key              itemJSON
	UpdateExpression *string
	AttributeUpdates json.RawMessage // legacy (part 2)
}

// updateResult is the item an update leaves: the UpdateExpression applied to old
// or, when there is no item, to its key. It is nil when the update creates
// nothing: on a missing item, an update that only removes attributes writes
// no item (and a nested path to remove is not an error), as in DynamoDB.
func updateResult(ex *eval.Compiled, old, keyItem Item, keyNames []string) (Item, []string, error) {
	if old != nil {
		return ex.Update(old, keyNames)
	}
	return ex.UpdateMissing(cloneItem(keyItem), keyNames)
}

func (s *Server) updateItem(c *call) (any, error) {
	// The request's key and values are decoded into recycled memory: what
	// is stored is encoded, a vector index gets the item decoded from its
	// encoding, and the answer is written before the scratch is released.
	sc := scratchPool.Get().(*batchScratch)
	defer sc.release()
	var in updateItemInput
	if err := in.decodeWith(c.body, sc); err != nil {
		return nil, err
	}
	var cs constraints
	in.constraints(&cs)
	if in.Key == nil {
		cs.add(nil, "key", ruleNotNull)
	}
	if err := cs.err(); err != nil {
		return nil, err
	}
	legacy := isSet(in.AttributeUpdates)
	if err := in.translateLegacy(); err != nil { // legacy.go
		return nil, err
	}
	if err := checkValues(Item(in.Key)); err != nil {
		return nil, err
	}
	ex, err := compile(eval.Input{Condition: in.ConditionExpression, Update: in.UpdateExpression, Names: in.ExpressionAttributeNames, Values: in.ExpressionAttributeValues})
	if err != nil {
		return nil, err
	}
	// Nothing keeps ex or what it gives: what is stored is encoded, and
	// the answer is written before it is released.
	defer ex.Release()
	t, err := s.writeTable(c, *in.TableName)
	if err != nil {
		return nil, err
	}
	defer t.mu.Unlock()
	m := t.meta
	keyItem := Item(in.Key)
	if err := m.checkKey(keyItem, keyOfRequest); err != nil {
		return nil, err
	}
	var names [8]string
	cur, read, err := in.writeOptions.current(t, keyItem, ex, names[:0], sc)
	if err != nil {
		return nil, err
	}
	old, oldSize := cur.item, cur.v.Size()
	partial := old != nil && !cur.whole // old holds only what the expressions name
	var nu Item
	var updated []string
	if partial && str(in.ReturnValues) != "UPDATED_OLD" {
		// Nothing needs old as it was: it becomes the changed attributes.
		nu = old
		updated, err = ex.UpdateInPlace(old, m.keyNames())
	} else {
		nu, updated, err = updateResult(ex, old, keyItem, m.keyNames())
	}
	if legacy && eval.IsTypeMismatch(err) {
		return nil, validation(msgLegacyTypeMismatch)
	}
	if err != nil {
		return nil, evalError(err)
	}
	// The meter is the scratch's: the answer is written before its release.
	mt := &sc.mt
	if nu == nil { // only removals on a missing item: nothing is written
		*mt = meter{mode: str(in.ReturnConsumedCapacity), write: true, table: writeUnits(0)}
		return s.finishWrite(t, &in.writeOptions, nil, mt, keyItem)
	}
	if err := checkValues(nu); err != nil {
		return nil, err
	}
	checkIndexKeys := m.checkUpdatedIndexKeys
	if legacy { // AttributeUpdates has PutItem's wording (DynamoDB Local 3.3.1)
		checkIndexKeys = m.checkIndexKeys
	}
	if err := checkIndexKeys(nu); err != nil {
		return nil, err
	}
	if err := t.checkVectorUpdate(nu, updated); err != nil {
		return nil, err
	}
	var enc storage.Value
	if partial { // nu holds the attributes changed: the others keep their bytes
		enc, err = cur.v.With(nu, read)
	} else {
		enc, err = encodeItem(nu)
	}
	if err != nil {
		return nil, err
	}
	if enc.Size() > limits.MaxItemBytes {
		// UpdateItem's own wording (API_UpdateItem.html's error list).
		return nil, validation(errUpdateTooLarge)
	}
	if t.vectors.Len() > 0 {
		// A vector index keeps a view of the item, whose values from the
		// request the next request reuses (batchScratch).
		nu = itemOf(enc)
	}
	*mt = meter{mode: str(in.ReturnConsumedCapacity), write: true, table: writeUnits(max(enc.Size(), oldSize))}
	if err := t.apply(c, cur, nu, enc, mt); err != nil {
		return nil, err
	}
	var attrs Item
	switch str(in.ReturnValues) {
	case "ALL_OLD":
		attrs = cur.all()
	case "ALL_NEW":
		attrs = nu
		if partial {
			attrs = itemOf(enc)
		}
	case "UPDATED_OLD":
		attrs = ex.UpdatedAttributesIn(old, sc.itemMap())
	case "UPDATED_NEW":
		attrs = ex.UpdatedAttributesIn(nu, sc.itemMap())
	}
	// attrs may be the scratch's: the answer is written before its release.
	return s.finishWrite(t, &in.writeOptions, attrs, mt, keyItem)
}

// --- GetItem ---

type getItemInput struct {
	TableName                *string
	Key                      itemJSON
	ConsistentRead           *bool
	ProjectionExpression     *string
	ExpressionAttributeNames map[string]string
	ReturnConsumedCapacity   *string
	AttributesToGet          json.RawMessage // legacy (part 2)
}

func (s *Server) getItem(c *call) (any, error) {
	var in getItemInput
	if err := in.decode(c.body); err != nil {
		return nil, err
	}
	var cs constraints
	cs.itemTableName(in.TableName, "tableName")
	if in.Key == nil {
		cs.add(nil, "key", ruleNotNull)
	}
	cs.enum(in.ReturnConsumedCapacity, "returnConsumedCapacity", "INDEXES", "TOTAL", "NONE")
	if err := cs.err(); err != nil {
		return nil, err
	}
	if err := in.translateLegacy(); err != nil { // legacy.go
		return nil, err
	}
	if err := checkValues(Item(in.Key)); err != nil {
		return nil, err
	}
	ex, err := compile(eval.Input{Projection: in.ProjectionExpression, Names: in.ExpressionAttributeNames})
	if err != nil {
		return nil, err
	}
	t, err := s.readTable(c, *in.TableName)
	if err != nil {
		return nil, err
	}
	defer t.mu.RUnlock()
	m := t.meta
	if err := m.checkKey(Item(in.Key), keyOfRequest); err != nil {
		return nil, err
	}
	var kb [64]byte
	key, err := m.appendItemKey(kb[:0], Item(in.Key))
	if err != nil {
		return nil, err
	}
	v, _, err := t.items.Get(key)
	if err != nil {
		return nil, err
	}
	r := newResp()
	if !v.IsZero() {
		if err := r.stored("Item", v, ex); err != nil {
			return nil, err
		}
	}
	mt := meter{mode: str(in.ReturnConsumedCapacity), table: readUnits(v.Size(), in.ConsistentRead != nil && *in.ConsistentRead)}
	if cc := mt.result(m); cc != nil {
		if err := r.json("ConsumedCapacity", cc); err != nil {
			return nil, err
		}
	}
	return r.done(), nil
}
