package local_test

import (
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/local"
	"github.com/dynamogo/dynamo/local/storage/disk"
)

// GET / is DynamoDB's health line while the engine can write, and a 503
// naming the reason once it cannot: here a durable engine that was closed
// under the server (a full disk reports the same way; the disk package's
// tests cover that Health says so).
func TestHealthReportsAnEngineThatCannotWrite(t *testing.T) {
	eng, err := disk.Open(t.TempDir(), disk.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	srv := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithEngine(eng)))
	get := func() (int, string) {
		t.Helper()
		resp, err := http.Get(srv.URL + "/")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, string(b)
	}
	if code, body := get(); code != http.StatusOK || body != "healthy: dynamodb.us-east-1.amazonaws.com " {
		t.Fatalf("GET / on a healthy engine: %d %q", code, body)
	}
	if err := eng.Close(); err != nil {
		t.Fatal(err)
	}
	if code, body := get(); code != http.StatusServiceUnavailable || !strings.HasPrefix(body, "unhealthy: the storage engine cannot write: storage: engine closed") {
		t.Fatalf("GET / on a closed engine: %d %q", code, body)
	}
}
