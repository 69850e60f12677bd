package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/dynamogo/dynamo/dynamotest"
)

// Ctrl-C at the confirmation prompt ends the command (Main turns SIGINT
// into a cancelled context) and deletes nothing.
func TestDeletePromptCancelled(t *testing.T) {
	srv := dynamotest.NewServer(t)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	t.Setenv("AWS_REGION", "us-east-1")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut bytes.Buffer
	if err := runCreateTable(ctx, &Env{Stdout: &out, Stderr: &errOut}, []string{"app", "--endpoint", srv.URL}); err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	defer pw.Close()
	reading := make(chan struct{})
	stdin := &firstRead{r: pr, started: reading}
	env := &Env{Stdin: stdin, Stdout: &out, Stderr: &errOut, IsTerminal: func() bool { return true }}
	done := make(chan error, 1)
	go func() { done <- runDeleteTable(ctx, env, []string{"app", "--endpoint", srv.URL}) }()
	// Cancel once the prompt waits for the answer; if the command ends
	// before reading (an error), report that instead.
	select {
	case <-reading:
	case err := <-done:
		t.Fatalf("the command ended before reading the answer: %v", err)
	}
	cancel()
	// A prompt that ignores cancellation hangs here until go test's -timeout.
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if !strings.Contains(errOut.String(), "type the table name to delete it: ") {
		t.Fatalf("stderr = %q", errOut.String())
	}
	if srv.Calls("DeleteTable") != 0 {
		t.Fatal("DeleteTable was called")
	}
}

// firstRead closes started when the first Read begins (the prompt is
// waiting for input).
type firstRead struct {
	r       io.Reader
	started chan struct{}
	once    sync.Once
}

func (f *firstRead) Read(p []byte) (int, error) {
	f.once.Do(func() { close(f.started) })
	return f.r.Read(p)
}

func TestParseArgs(t *testing.T) {
	for _, tc := range []struct {
		args []string
		pos  string
		flag string
	}{
		{[]string{"a", "--x", "1", "b"}, "a b", "1"},
		{[]string{"--x=2", "a"}, "a", "2"},
		{[]string{"a", "--", "--x", "b"}, "a --x b", ""},
		{[]string{"--", "-a"}, "-a", ""},
		{nil, "", ""},
	} {
		fs := newFlagSet("t")
		x := fs.String("x", "", "")
		pos, err := parseArgs(fs, tc.args)
		if err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if strings.Join(pos, " ") != tc.pos || *x != tc.flag {
			t.Errorf("%q: pos %q x %q, want %q %q", tc.args, pos, *x, tc.pos, tc.flag)
		}
	}
	fs := newFlagSet("t")
	if _, err := parseArgs(fs, []string{"--nope"}); err == nil || !strings.Contains(err.Error(), "flag provided but not defined: -nope") {
		t.Fatalf("err = %v", err)
	}
	if _, err := parseArgs(newFlagSet("t"), []string{"-h"}); !errors.Is(err, errHelp) {
		t.Fatalf("err = %v, want errHelp", err)
	}
}
