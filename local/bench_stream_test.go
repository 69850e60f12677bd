//go:build unix

package local_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/dynamogo/dynamo/local"
)

// BenchmarkStreamCost is the cost of recording: the same small PutItems go
// to a table without a stream and to one with a NEW_AND_OLD_IMAGES stream,
// alternating in runs of 64 so that both see the same machine load. It
// reports the server CPU time of a put on each and their ratio (wall time
// on a shared machine measures the neighbours).
func BenchmarkStreamCost(b *testing.B) {
	srv, err := local.New()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Close() })
	c := newCaller(srv)
	const def = `"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"BillingMode":"PAY_PER_REQUEST"`
	c.call(b, "CreateTable", `{"TableName":"bench",`+def+`}`)
	c.call(b, "CreateTable", `{"TableName":"streamed",`+def+`,"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}}`)
	var cpu [2]time.Duration
	var ops [2]int
	const run = 64
	start, i := cpuTime(), 0
	for ; b.Loop(); i++ {
		which := i / run % 2
		if i%run == 0 && i > 0 {
			now := cpuTime()
			cpu[1-which] += now - start
			start = now
		}
		body := putBody(fmt.Sprintf("k%07d", i%10000), "s", i)
		if which == 1 {
			body = `{"TableName":"streamed"` + body[len(`{"TableName":"bench"`):]
		}
		c.call(b, "PutItem", body)
		ops[which]++
	}
	cpu[(i-1)/run%2] += cpuTime() - start
	b.StopTimer()
	if ops[0] == 0 || ops[1] == 0 {
		return // too few iterations to compare
	}
	plain := float64(cpu[0]) / float64(ops[0])
	streamed := float64(cpu[1]) / float64(ops[1])
	b.ReportMetric(plain, "plain-cpu-ns/put")
	b.ReportMetric(streamed, "stream-cpu-ns/put")
	b.ReportMetric(streamed/plain, "stream/plain")
}

// TestStreamMemoryPerRecord measures what a retained stream record holds:
// the same 200,000 overwrites of 10,000 small items go to a table without
// a stream and to tables with a KEYS_ONLY and a NEW_AND_OLD_IMAGES stream,
// and the heap each leaves beyond the table without one, per record, is
// logged. A NEW_AND_OLD_IMAGES record keeps the item version it replaced
// alive (its old image); the rest is the record's own bookkeeping.
func TestStreamMemoryPerRecord(t *testing.T) {
	if testing.Short() || !envSet("DYNAMO_BENCH_MEMORY") {
		t.Skip("set DYNAMO_BENCH_MEMORY=1 to measure")
	}
	const keys, writes = 10000, 200000
	heap := func(view string) uint64 {
		srv, err := local.New()
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		c := newCaller(srv)
		spec := ""
		if view != "" {
			spec = `,"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"` + view + `"}`
		}
		c.call(t, "CreateTable", `{"TableName":"bench","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"BillingMode":"PAY_PER_REQUEST"`+spec+`}`)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for i := range writes {
			c.call(t, "PutItem", putBody(fmt.Sprintf("k%07d", i%keys), "s", i))
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(srv)
		return after.HeapAlloc - before.HeapAlloc
	}
	none := heap("")
	for _, view := range []string{"KEYS_ONLY", "NEW_AND_OLD_IMAGES"} {
		t.Logf("%s: %.0f bytes per retained record", view, float64(heap(view)-none)/writes)
	}
}
