package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

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
// applied. Every command talks to DynamoDB through it, so that every failure
// is a *dynamo.Error.
func (a *awsFlags) open(ctx context.Context) (*dynamo.Repo, error) {
	var opts []dynamo.Option
	if a.endpoint != "" {
		opts = append(opts, dynamo.WithEndpoint(a.endpoint))
	}
	if a.region != "" {
		opts = append(opts, dynamo.WithRegion(a.region))
	}
	if a.profile == "" {
		return dynamo.Open(ctx, opts...)
	}
	cfg, err := awsconfig.LoadDefaultConfig(ctx, awsconfig.WithSharedConfigProfile(a.profile))
	if err != nil {
		return nil, fmt.Errorf("profile %q: %w", a.profile, err)
	}
	return dynamo.New(cfg, opts...)
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
