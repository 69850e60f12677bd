package dynamo_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo"
)

// cannedServer answers DynamoDB requests with canned bodies. reply gets the
// action, the 1-based attempt number of that action and the request body.
type cannedServer struct {
	*httptest.Server
	mu       sync.Mutex
	attempts map[string]int
	headers  []http.Header
}

type reply struct {
	status int
	body   string
	delay  time.Duration
	hangup bool // close the connection without answering
}

func newCanned(t *testing.T, answer func(action string, attempt int, body []byte) reply) *cannedServer {
	t.Helper()
	s := &cannedServer{attempts: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		action := strings.TrimPrefix(r.Header.Get("X-Amz-Target"), "DynamoDB_20120810.")
		s.mu.Lock()
		s.attempts[action]++
		n := s.attempts[action]
		s.headers = append(s.headers, r.Header.Clone())
		s.mu.Unlock()
		rep := answer(action, n, body)
		if rep.delay > 0 {
			select {
			case <-time.After(rep.delay):
			case <-r.Context().Done():
				return
			}
		}
		if rep.hangup {
			hj, _ := w.(http.Hijacker)
			conn, _, _ := hj.Hijack()
			conn.Close()
			return
		}
		if rep.status == 0 {
			rep.status = 200
		}
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.Header().Set("X-Amzn-Requestid", fmt.Sprintf("REQ%d", n))
		w.Header().Set("X-Amz-Crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE([]byte(rep.body))), 10))
		w.WriteHeader(rep.status)
		io.WriteString(w, rep.body)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *cannedServer) count(action string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.attempts[action]
}

func fastRepo(t *testing.T, endpoint string, opts ...dynamo.Option) *dynamo.Repo {
	t.Helper()
	base := []dynamo.Option{
		dynamo.WithRegion("eu-central-1"),
		dynamo.WithEndpoint(endpoint),
		dynamo.WithCredentials("AKIDEXAMPLETEST", "not-a-real-secret", ""),
		dynamo.WithBackoff(time.Millisecond, 2*time.Millisecond),
	}
	r, err := dynamo.New(awsConfig(), append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Error bodies as DynamoDB sends them: namespaced __type (two different
// namespaces occur), "message" or "Message".
var capturedErrors = []struct {
	name      string
	status    int
	body      string
	typ       dynamo.ErrorType
	code      string
	msg       string
	retryable bool
	sentinel  error
}{
	{"conditional", 400, `{"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException","message":"The conditional request failed"}`,
		dynamo.ErrConditionalCheckFailed, "ConditionalCheckFailedException", "The conditional request failed", false, dynamo.ErrConditionalCheckFailed},
	{"not found", 400, `{"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException","message":"Requested resource not found"}`,
		dynamo.ErrResourceNotFound, "ResourceNotFoundException", "Requested resource not found", false, dynamo.ErrResourceNotFound},
	{"validation", 400, `{"__type":"com.amazon.coral.validate#ValidationException","message":"One or more parameter values were invalid: Missing the key pk in the item"}`,
		dynamo.ErrValidation, "ValidationException", "One or more parameter values were invalid: Missing the key pk in the item", false, dynamo.ErrValidation},
	{"serialization", 400, `{"__type":"com.amazon.coral.service#SerializationException","Message":"Start of structure or map found where not expected."}`,
		dynamo.ErrValidation, "SerializationException", "Start of structure or map found where not expected.", false, dynamo.ErrValidation},
	{"access denied", 400, `{"__type":"com.amazon.coral.service#AccessDeniedException","Message":"User: arn:aws:iam::123456789012:user/dev is not authorized to perform: dynamodb:PutItem on resource: arn:aws:dynamodb:eu-central-1:123456789012:table/app"}`,
		dynamo.ErrAccessDenied, "AccessDeniedException", "User: arn:aws:iam::123456789012:user/dev is not authorized to perform: dynamodb:PutItem on resource: arn:aws:dynamodb:eu-central-1:123456789012:table/app", false, dynamo.ErrAccessDenied},
	{"unrecognized client", 400, `{"__type":"com.amazon.coral.service#UnrecognizedClientException","message":"The security token included in the request is invalid."}`,
		dynamo.ErrAuthentication, "UnrecognizedClientException", "The security token included in the request is invalid.", false, dynamo.ErrAuthentication},
	{"missing token", 400, `{"__type":"com.amazon.coral.service#MissingAuthenticationTokenException","message":"Request is missing Authentication Token"}`,
		dynamo.ErrAuthentication, "MissingAuthenticationTokenException", "Request is missing Authentication Token", false, dynamo.ErrAuthentication},
	{"transaction conflict", 400, `{"__type":"com.amazonaws.dynamodb.v20120810#TransactionConflictException","message":"Transaction is ongoing for the item"}`,
		dynamo.ErrTransactionConflict, "TransactionConflictException", "Transaction is ongoing for the item", false, dynamo.ErrTransactionConflict},
	{"item collection", 400, `{"__type":"com.amazonaws.dynamodb.v20120810#ItemCollectionSizeLimitExceededException","message":"Collection size exceeded."}`,
		dynamo.ErrItemCollectionSizeExceeded, "ItemCollectionSizeLimitExceededException", "Collection size exceeded.", false, dynamo.ErrItemCollectionSizeExceeded},
	{"resource in use", 400, `{"__type":"com.amazonaws.dynamodb.v20120810#ResourceInUseException","message":"Table already exists: app"}`,
		dynamo.ErrResourceInUse, "ResourceInUseException", "Table already exists: app", false, dynamo.ErrResourceInUse},
	{"limit exceeded", 400, `{"__type":"com.amazonaws.dynamodb.v20120810#LimitExceededException","message":"Subscriber limit exceeded: Only 10 tables can be created, updated, or deleted simultaneously"}`,
		dynamo.ErrLimitExceeded, "LimitExceededException", "Subscriber limit exceeded: Only 10 tables can be created, updated, or deleted simultaneously", false, dynamo.ErrLimitExceeded},
	{"unknown operation", 400, `{"__type":"com.amazon.coral.service#UnknownOperationException"}`,
		dynamo.ErrValidation, "UnknownOperationException", "UnknownOperationException", false, dynamo.ErrValidation},
	{"throttling", 400, `{"__type":"com.amazon.coral.availability#ThrottlingException","message":"Rate of requests exceeds the allowed throughput."}`,
		dynamo.ErrThrottled, "ThrottlingException", "Rate of requests exceeds the allowed throughput.", true, dynamo.ErrThrottled},
	{"provisioned", 400, `{"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException","message":"The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API."}`,
		dynamo.ErrProvisionedThroughputExceeded, "ProvisionedThroughputExceededException", "The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.", true, dynamo.ErrProvisionedThroughputExceeded},
	{"request limit", 400, `{"__type":"com.amazonaws.dynamodb.v20120810#RequestLimitExceeded","message":"Throughput exceeds the current throughput limit for your account. Please contact AWS Support at https://aws.amazon.com/support request a limit increase"}`,
		dynamo.ErrThrottled, "RequestLimitExceeded", "Throughput exceeds the current throughput limit for your account. Please contact AWS Support at https://aws.amazon.com/support request a limit increase", true, dynamo.ErrThrottled},
	{"internal", 500, `{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"Internal server error"}`,
		dynamo.ErrInternalServer, "InternalServerError", "Internal server error", true, dynamo.ErrInternalServer},
	{"503 unmodeled", 503, `{"__type":"com.amazon.coral.availability#ServiceUnavailableException","message":"Service unavailable"}`,
		dynamo.ErrInternalServer, "ServiceUnavailableException", "Service unavailable", true, dynamo.ErrInternalServer},
	{"502 no body type", 502, `{}`,
		dynamo.ErrInternalServer, "UnknownError", "UnknownError", true, dynamo.ErrInternalServer},
}

func TestErrorMappingCapturedBodies(t *testing.T) {
	for _, tc := range capturedErrors {
		t.Run(tc.name, func(t *testing.T) {
			srv := newCanned(t, func(string, int, []byte) reply { return reply{status: tc.status, body: tc.body} })
			r := fastRepo(t, srv.URL)
			_, err := r.Request(context.Background(), "PutItem", map[string]any{"TableName": "app", "Item": map[string]any{"pk": map[string]string{"S": "a"}}})
			var e *dynamo.Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %T %v, want *dynamo.Error", err, err)
			}
			if e.Type != tc.typ || e.AWSCode != tc.code || e.Message != tc.msg || e.Status != tc.status || e.Retryable != tc.retryable {
				t.Errorf("got Type=%s AWSCode=%q Message=%q Status=%d Retryable=%v", e.Type, e.AWSCode, e.Message, e.Status, e.Retryable)
			}
			if e.Op != "PutItem" || e.Table != "app" {
				t.Errorf("Op=%q Table=%q", e.Op, e.Table)
			}
			if !errors.Is(err, tc.sentinel) {
				t.Errorf("errors.Is(err, %v) = false", tc.sentinel)
			}
			if errors.Is(err, dynamo.ErrNotFound) {
				t.Errorf("errors.Is(err, ErrNotFound) = true")
			}
			if e.Unwrap() == nil {
				t.Errorf("no cause")
			}
			var api interface{ ErrorCode() string }
			if !errors.As(err, &api) || !strings.HasSuffix(api.ErrorCode(), tc.code) {
				t.Errorf("cause = %#v", e.Unwrap())
			}
			if e.RequestID == "" {
				t.Errorf("no request id")
			}
			want := 1
			if tc.retryable {
				want = 3 + 1 // the default retries
			}
			if got := srv.count("PutItem"); got != want {
				t.Errorf("attempts = %d, want %d", got, want)
			}
		})
	}
}

func TestErrorMessageFormat(t *testing.T) {
	srv := newCanned(t, func(string, int, []byte) reply { return reply{status: 400, body: capturedErrors[0].body} })
	r := fastRepo(t, srv.URL)
	_, err := r.Request(context.Background(), "PutItem", map[string]any{"TableName": "app"})
	want := `dynamo: PutItem "app": The conditional request failed (ConditionalCheckFailedException, HTTP 400)`
	if err == nil || err.Error() != want {
		t.Fatalf("Error() = %q, want %q", err, want)
	}
}

const canceledBody = `{"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException","CancellationReasons":[{"Code":"None"},{"Code":"ConditionalCheckFailed","Item":{"pk":{"S":"acct#a"},"sk":{"S":"acct"},"balance":{"N":"3"}},"Message":"The conditional request failed"}],"Message":"Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]"}`

func TestTransactionCanceledReasons(t *testing.T) {
	srv := newCanned(t, func(string, int, []byte) reply { return reply{status: 400, body: canceledBody} })
	r := fastRepo(t, srv.URL)
	check := func(t *testing.T, err error) {
		t.Helper()
		var e *dynamo.Error
		if !errors.As(err, &e) || e.Type != dynamo.ErrTransactionCanceled {
			t.Fatalf("err = %v", err)
		}
		if len(e.CancellationReasons) != 2 {
			t.Fatalf("reasons = %+v", e.CancellationReasons)
		}
		if e.CancellationReasons[0].Code != "None" || e.CancellationReasons[1].Code != "ConditionalCheckFailed" ||
			e.CancellationReasons[1].Message != "The conditional request failed" {
			t.Errorf("reasons = %+v", e.CancellationReasons)
		}
		bal, _ := e.CancellationReasons[1].Item["balance"].(*types.AttributeValueMemberN)
		if bal == nil || bal.Value != "3" {
			t.Errorf("reason item = %#v", e.CancellationReasons[1].Item)
		}
		if !errors.Is(err, dynamo.ErrTransactionCanceled) || e.Retryable {
			t.Errorf("Is/Retryable wrong: %+v", e)
		}
	}
	t.Run("raw", func(t *testing.T) {
		_, err := r.Request(context.Background(), "TransactWriteItems", map[string]any{"TransactItems": []any{}})
		check(t, err)
	})
}

func TestRetriesThrottlingThenSuccess(t *testing.T) {
	srv := newCanned(t, func(action string, n int, _ []byte) reply {
		if n <= 2 {
			return reply{status: 400, body: `{"__type":"com.amazon.coral.availability#ThrottlingException","message":"Rate of requests exceeds the allowed throughput."}`}
		}
		return reply{body: `{"Table":{"TableName":"app","ItemCount":12345678901234567}}`}
	})
	r := fastRepo(t, srv.URL)
	out, err := r.Request(context.Background(), "DescribeTable", map[string]any{"TableName": "app"})
	if err != nil {
		t.Fatal(err)
	}
	table := out["Table"].(map[string]any)
	if table["TableName"] != "app" || table["ItemCount"] != json.Number("12345678901234567") {
		t.Errorf("out = %#v", out)
	}
	if got := srv.count("DescribeTable"); got != 3 {
		t.Errorf("attempts = %d, want 3", got)
	}
}

func TestMaxRetriesZeroDisablesRetries(t *testing.T) {
	srv := newCanned(t, func(string, int, []byte) reply {
		return reply{status: 500, body: `{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"Internal server error"}`}
	})
	r := fastRepo(t, srv.URL, dynamo.WithMaxRetries(0))
	_, err := r.Request(context.Background(), "GetItem", map[string]any{"TableName": "app"})
	if !errors.Is(err, dynamo.ErrInternalServer) || !retryable(err) {
		t.Fatalf("err = %v", err)
	}
	if got := srv.count("GetItem"); got != 1 {
		t.Errorf("attempts = %d, want 1", got)
	}
}

func TestTransportFailuresAreRetried(t *testing.T) {
	t.Run("hangup then success", func(t *testing.T) {
		srv := newCanned(t, func(_ string, n int, _ []byte) reply {
			if n == 1 {
				return reply{hangup: true}
			}
			return reply{body: `{}`}
		})
		r := fastRepo(t, srv.URL)
		if _, err := r.Request(context.Background(), "ListTables", nil); err != nil {
			t.Fatal(err)
		}
		if got := srv.count("ListTables"); got != 2 {
			t.Errorf("attempts = %d, want 2", got)
		}
	})
	t.Run("receive timeout exhausts retries", func(t *testing.T) {
		srv := newCanned(t, func(string, int, []byte) reply { return reply{delay: time.Hour, body: `{}`} }) // until the client gives up
		r := fastRepo(t, srv.URL, dynamo.WithTimeouts(time.Second, 50*time.Millisecond), dynamo.WithMaxRetries(1))
		_, err := r.Request(context.Background(), "ListTables", nil)
		var e *dynamo.Error
		if !errors.As(err, &e) || e.Type != dynamo.ErrTransport || !e.Retryable || e.Status != 0 {
			t.Fatalf("err = %#v", err)
		}
		if got := srv.count("ListTables"); got != 2 {
			t.Errorf("attempts = %d, want 2", got)
		}
	})
	t.Run("connection refused", func(t *testing.T) {
		srv := httptest.NewServer(http.NotFoundHandler())
		url := srv.URL
		srv.Close()
		r := fastRepo(t, url, dynamo.WithMaxRetries(1))
		_, err := r.Request(context.Background(), "ListTables", nil)
		if !errors.Is(err, dynamo.ErrTransport) {
			t.Fatalf("err = %v", err)
		}
		// The message is the network error, not the SDK's wrapping of it.
		var de *dynamo.Error
		errors.As(err, &de)
		if !strings.HasPrefix(de.Message, "dial tcp ") || !strings.HasSuffix(de.Message, "connect: connection refused (after 2 attempts)") {
			t.Errorf("Message = %q", de.Message)
		}
	})
}

func TestCanceledContextIsNotRetried(t *testing.T) {
	var calls atomic.Int32
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The server cancels the caller's context once the request arrives,
	// and answers only after the client gave up.
	srv := newCanned(t, func(string, int, []byte) reply { calls.Add(1); cancel(); return reply{delay: time.Hour, body: `{}`} })
	r := fastRepo(t, srv.URL)
	_, err := r.Request(ctx, "ListTables", nil)
	if !errors.Is(err, dynamo.ErrCanceled) || !errors.Is(err, context.Canceled) || retryable(err) {
		t.Fatalf("err = %v", err)
	}
	if calls.Load() != 1 {
		t.Errorf("calls = %d", calls.Load())
	}
}

func TestDecodeError(t *testing.T) {
	srv := newCanned(t, func(string, int, []byte) reply { return reply{body: `<html>proxy error</html>`} })
	r := fastRepo(t, srv.URL)
	_, err := r.Request(context.Background(), "ListTables", nil)
	if !errors.Is(err, dynamo.ErrDecode) {
		t.Fatalf("err = %v", err)
	}
}

func TestRequestSignsAndTargets(t *testing.T) {
	var got []byte
	srv := newCanned(t, func(_ string, _ int, body []byte) reply { got = body; return reply{body: `{"TableNames":["app"]}`} })
	r := fastRepo(t, srv.URL)
	out, err := r.Request(context.Background(), "ListTables", json.RawMessage(`{"Limit":5}`))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != `{"Limit":5}` {
		t.Errorf("body = %s", got)
	}
	if names, _ := out["TableNames"].([]any); len(names) != 1 || names[0] != "app" {
		t.Errorf("out = %v", out)
	}
	h := srv.headers[0]
	if h.Get("X-Amz-Target") != "DynamoDB_20120810.ListTables" || h.Get("Content-Type") != "application/x-amz-json-1.0" {
		t.Errorf("headers = %v", h)
	}
	auth := h.Get("Authorization")
	if !strings.HasPrefix(auth, "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLETEST/") || !strings.Contains(auth, "/eu-central-1/dynamodb/aws4_request") {
		t.Errorf("Authorization = %q", auth)
	}
}

func TestRequestRejectsBadPayloadBeforeSending(t *testing.T) {
	srv := newCanned(t, func(string, int, []byte) reply { return reply{body: `{}`} })
	r := fastRepo(t, srv.URL)
	for _, p := range []any{json.RawMessage(`{`), []byte(`nope`), func() {}} {
		if _, err := r.Request(context.Background(), "ListTables", p); !errors.Is(err, dynamo.ErrValidation) {
			t.Errorf("payload %T: err = %v", p, err)
		}
	}
	if _, err := r.Request(context.Background(), "", nil); !errors.Is(err, dynamo.ErrValidation) {
		t.Errorf("empty action: err = %v", err)
	}
	if n := len(srv.headers); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

func TestSearchEndpointRoutesSearchVectorsOnly(t *testing.T) {
	main := newCanned(t, func(string, int, []byte) reply { return reply{body: `{}`} })
	search := newCanned(t, func(string, int, []byte) reply {
		return reply{body: `{"SearchResults":[{"Item":{"pk":{"S":"doc#1"}},"Score":0.25}]}`}
	})
	r := fastRepo(t, main.URL, dynamo.WithSearchEndpoint(search.URL))
	out, err := r.Request(context.Background(), "SearchVectors", map[string]any{"TableName": "docs", "IndexName": "Semantic", "TopK": 1, "SearchVector": []any{map[string]string{"N": "1"}}})
	if err != nil {
		t.Fatal(err)
	}
	if res, _ := out["SearchResults"].([]any); len(res) != 1 {
		t.Errorf("out = %v", out)
	}
	if _, err := r.Request(context.Background(), "ListTables", nil); err != nil {
		t.Fatal(err)
	}
	if search.count("SearchVectors") != 1 || main.count("SearchVectors") != 0 || main.count("ListTables") != 1 || search.count("ListTables") != 0 {
		t.Errorf("routing: main=%v search=%v", main.attempts, search.attempts)
	}
	// Without a search endpoint the custom endpoint serves SearchVectors too.
	r2 := fastRepo(t, main.URL)
	if _, err := r2.Request(context.Background(), "SearchVectors", map[string]any{"TableName": "docs"}); err != nil {
		t.Fatal(err)
	}
	if main.count("SearchVectors") != 1 {
		t.Errorf("custom endpoint not used for SearchVectors")
	}
}

func ptr[T any](v T) *T { return &v }

// retryable reports whether err is an *Error the client retries.
func retryable(err error) bool {
	var e *dynamo.Error
	return errors.As(err, &e) && e.Retryable
}
