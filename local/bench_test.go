package local_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/dynamogo/dynamo/local"
)

// discard is a minimal ResponseWriter so the benchmarks measure the handler.
type discard struct {
	h      http.Header
	status int
}

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(b []byte) (int, error) { return len(b), nil }
func (d *discard) WriteHeader(s int)           { d.status = s }

type bodyReader struct{ bytes.Reader }

func (*bodyReader) Close() error { return nil }

// caller replays requests against a handler without a network.
type caller struct {
	h   http.Handler
	req *http.Request
	w   discard
	br  bodyReader
}

func newCaller(h http.Handler) *caller {
	c := &caller{h: h}
	c.req, _ = http.NewRequest("POST", "http://127.0.0.1/", nil)
	c.req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	c.w.h = http.Header{}
	return c
}

func (c *caller) call(tb testing.TB, action, body string) {
	c.req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+action)
	c.br.Reset([]byte(body))
	c.req.Body = &c.br
	c.req.ContentLength = int64(len(body))
	c.w.status = 0
	clear(c.w.h)
	c.h.ServeHTTP(&c.w, c.req)
	if c.w.status != 200 {
		tb.Fatalf("%s: status %d", action, c.w.status)
	}
}

// benchServer is a server with a table "bench" (pk and sk, strings).
func benchServer(tb testing.TB) (*local.Server, *caller) {
	srv, err := local.New()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { srv.Close() })
	c := newCaller(srv)
	c.call(tb, "CreateTable", `{"TableName":"bench","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"BillingMode":"PAY_PER_REQUEST"}`)
	return srv, c
}

var payload = strings.Repeat("v", 100)

func putBody(pk, sk string, n int) string {
	return `{"TableName":"bench","Item":{"pk":{"S":"` + pk + `"},"sk":{"S":"` + sk + `"},"v":{"S":"` + payload + `"},"n":{"N":"` + strconv.Itoa(n) + `"}}}`
}

func BenchmarkPutItem(b *testing.B) {
	_, c := benchServer(b)
	b.ReportAllocs()
	cpuPerOp(b)
	for i := 0; b.Loop(); i++ {
		c.call(b, "PutItem", putBody(fmt.Sprintf("k%07d", i%10000), "s", i))
	}
}

// BenchmarkPutItemStream is BenchmarkPutItem on a table with a
// NEW_AND_OLD_IMAGES stream: the cost of recording each change.
func BenchmarkPutItemStream(b *testing.B) {
	srv, err := local.New()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Close() })
	c := newCaller(srv)
	c.call(b, "CreateTable", `{"TableName":"bench","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"BillingMode":"PAY_PER_REQUEST","StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}}`)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c.call(b, "PutItem", putBody(fmt.Sprintf("k%07d", i%10000), "s", i))
	}
}

// BenchmarkPutItemPITR is BenchmarkPutItem with point-in-time recovery on:
// the cost of the history entry of each write.
func BenchmarkPutItemPITR(b *testing.B) {
	_, c := benchServer(b)
	c.call(b, "UpdateContinuousBackups", `{"TableName":"bench","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}}`)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c.call(b, "PutItem", putBody(fmt.Sprintf("k%07d", i%10000), "s", i))
	}
}

// BenchmarkCreateBackup backs up a table of 10,000 items (about 1.3 MB):
// the reference copy under the table's lock and the copy to the engine.
func BenchmarkCreateBackup(b *testing.B) {
	_, c := benchServer(b)
	for i := range 10000 {
		c.call(b, "PutItem", putBody(fmt.Sprintf("k%07d", i), "s", i))
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c.call(b, "CreateBackup", `{"TableName":"bench","BackupName":"b`+strconv.Itoa(i)+`xx"}`)
	}
}

func BenchmarkGetItem(b *testing.B) {
	_, c := benchServer(b)
	for i := 0; i < 10000; i++ {
		c.call(b, "PutItem", putBody(fmt.Sprintf("k%07d", i), "s", i))
	}
	b.ReportAllocs()
	cpuPerOp(b)
	for i := 0; b.Loop(); i++ {
		c.call(b, "GetItem", `{"TableName":"bench","Key":{"pk":{"S":"k`+fmt.Sprintf("%07d", i%10000)+`"},"sk":{"S":"s"}}}`)
	}
}

func BenchmarkQuery(b *testing.B) {
	_, c := benchServer(b)
	for p := 0; p < 100; p++ {
		for s := 0; s < 10; s++ {
			c.call(b, "PutItem", putBody(fmt.Sprintf("p%03d", p), fmt.Sprintf("s%02d", s), s))
		}
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c.call(b, "Query", `{"TableName":"bench","KeyConditionExpression":"pk = :p AND sk BETWEEN :a AND :b","ExpressionAttributeValues":{":p":{"S":"p`+fmt.Sprintf("%03d", i%100)+`"},":a":{"S":"s03"},":b":{"S":"s05"}}}`)
	}
}

// BenchmarkStartup is New plus the first answered call.
func BenchmarkStartup(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		srv, err := local.New()
		if err != nil {
			b.Fatal(err)
		}
		newCaller(srv).call(b, "ListTables", `{}`)
		srv.Close()
	}
}

// TestMemoryPerMillionItems reports the heap held by one million small items
// (the loadgen item: a 8-byte key, a 100-byte string and a number). It takes
// several seconds, so it runs only with DYNAMO_BENCH_MEMORY=1.
func TestMemoryPerMillionItems(t *testing.T) {
	if testing.Short() || !envSet("DYNAMO_BENCH_MEMORY") {
		t.Skip("set DYNAMO_BENCH_MEMORY=1 to measure")
	}
	srv, err := local.New()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c := newCaller(srv)
	c.call(t, "CreateTable", `{"TableName":"bench","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	const n = 1_000_000
	for i := 0; i < n; i++ {
		c.call(t, "PutItem", `{"TableName":"bench","Item":{"pk":{"S":"k`+fmt.Sprintf("%07d", i)+`"},"v":{"S":"`+payload+`"},"n":{"N":"`+strconv.Itoa(i)+`"}}}`)
	}
	el := time.Since(start)
	runtime.GC()
	runtime.ReadMemStats(&after)
	used := after.HeapAlloc - before.HeapAlloc
	t.Logf("1M items: heap %.1f MB (%.0f bytes/item), load %.1fs (%.1f µs/put)", float64(used)/1e6, float64(used)/n, el.Seconds(), el.Seconds()*1e6/n)
	runtime.KeepAlive(srv)
}

// BenchmarkGetItemSigned is BenchmarkGetItem with authentication on: the
// same signed request each time (the server's clock is the signing time),
// so the difference is the cost of verifying a signature.
func BenchmarkGetItemSigned(b *testing.B) {
	at := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	srv, err := local.New(local.WithAccessKeys(local.AccessKey{ID: "AKIDBENCH", Secret: "bench-secret"}),
		local.WithClock(func() time.Time { return at }))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Close() })
	c := newCaller(srv)
	signed := func(action, body string) {
		c.req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+action)
		c.req.ContentLength = int64(len(body))
		sum := sha256.Sum256([]byte(body))
		creds := aws.Credentials{AccessKeyID: "AKIDBENCH", SecretAccessKey: "bench-secret"}
		if err := v4.NewSigner().SignHTTP(ctx, creds, c.req, hex.EncodeToString(sum[:]), "dynamodb", "us-east-1", at); err != nil {
			b.Fatal(err)
		}
		c.call(b, action, body)
	}
	signed("CreateTable", `{"TableName":"bench","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"BillingMode":"PAY_PER_REQUEST"}`)
	signed("PutItem", putBody("k", "s", 1))
	get := `{"TableName":"bench","Key":{"pk":{"S":"k"},"sk":{"S":"s"}}}`
	signed("GetItem", get)
	b.ReportAllocs()
	for b.Loop() {
		c.call(b, "GetItem", get)
	}
}
