package cli

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

// dynamo local --console serves the console on the same address and names
// its URL among the start lines; without the flag there is none.
func TestLocalConsole(t *testing.T) {
	var stderr bytes.Buffer
	endpoint, stop := serveLocal(t, &stderr, "--console")
	want := "dynamo local: console on " + endpoint + "/console/\n"
	if !strings.Contains(stderr.String(), want) {
		t.Errorf("start lines:\n%s\nwant %q", stderr.String(), want)
	}
	resp, err := http.Get(endpoint + "/console/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "No tables yet") {
		t.Errorf("GET /console/: %d\n%s", resp.StatusCode, body)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}

	stderr.Reset()
	endpoint, _ = serveLocal(t, &stderr)
	if strings.Contains(stderr.String(), "console") {
		t.Errorf("without --console the start lines name a console:\n%s", stderr.String())
	}
	resp, err = http.Get(endpoint + "/console/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /console/ without --console: %d", resp.StatusCode)
	}
}

func TestLocalConsoleRefusesPerAccount(t *testing.T) {
	err := runLocal(context.Background(), &Env{Stdout: io.Discard, Stderr: io.Discard}, []string{"--port", "0", "--console", "--per-account"})
	if err == nil || !strings.Contains(err.Error(), "--per-account") {
		t.Fatalf("--console --per-account: %v", err)
	}
}
