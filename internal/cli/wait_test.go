package cli

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/dynamogo/dynamo"
)

// describeStub answers DescribeTable with the statuses in turn (the last
// one repeats); "" answers ResourceNotFoundException.
func describeStub(t *testing.T, statuses ...string) (*dynamo.Repo, *atomic.Int32) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		s := statuses[min(i, len(statuses)-1)]
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		if s == "" {
			w.WriteHeader(400)
			fmt.Fprint(w, `{"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException","message":"Requested resource not found"}`)
			return
		}
		fmt.Fprintf(w, `{"Table":{"TableName":"t","TableStatus":%q,"GlobalSecondaryIndexes":[{"IndexName":"g","IndexStatus":%q}]}}`, strings.Split(s, "/")[0], strings.Split(s+"/ACTIVE", "/")[1])
	}))
	t.Cleanup(srv.Close)
	old := pollInterval
	pollInterval = time.Millisecond
	t.Cleanup(func() { pollInterval = old })
	repo, err := dynamo.New(aws.Config{}, dynamo.WithEndpoint(srv.URL), dynamo.WithRegion("us-east-1"), dynamo.WithCredentials("a", "b", ""))
	if err != nil {
		t.Fatal(err)
	}
	return repo, &n
}

func TestWaitActiveShowsProgress(t *testing.T) {
	c, n := describeStub(t, "", "CREATING", "ACTIVE/CREATING", "ACTIVE")
	var buf bytes.Buffer
	p := &progress{w: &buf, on: true}
	desc, err := waitActive(context.Background(), c, "t", time.Minute, p)
	p.done()
	if err != nil {
		t.Fatal(err)
	}
	if desc.TableStatus != "ACTIVE" || n.Load() != 4 {
		t.Fatalf("status %s after %d calls", desc.TableStatus, n.Load())
	}
	out := buf.String()
	for _, want := range []string{"waiting for table t: CREATING", "waiting for table t: index g CREATING"} {
		if !strings.Contains(out, want) {
			t.Errorf("progress %q lacks %q", out, want)
		}
	}
	if !strings.HasSuffix(out, "\r\033[K") {
		t.Errorf("progress line not cleared: %q", out)
	}

	// Off a terminal nothing is written.
	c, _ = describeStub(t, "CREATING", "ACTIVE")
	buf.Reset()
	if _, err := waitActive(context.Background(), c, "t", time.Minute, &progress{w: &buf}); err != nil || buf.Len() != 0 {
		t.Fatalf("err %v, wrote %q", err, buf.String())
	}
}

func TestWaitTimeouts(t *testing.T) {
	c, _ := describeStub(t, "CREATING")
	_, err := waitActive(context.Background(), c, "t", 30*time.Millisecond, &progress{})
	if err == nil || !strings.Contains(err.Error(), "table t is not ready after 30ms: CREATING") {
		t.Fatalf("err = %v", err)
	}
	c, _ = describeStub(t, "DELETING")
	err = waitGone(context.Background(), c, "t", 30*time.Millisecond, &progress{})
	if err == nil || !strings.Contains(err.Error(), "table t still exists (DELETING) after 30ms") {
		t.Fatalf("err = %v", err)
	}
	c, n := describeStub(t, "DELETING", "DELETING", "")
	if err := waitGone(context.Background(), c, "t", time.Minute, &progress{}); err != nil || n.Load() != 3 {
		t.Fatalf("err %v after %d calls", err, n.Load())
	}
}

// Progress is shown when stderr is a terminal and never in a script: a
// pipe or a buffer gets nothing.
func TestEnvProgress(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	var buf bytes.Buffer
	for _, tc := range []struct {
		env  *Env
		want bool
	}{
		{&Env{Stderr: w}, false},
		{&Env{Stderr: &buf}, false},
		{&Env{Stderr: &buf, IsTerminal: func() bool { return true }}, true},
	} {
		if p := tc.env.progress(); p.on != tc.want || p.w != tc.env.Stderr {
			t.Errorf("progress of %T: on %v, want %v", tc.env.Stderr, p.on, tc.want)
		}
	}
}
