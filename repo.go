package dynamo

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
)

// API is the subset of *dynamodb.Client the repo calls. Pass your own
// implementation to [FromClient] to stub DynamoDB in tests.
type API interface {
	GetItem(ctx context.Context, in *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
	PutItem(ctx context.Context, in *dynamodb.PutItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error)
	DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error)
	UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error)
	Query(ctx context.Context, in *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error)
	Scan(ctx context.Context, in *dynamodb.ScanInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error)
	BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error)
	BatchGetItem(ctx context.Context, in *dynamodb.BatchGetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error)
	TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error)
	SearchVectors(ctx context.Context, in *dynamodb.SearchVectorsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.SearchVectorsOutput, error)
	ExecuteStatement(ctx context.Context, in *dynamodb.ExecuteStatementInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ExecuteStatementOutput, error)
	BatchExecuteStatement(ctx context.Context, in *dynamodb.BatchExecuteStatementInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchExecuteStatementOutput, error)
	ExecuteTransaction(ctx context.Context, in *dynamodb.ExecuteTransactionInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ExecuteTransactionOutput, error)
}

var _ API = (*dynamodb.Client)(nil)

// Repo runs operations against DynamoDB. It is safe for concurrent use; make
// one per account/region/endpoint and share it.
type Repo struct {
	api    API
	client *dynamodb.Client // nil when FromClient was given a stub
	// streams reads change feeds, configured as client; nil with a stub.
	streams *dynamodbstreams.Client
	cfg     config

	callOpts   []func(*dynamodb.Options) // every call (tracing on a client passed to FromClient)
	searchOpts []func(*dynamodb.Options) // SearchVectors: callOpts plus the search endpoint
	opTracer   OperationTracer           // the tracer, when it also traces operations
	fromClient bool                      // built by FromClient
}

// Open loads the standard AWS configuration (environment, shared config and
// credentials files and profiles, SSO, container and instance credentials,
// AWS_ENDPOINT_URL_DYNAMODB) and returns a repo over it.
func Open(ctx context.Context, opts ...Option) (*Repo, error) {
	c, err := resolveOptions(opts)
	if err != nil {
		return nil, err
	}
	// Region and credentials options are applied once, by newRepo, over
	// what was loaded.
	awsCfg, err := awsconfig.LoadDefaultConfig(ctx)
	if err != nil {
		return nil, &Error{Type: ErrValidation, Message: "load AWS configuration: " + err.Error(), cause: err}
	}
	return newRepo(awsCfg, c)
}

// New returns a repo over an existing aws.Config. Options override the
// config's region, credentials, HTTP client and retryer.
func New(cfg aws.Config, opts ...Option) (*Repo, error) {
	c, err := resolveOptions(opts)
	if err != nil {
		return nil, err
	}
	return newRepo(cfg.Copy(), c)
}

func newRepo(cfg aws.Config, c config) (*Repo, error) {
	if c.region != "" {
		cfg.Region = c.region
	}
	if cfg.Region == "" {
		if c.endpoint == "" && !hasEndpointSource(cfg) {
			return nil, invalidf("", "no AWS region: set AWS_REGION, a region in the shared config, or use WithRegion")
		}
		cfg.Region = "us-east-1"
	}
	if c.credentials != nil {
		cfg.Credentials = c.credentials
	}
	cfg.Credentials = tagCredentials(cfg.Credentials)
	if c.httpClient != nil {
		cfg.HTTPClient = guardedClient{c.httpClient}
	} else {
		cfg.HTTPClient = guardedClient{buildHTTPClient(c)}
	}
	retryer := newRetryer(&c)
	cfg.Retryer = func() aws.Retryer { return retryer }
	cfg.RetryMaxAttempts = c.maxRetries + 1

	client := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
		if c.endpoint != "" {
			o.BaseEndpoint = aws.String(c.endpoint)
		}
		o.Retryer = retryer
		o.RetryMaxAttempts = c.maxRetries + 1
		o.APIOptions = append(o.APIOptions, addOutcomeGuard)
		if c.tracer != nil {
			o.APIOptions = append(o.APIOptions, addTracing(c.tracer))
		}
	})
	return c.repo(client, false), nil
}

// hasEndpointSource reports whether the config carries an endpoint the SDK
// will use (AWS_ENDPOINT_URL[_DYNAMODB] or the shared config's services).
func hasEndpointSource(cfg aws.Config) bool {
	return (cfg.BaseEndpoint != nil && *cfg.BaseEndpoint != "") ||
		os.Getenv("AWS_ENDPOINT_URL_DYNAMODB") != "" || os.Getenv("AWS_ENDPOINT_URL") != ""
}

// FromClient returns a repo over api: a *dynamodb.Client you configured, or
// a stub. Options that configure the SDK client (region, endpoint,
// credentials, retries, backoff of the SDK, timeouts, HTTP client) have no
// effect here: configure the client itself. WithTracer, WithBatchRetries,
// WithBackoff (for batch retries) and WithSearchEndpoint apply; the tracer
// and the search endpoint reach the SDK through per-call options, which a
// stub may ignore.
func FromClient(api API, opts ...Option) (*Repo, error) {
	if api == nil {
		return nil, invalidf("", "FromClient: nil API")
	}
	c, err := resolveOptions(opts)
	if err != nil {
		return nil, err
	}
	return c.repo(api, true), nil
}

// repo returns a repo over api with the resolved options: the only place a
// repo is built. fromClient guards the client and installs the tracing
// middleware per call (on a client the repo did not build).
func (c config) repo(api API, fromClient bool) *Repo {
	r := &Repo{api: api, cfg: c, fromClient: fromClient}
	r.client, _ = api.(*dynamodb.Client)
	r.opTracer, _ = c.tracer.(OperationTracer)
	if fromClient {
		// The client was configured elsewhere: guard it per call (see outcome.go).
		r.callOpts = []func(*dynamodb.Options){guardClient}
		if t := r.cfg.tracer; t != nil {
			r.callOpts = append(r.callOpts, func(o *dynamodb.Options) {
				o.APIOptions = append(o.APIOptions, addTracing(t))
			})
		}
	}
	if r.client != nil {
		r.streams = streamsClient(r.client, r.callOpts...)
	}
	r.searchOpts = r.callOpts
	if r.cfg.searchEndpoint != "" {
		ep := r.cfg.searchEndpoint
		r.searchOpts = append(append([]func(*dynamodb.Options){}, r.callOpts...), func(o *dynamodb.Options) {
			o.BaseEndpoint = aws.String(ep)
		})
	}
	return r
}

// Format prints the repo as its region and endpoint, whatever the verb: a
// repo in a log line never shows its credentials.
func (r *Repo) Format(f fmt.State, _ rune) {
	if r == nil {
		io.WriteString(f, "dynamo.Repo(nil)")
		return
	}
	if r.client == nil {
		fmt.Fprintf(f, "dynamo.Repo{api: %T}", r.api)
		return
	}
	o := r.client.Options()
	fmt.Fprintf(f, "dynamo.Repo{region: %q, endpoint: %q}", o.Region, aws.ToString(o.BaseEndpoint))
}

// Client returns the API the repo calls: the *dynamodb.Client it built, or
// what was passed to FromClient.
func (r *Repo) Client() API { return r.api }

func buildHTTPClient(c config) *awshttp.BuildableClient {
	connect, receive := c.connectTimeout, c.receiveTimeout
	return awshttp.NewBuildableClient().
		WithDialerOptions(func(d *net.Dialer) { d.Timeout = connect }).
		WithTransportOptions(func(t *http.Transport) {
			t.TLSHandshakeTimeout = connect
			t.ResponseHeaderTimeout = receive
		})
}

// tagCredentials wraps the credential provider so that a failure to find
// credentials is reported as ErrNoCredentials (and never retried), not as
// the HTTP error an instance-metadata lookup happened to end with.
func tagCredentials(p aws.CredentialsProvider) aws.CredentialsProvider {
	switch p.(type) {
	case aws.AnonymousCredentials, *aws.AnonymousCredentials:
		return p
	}
	if p == nil {
		return taggedCredentials{}
	}
	return taggedCredentials{p.Retrieve}
}

// taggedCredentials holds the provider's Retrieve method, not the provider:
// a func prints as an address, so formatting the SDK client with any verb
// cannot print a static secret key.
type taggedCredentials struct {
	retrieve func(context.Context) (aws.Credentials, error)
}

func (t taggedCredentials) Retrieve(ctx context.Context) (aws.Credentials, error) {
	if t.retrieve == nil {
		return aws.Credentials{}, &noCredentialsError{errNoProvider}
	}
	c, err := t.retrieve(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return c, err
		}
		return c, &noCredentialsError{err}
	}
	return c, nil
}

type constError string

func (e constError) Error() string { return string(e) }

const errNoProvider = constError("no credential provider configured")
