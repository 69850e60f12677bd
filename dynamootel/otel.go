package dynamootel

import (
	"context"
	"encoding/json"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/dynamogo/dynamo"
)

// ScopeName is the instrumentation scope of the spans.
const ScopeName = "github.com/dynamogo/dynamo/dynamootel"

// Tracer implements [dynamo.Tracer] and [dynamo.OperationTracer] with
// OpenTelemetry spans: one span per operation ("DynamoDB PutItem"), and
// under it one client span per HTTP attempt ("DynamoDB.PutItem"), so that
// retries, batch chunks and the library's retries of unprocessed items show
// as children of the operation that caused them.
type Tracer struct {
	tracer trace.Tracer
}

var (
	_ dynamo.Tracer          = (*Tracer)(nil)
	_ dynamo.OperationTracer = (*Tracer)(nil)
)

// Option configures [New].
type Option func(*options)

type options struct{ provider trace.TracerProvider }

// WithTracerProvider uses tp instead of the global provider (otel.GetTracerProvider).
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(o *options) { o.provider = tp }
}

// New returns a tracer for [dynamo.WithTracer].
func New(opts ...Option) *Tracer {
	var o options
	for _, fn := range opts {
		fn(&o)
	}
	if o.provider == nil {
		o.provider = otel.GetTracerProvider()
	}
	return &Tracer{tracer: o.provider.Tracer(ScopeName)}
}

// Attribute keys.
const (
	AttrAttempt          = attribute.Key("dynamo.attempt")
	AttrErrorType        = attribute.Key("error.type")
	AttrAWSCode          = attribute.Key("aws.error.code")
	AttrRequestID        = attribute.Key("aws.request_id")
	AttrTableNames       = attribute.Key("aws.dynamodb.table_names")
	AttrConsumedCapacity = attribute.Key("aws.dynamodb.consumed_capacity")
	AttrStatusCode       = attribute.Key("http.response.status_code")
)

// TraceRequestStart starts a client span for one attempt.
func (t *Tracer) TraceRequestStart(ctx context.Context, d dynamo.TraceRequestStartData) context.Context {
	attrs := []attribute.KeyValue{
		attribute.String("rpc.system", "aws-api"),
		attribute.String("rpc.service", "DynamoDB"),
		attribute.String("rpc.method", d.Action),
		attribute.String("db.system.name", "aws.dynamodb"),
		AttrAttempt.Int(d.Attempt),
	}
	if len(d.Tables) > 0 {
		attrs = append(attrs, AttrTableNames.StringSlice(d.Tables))
	}
	ctx, _ = t.tracer.Start(ctx, "DynamoDB."+d.Action, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	return ctx
}

// TraceOperationStart starts the span of one operation; its attempts' spans
// are its children.
func (t *Tracer) TraceOperationStart(ctx context.Context, d dynamo.TraceOperationStartData) context.Context {
	attrs := []attribute.KeyValue{
		attribute.String("db.system.name", "aws.dynamodb"),
		attribute.String("db.operation.name", d.Operation),
	}
	if len(d.Tables) > 0 {
		attrs = append(attrs, AttrTableNames.StringSlice(d.Tables))
	}
	ctx, _ = t.tracer.Start(ctx, "DynamoDB "+d.Operation, trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
	return ctx
}

// TraceOperationEnd records the outcome of the operation (a validation or
// decode error included) and ends its span.
func (t *Tracer) TraceOperationEnd(ctx context.Context, d dynamo.TraceOperationEndData) {
	span := trace.SpanFromContext(ctx)
	if e := d.Err; e != nil && span.IsRecording() {
		span.SetAttributes(AttrErrorType.String(string(e.Type)))
		// Messages of this library never quote item values.
		span.SetStatus(codes.Error, e.Message)
	}
	span.End()
}

// TraceRequestEnd records the outcome of the attempt and ends its span.
func (t *Tracer) TraceRequestEnd(ctx context.Context, d dynamo.TraceRequestEndData) {
	span := trace.SpanFromContext(ctx)
	if !span.IsRecording() {
		span.End()
		return
	}
	if d.Status != 0 {
		span.SetAttributes(AttrStatusCode.Int(d.Status))
	}
	if len(d.ConsumedCapacity) > 0 {
		caps := make([]string, 0, len(d.ConsumedCapacity))
		for _, c := range d.ConsumedCapacity {
			if b, err := json.Marshal(c); err == nil {
				caps = append(caps, string(b))
			}
		}
		span.SetAttributes(AttrConsumedCapacity.StringSlice(caps))
	}
	if e := d.Err; e != nil {
		span.SetAttributes(AttrErrorType.String(string(e.Type)))
		if e.AWSCode != "" {
			span.SetAttributes(AttrAWSCode.String(e.AWSCode))
		}
		if e.RequestID != "" {
			span.SetAttributes(AttrRequestID.String(e.RequestID))
		}
		// The message is DynamoDB's or the transport's: it never holds item data.
		span.SetStatus(codes.Error, e.Message)
	}
	span.End()
}
