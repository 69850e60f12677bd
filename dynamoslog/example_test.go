package dynamoslog_test

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"os"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/dynamoslog"
	"github.com/dynamogo/dynamo/local"
)

// A repo that logs its operations: here a failed DescribeTable against the
// embedded local server, at Warn (attempts are logged at Debug).
func Example() {
	srv, _ := local.New()
	defer srv.Close()
	hs := httptest.NewServer(srv)
	defer hs.Close()

	log := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey || a.Key == "duration" {
				return slog.Attr{} // keep the output stable
			}
			return a
		},
	}))
	repo, err := dynamo.New(aws.Config{},
		dynamo.WithEndpoint(hs.URL), dynamo.WithRegion("us-east-1"),
		dynamo.WithCredentials("example", "example", ""),
		dynamo.WithTracer(dynamoslog.New(log)))
	if err != nil {
		panic(err)
	}
	_, _ = repo.DescribeTable(context.Background(), "missing")
	// Output:
	// level=WARN msg="dynamo operation" operation=DescribeTable tables=[missing] error.type=resource_not_found error="Requested resource not found: Table: missing not found" aws.error.code=ResourceNotFoundException
}
