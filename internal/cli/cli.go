// Package cli implements the dynamo command: a subcommand dispatcher and one
// file per subcommand. cmd/dynamo only calls Main.
package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

// Command is one subcommand.
type Command struct {
	Name    string
	Summary string
	// Run executes the command with its arguments (after the name). It
	// returns when ctx is cancelled (SIGINT/SIGTERM) or the work is done.
	Run func(ctx context.Context, env *Env, args []string) error
}

// Env is the command's I/O.
type Env struct {
	Stdout, Stderr io.Writer
}

var commands = map[string]*Command{}

// Register adds a subcommand; each subcommand's file registers itself in init.
func Register(c *Command) { commands[c.Name] = c }

// Main runs the command line args (without the program name) and returns
// the process exit code.
func Main(args []string, env *Env) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(env.Stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c := commands[args[0]]
	if c == nil {
		fmt.Fprintf(env.Stderr, "dynamo: unknown command %q\n", args[0])
		usage(env.Stderr)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := c.Run(ctx, env, args[1:]); err != nil {
		if err == errUsage {
			return 2
		}
		fmt.Fprintf(env.Stderr, "dynamo %s: %v\n", c.Name, err)
		return 1
	}
	return 0
}

// errUsage reports a usage error already printed by the flag package.
var errUsage = fmt.Errorf("usage")

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: dynamo <command> [flags]")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-16s %s\n", n, commands[n].Summary)
	}
}
