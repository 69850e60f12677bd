package dynamo_test

import (
	"cmp"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/codec"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/schema"
)

type Counter struct {
	ID   string            `dynamo:"id,pk"`
	N    int               `dynamo:"n"`
	Name string            `dynamo:"name"`
	Tags codec.Set[string] `dynamo:"tags"`
	Blob string            `dynamo:"blob"`
}

var Counters = schema.Must[Counter]("counters")

// lossy lets a request reach the server and then loses its answer, for the
// next n requests of an action: the body breaks after the status line (as in
// the closed-connection race) or, with early, the round trip fails as a reset
// connection does before the answer's headers.
type lossy struct {
	early bool
	mu    sync.Mutex
	lose  map[string]int
}

func (l *lossy) Lose(action string, n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.lose == nil {
		l.lose = map[string]int{}
	}
	l.lose[action] += n
}

func (l *lossy) take(action string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.lose[action] == 0 {
		return false
	}
	l.lose[action]--
	return true
}

func (l *lossy) RoundTrip(req *http.Request) (*http.Response, error) {
	action := strings.TrimPrefix(req.Header.Get("X-Amz-Target"), "DynamoDB_20120810.")
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil || !l.take(action) {
		return resp, err
	}
	if l.early {
		resp.Body.Close()
		return nil, &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}
	}
	resp.Body = brokenBody{resp.Body}
	return resp, nil
}

type brokenBody struct{ io.ReadCloser }

func (brokenBody) Read([]byte) (int, error) {
	return 0, &net.OpError{Op: "read", Net: "tcp", Err: net.ErrClosed}
}

func lossyRepo(t *testing.T, early bool) (*dynamotest.Server, *dynamo.Repo, *lossy) {
	t.Helper()
	srv := dynamotest.NewServer(t)
	srv.CreateTables(t, Counters)
	l := &lossy{early: early}
	return srv, srv.Repo(t, dynamo.WithHTTPClient(&http.Client{Transport: l})), l
}

func wantOutcomeUnknown(t *testing.T, err error) {
	t.Helper()
	var e *dynamo.Error
	if !errors.Is(err, dynamo.ErrOutcomeUnknown) || !errors.As(err, &e) || e.Type != dynamo.ErrOutcomeUnknown ||
		e.Retryable || retryable(err) {
		t.Fatalf("err = %v, want an unknown outcome, not retryable", err)
	}
}

// A write that is not safe to repeat is sent once when its answer is lost:
// the caller learns that the outcome is unknown, and the data shows it
// applied exactly once. Safe requests are retried as before.
func TestLostAnswerIsNeverRetriedForUnsafeWrites(t *testing.T) {
	ctx := context.Background()
	for _, early := range []bool{false, true} {
		name := map[bool]string{false: "body lost after 200", true: "reset before headers"}[early]
		t.Run(name, func(t *testing.T) {
			srv, repo, l := lossyRepo(t, early)
			counters := dynamo.Bind(repo, Counters)
			key := Counter{ID: "c"}
			n := func() int {
				t.Helper()
				got, err := counters.Get(ctx, key, dynamo.Consistent())
				if err != nil {
					t.Fatal(err)
				}
				return got.N
			}
			calls := func(action string, f func() error) (int, error) {
				before := srv.Calls(action)
				err := f()
				return srv.Calls(action) - before, err
			}

			// ADD (Update returns the new item): sent once, applied once,
			// reported unknown.
			l.Lose("UpdateItem", 1)
			sent, err := calls("UpdateItem", func() error {
				_, err := counters.Update(ctx, key, expr.Add("n", 1))
				return err
			})
			wantOutcomeUnknown(t, err)
			if sent != 1 || n() != 1 {
				t.Fatalf("ADD sent %d times, n = %d; want 1 and 1", sent, n())
			}

			// Increment (SET n = n + :v), even under a condition that stays true.
			l.Lose("UpdateItem", 1)
			sent, err = calls("UpdateItem", func() error {
				_, err := counters.Update(ctx, key, expr.Increment("n", 1), dynamo.If(expr.Exists("pk")))
				return err
			})
			wantOutcomeUnknown(t, err)
			if sent != 1 || n() != 2 {
				t.Fatalf("increment sent %d times, n = %d; want 1 and 2", sent, n())
			}

			// The same through the raw escape hatch.
			l.Lose("UpdateItem", 1)
			sent, err = calls("UpdateItem", func() error {
				_, err := repo.Request(ctx, "UpdateItem", map[string]any{
					"TableName": "counters", "Key": map[string]any{"pk": map[string]string{"S": "counter#c"}},
					"UpdateExpression": "ADD n :one", "ExpressionAttributeValues": map[string]any{":one": map[string]string{"N": "1"}},
				})
				return err
			})
			wantOutcomeUnknown(t, err)
			if sent != 1 || n() != 3 {
				t.Fatalf("raw ADD sent %d times, n = %d; want 1 and 3", sent, n())
			}

			// Safe requests are retried: SET of a constant, ADD to a set, Put, Get, Delete.
			safe := []struct {
				action string
				do     func() error
			}{
				{"UpdateItem", func() error {
					_, err := counters.Update(ctx, key, expr.Set("name", "x"), expr.Add("tags", codec.NewSet("a")))
					return err
				}},
				{"PutItem", func() error { err := counters.Put(ctx, Counter{ID: "p", N: 7}); return err }},
				{"GetItem", func() error { _, err := counters.Get(ctx, key); return err }},
				{"DeleteItem", func() error { err := counters.Delete(ctx, Counter{ID: "p"}); return err }},
			}
			for _, s := range safe {
				l.Lose(s.action, 1)
				if sent, err := calls(s.action, s.do); err != nil || sent != 2 {
					t.Fatalf("%s: sent %d times, err %v; want 2 and success", s.action, sent, err)
				}
			}
			if n() != 3 {
				t.Fatalf("n = %d after safe retries, want 3", n())
			}

			// A transaction carries the SDK's token: retried, applied once.
			l.Lose("TransactWriteItems", 1)
			sent, err = calls("TransactWriteItems", func() error {
				return repo.Transact(ctx, []dynamo.TxOp{counters.TxUpdate(key, expr.Increment("n", 1))})
			})
			if err != nil || sent != 2 || n() != 4 {
				t.Fatalf("transaction sent %d times, err %v, n = %d; want 2, success, 4", sent, err, n())
			}
		})
	}
}

// Throttling is DynamoDB refusing the request: every write is retried. A
// 5xx is an unknown outcome for a write that is not safe to repeat.
func TestThrottlingRetriedAndServerErrorUnknownForUnsafeWrites(t *testing.T) {
	ctx := context.Background()
	srv, repo, _ := lossyRepo(t, false)
	counters := dynamo.Bind(repo, Counters)
	add := func() error {
		_, err := counters.Update(ctx, Counter{ID: "c"}, expr.Add("n", 1))
		return err
	}
	srv.Fail("UpdateItem", 2, dynamotest.Throttling)
	if err := add(); err != nil || srv.Calls("UpdateItem") != 3 {
		t.Fatalf("throttled ADD: err %v after %d calls; want success after 3", err, srv.Calls("UpdateItem"))
	}
	for _, kind := range []dynamotest.ErrorKind{dynamotest.InternalServerError, dynamotest.ServiceUnavailable} {
		before := srv.Calls("UpdateItem")
		srv.Fail("UpdateItem", 1, kind)
		err := add()
		wantOutcomeUnknown(t, err)
		var e *dynamo.Error
		errors.As(err, &e)
		if e.Status < 500 || e.AWSCode == "" || srv.Calls("UpdateItem")-before != 1 {
			t.Fatalf("kind %d: %+v after %d calls; want the 5xx after 1", kind, e, srv.Calls("UpdateItem")-before)
		}
		if !strings.Contains(e.Error(), "may have been applied") {
			t.Errorf("message %q does not say the write may have been applied", e.Error())
		}
	}
	// A safe write still rides over a 500.
	srv.Fail("PutItem", 1, dynamotest.InternalServerError)
	if err := counters.Put(ctx, Counter{ID: "p"}); err != nil || srv.Calls("PutItem") != 2 {
		t.Fatalf("Put after a 500: %v after %d calls", err, srv.Calls("PutItem"))
	}
}

// A client configured elsewhere (FromClient) is guarded per call, even with
// its own standard retryer.
func TestFromClientNeverRetriesUnsafeWrites(t *testing.T) {
	ctx := context.Background()
	srv := dynamotest.NewServer(t)
	srv.CreateTables(t, Counters)
	l := &lossy{}
	client := srv.Client(func(o *dynamodb.Options) { o.HTTPClient = &http.Client{Transport: l} })
	repo, err := dynamo.FromClient(client)
	if err != nil {
		t.Fatal(err)
	}
	counters := dynamo.Bind(repo, Counters)
	l.Lose("UpdateItem", 1)
	_, err = counters.Update(ctx, Counter{ID: "c"}, expr.Add("n", 1))
	wantOutcomeUnknown(t, err)
	got, gerr := counters.Get(ctx, Counter{ID: "c"})
	if gerr != nil || got.N != 1 || srv.Calls("UpdateItem") != 1 {
		t.Fatalf("n = %d (%v) after %d calls; want 1 after 1", got.N, gerr, srv.Calls("UpdateItem"))
	}
	l.Lose("GetItem", 1)
	if _, err := counters.Get(ctx, Counter{ID: "c"}); err != nil || srv.Calls("GetItem") != 3 {
		t.Fatalf("lost Get: %v after %d calls", err, srv.Calls("GetItem"))
	}
}

// The repo's own client never loses a large answer to the SDK's
// closed-connection race (a stock client does, a few times in a hundred;
// retries are off so that one would show).
func TestRepoSurvivesLargeResponses(t *testing.T) {
	ctx := context.Background()
	srv := dynamotest.NewServer(t)
	srv.CreateTables(t, Counters)
	counters := dynamo.Bind(srv.Repo(t, dynamo.WithMaxRetries(0)), Counters)
	blob := strings.Repeat("x", 256<<10)
	for i := range 12 {
		if err := counters.Put(ctx, Counter{ID: string(rune('a' + i)), Blob: blob}); err != nil {
			t.Fatal(err)
		}
	}
	failed, cursor := 0, ""
	var first error
	for range 100 { // pages of 1 MB
		var opts []dynamo.ScanOption
		if cursor != "" {
			opts = append(opts, dynamo.StartAfter(cursor))
		}
		page, err := counters.Scan(ctx, opts...)
		if err != nil {
			failed++
			first = cmp.Or(first, err)
			cursor = ""
			continue
		}
		cursor = page.Cursor
	}
	if failed > 0 {
		t.Fatalf("%d of 100 scans of 1 MB failed: %v", failed, first)
	}
}

// A request that never reached the server cannot have been applied: an
// unsafe write is retried after a failure to connect.
func TestUnsentWriteIsRetried(t *testing.T) {
	srv := dynamotest.NewServer(t)
	url := srv.URL
	srv.Close()
	repo, err := dynamo.New(aws.Config{}, dynamo.WithEndpoint(url), dynamo.WithRegion("us-east-1"),
		dynamo.WithCredentials("a", "b", ""), dynamo.WithMaxRetries(1), dynamo.WithBackoff(time.Millisecond, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	_, err = dynamo.Bind(repo, Counters).Update(context.Background(), Counter{ID: "c"}, expr.Add("n", 1))
	var e *dynamo.Error
	if !errors.As(err, &e) || e.Type != dynamo.ErrTransport || !strings.HasSuffix(e.Message, "(after 2 attempts)") {
		t.Fatalf("err = %v, want a transport error after 2 attempts", err)
	}
}
