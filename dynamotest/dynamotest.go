package dynamotest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/internal/sdkhttp"
	"github.com/dynamogo/dynamo/local"
	"github.com/dynamogo/dynamo/local/console"
)

// Server is a local DynamoDB server listening on 127.0.0.1.
type Server struct {
	// URL is the endpoint, e.g. "http://127.0.0.1:38211".
	URL string
	// Local is the server behind the endpoint.
	Local *local.Server

	http *httptest.Server

	mu     sync.Mutex
	faults []*fault
	calls  map[string]int
	custom local.FaultFunc
	key    local.AccessKey // the credentials of Client and Repo
}

// Option configures NewServer.
type Option func(*config)

type config struct {
	local  []local.Option
	faults local.FaultFunc
	key    *local.AccessKey
}

// WithLocalOptions passes options to local.New (engine, region, clock...).
func WithLocalOptions(opts ...local.Option) Option {
	return func(c *config) { c.local = append(c.local, opts...) }
}

// WithFaultFunc installs a custom fault hook, consulted after the faults
// queued with Fail, Delay and Unprocessed.
func WithFaultFunc(f local.FaultFunc) Option {
	return func(c *config) { c.faults = f }
}

// WithAccessKey turns on the server's authentication with one access key
// (local.WithAccessKeys): requests must be signed with it, and Client and
// Repo sign with it. sessionToken may be empty.
func WithAccessKey(id, secret, sessionToken string) Option {
	return func(c *config) {
		c.key = &local.AccessKey{ID: id, Secret: secret, SessionToken: sessionToken}
	}
}

// WithConsole serves the server's web console (package local/console) at
// URL + "/console/", to look at a test's tables in a browser while it is
// stopped, or to test the console itself.
func WithConsole() Option {
	return func(c *config) { c.local = append(c.local, console.Enable()) }
}

// NewServer starts a server for the duration of the test.
func NewServer(t testing.TB, opts ...Option) *Server {
	t.Helper()
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	s := &Server{calls: map[string]int{}, custom: cfg.faults, key: local.AccessKey{ID: "dynamotest", Secret: "dynamotest"}}
	// The server checks the Host header against its address and runs with
	// dynamo local's connection limits, so tests see what users get.
	s.http = httptest.NewUnstartedServer(nil)
	lopts := append([]local.Option{local.WithHostCheck(s.http.Listener.Addr())}, cfg.local...)
	lopts = append(lopts, local.WithFaults(s.fault))
	if cfg.key != nil {
		s.key = *cfg.key
		lopts = append(lopts, local.WithAccessKeys(s.key))
	}
	l, err := local.New(lopts...)
	if err != nil {
		s.http.Listener.Close()
		t.Fatalf("dynamotest: %v", err)
	}
	s.Local = l
	s.http.Config, s.http.Listener = local.NewHTTPServer(l, s.http.Listener, local.DefaultHTTPLimits())
	s.http.Start()
	s.URL = s.http.URL
	t.Cleanup(s.Close)
	return s
}

// Close shuts the server down; NewServer arranges it with t.Cleanup.
func (s *Server) Close() {
	s.http.Close()
	s.Local.Close()
}

// Client returns an aws-sdk-go-v2 DynamoDB client for the server: static
// credentials (dummy ones, or the key of WithAccessKey), region us-east-1,
// BaseEndpoint = URL, and an HTTP client that avoids the SDK's
// closed-connection race (see HTTPClient). optFns adjust it (a retryer, a
// smaller timeout, other credentials...).
func (s *Server) Client(optFns ...func(*dynamodb.Options)) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		Credentials:  credentials.NewStaticCredentialsProvider(s.key.ID, s.key.Secret, s.key.SessionToken),
		BaseEndpoint: aws.String(s.URL),
		HTTPClient:   &http.Client{Transport: Transport(s.http.Client().Transport)},
	}, optFns...)
}

// HTTPClient returns an *http.Client for a stock aws-sdk-go-v2 DynamoDB
// client talking to a local server (this package's or `dynamo local`):
//
//	client := dynamodb.New(dynamodb.Options{
//		Region:       "us-east-1",
//		BaseEndpoint: aws.String("http://127.0.0.1:8000"),
//		Credentials:  credentials.NewStaticCredentialsProvider("local", "local", ""),
//		HTTPClient:   dynamotest.HTTPClient(),
//	})
//
// A stock client can lose a response it is reading: the SDK closes the
// request body when the round trip returns, and net/http, still checking the
// body's end, then closes the connection ("deserialization failed … use of
// closed network connection" after a 200; aws-sdk-go-v2 issues #1825, #2737,
// #2935). A fast server with large responses hits it often, and the SDK's
// retryer then sends the request again, writes included. This client reads
// request bodies in a way that cannot fail that check. A *dynamo.Repo needs
// none of this: it guards its own client.
func HTTPClient() *http.Client {
	return &http.Client{Transport: Transport(http.DefaultTransport.(*http.Transport).Clone())}
}

// Transport wraps base (http.DefaultTransport when nil) the way HTTPClient's
// transport is wrapped, for a client of your own.
func Transport(base http.RoundTripper) http.RoundTripper {
	return sdkhttp.Transport{Base: base}
}

// CreateTable creates a table and fails the test on error.
func (s *Server) CreateTable(t testing.TB, in *dynamodb.CreateTableInput) *types.TableDescription {
	t.Helper()
	out, err := s.Client().CreateTable(context.Background(), in)
	if err != nil {
		t.Fatalf("dynamotest: CreateTable %s: %v", aws.ToString(in.TableName), err)
	}
	return out.TableDescription
}

// ErrorKind is a retryable failure to inject.
type ErrorKind int

const (
	// Throttling is a 400 ThrottlingException.
	Throttling ErrorKind = iota + 1
	// ProvisionedThroughputExceeded is a 400 ProvisionedThroughputExceededException.
	ProvisionedThroughputExceeded
	// RequestLimitExceeded is a 400 RequestLimitExceeded.
	RequestLimitExceeded
	// InternalServerError is a 500 InternalServerError.
	InternalServerError
	// ServiceUnavailable is a 503 ServiceUnavailableException.
	ServiceUnavailable
)

func (k ErrorKind) err() *local.Error {
	switch k {
	case Throttling:
		return local.ThrottlingError()
	case ProvisionedThroughputExceeded:
		return local.ProvisionedThroughputExceededError()
	case RequestLimitExceeded:
		return local.RequestLimitExceededError()
	case ServiceUnavailable:
		return local.ServiceUnavailableError()
	default:
		return local.InternalServerError()
	}
}

// AnyAction matches every action in Fail, Delay and Unprocessed.
const AnyAction = "*"

type fault struct {
	action string
	left   int // calls still to affect; < 0 is unlimited
	f      local.Fault
}

// Fail makes the next n calls of action (or AnyAction) fail with kind;
// n < 0 fails every call until ClearFaults.
func (s *Server) Fail(action string, n int, kind ErrorKind) {
	s.push(action, n, local.Fault{Err: kind.err()})
}

// FailWith makes the next n calls of action fail with err.
func (s *Server) FailWith(action string, n int, err *local.Error) {
	s.push(action, n, local.Fault{Err: err})
}

// Delay makes the next n calls of action wait d before being served.
func (s *Server) Delay(action string, n int, d time.Duration) {
	s.push(action, n, local.Fault{Delay: d})
}

// Unprocessed makes the next n BatchWriteItem or BatchGetItem calls (action)
// leave their last count requests unprocessed, returned in UnprocessedItems
// or UnprocessedKeys as DynamoDB does under load.
func (s *Server) Unprocessed(action string, n, count int) {
	s.push(action, n, local.Fault{Unprocessed: count})
}

// ClearFaults removes every queued fault.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	s.faults = nil
	s.mu.Unlock()
}

// Calls returns how many calls of action (or of all actions, AnyAction) the
// server has received, faulted ones included.
func (s *Server) Calls(action string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if action == AnyAction {
		n := 0
		for _, c := range s.calls {
			n += c
		}
		return n
	}
	return s.calls[action]
}

func (s *Server) push(action string, n int, f local.Fault) {
	if n == 0 {
		return
	}
	s.mu.Lock()
	s.faults = append(s.faults, &fault{action: action, left: n, f: f})
	s.mu.Unlock()
}

// fault is the local.FaultFunc: the first queued fault matching the action
// applies (and is used up after its count).
func (s *Server) fault(action string) local.Fault {
	s.mu.Lock()
	s.calls[action]++
	for i, f := range s.faults {
		if f.action != action && f.action != AnyAction {
			continue
		}
		out := f.f
		if f.left > 0 {
			f.left--
			if f.left == 0 {
				s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
			}
		}
		s.mu.Unlock()
		return out
	}
	custom := s.custom
	s.mu.Unlock()
	if custom != nil {
		return custom(action)
	}
	return local.Fault{}
}
