package local_test

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/local"
)

// withStubConsole turns the console hooks on with a console answering
// "console" (the real one is package local/console).
func withStubConsole() dynamotest.Option {
	return dynamotest.WithLocalOptions(local.WithConsole(func(*local.Server) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "console") })
	}))
}

// Invoke runs the API's handlers in-process: what it writes the SDK reads,
// and it answers the API's errors, stream actions included.
func TestInvokeIsTheAPI(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "inv")
	out, err := srv.Local.Invoke("PutItem", []byte(`{"TableName":"inv","Item":{"pk":{"S":"a"},"n":{"N":"12345678901234567890123456789012345678"}},"ReturnConsumedCapacity":"TOTAL"}`))
	if err != nil || !strings.Contains(string(out), `"CapacityUnits":1`) {
		t.Fatalf("PutItem: %s, %v", out, err)
	}
	got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("inv"), Key: item{"pk": S("a")}})
	if err != nil || sval(got.Item["n"]) != "12345678901234567890123456789012345678" {
		t.Fatalf("GetItem after Invoke: %v, %v", got, err)
	}
	// The same validation, and the same message, as over HTTP.
	_, apiErr := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("inv"), Item: item{"pk": N("1")}})
	_, err = srv.Local.Invoke("PutItem", []byte(`{"TableName":"inv","Item":{"pk":{"N":"1"}}}`))
	var le *local.Error
	if !errors.As(err, &le) || le.Type != "ValidationException" || !strings.Contains(apiErr.Error(), le.Message) {
		t.Errorf("Invoke error %v, API error %v", err, apiErr)
	}
	for body, want := range map[string]string{"": "SerializationException", "null": "SerializationException", "[]": "SerializationException"} {
		if _, err := srv.Local.Invoke("ListTables", []byte(body)); !errors.As(err, &le) || le.Type != want {
			t.Errorf("body %q: %v, want %s", body, err, want)
		}
	}
	if _, err := srv.Local.Invoke("Explode", []byte(`{}`)); !errors.As(err, &le) || le.Type != "UnknownOperationException" {
		t.Errorf("unknown action: %v", err)
	}
	if _, err := srv.Local.Invoke("ListStreams", []byte(`{}`)); err != nil {
		t.Errorf("a DynamoDB Streams action: %v", err)
	}
	srv.Local.Close()
	if _, err := srv.Local.Invoke("ListTables", []byte(`{}`)); !errors.As(err, &le) || le.Type != "ServiceUnavailableException" {
		t.Errorf("closed server: %v", err)
	}
}

// The recent calls keep the last RecentCallsKept API calls over HTTP, oldest
// first, with their tables, status, error type and consumed capacity.
func TestRecentCallsKeepTheLast(t *testing.T) {
	srv := dynamotest.NewServer(t, withStubConsole())
	c := srv.Client(func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} })
	hashTable(t, srv, "rec")
	for range local.RecentCallsKept {
		put(t, c, "rec", item{"pk": S("a")})
	}
	c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		TransactItems: []types.TransactWriteItem{{Put: &types.Put{TableName: aws.String("rec"), Item: item{"pk": S("b")}}},
			{Put: &types.Put{TableName: aws.String("other"), Item: item{"pk": S("c")}}}}})
	_, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		RequestItems: map[string][]types.WriteRequest{"rec": {{PutRequest: &types.PutRequest{Item: item{"pk": S("d")}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	calls := srv.Local.RecentCalls()
	if len(calls) != local.RecentCallsKept {
		t.Fatalf("%d calls kept, want %d", len(calls), local.RecentCallsKept)
	}
	tx, batch := calls[len(calls)-2], calls[len(calls)-1]
	if tx.Action != "TransactWriteItems" || strings.Join(tx.Tables, ",") != "rec,other" || tx.Status != 400 || tx.ErrorType != "ResourceNotFoundException" || tx.HasCapacity {
		t.Errorf("transaction: %+v", tx)
	}
	if batch.Action != "BatchWriteItem" || strings.Join(batch.Tables, ",") != "rec" || batch.Status != 200 || !batch.HasCapacity || batch.Capacity != 1 {
		t.Errorf("batch: %+v", batch)
	}
	if first := calls[0]; first.Action != "PutItem" || first.HasCapacity {
		t.Errorf("oldest kept: %+v (the CreateTable and first puts should be gone)", first)
	}
	for i := 1; i < len(calls); i++ {
		if calls[i].Time.Before(calls[i-1].Time) {
			t.Fatal("calls are not oldest first")
		}
	}
	// Invoke's calls are not the program's: not listed.
	srv.Local.Invoke("ListTables", []byte(`{}`))
	if last := srv.Local.RecentCalls(); last[len(last)-1].Action != "BatchWriteItem" {
		t.Errorf("an Invoke call was listed: %+v", last[len(last)-1])
	}
}

// The console's paths go to the console, before CORS; every other path
// answers as without it. Without WithConsole nothing is recorded.
func TestConsolePaths(t *testing.T) {
	srv := dynamotest.NewServer(t, withStubConsole(), dynamotest.WithLocalOptions(local.WithCORS("*")))
	for path, console := range map[string]bool{"/console": true, "/console/": true, "/console/t/x": true, "/consolex": false, "/x/console/": false} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		req.Header.Set("Origin", "http://tool.example")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if (string(body) == "console") != console {
			t.Errorf("GET %s: %d %q", path, resp.StatusCode, body)
		}
		if console && resp.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("GET %s: CORS headers on the console", path)
		}
	}
	if calls := dynamotest.NewServer(t).Local.RecentCalls(); calls != nil {
		t.Errorf("recent calls without the console: %v", calls)
	}
}

// The console sees the shared tables: New refuses it with WithTenancy.
func TestConsoleRefusesTenancy(t *testing.T) {
	_, err := local.New(local.WithTenancy(), local.WithConsole(func(*local.Server) http.Handler { return http.NotFoundHandler() }))
	if err == nil || !strings.Contains(err.Error(), "WithTenancy") {
		t.Fatalf("New: %v", err)
	}
}

// CheckAccessKey accepts exactly the configured keys, session token
// included.
func TestCheckAccessKey(t *testing.T) {
	s, err := local.New(local.WithAccessKeys(local.AccessKey{ID: "AKID1", Secret: "one"}, local.AccessKey{ID: "AKID2", Secret: "two", SessionToken: "tok"}))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.RequiresCredentials() {
		t.Error("RequiresCredentials: false with keys")
	}
	for _, tc := range []struct {
		id, secret, token string
		ok                bool
	}{
		{"AKID1", "one", "", true}, {"AKID2", "two", "tok", true},
		{"AKID1", "two", "", false}, {"AKID2", "two", "", false}, {"AKID1", "one", "tok", false}, {"AKID3", "", "", false}, {"", "", "", false},
	} {
		if got := s.CheckAccessKey(tc.id, tc.secret, tc.token); got != tc.ok {
			t.Errorf("CheckAccessKey(%s, …, %q) = %v", tc.id, tc.token, got)
		}
	}
	open, _ := local.New()
	defer open.Close()
	if open.RequiresCredentials() || open.CheckAccessKey("", "", "") {
		t.Error("a server without keys requires or accepts credentials")
	}
}
