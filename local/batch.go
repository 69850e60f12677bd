package local

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/dynamogo/dynamo/codec/ddbjson"
	"github.com/dynamogo/dynamo/internal/itemsize"
	"github.com/dynamogo/dynamo/internal/limits"
	"github.com/dynamogo/dynamo/local/eval"
	"github.com/dynamogo/dynamo/local/storage"
)

// BatchGetItem and BatchWriteItem (API_BatchGetItem.html,
// API_BatchWriteItem.html). The whole request is validated before anything
// runs; a batch write then applies each request atomically per item (a batch
// is not a transaction), holding the locks of all its tables.

const (
	dupKeys           = "Provided list of item keys contains duplicates"
	tooManyGetItems   = "Too many items requested for the BatchGetItem call"
	tooManyWriteItems = "Too many items requested for the BatchWriteItem call"
)

type keysAndAttributes struct {
	Keys                     []itemJSON
	ProjectionExpression     *string           `json:",omitempty"`
	ExpressionAttributeNames map[string]string `json:",omitempty"`
	ConsistentRead           *bool             `json:",omitempty"`
	AttributesToGet          json.RawMessage   `json:",omitempty"`
}

type batchGetInput struct {
	RequestItems           map[string]*keysAndAttributes
	ReturnConsumedCapacity *string
}

// sortedKeys returns m's keys in order, so that work over several tables or
// attributes runs, and reports, deterministically.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// checkRequestItems adds BatchGetItem's constraints on RequestItems as a
// whole (present, not empty) and returns the table names in order; the
// caller checks each table's entry.
func checkRequestItems(cs *constraints, items map[string]*keysAndAttributes) []string {
	names := sortedKeys(items)
	if items == nil {
		cs.add(nil, "requestItems", ruleNotNull)
	} else if len(items) == 0 {
		cs.addAt("RequestItems", "Member must have length greater than or equal to 1")
	}
	checkTableKeys(cs, names)
	return names
}

// checkTableKeys adds the constraint on RequestItems' keys, the table names
// (3 to 255 of [a-zA-Z0-9_.-]), reported once for the map. The service
// echoes the whole map (BatchGetItem with RequestItems {"bad!name": …},
// observed 2026-10-09: paritysuite/dynamodb-conformance,
// tests/tier3/validation-ordering/batchOperations.test.ts); the keys it
// holds are item values, which no message here quotes, so this names the
// member the way the service's newer validation does.
func checkTableKeys(cs *constraints, names []string) {
	for _, n := range names {
		var one constraints
		one.name(&n, "", true)
		if one.msgs != nil {
			cs.addAt("RequestItems", msgBatchTableNames)
			return
		}
	}
}

func (s *Server) batchGetItem(c *call) (any, error) {
	sc := scratchPool.Get().(*batchScratch)
	defer sc.release()
	var in batchGetInput
	if err := decodeFast(c, &in, func(in *batchGetInput, b []byte) error { return in.decodeWith(b, sc) }); err != nil {
		return nil, err
	}
	var cs constraints
	names := checkRequestItems(&cs, in.RequestItems)
	for _, n := range names {
		ka := in.RequestItems[n]
		// The service's messages as of 2026 (paritysuite/dynamodb-conformance,
		// tests/tier3/error-messages/batchGetItem.test.ts).
		if ka == nil || ka.Keys == nil {
			cs.add(nil, "requestItems."+n+".member.keys", ruleNotNull)
		} else if len(ka.Keys) == 0 {
			cs.addAt("RequestItems."+n+".member.Keys", "Member must have length greater than or equal to 1")
		} else if len(ka.Keys) > limits.MaxBatchGet {
			cs.addAt("RequestItems."+n+".member.Keys", "Member must have length less than or equal to 100")
		}
	}
	cs.enum(in.ReturnConsumedCapacity, "returnConsumedCapacity", "INDEXES", "TOTAL", "NONE")
	if err := cs.err(); err != nil {
		return nil, err
	}
	total := 0
	for _, n := range names {
		total += len(in.RequestItems[n].Keys)
	}
	if total > limits.MaxBatchGet {
		return nil, validation(tooManyGetItems)
	}

	type tableRead struct {
		name string
		ka   *keysAndAttributes
		ex   *eval.Compiled
		keys [][]byte
		got  []outItem
	}
	reads := make([]tableRead, 0, len(names))
	for _, n := range names {
		ka := in.RequestItems[n]
		if err := ka.translateLegacy(); err != nil { // legacy.go
			return nil, err
		}
		ex, err := compile(eval.Input{Projection: ka.ProjectionExpression, Names: ka.ExpressionAttributeNames})
		if err != nil {
			return nil, err
		}
		reads = append(reads, tableRead{name: n, ka: ka, ex: ex})
	}
	// Check every key against its table before reading anything. The keys
	// and the items found fill the scratch's lists, a part per table.
	keys, keyList := sc.keys[:0], slices.Grow(sc.keyList[:0], total)
	defer func() { sc.keys, sc.keyList = keys, keyList }()
	for ri := range reads {
		rd := &reads[ri]
		t, err := s.lookup(rd.name)
		if err != nil {
			return nil, err
		}
		t.mu.RLock()
		m := t.meta
		first := len(keyList)
		for _, k := range rd.ka.Keys {
			if err = checkValues(Item(k)); err == nil {
				err = m.checkKey(Item(k), keyOfRequest)
			}
			if err != nil {
				break
			}
			var b []byte
			if keys, b, err = appendKey(keys, m, Item(k)); err != nil {
				break
			}
			if hasKey(keyList[first:], b) {
				err = validation(dupKeys)
				break
			}
			keyList = append(keyList, b)
		}
		rd.keys = keyList[first:]
		t.mu.RUnlock()
		if err != nil {
			return nil, err
		}
	}

	unprocessed := c.fault.Unprocessed
	skipFrom := total - unprocessed // keys at or after this position are left unprocessed
	pos, bytesOut := 0, 0
	var unproc map[string]*keysAndAttributes
	var caps []*consumedCapacity
	got := slices.Grow(sc.found[:0], total)
	defer func() { sc.found = got }()
	for ri := range reads {
		rd := &reads[ri]
		t, err := s.readTable(c, rd.name)
		if err != nil {
			return nil, err
		}
		consistent := rd.ka.ConsistentRead != nil && *rd.ka.ConsistentRead
		mt := meter{mode: str(in.ReturnConsumedCapacity)}
		first := len(got)
		for i, k := range rd.keys {
			if pos >= skipFrom || bytesOut >= limits.MaxBatchGetResponseBytes {
				u := unproc[rd.name]
				if unproc == nil {
					unproc = map[string]*keysAndAttributes{}
				}
				if u == nil {
					u = &keysAndAttributes{ProjectionExpression: rd.ka.ProjectionExpression, ExpressionAttributeNames: rd.ka.ExpressionAttributeNames, ConsistentRead: rd.ka.ConsistentRead}
					unproc[rd.name] = u
				}
				u.Keys = append(u.Keys, rd.ka.Keys[i])
				pos++
				continue
			}
			pos++
			v, _, err := t.items.Get(k)
			if err != nil {
				t.mu.RUnlock()
				return nil, err
			}
			// Each item is rounded up to 4 KB on its own, and a key with
			// no item costs what GetItem of it does (API_BatchGetItem.html).
			mt.table += readUnits(v.Size(), consistent)
			switch {
			case v.IsZero():
			case rd.ex.HasProjection():
				p := rd.ex.Project(attrsOf(v, nil, rd.ex.ProjectionAttributes()))
				bytesOut += itemsize.Item(p)
				got = append(got, outItem{it: p})
			default:
				bytesOut += v.Size()
				got = append(got, outItem{v: v})
			}
		}
		rd.got = got[first:]
		if cc := mt.result(t.meta); cc != nil {
			caps = append(caps, cc)
		}
		t.mu.RUnlock()
	}
	// The members in encoding/json's order (sorted), as the tables are.
	r := newResp()
	if caps != nil {
		if err := r.json("ConsumedCapacity", caps); err != nil {
			return nil, err
		}
	}
	r.key("Responses")
	r.b = append(r.b, '{')
	for ri, rd := range reads {
		if ri > 0 {
			r.b = append(r.b, ',')
		}
		r.b = appendJSONString(r.b, rd.name)
		r.b = append(r.b, ':')
		if err := r.itemList(rd.got); err != nil {
			return nil, err
		}
	}
	r.b = append(r.b, '}')
	if len(unproc) == 0 {
		r.raw("UnprocessedKeys", []byte("{}"))
	} else if err := r.json("UnprocessedKeys", marshalUnprocessedKeys(unproc)); err != nil {
		return nil, err
	}
	return r.done(), nil
}

func marshalUnprocessedKeys(m map[string]*keysAndAttributes) map[string]any {
	out := map[string]any{}
	for n, ka := range m {
		keys := make([]itemJSONOut, len(ka.Keys))
		for i, k := range ka.Keys {
			keys[i] = itemJSONOut(k)
		}
		e := map[string]any{"Keys": keys}
		if ka.ProjectionExpression != nil {
			e["ProjectionExpression"] = *ka.ProjectionExpression
		}
		if ka.ExpressionAttributeNames != nil {
			e["ExpressionAttributeNames"] = ka.ExpressionAttributeNames
		}
		if ka.ConsistentRead != nil {
			e["ConsistentRead"] = *ka.ConsistentRead
		}
		out[n] = e
	}
	return out
}

type writeRequest struct {
	PutRequest    *putRequest
	DeleteRequest *deleteRequest
}

type putRequest struct{ Item itemJSON }

type deleteRequest struct{ Key itemJSON }

type batchWriteInput struct {
	RequestItems                map[string][]*writeRequest
	ReturnConsumedCapacity      *string
	ReturnItemCollectionMetrics *string
}

// batchWriteItem runs in four phases: validate the request as a whole,
// plan each write against its locked table (the per-item checks, duplicate
// keys), apply the planned writes as one engine batch, and describe the
// outcome.
func (s *Server) batchWriteItem(c *call) (any, error) {
	sc := scratchPool.Get().(*batchScratch)
	defer sc.release()
	var in batchWriteInput
	if err := decodeFast(c, &in, func(in *batchWriteInput, b []byte) error { return in.decodeWith(b, sc) }); err != nil {
		return nil, err
	}
	names, err := validateBatchWrite(&in)
	if err != nil {
		return nil, err
	}
	tables, unlock, err := s.writeTables(c, names)
	if err != nil {
		return nil, err
	}
	defer unlock()
	ops, err := planBatchWrite(&in, names, tables, sc)
	if err != nil {
		return nil, err
	}
	// A fault may leave the last requests unprocessed.
	done := ops[:len(ops)-min(max(c.fault.Unprocessed, 0), len(ops))]
	meters, err := s.applyBatchWrite(c, &in, done)
	if err != nil {
		return nil, err
	}
	return batchWriteOutput(&in, tables, done, ops[len(done):], meters)
}

// batchWriteOp is one planned write of a BatchWriteItem.
type batchWriteOp struct {
	table string
	t     *table
	key   []byte
	item  Item          // nil: delete
	enc   storage.Value // the item's encoding
	keyAV Item          // the key's attributes (the item itself for a put)
	req   *writeRequest
}

// batchScratch is the working memory of a batch request (and of an
// UpdateItem's key and values), pooled: the
// decoder of its items and keys (whose strings and values it reuses) and
// the maps they are decoded into, the storage keys of its items, and the
// writes it plans (BatchWriteItem) or the keys it reads and the items it
// answers with (BatchGetItem). Nothing keeps a request's decoded items
// once it is answered (the engine, stream, history and indexes store
// encodings, a vector index copies what it keeps, and no message quotes a
// value), the engine copies the keys it stores, and the answer is written
// before the scratch is released.
type batchScratch struct {
	items   *ddbjson.Decoder
	maps    []Item // maps[:nmaps] are this request's; the rest are empty
	nmaps   int
	keys    []byte
	ops     []batchWriteOp
	keyList [][]byte
	found   []outItem
	values  storage.Scratch // the stored attributes an UpdateItem reads (current)
	mt      meter           // an UpdateItem's
	strs    [8]string       // an UpdateItem's or Query's string members (rawString)
	nstrs   int
	names   map[string]string // their ExpressionAttributeNames (rawNames)
	interns map[string]string // strings of earlier requests (intern)
}

// Interned strings are at most this long, and at most this many are kept:
// what repeats from request to request (table names, expressions, enums,
// placeholders) is short.
const maxInternLen, maxInterns = 256, 64

// intern returns b as a string: the one sc made for an earlier request
// that sent the same bytes, or a new one it keeps for the next. Strings are
// immutable, so a request may keep what it is given; when the table is
// full it starts over.
func (sc *batchScratch) intern(b []byte) string {
	if s, ok := sc.interns[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(s) <= maxInternLen {
		if sc.interns == nil {
			sc.interns = make(map[string]string, maxInterns)
		} else if len(sc.interns) >= maxInterns {
			clear(sc.interns)
		}
		sc.interns[s] = s
	}
	return s
}

var scratchPool = sync.Pool{New: func() any { return new(batchScratch) }}

// itemMap returns an empty map for a decoded item or key, recycled from an
// earlier request when there is one.
func (sc *batchScratch) itemMap() Item {
	if sc.nmaps == len(sc.maps) {
		sc.maps = append(sc.maps, nil)
	}
	m := sc.maps[sc.nmaps]
	if m == nil {
		m = make(Item, 8) // the few attributes of a typical item, in one group
		sc.maps[sc.nmaps] = m
	}
	sc.nmaps++
	return m
}

// decoder returns sc's items decoder, reset to decode items inside b (the
// strings and values of the request before are reused); the caller
// releases it once decoded.
func (sc *batchScratch) decoder(b []byte) *ddbjson.Decoder {
	if sc.items == nil {
		sc.items = ddbjson.NewDecoder(nil)
	}
	sc.items.Reset(b)
	return sc.items
}

// release clears sc (it must not keep items or tables alive) and pools it
// unless a large request grew it.
func (sc *batchScratch) release() {
	if cap(sc.keys) > 16<<10 || cap(sc.ops) > 2*limits.MaxBatchWrite || cap(sc.keyList) > 2*limits.MaxBatchGet ||
		cap(sc.found) > 2*limits.MaxBatchGet || len(sc.maps) > 2*limits.MaxBatchGet {
		return
	}
	sc.clear()
	scratchPool.Put(sc)
}

// clear makes sc ready for another request. A map that grew past one group
// (Go maps never shrink) is dropped.
func (sc *batchScratch) clear() {
	for i, m := range sc.maps[:sc.nmaps] {
		if len(m) > 8 {
			sc.maps[i] = nil
		}
		clear(m)
	}
	sc.nmaps = 0
	clear(sc.ops[:cap(sc.ops)])
	clear(sc.keyList[:cap(sc.keyList)])
	clear(sc.found[:cap(sc.found)])
	sc.values.Clear()
	sc.mt = meter{}
	sc.strs, sc.nstrs = [8]string{}, 0
	if len(sc.names) > 8 {
		sc.names = nil
	}
	clear(sc.names)
}

// validateBatchWrite checks the request's shape (constraint messages, then
// the total number of requests) and returns its table names, sorted.
func validateBatchWrite(in *batchWriteInput) ([]string, error) {
	if len(in.RequestItems) == 0 {
		return nil, validation(msgBatchWriteRequired)
	}
	// An unknown enum is reported alone, ahead of a table name that breaks
	// its constraint (observed 2026-10-09, ibid.).
	var enums constraints
	enums.enum(in.ReturnConsumedCapacity, "returnConsumedCapacity", "INDEXES", "TOTAL", "NONE")
	enums.enum(in.ReturnItemCollectionMetrics, "returnItemCollectionMetrics", "SIZE", "NONE")
	names := sortedKeys(in.RequestItems)
	var keys constraints
	if checkTableKeys(&keys, names); keys.msgs != nil && enums.msgs == nil {
		return nil, keys.err()
	}
	var cs constraints
	for _, n := range names {
		switch l := len(in.RequestItems[n]); {
		case in.RequestItems[n] == nil:
			cs.add(nil, "requestItems."+n+".member", ruleNotNull)
		case l == 0:
			cs.msgs = append(cs.msgs, fmt.Sprintf(msgBatchWriteEmptyList, n))
		case l > limits.MaxBatchWrite:
			cs.addAt("RequestItems."+n+".member", "Member must have length less than or equal to 25")
		}
	}
	cs.msgs = append(cs.msgs, enums.msgs...)
	if err := cs.err(); err != nil {
		return nil, err
	}
	total := 0
	for _, n := range names {
		total += len(in.RequestItems[n])
	}
	if total > limits.MaxBatchWrite {
		return nil, validation(tooManyWriteItems)
	}
	return names, nil
}

// planBatchWrite checks every request against its table, in table-name
// order and then request order, and returns the writes; two requests for
// one key are an error.
func planBatchWrite(in *batchWriteInput, names []string, tables map[string]*table, sc *batchScratch) ([]batchWriteOp, error) {
	total := 0
	for _, n := range names {
		total += len(in.RequestItems[n])
	}
	ops, keys := sc.ops[:0], sc.keys[:0]
	if cap(ops) < total {
		ops = make([]batchWriteOp, 0, total)
	}
	defer func() { sc.ops, sc.keys = ops, keys }()
	for _, n := range names {
		t := tables[n]
		m := t.meta
		first := len(ops) // this table's ops
		for _, wr := range in.RequestItems[n] {
			if wr == nil || (wr.PutRequest == nil) == (wr.DeleteRequest == nil) {
				// Not documented; DynamoDB Local 3.3.1 answers with the
				// message of its union check, so we do too.
				return nil, validation("Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes")
			}
			o := batchWriteOp{table: n, t: t, req: wr}
			if wr.PutRequest != nil {
				it := Item(wr.PutRequest.Item)
				if it == nil {
					return nil, validationf("1 validation error detected: Value null at 'requestItems.%s.member.putRequest.item' failed to satisfy constraint: %s", n, ruleNotNull)
				}
				if err := checkValues(it); err != nil {
					return nil, err
				}
				enc, err := t.checkPut(it)
				if err != nil {
					return nil, err
				}
				if t.vectors.Len() > 0 {
					// A vector index keeps a view of the item after the
					// request, whose decoded values the next batch reuses
					// (batchScratch): it gets the item decoded from its
					// encoding instead.
					it = itemOf(enc)
				}
				o.item, o.enc = it, enc
				o.keyAV = o.item
			} else {
				k := Item(wr.DeleteRequest.Key)
				if k == nil {
					return nil, validationf("1 validation error detected: Value null at 'requestItems.%s.member.deleteRequest.key' failed to satisfy constraint: %s", n, ruleNotNull)
				}
				if err := checkValues(k); err != nil {
					return nil, err
				}
				if err := m.checkKey(k, keyOfRequest); err != nil {
					return nil, err
				}
				o.keyAV = k
			}
			var err error
			if keys, o.key, err = appendKey(keys, m, o.keyAV); err != nil {
				return nil, err
			}
			// At most 25 keys: comparing them costs less than a map.
			if slices.ContainsFunc(ops[first:], func(p batchWriteOp) bool { return sameKey(p.key, o.key) }) {
				return nil, validation(dupKeys)
			}
			ops = append(ops, o)
		}
	}
	return ops, nil
}

// applyBatchWrite stages the writes and commits them to the engine as one
// batch: one fsync on a durable engine rather than one per item. (Keys are
// distinct, checked by planBatchWrite, so each write's old item is read
// before any of the batch applies.) It returns each table's meter.
func (s *Server) applyBatchWrite(c *call, in *batchWriteInput, ops []batchWriteOp) (map[string]*meter, error) {
	meters := map[string]*meter{}
	batch := batchPool.Get().(*writeBatch)
	defer batch.release()
	var mt *meter
	for i, o := range ops {
		t := o.t
		if i == 0 || o.t != ops[i-1].t { // a table's ops are together
			mt = &meter{mode: str(in.ReturnConsumedCapacity), write: true}
			meters[o.table] = mt
		}
		v, _, err := t.items.Get(o.key)
		if err != nil {
			return nil, err
		}
		var old Item
		if !v.IsZero() && (o.item == nil || t.wholeItems()) {
			old = itemOf(v)
		}
		oldSize, newSize := v.Size(), o.enc.Size()
		if err := t.stage(batch, o.key, old, o.item, o.enc, mt); err != nil {
			return nil, err
		}
		mt.table += writeUnits(max(newSize, oldSize))
	}
	if err := batch.commit(s.engine, c); err != nil {
		return nil, err
	}
	return meters, nil
}

// batchWriteOutput is the response: the unprocessed requests as sent, and
// the consumed capacity and item collection metrics when asked for.
func batchWriteOutput(in *batchWriteInput, tables map[string]*table, done, unprocessed []batchWriteOp, meters map[string]*meter) (rawJSON, error) {
	outUnproc := map[string][]map[string]any{}
	for _, o := range unprocessed {
		wr := o.req
		if wr.PutRequest != nil {
			outUnproc[o.table] = append(outUnproc[o.table], map[string]any{"PutRequest": map[string]any{"Item": itemJSONOut(wr.PutRequest.Item)}})
		} else {
			outUnproc[o.table] = append(outUnproc[o.table], map[string]any{"DeleteRequest": map[string]any{"Key": itemJSONOut(wr.DeleteRequest.Key)}})
		}
	}
	// The members in encoding/json's order (sorted).
	r := newResp()
	if str(in.ReturnConsumedCapacity) == "TOTAL" || str(in.ReturnConsumedCapacity) == "INDEXES" {
		var caps []*consumedCapacity
		for _, n := range sortedKeys(meters) {
			caps = append(caps, meters[n].result(tables[n].meta))
		}
		if err := r.json("ConsumedCapacity", caps); err != nil {
			return nil, err
		}
	}
	if str(in.ReturnItemCollectionMetrics) == "SIZE" {
		metrics := map[string][]itemCollectionMetrics{}
		for _, o := range done {
			if t := tables[o.table]; t.hasLSI() {
				metrics[o.table] = append(metrics[o.table], t.collectionMetrics(o.keyAV))
			}
		}
		if err := r.json("ItemCollectionMetrics", metrics); err != nil {
			return nil, err
		}
	}
	if len(outUnproc) == 0 {
		r.raw("UnprocessedItems", []byte("{}"))
	} else if err := r.json("UnprocessedItems", outUnproc); err != nil {
		return nil, err
	}
	return r.done(), nil
}
