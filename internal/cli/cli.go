package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
)

// Exit codes of the dynamo command.
const (
	ExitOK      = 0 // success
	ExitFailure = 1 // the command failed (service error, missing table, refused deletion, …)
	ExitUsage   = 2 // bad command line: unknown command or flag, missing or extra argument
)

// Command is one subcommand.
type Command struct {
	Name    string
	Summary string
	// Usage is the synopsis after "dynamo <name>", e.g. "NAME [--force]".
	Usage string
	// Help is the long description printed by `dynamo help <name>`, before
	// the flags.
	Help string
	// Example is a command line (or a few, one per line) showing a typical
	// use; `dynamo help <name>` prints it and every command has one.
	Example string
	// TableArg marks a command whose argument is the name of an existing
	// table: shell completion offers the names list-tables prints.
	TableArg bool
	// Flags returns a fresh flag set of the command, for help; nil when
	// the command has no flags.
	Flags func() *flag.FlagSet
	// Run executes the command with its arguments (after the name). It
	// returns when ctx is cancelled (SIGINT/SIGTERM) or the work is done.
	Run func(ctx context.Context, env *Env, args []string) error
}

// Env is the command's I/O.
type Env struct {
	Stdin          io.Reader // nil reads nothing (EOF)
	Stdout, Stderr io.Writer
	// IsTerminal reports whether the user sits at an interactive terminal
	// (prompts and progress are shown). Nil detects it from Stdin and
	// Stderr when they are character devices.
	IsTerminal func() bool
}

func (e *Env) terminal() bool {
	if e.IsTerminal != nil {
		return e.IsTerminal()
	}
	return isCharDevice(e.Stdin) && isCharDevice(e.Stderr)
}

// progress returns the status line of a long operation (waiting for a
// table or an index, a scan): shown when stderr is a terminal, silent in
// scripts, which get the final line only.
func (e *Env) progress() *progress {
	on := isCharDevice(e.Stderr)
	if e.IsTerminal != nil {
		on = e.IsTerminal()
	}
	return &progress{w: e.Stderr, on: on}
}

func isCharDevice(v any) bool {
	f, ok := v.(*os.File)
	if !ok || f == nil {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func (e *Env) stdin() io.Reader {
	if e.Stdin == nil {
		return strings.NewReader("")
	}
	return e.Stdin
}

var commands = map[string]*Command{}

// Register adds a subcommand; each subcommand's file registers itself in init.
func Register(c *Command) { commands[c.Name] = c }

// Main runs the command line args (without the program name) and returns
// the process exit code (ExitOK, ExitFailure or ExitUsage).
func Main(args []string, env *Env) int {
	if len(args) == 0 {
		usage(env.Stderr)
		return ExitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help":
		usage(env.Stdout)
		return ExitOK
	case "help":
		return help(env, args[1:])
	case "-version", "--version":
		args = []string{"version"}
	}
	c, rest := lookup(args)
	if c == nil {
		if subs := group(args[0]); subs != nil {
			fmt.Fprintf(env.Stderr, "dynamo %s: missing or unknown subcommand: one of %s (run 'dynamo help %s')\n",
				args[0], strings.Join(subs, ", "), args[0])
			return ExitUsage
		}
		fmt.Fprintf(env.Stderr, "dynamo: unknown command %q (run 'dynamo help' for the list)\n", args[0])
		usage(env.Stderr)
		return ExitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx = context.WithValue(ctx, envKey{}, cmdEnv{env, c.Name})
	err := c.Run(ctx, env, rest)
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, errHelp):
		commandHelp(env.Stdout, c)
		return ExitOK
	case errors.Is(err, errUsage):
		return ExitUsage
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(env.Stderr, "dynamo %s: %s (run 'dynamo help %s')\n", c.Name, ue.msg, c.Name)
		return ExitUsage
	}
	fmt.Fprintf(env.Stderr, "dynamo %s: %s\n", c.Name, oneLine(errorText(err)))
	var de *detailedError
	if errors.As(err, &de) {
		fmt.Fprint(env.Stderr, de.detail)
	}
	return ExitFailure
}

// detailedError is a failure with lines that follow its one-line reason on
// stderr (a statement with a caret under a syntax error).
type detailedError struct {
	err    error
	detail string
}

func (e *detailedError) Error() string { return e.err.Error() }
func (e *detailedError) Unwrap() error { return e.err }

// errUsage reports a usage error already printed.
var errUsage = errors.New("usage")

// errHelp asks Main to print the command's help (-h, --help).
var errHelp = errors.New("help")

// usageError is a bad command line; Main prints it on one line with a hint
// and exits ExitUsage.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// oneLine keeps a failure on one line of stderr.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	s = strings.ReplaceAll(s, "\r", "")
	return strings.ReplaceAll(s, "\n", "; ")
}

func help(env *Env, args []string) int {
	if len(args) == 0 {
		usage(env.Stdout)
		return ExitOK
	}
	if t, ok := topics[args[0]]; ok && len(args) == 1 {
		fmt.Fprint(env.Stdout, t)
		return ExitOK
	}
	c, rest := lookup(args)
	if c == nil && len(args) == 1 {
		if subs := group(args[0]); subs != nil {
			fmt.Fprintf(env.Stdout, "usage: dynamo %s <subcommand> [arguments] [flags]\n\nsubcommands:\n", args[0])
			for _, n := range subs {
				fmt.Fprintf(env.Stdout, "  %-16s %s\n", n, commands[args[0]+" "+n].Summary)
			}
			fmt.Fprintf(env.Stdout, "\nrun 'dynamo help %s <subcommand>' for its flags.\n", args[0])
			return ExitOK
		}
	}
	if c == nil || len(rest) > 0 {
		fmt.Fprintf(env.Stderr, "dynamo help: unknown command %q (run 'dynamo help' for the list)\n", strings.Join(args, " "))
		return ExitUsage
	}
	commandHelp(env.Stdout, c)
	return ExitOK
}

// lookup finds the command args start with, one word ("list-tables") or a
// group and a subcommand ("backup create"), and the arguments after it.
func lookup(args []string) (*Command, []string) {
	if len(args) > 1 {
		if c := commands[args[0]+" "+args[1]]; c != nil {
			return c, args[2:]
		}
	}
	return commands[args[0]], args[1:]
}

// group returns the sorted subcommands of a command group ("backup"), nil
// when name is not one.
func group(name string) []string {
	var subs []string
	for n := range commands {
		if sub, ok := strings.CutPrefix(n, name+" "); ok {
			subs = append(subs, sub)
		}
	}
	slices.Sort(subs)
	return subs
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: dynamo <command> [arguments] [flags]")
	fmt.Fprintln(w, "\ncommands:")
	for _, n := range sortedCommands() {
		fmt.Fprintf(w, "  %-16s %s\n", n, commands[n].Summary)
	}
	fmt.Fprint(w, `
Commands that talk to DynamoDB use the standard AWS configuration
(environment, shared config and credentials files, AWS_PROFILE, SSO,
AWS_ENDPOINT_URL_DYNAMODB), overridden by --endpoint, --region and --profile.

exit codes: 0 success, 1 failure, 2 usage error.
run 'dynamo help <command>' for a command's example and flags,
'dynamo --version' for the build, and
'dynamo help exit-codes' or 'dynamo help environment' for those topics.
`)
}

// topics are the help pages that are not commands.
var topics = map[string]string{
	"exit-codes": `dynamo exits with
  0  success
  1  failure: a service or transport error, a missing or existing table, a
     refused or declined deletion, a schema that does not load
  2  usage error: unknown command or flag, bad flag value, missing or extra
     argument, contradictory flags
A failure or usage error is one line on stderr: "dynamo <command>: <reason>".
`,
	"environment": `Commands that talk to DynamoDB load the standard AWS configuration:
  AWS_REGION, AWS_PROFILE, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
  AWS_SESSION_TOKEN, AWS_CONFIG_FILE, AWS_SHARED_CREDENTIALS_FILE, SSO and
  container or instance credentials, and AWS_ENDPOINT_URL_DYNAMODB (or
  AWS_ENDPOINT_URL, or endpoint_url in the profile) for another endpoint,
  such as 'dynamo local'.
The flags --endpoint, --region and --profile override them. A loopback
endpoint (dynamo local) needs no region or credentials: placeholders are
used, and --verbose says so. The demo uses
its embedded server unless --endpoint is given. create-table --schema runs
the go command found in PATH, with the Go environment (GOFLAGS, GOPROXY, …)
of the shell.
`,
}

func commandHelp(w io.Writer, c *Command) {
	fmt.Fprintf(w, "usage: %s\n\n", strings.TrimSpace("dynamo "+c.Name+" "+c.Usage))
	if c.Help != "" {
		fmt.Fprintln(w, strings.TrimSpace(c.Help))
		fmt.Fprintln(w)
	}
	if c.Example != "" {
		fmt.Fprintln(w, "example:")
		for _, line := range strings.Split(strings.TrimSpace(c.Example), "\n") {
			fmt.Fprintln(w, "  "+line)
		}
		fmt.Fprintln(w)
	}
	if c.Flags == nil {
		return
	}
	fs := c.Flags()
	fmt.Fprintln(w, "flags:")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}
