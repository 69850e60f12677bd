package local_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// BenchmarkDurablePut measures what durability costs a server: PutItems
// of 2,000 keys from 8 workers, in blocks of 1,000 taken in turn by a
// server in memory and one on a durable engine (disk.Open, SyncAlways: a
// write is answered once fsynced), each in its own process. x-memory is
// the durable server's CPU per write over the in-memory one's; writes/s
// is the durable server's rate, and bound-writes/s the rate the disk
// allows 8 writers that each wait for one synchronous write at a time (8
// ÷ the latency of an fdatasync of a small write into a preallocated file
// in the same directory, as the engine's log does, measured between the
// blocks); x-bound is the one over the other. memory-writes/s is the
// in-memory server's rate under the same load: where the disk is faster
// than the requests' CPU time, it bounds the durable rate instead.
func BenchmarkDurablePut(b *testing.B) {
	dir := b.TempDir()
	mem, dur := startCeilingChild(b, "server"), startCeilingChild(b, "durable:"+filepath.Join(dir, "data"))
	op := ceilingOps[0]
	op.body = func(r *rand.Rand, seq int) string {
		return `{"TableName":"items","Item":` + ceilingItem(fmt.Sprintf("k%07d", r.IntN(2000)), seq) + `}`
	}
	for _, c := range []*ceilingChild{mem, dur} {
		c.mustPost(b, "CreateTable", `{"TableName":"items","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`)
	}
	probe := newSyncProbe(b, dir)
	var syncs time.Duration
	var probes int
	cpu, took := takeTurns(b, [2]*ceilingChild{mem, dur}, op, func() {
		for range 20 {
			syncs += probe.sync(b)
			probes++
		}
	})
	latency := syncs / time.Duration(probes)
	writes := float64(b.N) / took[1].Seconds()
	bound := ceilingWorkers / latency.Seconds()
	b.ReportMetric(float64(cpu[0].Microseconds())/float64(b.N), "memory-us/op")
	b.ReportMetric(float64(cpu[1].Microseconds())/float64(b.N), "durable-us/op")
	b.ReportMetric(float64(cpu[1])/float64(cpu[0]), "x-memory")
	b.ReportMetric(writes, "writes/s")
	b.ReportMetric(float64(b.N)/took[0].Seconds(), "memory-writes/s")
	b.ReportMetric(bound, "bound-writes/s")
	b.ReportMetric(bound/writes, "x-bound")
}

// syncProbe times an fdatasync of a small write into a preallocated file.
type syncProbe struct {
	f   *os.File
	off int64
}

func newSyncProbe(b *testing.B, dir string) *syncProbe {
	f, err := os.Create(filepath.Join(dir, "probe"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.Close() })
	if _, err := f.Write(make([]byte, 4<<20)); err != nil {
		b.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		b.Fatal(err)
	}
	return &syncProbe{f: f}
}

func (p *syncProbe) sync(b *testing.B) time.Duration {
	rec := make([]byte, 160)
	start := time.Now()
	if _, err := p.f.WriteAt(rec, p.off); err != nil {
		b.Fatal(err)
	}
	if err := syscall.Fdatasync(int(p.f.Fd())); err != nil {
		b.Fatal(err)
	}
	p.off = (p.off + int64(len(rec))) % (4<<20 - 160)
	return time.Since(start)
}
