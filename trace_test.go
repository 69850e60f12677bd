package dynamo_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/expr"
)

// opTracer records operations and the attempts made under each: an attempt
// belongs to the operation whose context it runs under.
type opTracer struct {
	recordingTracer
	mu       sync.Mutex
	ops      []dynamo.TraceOperationEndData
	attempts map[int]int // operation number → attempts seen under it
	next     int
}

type opKey struct{}

func (r *opTracer) TraceOperationStart(ctx context.Context, d dynamo.TraceOperationStartData) context.Context {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next++
	return context.WithValue(ctx, opKey{}, r.next)
}

func (r *opTracer) TraceOperationEnd(ctx context.Context, d dynamo.TraceOperationEndData) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ops = append(r.ops, d)
}

func (r *opTracer) TraceRequestStart(ctx context.Context, d dynamo.TraceRequestStartData) context.Context {
	r.mu.Lock()
	if n, ok := ctx.Value(opKey{}).(int); ok {
		if r.attempts == nil {
			r.attempts = map[int]int{}
		}
		r.attempts[n]++
	}
	r.mu.Unlock()
	return r.recordingTracer.TraceRequestStart(ctx, d)
}

// last returns the last operation and the number of attempts made under it.
func (r *opTracer) last(t *testing.T) (dynamo.TraceOperationEndData, int) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.ops) == 0 {
		t.Fatal("no operation traced")
	}
	return r.ops[len(r.ops)-1], r.attempts[len(r.ops)]
}

func TestOperationTracer(t *testing.T) {
	tr := &opTracer{}
	srv, repo := newTestRepo(t, dynamo.WithTracer(tr), dynamo.WithBatchRetries(2))
	orders := dynamo.Bind(repo, Orders)
	ctx := context.Background()

	// A validation failure is an operation with no attempt.
	_ = orders.Put(ctx, Order{})
	op, n := tr.last(t)
	if op.Operation != "PutItem" || !slices.Equal(op.Tables, []string{"app"}) || op.Err == nil || op.Err.Type != dynamo.ErrValidation || n != 0 {
		t.Errorf("validation failure: %+v, %d attempts", op, n)
	}

	// The library's own retries of unprocessed items run under the batch.
	ops := make([]dynamo.WriteOp, 10)
	for i := range ops {
		ops[i] = orders.PutOp(order("u1", i))
	}
	srv.Unprocessed("BatchWriteItem", 2, 4)
	if _, err := repo.BatchWrite(ctx, ops); err != nil {
		t.Fatal(err)
	}
	op, n = tr.last(t)
	if op.Operation != "BatchWriteItem" || op.Err != nil || n != 3 || op.Duration <= 0 {
		t.Errorf("batch: %+v, %d attempts", op, n)
	}

	// A decode error after a successful attempt is the operation's error.
	if err := orders.Put(ctx, order("u2", 1)); err != nil {
		t.Fatal(err)
	}
	_, err := orders.Update(ctx, order("u2", 1), expr.RawUpdate("SET #t = :v", map[string]string{"#t": "total"}, map[string]any{":v": "not a number"}))
	if !errors.Is(err, dynamo.ErrDecode) {
		t.Fatalf("Update = %v", err)
	}
	op, n = tr.last(t)
	if op.Operation != "UpdateItem" || op.Err == nil || op.Err.Type != dynamo.ErrDecode || n != 1 {
		t.Errorf("decode error: %+v, %d attempts", op, n)
	}

	// A stream is one operation, from the first page to the end of the loop.
	for _, err := range orders.QueryStream(ctx, Order{UserID: "u1"}, dynamo.Limit(3)) {
		if err != nil {
			t.Fatal(err)
		}
	}
	op, n = tr.last(t)
	if op.Operation != "Query" || op.Err != nil || n != 4 {
		t.Errorf("stream: %+v, %d attempts", op, n)
	}
}
