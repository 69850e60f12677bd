package dynamootel_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/dynamootel"
	"github.com/dynamogo/dynamo/schema"
)

func TestSpansPerAttempt(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		if n.Add(1) == 1 {
			w.WriteHeader(400)
			io.WriteString(w, `{"__type":"com.amazon.coral.availability#ThrottlingException","message":"Rate of requests exceeds the allowed throughput."}`)
			return
		}
		io.WriteString(w, `{"Table":{"TableName":"app"}}`)
	}))
	defer srv.Close()

	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	repo, err := dynamo.New(aws.Config{}, dynamo.WithEndpoint(srv.URL), dynamo.WithCredentials("AKIDTEST", "secret-not-real", ""),
		dynamo.WithBackoff(time.Millisecond, time.Millisecond), dynamo.WithTracer(dynamootel.New(dynamootel.WithTracerProvider(tp))))
	if err != nil {
		t.Fatal(err)
	}
	ctx, parent := tp.Tracer("test").Start(context.Background(), "parent")
	if _, err := repo.Request(ctx, "DescribeTable", map[string]any{"TableName": "app"}); err != nil {
		t.Fatal(err)
	}
	parent.End()

	var spans []sdktrace.ReadOnlySpan
	var op sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		switch s.Name() {
		case "DynamoDB.DescribeTable":
			spans = append(spans, s)
		case "DynamoDB DescribeTable":
			op = s
		}
	}
	if len(spans) != 2 || op == nil {
		t.Fatalf("%d attempt spans, operation span %v", len(spans), op)
	}
	// The attempts nest under the operation, the operation under the caller.
	if op.Parent().SpanID() != parent.SpanContext().SpanID() || op.Status().Code == codes.Error {
		t.Errorf("operation span: parent %v status %v", op.Parent(), op.Status())
	}
	for i, s := range spans {
		if s.SpanKind() != trace.SpanKindClient || s.Parent().SpanID() != op.SpanContext().SpanID() {
			t.Errorf("span %d: kind %v parent %v", i, s.SpanKind(), s.Parent())
		}
		attrs := map[string]any{}
		for _, kv := range s.Attributes() {
			attrs[string(kv.Key)] = kv.Value.AsInterface()
		}
		if attrs["rpc.method"] != "DescribeTable" || attrs["dynamo.attempt"] != int64(i+1) {
			t.Errorf("span %d attrs %v", i, attrs)
		}
		if tn, _ := attrs["aws.dynamodb.table_names"].([]string); len(tn) != 1 || tn[0] != "app" {
			t.Errorf("table_names = %v", attrs["aws.dynamodb.table_names"])
		}
		if i == 0 && (s.Status().Code != codes.Error || attrs["error.type"] != "throttled" || attrs["http.response.status_code"] != int64(400)) {
			t.Errorf("first attempt: status %v attrs %v", s.Status(), attrs)
		}
		if i == 1 && (s.Status().Code == codes.Error || attrs["http.response.status_code"] != int64(200)) {
			t.Errorf("second attempt: status %v attrs %v", s.Status(), attrs)
		}
	}
}

// A validation failure sends nothing, yet its operation has a span with the
// error.
func TestValidationFailureSpan(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	repo, err := dynamo.New(aws.Config{}, dynamo.WithEndpoint("http://127.0.0.1:1"), dynamo.WithCredentials("AKIDTEST", "secret-not-real", ""),
		dynamo.WithTracer(dynamootel.New(dynamootel.WithTracerProvider(tp))))
	if err != nil {
		t.Fatal(err)
	}
	type item struct {
		ID string `dynamo:"id,pk"`
	}
	items := dynamo.Bind(repo, schema.Must[item]("app"))
	if err := items.Put(context.Background(), item{}); err == nil {
		t.Fatal("no validation error")
	}
	ended := rec.Ended()
	if len(ended) != 1 || ended[0].Name() != "DynamoDB PutItem" || ended[0].Status().Code != codes.Error {
		t.Fatalf("spans = %v", ended)
	}
	for _, kv := range ended[0].Attributes() {
		if kv.Key == "error.type" && kv.Value.AsString() != "validation_error" {
			t.Errorf("error.type = %v", kv.Value)
		}
	}
}
