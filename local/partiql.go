package local

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/codec/ddbjson"
	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/internal/limits"
	"github.com/dynamogo/dynamo/internal/numbers"
	"github.com/dynamogo/dynamo/local/eval"
	"github.com/dynamogo/dynamo/local/partiql"
)

// PartiQL: ExecuteStatement, BatchExecuteStatement and ExecuteTransaction
// (API_ExecuteStatement.html, API_BatchExecuteStatement.html,
// API_ExecuteTransaction.html, ql-reference.html).
//
// A statement is parsed (local/partiql) into the expression AST, then run
// by the same code as its JSON twin, so items, indexes, capacity and errors
// agree: a SELECT is a Query when its WHERE pins the partition key (= or
// IN) and a Scan otherwise, walking the source as query.go does with the
// whole WHERE as filter; INSERT, UPDATE and DELETE become PutItem,
// UpdateItem and DeleteItem requests with a condition that gives them
// PartiQL's meaning; a transaction becomes TransactWriteItems or
// TransactGetItems.

const (
	msgDuplicateItem   = "Duplicate primary key exists in table"
	msgIncompleteKey   = "Where clause does not contain a mandatory equality on all key attributes"
	msgMixedBatch      = "Read and write requests together in the same batch is not supported."
	msgMixedTx         = "Read and write statements together in the same transaction is not supported."
	msgBatchDuplicate  = "Provided list of item keys contains duplicates"
	msgBadNextToken    = "The provided NextToken is invalid"
	msgExistsOutsideTx = "EXISTS is only supported in ExecuteTransaction"

	// A SELECT from an index the table does not have (checked first), or
	// consistently from a GSI: PartiQL's own wording, unlike Query's and
	// Scan's (observed 2026-09-02: paritysuite/dynamodb-conformance,
	// tests/tier3/error-messages/indexReads.test.ts).
	msgNoSuchIndex   = "The table does not have the specified index"
	msgConsistentGSI = "Strongly consistent read is not supported on Global Secondary Indexes"
)

// paramList decodes Parameters: a list of attribute values in DynamoDB JSON.
type paramList []types.AttributeValue

func (l *paramList) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*l = nil
		return nil
	}
	vs, err := ddbjson.UnmarshalList(b)
	if err != nil {
		return jsonError(err)
	}
	if vs == nil {
		vs = []types.AttributeValue{}
	}
	*l = vs
	return nil
}

// statementConstraints checks the members of one statement; path names the
// statement in the messages.
func statementConstraints(cs *constraints, path string, text *string, params paramList) {
	if text == nil {
		cs.add(nil, path+"statement", ruleNotNull)
	} else if n := utf8.RuneCountInString(*text); n < 1 {
		cs.add(*text, path+"statement", "Member must have length greater than or equal to 1")
	} else if n > partiql.MaxStatementLen {
		cs.add(*text, path+"statement", "Member must have length less than or equal to 8192")
	}
	if params != nil && len(params) == 0 {
		cs.add("[]", path+"parameters", "Member must have length greater than or equal to 1")
	}
}

// parsePartiQL parses a checked statement and validates its parameters.
func parsePartiQL(text string, params paramList) (*partiql.Statement, error) {
	for i, v := range params {
		nv, err := checkValue(v, 1)
		if err != nil {
			return nil, err
		}
		if nv != nil {
			params[i] = nv
		}
	}
	st, err := partiql.Parse(text, params)
	if err != nil {
		return nil, validation(err.Error())
	}
	if st.Kind == partiql.Insert {
		if err := checkValues(st.Item); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// exprPrefixes head the messages about the expressions a statement is
// translated into, which its author never wrote.
var exprPrefixes = []string{"Invalid ConditionExpression: ", "Invalid FilterExpression: ",
	"Invalid KeyConditionExpression: ", "Invalid UpdateExpression: ", "Invalid ProjectionExpression: "}

// plainError drops the expression a ValidationException names, keeping
// what it says about the statement's condition or update.
func plainError(err error) error {
	e, ok := err.(*Error)
	if !ok || e.Type != "ValidationException" {
		return err
	}
	for _, p := range exprPrefixes {
		if msg, ok := strings.CutPrefix(e.Message, p); ok {
			return validation(msg)
		}
	}
	return err
}

// --- binding: the AST as expression text with placeholders ---

// binder renders the expressions of one request with placeholders #n<i>
// and :v<i>, accumulating ExpressionAttributeNames and -Values.
type binder struct {
	names  map[string]string // placeholder → attribute name
	alias  map[string]string // attribute name → placeholder
	values Item
}

func newBinder() *binder {
	return &binder{names: map[string]string{}, alias: map[string]string{}, values: Item{}}
}

func (b *binder) path(p expr.Path) expr.Path {
	out := make(expr.Path, len(p))
	for i, e := range p {
		if !e.IsIndex {
			ph, ok := b.alias[e.Name]
			if !ok {
				ph = "#n" + strconv.Itoa(len(b.alias))
				b.alias[e.Name], b.names[ph] = ph, e.Name
			}
			e.Name = ph
		}
		out[i] = e
	}
	return out
}

func (b *binder) value(av types.AttributeValue) *expr.Value {
	ph := ":v" + strconv.Itoa(len(b.values))
	b.values[ph] = av
	return &expr.Value{Placeholder: ph, AV: av}
}

func (b *binder) operand(o expr.Operand) expr.Operand {
	switch o := o.(type) {
	case expr.Path:
		return b.path(o)
	case *expr.Value:
		return b.value(o.AV)
	case *expr.Func:
		return &expr.Func{Name: o.Name, Args: b.operands(o.Args)}
	case *expr.Arith:
		return &expr.Arith{Op: o.Op, L: b.operand(o.L), R: b.operand(o.R)}
	}
	return o
}

func (b *binder) operands(os []expr.Operand) []expr.Operand {
	out := make([]expr.Operand, len(os))
	for i, o := range os {
		out[i] = b.operand(o)
	}
	return out
}

func (b *binder) bindCond(c expr.Cond) expr.Cond {
	switch c := c.(type) {
	case *expr.Compare:
		return &expr.Compare{Op: c.Op, L: b.operand(c.L), R: b.operand(c.R)}
	case *expr.Between:
		return &expr.Between{X: b.operand(c.X), Lo: b.operand(c.Lo), Hi: b.operand(c.Hi)}
	case *expr.In:
		return &expr.In{X: b.operand(c.X), List: b.operands(c.List)}
	case *expr.CondFunc:
		return &expr.CondFunc{Name: c.Name, Args: b.operands(c.Args)}
	case *expr.And:
		return &expr.And{Conds: b.conds(c.Conds)}
	case *expr.Or:
		return &expr.Or{Conds: b.conds(c.Conds)}
	case *expr.Not:
		return &expr.Not{Cond: b.bindCond(c.Cond)}
	}
	return c
}

func (b *binder) conds(cs []expr.Cond) []expr.Cond {
	out := make([]expr.Cond, len(cs))
	for i, c := range cs {
		out[i] = b.bindCond(c)
	}
	return out
}

// cond renders c; nil renders as nil (no expression).
func (b *binder) cond(c expr.Cond) *string {
	if c == nil {
		return nil
	}
	s := expr.Print(b.bindCond(c))
	return &s
}

func (b *binder) update(u *expr.UpdateAST) *string {
	out := &expr.UpdateAST{}
	for _, a := range u.Set {
		out.Set = append(out.Set, expr.SetAction{Path: b.path(a.Path), Value: b.operand(a.Value)})
	}
	for _, p := range u.Remove {
		out.Remove = append(out.Remove, b.path(p))
	}
	for _, a := range u.Add {
		out.Add = append(out.Add, expr.PathValue{Path: b.path(a.Path), Value: b.value(a.Value.AV)})
	}
	for _, a := range u.Delete {
		out.Delete = append(out.Delete, expr.PathValue{Path: b.path(a.Path), Value: b.value(a.Value.AV)})
	}
	s := expr.PrintUpdate(out)
	return &s
}

func (b *binder) projection(paths []expr.Path) *string {
	if paths == nil {
		return nil
	}
	bound := make([]expr.Path, len(paths))
	for i, p := range paths {
		bound[i] = b.path(p)
	}
	s := expr.PrintProjection(bound)
	return &s
}

// maps returns the placeholder maps, nil when empty (DynamoDB refuses
// empty maps).
func (b *binder) maps() (map[string]string, Item) {
	names, values := b.names, b.values
	if len(names) == 0 {
		names = nil
	}
	if len(values) == 0 {
		values = nil
	}
	return names, values
}

// --- key terms of a WHERE clause ---

// conjuncts lists the terms of the top-level AND of c.
func conjuncts(c expr.Cond) []expr.Cond { return appendConjuncts(nil, c) }

func appendConjuncts(dst []expr.Cond, c expr.Cond) []expr.Cond {
	switch a := c.(type) {
	case nil:
		return dst
	case *expr.And:
		for _, t := range a.Conds {
			dst = appendConjuncts(dst, t)
		}
		return dst
	}
	return append(dst, c)
}

// topName is the attribute a top-level path names.
func topName(o expr.Operand) (string, bool) {
	if p, ok := o.(expr.Path); ok {
		return p.TopLevel()
	}
	return "", false
}

func valueOf(o expr.Operand) (types.AttributeValue, bool) {
	if v, ok := o.(*expr.Value); ok {
		return v.AV, true
	}
	return nil, false
}

// equality is the value a term "name = value" (either way round) of c
// pins the attribute to.
func equality(c expr.Cond, name string) (types.AttributeValue, bool) {
	cmp, ok := c.(*expr.Compare)
	if !ok || cmp.Op != expr.EQ {
		return nil, false
	}
	if n, ok := topName(cmp.L); ok && n == name {
		return valueOf(cmp.R)
	}
	if n, ok := topName(cmp.R); ok && n == name {
		return valueOf(cmp.L)
	}
	return nil, false
}

// fullKey is the key of the item the WHERE clause pins with an equality on
// every key attribute, as UPDATE, DELETE and the reads of batches and
// transactions require.
func fullKey(where expr.Cond, hash, rng keyAttr) (Item, error) {
	key := Item{}
	for _, k := range []keyAttr{hash, rng} {
		if k.Name == "" {
			continue
		}
		for _, c := range conjuncts(where) {
			if v, ok := equality(c, k.Name); ok {
				key[k.Name] = v
				break
			}
		}
		if key[k.Name] == nil {
			return nil, validation(msgIncompleteKey)
		}
	}
	return key, nil
}

// onlyKeyTerms reports whether where is nothing but the equalities on key.
func onlyKeyTerms(where expr.Cond, key Item) bool {
	for _, c := range conjuncts(where) {
		pinned := false
		for name := range key {
			if _, ok := equality(c, name); ok {
				pinned = true
			}
		}
		if !pinned {
			return false
		}
	}
	return true
}

// partitions are the partition key values the WHERE clause selects: a
// term name = v or name IN [...] of its top-level AND, or an OR of which
// every branch selects partitions (ql-reference.select.html: "WHERE
// OrderID = 100 or OrderID = 200" is no full table scan). ok is false when
// it does not pin them and the read is a Scan.
func partitions(where expr.Cond, name string) (vals []types.AttributeValue, ok bool) {
	if or, isOr := where.(*expr.Or); isOr {
		for _, branch := range or.Conds {
			bv, ok := partitions(branch, name)
			if !ok {
				return nil, false
			}
			for _, v := range bv {
				if !slices.ContainsFunc(vals, func(w types.AttributeValue) bool { return equalValues(v, w) }) {
					vals = append(vals, v)
				}
			}
		}
		return vals, true
	}
	for _, c := range conjuncts(where) {
		if v, ok := equality(c, name); ok {
			return []types.AttributeValue{v}, true
		}
		if in, isIn := c.(*expr.In); isIn {
			if n, ok := topName(in.X); ok && n == name {
				vals = vals[:0]
				for _, o := range in.List {
					v, ok := valueOf(o)
					if !ok {
						vals = nil
						break
					}
					vals = append(vals, v)
				}
				if vals != nil {
					return vals, true
				}
			}
		}
	}
	return nil, false
}

// maxPartitions is the most partition key values a SELECT may read
// (ql-operators.html, IN: "at max 50 hash attribute values").
const maxPartitions = 50

// flipped is the comparator seen from the other side (v < a is a > v).
var flipped = map[expr.CompareOp]expr.CompareOp{expr.EQ: expr.EQ, expr.LT: expr.GT, expr.LE: expr.GE, expr.GT: expr.LT, expr.GE: expr.LE}

// sortTerm is the first term of where that a key condition can express on
// the sort key name of type typ, as a condition with the key on the left.
func sortTerm(where expr.Cond, name, typ string) expr.Cond {
	isKey := func(o expr.Operand) bool { n, ok := topName(o); return ok && n == name }
	typed := func(os ...expr.Operand) bool {
		for _, o := range os {
			v, ok := valueOf(o)
			if !ok || !hasType(v, typ) {
				return false
			}
		}
		return true
	}
	for _, c := range conjuncts(where) {
		switch c := c.(type) {
		case *expr.Compare:
			if c.Op == expr.NE {
				continue
			}
			if isKey(c.L) && typed(c.R) {
				return c
			}
			if isKey(c.R) && typed(c.L) {
				return &expr.Compare{Op: flipped[c.Op], L: c.R, R: c.L}
			}
		case *expr.Between:
			if isKey(c.X) && typed(c.Lo, c.Hi) {
				return c
			}
		case *expr.CondFunc:
			if c.Name == "begins_with" && len(c.Args) == 2 && isKey(c.Args[0]) && typed(c.Args[1]) && typ != "N" {
				return c
			}
		}
	}
	return nil
}

// --- ExecuteStatement ---

type executeStatementInput struct {
	Statement                           *string
	Parameters                          paramList
	ConsistentRead                      *bool
	NextToken                           *string
	Limit                               *int64
	ReturnConsumedCapacity              *string
	ReturnValuesOnConditionCheckFailure *string
}

// decode reads the request with the member decoder of the item actions
// (decode.go), which costs a fraction of encoding/json's reflection.
func (in *executeStatementInput) decode(b []byte) error {
	return decodeMembers(b, func(k string, raw []byte) error {
		switch k {
		case "Statement":
			return rawString(raw, &in.Statement)
		case "Parameters":
			return in.Parameters.UnmarshalJSON(raw)
		case "ConsistentRead":
			return rawBool(raw, &in.ConsistentRead)
		case "NextToken":
			return rawString(raw, &in.NextToken)
		case "Limit":
			return rawInt(raw, &in.Limit)
		case "ReturnConsumedCapacity":
			return rawString(raw, &in.ReturnConsumedCapacity)
		case "ReturnValuesOnConditionCheckFailure":
			return rawString(raw, &in.ReturnValuesOnConditionCheckFailure)
		}
		return nil
	})
}

func (s *Server) executeStatement(c *call) (any, error) {
	var in executeStatementInput
	if err := in.decode(c.body); err != nil {
		// A request the member decoder refuses is decoded again the general
		// way, which owns the error messages (and their leniencies).
		in = executeStatementInput{}
		if err := c.decode(&in); err != nil {
			return nil, err
		}
	}
	var cs constraints
	statementConstraints(&cs, "", in.Statement, in.Parameters)
	if in.Limit != nil && *in.Limit < 1 {
		cs.add(*in.Limit, "limit", "Member must have value greater than or equal to 1")
	}
	if in.NextToken != nil && len(*in.NextToken) < 1 {
		cs.add(*in.NextToken, "nextToken", "Member must have length greater than or equal to 1")
	}
	cs.enum(in.ReturnConsumedCapacity, "returnConsumedCapacity", "INDEXES", "TOTAL", "NONE")
	cs.enum(in.ReturnValuesOnConditionCheckFailure, "returnValuesOnConditionCheckFailure", "ALL_OLD", "NONE")
	if err := cs.err(); err != nil {
		return nil, err
	}
	st, err := parsePartiQL(*in.Statement, in.Parameters)
	if err != nil {
		return nil, err
	}
	mode := str(in.ReturnConsumedCapacity)
	switch st.Kind {
	case partiql.Select:
		res, err := s.selectStatement(c, st, in.ConsistentRead != nil && *in.ConsistentRead, in.Limit, in.NextToken, mode)
		if err != nil {
			return nil, plainError(err)
		}
		return res.response()
	case partiql.Exists:
		return nil, validation(msgExistsOutsideTx)
	}
	w, err := s.planWrite(st, in.ReturnValuesOnConditionCheckFailure)
	if err != nil {
		return nil, err
	}
	attrs, cc, err := s.runWrite(c, w, mode)
	if err != nil {
		return nil, plainError(err)
	}
	out := map[string]any{}
	if attrs != nil {
		out["Items"] = []json.RawMessage{attrs}
	}
	if cc != nil {
		out["ConsumedCapacity"] = cc
	}
	return out, nil
}

// --- SELECT ---

// selectResult is one page of a SELECT.
type selectResult struct {
	items   []outItem
	lastKey Item   // LastEvaluatedKey: the key the read stopped at, if inside a partition
	next    string // NextToken, "" on the last page
	mt      meter
	cc      *consumedCapacity // mt's report, nil when not asked for
}

func (r *selectResult) response() (any, error) {
	out := newResp()
	if err := out.items("Items", r.items); err != nil {
		return nil, err
	}
	if r.next != "" {
		out.json("NextToken", r.next)
	}
	if r.lastKey != nil {
		if err := out.item("LastEvaluatedKey", r.lastKey); err != nil {
			return nil, err
		}
	}
	if r.cc != nil {
		if err := out.json("ConsumedCapacity", r.cc); err != nil {
			return nil, err
		}
	}
	return out.done(), nil
}

// pageToken is the content of a NextToken: the partition (of an IN list)
// the read stopped in and the key it stopped at.
type pageToken struct {
	Part int             `json:"p"`
	Key  json.RawMessage `json:"k,omitempty"`
}

// selectStatement runs a SELECT: a Query of each partition its WHERE pins,
// or a Scan, filtered by the whole WHERE, up to limit items read.
func (s *Server) selectStatement(c *call, st *partiql.Statement, consistent bool, limit *int64, token *string, mode string) (*selectResult, error) {
	t, err := s.readTable(c, st.Table)
	if err != nil {
		return nil, err
	}
	defer t.mu.RUnlock()
	if st.Index == "" && token == nil {
		if res, ok, err := s.selectByKey(t, st, consistent, mode); ok || err != nil {
			return res, err
		}
	}
	b := newBinder()
	filter, proj := b.cond(st.Where), b.projection(st.Projection)
	ri := &readInput{TableName: &st.Table, ConsistentRead: &consistent, ProjectionExpression: proj}
	if st.Index != "" {
		ri.IndexName = &st.Index
		if err := t.vectorIndexRead(ri.IndexName, true); err != nil {
			return nil, err
		}
		switch ix := t.index(st.Index); {
		case ix == nil:
			return nil, validation(msgNoSuchIndex)
		case consistent && !ix.meta.Local:
			return nil, validation(msgConsistentGSI)
		}
	}
	src, err := s.source(new(source), t, ri, true)
	if err != nil {
		return nil, err
	}
	parts, query := partitions(st.Where, src.hash.Name)
	if src.ix != nil && src.ix.meta.multi() {
		// A multi-attribute index key is read by a scan that the WHERE filters.
		parts, query = nil, false
	}
	if len(parts) > maxPartitions {
		return nil, validationf("IN takes at most %d partition key values", maxPartitions)
	}
	forward, err := orderBy(st.OrderBy, query, src, parts)
	if err != nil {
		return nil, err
	}
	var keyCond *string
	if query {
		kc := expr.Cond(&expr.Compare{Op: expr.EQ, L: b.path(expr.Path{{Name: src.hash.Name}}), R: &expr.Value{Placeholder: ":pk"}})
		if src.rng.Name != "" {
			if sc := sortTerm(st.Where, src.rng.Name, src.rng.Type); sc != nil {
				kc = &expr.And{Conds: []expr.Cond{kc, b.bindCond(sc)}}
			}
		}
		text := expr.Print(kc)
		keyCond = &text
	}
	names, values := b.maps()
	if query {
		values = cloneItem(b.values)
	}

	// Where the previous page stopped.
	first := 0
	var esk Item
	if token != nil {
		raw, err := base64.RawURLEncoding.DecodeString(*token)
		var tok pageToken
		if err == nil {
			err = json.Unmarshal(raw, &tok)
		}
		if err == nil && len(tok.Key) > 0 {
			esk, err = ddbjson.UnmarshalItem(tok.Key)
		}
		if err != nil || tok.Part < 0 || (query && tok.Part >= len(parts)) || (!query && tok.Part != 0) {
			return nil, validation(msgBadNextToken)
		}
		first = tok.Part
	}
	if !query {
		parts = []types.AttributeValue{nil}
	}

	res := &selectResult{}
	most := 0 // items to read, 0 for no limit
	if limit != nil {
		most = int(min(*limit, math.MaxInt32))
	}
	scanned, size := 0, 0
	for i := first; i < len(parts); i++ {
		var start, end []byte
		in := eval.Input{Filter: filter, Projection: proj, Names: names, Values: values}
		if query {
			if !hasType(parts[i], src.hash.Type) {
				continue // a partition key of another type selects nothing
			}
			values[":pk"] = parts[i]
			in.KeyCondition = keyCond
		}
		ex, err := compile(in)
		if err != nil {
			return nil, err
		}
		if query {
			kc, err := ex.KeyCondition(src.hash.Name, src.rng.Name)
			if err != nil {
				return nil, evalError(err)
			}
			if err := checkKeyValue(kc.Partition, src.hash.Name, true); err != nil {
				return nil, err
			}
			if start, end, err = sortBounds(kc); err != nil {
				return nil, err
			}
		}
		if i == first && esk != nil {
			k, err := src.startKey(esk)
			if err != nil || bytes.Compare(k, start) < 0 || (end != nil && bytes.Compare(k, end) >= 0) {
				return nil, validation(msgBadNextToken)
			}
			if forward {
				start = after(k)
			} else {
				end = k
			}
		}
		if err := src.checkProjected(ex, query); err != nil {
			return nil, err
		}
		left := 0
		if most > 0 {
			left = most - scanned
		}
		src.spent = size
		p, err := src.walk(new(walker), start, end, forward, left, ex, false)
		if err != nil {
			return nil, err
		}
		res.items = append(res.items, p.items...)
		scanned += p.scanned
		size += p.size
		var stop *pageToken
		switch {
		case !p.lastItem.IsZero():
			res.lastKey = src.lastKey(itemOf(p.lastItem))
			k, err := ddbjson.MarshalItem(res.lastKey)
			if err != nil {
				return nil, err
			}
			stop = &pageToken{Part: i, Key: k}
		case i+1 < len(parts) && (size >= limits.MaxPageBytes || (most > 0 && scanned >= most)):
			stop = &pageToken{Part: i + 1}
		}
		if stop != nil {
			raw, _ := json.Marshal(stop)
			res.next = base64.RawURLEncoding.EncodeToString(raw)
			break
		}
	}
	res.mt = src.readMeter(size, mode, consistent)
	res.cc = res.mt.result(t.meta)
	return res, nil
}

// selectByKey answers a SELECT whose WHERE is nothing but an equality on
// every key attribute of the table as GetItem does: one lookup, no key
// condition or filter to compile, the same item and capacity the Query
// would give. ok is false for any other statement (or a key the lookup
// cannot take, such as a value of another type), which the general path
// answers with its own results and messages.
func (s *Server) selectByKey(t *table, st *partiql.Statement, consistent bool, mode string) (*selectResult, bool, error) {
	m := t.meta
	// One pass over the WHERE's AND terms: each must pin a key attribute,
	// and each key attribute be pinned once.
	key := make(Item, 2)
	var terms [4]expr.Cond
	for _, c := range appendConjuncts(terms[:0], st.Where) {
		pinned := false
		for _, k := range [2]string{m.Hash.Name, m.Range.Name} {
			if v, ok := equality(c, k); ok && k != "" && key[k] == nil {
				key[k], pinned = v, true
				break
			}
		}
		if !pinned {
			return nil, false, nil
		}
	}
	if key[m.Hash.Name] == nil || (m.Range.Name != "" && key[m.Range.Name] == nil) || m.checkKey(key, keyOfRequest) != nil {
		return nil, false, nil
	}
	var kb [64]byte
	k, err := m.appendItemKey(kb[:0], key)
	if err != nil {
		return nil, false, nil
	}
	var ex *eval.Compiled
	if len(st.Projection) > 0 {
		b := newBinder()
		proj := b.projection(st.Projection)
		names, _ := b.maps()
		if ex, err = compile(eval.Input{Projection: proj, Names: names}); err != nil {
			return nil, true, err
		}
	}
	v, _, err := t.items.Get(k)
	if err != nil {
		return nil, true, err
	}
	res := &selectResult{mt: meter{mode: mode, table: readUnits(v.Size(), consistent)}}
	if !v.IsZero() {
		out := outItem{v: v}
		if ex != nil && ex.HasProjection() {
			out = outItem{it: ex.Project(itemOf(v))}
		}
		res.items = []outItem{out}
	}
	res.cc = res.mt.result(m)
	return res, true, nil
}

// orderBy applies ORDER BY to a read of the partitions parts: sorting by
// the partition key orders parts, by the sort key picks the direction of
// the walk (forward, the default, is ascending). Only key attributes of the
// source read can order, and only a read that pins its partitions.
func orderBy(keys []partiql.OrderKey, query bool, src *source, parts []types.AttributeValue) (forward bool, err error) {
	forward = true
	if len(keys) == 0 {
		return forward, nil
	}
	if !query {
		return false, validation("Must have WHERE clause in the statement when using ORDER BY clause.")
	}
	for _, k := range keys {
		name, _ := k.Path.TopLevel()
		switch {
		case name != "" && name == src.hash.Name:
			slices.SortStableFunc(parts, func(a, b types.AttributeValue) int {
				if k.Desc {
					a, b = b, a
				}
				return compareKeyValues(a, b)
			})
		case name != "" && name == src.rng.Name:
			forward = !k.Desc
		default:
			return false, validationf("ORDER BY is supported only on the key attributes of the table or index read: %s", k.Path)
		}
	}
	return forward, nil
}

// compareKeyValues orders key values: strings and binaries bytewise,
// numbers by value, and values of different types by type.
func compareKeyValues(a, b types.AttributeValue) int {
	switch x := a.(type) {
	case *types.AttributeValueMemberS:
		if y, ok := b.(*types.AttributeValueMemberS); ok {
			return strings.Compare(x.Value, y.Value)
		}
	case *types.AttributeValueMemberB:
		if y, ok := b.(*types.AttributeValueMemberB); ok {
			return bytes.Compare(x.Value, y.Value)
		}
	case *types.AttributeValueMemberN:
		if y, ok := b.(*types.AttributeValueMemberN); ok {
			dx, err1 := numbers.Parse(x.Value)
			dy, err2 := numbers.Parse(y.Value)
			if err1 == nil && err2 == nil {
				return numbers.Compare(dx, dy)
			}
		}
	}
	return strings.Compare(typeOf(a), typeOf(b))
}

// --- INSERT, UPDATE, DELETE ---

// plannedWrite is a write statement as the JSON operation that runs it.
type plannedWrite struct {
	kind    string // Put, Update, Delete or ConditionCheck (EXISTS)
	insert  bool
	table   string
	item    Item // Put
	key     Item // the others
	cond    *string
	update  *string
	names   map[string]string
	values  Item
	returns string // ReturnValues
	rvoccf  *string
}

// metaOf is the definition of the named table (replaced, never changed,
// by UpdateTable, so it may be read once the lock is released).
func (s *Server) metaOf(name string) (*tableMeta, error) {
	t, err := s.readTable(nil, name)
	if err != nil {
		return nil, err
	}
	defer t.mu.RUnlock()
	return t.meta, nil
}

const (
	keyExists    = "attribute_exists"
	keyNotExists = "attribute_not_exists"
)

// planWrite translates INSERT, UPDATE, DELETE and EXISTS. The conditions
// give each its PartiQL meaning: INSERT fails when the key is taken
// (DuplicateItem), UPDATE and EXISTS when the item is missing or the WHERE
// clause is false, DELETE when an item exists and the clause is false (a
// DELETE of a missing item does nothing) — ql-reference.insert.html,
// ql-reference.update.html, ql-reference.delete.html.
func (s *Server) planWrite(st *partiql.Statement, rvoccf *string) (*plannedWrite, error) {
	m, err := s.metaOf(st.Table)
	if err != nil {
		return nil, err
	}
	hash, rng := m.Hash, m.Range
	b := newBinder()
	w := &plannedWrite{table: st.Table, returns: st.Returning, rvoccf: rvoccf}
	hashPath := expr.Path{{Name: hash.Name}}
	keyFunc := func(name string) expr.Cond {
		return &expr.CondFunc{Name: name, Args: []expr.Operand{hashPath}}
	}
	if st.Kind == partiql.Insert {
		w.kind, w.insert, w.item = "Put", true, st.Item
		w.key = Item{}
		for _, k := range []keyAttr{hash, rng} {
			if v := st.Item[k.Name]; v != nil && k.Name != "" {
				w.key[k.Name] = v
			}
		}
		w.cond = b.cond(keyFunc(keyNotExists))
		w.names, w.values = b.maps()
		return w, nil
	}
	if w.key, err = fullKey(st.Where, hash, rng); err != nil {
		return nil, err
	}
	switch st.Kind {
	case partiql.Update:
		w.kind = "Update"
		w.update = b.update(st.Update)
		w.cond = b.cond(&expr.And{Conds: append([]expr.Cond{keyFunc(keyExists)}, conjuncts(st.Where)...)})
	case partiql.Delete:
		w.kind = "Delete"
		if w.returns != "" && w.returns != "ALL_OLD" {
			return nil, validation("DELETE supports only RETURNING ALL OLD *")
		}
		if !onlyKeyTerms(st.Where, w.key) {
			w.cond = b.cond(&expr.Or{Conds: []expr.Cond{keyFunc(keyNotExists), st.Where}})
		}
	case partiql.Exists:
		w.kind = "ConditionCheck"
		w.cond = b.cond(&expr.And{Conds: append([]expr.Cond{keyFunc(keyExists)}, conjuncts(st.Where)...)})
	}
	w.names, w.values = b.maps()
	return w, nil
}

// requestKey is the Key member of the write: none for a Put, which names
// its item.
func (w *plannedWrite) requestKey() Item {
	if w.kind == "Put" {
		return nil
	}
	return w.key
}

// itemWrite is the JSON body of PutItem, UpdateItem and DeleteItem.
type itemWrite struct {
	TableName                           string
	Item                                itemJSONOut       `json:",omitempty"`
	Key                                 itemJSONOut       `json:",omitempty"`
	UpdateExpression                    *string           `json:",omitempty"`
	ConditionExpression                 *string           `json:",omitempty"`
	ExpressionAttributeNames            map[string]string `json:",omitempty"`
	ExpressionAttributeValues           itemJSONOut       `json:",omitempty"`
	ReturnValues                        string            `json:",omitempty"`
	ReturnConsumedCapacity              string            `json:",omitempty"`
	ReturnValuesOnConditionCheckFailure *string           `json:",omitempty"`
}

// runWrite runs a planned single write through its JSON operation's
// handler and returns the attributes RETURNING asked for (nil if none) and
// the consumed capacity.
func (s *Server) runWrite(c *call, w *plannedWrite, mode string) (attrs, cc json.RawMessage, err error) {
	req := itemWrite{
		TableName: w.table, Item: itemJSONOut(w.item), Key: itemJSONOut(w.requestKey()),
		UpdateExpression: w.update, ConditionExpression: w.cond,
		ExpressionAttributeNames: w.names, ExpressionAttributeValues: itemJSONOut(w.values),
		ReturnValues: w.returns, ReturnConsumedCapacity: mode, ReturnValuesOnConditionCheckFailure: w.rvoccf,
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, nil, err
	}
	var h handler
	switch w.kind {
	case "Put":
		h = (*Server).putItem
	case "Update":
		h = (*Server).updateItem
	case "Delete":
		h = (*Server).deleteItem
	default:
		return nil, nil, validation(msgExistsOutsideTx)
	}
	sub := &call{action: c.action, host: c.host, body: body, now: c.now, fault: c.fault}
	out, err := h(s, sub)
	c.see(sub.ticket) // the statement's answer waits for the write it made or saw
	if err != nil {
		if e, ok := err.(*Error); ok && w.insert && e.Type == "ConditionalCheckFailedException" {
			return nil, nil, &Error{Type: "DuplicateItemException", Message: msgDuplicateItem}
		}
		return nil, nil, err
	}
	raw, _ := out.(rawJSON)
	var res struct {
		Attributes       json.RawMessage
		ConsumedCapacity json.RawMessage
	}
	var answer []byte
	if raw != nil {
		answer = raw.b
	}
	if err := json.Unmarshal(answer, &res); err != nil {
		return nil, nil, err
	}
	putRespBuf(raw)
	if w.returns == "" {
		res.Attributes = nil
	}
	return res.Attributes, res.ConsumedCapacity, nil
}

// --- BatchExecuteStatement ---

type batchStatementRequest struct {
	parameterizedStatement
	ConsistentRead *bool
}

func (r *batchStatementRequest) statement() *parameterizedStatement {
	if r == nil {
		return nil
	}
	return &r.parameterizedStatement
}

type batchExecuteInput struct {
	Statements             []*batchStatementRequest
	ReturnConsumedCapacity *string
}

// batchError is the Error of one statement's response
// (API_BatchStatementError.html).
type batchError struct {
	Code    string
	Message string
	Item    json.RawMessage `json:",omitempty"`
}

type batchResponse struct {
	Error     *batchError     `json:",omitempty"`
	TableName string          `json:",omitempty"`
	Item      json.RawMessage `json:",omitempty"`
}

// statementError is err as a per-statement error: the error type without
// its "Exception" suffix, ValidationError for a ValidationException
// (API_BatchStatementError.html, Code).
func statementError(err error) *batchError {
	e, ok := plainError(err).(*Error)
	if !ok {
		e = internalError()
	}
	code := strings.TrimSuffix(e.Type, "Exception")
	switch e.Type {
	case "ValidationException":
		code = "ValidationError"
	case "ThrottlingException":
		code = "ThrottlingError"
	}
	be := &batchError{Code: code, Message: e.Message}
	if e.item != nil {
		be.Item = json.RawMessage(e.item)
	}
	return be
}

func (s *Server) batchExecuteStatement(c *call) (any, error) {
	var in batchExecuteInput
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	var cs constraints
	switch {
	case in.Statements == nil:
		cs.add(nil, "statements", ruleNotNull)
	case len(in.Statements) == 0:
		cs.add("[]", "statements", "Member must have length greater than or equal to 1")
	case len(in.Statements) > limits.MaxBatchStatements:
		cs.add(fmt.Sprintf("%d statements", len(in.Statements)), "statements", "Member must have length less than or equal to 25")
	}
	statementListConstraints(&cs, "statements", in.Statements)
	cs.enum(in.ReturnConsumedCapacity, "returnConsumedCapacity", "INDEXES", "TOTAL", "NONE")
	if err := cs.err(); err != nil {
		return nil, err
	}

	// Parse and plan every statement; one that fails answers its own error.
	n := len(in.Statements)
	stmts := make([]*partiql.Statement, n)
	writes := make([]*plannedWrite, n)
	keys := make([]Item, n)
	responses := make([]batchResponse, n)
	reads, nwrites := 0, 0
	for i, r := range in.Statements {
		st, err := parsePartiQL(*r.Statement, r.Parameters)
		if err == nil && st.Kind == partiql.Exists {
			err = validation(msgExistsOutsideTx)
		}
		if err != nil {
			responses[i].Error = statementError(err)
			continue
		}
		stmts[i] = st
		if st.Kind == partiql.Select {
			reads++
			var m *tableMeta
			if m, err = s.metaOf(st.Table); err == nil {
				if st.Index != "" {
					err = validation("Batch reads must read the table, not an index")
				} else {
					keys[i], err = fullKey(st.Where, m.Hash, m.Range)
				}
			}
		} else {
			nwrites++
			if writes[i], err = s.planWrite(st, r.ReturnValuesOnConditionCheckFailure); err == nil {
				keys[i] = writes[i].key
			}
		}
		if err != nil {
			responses[i].Error = statementError(err)
			stmts[i], writes[i] = nil, nil
		}
	}
	if reads > 0 && nwrites > 0 {
		return nil, validation(msgMixedBatch)
	}
	seen := map[string]bool{}
	for i, k := range keys {
		if k == nil || stmts[i] == nil {
			continue
		}
		b, err := ddbjson.MarshalItem(k)
		if err != nil {
			return nil, err
		}
		id := stmts[i].Table + "\x00" + string(b)
		if seen[id] {
			return nil, validation(msgBatchDuplicate)
		}
		seen[id] = true
	}

	// Run them one by one: each succeeds or fails on its own.
	mode := str(in.ReturnConsumedCapacity)
	meters := map[string]*meter{}
	metas := map[string]*tableMeta{}
	charge := func(table string, add func(*meter)) {
		mt := meters[table]
		if mt == nil {
			mt = &meter{mode: mode}
			meters[table] = mt
			metas[table], _ = s.metaOf(table)
		}
		add(mt)
	}
	for i, st := range stmts {
		if st == nil {
			continue
		}
		r := in.Statements[i]
		if st.Kind == partiql.Select {
			res, err := s.selectStatement(c, st, r.ConsistentRead != nil && *r.ConsistentRead, nil, nil, mode)
			if err != nil {
				responses[i].Error = statementError(err)
				continue
			}
			responses[i].TableName = st.Table
			if len(res.items) > 0 {
				b, err := res.items[0].appendJSON(nil)
				if err != nil {
					return nil, err
				}
				responses[i].Item = b
			}
			charge(st.Table, func(mt *meter) { mt.table += res.mt.table; mt.merge(&res.mt, 1) })
			continue
		}
		attrs, cc, err := s.runWrite(c, writes[i], mode)
		if err != nil {
			responses[i].Error = statementError(err)
			continue
		}
		responses[i].TableName = st.Table
		responses[i].Item = attrs
		if cc != nil {
			var got consumedCapacity
			if err := json.Unmarshal(cc, &got); err != nil {
				return nil, err
			}
			charge(st.Table, func(mt *meter) { mt.addConsumed(&got) })
		}
	}
	out := map[string]any{"Responses": responses}
	var caps []*consumedCapacity
	for _, name := range sortedKeys(meters) {
		if metas[name] == nil {
			continue
		}
		if cc := meters[name].result(metas[name]); cc != nil {
			caps = append(caps, cc)
		}
	}
	if caps != nil {
		out["ConsumedCapacity"] = caps
	}
	return out, nil
}

// addConsumed adds a call's reported capacity to m.
func (m *meter) addConsumed(cc *consumedCapacity) {
	if cc.Table == nil {
		m.table += cc.CapacityUnits
		return
	}
	m.table += cc.Table.CapacityUnits
	for name, u := range cc.GlobalSecondaryIndexes {
		m.addIndex(name, u.CapacityUnits)
	}
	for name, u := range cc.LocalSecondaryIndexes {
		m.addIndex(name, u.CapacityUnits)
	}
}

// --- ExecuteTransaction ---

type parameterizedStatement struct {
	Statement                           *string
	Parameters                          paramList
	ReturnValuesOnConditionCheckFailure *string
}

func (r *parameterizedStatement) statement() *parameterizedStatement { return r }

// statementListConstraints checks each statement of a batch or a
// transaction; member names the list in the messages.
func statementListConstraints[S interface {
	statement() *parameterizedStatement
}](cs *constraints, member string, list []S) {
	for i, r := range list {
		p := fmt.Sprintf("%s.%d.member.", member, i+1)
		st := r.statement()
		if st == nil {
			cs.add(nil, p[:len(p)-1], ruleNotNull)
			continue
		}
		statementConstraints(cs, p, st.Statement, st.Parameters)
		cs.enum(st.ReturnValuesOnConditionCheckFailure, p+"returnValuesOnConditionCheckFailure", "ALL_OLD", "NONE")
	}
}

type executeTransactionInput struct {
	TransactStatements     []*parameterizedStatement
	ClientRequestToken     *string
	ReturnConsumedCapacity *string
}

// getRequest is the JSON body of one Get of TransactGetItems.
type getRequest struct {
	TableName                string
	Key                      itemJSONOut
	ProjectionExpression     *string           `json:",omitempty"`
	ExpressionAttributeNames map[string]string `json:",omitempty"`
}

func (s *Server) executeTransaction(c *call) (any, error) {
	var in executeTransactionInput
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	var cs constraints
	checkTransactItems(&cs, "transactStatements", in.TransactStatements)
	statementListConstraints(&cs, "transactStatements", in.TransactStatements)
	cs.enum(in.ReturnConsumedCapacity, "returnConsumedCapacity", "INDEXES", "TOTAL", "NONE")
	checkClientToken(&cs, in.ClientRequestToken)
	if err := cs.err(); err != nil {
		return nil, err
	}
	stmts := make([]*partiql.Statement, len(in.TransactStatements))
	reads := 0
	for i, r := range in.TransactStatements {
		st, err := parsePartiQL(*r.Statement, r.Parameters)
		if err != nil {
			return nil, err
		}
		stmts[i] = st
		if st.Kind == partiql.Select {
			reads++
		}
	}
	if reads > 0 && reads < len(stmts) {
		return nil, validation(msgMixedTx)
	}
	if reads > 0 {
		return s.transactionReads(c, stmts, in.ReturnConsumedCapacity)
	}
	tw := &transactWriteInput{ReturnConsumedCapacity: in.ReturnConsumedCapacity, ClientRequestToken: in.ClientRequestToken}
	for i, st := range stmts {
		w, err := s.planWrite(st, in.TransactStatements[i].ReturnValuesOnConditionCheckFailure)
		if err != nil {
			return nil, err
		}
		if w.returns != "" {
			return nil, validation("RETURNING is not supported in ExecuteTransaction")
		}
		table := w.table
		op := &txOp{TableName: &table, Item: itemJSON(w.item), Key: itemJSON(w.requestKey()),
			ConditionExpression: w.cond, UpdateExpression: w.update,
			ExpressionAttributeNames: w.names, ExpressionAttributeValues: itemJSON(w.values),
			ReturnValuesOnConditionCheckFailure: w.rvoccf, insert: w.insert}
		ti := &transactWriteItem{}
		switch w.kind {
		case "Put":
			ti.Put = op
		case "Update":
			ti.Update = op
		case "Delete":
			ti.Delete = op
		case "ConditionCheck":
			ti.ConditionCheck = op
		}
		tw.TransactItems = append(tw.TransactItems, ti)
	}
	out, err := s.transactWrite(c, tw)
	return out, plainError(err)
}

// transactionReads runs SELECTs of whole keys as one TransactGetItems; the
// rest of each WHERE then decides whether its item is returned, and the
// projection what of it.
func (s *Server) transactionReads(c *call, stmts []*partiql.Statement, rcc *string) (any, error) {
	gets := make([]map[string]getRequest, len(stmts))
	exs := make([]*eval.Compiled, len(stmts))
	for i, st := range stmts {
		m, err := s.metaOf(st.Table)
		if err != nil {
			return nil, err
		}
		key, err := fullKey(st.Where, m.Hash, m.Range)
		if err != nil {
			return nil, err
		}
		if st.Index != "" || st.OrderBy != nil {
			return nil, validation("A SELECT in a transaction reads one item of a table: no index, no ORDER BY")
		}
		b := newBinder()
		filter, proj := b.cond(st.Where), b.projection(st.Projection)
		names, values := b.maps()
		if exs[i], err = compile(eval.Input{Filter: filter, Projection: proj, Names: names, Values: values}); err != nil {
			return nil, plainError(err)
		}
		gets[i] = map[string]getRequest{"Get": {TableName: st.Table, Key: itemJSONOut(key)}}
	}
	body, err := json.Marshal(map[string]any{"TransactItems": gets, "ReturnConsumedCapacity": rcc})
	if err != nil {
		return nil, err
	}
	sub := &call{action: c.action, host: c.host, body: body, now: c.now, fault: c.fault}
	out, err := s.transactGetItems(sub)
	c.see(sub.ticket) // the answer waits for the writes the reads saw
	if err != nil {
		return nil, err
	}
	for i, r := range out.(map[string]any)["Responses"].([]map[string]any) {
		it, ok := r["Item"].(itemJSONOut)
		if !ok {
			continue
		}
		if match, err := exs[i].Filter(Item(it)); err != nil {
			return nil, evalError(err)
		} else if !match {
			delete(r, "Item")
			continue
		}
		r["Item"] = itemJSONOut(exs[i].Project(Item(it)))
	}
	return out, nil
}
