// Package dynamoslog logs the operations of a dynamo repo, and the HTTP
// attempts under them, to a log/slog logger.
//
//	repo, err := dynamo.Open(ctx, dynamo.WithTracer(dynamoslog.New(slog.Default())))
//
// An operation that succeeds is logged at Debug, one that fails at Warn; every
// attempt is logged at Debug. The records hold the operation, the tables,
// durations, the error type, the AWS error code and DynamoDB's message: never
// item contents, keys or expression values.
package dynamoslog

import (
	"context"
	"log/slog"

	"github.com/dynamogo/dynamo"
)

// Tracer implements [dynamo.Tracer] and [dynamo.OperationTracer] with a
// *slog.Logger.
type Tracer struct {
	log *slog.Logger
}

var (
	_ dynamo.Tracer          = (*Tracer)(nil)
	_ dynamo.OperationTracer = (*Tracer)(nil)
)

// New returns a tracer for [dynamo.WithTracer] that logs to l.
func New(l *slog.Logger) *Tracer { return &Tracer{log: l} }

// TraceOperationStart logs nothing: the operation is logged when it ends.
func (t *Tracer) TraceOperationStart(ctx context.Context, _ dynamo.TraceOperationStartData) context.Context {
	return ctx
}

// TraceOperationEnd logs the operation and its outcome.
func (t *Tracer) TraceOperationEnd(ctx context.Context, d dynamo.TraceOperationEndData) {
	level := slog.LevelDebug
	attrs := []slog.Attr{
		slog.String("operation", d.Operation),
		slog.Any("tables", d.Tables),
		slog.Duration("duration", d.Duration),
	}
	if d.Err != nil {
		level = slog.LevelWarn
		attrs = append(attrs, errorAttrs(d.Err)...)
	}
	t.log.LogAttrs(ctx, level, "dynamo operation", attrs...)
}

// TraceRequestStart logs nothing: the attempt is logged when it ends.
func (t *Tracer) TraceRequestStart(ctx context.Context, _ dynamo.TraceRequestStartData) context.Context {
	return ctx
}

// TraceRequestEnd logs one HTTP attempt at Debug.
func (t *Tracer) TraceRequestEnd(ctx context.Context, d dynamo.TraceRequestEndData) {
	if !t.log.Enabled(ctx, slog.LevelDebug) {
		return
	}
	attrs := []slog.Attr{
		slog.String("action", d.Action),
		slog.Any("tables", d.Tables),
		slog.Int("attempt", d.Attempt),
		slog.Int("status", d.Status),
		slog.Duration("duration", d.Duration),
	}
	if d.Err != nil {
		attrs = append(attrs, errorAttrs(d.Err)...)
	}
	t.log.LogAttrs(ctx, slog.LevelDebug, "dynamo attempt", attrs...)
}

func errorAttrs(e *dynamo.Error) []slog.Attr {
	attrs := []slog.Attr{slog.String("error.type", string(e.Type)), slog.String("error", e.Message)}
	if e.AWSCode != "" {
		attrs = append(attrs, slog.String("aws.error.code", e.AWSCode))
	}
	return attrs
}
