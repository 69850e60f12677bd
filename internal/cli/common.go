package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

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
}

func (a *awsFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&a.endpoint, "endpoint", "", "DynamoDB endpoint URL (default: AWS_ENDPOINT_URL_DYNAMODB or the region's endpoint)")
	fs.StringVar(&a.region, "region", "", "AWS region (default: AWS_REGION or the profile's region)")
	fs.StringVar(&a.profile, "profile", "", "shared config profile (default: AWS_PROFILE or \"default\")")
}

// open returns a repo over the standard AWS configuration with the flags
// applied, and the SDK client behind it for the control-plane actions the
// repo does not wrap.
func (a *awsFlags) open(ctx context.Context) (*dynamo.Repo, *dynamodb.Client, error) {
	var opts []dynamo.Option
	if a.endpoint != "" {
		opts = append(opts, dynamo.WithEndpoint(a.endpoint))
	}
	if a.region != "" {
		opts = append(opts, dynamo.WithRegion(a.region))
	}
	var repo *dynamo.Repo
	var err error
	if a.profile == "" {
		repo, err = dynamo.Open(ctx, opts...)
	} else {
		var cfg aws.Config
		cfg, err = awsconfig.LoadDefaultConfig(ctx, awsconfig.WithSharedConfigProfile(a.profile))
		if err != nil {
			return nil, nil, fmt.Errorf("profile %q: %w", a.profile, err)
		}
		repo, err = dynamo.New(cfg, opts...)
	}
	if err != nil {
		return nil, nil, err
	}
	client, ok := repo.Client().(*dynamodb.Client)
	if !ok {
		return nil, nil, errors.New("the repo has no *dynamodb.Client")
	}
	return repo, client, nil
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
// itself, an SDK error as DynamoDB's exception name and message without the
// SDK's "operation error …" wrapping.
func errorText(err error) string {
	var de *dynamo.Error
	if errors.As(err, &de) {
		return strings.TrimPrefix(de.Error(), "dynamo: ")
	}
	var api smithy.APIError
	if errors.As(err, &api) {
		msg := api.ErrorMessage()
		if msg == "" {
			return api.ErrorCode()
		}
		return msg + " (" + api.ErrorCode() + ")"
	}
	var oe *smithy.OperationError
	if errors.As(err, &oe) && oe.Err != nil {
		msg := oe.Err.Error()
		// A transport failure: the network error, not the SDK's layers
		// of wrapping around it.
		var ne *net.OpError
		var ue *url.Error
		switch {
		case errors.As(err, &ne):
			msg = ne.Error()
		case errors.As(err, &ue):
			msg = ue.Err.Error()
		}
		var ma *retry.MaxAttemptsError
		if errors.As(err, &ma) {
			msg += fmt.Sprintf(" (after %d attempts)", ma.Attempt)
		}
		return oe.Operation() + ": " + msg
	}
	return strings.TrimPrefix(err.Error(), "dynamo: ")
}

// isNotFound reports a ResourceNotFoundException.
func isNotFound(err error) bool {
	var nf *types.ResourceNotFoundException
	return errors.As(err, &nf)
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
func waitActive(ctx context.Context, c *dynamodb.Client, name string, timeout time.Duration, p *progress) (*types.TableDescription, error) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	status := "CREATING"
	for {
		out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: &name})
		if err != nil && !isNotFound(err) { // a new table may not be visible yet
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return nil, fmt.Errorf("table %s is not ready after %s: %s", name, timeout, status)
			}
			return nil, err
		}
		if err == nil {
			status = pendingStatus(out.Table)
			if status == "" {
				return out.Table, nil
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
func waitGone(ctx context.Context, c *dynamodb.Client, name string, timeout time.Duration, p *progress) error {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	status := "DELETING"
	for {
		out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: &name})
		if isNotFound(err) {
			return nil
		}
		if err != nil {
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return fmt.Errorf("table %s still exists (%s) after %s", name, status, timeout)
			}
			return err
		}
		status = string(out.Table.TableStatus)
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
