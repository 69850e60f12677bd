package request

import (
	"reflect"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/internal/sealed"
)

// Options are typed per operation family. Each family is an interface with
// an unexported marker method, so an option that makes no sense for an
// operation does not compile there: Consistent() is a GetOption, QueryOption,
// ScanOption and BatchGetOption; If(cond) a PutOption, DeleteOption,
// UpdateOption and TxOpOption; Segment only a ScanOption. Options whose
// values are wrong (a Limit below 1, a consistent read on a GSI) are
// validation errors before any request.

// option is what every option does: set its part of the config.
type option interface{ apply(*config) }

// GetOption configures Get.
type GetOption interface {
	option
	getOption()
}

// PutOption configures Put.
type PutOption interface {
	option
	putOption()
}

// DeleteOption configures Delete.
type DeleteOption interface {
	option
	deleteOption()
}

// UpdateOption is an argument of Update: an expr.Change or an option (If,
// ReturnValues, ReturnOldOnConditionFail, ConsumedCapacity).
type UpdateOption interface {
	sealed.UpdateArg
}

// QueryAllOption configures the reads that page through a whole query
// (QueryAll and QueryStream of package dynamo): every QueryOption, and
// MaxItems.
type QueryAllOption interface {
	option
	queryAllOption()
}

// QueryOption configures Query.
type QueryOption interface {
	QueryAllOption
	queryOption()
}

// ScanAllOption configures the reads that page through a whole scan
// (ScanAll and ScanStream of package dynamo): every ScanOption, MaxItems and
// Parallel.
type ScanAllOption interface {
	option
	scanAllOption()
}

// ScanOption configures Scan.
type ScanOption interface {
	ScanAllOption
	scanOption()
}

// BatchGetOption configures BatchGet.
type BatchGetOption interface {
	option
	batchGetOption()
}

// BatchWriteOption configures BatchWrite.
type BatchWriteOption interface {
	option
	batchWriteOption()
}

// TxOpOption configures one operation of a transaction (TxPut, TxUpdate,
// TxDelete, TxCheck).
type TxOpOption interface {
	sealed.TxUpdateArg
	option
	txOpOption()
}

// TxUpdateOption is an argument of TxUpdate: an expr.Change or a
// TxOpOption.
type TxUpdateOption interface {
	sealed.TxUpdateArg
}

// TxOption configures TransactWrite as a whole.
type TxOption interface {
	option
	txOption()
}

// TxGetOption configures TransactGet.
type TxGetOption interface {
	option
	txGetOption()
}

// SearchOption configures SearchVectors.
type SearchOption interface {
	option
	searchOption()
}

// StatementOption configures ExecuteStatement: a PartiQL statement, one page
// of it or (with MaxItems) every page.
type StatementOption interface {
	option
	statementOption()
}

// ReadOption is an option of every single-table read: Get, Query, Scan,
// BatchGet and a statement.
type ReadOption interface {
	GetOption
	QueryOption
	ScanOption
	BatchGetOption
	StatementOption
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
	StatementOption
}

// ListOption is an option of Query and Scan.
type ListOption interface {
	QueryOption
	ScanOption
}

// PageOption is an option of every read that pages: Query, Scan and a
// statement.
type PageOption interface {
	ListOption
	StatementOption
}

// PagingOption is an option of the reads that page for the caller
// (QueryAll, QueryStream, ScanAll, ScanStream, a statement's stream).
type PagingOption interface {
	QueryAllOption
	ScanAllOption
	StatementOption
}

// The markers of the update families, embedded by the options that Update
// and TxUpdate take.
type (
	updateArg   = sealed.Update
	txUpdateArg = sealed.TxUpdate
)

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
	wholeSort    bool // Sort values are the composed sort key as stored
	token        string
	cursor       string // StartAfter's text: a statement's NextToken
	topK         int
	topKSet      bool
	startErr     error // StartAfter's cursor did not decode
	maxItems     int
	maxItemsSet  bool
	parallel     int // Parallel's segments
	workers      int
	parallelSet  bool
	resume       *ScanCursor
	resumeSet    bool
	now          time.Time // At: the time writes stamp; zero for time.Now()
}

type consistent struct{}

func (consistent) apply(c *config)  { c.consistent = true }
func (consistent) getOption()       {}
func (consistent) queryOption()     {}
func (consistent) queryAllOption()  {}
func (consistent) scanOption()      {}
func (consistent) scanAllOption()   {}
func (consistent) batchGetOption()  {}
func (consistent) statementOption() {}

// Consistent asks for a strongly consistent read (ConsistentRead). Not
// available on global secondary indexes.
func Consistent() ReadOption {
	return consistent{}
}

type condition struct {
	updateArg
	txUpdateArg
	c expr.Cond
}

func (o condition) apply(c *config) { c.cond, c.condSet = o.c, true }
func (condition) putOption()        {}
func (condition) deleteOption()     {}
func (condition) txOpOption()       {}

// If makes a write conditional (ConditionExpression): the write happens only
// when cond holds for the item as stored.
func If(cond expr.Cond) ConditionOption {
	return condition{c: cond}
}

type filter struct{ c expr.Cond }

func (o filter) apply(c *config) { c.filter, c.filterSet = o.c, true }
func (filter) queryOption()      {}
func (filter) queryAllOption()   {}
func (filter) scanOption()       {}
func (filter) scanAllOption()    {}
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
func (projection) queryAllOption()   {}
func (projection) scanOption()       {}
func (projection) scanAllOption()    {}
func (projection) batchGetOption()   {}
func (projection) searchOption()     {}
func (projection) txGetOption()      {}

// Project returns only the named attributes (ProjectionExpression, each
// name through a placeholder): top-level names given as strings, or document
// paths (expr.Attr("address", "city"), expr.Attr("items").Index(0)).
// Loading a projected item into a struct leaves the other fields at their
// zero values.
func Project[A expr.Attribute](attrs ...A) ProjectionOption {
	p := make(projection, len(attrs))
	for i, a := range attrs {
		if path, ok := any(a).(expr.Path); ok {
			p[i] = path
		} else {
			p[i] = expr.Attr(reflect.ValueOf(a).String()) // a ~string
		}
	}
	return p
}

type returnValues struct {
	updateArg
	rv types.ReturnValue
}

func (o returnValues) apply(c *config) { c.returnValues = o.rv }
func (returnValues) putOption()        {}
func (returnValues) deleteOption()     {}

// ReturnValues asks for the item as it was or is (ReturnValues). Put and
// Delete accept NONE and ALL_OLD; Update all five.
func ReturnValues(rv types.ReturnValue) ReturnValuesOption {
	return returnValues{rv: rv}
}

type onConditionFail struct {
	updateArg
	txUpdateArg
	v types.ReturnValuesOnConditionCheckFailure
}

func (o onConditionFail) apply(c *config) { c.onCondFail = o.v }
func (onConditionFail) putOption()        {}
func (onConditionFail) deleteOption()     {}
func (onConditionFail) txOpOption()       {}

// ReturnOldOnConditionFail makes a failed condition return the item as
// stored (ReturnValuesOnConditionCheckFailure ALL_OLD), in the error of a
// single write or in the cancellation reason of a transaction operation.
func ReturnOldOnConditionFail() ConditionOption {
	return onConditionFail{v: types.ReturnValuesOnConditionCheckFailureAllOld}
}

type capacity struct {
	updateArg
	level types.ReturnConsumedCapacity
}

func (o capacity) apply(c *config) { c.capacity = o.level }
func (capacity) getOption()        {}
func (capacity) putOption()        {}
func (capacity) deleteOption()     {}
func (capacity) queryOption()      {}
func (capacity) queryAllOption()   {}
func (capacity) scanOption()       {}
func (capacity) scanAllOption()    {}
func (capacity) batchGetOption()   {}
func (capacity) batchWriteOption() {}
func (capacity) txOption()         {}
func (capacity) searchOption()     {}
func (capacity) txGetOption()      {}
func (capacity) statementOption()  {}

// ConsumedCapacity asks for the capacity a request consumed
// (ReturnConsumedCapacity: TOTAL, INDEXES or NONE).
func ConsumedCapacity(level types.ReturnConsumedCapacity) CapacityOption {
	return capacity{level: level}
}

type index string

func (o index) apply(c *config) { c.index = string(o) }
func (index) queryOption()      {}
func (index) queryAllOption()   {}
func (index) scanOption()       {}
func (index) scanAllOption()    {}

// Index reads a secondary index of the schema (IndexName). For Query the
// partition value comes from the index's partition field.
func Index(name string) ListOption {
	return index(name)
}

type limit int

func (o limit) apply(c *config) { c.limit, c.limitSet = int(o), true }
func (limit) queryOption()      {}
func (limit) queryAllOption()   {}
func (limit) scanOption()       {}
func (limit) scanAllOption()    {}
func (limit) statementOption()  {}

// Limit caps the number of items evaluated per page (Limit, at least 1).
func Limit(n int) PageOption {
	return limit(n)
}

type startKey map[string]types.AttributeValue

func (o startKey) apply(c *config) { c.startKey = o }
func (startKey) queryOption()      {}
func (startKey) queryAllOption()   {}
func (startKey) scanOption()       {}
func (startKey) scanAllOption()    {}

// StartKey continues a Query or Scan after a page (ExclusiveStartKey): pass
// the previous page's LastEvaluatedKey. A nil or empty key starts over.
func StartKey(key map[string]types.AttributeValue) ListOption {
	return startKey(key)
}

type startAfter struct {
	cursor string
	key    map[string]types.AttributeValue
	err    error
}

func (o startAfter) apply(c *config) { c.cursor, c.startKey, c.startErr = o.cursor, o.key, o.err }
func (startAfter) queryOption()      {}
func (startAfter) queryAllOption()   {}
func (startAfter) scanOption()       {}
func (startAfter) scanAllOption()    {}
func (startAfter) statementOption()  {}

// StartAfter continues a Query or Scan after the page whose cursor is given
// (see Cursor); "" starts from the beginning. A cursor that does not decode
// is an error of the builder. For a statement the cursor is DynamoDB's
// NextToken, passed on as it is.
func StartAfter(cursor string) PageOption {
	key, err := DecodeCursor(cursor)
	return startAfter{cursor, key, err}
}

type maxItems int

func (o maxItems) apply(c *config) { c.maxItems, c.maxItemsSet = int(o), true }
func (maxItems) queryAllOption()   {}
func (maxItems) scanAllOption()    {}
func (maxItems) statementOption()  {}

// MaxItems caps the number of items the reads that page for the caller
// return in total (at least 1). Limit stays DynamoDB's per-request Limit.
func MaxItems(n int) PagingOption { return maxItems(n) }

type parallel struct{ segments, workers int }

func (o parallel) apply(c *config) {
	c.parallel, c.workers, c.parallelSet = o.segments, o.workers, true
}
func (parallel) scanAllOption() {}

// Parallel splits a whole scan into segments read concurrently (1 to
// 1,000,000), at most workers of them at once (0: all). Results arrive in no
// particular order.
func Parallel(segments, workers int) ScanAllOption { return parallel{segments, workers} }

// ScanCursor is where a resumable scan is, one entry per segment: what a
// migration over a large table stores to survive a restart. It is plain
// data (encoding/json serialises it); its cursors hold key attribute
// values: treat them like the keys themselves.
type ScanCursor struct {
	Segments []SegmentCursor `json:"segments"`
}

// SegmentCursor is where one segment of a scan is.
type SegmentCursor struct {
	// After is the cursor of the last page of the segment the loop took
	// whole; "" for the segment's beginning.
	After string `json:"after,omitempty"`
	// Done: the loop took the segment's last page.
	Done bool `json:"done,omitempty"`
}

type resume struct{ c *ScanCursor }

func (o resume) apply(c *config) { c.resume, c.resumeSet = o.c, true }
func (resume) scanAllOption()    {}

// ResumeScan makes a whole scan start where c says and keep c up to date
// as the loop takes items: each segment's entry moves once the loop has
// taken every item of one of its pages. An empty c starts a new scan (one
// segment, or Parallel's). Stopped and resumed, the scan yields every item
// at least once: the items of a page the loop had only partly taken come
// again.
func ResumeScan(c *ScanCursor) ScanAllOption { return resume{c} }

type descending struct{}

func (descending) apply(c *config) { c.descending = true }
func (descending) queryOption()    {}
func (descending) queryAllOption() {}

// Descending reads the sort key from high to low (ScanIndexForward false).
func Descending() QueryOption { return descending{} }

type selectOpt types.Select

func (o selectOpt) apply(c *config) { c.sel = types.Select(o) }
func (selectOpt) queryOption()      {}
func (selectOpt) queryAllOption()   {}
func (selectOpt) scanOption()       {}
func (selectOpt) scanAllOption()    {}

// Select chooses what a Query or Scan returns (Select): COUNT, ALL_ATTRIBUTES
// or ALL_PROJECTED_ATTRIBUTES (an index only). Project implies
// SPECIFIC_ATTRIBUTES.
func Select(s types.Select) ListOption {
	return selectOpt(s)
}

type segment struct{ i, n int }

func (o segment) apply(c *config) { c.segment, c.segments, c.segmentSet = o.i, o.n, true }
func (segment) scanOption()       {}
func (segment) scanAllOption()    {}

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
func (*sortKey) queryAllOption()   {}

// WholeSortKey makes the values of a Sort option the whole sort key as it is
// stored (a string or []byte), not the value of one sort-key field: for a
// query across entities whose sort keys are laid out differently, such as a
// collection's.
func WholeSortKey() QueryOption { return wholeSortKey{} }

type wholeSortKey struct{}

func (wholeSortKey) apply(c *config) { c.wholeSort = true }
func (wholeSortKey) queryOption()    {}
func (wholeSortKey) queryAllOption() {}

// SortEq restricts a Query to sort key = v. On a table with generated
// keys every Sort option is a condition on one field, the first sort-key
// field the queried value does not fix (set, or unset with a default), and
// v is a value of that field's type (a string is taken as the field's
// text); the library composes the key condition (schema.SortCondition). On
// an index or a RawKeys table v is a value of the sort-key field's type.
// An attribute value is used as it is, as the whole sort key.
func SortEq(v any) QueryOption { return &sortKey{op: expr.KeyEQ, vals: []any{v}} }

// SortLt restricts a Query to sort key (field) < v.
func SortLt(v any) QueryOption { return &sortKey{op: expr.KeyLT, vals: []any{v}} }

// SortLe restricts a Query to sort key (field) <= v.
func SortLe(v any) QueryOption { return &sortKey{op: expr.KeyLE, vals: []any{v}} }

// SortGt restricts a Query to sort key (field) > v.
func SortGt(v any) QueryOption { return &sortKey{op: expr.KeyGT, vals: []any{v}} }

// SortGe restricts a Query to sort key (field) >= v.
func SortGe(v any) QueryOption { return &sortKey{op: expr.KeyGE, vals: []any{v}} }

// SortBetween restricts a Query to lo <= sort key (field) <= hi.
func SortBetween(lo, hi any) QueryOption {
	return &sortKey{op: expr.KeyBetween, vals: []any{lo, hi}}
}

// SortBeginsWith restricts a Query to sort keys (field texts) starting with
// prefix (a string, or []byte for a binary sort key).
func SortBeginsWith(prefix any) QueryOption {
	return &sortKey{op: expr.KeyBeginsWith, vals: []any{prefix}}
}

// SortNone queries the whole partition, ignoring the sort-key fields set on
// the value. Without any Sort option the sort key is derived from the value:
// the generated (possibly partial) sort key as a prefix, or equality on an
// index's or RawKeys table's own sort-key field when it is set.
func SortNone() QueryOption { return &sortKey{op: expr.KeyNone} }
