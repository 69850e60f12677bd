package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo"
)

func init() {
	Register(&Command{
		Name:    "shell",
		Summary: "an interactive PartiQL console",
		Example: "dynamo shell --endpoint http://127.0.0.1:8000",
		Usage:   "[--page-size 50] [--history FILE | --no-history] [flags]",
		Help: `Reads PartiQL statements and runs them (ExecuteStatement), against the
local server or DynamoDB. A statement may span lines and ends with ";"
(the last one may end with the input instead). Rows print as aligned
tables of --page-size rows; at a terminal the shell asks before the next
page (Enter for more, q to stop). A failed statement prints DynamoDB's
message, and for a syntax error the line with a caret under the position.

Commands, at the start of a statement:
  .tables            list the tables
  .describe TABLE    keys, attribute types, indexes and item count of TABLE
  .help              this list and the editing keys
  .quit, .exit       leave (so does Ctrl-D on an empty line)

At a terminal, lines are edited with the arrow keys, Home/End, Backspace,
Delete and the Emacs keys (Ctrl-A/E/B/F/P/N/K/U/W/D; Ctrl-C drops the
statement), and the statements are kept in a history file, by default
"dynamo/history" under the user's config directory ($XDG_CONFIG_HOME or
~/.config on Linux, ~/Library/Application Support on macOS, %AppData% on
Windows), written with mode 0600: statements can hold data. Piped input is
read line by line, without prompts or history, and the command fails if
any statement did.`,
		Flags: func() *flag.FlagSet { fs, _ := shellFlags(); return fs },
		Run:   runShell,
	})
}

type shellOpts struct {
	aws       awsFlags
	pageSize  int
	history   string
	noHistory bool
}

func shellFlags() (*flag.FlagSet, *shellOpts) {
	o := &shellOpts{}
	fs := newFlagSet("shell")
	o.aws.register(fs)
	fs.IntVar(&o.pageSize, "page-size", 50, "rows per page of results")
	fs.StringVar(&o.history, "history", "", "history file (default: dynamo/history under the user's config directory)")
	fs.BoolVar(&o.noHistory, "no-history", false, "keep no history file")
	return fs, o
}

// shell is one session: where it reads, where it writes, what failed.
type shell struct {
	ctx         context.Context
	env         *Env
	repo        *dynamo.Repo
	interactive bool // prompts and the pager's questions
	pageSize    int
	read        func(prompt string) (string, error)
	editor      *lineEditor // nil without a terminal
	historyFile string      // "" keeps no history
	failed      int
}

func runShell(ctx context.Context, env *Env, args []string) error {
	fs, o := shellFlags()
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected argument %q", pos[0])
	}
	if o.pageSize < 1 {
		return usagef("--page-size must be at least 1")
	}
	repo, err := o.aws.open(ctx)
	if err != nil {
		return err
	}
	s := &shell{ctx: ctx, env: env, repo: repo, interactive: env.terminal(), pageSize: o.pageSize}
	if f, ok := env.Stdin.(*os.File); ok && s.interactive && isCharDevice(f) {
		if restore, err := makeRaw(f); err == nil {
			restore()
			s.editor = &lineEditor{in: bufio.NewReader(f), out: env.Stdout}
			s.read = func(prompt string) (string, error) {
				restore, err := makeRaw(f)
				if err != nil {
					return "", err
				}
				defer restore()
				return s.editor.readLine(prompt)
			}
			if !o.noHistory {
				s.historyFile = o.history
				if s.historyFile == "" {
					s.historyFile = defaultHistoryFile()
				}
				s.editor.history = loadHistory(s.historyFile)
			}
		}
	}
	if s.read == nil {
		s.read = lineReader(ctx, env.stdin(), env.Stdout, s.interactive)
	}
	if s.interactive {
		fmt.Fprintln(env.Stdout, `PartiQL shell: statements end with ";", .help lists the commands.`)
	}
	s.loop()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if s.failed > 0 && !s.interactive {
		return fmt.Errorf("%d statement(s) failed", s.failed)
	}
	return nil
}

// lineReader reads plain lines (piped input, or a terminal the editor
// cannot drive), writing the prompts on an interactive session.
func lineReader(ctx context.Context, in io.Reader, out io.Writer, prompts bool) func(string) (string, error) {
	type result struct {
		line string
		err  error
	}
	lines := make(chan result)
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			select {
			case lines <- result{line: sc.Text()}:
			case <-ctx.Done():
				return
			}
		}
		err := sc.Err()
		if err == nil {
			err = io.EOF
		}
		select {
		case lines <- result{err: err}:
		case <-ctx.Done():
		}
	}()
	done := false
	return func(prompt string) (string, error) {
		if done {
			return "", io.EOF
		}
		if prompts {
			io.WriteString(out, prompt)
		}
		select {
		case r := <-lines:
			if r.err != nil {
				done = true
				if prompts {
					fmt.Fprintln(out)
				}
			}
			return r.line, r.err
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

const (
	promptFirst = "dynamo> "
	promptMore  = "   ...> "
)

func (s *shell) loop() {
	var pending strings.Builder
	for {
		prompt := promptFirst
		if pending.Len() > 0 {
			prompt = promptMore
		}
		line, err := s.read(prompt)
		if errors.Is(err, errInterrupted) {
			pending.Reset()
			continue
		}
		if err != nil {
			if !errors.Is(err, io.EOF) && s.ctx.Err() == nil {
				fmt.Fprintf(s.env.Stderr, "error: %v\n", err)
				s.failed++
			}
			if st := strings.TrimSpace(pending.String()); st != "" && s.ctx.Err() == nil {
				s.statement(st)
			}
			return
		}
		if pending.Len() == 0 && strings.HasPrefix(strings.TrimSpace(line), ".") {
			cmd := strings.TrimSpace(line)
			s.remember(cmd)
			if !s.command(cmd) {
				return
			}
			continue
		}
		pending.WriteString(line)
		pending.WriteString("\n")
		stmts, rest := splitStatements(pending.String())
		pending.Reset()
		if strings.TrimSpace(rest) != "" {
			pending.WriteString(rest)
		}
		for _, st := range stmts {
			if strings.TrimSpace(st) == "" {
				continue
			}
			s.remember(strings.Join(strings.Fields(st), " ") + ";")
			s.statement(strings.TrimSpace(st))
			if s.ctx.Err() != nil {
				return
			}
		}
	}
}

// splitStatements cuts text at each ";" outside quotes ('strings' and
// "identifiers", whose doubled quotes are escapes and toggle twice). rest
// is what follows the last ";".
func splitStatements(text string) (stmts []string, rest string) {
	var quote byte
	start := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == ';':
			stmts = append(stmts, text[start:i])
			start = i + 1
		}
	}
	return stmts, text[start:]
}

func (s *shell) remember(entry string) {
	if s.editor == nil {
		return
	}
	s.editor.remember(entry)
	if s.historyFile != "" {
		appendHistory(s.historyFile, entry)
	}
}

// statement runs one statement and prints its rows a page at a time.
func (s *shell) statement(text string) {
	out := s.env.Stdout
	next, stop := iter.Pull2(s.repo.ExecuteStream(s.ctx, dynamo.PartiQL(text)))
	defer stop()
	total := 0
	var page []map[string]types.AttributeValue
	row, err, ok := next()
	for ok && err == nil {
		page = append(page, row)
		row, err, ok = next()
		if len(page) == s.pageSize || !ok || err != nil {
			writeTable(out, page)
			total += len(page)
			page = page[:0]
			if ok && err == nil && s.interactive && !s.more() {
				fmt.Fprintf(out, "%s (stopped)\n", rowCount(total))
				return
			}
		}
	}
	if err != nil {
		s.failed++
		fmt.Fprintf(s.env.Stderr, "error: %s\n", oneLine(reason(err)))
		io.WriteString(s.env.Stderr, caret(text, errorText(err)))
		return
	}
	if total == 0 && !isSelectStatement(text) {
		fmt.Fprintln(out, "ok")
		return
	}
	fmt.Fprintln(out, rowCount(total))
}

// isSelectStatement reports whether a statement reads (its first word).
func isSelectStatement(text string) bool {
	f := strings.Fields(text)
	return len(f) > 0 && strings.HasPrefix(strings.ToUpper(f[0]), "SELECT")
}

// more asks whether to print the next page.
func (s *shell) more() bool {
	answer, err := s.read("-- more: Enter for the next page, q to stop -- ")
	return err == nil && !strings.EqualFold(strings.TrimSpace(answer), "q")
}

// command runs a dot command; false ends the session.
func (s *shell) command(line string) bool {
	f := strings.Fields(line)
	out := s.env.Stdout
	switch f[0] {
	case ".quit", ".exit":
		return false
	case ".help":
		fmt.Fprint(out, shellHelp)
	case ".tables":
		n := 0
		for name, err := range s.repo.ListTables(s.ctx) {
			if err != nil {
				s.fail(err)
				return true
			}
			fmt.Fprintln(out, name)
			n++
		}
		if n == 0 {
			fmt.Fprintln(out, "no tables")
		}
	case ".describe":
		if len(f) != 2 {
			s.fail(errors.New("usage: .describe TABLE"))
			return true
		}
		t, err := s.repo.DescribeTable(s.ctx, strings.Trim(f[1], `"`))
		if err != nil {
			s.fail(err)
			return true
		}
		describe(out, t)
	default:
		s.fail(fmt.Errorf("unknown command %s (.help lists them)", f[0]))
	}
	return true
}

func (s *shell) fail(err error) {
	s.failed++
	fmt.Fprintf(s.env.Stderr, "error: %s\n", oneLine(errorText(err)))
}

const shellHelp = `Statements end with ";" and may span lines; ? placeholders are not
available here (use dynamo partiql --param). Commands:
  .tables            list the tables
  .describe TABLE    keys, attribute types, indexes and item count
  .help              this text
  .quit, .exit       leave (or Ctrl-D)
Editing keys: arrows, Home/End, Backspace/Delete, Ctrl-A/E/B/F (move),
Ctrl-P/N (history), Ctrl-K/U/W (cut), Ctrl-C (drop the statement).
`

// describe prints a table's shape, one fact per line.
func describe(w io.Writer, t *types.TableDescription) {
	attrType := map[string]types.ScalarAttributeType{}
	for _, d := range t.AttributeDefinitions {
		attrType[aws.ToString(d.AttributeName)] = d.AttributeType
	}
	keys := func(ks []types.KeySchemaElement) string {
		parts := make([]string, len(ks))
		for i, k := range ks {
			name := aws.ToString(k.AttributeName)
			parts[i] = fmt.Sprintf("%s %s %s", name, attrType[name], k.KeyType)
		}
		return strings.Join(parts, ", ")
	}
	fmt.Fprintf(w, "table  %s  %s  %d items\n", aws.ToString(t.TableName), t.TableStatus, aws.ToInt64(t.ItemCount))
	fmt.Fprintf(w, "key    %s\n", keys(t.KeySchema))
	for _, g := range t.GlobalSecondaryIndexes {
		fmt.Fprintf(w, "gsi    %s: %s (%s)\n", aws.ToString(g.IndexName), keys(g.KeySchema), projection(g.Projection))
	}
	for _, l := range t.LocalSecondaryIndexes {
		fmt.Fprintf(w, "lsi    %s: %s (%s)\n", aws.ToString(l.IndexName), keys(l.KeySchema), projection(l.Projection))
	}
}

func projection(p *types.Projection) string {
	if p == nil {
		return ""
	}
	if len(p.NonKeyAttributes) > 0 {
		return string(p.ProjectionType) + " " + strings.Join(p.NonKeyAttributes, ", ")
	}
	return string(p.ProjectionType)
}

// defaultHistoryFile is dynamo/history under the user's config directory;
// "" (no history) when there is none.
func defaultHistoryFile() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "dynamo", "history")
}

// loadHistory reads the last entries of the history file, one per line.
func loadHistory(path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var h []string
	for _, line := range strings.Split(string(b), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			h = append(h, line)
		}
	}
	if len(h) > maxHistory {
		h = h[len(h)-maxHistory:]
		// Keep the file as long as the history it gives.
		_ = os.WriteFile(path, []byte(strings.Join(h, "\n")+"\n"), 0o600)
	}
	return h
}

// appendHistory adds one entry to the history file, creating it (and its
// directory) private to the user. History is a convenience: a failure to
// write it is not the statement's failure, so it is ignored.
func appendHistory(path, entry string) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.WriteString(strings.ReplaceAll(entry, "\n", " ") + "\n")
}
