package dynamo_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynamogo/dynamo"
)

func awsConfig() aws.Config { return aws.Config{} }

// isolateEnv points every AWS configuration source at nothing, so tests see
// only what they set.
func isolateEnv(t *testing.T) {
	t.Setenv("AWS_CONFIG_FILE", t.TempDir()+"/none")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", t.TempDir()+"/none")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE",
		"AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB",
		"AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_MAX_ATTEMPTS"} {
		t.Setenv(k, "")
	}
}

func TestOpenHonoursEnvironment(t *testing.T) {
	isolateEnv(t)
	srv := newCanned(t, func(string, int, []byte) reply { return reply{body: `{"TableNames":[]}`} })
	t.Setenv("AWS_ENDPOINT_URL_DYNAMODB", srv.URL)
	t.Setenv("AWS_REGION", "ap-southeast-2")
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDENVTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "env-secret-not-real")
	r, err := dynamo.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Request(context.Background(), "ListTables", nil); err != nil {
		t.Fatal(err)
	}
	auth := srv.headers[0].Get("Authorization")
	if want := "Credential=AKIDENVTEST/"; !contains(auth, want) || !contains(auth, "/ap-southeast-2/dynamodb/") {
		t.Errorf("Authorization = %q", auth)
	}
}

func TestOpenOptionsOverrideEnvironment(t *testing.T) {
	isolateEnv(t)
	srv := newCanned(t, func(string, int, []byte) reply { return reply{body: `{}`} })
	t.Setenv("AWS_REGION", "ap-southeast-2")
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDENVTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "env-secret-not-real")
	r, err := dynamo.Open(context.Background(), dynamo.WithRegion("eu-west-1"), dynamo.WithEndpoint(srv.URL),
		dynamo.WithCredentials("AKIDOPTTEST", "opt-secret-not-real", "session-token"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Request(context.Background(), "ListTables", nil); err != nil {
		t.Fatal(err)
	}
	h := srv.headers[0]
	if auth := h.Get("Authorization"); !contains(auth, "Credential=AKIDOPTTEST/") || !contains(auth, "/eu-west-1/dynamodb/") {
		t.Errorf("Authorization = %q", auth)
	}
	if h.Get("X-Amz-Security-Token") != "session-token" {
		t.Errorf("session token header = %q", h.Get("X-Amz-Security-Token"))
	}
}

func TestNoCredentials(t *testing.T) {
	isolateEnv(t)
	srv := newCanned(t, func(string, int, []byte) reply { return reply{body: `{}`} })
	r, err := dynamo.Open(context.Background(), dynamo.WithRegion("eu-west-1"), dynamo.WithEndpoint(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Request(context.Background(), "ListTables", nil)
	var e *dynamo.Error
	if !errors.As(err, &e) || e.Type != dynamo.ErrNoCredentials || e.Retryable {
		t.Fatalf("err = %v (%#v)", err, e)
	}
	if len(srv.headers) != 0 {
		t.Errorf("a request was sent without credentials")
	}
	// New over a bare config has no provider at all.
	r2, err := dynamo.New(aws.Config{Region: "eu-west-1"}, dynamo.WithEndpoint(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r2.Request(context.Background(), "ListTables", nil); !errors.Is(err, dynamo.ErrNoCredentials) {
		t.Fatalf("err = %v", err)
	}
}

func TestRegionRequired(t *testing.T) {
	isolateEnv(t)
	_, err := dynamo.New(aws.Config{})
	if !errors.Is(err, dynamo.ErrValidation) || !contains(err.Error(), "region") {
		t.Fatalf("err = %v", err)
	}
	// With an endpoint (local server) the region defaults to us-east-1.
	srv := newCanned(t, func(string, int, []byte) reply { return reply{body: `{}`} })
	r, err := dynamo.New(aws.Config{}, dynamo.WithEndpoint(srv.URL), dynamo.WithCredentials("AKIDTEST", "secret-not-real", ""))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Request(context.Background(), "ListTables", nil); err != nil {
		t.Fatal(err)
	}
	if auth := srv.headers[0].Get("Authorization"); !contains(auth, "/us-east-1/dynamodb/") {
		t.Errorf("Authorization = %q", auth)
	}
}

func TestOptionValidation(t *testing.T) {
	bad := map[string]dynamo.Option{
		"empty region":     dynamo.WithRegion(""),
		"endpoint no host": dynamo.WithEndpoint("localhost:8000"),
		"endpoint scheme":  dynamo.WithEndpoint("ftp://x"),
		"search endpoint":  dynamo.WithSearchEndpoint("::"),
		"credentials":      dynamo.WithCredentials("", "x", ""),
		"negative retries": dynamo.WithMaxRetries(-1),
		"backoff order":    dynamo.WithBackoff(time.Second, time.Millisecond),
		"zero backoff":     dynamo.WithBackoff(0, time.Second),
		"timeouts":         dynamo.WithTimeouts(0, time.Second),
		"nil http client":  dynamo.WithHTTPClient(nil),
		"negative batch":   dynamo.WithBatchRetries(-2),
		"nil tracer":       dynamo.WithTracer(nil),
	}
	for name, opt := range bad {
		t.Run(name, func(t *testing.T) {
			_, err := dynamo.New(aws.Config{Region: "eu-west-1"}, opt)
			var e *dynamo.Error
			if !errors.As(err, &e) || e.Type != dynamo.ErrValidation {
				t.Fatalf("err = %v", err)
			}
		})
	}
	if _, err := dynamo.FromClient(nil); !errors.Is(err, dynamo.ErrValidation) {
		t.Errorf("FromClient(nil): %v", err)
	}
}

func TestHTTPClientOption(t *testing.T) {
	srv := newCanned(t, func(string, int, []byte) reply { return reply{body: `{}`} })
	var used bool
	c := doerFunc(func(req *http.Request) (*http.Response, error) {
		used = true
		return http.DefaultClient.Do(req)
	})
	r := fastRepo(t, srv.URL, dynamo.WithHTTPClient(c))
	if _, err := r.Request(context.Background(), "ListTables", nil); err != nil {
		t.Fatal(err)
	}
	if !used {
		t.Error("custom HTTP client not used")
	}
}

// recordingTracer keeps every attempt it sees.
type recordingTracer struct {
	mu     sync.Mutex
	starts []dynamo.TraceRequestStartData
	ends   []dynamo.TraceRequestEndData
}

type traceKey struct{}

func (r *recordingTracer) TraceRequestStart(ctx context.Context, d dynamo.TraceRequestStartData) context.Context {
	r.mu.Lock()
	r.starts = append(r.starts, d)
	r.mu.Unlock()
	return context.WithValue(ctx, traceKey{}, d.Attempt)
}

func (r *recordingTracer) TraceRequestEnd(ctx context.Context, d dynamo.TraceRequestEndData) {
	if ctx.Value(traceKey{}) != d.Attempt {
		panic("TraceRequestEnd did not get the context TraceRequestStart returned")
	}
	r.mu.Lock()
	r.ends = append(r.ends, d)
	r.mu.Unlock()
}

func TestTracerSeesEveryAttempt(t *testing.T) {
	srv := newCanned(t, func(_ string, n int, _ []byte) reply {
		switch n {
		case 1:
			return reply{status: 500, body: `{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"Internal server error"}`}
		case 2:
			return reply{hangup: true}
		}
		return reply{body: `{"Table":{"TableName":"app"}}`}
	})
	tr := &recordingTracer{}
	r := fastRepo(t, srv.URL, dynamo.WithTracer(tr))
	if _, err := r.Request(context.Background(), "DescribeTable", map[string]any{"TableName": "app"}); err != nil {
		t.Fatal(err)
	}
	if len(tr.starts) != 3 || len(tr.ends) != 3 {
		t.Fatalf("starts=%d ends=%d", len(tr.starts), len(tr.ends))
	}
	for i, e := range tr.ends {
		if e.Action != "DescribeTable" || !slices.Equal(e.Tables, []string{"app"}) || e.Attempt != i+1 || e.Duration <= 0 {
			t.Errorf("end %d = %+v", i, e)
		}
	}
	if e := tr.ends[0]; e.Status != 500 || e.Err == nil || e.Err.Type != dynamo.ErrInternalServer {
		t.Errorf("attempt 1 = %+v", e)
	}
	if e := tr.ends[1]; e.Status != 0 || e.Err == nil || e.Err.Type != dynamo.ErrTransport {
		t.Errorf("attempt 2 = %+v", e)
	}
	if e := tr.ends[2]; e.Status != 200 || e.Err != nil {
		t.Errorf("attempt 3 = %+v", e)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

type doerFunc func(*http.Request) (*http.Response, error)

func (f doerFunc) Do(r *http.Request) (*http.Response, error) { return f(r) }

// Settings reads back what the options and the SDK resolved; its String
// never prints a secret.
func TestSettings(t *testing.T) {
	isolateEnv(t)
	tr := &recordingTracer{}
	r, err := dynamo.New(awsConfig(),
		dynamo.WithRegion("eu-west-3"),
		dynamo.WithEndpoint("http://proxyuser:proxypass@127.0.0.1:8000"),
		dynamo.WithSearchEndpoint("http://127.0.0.1:8001"),
		dynamo.WithCredentials("AKIDSETTINGS", "settings-secret-key", "settings-token"),
		dynamo.WithMaxRetries(2),
		dynamo.WithBackoff(10*time.Millisecond, time.Second),
		dynamo.WithTimeouts(time.Second, 2*time.Second),
		dynamo.WithBatchRetries(7),
		dynamo.WithConflictRetries(2),
		dynamo.WithTracer(tr),
	)
	if err != nil {
		t.Fatal(err)
	}
	want := dynamo.Settings{
		Region: "eu-west-3", Endpoint: "http://proxyuser:proxypass@127.0.0.1:8000", SearchEndpoint: "http://127.0.0.1:8001",
		MaxRetries: 2, BaseBackoff: 10 * time.Millisecond, MaxBackoff: time.Second,
		ConnectTimeout: time.Second, ReceiveTimeout: 2 * time.Second, BatchRetries: 7, ConflictRetries: 2, Tracer: tr,
	}
	got := r.Settings()
	if got != want {
		t.Fatalf("Settings\n got %+v\nwant %+v", got, want)
	}
	s := got.String()
	for _, secret := range []string{"settings-secret-key", "settings-token", "AKIDSETTINGS", "proxypass"} {
		if strings.Contains(s, secret) {
			t.Errorf("String prints %q: %s", secret, s)
		}
	}
	for _, part := range []string{"region=eu-west-3", "endpoint=http://proxyuser:xxxxx@127.0.0.1:8000", "max_retries=2", "backoff=10ms..1s",
		"timeouts=connect:1s,receive:2s", "batch_retries=7", "conflict_retries=2", "tracer=*dynamo_test.recordingTracer"} {
		if !strings.Contains(s, part) {
			t.Errorf("String lacks %q: %s", part, s)
		}
	}

	if _, err := dynamo.New(awsConfig(), dynamo.WithConflictRetries(-1)); !errors.Is(err, dynamo.ErrValidation) {
		t.Errorf("WithConflictRetries(-1): %v", err)
	}

	// The defaults, and the region a custom endpoint implies.
	d, err := dynamo.New(awsConfig(), dynamo.WithEndpoint("http://127.0.0.1:8000"))
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Settings(); got.Region != "us-east-1" || got.MaxRetries != 3 || got.BatchRetries != 5 ||
		got.ReceiveTimeout != 30*time.Second || got.Tracer != nil || got.FromClient {
		t.Errorf("defaults: %+v", got)
	}
	if s := d.Settings().String(); !strings.Contains(s, "tracer=none") {
		t.Errorf("no tracer: %s", s)
	}

	// FromClient: the client's own region and retries, no timeouts of ours.
	fc, err := dynamo.FromClient(dynamodb.New(dynamodb.Options{Region: "ap-south-1", RetryMaxAttempts: 5}), dynamo.WithBatchRetries(2))
	if err != nil {
		t.Fatal(err)
	}
	if got := fc.Settings(); got.Region != "ap-south-1" || got.MaxRetries != 4 || got.BatchRetries != 2 || got.ConnectTimeout != 0 || !got.FromClient {
		t.Errorf("FromClient: %+v", got)
	}
}
