package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"time"
)

func init() {
	Register(&Command{
		Name:    "list-tables",
		Summary: "list the tables of the account and region",
		Example: "dynamo list-tables --name-contains demo --output json",
		Usage:   "[--name-contains STR] [--output text|json] [--timeout 0] [flags]",
		Help: `Lists every table, following ListTables pagination. Text output is one
name per line (nothing when there are none; "no tables" goes to stderr);
json output is an array of names.`,
		Flags: func() *flag.FlagSet { fs, _ := listTablesFlags(); return fs },
		Run:   runListTables,
	})
}

type listTablesOpts struct {
	aws      awsFlags
	output   outputFlag
	contains string
	timeout  time.Duration
}

func listTablesFlags() (*flag.FlagSet, *listTablesOpts) {
	o := &listTablesOpts{}
	fs := newFlagSet("list-tables")
	o.aws.register(fs)
	o.output.register(fs)
	fs.StringVar(&o.contains, "name-contains", "", "only tables whose name contains this text (case-sensitive)")
	fs.DurationVar(&o.timeout, "timeout", 0, "give up after this long (0: no limit; shell completion uses 2s)")
	return fs, o
}

func runListTables(ctx context.Context, env *Env, args []string) error {
	fs, o := listTablesFlags()
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected argument %q", pos[0])
	}
	if o.timeout < 0 {
		return usagef("--timeout must not be negative")
	}
	if o.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.timeout)
		defer cancel()
	}
	repo, err := o.aws.open(ctx)
	if err != nil {
		return err
	}
	names := []string{}
	for n, err := range repo.ListTables(ctx) {
		if err != nil {
			return err
		}
		if strings.Contains(n, o.contains) {
			names = append(names, n)
		}
	}
	if o.output == "json" {
		return writeJSON(env.Stdout, names)
	}
	if len(names) == 0 {
		fmt.Fprintln(env.Stderr, "no tables")
	}
	for _, n := range names {
		fmt.Fprintln(env.Stdout, n)
	}
	return nil
}
