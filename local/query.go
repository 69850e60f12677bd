package local

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/internal/limits"
	"github.com/dynamogo/dynamo/local/eval"
	"github.com/dynamogo/dynamo/local/storage"

	"github.com/dynamogo/dynamo/codec/ddbjson"
)

// Query and Scan (API_Query.html, API_Scan.html). Both read one collection
// (the table's items or an index's entries) in key order, apply the filter
// after the read, and stop at Limit items read or 1 MB read, whichever
// comes first; the capacity charged is the size read, not the size returned.

type readInput struct {
	TableName                 *string
	IndexName                 *string
	Select                    *string
	Limit                     *int64
	ConsistentRead            *bool
	FilterExpression          *string
	ProjectionExpression      *string
	ExpressionAttributeNames  map[string]string
	ExpressionAttributeValues itemJSON
	ExclusiveStartKey         itemJSON
	ReturnConsumedCapacity    *string

	// Legacy parameters (part 2 of the server implements them).
	AttributesToGet     json.RawMessage
	ConditionalOperator json.RawMessage
}

type queryInput struct {
	readInput
	KeyConditionExpression *string
	ScanIndexForward       *bool
	KeyConditions          json.RawMessage
	QueryFilter            json.RawMessage
}

type scanInput struct {
	readInput
	Segment       *int64
	TotalSegments *int64
	ScanFilter    json.RawMessage
}

func (in *readInput) constraints(cs *constraints) {
	cs.itemTableName(in.TableName, "tableName")
	cs.name(in.IndexName, "indexName", false)
	cs.enum(in.Select, "select", "SPECIFIC_ATTRIBUTES", "COUNT", "ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES")
	cs.enum(in.ReturnConsumedCapacity, "returnConsumedCapacity", "INDEXES", "TOTAL", "NONE")
	if in.Limit != nil && *in.Limit < 1 {
		cs.add(*in.Limit, "limit", "Member must have value greater than or equal to 1")
	}
}

// checkSelect applies the rules between Select, ProjectionExpression and
// the index (API_Query.html, Select).
func (in *readInput) checkSelect() error {
	sel := str(in.Select)
	if in.ProjectionExpression != nil && sel != "" && sel != "SPECIFIC_ATTRIBUTES" {
		if sel == "COUNT" {
			return validation("Cannot specify the ProjectionExpression when choosing to get only the Count")
		}
		return validationf("Cannot specify the ProjectionExpression when choosing to get %s", sel)
	}
	if sel == "ALL_PROJECTED_ATTRIBUTES" && in.IndexName == nil {
		return validation("ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName")
	}
	if sel == "SPECIFIC_ATTRIBUTES" && in.ProjectionExpression == nil && !isSet(in.AttributesToGet) {
		return validation("Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES")
	}
	return nil
}

// source is what a read walks: the table or one of its indexes.
type source struct {
	t     *table
	ix    *index // nil for the table
	hash  keyAttr
	rng   keyAttr
	coll  storage.Collection
	fetch bool // LSI read that needs the table's item (non-projected attributes)
	spent int  // bytes the page already read elsewhere (a PartiQL read of several partitions)
}

// source sets src to the table or index a Query (query) or a Scan reads; a
// vector index's name is answered with the vector search errors first.
func (s *Server) source(src *source, t *table, in *readInput, query bool) (*source, error) {
	if err := t.vectorIndexRead(in.IndexName, query); err != nil {
		return nil, err
	}
	*src = source{t: t, hash: t.meta.Hash, rng: t.meta.Range, coll: t.items}
	if in.IndexName == nil {
		return src, nil
	}
	ix := t.index(*in.IndexName)
	if ix == nil {
		return nil, validationf("The table does not have the specified index: %s", *in.IndexName)
	}
	src.ix, src.hash, src.rng, src.coll = ix, ix.meta.Hash, ix.meta.Range, ix.coll
	sel := str(in.Select)
	if !ix.meta.Local {
		if in.ConsistentRead != nil && *in.ConsistentRead {
			return nil, validation("Consistent reads are not supported on global secondary indexes")
		}
		if sel == "ALL_ATTRIBUTES" && ix.meta.Projection != "ALL" {
			return nil, validationf("One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index %s because its projection type is not ALL", ix.meta.Name)
		}
	} else if ix.meta.Projection != "ALL" && (sel == "ALL_ATTRIBUTES" || in.ProjectionExpression != nil) {
		src.fetch = true // an LSI fetches non-projected attributes from the table
	}
	return src, nil
}

// projects reports whether the index read stores attribute name: the table
// and index keys always, the NonKeyAttributes of an INCLUDE projection.
func (src *source) projects(name string) bool {
	m, ix := src.t.meta, src.ix.meta
	return ix.Projection == "ALL" || name == m.Hash.Name || name == m.Range.Name ||
		ix.hasKey(name) || slices.Contains(ix.NonKey, name)
}

// unprojected lists, comma-separated, the attributes of names the index
// does not project.
func (src *source) unprojected(names []string) string {
	var out []string
	for _, n := range names {
		if !src.projects(n) {
			out = append(out, n)
		}
	}
	return strings.Join(out, ", ")
}

// checkProjected rejects a read of an index that needs attributes the index
// does not hold. A Query's FilterExpression may read only projected
// attributes, on a local index too (it runs on the index entries); a
// ProjectionExpression on a global index may name only projected attributes
// (GSI.html: "you can only request attributes that are projected into the
// index"), while a local index fetches the others from the table.
func (src *source) checkProjected(ex *eval.Compiled, query bool) error {
	if src.ix == nil || src.ix.meta.Projection == "ALL" {
		return nil
	}
	if query && ex.HasFilter() {
		if miss := src.unprojected(ex.FilterAttributes()); miss != "" {
			return invalidParam("Secondary index %s does not project one or more filter attributes: [%s]", src.ix.meta.Name, miss)
		}
	}
	if !src.ix.meta.Local && ex.HasProjection() {
		if miss := src.unprojected(ex.ProjectionAttributes()); miss != "" {
			return invalidParam("Global secondary index %s does not project [%s]", src.ix.meta.Name, miss)
		}
	}
	return nil
}

// page is the result of one read.
type page struct {
	items    []outItem
	count    int
	scanned  int
	size     int
	lastItem storage.Value // the last item read when the read stopped early
	list     *[]outItem    // where items came from, in pageItems
}

// outItem is an item of a read's answer: a stored Value, written straight
// from its encoding, or the item a projection made of one.
type outItem struct {
	v  storage.Value
	it Item // not nil: written instead of v
}

func (o outItem) appendJSON(dst []byte) ([]byte, error) {
	if o.it != nil {
		return ddbjson.AppendItem(dst, o.it)
	}
	return o.v.AppendJSON(dst), nil
}

// pageItems recycles the item lists of pages (a 1 MB page of small items
// lists thousands), which the answer releases once written.
var pageItems = sync.Pool{New: func() any { return new([]outItem) }}

// release returns the page's item list to pageItems.
func (p *page) release() {
	clear(p.items)
	*p.list = p.items[:0]
	pageItems.Put(p.list)
	p.items, p.list = nil, nil
}

// MarshalJSON writes the item inside encoding/json output (BatchGetItem).
func (o outItem) MarshalJSON() ([]byte, error) { return o.appendJSON(nil) }

// walk reads [start, end) of the source in the given direction, applying
// filter and projection, until limit items or 1 MB have been read. Of an
// item only what the filter and the projection read is decoded (all of an
// LSI entry for its table fetch); the page keeps the Values it returns,
// not decoded copies.
// w is the walk's memory: a request's recycled readState, or a new walker.
func (src *source) walk(w *walker, start, end []byte, forward bool, limit int, ex *eval.Compiled, count bool) (*page, error) {
	list := pageItems.Get().(*[]outItem)
	w.src, w.ex, w.limit, w.count, w.p, w.err = src, ex, limit, count, page{items: (*list)[:0], list: list}, nil
	w.filterAttrs, w.projAttrs = ex.FilterAttributes(), ex.ProjectionAttributes()
	if w.visitFn == nil {
		w.visitFn = w.visit // a method value allocates: once per walker
	}
	var err error
	if forward {
		err = src.coll.Ascend(start, end, w.visitFn)
	} else {
		err = src.coll.Descend(start, end, w.visitFn)
	}
	if err != nil {
		return nil, err
	}
	return &w.p, w.err
}

// walker is the state of one walk, in one allocation with its page.
type walker struct {
	src                    *source
	ex                     *eval.Compiled
	limit                  int
	count                  bool
	filterAttrs, projAttrs []string
	filtered               Item // the filter's attributes of each item, one map reused
	scratch                storage.Scratch
	p                      page
	err                    error
	visitFn                func([]byte, storage.Value) bool // w.visit
}

// readState is the memory of one Query or Scan that nothing keeps once its
// answer is written: its source, its walk, its key condition and the bytes
// of its bounds, recycled from one request to the next.
type readState struct {
	src  source
	w    walker
	kc   eval.KeyCondBuf
	keys []byte
}

var readStates = sync.Pool{New: func() any { return new(readState) }}

// release returns st to readStates, keeping only memory of its own: the
// filter's map (emptied), the filter's scratch values (overwritten by the
// next filter) and the key buffer.
func (st *readState) release() {
	filtered, scratch, visit := st.w.filtered, st.w.scratch, st.w.visitFn
	clear(filtered)
	keys := st.keys[:0]
	if cap(keys) > 1<<10 {
		keys = nil
	}
	*st = readState{keys: keys}
	st.w.filtered, st.w.scratch, st.w.visitFn = filtered, scratch, visit
	readStates.Put(st)
}

// visit takes one item of the walk; false stops it.
func (w *walker) visit(_ []byte, v storage.Value) bool {
	src, ex, p := w.src, w.ex, &w.p
	p.scanned++
	p.size += v.Size()
	full := v
	if src.fetch {
		k, err := src.t.meta.appendItemKey(nil, itemOf(v))
		if err != nil {
			w.err = err
			return false
		}
		if base, ok, _ := src.t.items.Get(k); ok {
			full = base
		}
	}
	ok := true
	if ex.HasFilter() {
		// Only the filter reads these values: their memory is reused.
		filtered, err := full.AttrsScratch(w.filtered, w.filterAttrs, &w.scratch)
		if err != nil {
			panic(err) // as in itemOf: the engine checked every Value it holds
		}
		w.filtered = filtered
		if ok, err = ex.Filter(filtered); err != nil {
			w.err = evalError(err)
			return false
		}
	}
	if ok {
		p.count++
		switch {
		case w.count:
		case ex.HasProjection():
			p.items = append(p.items, outItem{it: ex.Project(attrsOf(full, nil, w.projAttrs))})
		default:
			p.items = append(p.items, outItem{v: full})
		}
	}
	if (w.limit > 0 && p.scanned >= w.limit) || src.spent+p.size >= limits.MaxPageBytes {
		p.lastItem = v
		return false
	}
	return true
}

// keyNames are the key attributes of the table or index read.
func (src *source) keyNames() []string {
	if src.ix != nil && src.ix.meta.multi() {
		return src.ix.meta.keyNames()
	}
	if src.rng.Name == "" {
		return []string{src.hash.Name}
	}
	return []string{src.hash.Name, src.rng.Name}
}

// lastKey is the LastEvaluatedKey of an item read: the table key and, for
// an index, the index key.
func (src *source) lastKey(it Item) Item {
	k := keyOf(src.t.meta, it)
	if src.ix != nil {
		for _, n := range src.ix.meta.keyNames() {
			k[n] = it[n]
		}
	}
	return k
}

// startKey checks ExclusiveStartKey and returns its storage key.
func (src *source) startKey(esk Item) ([]byte, error) {
	m := src.t.meta
	want := map[string]string{m.Hash.Name: m.Hash.Type}
	if m.Range.Name != "" {
		want[m.Range.Name] = m.Range.Type
	}
	hash := map[string]bool{m.Hash.Name: true}
	if src.ix != nil {
		for _, ka := range src.ix.meta.hashKeys() {
			want[ka.Name], hash[ka.Name] = ka.Type, true
		}
		for _, ka := range src.ix.meta.rangeKeys() {
			want[ka.Name] = ka.Type
		}
	}
	if len(esk) != len(want) {
		return nil, validation("The provided starting key is invalid: The provided key element does not match the schema")
	}
	for n, typ := range want {
		v, ok := esk[n]
		if !ok || !hasType(v, typ) {
			return nil, validation("The provided starting key is invalid: The provided key element does not match the schema")
		}
		if err := checkKeyValue(v, n, hash[n]); err != nil {
			return nil, validationf("The provided starting key is invalid: %s", err.(*Error).Message)
		}
	}
	if src.ix == nil {
		return m.appendItemKey(nil, esk)
	}
	k, _, err := m.appendIndexKey(nil, src.ix.meta, esk)
	return k, err
}

func (s *Server) readResponse(src *source, p *page, count bool, mode string, consistent bool) (any, error) {
	r := newResp()
	if !count {
		err := r.items("Items", p.items)
		p.release()
		if err != nil {
			return nil, err
		}
	}
	r.int("Count", p.count)
	r.int("ScannedCount", p.scanned)
	if !p.lastItem.IsZero() {
		if err := r.item("LastEvaluatedKey", src.lastKey(itemOf(p.lastItem))); err != nil {
			return nil, err
		}
	}
	mt := src.readMeter(p.size, mode, consistent)
	if cc := mt.result(src.t.meta); cc != nil {
		if err := r.json("ConsumedCapacity", cc); err != nil {
			return nil, err
		}
	}
	return r.done(), nil
}

// readMeter charges a read of size bytes of the source: to the index read,
// and to the table too when an LSI fetched attributes from it.
func (src *source) readMeter(size int, mode string, consistent bool) meter {
	mt := meter{mode: mode, table: readUnits(size, consistent)}
	if src.ix != nil {
		mt.table = 0
		mt.addIndex(src.ix.meta.Name, readUnits(size, consistent))
		if src.fetch {
			mt.table = readUnits(size, consistent)
		}
	}
	return mt
}

// readPage walks [start, end) of src for a Query (query) or a Scan and
// answers with the page: the projection check, Limit, Select COUNT and the
// consumed capacity work the same for both.
func (s *Server) readPage(st *readState, in *readInput, ex *eval.Compiled, start, end []byte, forward, query bool) (any, error) {
	src := &st.src
	if err := src.checkProjected(ex, query); err != nil {
		return nil, err
	}
	limit := 0
	if in.Limit != nil {
		limit = int(min(*in.Limit, math.MaxInt32))
	}
	count := str(in.Select) == "COUNT"
	p, err := src.walk(&st.w, start, end, forward, limit, ex, count)
	if err != nil {
		return nil, err
	}
	return s.readResponse(src, p, count, str(in.ReturnConsumedCapacity), in.ConsistentRead != nil && *in.ConsistentRead)
}

// --- Query ---

func (s *Server) query(c *call) (any, error) {
	// The values are decoded into recycled memory (batchScratch): they are
	// only compared with, and the answer is written before it is released.
	sc := scratchPool.Get().(*batchScratch)
	defer sc.release()
	var in queryInput
	if err := in.decodeWith(c.body, sc); err != nil {
		return nil, err
	}
	if isSet(in.ConditionalOperator) {
		var op string // escapes to json.Unmarshal: only when there is one
		if json.Unmarshal(in.ConditionalOperator, &op) == nil && !slices.Contains(conditionalOperators, op) {
			return nil, validation(msgQueryCondOp)
		}
	}
	var cs constraints
	in.constraints(&cs)
	if err := cs.err(); err != nil {
		return nil, err
	}
	if err := in.translateLegacy(); err != nil { // legacy.go
		return nil, err
	}
	if err := in.checkSelect(); err != nil {
		return nil, err
	}
	if in.KeyConditionExpression == nil {
		return nil, validation("Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.")
	}
	if err := checkValues(Item(in.ExclusiveStartKey)); err != nil {
		return nil, err
	}
	ex, err := compile(eval.Input{KeyCondition: in.KeyConditionExpression, Filter: in.FilterExpression, Projection: in.ProjectionExpression,
		Names: in.ExpressionAttributeNames, Values: in.ExpressionAttributeValues})
	if err != nil {
		return nil, err
	}
	defer ex.Release() // the answer is written before: nothing keeps ex
	t, err := s.readTable(c, *in.TableName)
	if err != nil {
		return nil, err
	}
	defer t.mu.RUnlock()
	st := readStates.Get().(*readState)
	defer st.release()
	src, err := s.source(&st.src, t, &in.readInput, true)
	if err != nil {
		return nil, err
	}
	var start, end []byte
	if src.ix != nil && src.ix.meta.multi() {
		start, end, err = src.multiKeyBounds(ex)
		if err == nil {
			err = ex.CheckFilterKeys(src.keyNames()...)
			if err != nil {
				return nil, in.filterKeysError(evalError(err)) // legacy.go
			}
		}
	} else {
		start, end, err = src.keyBounds(st, &in, ex)
	}
	if err != nil {
		return nil, err
	}
	forward := in.ScanIndexForward == nil || *in.ScanIndexForward
	if esk := Item(in.ExclusiveStartKey); esk != nil {
		k, err := src.startKey(esk)
		if err != nil {
			return nil, err
		}
		if bytes.Compare(k, start) < 0 || (end != nil && bytes.Compare(k, end) >= 0) {
			// A starting key outside the partition or the sort range: DynamoDB
			// Local 3.3.1 answers both with the range predicate message.
			return nil, validation("The provided starting key does not match the range key predicate")
		}
		if forward {
			start = after(k)
		} else {
			end = k
		}
	}
	return s.readPage(st, &in.readInput, ex, start, end, forward, true)
}

// keyBounds checks the key condition of a query of the table or of an index
// with a key of one partition and at most one sort attribute, and returns
// the range of storage keys it selects.
func (src *source) keyBounds(st *readState, in *queryInput, ex *eval.Compiled) (start, end []byte, err error) {
	kc, err := ex.KeyConditionIn(&st.kc, src.hash.Name, src.rng.Name)
	if err != nil {
		return nil, nil, evalError(err)
	}
	if ex.HasFilter() { // (keyNames allocates)
		if err := ex.CheckFilterKeys(src.keyNames()...); err != nil {
			return nil, nil, in.filterKeysError(evalError(err)) // legacy.go
		}
	}
	if !hasType(kc.Partition, src.hash.Type) {
		return nil, nil, invalidParam("Condition parameter type does not match schema type")
	}
	if err := checkKeyValue(kc.Partition, src.hash.Name, true); err != nil {
		return nil, nil, err
	}
	for _, v := range kc.Sort {
		if !hasType(v, src.rng.Type) {
			return nil, nil, invalidParam("Condition parameter type does not match schema type")
		}
	}
	if kc.SortOp == "" { // the whole partition, in the state's memory
		start, end, st.keys, err = appendPartitionBounds(st.keys, kc.Partition)
		return start, end, err
	}
	return sortBounds(kc)
}

// sortBounds turns a key condition into the [start, end) range of storage
// keys it selects (see keys.go for the layout).
func sortBounds(kc *eval.KeyCond) (start, end []byte, err error) {
	p, pend, err := partitionBounds(kc.Partition)
	if err != nil {
		return nil, nil, err
	}
	return prefixBounds(p, pend, kc)
}

// prefixBounds is the [start, end) range of the keys in [p, pend) (every key
// with prefix p) whose next key part satisfies kc's sort condition.
func prefixBounds(p, pend []byte, kc *eval.KeyCond) (start, end []byte, err error) {
	part := func(v types.AttributeValue) []byte { // p + part(v): the first key with sort value v
		b, e := storage.AppendKeyPart(append([]byte(nil), p...), v)
		if e != nil {
			err = e
		}
		return b
	}
	past := func(v types.AttributeValue) []byte { // the first key with a sort value above v
		b := part(v)
		if b == nil {
			return nil
		}
		b[len(b)-1] = 0x02 // terminator 0x00 0x01 -> 0x00 0x02
		return b
	}
	switch kc.SortOp {
	case "":
		start, end = p, pend
	case "EQ":
		start, end = part(kc.Sort[0]), past(kc.Sort[0])
	case "LT":
		start, end = p, part(kc.Sort[0])
	case "LE":
		start, end = p, past(kc.Sort[0])
	case "GT":
		start, end = past(kc.Sort[0]), pend
	case "GE":
		start, end = part(kc.Sort[0]), pend
	case "BETWEEN":
		start, end = part(kc.Sort[0]), past(kc.Sort[1])
		if bytes.Compare(start, end) > 0 {
			return nil, nil, validationf("Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {%s}, upper bound operand: AttributeValue: {%s}", avText(kc.Sort[0]), avText(kc.Sort[1]))
		}
	case "BEGINS_WITH":
		var raw []byte
		switch v := kc.Sort[0].(type) {
		case *types.AttributeValueMemberS:
			raw = []byte(v.Value)
		case *types.AttributeValueMemberB:
			raw = v.Value
		default:
			return nil, nil, validationf("Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: %s", typeOf(kc.Sort[0]))
		}
		start = storage.AppendEscaped(append([]byte(nil), p...), raw)
		end = successor(start)
	default:
		return nil, nil, validation("Query key condition not supported")
	}
	return start, end, err
}

func avText(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return "S:" + v.Value
	case *types.AttributeValueMemberN:
		return "N:" + v.Value
	case *types.AttributeValueMemberB:
		return "B:" + string(v.Value)
	}
	return typeOf(av)
}

// --- Scan ---

func (s *Server) scan(c *call) (any, error) {
	var in scanInput
	if err := decodeFast(c, &in, (*scanInput).decode); err != nil {
		return nil, err
	}
	var cs constraints
	in.constraints(&cs)
	if in.Segment != nil {
		if *in.Segment < 0 {
			cs.add(*in.Segment, "segment", "Member must have value greater than or equal to 0")
		} else if *in.Segment > 999999 {
			cs.add(*in.Segment, "segment", "Member must have value less than or equal to 999999")
		}
	}
	if in.TotalSegments != nil {
		if *in.TotalSegments < 1 {
			cs.add(*in.TotalSegments, "totalSegments", "Member must have value greater than or equal to 1")
		} else if *in.TotalSegments > 1000000 {
			cs.add(*in.TotalSegments, "totalSegments", "Member must have value less than or equal to 1000000")
		}
	}
	if err := cs.err(); err != nil {
		return nil, err
	}
	if err := in.translateLegacy(); err != nil { // legacy.go
		return nil, err
	}
	switch {
	case in.Segment != nil && in.TotalSegments == nil:
		return nil, validation("The TotalSegments parameter is required but was not present in the request when Segment parameter is present")
	case in.Segment == nil && in.TotalSegments != nil:
		return nil, validation("The Segment parameter is required but was not present in the request when parameter TotalSegments is present")
	case in.Segment != nil && *in.Segment >= *in.TotalSegments:
		return nil, validationf("The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: %d is not less than TotalSegments: %d", *in.Segment, *in.TotalSegments)
	}
	if err := in.checkSelect(); err != nil {
		return nil, err
	}
	if err := checkValues(Item(in.ExclusiveStartKey)); err != nil {
		return nil, err
	}
	ex, err := compile(eval.Input{Filter: in.FilterExpression, Projection: in.ProjectionExpression,
		Names: in.ExpressionAttributeNames, Values: in.ExpressionAttributeValues})
	if err != nil {
		return nil, err
	}
	t, err := s.readTable(c, *in.TableName)
	if err != nil {
		return nil, err
	}
	defer t.mu.RUnlock()
	st := readStates.Get().(*readState)
	defer st.release()
	src, err := s.source(&st.src, t, &in.readInput, false)
	if err != nil {
		return nil, err
	}
	var start, end []byte
	if in.Segment != nil {
		start, end = segmentBounds(uint64(*in.Segment), uint64(*in.TotalSegments))
	}
	if esk := Item(in.ExclusiveStartKey); esk != nil {
		k, err := src.startKey(esk)
		if err != nil {
			return nil, err
		}
		if (start != nil && bytes.Compare(k, start) < 0) || (end != nil && bytes.Compare(k, end) >= 0) {
			return nil, validation("The provided Exclusive start key does not map to the provided Segment and TotalSegments values.")
		}
		start = after(k)
	}
	return s.readPage(st, &in.readInput, ex, start, end, true, false)
}

// segmentBounds is segment's share of the 64-bit partition hash space:
// [seg·2⁶⁴/total, (seg+1)·2⁶⁴/total). Every partition falls in exactly one
// segment, so parallel scans are disjoint and together complete.
func segmentBounds(seg, total uint64) (start, end []byte) {
	lo := func(i uint64) []byte {
		if i == 0 {
			return nil
		}
		q, _ := bits.Div64(i, 0, total) // i·2⁶⁴/total, i < total
		return binary.BigEndian.AppendUint64(nil, q)
	}
	start = lo(seg)
	if seg+1 < total {
		end = lo(seg + 1)
	}
	return start, end
}
