package dynamo

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/request"
)

// Operation options are typed per operation: an option that makes no sense
// for an operation does not compile there (Descending is only a Query
// option, Parallel only a ScanAll/ScanStream option). An option whose value
// is wrong for the call (a consistent read on a GSI, a Limit of 0) is a
// validation error before any request. The options are those of package
// request, which builds the requests.

// GetOption configures [Table.Get].
type GetOption = request.GetOption

// PutOption configures [Table.Put] and [Table.PutReturningOld].
type PutOption = request.PutOption

// DeleteOption configures [Table.Delete] and [Table.DeleteReturningOld].
type DeleteOption = request.DeleteOption

// UpdateOption is an argument of [Table.Update]: a change built by package
// expr (expr.Set, expr.Increment, …) or an option such as [If].
type UpdateOption = request.UpdateOption

// QueryOption configures [Table.Query]; every QueryOption is also a
// [QueryAllOption].
type QueryOption = request.QueryOption

// QueryAllOption configures [Table.QueryAll] and [Table.QueryStream]: every
// QueryOption, and [MaxItems].
type QueryAllOption = request.QueryAllOption

// ScanOption configures [Table.Scan]; every ScanOption is also a
// [ScanAllOption].
type ScanOption = request.ScanOption

// ScanAllOption configures [Table.ScanAll] and [Table.ScanStream]: every
// ScanOption, [MaxItems] and [Parallel].
type ScanAllOption = request.ScanAllOption

// ScanCursor is where a resumable scan is (see [ResumeScan]): one
// SegmentCursor per segment, plain data to store as JSON.
type ScanCursor = request.ScanCursor

// SegmentCursor is where one segment of a resumable scan is.
type SegmentCursor = request.SegmentCursor

// ResumeScan makes ScanStream or ScanAll start where c says and keep c up
// to date as the loop takes items, so that a scan stopped at any point (a
// break, a crash after c was stored) resumes from c. An empty c starts a new
// scan; with Parallel, c has one entry per segment. Every item comes at
// least once: the items of a page the loop had only partly taken come
// again. c is updated on the loop's goroutine, between items.
//
//	for o, err := range orders.ScanStream(ctx, dynamo.Parallel(8, 4), dynamo.ResumeScan(&cur)) { … save(cur) … }
func ResumeScan(c *ScanCursor) ScanAllOption { return request.ResumeScan(c) }

// TxGetOption configures [Repo.TransactGet].
type TxGetOption = request.TxGetOption

// BatchGetOption configures [Table.BatchGet] and [Repo.BatchGet].
type BatchGetOption = request.BatchGetOption

// BatchWriteOption configures [Repo.BatchWrite].
type BatchWriteOption = request.BatchWriteOption

// TxOpOption configures one operation of a transaction ([Table.TxPut],
// [Table.TxDelete], [Table.TxCheck]; [Table.TxUpdate] takes it too).
type TxOpOption = request.TxOpOption

// TxUpdateOption is an argument of [Table.TxUpdate]: a change built by
// package expr or a [TxOpOption].
type TxUpdateOption = request.TxUpdateOption

// TxOption configures [Repo.Transact] as a whole.
type TxOption = request.TxOption

// SearchOption configures [Table.SearchVectors].
type SearchOption = request.SearchOption

// StatementOption configures [Table.Execute] and [Repo.Execute] and their
// Stream forms: [Consistent], [Limit], [StartAfter], [ConsumedCapacity]
// and, for the Stream forms, [MaxItems].
type StatementOption = request.StatementOption

// PageOption is an option of every read that pages: Query, Scan and a
// statement ([Limit], [StartAfter]).
type PageOption = request.PageOption

// ReadOption is an option of every read of one table: Get, Query, Scan
// (and their All/Stream forms), BatchGet and a statement.
type ReadOption = request.ReadOption

// ConditionOption is an option of the conditional writes: Put, Delete,
// Update and every operation of a transaction.
type ConditionOption = request.ConditionOption

// FilterOption is an option of the reads that filter: Query, Scan and
// SearchVectors.
type FilterOption = request.FilterOption

// ProjectionOption is an option of every read that can project.
type ProjectionOption = request.ProjectionOption

// CapacityOption is an option of every operation.
type CapacityOption = request.CapacityOption

// ListOption is an option of Query and Scan (and their All/Stream forms).
type ListOption = request.ListOption

// PagingOption is an option of the reads that page for the caller:
// QueryAll, QueryStream, ScanAll, ScanStream and ExecuteStream.
type PagingOption = request.PagingOption

// Consistent asks for a strongly consistent read (ConsistentRead); not
// available on a global secondary index.
func Consistent() ReadOption { return request.Consistent() }

// If makes a write conditional (ConditionExpression): it happens only when
// cond holds for the item as stored, and fails with
// [ErrConditionalCheckFailed] otherwise.
func If(cond expr.Cond) ConditionOption { return request.If(cond) }

// ReturnOldOnConditionFail puts the stored item into the error of a failed
// condition ([Error.Item]) or into the transaction's cancellation reason.
func ReturnOldOnConditionFail() ConditionOption { return request.ReturnOldOnConditionFail() }

// Filter drops the items that do not satisfy cond after they are read
// (FilterExpression); for SearchVectors it is the search condition. Filtered
// items still cost read capacity.
func Filter(cond expr.Cond) FilterOption { return request.Filter(cond) }

// Project returns only the named attributes: top-level names as strings,
// or document paths (expr.Attr("address", "city")). The other fields of the
// loaded items stay zero.
func Project[A expr.Attribute](attrs ...A) ProjectionOption { return request.Project(attrs...) }

// ConsumedCapacity asks for the capacity the operation consumed (TOTAL or
// INDEXES); it is reported in the result and to the [Tracer].
func ConsumedCapacity(level types.ReturnConsumedCapacity) CapacityOption {
	return request.ConsumedCapacity(level)
}

// Index reads a secondary index of the schema instead of the table. For a
// query the partition value comes from the index's partition field.
func Index(name string) ListOption { return request.Index(name) }

// Limit is DynamoDB's Limit: the number of items each request evaluates (at
// least 1), before any filter. For QueryAll, QueryStream, ScanAll and
// ScanStream it is the page size; [MaxItems] caps their total. For a
// statement it is the number of items evaluated per page.
func Limit(n int) PageOption { return request.Limit(n) }

// MaxItems caps the number of items QueryAll, QueryStream, ScanAll,
// ScanStream and ExecuteStream return in total (at least 1).
func MaxItems(n int) PagingOption { return request.MaxItems(n) }

// StartAfter continues a read after the page whose [Page].Cursor is
// cursor ("" starts at the beginning). A cursor this package did not produce
// is a validation error. For a statement the cursor is DynamoDB's NextToken.
func StartAfter(cursor string) PageOption { return request.StartAfter(cursor) }

// Descending reads the sort key from high to low (ScanIndexForward false).
func Descending() QueryOption { return request.Descending() }

// Select chooses what a query or scan returns: COUNT (only [Page].Count),
// ALL_ATTRIBUTES or ALL_PROJECTED_ATTRIBUTES (an index only).
func Select(s types.Select) ListOption { return request.Select(s) }

// Segment reads segment i of a scan split into total segments, for a
// parallel scan spread over processes; [Parallel] does it within one.
func Segment(i, total int) ScanOption { return request.Segment(i, total) }

// Parallel splits ScanAll or ScanStream into segments (1 to 1,000,000) read
// by their own goroutines, at most workers fetching at once (0: all of
// them). Results arrive in no particular order.
func Parallel(segments, workers int) ScanAllOption { return request.Parallel(segments, workers) }

// ClientRequestToken makes a transaction idempotent: DynamoDB applies the
// same token at most once within ten minutes.
func ClientRequestToken(token string) TxOption { return request.ClientRequestToken(token) }

// TopK is the number of results of SearchVectors, 1 to 100 (default 10).
func TopK(k int) SearchOption { return request.TopK(k) }

// SortEq restricts a query to sort key = v. On a table with generated keys
// every Sort option is about the first sort-key field the query's value
// does not fix (set, or unset with a default), and v is a value of that
// field's type, or a string taken as its text ("2024-07" for a time); the
// library composes the condition on the key (see package schema, "Sort-key
// conditions"). On an index or a RawKeys table v is a value of the sort-key
// field's type. An attribute value is used as it is, as the whole sort key.
// Without a Sort option the condition is derived from the sort-key fields
// set on the query's value.
func SortEq(v any) QueryOption { return request.SortEq(v) }

// SortLt restricts a query to sort key < v (see [SortEq] for v).
func SortLt(v any) QueryOption { return request.SortLt(v) }

// SortLe restricts a query to sort key <= v (see [SortEq] for v).
func SortLe(v any) QueryOption { return request.SortLe(v) }

// SortGt restricts a query to sort key > v (see [SortEq] for v).
func SortGt(v any) QueryOption { return request.SortGt(v) }

// SortGe restricts a query to sort key >= v (see [SortEq] for v).
func SortGe(v any) QueryOption { return request.SortGe(v) }

// SortBetween restricts a query to lo <= sort key <= hi (see [SortEq]).
func SortBetween(lo, hi any) QueryOption { return request.SortBetween(lo, hi) }

// SortBeginsWith restricts a query to sort keys starting with prefix (a
// string, or []byte for a binary sort key).
func SortBeginsWith(prefix any) QueryOption { return request.SortBeginsWith(prefix) }

// SortNone reads the whole partition, ignoring the sort-key fields set on
// the query's value.
func SortNone() QueryOption { return request.SortNone() }
