package dynamo

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/codec"
	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/request"
	"github.com/dynamogo/dynamo/schema"
)

// This file re-exports the user-facing pure-layer API so that a program
// needs only package dynamo. The packages codec, schema, expr and request
// stay usable on their own.

// Schemas (package schema).
type (
	Schema[T any] = schema.Schema[T]
	SchemaOption  = schema.Option
	IndexOption   = schema.IndexOption
	VectorOption  = schema.VectorOption
	Key           = schema.Key
	Entity        = schema.Entity
	Described     = schema.Described
)

// NewSchema validates the declaration of T as an item of table (see schema.New).
func NewSchema[T any](table string, opts ...SchemaOption) (*Schema[T], error) {
	return schema.New[T](table, opts...)
}

// MustSchema is NewSchema for package-level variables: it panics with
// NewSchema's error.
func MustSchema[T any](table string, opts ...SchemaOption) *Schema[T] {
	return schema.Must[T](table, opts...)
}

// Schema options.
var (
	EntityName       = schema.EntityName
	EntityFrom       = schema.EntityFrom
	Separator        = schema.Separator
	PartitionKeyName = schema.PartitionKeyName
	SortKeyName      = schema.SortKeyName
	PrefixSortKey    = schema.PrefixSortKey
	RawKeys          = schema.RawKeys
	OmitNil          = schema.OmitNil
	PartitionKey     = schema.PartitionKey
	SortKey          = schema.SortKey
	Provisioned      = schema.Provisioned
	GSI              = schema.GSI
	LSI              = schema.LSI
	ProjectAll       = schema.ProjectAll
	KeysOnly         = schema.KeysOnly
	Include          = schema.Include
	Throughput       = schema.Throughput
	VectorIndex      = schema.VectorIndex
	Cosine           = schema.Cosine
	DotProduct       = schema.DotProduct
	Euclidean        = schema.Euclidean
	Dimensions       = schema.Dimensions
	VectorPartition  = schema.VectorPartition
	InlineFilters    = schema.InlineFilters
	VectorKeysOnly   = schema.VectorKeysOnly
	VectorInclude    = schema.VectorInclude
	VectorProjectAll = schema.VectorProjectAll
	CreateTableInput = schema.CreateTableInput
)

// Field types (package codec).
type (
	Set[T comparable] = codec.Set[T]
	BinarySet         = codec.BinarySet
	Number            = codec.Number
	Date              = codec.Date
	TimeOfDay         = codec.TimeOfDay
	DateTime          = codec.DateTime
	Raw               = codec.Raw
	Marshaler         = codec.Marshaler
	Unmarshaler       = codec.Unmarshaler
)

// NewSet returns a set holding vs.
func NewSet[T comparable](vs ...T) Set[T] { return codec.NewSet(vs...) }

// Conditions and updates (package expr).
type (
	Cond   = expr.Cond
	Change = expr.Change
	Path   = expr.Path
)

// Attr names a nested path; names are taken literally (dots and brackets are
// part of the name): Attr("address", "city") is address.city, and
// Attr("items").Index(0).Attr("sku") is items[0].sku.
func Attr(names ...string) Path { return expr.Attr(names...) }

// Eq is a = v.
func Eq[S expr.Subject](s S, v any) Cond { return expr.Eq(s, v) }

// Ne is a <> v.
func Ne[S expr.Subject](s S, v any) Cond { return expr.Ne(s, v) }

// Lt is a < v.
func Lt[S expr.Subject](s S, v any) Cond { return expr.Lt(s, v) }

// Le is a <= v.
func Le[S expr.Subject](s S, v any) Cond { return expr.Le(s, v) }

// Gt is a > v.
func Gt[S expr.Subject](s S, v any) Cond { return expr.Gt(s, v) }

// Ge is a >= v.
func Ge[S expr.Subject](s S, v any) Cond { return expr.Ge(s, v) }

// InRange is a BETWEEN lo AND hi.
func InRange[S expr.Subject](s S, lo, hi any) Cond { return expr.InRange(s, lo, hi) }

// OneOf is a IN (v0, v1, …).
func OneOf[S expr.Subject](s S, vs ...any) Cond { return expr.OneOf(s, vs...) }

// BeginsWith is begins_with(a, prefix).
func BeginsWith[A expr.Attribute](a A, prefix any) Cond { return expr.BeginsWith(a, prefix) }

// Contains is contains(a, v).
func Contains[A expr.Attribute](a A, v any) Cond { return expr.Contains(a, v) }

// Exists is attribute_exists(a).
func Exists[A expr.Attribute](a A) Cond { return expr.Exists(a) }

// NotExists is attribute_not_exists(a).
func NotExists[A expr.Attribute](a A) Cond { return expr.NotExists(a) }

// AttrType is attribute_type(a, t), t one of "S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS".
func AttrType[A expr.Attribute](a A, t string) Cond { return expr.AttrType(a, t) }

// Size is size(a), to compare: Gt(Size("tags"), 2).
func Size[A expr.Attribute](a A) *expr.Func { return expr.Size(a) }

// AllOf is the AND of cs.
func AllOf(cs ...Cond) Cond { return expr.AllOf(cs...) }

// AnyOf is the OR of cs.
func AnyOf(cs ...Cond) Cond { return expr.AnyOf(cs...) }

// Negate is NOT c.
func Negate(c Cond) Cond { return expr.Negate(c) }

// RawCond is a condition written as DynamoDB expression text with its own
// #names and :values (values are Go values, encoded for you).
func RawCond(text string, names map[string]string, values map[string]any) Cond {
	return expr.RawCond(text, names, values)
}

// SetAttr is SET a = v. (Set is the set type; this is the update action.)
func SetAttr[A expr.Attribute](a A, v any) Change { return expr.Set(a, v) }

// SetNull is SET a = NULL.
func SetNull[A expr.Attribute](a A) Change { return expr.SetNull(a) }

// Remove is REMOVE a.
func Remove[A expr.Attribute](a A) Change { return expr.Remove(a) }

// Increment is SET a = a + n.
func Increment[A expr.Attribute](a A, n any) Change { return expr.Increment(a, n) }

// Decrement is SET a = a - n.
func Decrement[A expr.Attribute](a A, n any) Change { return expr.Decrement(a, n) }

// Add is ADD a v: adds to a number or inserts set elements.
func Add[A expr.Attribute](a A, v any) Change { return expr.Add(a, v) }

// DeleteFromSet is DELETE a v: removes elements from a set.
func DeleteFromSet[A expr.Attribute](a A, v any) Change { return expr.Delete(a, v) }

// Append is SET a = list_append(a, list).
func Append[A expr.Attribute](a A, list any) Change { return expr.Append(a, list) }

// Prepend is SET a = list_append(list, a).
func Prepend[A expr.Attribute](a A, list any) Change { return expr.Prepend(a, list) }

// IfNotExists is SET a = if_not_exists(a, v).
func IfNotExists[A expr.Attribute](a A, v any) Change { return expr.IfNotExists(a, v) }

// RawUpdate is an update expression written as text with its own names and values.
func RawUpdate(text string, names map[string]string, values map[string]any) Change {
	return expr.RawUpdate(text, names, values)
}

// Operation options (package request).
type (
	GetOption        = request.GetOption
	PutOption        = request.PutOption
	DeleteOption     = request.DeleteOption
	UpdateOption     = request.UpdateOption
	QueryOption      = request.QueryOption
	ScanOption       = request.ScanOption
	BatchGetOption   = request.BatchGetOption
	BatchWriteOption = request.BatchWriteOption
	TxOpOption       = request.TxOpOption
	TxOption         = request.TxOption
	SearchOption     = request.SearchOption

	// Options that serve several operation families.
	ReadOption         = request.ReadOption
	ConditionOption    = request.ConditionOption
	FilterOption       = request.FilterOption
	ProjectionOption   = request.ProjectionOption
	ReturnValuesOption = request.ReturnValuesOption
	CapacityOption     = request.CapacityOption
	ListOption         = request.ListOption
)

// Consistent asks for a strongly consistent read (not on a GSI).
func Consistent() ReadOption {
	return request.Consistent()
}

// If makes a write conditional.
func If(cond Cond) ConditionOption {
	return request.If(cond)
}

// Filter drops items that do not satisfy cond after they are read; for
// SearchVectors it is the search condition.
func Filter(cond Cond) FilterOption {
	return request.Filter(cond)
}

// Project returns only the named top-level attributes.
func Project(attrs ...string) ProjectionOption {
	return request.Project(attrs...)
}

// ProjectPaths is Project for document paths: nested map keys and list
// elements (Attr("address", "city"), Attr("items").Index(0)).
func ProjectPaths(paths ...Path) ProjectionOption { return request.ProjectPaths(paths...) }

// ReturnValues asks for the item as it was or is: Put and Delete accept
// ALL_OLD, Update all of NONE, ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATED_NEW.
func ReturnValues(rv types.ReturnValue) ReturnValuesOption {
	return request.ReturnValues(rv)
}

// ReturnOldOnConditionFail puts the stored item into the error of a failed
// condition ([Error.Item]) or the transaction's cancellation reason.
func ReturnOldOnConditionFail() ConditionOption {
	return request.ReturnOldOnConditionFail()
}

// ConsumedCapacity asks for consumed capacity (TOTAL or INDEXES).
func ConsumedCapacity(level types.ReturnConsumedCapacity) CapacityOption {
	return request.ConsumedCapacity(level)
}

// Index reads a secondary index.
func Index(name string) ListOption {
	return request.Index(name)
}

// Limit is DynamoDB's per-request Limit (items evaluated) for Query and
// Scan; for QueryAll, ScanAll and streams it caps the number of items
// returned in total.
func Limit(n int) ListOption {
	return request.Limit(n)
}

// StartKey continues after a page's LastEvaluatedKey (see also StartAfter).
func StartKey(key map[string]types.AttributeValue) ListOption {
	return request.StartKey(key)
}

// Descending reads the sort key from high to low.
func Descending() QueryOption { return request.Descending() }

// Select chooses COUNT, ALL_ATTRIBUTES or ALL_PROJECTED_ATTRIBUTES.
func Select(s types.Select) ListOption {
	return request.Select(s)
}

// Segment reads one segment of a parallel scan by hand; ScanAll and
// ScanStream with Segments do it for you.
func Segment(i, total int) ScanOption { return request.Segment(i, total) }

// ClientRequestToken makes a transaction idempotent for ten minutes.
func ClientRequestToken(tok string) TxOption { return request.ClientRequestToken(tok) }

// TopK is the number of SearchVectors results, 1 to 100 (default 10).
func TopK(k int) SearchOption { return request.TopK(k) }

// Sort-key conditions of Query: on a table with generated keys the value is
// the composed sort-key string; on an index or RawKeys table a value of the
// sort-key field's type.
func SortEq(v any) QueryOption           { return request.SortEq(v) }
func SortLt(v any) QueryOption           { return request.SortLt(v) }
func SortLe(v any) QueryOption           { return request.SortLe(v) }
func SortGt(v any) QueryOption           { return request.SortGt(v) }
func SortGe(v any) QueryOption           { return request.SortGe(v) }
func SortBetween(lo, hi any) QueryOption { return request.SortBetween(lo, hi) }
func SortBeginsWith(p any) QueryOption   { return request.SortBeginsWith(p) }
func SortNone() QueryOption              { return request.SortNone() }
