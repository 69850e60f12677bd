package dynamo_test

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/schema"
)

func TestRetriesAgainstLocalServer(t *testing.T) {
	srv, repo := newTestRepo(t)
	orders := dynamo.Bind(repo, Orders)
	ctx := context.Background()
	o := order("u1", 1)

	for _, kind := range []dynamotest.ErrorKind{dynamotest.Throttling, dynamotest.ProvisionedThroughputExceeded,
		dynamotest.RequestLimitExceeded, dynamotest.InternalServerError, dynamotest.ServiceUnavailable} {
		before := srv.Calls("PutItem")
		srv.Fail("PutItem", 2, kind)
		if err := orders.Put(ctx, o); err != nil {
			t.Fatalf("kind %d: %v", kind, err)
		}
		if calls := srv.Calls("PutItem") - before; calls != 3 {
			t.Errorf("kind %d: %d calls, want 3", kind, calls)
		}
	}

	// Exhausted retries surface the last error, retryable.
	before := srv.Calls("GetItem")
	srv.Fail("GetItem", -1, dynamotest.Throttling)
	_, err := orders.Get(ctx, o)
	srv.ClearFaults()
	var e *dynamo.Error
	if !errors.As(err, &e) || e.Type != dynamo.ErrThrottled || !e.Retryable || e.Op != "GetItem" {
		t.Fatalf("err = %v", err)
	}
	if calls := srv.Calls("GetItem") - before; calls != 3+1 {
		t.Errorf("%d calls", calls)
	}

	// An answer that never comes within the receive timeout is a transport
	// error, retried. (A starved machine may time out a retry too: at least
	// two calls.)
	before = srv.Calls("GetItem")
	srv.Delay("GetItem", 1, time.Hour) // until the client gives up
	impatient := dynamo.Bind(newRepoFor(t, srv, dynamo.WithTimeouts(time.Second, 250*time.Millisecond)), Orders)
	if _, err := impatient.Get(ctx, o); err != nil {
		t.Fatalf("after one timeout: %v", err)
	}
	if calls := srv.Calls("GetItem") - before; calls < 2 {
		t.Errorf("%d calls after a timeout", calls)
	}

	// Conditional failures are never retried.
	before = srv.Calls("PutItem")
	if err := orders.Put(ctx, o, dynamo.If(expr.NotExists("pk"))); !errors.Is(err, dynamo.ErrConditionalCheckFailed) {
		t.Fatal(err)
	}
	if calls := srv.Calls("PutItem") - before; calls != 1 {
		t.Errorf("conditional failure sent %d times", calls)
	}
}

func TestMissingTable(t *testing.T) {
	_, repo := newTestRepo(t)
	s := schema.Must[User]("nope", schema.EntityName("user"))
	_, err := dynamo.Bind(repo, s).Get(context.Background(), User{ID: "x"})
	if !errors.Is(err, dynamo.ErrResourceNotFound) || errors.Is(err, dynamo.ErrNotFound) {
		t.Fatalf("err = %v", err)
	}
}

func TestTracerOnOperations(t *testing.T) {
	tr := &recordingTracer{}
	srv, repo := newTestRepo(t, dynamo.WithTracer(tr))
	orders := dynamo.Bind(repo, Orders)
	ctx := context.Background()
	srv.Fail("PutItem", 1, dynamotest.Throttling)
	if err := orders.Put(ctx, order("u1", 1), dynamo.ConsumedCapacity(types.ReturnConsumedCapacityTotal)); err != nil {
		t.Fatal(err)
	}
	if _, err := repo.BatchWrite(ctx, []dynamo.WriteOp{orders.PutOp(order("u1", 2)), dynamo.Bind(repo, Users).PutOp(User{ID: "z"})}); err != nil {
		t.Fatal(err)
	}
	var puts []dynamo.TraceRequestEndData
	var batch *dynamo.TraceRequestEndData
	for i, e := range tr.ends {
		switch e.Action {
		case "PutItem":
			puts = append(puts, e)
		case "BatchWriteItem":
			batch = &tr.ends[i]
		}
	}
	if len(puts) != 2 || puts[0].Attempt != 1 || puts[0].Err == nil || puts[0].Err.Type != dynamo.ErrThrottled || puts[0].Status != 400 {
		t.Fatalf("put attempts = %+v", puts)
	}
	if p := puts[1]; p.Attempt != 2 || p.Err != nil || p.Status != 200 || !slices.Equal(p.Tables, []string{"app"}) || len(p.ConsumedCapacity) != 1 {
		t.Errorf("second attempt = %+v", p)
	}
	if batch == nil || !slices.Equal(batch.Tables, []string{"app"}) {
		t.Errorf("batch trace = %+v", batch)
	}
}

// stubAPI is a user's stub of the API interface.
type stubAPI struct {
	dynamo.API
	item map[string]types.AttributeValue
	opts int
}

func (s *stubAPI) GetItem(ctx context.Context, in *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	s.opts = len(optFns)
	return &dynamodb.GetItemOutput{Item: s.item}, nil
}

func TestFromClientStub(t *testing.T) {
	item, err := Orders.Dump(order("u1", 1))
	if err != nil {
		t.Fatal(err)
	}
	stub := &stubAPI{item: item}
	repo, err := dynamo.FromClient(stub)
	if err != nil {
		t.Fatal(err)
	}
	got, err := dynamo.Bind(repo, Orders).Get(context.Background(), order("u1", 1))
	if err != nil || got.Total != 10 {
		t.Fatalf("Get = %+v, %v", got, err)
	}
	if _, err := repo.Request(context.Background(), "DescribeTable", nil); !errors.Is(err, dynamo.ErrValidation) {
		t.Errorf("Request on a stub: %v", err)
	}
	if repo.Client() != dynamo.API(stub) {
		t.Errorf("Client() is not the stub")
	}
}

func TestFromClientTracesPerCall(t *testing.T) {
	srv, _ := newTestRepo(t)
	tr := &recordingTracer{}
	repo, err := dynamo.FromClient(srv.Client(), dynamo.WithTracer(tr))
	if err != nil {
		t.Fatal(err)
	}
	if err := dynamo.Bind(repo, Orders).Put(context.Background(), order("u1", 1)); err != nil {
		t.Fatal(err)
	}
	if len(tr.ends) != 1 || tr.ends[0].Action != "PutItem" {
		t.Errorf("trace = %+v", tr.ends)
	}
	out, err := repo.Request(context.Background(), "DescribeTable", map[string]any{"TableName": "app"})
	if err != nil {
		t.Fatal(err)
	}
	if out["Table"].(map[string]any)["TableName"] != "app" {
		t.Errorf("DescribeTable = %v", out)
	}
}

func TestRequestAgainstLocalServer(t *testing.T) {
	_, repo := newTestRepo(t)
	ctx := context.Background()
	out, err := repo.Request(ctx, "DescribeTable", map[string]any{"TableName": "app"})
	if err != nil {
		t.Fatal(err)
	}
	if tbl := out["Table"].(map[string]any); tbl["TableName"] != "app" || tbl["TableStatus"] != "ACTIVE" {
		t.Errorf("DescribeTable = %v", tbl)
	}
	_, err = repo.Request(ctx, "PutItem", map[string]any{"TableName": "app", "Item": map[string]any{
		"pk": map[string]string{"S": "raw#1"}, "sk": map[string]string{"S": "x"}, "n": map[string]string{"N": "1"}}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := repo.Request(ctx, "GetItem", map[string]any{"TableName": "app", "Key": map[string]any{
		"pk": map[string]string{"S": "raw#1"}, "sk": map[string]string{"S": "x"}}})
	if err != nil {
		t.Fatal(err)
	}
	if n := got["Item"].(map[string]any)["n"].(map[string]any)["N"]; n != "1" {
		t.Errorf("GetItem = %v", got)
	}
	_, err = repo.Request(ctx, "DescribeTable", map[string]any{"TableName": "nope"})
	if !errors.Is(err, dynamo.ErrResourceNotFound) {
		t.Errorf("missing table: %v", err)
	}
	_, err = repo.Request(ctx, "PutItem", map[string]any{"TableName": "app", "Item": map[string]any{"pk": map[string]string{"S": "x"}}})
	var e *dynamo.Error
	if !errors.As(err, &e) || e.Type != dynamo.ErrValidation || e.AWSCode != "ValidationException" {
		t.Errorf("validation: %v", err)
	}
}

// goroutineTracer records, for each attempt, whether its trace calls ran on
// the goroutine named caller, and whether start and end shared a goroutine.
type goroutineTracer struct {
	caller                     string
	mu                         sync.Mutex
	onCaller, elsewhere, split int
}

type goroutineKey struct{}

func goroutineID() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	return strings.Fields(string(buf))[1] // "goroutine N [running]:"
}

func (g *goroutineTracer) TraceRequestStart(ctx context.Context, _ dynamo.TraceRequestStartData) context.Context {
	return context.WithValue(ctx, goroutineKey{}, goroutineID())
}

func (g *goroutineTracer) TraceRequestEnd(ctx context.Context, _ dynamo.TraceRequestEndData) {
	id := goroutineID()
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case ctx.Value(goroutineKey{}) != id:
		g.split++
	case id == g.caller:
		g.onCaller++
	default:
		g.elsewhere++
	}
}

// The tracer runs on the goroutine that sends the attempt: the caller's for
// a single call, a worker's for the segments of a parallel scan (so calls
// overlap), and start and end of an attempt on the same one.
func TestTracerGoroutines(t *testing.T) {
	tr := &goroutineTracer{caller: goroutineID()}
	_, repo := newTestRepo(t, dynamo.WithTracer(tr))
	orders := dynamo.Bind(repo, Orders)
	ctx := context.Background()
	if err := orders.Put(ctx, order("u1", 1)); err != nil {
		t.Fatal(err)
	}
	if tr.onCaller != 1 || tr.elsewhere != 0 {
		t.Fatalf("Put traced on the caller %d times, elsewhere %d", tr.onCaller, tr.elsewhere)
	}
	for _, err := range orders.ScanStream(ctx, dynamo.Parallel(4, 0)) {
		if err != nil {
			t.Fatal(err)
		}
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if tr.onCaller != 1 || tr.elsewhere != 4 || tr.split != 0 {
		t.Fatalf("parallel scan: %d attempts traced on the caller, %d elsewhere, %d split", tr.onCaller-1, tr.elsewhere, tr.split)
	}
}
