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
// to a table without a stream and to one with a NEW_AND_OLD_IMAGES stream
// (so that every put of an existing item records both images), alternating
// in runs of 64 so that both see the same machine load. It reports the
// server CPU time of a put on each and their ratio (wall time on a shared
// machine measures the neighbours).
func BenchmarkStreamCost(b *testing.B) { streamCost(b) }

// BenchmarkStreamCostAtCap is BenchmarkStreamCost with the stream's record
// cap lowered to 4,096, which it reaches early in the run: from then on
// each recorded write also pays for trimming the oldest, as it does once a
// stream holds 24 hours of records.
func BenchmarkStreamCostAtCap(b *testing.B) {
	defer local.SetStreamMaxRecords(4096)()
	streamCost(b)
}

func streamCost(b *testing.B) {
	srv, err := local.New()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Close() })
	c := newCaller(srv)
	c.call(b, "CreateTable", `{"TableName":"nostream",`+benchKeys+`}`)
	c.call(b, "CreateTable", `{"TableName":"streamed",`+benchKeys+`,"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}}`)
	plain, streamed := alternate(b, func(which, i int) {
		c.call(b, "PutItem", tablePutBody([2]string{"nostream", "streamed"}[which], i))
	})
	b.ReportMetric(plain, "plain-cpu-ns/put")
	b.ReportMetric(streamed, "stream-cpu-ns/put")
	b.ReportMetric(streamed/plain, "stream/plain")
}

// BenchmarkStreamCostElsewhere checks that a table without a stream pays
// nothing for another table's: the same puts go to a table on a server
// without any stream and to one on a server where another table has one.
func BenchmarkStreamCostElsewhere(b *testing.B) {
	var cs [2]*caller
	for i := range cs {
		srv, err := local.New()
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { srv.Close() })
		cs[i] = newCaller(srv)
		cs[i].call(b, "CreateTable", `{"TableName":"nostream",`+benchKeys+`}`)
	}
	cs[1].call(b, "CreateTable", `{"TableName":"streamed",`+benchKeys+`,"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}}`)
	cs[1].call(b, "PutItem", tablePutBody("streamed", 0))
	none, elsewhere := alternate(b, func(which, i int) {
		cs[which].call(b, "PutItem", tablePutBody("nostream", i))
	})
	b.ReportMetric(none, "none-cpu-ns/put")
	b.ReportMetric(elsewhere, "elsewhere-cpu-ns/put")
	b.ReportMetric(elsewhere/none, "elsewhere/none")
}

const benchKeys = `"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"BillingMode":"PAY_PER_REQUEST"`

// tablePutBody is putBody's i-th put of 10,000 items to table: the same
// work for every table name, so that building it weighs the same on each
// side of a comparison.
func tablePutBody(table string, i int) string {
	return `{"TableName":"` + table + `"` + putBody(fmt.Sprintf("k%07d", i%10000), "s", i)[len(`{"TableName":"bench"`):]
}

// alternate calls put(which, i) for i counting up, in runs of 64 with which
// 0, then 64 with which 1, and so on while b loops, and returns the process
// CPU time per call of each.
func alternate(b *testing.B, put func(which, i int)) (zero, one float64) {
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
		put(which, i)
		ops[which]++
	}
	cpu[(i-1)/run%2] += cpuTime() - start
	b.StopTimer()
	if ops[0] == 0 || ops[1] == 0 {
		b.Skip("too few iterations to compare")
	}
	return float64(cpu[0]) / float64(ops[0]), float64(cpu[1]) / float64(ops[1])
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
