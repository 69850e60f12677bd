package local_test

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/local"
)

// rawPost sends body to the server as the SDK would, with extra headers,
// and returns the status and the answer.
func rawPost(t *testing.T, srv *dynamotest.Server, action string, body []byte, header ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", srv.URL, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+action)
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// countingBody yields n bytes of JSON-ish filler and counts what was read.
type countingBody struct {
	n, read int
}

func (b *countingBody) Read(p []byte) (int, error) {
	if b.read >= b.n {
		return 0, io.EOF
	}
	k := min(len(p), b.n-b.read)
	for i := range p[:k] {
		p[i] = ' '
	}
	b.read += k
	return k, nil
}

// A body over the limit is refused with a 413 after reading just past the
// limit, not read whole; one announced by Content-Length is refused
// unread.
func TestRequestBodyLimit(t *testing.T) {
	srv, err := local.New()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, announced := range []bool{false, true} {
		body := &countingBody{n: 4 * local.MaxRequestBytes}
		req := httptest.NewRequest("POST", "/", io.NopCloser(body))
		req.ContentLength = -1 // chunked: the size is not known up front
		if announced {
			req.ContentLength = int64(body.n)
		}
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		if w.Code != http.StatusRequestEntityTooLarge || !strings.Contains(w.Body.String(), "RequestEntityTooLargeException") {
			t.Fatalf("announced=%v: %d %s, want 413", announced, w.Code, w.Body)
		}
		limit := local.MaxRequestBytes + 64<<10
		if announced {
			limit = 0
		}
		if body.read > limit {
			t.Fatalf("announced=%v: read %d bytes of the body, want at most %d", announced, body.read, limit)
		}
	}
}

// The limit never refuses a valid request: the largest BatchWriteItem (25
// items of almost 400 KB of binary, about 13 MB of JSON) goes through the
// SDK.
func TestRequestBodyLimitAcceptsLargestBatch(t *testing.T) {
	if testing.Short() {
		t.Skip("moves about 30 MB")
	}
	srv, c := newServer(t)
	hashTable(t, srv, "big")
	blob := bytes.Repeat([]byte{0xAB}, 395*1024)
	var reqs []types.WriteRequest
	for i := range 25 {
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: item{"pk": S(fmt.Sprint(i)), "b": B(blob...)}}})
	}
	out, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"big": reqs}})
	if err != nil || len(out.UnprocessedItems) != 0 {
		t.Fatalf("BatchWriteItem: %v (unprocessed %d)", err, len(out.UnprocessedItems))
	}
}

func compress(t *testing.T, encoding string, b []byte) []byte {
	var buf bytes.Buffer
	var w io.WriteCloser
	switch encoding {
	case "gzip":
		w = gzip.NewWriter(&buf)
	case "deflate":
		w = zlib.NewWriter(&buf)
	}
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	w.Close()
	return buf.Bytes()
}

// Bodies compressed with gzip or deflate are accepted, as DynamoDB accepts
// them; a body that does not decompress, or an unknown encoding, is the
// 500 DynamoDB answers; a body that decompresses past the limit (a zip
// bomb) is a 413, and nothing is written.
func TestCompressedRequests(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "tab")
	for _, enc := range []string{"gzip", "deflate"} {
		body := []byte(`{"TableName":"tab","Item":{"pk":{"S":"` + enc + `"},"v":{"S":"` + strings.Repeat("v", 5000) + `"}}}`)
		if status, answer := rawPost(t, srv, "PutItem", compress(t, enc, body), "Content-Encoding", enc); status != 200 {
			t.Fatalf("%s PutItem: %d %s", enc, status, answer)
		}
		got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tab"), Key: item{"pk": S(enc)}})
		if err != nil || len(sval(got.Item["v"])) != 5000 {
			t.Fatalf("%s item not written: %v %v", enc, got, err)
		}
	}

	put := func(pk string) []byte { return []byte(`{"TableName":"tab","Item":{"pk":{"S":"` + pk + `"}}}`) }
	for _, tc := range []struct {
		name, encoding string
		body           []byte
		status         int
		want           string
	}{
		{"not gzip", "gzip", put("bad1"), 500, "could not be decompressed as gzip"},
		{"truncated", "deflate", compress(t, "deflate", put("bad2"))[:20], 500, "could not be decompressed as deflate"},
		{"unknown encoding", "br", put("bad3"), 500, "Unsupported Content-Encoding"},
		{"bomb", "gzip", compress(t, "gzip", append(put("bad4"), bytes.Repeat([]byte(" "), 4*local.MaxRequestBytes)...)), 413, "RequestEntityTooLargeException"},
	} {
		status, answer := rawPost(t, srv, "PutItem", tc.body, "Content-Encoding", tc.encoding)
		if status != tc.status || !strings.Contains(answer, tc.want) {
			t.Errorf("%s: %d %s, want %d containing %q", tc.name, status, answer, tc.status, tc.want)
		}
	}
	scan, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tab")})
	if err != nil || scan.Count != 2 {
		t.Fatalf("items after the refused requests: %d, %v; want the 2 accepted", scan.Count, err)
	}
}

// Invalid UTF-8 is a SerializationException: two keys differing only in
// invalid bytes, or in unpaired surrogate escapes, must not become one item
// (all were U+FFFD before).
func TestInvalidUTF8Rejected(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "tab")
	for _, key := range []string{"a\xff", "a\xfe", "ok\xc3", `b\udc00`, `b\udc01`, `c\ud800x`, `d\uD83D`} {
		status, answer := rawPost(t, srv, "PutItem", []byte(`{"TableName":"tab","Item":{"pk":{"S":"`+key+`"}}}`))
		if status != 400 || !strings.Contains(answer, "SerializationException") {
			t.Errorf("%q: %d %s, want a SerializationException", key, status, answer)
		}
	}
	scan, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tab")})
	if err != nil || scan.Count != 0 {
		t.Fatalf("%d items written, %v", scan.Count, err)
	}
	put(t, c, "tab", item{"pk": S("héllo ✓")}) // valid UTF-8 still works
	for key, want := range map[string]string{`e\ud83d\ude00`: "e😀", `f\\ud800`: `f\ud800`, `g\u00e9\n`: "gé\n"} {
		if status, answer := rawPost(t, srv, "PutItem", []byte(`{"TableName":"tab","Item":{"pk":{"S":"`+key+`"}}}`)); status != 200 {
			t.Fatalf("%s: %d %s", key, status, answer)
		}
		if got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tab"), Key: item{"pk": S(want)}}); err != nil || got.Item == nil {
			t.Fatalf("%s not stored as %q: %v", key, want, err)
		}
	}
}

// Only POST / is an API call; GET / is the health line.
func TestOnlyPostRootIsAnAPICall(t *testing.T) {
	srv, _ := newServer(t)
	for _, tc := range []struct {
		method, path string
		status       int
		want         string
	}{
		{"GET", "/", 200, "healthy: dynamodb.us-east-1.amazonaws.com"},
		{"POST", "/", 200, "TableNames"},
		{"POST", "/other", 404, "UnknownOperationException"},
		{"PUT", "/", 404, "UnknownOperationException"},
		{"GET", "/x", 404, "UnknownOperationException"},
	} {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, strings.NewReader(`{}`))
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != tc.status || !strings.Contains(string(b), tc.want) {
			t.Errorf("%s %s: %d %s, want %d containing %q", tc.method, tc.path, res.StatusCode, b, tc.status, tc.want)
		}
	}
}

// Through the SDK, an oversized request is an error of its own, not a
// retried failure, and nothing is written.
func TestRequestBodyLimitThroughSDK(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "tab")
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tab"),
		Item: item{"pk": S("big"), "v": S(strings.Repeat("x", local.MaxRequestBytes))}})
	wantErrContains(t, err, "RequestEntityTooLargeException", "must not exceed")
	if n := srv.Calls("PutItem"); n != 0 {
		t.Fatalf("the oversized request reached the handler's actions %d times", n)
	}
}
