package request

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/internal/limits"
)

// Limits DynamoDB enforces per request (API reference: BatchWriteItem,
// BatchGetItem, TransactWriteItems, SearchVectors), the same numbers the
// local server enforces (package internal/limits).
const (
	MaxBatchWrite = limits.MaxBatchWrite
	MaxBatchGet   = limits.MaxBatchGet
	MaxTxItems    = limits.MaxTransactItems
	MaxTopK       = limits.MaxTopK
	DefaultTopK   = 10
)

// Error is a request that cannot be built: bad options, a key field in an
// update, too many or duplicate batch items. It is raised before any I/O;
// the repo reports it as a validation error. Err is the underlying schema,
// codec or expr error, if any.
type Error struct {
	Op    string // DynamoDB action, e.g. "Query"
	Field string // attribute concerned, "" when none
	Msg   string
	Err   error
}

func (e *Error) Error() string {
	s := "dynamo: " + e.Op + ": "
	if e.Field != "" {
		s += "field " + e.Field + ": "
	}
	s += e.Msg
	if e.Err != nil {
		if e.Msg != "" {
			s += ": "
		}
		// Errors of this module all start "dynamo: "; say it once.
		s += strings.TrimPrefix(e.Err.Error(), "dynamo: ")
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

func errorf(op, format string, args ...any) error {
	return &Error{Op: op, Msg: fmt.Sprintf(format, args...)}
}

func fieldErr(op, field, format string, args ...any) error {
	return &Error{Op: op, Field: field, Msg: fmt.Sprintf(format, args...)}
}

func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	if e, ok := err.(*Error); ok {
		return e
	}
	return &Error{Op: op, Err: err}
}

// exprs collects the expression parts of one request.
//
// It holds no encoder of its own (the Builder has it): escape analysis does
// not tell a struct's fields apart, so an interface call on such a field
// would move the Builder to the heap with it.
type exprs struct{ b *expr.Builder }

func newExprs(enc expr.Encoder) exprs { return exprs{expr.NewBuilder(enc)} }

// input is an SDK input allocated together with the text its first string
// pointers point at (TableName, Query's KeyConditionExpression): one
// allocation where aws.String costs one more per string.
type input[I any] struct {
	in   I
	text [2]string
}

// newInput returns a zero input of type I and pointers to copies of a and
// b, all in one allocation.
func newInput[I any](a, b string) (in *I, pa, pb *string) {
	x := &input[I]{text: [2]string{a, b}}
	return &x.in, &x.text[0], &x.text[1]
}

// identified is what a read needs of a schema to keep its items
// recognisable: the attributes every projection must include.
type identified interface{ IdentityAttributes() []string }

func (x exprs) cond(op string, c expr.Cond, prefix string) (*string, error) {
	if c == nil {
		return nil, errorf(op, "condition is empty")
	}
	s, err := x.b.Condition(c, prefix)
	if err != nil {
		return nil, wrap(op, err)
	}
	return aws.String(s), nil
}

// ifCondition compiles the If option of a write whose only expression it is
// (Put, Delete and their transaction forms): the text with its names and
// values, all nil without If.
func ifCondition(op string, enc expr.Encoder, c *config) (cond *string, names map[string]string, values map[string]types.AttributeValue, err error) {
	if !c.condSet {
		return nil, nil, nil, nil
	}
	x := newExprs(enc)
	if cond, err = x.cond(op, c.cond, "c"); err != nil {
		return nil, nil, nil, err
	}
	return cond, x.b.Names(), x.b.Values(), nil
}

// filterProjection compiles the filter and projection options of a read
// (Query, Scan, SearchVectors), each nil when not given.
func (x exprs) filterProjection(op string, enc expr.Encoder, c *config) (filter, projection *string, err error) {
	if c.filterSet {
		if filter, err = x.cond(op, c.filter, "f"); err != nil {
			return nil, nil, err
		}
	}
	if c.projSet {
		if projection, err = x.projection(op, enc, c.projection); err != nil {
			return nil, nil, err
		}
	}
	return filter, projection, nil
}

// projection renders the projection of paths; enc is the request's
// encoder, whose identity attributes, when it has them, every projection
// keeps.
func (x exprs) projection(op string, enc expr.Encoder, paths []expr.Path) (*string, error) {
	if len(paths) == 0 {
		return nil, errorf(op, "projection names no attributes")
	}
	// A projected item keeps its keys and entity attribute, so that the
	// read can still tell whose item it is (and recover key fields).
	if id, ok := enc.(identified); ok {
		paths = withAttrs(paths, id.IdentityAttributes())
	}
	s, err := x.b.ProjectPaths(paths...)
	if err != nil {
		return nil, wrap(op, err)
	}
	return aws.String(s), nil
}

// collect applies opts to a fresh config.
//
// Without options the config is made here, where an inlined call puts it
// on the caller's stack when the builder keeps it there; applying an
// option through its interface moves it to the heap.
func collect[O interface{ apply(*config) }](opts []O) *config {
	if len(opts) == 0 {
		return new(config)
	}
	return collectAll(opts)
}

func collectAll[O interface{ apply(*config) }](opts []O) *config {
	c := new(config)
	for _, o := range opts {
		if any(o) != nil {
			o.apply(c)
		}
	}
	return c
}

func checkCapacity(op string, c *config) error {
	switch c.capacity {
	case "", types.ReturnConsumedCapacityNone, types.ReturnConsumedCapacityTotal, types.ReturnConsumedCapacityIndexes:
		return nil
	}
	return errorf(op, "ConsumedCapacity %q: want TOTAL, INDEXES or NONE", c.capacity)
}

// checkPaging checks Limit and MaxItems, the paging options every read shares.
func checkPaging(op string, c *config) error {
	if c.limitSet && c.limit < 1 {
		return errorf(op, "Limit %d: must be at least 1", c.limit)
	}
	if c.maxItemsSet && c.maxItems < 1 {
		return errorf(op, "MaxItems %d: must be at least 1", c.maxItems)
	}
	return nil
}

func checkOnCondFail(op string, c *config) error {
	switch c.onCondFail {
	case "", types.ReturnValuesOnConditionCheckFailureAllOld, types.ReturnValuesOnConditionCheckFailureNone:
		return nil
	}
	return errorf(op, "ReturnValuesOnConditionCheckFailure %q: want ALL_OLD or NONE", c.onCondFail)
}

// withAttrs returns paths plus the top-level attributes among attrs that
// paths does not name yet.
func withAttrs(paths []expr.Path, attrs []string) []expr.Path {
	out := paths[:len(paths):len(paths)]
	for _, a := range attrs {
		if !slices.ContainsFunc(paths, func(p expr.Path) bool { return len(p) == 1 && p[0].Name == a && !p[0].IsIndex }) {
			out = append(out, expr.Path{{Name: a}})
		}
	}
	return out
}
