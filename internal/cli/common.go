package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/feature/ec2/imds"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/logging"

	"github.com/dynamogo/dynamo"
)

// newFlagSet returns a flag set that reports errors to Main instead of
// printing the whole usage: a usage error is one line.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseArgs parses flags and positional arguments in any order
// ("create-table NAME --partition-key id" and "--partition-key id NAME"
// both work, as users of the AWS CLI expect); "--" ends the flags.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, errHelp
			}
			return nil, &usageError{err.Error()}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if i := len(args) - len(rest); i > 0 && args[i-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// isSet reports whether the flag was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			set = true
		}
	})
	return set
}

// awsFlags are the connection flags every command that talks to DynamoDB
// takes; unset, the standard AWS configuration decides.
type awsFlags struct {
	endpoint, region, profile string
	verbose                   bool
}

func (a *awsFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&a.endpoint, "endpoint", "", "DynamoDB endpoint URL (default: AWS_ENDPOINT_URL_DYNAMODB or the region's endpoint)")
	fs.StringVar(&a.region, "region", "", "AWS region (default: AWS_REGION or the profile's region)")
	fs.StringVar(&a.profile, "profile", "", "shared config profile (default: AWS_PROFILE or \"default\")")
	fs.BoolVar(&a.verbose, "verbose", false, "say on stderr which endpoint, region and credentials are used")
}

// Placeholders for a loopback endpoint without configuration: dynamo local
// accepts any signature unless started with --credentials.
const (
	localRegion    = "us-east-1"
	localAccessKey = "local"
	localSecretKey = "local"
)

// open returns a repo over the standard AWS configuration with the flags
// applied. Every command talks to DynamoDB through it, so that every failure
// is a *dynamo.Error.
//
// A loopback endpoint (dynamo local) needs nothing configured: a missing
// region or missing credentials become placeholders, and instance metadata
// is never asked. Any other endpoint needs a real region and credentials,
// checked here so that the failure names the CLI's flags and variables.
func (a *awsFlags) open(ctx context.Context) (*dynamo.Repo, error) {
	if u, err := url.Parse(a.endpoint); a.endpoint != "" && (err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "") {
		return nil, usagef("--endpoint %q is not an http(s) URL with a host, such as http://127.0.0.1:8000", a.endpoint)
	}
	endpoint := a.endpoint
	if endpoint == "" {
		endpoint = cmp.Or(os.Getenv("AWS_ENDPOINT_URL_DYNAMODB"), os.Getenv("AWS_ENDPOINT_URL"))
	}
	cfg, err := a.load(ctx, isLoopbackURL(endpoint))
	if err != nil {
		return nil, err
	}
	if endpoint == "" && cfg.BaseEndpoint != nil { // the profile's endpoint_url
		endpoint = *cfg.BaseEndpoint
		if isLoopbackURL(endpoint) {
			if cfg, err = a.load(ctx, true); err != nil {
				return nil, err
			}
		}
	}
	local := isLoopbackURL(endpoint)
	var opts []dynamo.Option
	if a.endpoint != "" {
		opts = append(opts, dynamo.WithEndpoint(a.endpoint))
	}
	region, regionFrom := a.region, "from --region"
	if region == "" {
		region, regionFrom = cfg.Region, "from the configuration"
	}
	if region == "" {
		if !local {
			return nil, errors.New("no AWS region: pass --region or set AWS_REGION (or region in the profile of ~/.aws/config)")
		}
		region, regionFrom = localRegion, "a placeholder, none is configured"
	}
	opts = append(opts, dynamo.WithRegion(region))
	credsFrom, credsErr := "", errors.New("none configured")
	if cfg.Credentials != nil {
		var c aws.Credentials
		if c, credsErr = cfg.Credentials.Retrieve(ctx); credsErr == nil {
			credsFrom = "from " + c.Source
		}
	}
	if credsErr != nil {
		if !local {
			msg := "no AWS credentials: set AWS_PROFILE (after 'aws configure' or 'aws sso login'), or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; " +
				"for dynamo local pass --endpoint http://127.0.0.1:8000"
			if a.verbose {
				msg += " (" + credsErr.Error() + ")"
			}
			return nil, errors.New(msg)
		}
		opts = append(opts, dynamo.WithCredentials(localAccessKey, localSecretKey, ""))
		credsFrom = "placeholders, none are configured"
	}
	repo, err := dynamo.New(cfg, opts...)
	if err != nil {
		return nil, err
	}
	if a.verbose {
		where := cmp.Or(endpoint, "the region's AWS endpoint")
		if local {
			where += " (local)"
		}
		verbosef(ctx, "endpoint %s, region %s (%s), credentials %s", where, region, regionFrom, credsFrom)
	}
	return repo, nil
}

// load reads the shared configuration. The SDK's own log lines (a warning
// that instance metadata fell back to IMDSv1) are silenced: the CLI says
// what went wrong itself, on one line. noIMDS keeps the credential chain
// off the instance metadata service (a local endpoint needs none).
func (a *awsFlags) load(ctx context.Context, noIMDS bool) (aws.Config, error) {
	opts := []func(*awsconfig.LoadOptions) error{awsconfig.WithLogger(logging.Nop{})}
	if a.profile != "" {
		opts = append(opts, awsconfig.WithSharedConfigProfile(a.profile))
	}
	if noIMDS {
		opts = append(opts, awsconfig.WithEC2IMDSClientEnableState(imds.ClientDisabled))
	}
	cfg, err := awsconfig.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		if a.profile != "" {
			return cfg, fmt.Errorf("profile %q: %w", a.profile, err)
		}
		return cfg, fmt.Errorf("load AWS configuration: %w", err)
	}
	return cfg, nil
}

// isLoopbackURL reports whether endpoint is a URL of this machine.
func isLoopbackURL(endpoint string) bool {
	u, err := url.Parse(endpoint)
	return err == nil && endpoint != "" && isLoopbackHost(u.Hostname())
}

// isLoopbackHost reports whether host is localhost or a loopback address
// (127.0.0.0/8, ::1).
func isLoopbackHost(host string) bool {
	ip := net.ParseIP(host)
	return host == "localhost" || (ip != nil && ip.IsLoopback())
}

// envKey carries the command's Env and name in the context Main passes to
// Run, so that shared helpers (open's --verbose) can speak.
type envKey struct{}

type cmdEnv struct {
	env  *Env
	name string
}

// verbosef writes "dynamo <command>: <message>" to the command's stderr.
func verbosef(ctx context.Context, format string, args ...any) {
	if ce, ok := ctx.Value(envKey{}).(cmdEnv); ok && ce.env.Stderr != nil {
		fmt.Fprintf(ce.env.Stderr, "dynamo %s: "+format+"\n", append([]any{ce.name}, args...)...)
	}
}

// outputFlag is --output text|json.
type outputFlag string

func (o *outputFlag) register(fs *flag.FlagSet) {
	*o = "text"
	fs.Var(o, "output", "output format: text or json")
}

func (o *outputFlag) String() string { return string(*o) }

func (o *outputFlag) Set(s string) error {
	switch s {
	case "text", "json":
		*o = outputFlag(s)
		return nil
	}
	return fmt.Errorf("must be text or json, not %q", s)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// errorText renders a failure for stderr: a *dynamo.Error as it prints
// itself without the "dynamo: " prefix. Text the CLI wrapped around the
// *dynamo.Error is kept.
func errorText(err error) string { return render(err, true) }

// reason is errorText without the action and table a *dynamo.Error names,
// for messages that already say which table and what was being done.
func reason(err error) string { return render(err, false) }

func render(err error, withOp bool) string {
	var de *dynamo.Error
	if !errors.As(err, &de) {
		return strings.TrimPrefix(err.Error(), "dynamo: ")
	}
	bare := *de
	if !withOp {
		bare.Op, bare.Table = "", ""
	}
	msg := strings.TrimPrefix(bare.Error(), "dynamo: ")
	if outer := err.Error(); outer != de.Error() {
		// Wrapped ("replayed transaction: %w"): the wrapping stays.
		if strings.Contains(outer, de.Error()) {
			return strings.Replace(outer, de.Error(), msg, 1)
		}
		return strings.TrimPrefix(outer, "dynamo: ")
	}
	return msg
}

// progress writes a status line that rewrites itself on a terminal; off a
// terminal it writes nothing (scripts get the final line only).
type progress struct {
	w       io.Writer
	on      bool
	written bool
}

func (p *progress) update(format string, args ...any) {
	if !p.on {
		return
	}
	fmt.Fprintf(p.w, "\r\033[K"+format, args...)
	p.written = true
}

func (p *progress) done() {
	if p.written {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// pollInterval is how often the wait loops poll DescribeTable; DynamoDB's
// own waiters start at 20 s, but a table usually turns ACTIVE in seconds.
var pollInterval = 2 * time.Second

// waitActive polls DescribeTable until the table and all its indexes are
// ACTIVE, or timeout passes.
func waitActive(ctx context.Context, repo *dynamo.Repo, name string, timeout time.Duration, p *progress) (*types.TableDescription, error) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	status := "CREATING"
	for {
		t, err := repo.DescribeTable(ctx, name)
		if err != nil && !errors.Is(err, dynamo.ErrResourceNotFound) { // a new table may not be visible yet
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return nil, fmt.Errorf("table %s is not ready after %s: %s", name, timeout, status)
			}
			return nil, err
		}
		if err == nil {
			status = pendingStatus(t)
			if status == "" {
				return t, nil
			}
		}
		p.update("waiting for table %s: %s (%s)", name, status, time.Since(start).Round(time.Second))
		select {
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return nil, fmt.Errorf("table %s is not ready after %s: %s", name, timeout, status)
			}
			return nil, ctx.Err()
		case <-time.After(pollInterval):
		}
	}
}

// pendingStatus is "" when the table and every index are ACTIVE, else what
// is still pending.
func pendingStatus(t *types.TableDescription) string {
	if t.TableStatus != types.TableStatusActive {
		return string(t.TableStatus)
	}
	for _, g := range t.GlobalSecondaryIndexes {
		if g.IndexStatus != types.IndexStatusActive {
			return "index " + aws.ToString(g.IndexName) + " " + string(g.IndexStatus)
		}
	}
	for _, v := range t.VectorIndexes {
		if v.IndexStatus != "" && v.IndexStatus != types.IndexStatusActive {
			return "vector index " + aws.ToString(v.IndexName) + " " + string(v.IndexStatus)
		}
	}
	return ""
}

// waitGone polls DescribeTable until the table no longer exists.
func waitGone(ctx context.Context, repo *dynamo.Repo, name string, timeout time.Duration, p *progress) error {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	status := "DELETING"
	for {
		t, err := repo.DescribeTable(ctx, name)
		if errors.Is(err, dynamo.ErrResourceNotFound) {
			return nil
		}
		if err != nil {
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return fmt.Errorf("table %s still exists (%s) after %s", name, status, timeout)
			}
			return err
		}
		status = string(t.TableStatus)
		p.update("waiting for table %s to be deleted: %s (%s)", name, status, time.Since(start).Round(time.Second))
		select {
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return fmt.Errorf("table %s still exists (%s) after %s", name, status, timeout)
			}
			return ctx.Err()
		case <-time.After(pollInterval):
		}
	}
}
