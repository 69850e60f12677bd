package dynamootel_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/dynamootel"
	"github.com/dynamogo/dynamo/local"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// A repo whose every operation, and every request attempt under it, becomes
// an OpenTelemetry span; here against the embedded local server, with spans
// kept in memory.
func Example() {
	srv, _ := local.New()
	defer srv.Close()
	hs := httptest.NewServer(srv)
	defer hs.Close()

	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	repo, err := dynamo.New(aws.Config{},
		dynamo.WithEndpoint(hs.URL), dynamo.WithRegion("us-east-1"),
		dynamo.WithCredentials("example", "example", ""),
		dynamo.WithTracer(dynamootel.New(dynamootel.WithTracerProvider(tp))))
	if err != nil {
		panic(err)
	}
	_, err = repo.DescribeTable(context.Background(), "missing")
	fmt.Println(err != nil)
	for _, s := range rec.Ended() {
		fmt.Println(s.Name(), s.Status().Code)
	}
	// Output:
	// true
	// DynamoDB.DescribeTable Error
	// DynamoDB DescribeTable Error
}
