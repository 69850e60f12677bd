package local_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynamogo/dynamo/local"
)

// serveHTTP serves a fresh local server with lim on 127.0.0.1 and returns
// its address.
func serveHTTP(t *testing.T, lim local.HTTPLimits) string {
	t.Helper()
	srv, err := local.New()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs, wrapped := local.NewHTTPServer(srv, ln, lim)
	done := make(chan struct{})
	go func() { hs.Serve(wrapped); close(done) }()
	t.Cleanup(func() { hs.Close(); <-done; srv.Close() })
	return ln.Addr().String()
}

// guard bounds how long a test waits for the server to act: it fails the
// test, it is not what the test waits for.
const guard = 30 * time.Second

// waitClosed reads c until the server closes it and returns what it sent.
func waitClosed(t *testing.T, c net.Conn) string {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(guard))
	b, err := io.ReadAll(c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("the server kept the connection open for %v", guard)
	}
	return string(b)
}

func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

const listTables = "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\nContent-Type: application/x-amz-json-1.0\r\n"

// Connections parked without a request, beyond the cap, cannot lock other
// clients out: the oldest parked one is closed to make room.
func TestConnectionCapClosesOldestParked(t *testing.T) {
	addr := serveHTTP(t, local.HTTPLimits{MaxConns: 3})
	var parked []net.Conn
	for range 3 {
		parked = append(parked, dial(t, addr))
	}
	c := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String("http://" + addr),
		Credentials: credentials.NewStaticCredentialsProvider("x", "y", ""), Retryer: aws.NopRetryer{}})
	cctx, cancel := context.WithTimeout(ctx, guard)
	defer cancel()
	if _, err := c.ListTables(cctx, &dynamodb.ListTablesInput{}); err != nil {
		t.Fatalf("a client behind %d parked connections: %v", len(parked), err)
	}
	waitClosed(t, parked[0]) // the oldest made room
}

// A connection that never sends a whole request header is closed after
// ReadHeaderTimeout.
func TestParkedConnectionTimesOut(t *testing.T) {
	addr := serveHTTP(t, local.HTTPLimits{ReadHeaderTimeout: 50 * time.Millisecond})
	c := dial(t, addr)
	io.WriteString(c, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n") // and no more
	waitClosed(t, c)
}

// A body trickled in is cut after ReadTimeout, with an error answer.
func TestTrickledBodyIsCut(t *testing.T) {
	addr := serveHTTP(t, local.HTTPLimits{ReadTimeout: 200 * time.Millisecond})
	c := dial(t, addr)
	io.WriteString(c, listTables+"Content-Length: 100\r\n\r\n{") // 1 of 100 bytes
	if got := waitClosed(t, c); got != "" && !strings.Contains(got, "SerializationException") {
		t.Fatalf("answer to a cut body: %q", got)
	}
}

// An idle keep-alive connection is closed after IdleTimeout.
func TestIdleKeepAliveClosed(t *testing.T) {
	addr := serveHTTP(t, local.HTTPLimits{IdleTimeout: 50 * time.Millisecond})
	c := dial(t, addr)
	io.WriteString(c, listTables+"Content-Length: 2\r\n\r\n{}")
	br := bufio.NewReader(c)
	res, err := http.ReadResponse(br, nil)
	if err != nil || res.StatusCode != 200 || res.Close {
		t.Fatalf("first request: %v %v", res, err)
	}
	io.Copy(io.Discard, res.Body)
	c.SetReadDeadline(time.Now().Add(guard))
	if _, err := br.ReadByte(); !errors.Is(err, io.EOF) {
		t.Fatalf("idle connection: %v, want EOF", err)
	}
}

func TestDefaultHTTPLimits(t *testing.T) {
	lim := local.DefaultHTTPLimits()
	if lim.MaxConns < 8 || lim.MaxConns > 4096 || lim.ReadHeaderTimeout == 0 || lim.ReadTimeout == 0 || lim.WriteTimeout == 0 || lim.IdleTimeout == 0 ||
		lim.MaxHeaderBytes != local.DefaultMaxHeaderBytes {
		t.Fatalf("%+v", lim)
	}
}

// A header beyond MaxHeaderBytes is refused before the request is served;
// a signed SDK request is far below the default.
func TestOversizedHeaderRefused(t *testing.T) {
	addr := serveHTTP(t, local.DefaultHTTPLimits())
	c := dial(t, addr)
	io.WriteString(c, listTables+"X-Big: "+strings.Repeat("a", 2*local.DefaultMaxHeaderBytes)+"\r\nContent-Length: 2\r\n\r\n{}")
	c.SetReadDeadline(time.Now().Add(guard))
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || res.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("oversized header: %v %v", res, err)
	}

	client := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String("http://" + addr),
		Credentials: credentials.NewStaticCredentialsProvider("k", "s", strings.Repeat("t", 4096))})
	if _, err := client.ListTables(context.Background(), &dynamodb.ListTablesInput{}); err != nil {
		t.Fatalf("a signed request with a 4 KB session token: %v", err)
	}
}
