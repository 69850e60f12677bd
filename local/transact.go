package local

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/dynamogo/dynamo/internal/itemsize"
	"github.com/dynamogo/dynamo/internal/limits"
	"github.com/dynamogo/dynamo/local/eval"
)

// TransactWriteItems and TransactGetItems (API_TransactWriteItems.html,
// API_TransactGetItems.html, transaction-apis.html).
//
// A transaction locks every table it names, in name order (writeTables),
// for its whole run: it reads every item, evaluates every condition and
// update against the state before the transaction, and then either applies
// every write (items, indexes, vector indexes) or none. Transactions are
// therefore serializable with each other and with single-item writes, and
// atomic with the indexes. Where DynamoDB's optimistic scheme cancels a
// transaction that meets a concurrent one (TransactionConflict), this server
// makes the later writer wait for the lock instead: every interleaving it
// allows is one DynamoDB allows, so no conflict can arise and none is
// reported.

const (
	tokenWindow = 10 * time.Minute

	msgTxDuplicate = "Transaction request cannot include multiple operations on one item"
	msgTxOneAction = "TransactItems can only contain one of Check, Put, Update or Delete"
)

// txOp is the union of the members of ConditionCheck, Put, Update, Delete
// and Get (API_TransactWriteItem.html, API_TransactGetItem.html).
type txOp struct {
	TableName                           *string
	Key                                 itemJSON
	Item                                itemJSON
	ConditionExpression                 *string
	UpdateExpression                    *string
	ProjectionExpression                *string
	ExpressionAttributeNames            map[string]string
	ExpressionAttributeValues           itemJSON
	ReturnValuesOnConditionCheckFailure *string

	// insert marks a PartiQL INSERT, whose failed condition (the key is
	// taken) is a DuplicateItem rather than a ConditionalCheckFailed.
	insert bool
}

type transactWriteItem struct {
	ConditionCheck *txOp
	Put            *txOp
	Update         *txOp
	Delete         *txOp
}

type transactWriteInput struct {
	TransactItems               []*transactWriteItem
	ReturnConsumedCapacity      *string
	ReturnItemCollectionMetrics *string
	ClientRequestToken          *string
}

// txWrite is one action of a transaction being run.
type txWrite struct {
	kind    string // ConditionCheck, Put, Update or Delete
	op      *txOp
	ex      *eval.Compiled
	t       *table
	key     []byte
	keyItem Item
	old, nu Item
	updated []string
}

// cancellationReason is one entry of CancellationReasons
// (API_CancellationReason.html): Code None for an action that would have
// succeeded.
type cancellationReason struct {
	Code    string
	Message string      `json:",omitempty"`
	Item    itemJSONOut `json:",omitempty"`

	fail error // fails the whole request instead of cancelling it
}

// transactionCanceled is the TransactionCanceledException listing a reason
// per action, in request order.
func transactionCanceled(reasons []cancellationReason) *Error {
	codes := make([]string, len(reasons))
	for i, r := range reasons {
		codes[i] = r.Code
	}
	b, _ := json.Marshal(reasons)
	e := &Error{
		Type:    "TransactionCanceledException",
		Message: "Transaction cancelled, please refer cancellation reasons for specific reasons [" + strings.Join(codes, ", ") + "]",
	}
	e.members = append([]byte(`,"CancellationReasons":`), b...)
	return e
}

// checkTransactItems adds the constraints on the length of TransactItems
// that TransactWriteItems and TransactGetItems share (and ExecuteTransaction,
// for its statements, under path).
func checkTransactItems[T any](cs *constraints, path string, items []T) {
	switch {
	case items == nil:
		cs.add(nil, path, ruleNotNull)
	case len(items) == 0:
		cs.add("[]", path, "Member must have length greater than or equal to 1")
	case len(items) > limits.MaxTransactItems:
		cs.add(fmt.Sprintf("%d items", len(items)), path, "Member must have length less than or equal to 100")
	}
}

// checkClientToken adds the constraints on a ClientRequestToken.
func checkClientToken(cs *constraints, tok *string) {
	if tok == nil {
		return
	}
	if len(*tok) < 1 {
		cs.add(*tok, "clientRequestToken", "Member must have length greater than or equal to 1")
	} else if len(*tok) > limits.MaxClientTokenLen {
		cs.add(*tok, "clientRequestToken", "Member must have length less than or equal to 36")
	}
}

func (s *Server) transactWriteItems(c *call) (any, error) {
	var in transactWriteInput
	if err := decodeFast(c, &in, (*transactWriteInput).decode); err != nil {
		return nil, err
	}
	return s.transactWrite(c, &in)
}

// transactWrite runs a decoded TransactWriteItems request (or the
// translation of an ExecuteTransaction); c.body is what a
// ClientRequestToken's fingerprint covers.
func (s *Server) transactWrite(c *call, in *transactWriteInput) (any, error) {
	var cs constraints
	checkTransactItems(&cs, "transactItems", in.TransactItems)
	for i, ti := range in.TransactItems {
		if ti == nil {
			continue
		}
		p := fmt.Sprintf("transactItems.%d.member", i+1)
		if o := ti.ConditionCheck; o != nil {
			o.constraints(&cs, p+".conditionCheck", true)
			if o.ConditionExpression == nil {
				cs.add(nil, p+".conditionCheck.conditionExpression", ruleNotNull)
			}
		}
		if o := ti.Put; o != nil {
			o.constraints(&cs, p+".put", false)
			if o.Item == nil {
				cs.add(nil, p+".put.item", ruleNotNull)
			}
		}
		if o := ti.Update; o != nil {
			o.constraints(&cs, p+".update", true)
			if o.UpdateExpression == nil {
				cs.add(nil, p+".update.updateExpression", ruleNotNull)
			}
		}
		if o := ti.Delete; o != nil {
			o.constraints(&cs, p+".delete", true)
		}
	}
	// The service lists the token before the enums (observed 2026-10-09:
	// paritysuite/dynamodb-conformance,
	// tests/tier3/validation-ordering/transactions.test.ts).
	checkClientToken(&cs, in.ClientRequestToken)
	cs.enum(in.ReturnConsumedCapacity, "returnConsumedCapacity", "INDEXES", "TOTAL", "NONE")
	cs.enum(in.ReturnItemCollectionMetrics, "returnItemCollectionMetrics", "SIZE", "NONE")
	if err := cs.err(); err != nil {
		return nil, err
	}

	// Everything that needs no item: one action per element, values,
	// expressions, the aggregate size.
	writes := make([]*txWrite, len(in.TransactItems))
	size := 0
	for i, ti := range in.TransactItems {
		w, err := ti.prepare()
		if err != nil {
			return nil, err
		}
		writes[i] = w
		size += itemsize.Item(Item(w.op.Item)) + itemsize.Item(Item(w.op.Key))
	}
	if size > limits.MaxTransactBytes {
		// The limit is documented (API_TransactWriteItems.html); the
		// service's wording is not captured.
		return nil, validation(msgTxTooLarge)
	}

	// Idempotency: a token seen with the same request within the window
	// answers as before without applying anything again.
	var fp [32]byte
	tok := str(in.ClientRequestToken)
	if tok != "" {
		var err error
		if fp, err = fingerprint(c.body); err != nil {
			return nil, err
		}
		done, err := s.tokens.begin(tok, fp, c.now)
		if err != nil {
			return nil, err
		}
		if done {
			return s.replayTransaction(c, writes, in)
		}
	}
	out, err := s.runTransaction(c, writes, in)
	if tok != "" {
		s.tokens.end(tok, err == nil, s.now())
	}
	return out, err
}

func (o *txOp) constraints(cs *constraints, path string, key bool) {
	cs.itemTableName(o.TableName, path+".tableName")
	if key && o.Key == nil {
		cs.add(nil, path+".key", ruleNotNull)
	}
	cs.enum(o.ReturnValuesOnConditionCheckFailure, path+".returnValuesOnConditionCheckFailure", "ALL_OLD", "NONE")
}

// prepare checks one element of TransactItems and compiles its expressions.
func (ti *transactWriteItem) prepare() (*txWrite, error) {
	if ti == nil {
		return nil, validation(msgTxOneAction)
	}
	w := &txWrite{}
	n := 0
	for kind, o := range map[string]*txOp{"ConditionCheck": ti.ConditionCheck, "Put": ti.Put, "Update": ti.Update, "Delete": ti.Delete} {
		if o != nil {
			w.kind, w.op = kind, o
			n++
		}
	}
	if n != 1 {
		return nil, validation(msgTxOneAction)
	}
	o := w.op
	for _, it := range []Item{Item(o.Item), Item(o.Key), Item(o.ExpressionAttributeValues)} {
		if err := checkValues(it); err != nil {
			return nil, err
		}
	}
	in := eval.Input{Condition: o.ConditionExpression, Names: o.ExpressionAttributeNames, Values: o.ExpressionAttributeValues}
	if w.kind == "Update" {
		in.Update = o.UpdateExpression
	}
	ex, err := compile(in)
	if err != nil {
		return nil, err
	}
	w.ex = ex
	return w, nil
}

func txTableNames(writes []*txWrite) []string {
	names := make([]string, len(writes))
	for i, w := range writes {
		names[i] = *w.op.TableName
	}
	return names
}

// resolve locks the tables and checks every action's key against its
// table; the caller calls unlock.
func (s *Server) resolveTransaction(c *call, writes []*txWrite) (func(), error) {
	tables, unlock, err := s.writeTables(c, txTableNames(writes))
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	invalid := make([]error, len(writes))
	for i, w := range writes {
		w.t = tables[*w.op.TableName]
		m := w.t.meta
		src := Item(w.op.Key)
		if w.kind == "Put" {
			src = Item(w.op.Item)
		}
		if err := m.checkKeyValues(src); err != nil {
			unlock()
			return nil, err
		}
		if w.kind == "Put" {
			it := Item(w.op.Item)
			w.keyItem = keyOf(m, it)
			if err = m.checkKey(it, keyOfItem); err == nil {
				// The item's other checks fail the request, in the order
				// PutItem and BatchWriteItem share.
				if _, err := w.t.checkPut(it); err != nil {
					unlock()
					return nil, err
				}
			}
		} else {
			err = m.checkKey(Item(w.op.Key), keyOfRequest)
			w.keyItem = Item(w.op.Key)
		}
		if err == nil {
			w.key, err = m.appendItemKey(nil, w.keyItem)
		}
		if err != nil {
			invalid[i] = err
			continue
		}
		id := m.Name + "\x00" + string(w.key)
		if seen[id] {
			unlock()
			return nil, validation(msgTxDuplicate)
		}
		seen[id] = true
	}
	if err := invalidActions(invalid); err != nil {
		unlock()
		return nil, err
	}
	return unlock, nil
}

// invalidActions is the answer to a transaction some of whose actions
// failed validation against their table (a key of the wrong type, a missing
// key attribute): the service cancels it with ValidationError as those
// actions' reasons rather than failing the request (API_CancellationReason.html;
// observed). An empty key value fails the request before (checkKeyValues).
// It is nil when every action is valid.
func invalidActions(errs []error) error {
	reasons := make([]cancellationReason, len(errs))
	cancelled := false
	for i, err := range errs {
		reasons[i] = cancellationReason{Code: "None"}
		if err == nil {
			continue
		}
		if e, ok := err.(*Error); !ok || e.Type != "ValidationException" {
			return err
		}
		reasons[i], cancelled = validationReason(err), true
	}
	if !cancelled {
		return nil
	}
	return transactionCanceled(reasons)
}

// runTransaction evaluates every action against the state before the
// transaction and applies all of them, or cancels with a reason per action.
func (s *Server) runTransaction(c *call, writes []*txWrite, in *transactWriteInput) (any, error) {
	unlock, err := s.resolveTransaction(c, writes)
	if err != nil {
		return nil, err
	}
	defer unlock()
	reasons := make([]cancellationReason, len(writes))
	cancelled := false
	for i, w := range writes {
		reasons[i] = w.evaluate()
		if reasons[i].fail != nil {
			return nil, reasons[i].fail
		}
		if reasons[i].Code != "None" {
			cancelled = true
		}
	}
	if cancelled {
		return nil, transactionCanceled(reasons)
	}

	// Every write of the transaction, with its index entries, goes to the
	// engine as one batch: all or nothing, even across a crash.
	mode := str(in.ReturnConsumedCapacity)
	meters := map[string]*meter{}
	metrics := map[string][]itemCollectionMetrics{}
	var batch writeBatch
	staged := make([]*meter, len(writes))
	for i, w := range writes {
		name := w.t.meta.Name
		mt := meters[name]
		if mt == nil {
			mt = &meter{mode: mode, write: true}
			meters[name] = mt
		}
		if w.kind == "ConditionCheck" {
			mt.table += 2 * writeUnits(itemsize.Item(w.old))
			continue
		}
		om := &meter{mode: mode, write: true}
		enc, err := encodeItem(w.nu)
		if err != nil {
			return nil, err
		}
		oldSize, newSize := itemsize.Item(w.old), enc.Size()
		if err := w.t.stage(&batch, w.key, w.old, w.nu, enc, om); err != nil {
			return nil, err
		}
		mt.table += 2 * writeUnits(max(newSize, oldSize))
		staged[i] = om
	}
	if err := batch.commit(s.engine, c); err != nil {
		return nil, err
	}
	for i, w := range writes {
		if staged[i] == nil {
			continue
		}
		name := w.t.meta.Name
		meters[name].merge(staged[i], 2) // after commit, which meters vector writes
		if str(in.ReturnItemCollectionMetrics) == "SIZE" && w.t.hasLSI() {
			metrics[name] = append(metrics[name], w.t.collectionMetrics(w.keyItem))
		}
	}
	return transactResponse(writes, meters, metrics, in.ReturnItemCollectionMetrics), nil
}

// evaluate checks an action's condition and computes the item it writes.
func (w *txWrite) evaluate() cancellationReason {
	v, _, err := w.t.items.Get(w.key)
	if err != nil {
		return cancellationReason{Code: "InternalError", Message: "Internal server error"}
	}
	old := itemOf(v)
	w.old = old
	ok, err := w.ex.Condition(old)
	if err != nil {
		return validationReason(evalError(err))
	}
	if !ok && w.op.insert {
		return cancellationReason{Code: "DuplicateItem", Message: msgDuplicateItem}
	}
	if !ok {
		r := cancellationReason{Code: "ConditionalCheckFailed", Message: "The conditional request failed"}
		if old != nil && str(w.op.ReturnValuesOnConditionCheckFailure) == "ALL_OLD" {
			r.Item = itemJSONOut(old)
		}
		return r
	}
	m := w.t.meta
	switch w.kind {
	case "Put":
		w.nu = Item(w.op.Item)
	case "Delete":
		w.nu = nil
	case "Update":
		nu, updated, err := updateResult(w.ex, old, w.keyItem, m.keyNames())
		if err == nil && nu == nil {
			w.nu = nil // nothing to create
			return cancellationReason{Code: "None"}
		}
		if err == nil {
			err = checkValues(nu)
		}
		if err == nil {
			err = m.checkUpdatedIndexKeys(nu)
			if err == errUpdatedIndexKeyEmptyS || err == errUpdatedIndexKeyEmptyB {
				return cancellationReason{fail: err}
			}
		}
		if err == nil && itemsize.Item(nu) > limits.MaxItemBytes {
			err = validation(errUpdateTooLarge)
		}
		if err == nil {
			err = w.t.checkVectorUpdate(nu, updated)
		}
		if err != nil {
			return validationReason(evalError(err))
		}
		w.nu, w.updated = nu, updated
	}
	return cancellationReason{Code: "None"}
}

func validationReason(err error) cancellationReason {
	msg := err.Error()
	if e, ok := err.(*Error); ok {
		msg = e.Message
	}
	return cancellationReason{Code: "ValidationError", Message: msg}
}

// replayTransaction answers a repeated request: nothing is applied again;
// the capacity reported is that of reading the items (API_TransactWriteItems.html,
// ClientRequestToken).
func (s *Server) replayTransaction(c *call, writes []*txWrite, in *transactWriteInput) (any, error) {
	unlock, err := s.resolveTransaction(c, writes)
	if err != nil {
		return nil, err
	}
	defer unlock()
	meters := map[string]*meter{}
	for _, w := range writes {
		name := w.t.meta.Name
		mt := meters[name]
		if mt == nil {
			mt = &meter{mode: str(in.ReturnConsumedCapacity)}
			meters[name] = mt
		}
		v, _, err := w.t.items.Get(w.key)
		if err != nil {
			return nil, err
		}
		mt.table += 2 * readUnits(v.Size(), true)
	}
	return transactResponse(writes, meters, nil, nil), nil
}

func transactResponse(writes []*txWrite, meters map[string]*meter, metrics map[string][]itemCollectionMetrics, icm *string) map[string]any {
	out := map[string]any{}
	var caps []*consumedCapacity
	for _, n := range sortedKeys(meters) {
		if cc := meters[n].result(tableMetaOf(writes, n)); cc != nil {
			caps = append(caps, cc)
		}
	}
	if caps != nil {
		out["ConsumedCapacity"] = caps
	}
	if str(icm) == "SIZE" && len(metrics) > 0 {
		out["ItemCollectionMetrics"] = metrics
	}
	return out
}

func tableMetaOf(writes []*txWrite, name string) *tableMeta {
	for _, w := range writes {
		if w.t.meta.Name == name {
			return w.t.meta
		}
	}
	return nil
}

// merge adds another meter's index units, times factor (transactions cost
// double).
func (m *meter) merge(o *meter, factor float64) {
	for n, u := range o.indexes {
		m.addIndex(n, factor*u)
	}
	for n, b := range o.vectors {
		m.addVector(n, b)
	}
}

// --- idempotency tokens ---

// tokenStore remembers ClientRequestTokens for ten minutes after their
// transaction completed (API_TransactWriteItems.html).
type tokenStore struct {
	mu    sync.Mutex
	seen  map[string]*tokenEntry
	queue []string // completed tokens in completion order, for expiry
}

type tokenEntry struct {
	fp      [32]byte
	done    bool      // completed successfully (else in progress)
	expires time.Time // done entries: completion + tokenWindow
}

// begin registers tok for a request with fingerprint fp. done reports that
// the same request already completed within the window.
func (ts *tokenStore) begin(tok string, fp [32]byte, now time.Time) (done bool, err error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.seen == nil {
		ts.seen = map[string]*tokenEntry{}
	}
	// Completed tokens expire in completion order: drop them from the front.
	for len(ts.queue) > 0 {
		e := ts.seen[ts.queue[0]]
		if e != nil && e.done && now.Before(e.expires) {
			break
		}
		if e != nil && e.done {
			delete(ts.seen, ts.queue[0])
		}
		ts.queue = ts.queue[1:]
	}
	if e := ts.seen[tok]; e != nil {
		if e.fp != fp {
			return false, &Error{Type: "IdempotentParameterMismatchException", Message: "The request uses the same client token as a previous, but non-identical request."}
		}
		if !e.done {
			return false, &Error{Type: "TransactionInProgressException", Message: "The transaction with the given request token is already in progress."}
		}
		return true, nil
	}
	ts.seen[tok] = &tokenEntry{fp: fp}
	return false, nil
}

// end records the outcome: a success is remembered for the window, a
// failure forgets the token (a retry runs the transaction again).
func (ts *tokenStore) end(tok string, ok bool, now time.Time) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	e := ts.seen[tok]
	if e == nil || e.done {
		return
	}
	if !ok {
		delete(ts.seen, tok)
		return
	}
	e.done, e.expires = true, now.Add(tokenWindow)
	ts.queue = append(ts.queue, tok)
}

// fingerprint hashes a request canonically: the SDK writes map members in
// any order, so the body is decoded and re-encoded with sorted keys.
func fingerprint(body []byte) ([32]byte, error) {
	var v any
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return [32]byte{}, serialization("Start of structure or map found where not expected.")
	}
	b, err := json.Marshal(v)
	if err != nil {
		return [32]byte{}, err
	}
	return sha256.Sum256(b), nil
}

// --- TransactGetItems ---

type transactGetInput struct {
	TransactItems []*struct {
		Get *txOp
	}
	ReturnConsumedCapacity *string
}

func (s *Server) transactGetItems(c *call) (any, error) {
	var in transactGetInput
	if err := decodeFast(c, &in, (*transactGetInput).decode); err != nil {
		return nil, err
	}
	var cs constraints
	checkTransactItems(&cs, "transactItems", in.TransactItems)
	for i, ti := range in.TransactItems {
		p := fmt.Sprintf("transactItems.%d.member.get", i+1)
		if ti == nil || ti.Get == nil {
			cs.add(nil, p, ruleNotNull)
			continue
		}
		cs.itemTableName(ti.Get.TableName, p+".tableName")
		if ti.Get.Key == nil {
			cs.add(nil, p+".key", ruleNotNull)
		}
	}
	cs.enum(in.ReturnConsumedCapacity, "returnConsumedCapacity", "INDEXES", "TOTAL", "NONE")
	if err := cs.err(); err != nil {
		return nil, err
	}
	exs := make([]*eval.Compiled, len(in.TransactItems))
	names := make([]string, len(in.TransactItems))
	for i, ti := range in.TransactItems {
		if err := checkValues(Item(ti.Get.Key)); err != nil {
			return nil, err
		}
		ex, err := compile(eval.Input{Projection: ti.Get.ProjectionExpression, Names: ti.Get.ExpressionAttributeNames})
		if err != nil {
			return nil, err
		}
		exs[i], names[i] = ex, *ti.Get.TableName
	}
	// Read holding the read locks of every table named, so the items come
	// from one point in time with respect to every write.
	tables, unlock, err := s.readTables(c, names)
	if err != nil {
		return nil, err
	}
	defer unlock()
	keys := make([][]byte, len(names))
	invalid := make([]error, len(names))
	seen := map[string]bool{}
	for i, ti := range in.TransactItems {
		m := tables[names[i]].meta
		if err := m.checkKeyValues(Item(ti.Get.Key)); err != nil {
			return nil, err
		}
		err := m.checkKey(Item(ti.Get.Key), keyOfRequest)
		if err == nil {
			keys[i], err = m.appendItemKey(nil, Item(ti.Get.Key))
		}
		if err != nil {
			invalid[i] = err
			continue
		}
		id := m.Name + "\x00" + string(keys[i])
		if seen[id] {
			return nil, validation(msgTxDuplicate)
		}
		seen[id] = true
	}
	if err := invalidActions(invalid); err != nil {
		return nil, err
	}
	mode := str(in.ReturnConsumedCapacity)
	meters := map[string]*meter{}
	responses := make([]map[string]any, len(names))
	for i := range names {
		t := tables[names[i]]
		v, _, err := t.items.Get(keys[i])
		if err != nil {
			return nil, err
		}
		mt := meters[names[i]]
		if mt == nil {
			mt = &meter{mode: mode}
			meters[names[i]] = mt
		}
		mt.table += 2 * readUnits(v.Size(), true)
		responses[i] = map[string]any{}
		if !v.IsZero() {
			responses[i]["Item"] = itemJSONOut(exs[i].Project(itemOf(v)))
		}
	}
	out := map[string]any{"Responses": responses}
	var caps []*consumedCapacity
	for _, n := range sortedKeys(meters) {
		if cc := meters[n].result(tables[n].meta); cc != nil {
			caps = append(caps, cc)
		}
	}
	if caps != nil {
		out["ConsumedCapacity"] = caps
	}
	return out, nil
}
