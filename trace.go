package dynamo

import (
	"context"
	"sort"
	"strings"
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
// The data never contains item contents, keys or expression values: only
// the action, the table, timing, the outcome and consumed capacity.
// The OpenTelemetry adapter is in the dynamootel module.
type Tracer interface {
	TraceRequestStart(ctx context.Context, data TraceRequestStartData) context.Context
	TraceRequestEnd(ctx context.Context, data TraceRequestEndData)
}

// TraceRequestStartData describes an attempt about to be sent.
type TraceRequestStartData struct {
	Action  string // "PutItem", "Query", …
	Table   string // the table; several tables of a batch or transaction are joined with ","
	Attempt int    // 1 for the first attempt
}

// TraceRequestEndData describes a finished attempt.
type TraceRequestEndData struct {
	Action   string
	Table    string
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

// traceCall is the per-call state shared by the attempts of one call.
type traceCall struct {
	action, table string
	index         string // SearchVectors: the vector index its capacity is reported under
	attempt       int
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
		ctx = context.WithValue(ctx, traceCallKey{}, &traceCall{action: action, table: a.table})
		return next.HandleInitialize(ctx, in)
	}
	call := &traceCall{action: action, table: tableOf(in.Parameters)}
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
	ctx = m.tracer.TraceRequestStart(ctx, TraceRequestStartData{Action: call.action, Table: call.table, Attempt: attempt})
	start := time.Now()
	out, md, err := next.HandleFinalize(ctx, in)
	end := TraceRequestEndData{Action: call.action, Table: call.table, Attempt: attempt, Duration: time.Since(start)}
	if resp, ok := awsmiddleware.GetRawResponse(md).(*smithyhttp.Response); ok && resp != nil {
		end.Status = resp.StatusCode
	}
	if err != nil {
		e, _ := mapError(call.action, call.table, err).(*Error)
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

// tableOf names the table(s) an SDK input addresses.
func tableOf(in any) string {
	switch v := in.(type) {
	case *dynamodb.GetItemInput:
		return deref(v.TableName)
	case *dynamodb.PutItemInput:
		return deref(v.TableName)
	case *dynamodb.DeleteItemInput:
		return deref(v.TableName)
	case *dynamodb.UpdateItemInput:
		return deref(v.TableName)
	case *dynamodb.QueryInput:
		return deref(v.TableName)
	case *dynamodb.ScanInput:
		return deref(v.TableName)
	case *dynamodb.SearchVectorsInput:
		return deref(v.TableName)
	case *dynamodb.DescribeTableInput:
		return deref(v.TableName)
	case *dynamodb.CreateTableInput:
		return deref(v.TableName)
	case *dynamodb.DeleteTableInput:
		return deref(v.TableName)
	case *dynamodb.BatchWriteItemInput:
		return joinTables(v.RequestItems)
	case *dynamodb.BatchGetItemInput:
		return joinTables(v.RequestItems)
	case *dynamodb.TransactWriteItemsInput:
		seen := map[string]struct{}{}
		for _, it := range v.TransactItems {
			switch {
			case it.Put != nil:
				seen[deref(it.Put.TableName)] = struct{}{}
			case it.Update != nil:
				seen[deref(it.Update.TableName)] = struct{}{}
			case it.Delete != nil:
				seen[deref(it.Delete.TableName)] = struct{}{}
			case it.ConditionCheck != nil:
				seen[deref(it.ConditionCheck.TableName)] = struct{}{}
			}
		}
		return joinTables(seen)
	}
	return ""
}

func joinTables[V any](m map[string]V) string {
	if len(m) == 1 {
		for k := range m {
			return k
		}
	}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return strings.Join(names, ",")
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
	case *dynamodb.SearchVectorsOutput:
		if v.ConsumedCapacity == nil {
			return nil
		}
		table := call.table
		return []types.ConsumedCapacity{{TableName: &table, VectorIndexes: map[string]types.VectorCapacity{call.index: *v.ConsumedCapacity}}}
	}
	return nil
}
