package request

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/expr"
)

// Options are typed per operation family. Each family is an interface with
// an unexported marker method, so an option that makes no sense for an
// operation does not compile there: Consistent() is a GetOption, QueryOption,
// ScanOption and BatchGetOption; If(cond) a PutOption, DeleteOption,
// UpdateOption and TxOpOption; Segment only a ScanOption. Options whose
// values are wrong (a Limit below 1, a consistent read on a GSI) are
// validation errors before any request.

// GetOption configures Get.
type GetOption interface {
	apply(*config)
	getOption()
}

// PutOption configures Put.
type PutOption interface {
	apply(*config)
	putOption()
}

// DeleteOption configures Delete.
type DeleteOption interface {
	apply(*config)
	deleteOption()
}

// UpdateOption configures Update.
type UpdateOption interface {
	apply(*config)
	updateOption()
}

// QueryOption configures Query.
type QueryOption interface {
	apply(*config)
	queryOption()
}

// ScanOption configures Scan.
type ScanOption interface {
	apply(*config)
	scanOption()
}

// BatchGetOption configures BatchGet.
type BatchGetOption interface {
	apply(*config)
	batchGetOption()
}

// BatchWriteOption configures BatchWrite.
type BatchWriteOption interface {
	apply(*config)
	batchWriteOption()
}

// TxOpOption configures one operation of a transaction (TxPut, TxUpdate,
// TxDelete, TxCheck).
type TxOpOption interface {
	apply(*config)
	txOpOption()
}

// TxOption configures TransactWrite as a whole.
type TxOption interface {
	apply(*config)
	txOption()
}

// TxGetOption configures TransactGet.
type TxGetOption interface {
	apply(*config)
	txGetOption()
}

// SearchOption configures SearchVectors.
type SearchOption interface {
	apply(*config)
	searchOption()
}

// ReadOption is an option of every single-table read: Get, Query, Scan and BatchGet.
type ReadOption interface {
	GetOption
	QueryOption
	ScanOption
	BatchGetOption
}

// ConditionOption is an option of the conditional writes: Put, Delete, Update and
// each operation of a transaction.
type ConditionOption interface {
	PutOption
	DeleteOption
	UpdateOption
	TxOpOption
}

// FilterOption is an option of the reads that filter: Query, Scan and
// SearchVectors.
type FilterOption interface {
	QueryOption
	ScanOption
	SearchOption
}

// ProjectionOption is an option of every read that can project.
type ProjectionOption interface {
	GetOption
	QueryOption
	ScanOption
	BatchGetOption
	TxGetOption
	SearchOption
}

// ReturnValuesOption is an option of Put, Delete and Update.
type ReturnValuesOption interface {
	PutOption
	DeleteOption
	UpdateOption
}

// CapacityOption is an option of every operation.
type CapacityOption interface {
	GetOption
	PutOption
	DeleteOption
	UpdateOption
	QueryOption
	ScanOption
	BatchGetOption
	BatchWriteOption
	TxOption
	TxGetOption
	SearchOption
}

// ListOption is an option of Query and Scan.
type ListOption interface {
	QueryOption
	ScanOption
}

// config is every option's destination; each builder reads the fields its
// family can set.
type config struct {
	consistent   bool
	cond         expr.Cond
	condSet      bool
	filter       expr.Cond
	filterSet    bool
	projection   []expr.Path
	projSet      bool
	returnValues types.ReturnValue
	onCondFail   types.ReturnValuesOnConditionCheckFailure
	capacity     types.ReturnConsumedCapacity
	index        string
	limit        int
	limitSet     bool
	startKey     map[string]types.AttributeValue
	descending   bool
	sel          types.Select
	segment      int
	segments     int
	segmentSet   bool
	sort         *sortKey
	token        string
	topK         int
	topKSet      bool
}

type consistent struct{}

func (consistent) apply(c *config) { c.consistent = true }
func (consistent) getOption()      {}
func (consistent) queryOption()    {}
func (consistent) scanOption()     {}
func (consistent) batchGetOption() {}

// Consistent asks for a strongly consistent read (ConsistentRead). Not
// available on global secondary indexes.
func Consistent() ReadOption {
	return consistent{}
}

type condition struct{ c expr.Cond }

func (o condition) apply(c *config) { c.cond, c.condSet = o.c, true }
func (condition) putOption()        {}
func (condition) deleteOption()     {}
func (condition) updateOption()     {}
func (condition) txOpOption()       {}

// If makes a write conditional (ConditionExpression): the write happens only
// when cond holds for the item as stored.
func If(cond expr.Cond) ConditionOption {
	return condition{cond}
}

type filter struct{ c expr.Cond }

func (o filter) apply(c *config) { c.filter, c.filterSet = o.c, true }
func (filter) queryOption()      {}
func (filter) scanOption()       {}
func (filter) searchOption()     {}

// Filter drops items that do not satisfy cond after they are read
// (FilterExpression; for SearchVectors the SearchConditionExpression).
// Filtered items still cost read capacity.
func Filter(cond expr.Cond) FilterOption {
	return filter{cond}
}

type projection []expr.Path

func (o projection) apply(c *config) { c.projection, c.projSet = o, true }
func (projection) getOption()        {}
func (projection) queryOption()      {}
func (projection) scanOption()       {}
func (projection) batchGetOption()   {}
func (projection) searchOption()     {}
func (projection) txGetOption()      {}

// Project returns only the named top-level attributes (ProjectionExpression,
// each name through a placeholder). Loading a projected item into a struct
// leaves the other fields at their zero values.
func Project(attrs ...string) ProjectionOption {
	p := make(projection, len(attrs))
	for i, a := range attrs {
		p[i] = expr.Attr(a)
	}
	return p
}

// ProjectPaths is Project for document paths: nested map keys and list
// elements (expr.Attr("address", "city"), expr.Attr("items").Index(0)).
func ProjectPaths(paths ...expr.Path) ProjectionOption {
	return projection(append([]expr.Path(nil), paths...))
}

type returnValues types.ReturnValue

func (o returnValues) apply(c *config) { c.returnValues = types.ReturnValue(o) }
func (returnValues) putOption()        {}
func (returnValues) deleteOption()     {}
func (returnValues) updateOption()     {}

// ReturnValues asks for the item as it was or is (ReturnValues). Put and
// Delete accept NONE and ALL_OLD; Update all five.
func ReturnValues(rv types.ReturnValue) ReturnValuesOption {
	return returnValues(rv)
}

type onConditionFail types.ReturnValuesOnConditionCheckFailure

func (o onConditionFail) apply(c *config) {
	c.onCondFail = types.ReturnValuesOnConditionCheckFailure(o)
}
func (onConditionFail) putOption()    {}
func (onConditionFail) deleteOption() {}
func (onConditionFail) updateOption() {}
func (onConditionFail) txOpOption()   {}

// ReturnOldOnConditionFail makes a failed condition return the item as
// stored (ReturnValuesOnConditionCheckFailure ALL_OLD), in the error of a
// single write or in the cancellation reason of a transaction operation.
func ReturnOldOnConditionFail() ConditionOption {
	return onConditionFail(types.ReturnValuesOnConditionCheckFailureAllOld)
}

type capacity types.ReturnConsumedCapacity

func (o capacity) apply(c *config) { c.capacity = types.ReturnConsumedCapacity(o) }
func (capacity) getOption()        {}
func (capacity) putOption()        {}
func (capacity) deleteOption()     {}
func (capacity) updateOption()     {}
func (capacity) queryOption()      {}
func (capacity) scanOption()       {}
func (capacity) batchGetOption()   {}
func (capacity) batchWriteOption() {}
func (capacity) txOption()         {}
func (capacity) searchOption()     {}
func (capacity) txGetOption()      {}

// ConsumedCapacity asks for the capacity a request consumed
// (ReturnConsumedCapacity: TOTAL, INDEXES or NONE).
func ConsumedCapacity(level types.ReturnConsumedCapacity) CapacityOption {
	return capacity(level)
}

type index string

func (o index) apply(c *config) { c.index = string(o) }
func (index) queryOption()      {}
func (index) scanOption()       {}

// Index reads a secondary index of the schema (IndexName). For Query the
// partition value comes from the index's partition field.
func Index(name string) ListOption {
	return index(name)
}

type limit int

func (o limit) apply(c *config) { c.limit, c.limitSet = int(o), true }
func (limit) queryOption()      {}
func (limit) scanOption()       {}

// Limit caps the number of items evaluated per page (Limit, at least 1).
func Limit(n int) ListOption {
	return limit(n)
}

type startKey map[string]types.AttributeValue

func (o startKey) apply(c *config) { c.startKey = o }
func (startKey) queryOption()      {}
func (startKey) scanOption()       {}

// StartKey continues a Query or Scan after a page (ExclusiveStartKey): pass
// the previous page's LastEvaluatedKey. A nil or empty key starts over.
func StartKey(key map[string]types.AttributeValue) ListOption {
	return startKey(key)
}

type descending struct{}

func (descending) apply(c *config) { c.descending = true }
func (descending) queryOption()    {}

// Descending reads the sort key from high to low (ScanIndexForward false).
func Descending() QueryOption { return descending{} }

type selectOpt types.Select

func (o selectOpt) apply(c *config) { c.sel = types.Select(o) }
func (selectOpt) queryOption()      {}
func (selectOpt) scanOption()       {}

// Select chooses what a Query or Scan returns (Select): COUNT, ALL_ATTRIBUTES
// or ALL_PROJECTED_ATTRIBUTES (an index only). Project implies
// SPECIFIC_ATTRIBUTES.
func Select(s types.Select) ListOption {
	return selectOpt(s)
}

type segment struct{ i, n int }

func (o segment) apply(c *config) { c.segment, c.segments, c.segmentSet = o.i, o.n, true }
func (segment) scanOption()       {}

// Segment reads segment i of a parallel scan split into total segments
// (Segment, TotalSegments): 0 <= i < total <= 1000000.
func Segment(i, total int) ScanOption { return segment{i, total} }

type token string

func (o token) apply(c *config) { c.token = string(o) }
func (token) txOption()         {}

// ClientRequestToken makes a transaction idempotent: DynamoDB applies the
// same token at most once within ten minutes, so a retried timeout does not
// apply it twice.
func ClientRequestToken(tok string) TxOption { return token(tok) }

type topK int

func (o topK) apply(c *config) { c.topK, c.topKSet = int(o), true }
func (topK) searchOption()     {}

// TopK is the number of nearest neighbours SearchVectors returns, 1 to 100;
// the default is 10.
func TopK(k int) SearchOption { return topK(k) }

// Sort-key conditions of Query.
type sortKey struct {
	op   expr.KeyOp
	vals []any
}

func (o *sortKey) apply(c *config) { c.sort = o }
func (*sortKey) queryOption()      {}

// SortEq restricts a Query to sort key = v. For a table with generated
// composite keys v is the composed sort-key string; for an index or a
// RawKeys table it is a value of the sort-key field's type.
func SortEq(v any) QueryOption { return &sortKey{op: expr.KeyEQ, vals: []any{v}} }

// SortLt restricts a Query to sort key < v.
func SortLt(v any) QueryOption { return &sortKey{op: expr.KeyLT, vals: []any{v}} }

// SortLe restricts a Query to sort key <= v.
func SortLe(v any) QueryOption { return &sortKey{op: expr.KeyLE, vals: []any{v}} }

// SortGt restricts a Query to sort key > v.
func SortGt(v any) QueryOption { return &sortKey{op: expr.KeyGT, vals: []any{v}} }

// SortGe restricts a Query to sort key >= v.
func SortGe(v any) QueryOption { return &sortKey{op: expr.KeyGE, vals: []any{v}} }

// SortBetween restricts a Query to lo <= sort key <= hi.
func SortBetween(lo, hi any) QueryOption {
	return &sortKey{op: expr.KeyBetween, vals: []any{lo, hi}}
}

// SortBeginsWith restricts a Query to sort keys starting with prefix (a
// string, or []byte for a binary sort key).
func SortBeginsWith(prefix any) QueryOption {
	return &sortKey{op: expr.KeyBeginsWith, vals: []any{prefix}}
}

// SortNone queries the whole partition, ignoring the sort-key fields set on
// the value. Without any Sort option the sort key is derived from the value:
// the generated (possibly partial) sort key as a prefix, or equality on an
// index's or RawKeys table's own sort-key field when it is set.
func SortNone() QueryOption { return &sortKey{op: expr.KeyNone} }
