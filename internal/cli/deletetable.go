package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
)

func init() {
	Register(&Command{
		Name:     "delete-table",
		Summary:  "delete a table, after confirmation",
		TableArg: true,
		Example:  "dynamo delete-table scratch --force --endpoint http://127.0.0.1:8000",
		Usage:    "NAME [--force] [--no-wait] [--output text|json] [flags]",
		Help: `Shows the table's approximate item count (DynamoDB refreshes it about every
six hours) and, on a terminal, asks you to type the table name to confirm.
Without a terminal it refuses unless --force is given. It then deletes the
table and waits until it is gone (unless --no-wait), and prints
"deleted table NAME".`,
		Flags: func() *flag.FlagSet { fs, _ := deleteTableFlags(); return fs },
		Run:   runDeleteTable,
	})
}

type deleteTableOpts struct {
	aws     awsFlags
	output  outputFlag
	force   bool
	noWait  bool
	timeout time.Duration
}

func deleteTableFlags() (*flag.FlagSet, *deleteTableOpts) {
	o := &deleteTableOpts{}
	fs := newFlagSet("delete-table")
	o.aws.register(fs)
	o.output.register(fs)
	fs.BoolVar(&o.force, "force", false, "delete without asking for confirmation")
	fs.BoolVar(&o.noWait, "no-wait", false, "return once DeleteTable is accepted, without waiting until the table is gone")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Minute, "how long to wait until the table is gone")
	return fs, o
}

// errNotConfirmed is a declined confirmation: nothing was deleted.
var errNotConfirmed = errors.New("not confirmed; nothing was deleted")

// parseTableArg parses the flags of a command that takes exactly one table
// NAME (delete-table, generate-schema) and returns the name.
func parseTableArg(fs *flag.FlagSet, args []string) (string, error) {
	pos, err := parseArgs(fs, args)
	if err != nil {
		return "", err
	}
	switch {
	case len(pos) == 0:
		return "", usagef("missing table NAME")
	case len(pos) > 1:
		return "", usagef("unexpected argument %q", pos[1])
	}
	return pos[0], nil
}

func runDeleteTable(ctx context.Context, env *Env, args []string) error {
	fs, o := deleteTableFlags()
	name, err := parseTableArg(fs, args)
	if err != nil {
		return err
	}
	if o.timeout <= 0 {
		return usagef("--timeout must be positive")
	}
	terminal := env.terminal()
	if !o.force && !terminal {
		return fmt.Errorf("refusing to delete table %s without confirmation: not a terminal (pass --force)", name)
	}
	repo, err := o.aws.open(ctx)
	if err != nil {
		return err
	}
	table, err := repo.DescribeTable(ctx, name)
	if err != nil {
		return err
	}
	count := aws.ToInt64(table.ItemCount)
	if o.output == "text" || !o.force {
		fmt.Fprintf(env.Stderr, "table %s: about %d items (%s)\n", name, count, table.TableStatus)
	}
	if !o.force {
		if err := confirm(ctx, env, "table", name); err != nil {
			return err
		}
	}
	if err := repo.DeleteTable(ctx, name); err != nil {
		return err
	}
	status := "DELETING"
	if !o.noWait {
		p := env.progress()
		err := waitGone(ctx, repo, name, o.timeout, p)
		p.done()
		if err != nil {
			return err
		}
		status = "DELETED"
	}
	if o.output == "json" {
		return writeJSON(env.Stdout, tableJSON{TableName: name, TableStatus: status, ItemCount: &count})
	}
	if status == "DELETED" {
		fmt.Fprintf(env.Stdout, "deleted table %s\n", name)
	} else {
		fmt.Fprintf(env.Stdout, "deleting table %s\n", name)
	}
	return nil
}

// readLine reads one line, or gives up when ctx ends (Ctrl-C at the prompt:
// Main turns SIGINT into a cancelled context).
func readLine(ctx context.Context, r io.Reader) (string, error) {
	type result struct {
		line string
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		line, err := bufio.NewReader(r).ReadString('\n')
		if err != nil && line != "" {
			err = nil // a last line without newline
		}
		ch <- result{line, err}
	}()
	select {
	case res := <-ch:
		return res.line, res.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// confirm asks the user to type the name of the what (a table, a backup)
// about to be deleted; anything else, or no answer, is errNotConfirmed.
func confirm(ctx context.Context, env *Env, what, name string) error {
	fmt.Fprintf(env.Stderr, "type the %s name to delete it: ", what)
	line, err := readLine(ctx, env.stdin())
	if err != nil {
		fmt.Fprintln(env.Stderr)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return errNotConfirmed
	}
	if strings.TrimSpace(line) != name {
		return errNotConfirmed
	}
	return nil
}
