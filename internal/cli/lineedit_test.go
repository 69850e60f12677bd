package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The editor applies the keys a terminal sends in raw mode.
func TestLineEditorKeys(t *testing.T) {
	const (
		left, right, up, down = "\x1b[D", "\x1b[C", "\x1b[A", "\x1b[B"
		home, end, del        = "\x1b[H", "\x1b[F", "\x1b[3~"
	)
	cases := []struct {
		name, keys, want string
	}{
		{"typing", "SELECT 1\r", "SELECT 1"},
		{"backspace", "SELEXT\x7f\x7fCT\r", "SELECT"},
		{"insert in the middle", "SEECT" + left + left + left + "L\r", "SELECT"},
		{"home and end", "ELECT" + home + "S" + end + " *\r", "SELECT *"},
		{"ctrl-a ctrl-e", "b\x01a\x05c\r", "abc"},
		{"delete", "SXELECT" + home + right + del + "\r", "SELECT"},
		{"ctrl-d deletes under the cursor", "ab" + left + "\x04\r", "a"},
		{"ctrl-k", "SELECT junk" + left + left + left + left + left + "\x0b\r", "SELECT"},
		{"ctrl-u", "junk SELECT" + left + left + left + left + left + left + "\x15\r", "SELECT"},
		{"ctrl-w", "SELECT junk\x17*\r", "SELECT *"},
		{"utf-8", "'é'" + left + "\x7f" + "è\r", "'è'"},
		{"history up", up + up + "\r", "first"},
		{"history up and down", up + up + down + "\r", "second"},
		{"history keeps the draft", "dra" + up + down + "ft\r", "draft"},
		{"ctrl-p ctrl-n", "\x10\x10\x0e\r", "second"},
		{"a last line without enter", "partial", "partial"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			e := &lineEditor{in: bufio.NewReader(strings.NewReader(tc.keys)), out: &out, history: []string{"first", "second"}}
			got, err := e.readLine("> ")
			if err != nil || got != tc.want {
				t.Fatalf("readLine = %q, %v; want %q", got, err, tc.want)
			}
			if !strings.Contains(out.String(), "\r> ") {
				t.Fatalf("no prompt drawn: %q", out.String())
			}
		})
	}

	e := &lineEditor{in: bufio.NewReader(strings.NewReader("abc\x03")), out: io.Discard}
	if _, err := e.readLine("> "); !errors.Is(err, errInterrupted) {
		t.Fatalf("ctrl-c: %v", err)
	}
	e = &lineEditor{in: bufio.NewReader(strings.NewReader("\x04")), out: io.Discard}
	if _, err := e.readLine("> "); err != io.EOF {
		t.Fatalf("ctrl-d on an empty line: %v", err)
	}
}

// History skips repeats, is written private to the user and read back.
func TestShellHistoryFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dynamo", "history")
	e := &lineEditor{}
	for _, entry := range []string{"SELECT 1;", "SELECT 1;", "  ", "SELECT\n2;"} {
		before := len(e.history)
		e.remember(entry)
		if len(e.history) > before {
			appendHistory(path, e.history[len(e.history)-1])
		}
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("history file: %v, %v", fi, err)
	}
	if got := loadHistory(path); strings.Join(got, "|") != "SELECT 1;|SELECT 2;" {
		t.Fatalf("loaded %q", got)
	}
	var long strings.Builder
	for range maxHistory + 5 {
		long.WriteString("x\n")
	}
	os.WriteFile(path, []byte(long.String()), 0o600)
	if got := loadHistory(path); len(got) != maxHistory {
		t.Fatalf("loaded %d entries, want %d", len(got), maxHistory)
	}
}

// The caret sits under the column DynamoDB names, on the right line, with
// the line's tabs kept so that it lines up.
func TestCaret(t *testing.T) {
	msg := func(l, c int) string {
		return fmt.Sprintf("Statement wasn't well formed, can't be processed: unexpected token at line %d, column %d", l, c)
	}
	cases := []struct{ st, msg, want string }{
		{`SELECT * FORM t`, msg(1, 10), "  SELECT * FORM t\n           ^\n"},
		{"SELECT *\n\tFORM t", msg(2, 2), "  \tFORM t\n  \t^\n"},
		{"SELECT 'é' x", msg(1, 12), "  SELECT 'é' x\n             ^\n"},
		{"SELECT", msg(1, 7), "  SELECT\n        ^\n"}, // at the end of the text
		{"SELECT", msg(3, 1), ""},
		{"SELECT", msg(1, 9), ""},
		{"SELECT", "ResourceNotFoundException", ""},
	}
	for _, tc := range cases {
		if got := caret(tc.st, tc.msg); got != tc.want {
			t.Errorf("caret(%q) =\n%q\nwant\n%q", tc.st, got, tc.want)
		}
	}
	stmts, rest := splitStatements("SELECT 'a;b' FROM \"x;y\"; SELECT 'it''s;'; SEL")
	if len(stmts) != 2 || stmts[0] != `SELECT 'a;b' FROM "x;y"` || stmts[1] != ` SELECT 'it''s;'` || rest != " SEL" {
		t.Fatalf("split: %q, rest %q", stmts, rest)
	}
}
