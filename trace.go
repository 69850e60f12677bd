package dynamo

import (
	"context"
	"time"

	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// Tracer observes every HTTP attempt of every request, retries included.
// TraceRequestStart runs before the attempt is signed and sent; the context it
// returns is used for the attempt and passed to TraceRequestEnd. Both run on
// the goroutine that sends the attempt: the caller's for a single call, a
// worker's for each segment of a parallel scan, so calls overlap and a
// Tracer must be safe for concurrent use.
//
// A Tracer that also implements [OperationTracer] sees the operations the
// attempts belong to. The data never contains item contents, keys or
// expression values: only the action, the tables, timing, the outcome and
// consumed capacity. The OpenTelemetry adapter is in the dynamootel module.
type Tracer interface {
	TraceRequestStart(ctx context.Context, data TraceRequestStartData) context.Context
	TraceRequestEnd(ctx context.Context, data TraceRequestEndData)
}

// OperationTracer is implemented by a [Tracer] that also observes whole
// operations: a Put, a Query, a QueryStream loop, a BatchWrite with its
// chunks and retries of unprocessed items, a Transact. The repo finds it
// once, by type assertion on the tracer given to [WithTracer].
//
// TraceOperationStart runs before anything else, validation included; the
// context it returns is the one every attempt of the operation runs under
// (so attempt spans nest under the operation's), and is passed to
// TraceOperationEnd, which sees the operation's outcome: a validation
// failure that sent nothing, a decode error after a successful attempt, or
// the error the last attempt ended with.
type OperationTracer interface {
	TraceOperationStart(ctx context.Context, data TraceOperationStartData) context.Context
	TraceOperationEnd(ctx context.Context, data TraceOperationEndData)
}

// TraceOperationStartData describes an operation about to run.
type TraceOperationStartData struct {
	Operation string   // the DynamoDB action: "PutItem", "Query", "BatchWriteItem", …
	Tables    []string // the tables it addresses, sorted; empty when not known before validation
}

// TraceOperationEndData describes a finished operation.
type TraceOperationEndData struct {
	Operation string
	Tables    []string
	Duration  time.Duration
	// Err is nil when the operation succeeded; otherwise the *Error it
	// returned (or yielded, for a stream).
	Err *Error
}

// TraceRequestStartData describes an attempt about to be sent.
type TraceRequestStartData struct {
	Action  string   // "PutItem", "Query", …
	Tables  []string // the tables the request addresses, sorted
	Attempt int      // 1 for the first attempt
}

// TraceRequestEndData describes a finished attempt.
type TraceRequestEndData struct {
	Action   string
	Tables   []string
	Attempt  int
	Duration time.Duration
	// Err is nil when the attempt succeeded; otherwise the *Error the
	// attempt failed with (the call may still succeed on a retry).
	Err *Error
	// Status is the HTTP status, 0 when no response arrived.
	Status int
	// ConsumedCapacity is filled when the request asked for it
	// (ReturnConsumedCapacity). SearchVectors reports its bytes under
	// VectorIndexes[index].
	ConsumedCapacity []types.ConsumedCapacity
}

// run runs one operation under the repo's operation tracer, if any.
func (r *Repo) run(ctx context.Context, op string, tables []string, fn func(ctx context.Context) error) error {
	if r.opTracer == nil {
		return fn(ctx)
	}
	ctx = r.opTracer.TraceOperationStart(ctx, TraceOperationStartData{Operation: op, Tables: tables})
	start := time.Now()
	err := fn(ctx)
	end := TraceOperationEndData{Operation: op, Tables: tables, Duration: time.Since(start)}
	if err != nil {
		end.Err, _ = err.(*Error)
	}
	r.opTracer.TraceOperationEnd(ctx, end)
	return err
}

// traceCall is the per-call state shared by the attempts of one call.
type traceCall struct {
	action  string
	tables  []string
	index   string // SearchVectors: the vector index its capacity is reported under
	attempt int
}

type traceCallKey struct{}

// rawActionKey carries the action of a raw Request, which travels on a
// carrier operation (see raw.go).
type rawActionKey struct{}

// addTracing installs the tracing middleware on a client's stack: one
// Initialize step that records action and table, one Finalize step after
// the SDK's retry loop so that it wraps each attempt.
func addTracing(t Tracer) func(*middleware.Stack) error {
	return func(stack *middleware.Stack) error {
		if err := stack.Initialize.Add(traceInit{}, middleware.Before); err != nil {
			return err
		}
		return stack.Finalize.Insert(&traceAttempt{tracer: t}, "Retry", middleware.After)
	}
}

type traceInit struct{}

func (traceInit) ID() string { return "DynamoTraceCall" }

func (traceInit) HandleInitialize(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (
	middleware.InitializeOutput, middleware.Metadata, error,
) {
	action := awsmiddleware.GetOperationName(ctx)
	if a, ok := ctx.Value(rawActionKey{}).(rawAction); ok {
		action = a.action
		ctx = context.WithValue(ctx, traceCallKey{}, &traceCall{action: action, tables: a.tables()})
		return next.HandleInitialize(ctx, in)
	}
	call := &traceCall{action: action, tables: tablesOf(in.Parameters)}
	if sv, ok := in.Parameters.(*dynamodb.SearchVectorsInput); ok {
		call.index = deref(sv.IndexName)
	}
	ctx = context.WithValue(ctx, traceCallKey{}, call)
	return next.HandleInitialize(ctx, in)
}

type traceAttempt struct{ tracer Tracer }

func (*traceAttempt) ID() string { return "DynamoTraceAttempt" }

func (m *traceAttempt) HandleFinalize(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (
	middleware.FinalizeOutput, middleware.Metadata, error,
) {
	call, _ := ctx.Value(traceCallKey{}).(*traceCall)
	if call == nil {
		call = &traceCall{action: awsmiddleware.GetOperationName(ctx)}
	}
	call.attempt++
	attempt := call.attempt
	ctx = m.tracer.TraceRequestStart(ctx, TraceRequestStartData{Action: call.action, Tables: call.tables, Attempt: attempt})
	start := time.Now()
	out, md, err := next.HandleFinalize(ctx, in)
	end := TraceRequestEndData{Action: call.action, Tables: call.tables, Attempt: attempt, Duration: time.Since(start)}
	if resp, ok := awsmiddleware.GetRawResponse(md).(*smithyhttp.Response); ok && resp != nil {
		end.Status = resp.StatusCode
	}
	if err != nil {
		e, _ := mapError(call.action, oneTable(call.tables), err).(*Error)
		end.Err = e
		if end.Status == 0 {
			end.Status = e.Status
		}
	} else {
		end.ConsumedCapacity = capacityOf(out.Result, call)
	}
	m.tracer.TraceRequestEnd(ctx, end)
	return out, md, err
}

// tablesOf names the tables an SDK input addresses, sorted.
func tablesOf(in any) []string {
	one := func(s *string) []string {
		if s == nil {
			return nil
		}
		return []string{*s}
	}
	switch v := in.(type) {
	case *dynamodb.GetItemInput:
		return one(v.TableName)
	case *dynamodb.PutItemInput:
		return one(v.TableName)
	case *dynamodb.DeleteItemInput:
		return one(v.TableName)
	case *dynamodb.UpdateItemInput:
		return one(v.TableName)
	case *dynamodb.QueryInput:
		return one(v.TableName)
	case *dynamodb.ScanInput:
		return one(v.TableName)
	case *dynamodb.SearchVectorsInput:
		return one(v.TableName)
	case *dynamodb.DescribeTableInput:
		return one(v.TableName)
	case *dynamodb.CreateTableInput:
		return one(v.TableName)
	case *dynamodb.DeleteTableInput:
		return one(v.TableName)
	case *dynamodb.BatchWriteItemInput:
		return sortedKeys(v.RequestItems)
	case *dynamodb.BatchGetItemInput:
		return sortedKeys(v.RequestItems)
	case *dynamodb.TransactWriteItemsInput:
		seen := map[string]bool{}
		for _, it := range v.TransactItems {
			switch {
			case it.Put != nil:
				seen[deref(it.Put.TableName)] = true
			case it.Update != nil:
				seen[deref(it.Update.TableName)] = true
			case it.Delete != nil:
				seen[deref(it.Delete.TableName)] = true
			case it.ConditionCheck != nil:
				seen[deref(it.ConditionCheck.TableName)] = true
			}
		}
		return sortedKeys(seen)
	case *dynamodb.TransactGetItemsInput:
		seen := map[string]bool{}
		for _, it := range v.TransactItems {
			if it.Get != nil {
				seen[deref(it.Get.TableName)] = true
			}
		}
		return sortedKeys(seen)
	}
	return nil
}

// oneTable is the table of an [Error]: the name when there is exactly one.
func oneTable(tables []string) string {
	if len(tables) == 1 {
		return tables[0]
	}
	return ""
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// capacityOf extracts the consumed capacity of an SDK output.
func capacityOf(out any, call *traceCall) []types.ConsumedCapacity {
	one := func(c *types.ConsumedCapacity) []types.ConsumedCapacity {
		if c == nil {
			return nil
		}
		return []types.ConsumedCapacity{*c}
	}
	switch v := out.(type) {
	case *dynamodb.GetItemOutput:
		return one(v.ConsumedCapacity)
	case *dynamodb.PutItemOutput:
		return one(v.ConsumedCapacity)
	case *dynamodb.DeleteItemOutput:
		return one(v.ConsumedCapacity)
	case *dynamodb.UpdateItemOutput:
		return one(v.ConsumedCapacity)
	case *dynamodb.QueryOutput:
		return one(v.ConsumedCapacity)
	case *dynamodb.ScanOutput:
		return one(v.ConsumedCapacity)
	case *dynamodb.BatchWriteItemOutput:
		return v.ConsumedCapacity
	case *dynamodb.BatchGetItemOutput:
		return v.ConsumedCapacity
	case *dynamodb.TransactWriteItemsOutput:
		return v.ConsumedCapacity
	case *dynamodb.ExecuteStatementOutput:
		return one(v.ConsumedCapacity)
	case *dynamodb.BatchExecuteStatementOutput:
		return v.ConsumedCapacity
	case *dynamodb.ExecuteTransactionOutput:
		return v.ConsumedCapacity
	case *dynamodb.SearchVectorsOutput:
		if v.ConsumedCapacity == nil {
			return nil
		}
		table := oneTable(call.tables)
		return []types.ConsumedCapacity{{TableName: &table, VectorIndexes: map[string]types.VectorCapacity{call.index: *v.ConsumedCapacity}}}
	}
	return nil
}
