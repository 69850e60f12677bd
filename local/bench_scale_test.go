package local_test

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// The scale benchmarks behind docs/performance.md's memory and Scan
// figures. DYNAMO_BENCH_SCALE=1 adds a table of 1M items (slow to load);
// without it they stop at 100k.

// scaleSizes are the table sizes the scale benchmarks run at.
func scaleSizes() []int {
	sizes := []int{10, 1_000, 100_000}
	if os.Getenv("DYNAMO_BENCH_SCALE") == "1" {
		sizes = append(sizes, 1_000_000)
	}
	return sizes
}

// recorder is a ResponseWriter that keeps the body, for reading pages.
type recorder struct {
	h      http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header         { return r.h }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }
func (r *recorder) WriteHeader(s int)           { r.status = s }

// send is c.call keeping the response body (valid until the next send).
func (c *caller) send(tb testing.TB, rec *recorder, action, body string) []byte {
	c.req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+action)
	c.br.Reset([]byte(body))
	c.req.Body = &c.br
	c.req.ContentLength = int64(len(body))
	rec.status = 0
	rec.body.Reset()
	if rec.h == nil {
		rec.h = http.Header{}
	}
	clear(rec.h)
	c.h.ServeHTTP(rec, c.req)
	if rec.status != 200 {
		tb.Fatalf("%s: status %d: %s", action, rec.status, rec.body.Bytes())
	}
	return rec.body.Bytes()
}

// smallItemsBody is a BatchWriteItem of k items of 116 bytes (DynamoDB's
// size: names plus values), the items from first on.
func smallItemsBody(first, k int) string {
	var sb strings.Builder
	sb.WriteString(`{"RequestItems":{"bench":[`)
	for j := range k {
		if j > 0 {
			sb.WriteByte(',')
		}
		i := first + j
		fmt.Fprintf(&sb, `{"PutRequest":{"Item":{"pk":{"S":"user#%07d"},"sk":{"S":"order#%04d"},"n":{"N":"%d"},"v":{"S":"%s"}}}}`,
			i, i%10000, 100+i%900, strings.Repeat("v", 85))
	}
	sb.WriteString(`]}}`)
	return sb.String()
}

// loadSmallItems writes n items of smallItemsBody through BatchWriteItem.
func loadSmallItems(b *testing.B, c *caller, n int) {
	for i := 0; i < n; i += 25 {
		c.call(b, "BatchWriteItem", smallItemsBody(i, min(25, n-i)))
	}
}

// scanAll pages through the whole table, 1 MB a page, and returns the
// number of items read.
func scanAll(b *testing.B, c *caller, rec *recorder) int {
	items := 0
	body := `{"TableName":"bench"}`
	for {
		resp := c.send(b, rec, "Scan", body)
		i := bytes.Index(resp, []byte(`"Count":`))
		j := bytes.IndexByte(resp[i:], ',')
		n, err := strconv.Atoi(string(resp[i+len(`"Count":`) : i+j]))
		if err != nil {
			b.Fatal(err)
		}
		items += n
		k := bytes.Index(resp, []byte(`"LastEvaluatedKey":`))
		if k < 0 {
			return items
		}
		lek := resp[k+len(`"LastEvaluatedKey":`) : len(resp)-1]
		body = `{"TableName":"bench","ExclusiveStartKey":` + string(lek) + `}`
	}
}

// BenchmarkScan is a raw Scan of the whole table, paged 1 MB at a time:
// cpu-ns/item is the process CPU per item returned (the benchmark finds
// each page's LastEvaluatedKey with two byte searches, a small part).
func BenchmarkScan(b *testing.B) {
	for _, n := range scaleSizes() {
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			_, c := benchServer(b)
			loadSmallItems(b, c, n)
			var rec recorder
			if got := scanAll(b, c, &rec); got != n {
				b.Fatalf("scanned %d items, want %d", got, n)
			}
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				scanAll(b, c, &rec)
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N*n), "cpu-ns/item")
		})
	}
}

// BenchmarkMemory loads 1M items of 116 bytes (100k without
// DYNAMO_BENCH_SCALE=1) and reports the live heap and the resident set
// after a collection, per item and in total, then again after two full
// Scans (which must not leave decoded items behind).
func BenchmarkMemory(b *testing.B) {
	n := 100_000
	if os.Getenv("DYNAMO_BENCH_SCALE") == "1" {
		n = 1_000_000
	}
	for range b.N {
		base := heapAndRSS()
		_, c := benchServer(b)
		loadSmallItems(b, c, n)
		loaded := heapAndRSS()
		var rec recorder
		for range 2 {
			scanAll(b, c, &rec)
		}
		rec = recorder{}
		scanned := heapAndRSS()
		b.ReportMetric(float64(loaded.heap-base.heap)/float64(n), "heap-B/item")
		b.ReportMetric(float64(loaded.heap)/1e6, "heap-MB")
		b.ReportMetric(float64(loaded.rss)/1e6, "rss-MB")
		b.ReportMetric(float64(scanned.heap)/1e6, "heap-after-scans-MB")
		b.ReportMetric(float64(scanned.rss)/1e6, "rss-after-scans-MB")
	}
}

type memUse struct{ heap, rss uint64 }

// heapAndRSS collects garbage, returns freed memory to the system, and
// reads the live heap and the process's resident set (VmRSS).
func heapAndRSS() memUse {
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	m := memUse{heap: ms.HeapAlloc}
	status, _ := os.ReadFile("/proc/self/status")
	for line := range strings.Lines(string(status)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			m.rss = kb << 10
		}
	}
	return m
}
