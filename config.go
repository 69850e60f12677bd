package dynamo

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// Option configures a [Repo] in [Open], [New] and [FromClient].
type Option func(*config) error

// HTTPClient is what the SDK sends requests with; *http.Client satisfies it.
type HTTPClient interface {
	Do(*http.Request) (*http.Response, error)
}

// config is the resolved repo configuration. Defaults are in defaultConfig.
type config struct {
	region         string
	endpoint       string
	searchEndpoint string
	credentials    aws.CredentialsProvider // WithCredentials; a closure, so that no fmt verb prints the secret
	maxRetries     int
	baseBackoff    time.Duration
	maxBackoff     time.Duration
	connectTimeout time.Duration
	receiveTimeout time.Duration
	httpClient     HTTPClient
	batchRetries   int
	conflictRetry  int
	tracer         Tracer
	clock          func() time.Time // WithClock; nil for time.Now
}

func defaultConfig() config {
	return config{
		maxRetries:     3,
		baseBackoff:    50 * time.Millisecond,
		maxBackoff:     5 * time.Second,
		connectTimeout: 5 * time.Second,
		receiveTimeout: 30 * time.Second,
		batchRetries:   5,
	}
}

func resolveOptions(opts []Option) (config, error) {
	c := defaultConfig()
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(&c); err != nil {
			return c, err
		}
	}
	return c, nil
}

// WithRegion sets the AWS region, overriding AWS_REGION and the shared config.
// With a custom endpoint and no region anywhere, the region is "us-east-1".
func WithRegion(region string) Option {
	return func(c *config) error {
		if region == "" {
			return invalidf("", "WithRegion: empty region")
		}
		c.region = region
		return nil
	}
}

// WithEndpoint sends every request to url (DynamoDB Local, the local server,
// a proxy) instead of the regional endpoint, SearchVectors included unless
// [WithSearchEndpoint] is set. Without it the SDK honours
// AWS_ENDPOINT_URL_DYNAMODB and AWS_ENDPOINT_URL from the environment or the
// shared config.
func WithEndpoint(url string) Option {
	return func(c *config) error {
		if err := checkURL("WithEndpoint", url); err != nil {
			return err
		}
		c.endpoint = url
		return nil
	}
}

// WithSearchEndpoint sends SearchVectors to url. By default the SDK's
// endpoint rules route it to the search host of the region (or to the
// custom endpoint when one is set).
func WithSearchEndpoint(url string) Option {
	return func(c *config) error {
		if err := checkURL("WithSearchEndpoint", url); err != nil {
			return err
		}
		c.searchEndpoint = url
		return nil
	}
}

func checkURL(opt, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return invalidf("", "%s: not an http(s) URL with a host", opt)
	}
	return nil
}

// WithCredentials uses static credentials instead of the default chain.
// sessionToken may be empty.
func WithCredentials(accessKeyID, secretAccessKey, sessionToken string) Option {
	return func(c *config) error {
		if accessKeyID == "" || secretAccessKey == "" {
			return invalidf("", "WithCredentials: access key id and secret access key are both required")
		}
		c.credentials = aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: accessKeyID, SecretAccessKey: secretAccessKey, SessionToken: sessionToken,
				Source: "dynamo.WithCredentials"}, nil
		})
		return nil
	}
}

// WithMaxRetries sets how many times a failed attempt is retried (default 3,
// so at most 4 attempts; 0 disables retries). Only throttling, 5xx and
// transport failures are retried, and a write that may already have been
// applied only if repeating it is harmless (see ErrOutcomeUnknown).
func WithMaxRetries(n int) Option {
	return func(c *config) error {
		if n < 0 {
			return invalidf("", "WithMaxRetries: %d is negative", n)
		}
		c.maxRetries = n
		return nil
	}
}

// WithBackoff sets the retry backoff: before retry n (1-based) the client
// sleeps a uniformly random duration in [0, min(max, base·2^(n-1))] ("full
// jitter"). Defaults 50 ms and 5 s. Batch retries of unprocessed items use
// the same schedule.
func WithBackoff(base, max time.Duration) Option {
	return func(c *config) error {
		if base <= 0 || max < base {
			return invalidf("", "WithBackoff: need 0 < base <= max, got base %v, max %v", base, max)
		}
		c.baseBackoff, c.maxBackoff = base, max
		return nil
	}
}

// WithTimeouts sets the connect timeout (dial and TLS handshake, default 5 s)
// and the receive timeout (from sending the request to the response headers,
// default 30 s). An attempt that times out is a transport error and is
// retried (a write that was already sent only if it is safe to repeat; see
// ErrOutcomeUnknown). They apply to the HTTP client the repo builds; with
// [WithHTTPClient] configure your client instead.
func WithTimeouts(connect, receive time.Duration) Option {
	return func(c *config) error {
		if connect <= 0 || receive <= 0 {
			return invalidf("", "WithTimeouts: timeouts must be positive, got %v and %v", connect, receive)
		}
		c.connectTimeout, c.receiveTimeout = connect, receive
		return nil
	}
}

// WithHTTPClient sends requests through client (for example an *http.Client
// with a custom RoundTripper).
func WithHTTPClient(client HTTPClient) Option {
	return func(c *config) error {
		if client == nil {
			return invalidf("", "WithHTTPClient: nil client")
		}
		c.httpClient = client
		return nil
	}
}

// WithBatchRetries sets how many times BatchWrite and BatchGet re-send
// unprocessed items or keys, with backoff, before returning them (default 5).
func WithBatchRetries(n int) Option {
	return func(c *config) error {
		if n < 0 {
			return invalidf("", "WithBatchRetries: %d is negative", n)
		}
		c.batchRetries = n
		return nil
	}
}

// WithConflictRetries makes Transact and TransactGet send a transaction
// again, up to n times with the repo's backoff, when DynamoDB refused it
// only because another transaction held one of its items
// (TransactionConflict). DynamoDB applied nothing then, so sending it again
// is safe; a write that may have been applied (ErrOutcomeUnknown) is never
// sent again. The default is 0: a conflict is returned as it is.
func WithConflictRetries(n int) Option {
	return func(c *config) error {
		if n < 0 {
			return invalidf("", "WithConflictRetries: %d is negative", n)
		}
		c.conflictRetry = n
		return nil
	}
}

// WithClock sets the clock that writes read for the created and updated
// fields of their items (tag flags created, updated); the default is
// time.Now. Tests pass a fixed or stepping clock.
func WithClock(now func() time.Time) Option {
	return func(c *config) error {
		if now == nil {
			return invalidf("", "WithClock: nil clock")
		}
		c.clock = now
		return nil
	}
}

// now is the repo's clock (WithClock), for the timestamps writes stamp.
func (r *Repo) now() time.Time {
	if r.cfg.clock != nil {
		return r.cfg.clock()
	}
	return time.Now()
}

// WithTracer reports every request attempt to t. See [Tracer].
func WithTracer(t Tracer) Option {
	return func(c *config) error {
		if t == nil {
			return invalidf("", "WithTracer: nil tracer")
		}
		c.tracer = t
		return nil
	}
}

// Settings is the effective configuration of a repo, as [Repo.Settings]
// reads it back. A setting the repo does not own (the SDK client passed to
// FromClient keeps its own timeouts and backoff) is its zero value. It holds
// no credentials; String prints it without secrets.
type Settings struct {
	Region         string
	Endpoint       string // "" for the SDK's regional endpoint
	SearchEndpoint string // "" for the endpoint rules' choice
	MaxRetries     int    // retries of an attempt, so MaxRetries+1 attempts
	BaseBackoff    time.Duration
	MaxBackoff     time.Duration
	ConnectTimeout time.Duration
	ReceiveTimeout time.Duration
	BatchRetries   int // rounds of unprocessed batch items
	// ConflictRetries is how often a transaction refused for a conflict
	// is sent again (WithConflictRetries).
	ConflictRetries int
	Tracer          Tracer // nil for none
	FromClient      bool   // the client was passed to FromClient
}

// Settings returns the repo's effective configuration: the options given,
// their defaults, and what the SDK resolved (region and endpoint from the
// environment or the shared config).
func (r *Repo) Settings() Settings {
	s := Settings{
		SearchEndpoint:  r.cfg.searchEndpoint,
		BatchRetries:    r.cfg.batchRetries,
		ConflictRetries: r.cfg.conflictRetry,
		BaseBackoff:     r.cfg.baseBackoff, // also the batch retries' backoff
		MaxBackoff:      r.cfg.maxBackoff,
		Tracer:          r.cfg.tracer,
		FromClient:      r.fromClient,
	}
	if !r.fromClient {
		s.MaxRetries, s.ConnectTimeout, s.ReceiveTimeout = r.cfg.maxRetries, r.cfg.connectTimeout, r.cfg.receiveTimeout
	}
	if r.client != nil {
		o := r.client.Options()
		s.Region, s.Endpoint = o.Region, aws.ToString(o.BaseEndpoint)
		if r.fromClient && o.Retryer != nil {
			s.MaxRetries = o.Retryer.MaxAttempts() - 1
		}
	}
	return s
}

// String renders the settings on one line; an endpoint's password is
// printed as xxxxx, and the tracer as its type.
func (s Settings) String() string {
	tracer := "none"
	if s.Tracer != nil {
		tracer = fmt.Sprintf("%T", s.Tracer)
	}
	return fmt.Sprintf("region=%s endpoint=%s search_endpoint=%s max_retries=%d backoff=%s..%s timeouts=connect:%s,receive:%s batch_retries=%d conflict_retries=%d tracer=%s from_client=%t",
		s.Region, redactURL(s.Endpoint), redactURL(s.SearchEndpoint), s.MaxRetries, s.BaseBackoff, s.MaxBackoff,
		s.ConnectTimeout, s.ReceiveTimeout, s.BatchRetries, s.ConflictRetries, tracer, s.FromClient)
}

func redactURL(raw string) string {
	if raw == "" {
		return `""`
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable)"
	}
	return u.Redacted()
}
