package disk_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/local/storage"
	"github.com/dynamogo/dynamo/local/storage/disk"
)

// BenchmarkPut measures acknowledged puts of a ~200-byte item:
//
//	serial       one writer, SyncAlways: one fsync per write
//	fsync-each   16 writers, every write its own fsync (no group commit)
//	group-commit 16 writers, SyncAlways: writers share fsyncs
//	periodic     16 writers, SyncPeriodic (fsync every 100ms)
//
// writes/fsync is the group-commit factor.
func BenchmarkPut(b *testing.B) {
	it := storage.MustEncode(storage.Item{
		"pk":    &types.AttributeValueMemberS{Value: "USER#0000000042"},
		"sk":    &types.AttributeValueMemberS{Value: "ORDER#2026-12-01T08:00:00Z"},
		"total": &types.AttributeValueMemberN{Value: "129.95"},
		"items": &types.AttributeValueMemberL{Value: []types.AttributeValue{
			&types.AttributeValueMemberS{Value: "SKU-1"}, &types.AttributeValueMemberS{Value: "SKU-2"}}},
		"note": &types.AttributeValueMemberS{Value: "leave at the door, ring twice, thank you"},
	})
	cases := []struct {
		name     string
		parallel bool
		opts     []disk.Option
	}{
		{"serial", false, nil},
		{"fsync-each", true, []disk.Option{disk.WithoutGroupCommit()}},
		{"group-commit", true, nil},
		{"periodic", true, []disk.Option{disk.WithSyncMode(disk.SyncPeriodic)}},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			e := open(b, b.TempDir(), append(tc.opts, disk.WithCompactThreshold(1<<40))...)
			defer e.Close()
			var next atomic.Int64
			put := func(c storage.Collection, i int) {
				if _, _, err := c.Put(fmt.Appendf(nil, "k%09d", i), it); err != nil {
					b.Error(err)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			if tc.parallel {
				b.SetParallelism(8) // 16 writers on 2 CPUs
				b.RunParallel(func(pb *testing.PB) {
					c := coll(b, e, fmt.Sprint("c", next.Add(1)))
					for i := 0; pb.Next(); i++ {
						put(c, i)
					}
				})
			} else {
				c := coll(b, e, "c")
				for i := range b.N {
					put(c, i)
				}
			}
			b.StopTimer()
			st := e.Stats()
			b.ReportMetric(float64(st.Writes)/float64(max(st.Syncs, 1)), "writes/fsync")
		})
	}
}

// BenchmarkReplay is Open of a log of 10k puts.
func BenchmarkReplay(b *testing.B) {
	dir := b.TempDir()
	e := open(b, dir, disk.WithSyncMode(disk.SyncPeriodic), disk.WithCompactThreshold(1<<40))
	c := coll(b, e, "c")
	for i := range 10000 {
		c.Put(fmt.Appendf(nil, "k%05d", i), item(fmt.Sprint(i)))
	}
	e.Close()
	b.ResetTimer()
	for range b.N {
		e := open(b, dir)
		e.Close()
	}
}

// BenchmarkCompact is one compaction of 100k items of ~100 bytes: the time
// writes wait while the snapshot is written.
func BenchmarkCompact(b *testing.B) {
	e := open(b, b.TempDir(), disk.WithSyncMode(disk.SyncPeriodic), disk.WithCompactThreshold(1<<40))
	defer e.Close()
	c := coll(b, e, "c")
	for i := range 100000 {
		c.Put(fmt.Appendf(nil, "k%06d", i), storage.MustEncode(storage.Item{
			"pk": &types.AttributeValueMemberS{Value: fmt.Sprintf("USER#%06d", i)},
			"n":  &types.AttributeValueMemberN{Value: "12345"},
			"s":  &types.AttributeValueMemberS{Value: "some text of a typical length here"},
		}))
	}
	// A writer runs alongside: its slowest Put is the pause compaction
	// imposes on writes.
	w := coll(b, e, "w")
	stop, done := make(chan struct{}), make(chan time.Duration)
	go func() {
		var worst time.Duration
		for i := 0; ; i++ {
			select {
			case <-stop:
				done <- worst
				return
			default:
			}
			start := time.Now()
			w.Put(fmt.Appendf(nil, "%d", i%1000), item("v"))
			worst = max(worst, time.Since(start))
		}
	}()
	b.ResetTimer()
	for range b.N {
		must(b, e.Compact())
	}
	b.StopTimer()
	close(stop)
	b.ReportMetric(float64((<-done).Microseconds()), "max-put-µs")
	b.ReportMetric(float64(e.Stats().SnapshotBytes)/1e6, "MB")
}

// BenchmarkBatch is one item write with its index entries, as the server
// makes it (an item and 3 index entries, ~200 bytes each), one writer,
// SyncAlways:
//
//	separate  four Puts: four records, four fsyncs
//	batch     one Apply: one record, one fsync, all or nothing
func BenchmarkBatch(b *testing.B) {
	for _, batch := range []bool{false, true} {
		name := "separate"
		if batch {
			name = "batch"
		}
		b.Run(name, func(b *testing.B) {
			e := open(b, b.TempDir(), disk.WithCompactThreshold(1<<40))
			defer e.Close()
			var cs []storage.Collection
			for _, n := range []string{"t", "gsi1", "gsi2", "lsi"} {
				cs = append(cs, coll(b, e, n))
			}
			it := storage.MustEncode(storage.Item{
				"pk":   &types.AttributeValueMemberS{Value: "USER#0000000042"},
				"sk":   &types.AttributeValueMemberS{Value: "ORDER#2026-12-01T08:00:00Z"},
				"note": &types.AttributeValueMemberS{Value: "leave at the door, ring twice, thank you, and more text here"},
			})
			ops := make([]storage.Op, len(cs))
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				key := fmt.Appendf(nil, "k%09d", i)
				for j, c := range cs {
					if batch {
						ops[j] = storage.Put(c, key, it)
					} else if _, _, err := c.Put(key, it); err != nil {
						b.Fatal(err)
					}
				}
				if batch {
					must(b, e.Apply(ops))
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(e.Stats().Syncs)/float64(b.N), "fsyncs/op")
		})
	}
}

// benchItem is an item of ~170 encoded bytes, the size the restart
// measurements used (1M items, 167 MB of files).
func benchItem(i int) storage.Value {
	return storage.MustEncode(storage.Item{
		"pk":     &types.AttributeValueMemberS{Value: fmt.Sprintf("USER#%010d", i)},
		"sk":     &types.AttributeValueMemberS{Value: "ORDER#2026-12-01T08:00:00Z"},
		"total":  &types.AttributeValueMemberN{Value: "129.95"},
		"status": &types.AttributeValueMemberS{Value: "pending"},
		"items": &types.AttributeValueMemberL{Value: []types.AttributeValue{
			&types.AttributeValueMemberS{Value: "SKU-1"}, &types.AttributeValueMemberS{Value: "SKU-2"}}},
		"note": &types.AttributeValueMemberS{Value: "leave at the door, ring twice, thank you"},
	})
}

// benchScale is the number of items of the large-scale benchmarks: 1M with
// DYNAMO_BENCH_SCALE=1 (slow to set up), else small.
func benchScale(small int) int {
	if os.Getenv("DYNAMO_BENCH_SCALE") == "1" {
		return 1_000_000
	}
	return small
}

// BenchmarkOpen is a restart to the first Get: Open of a data directory
// holding n items, half in the snapshot and half in the log after it (the
// state a compaction leaves half a threshold later). read-files is reading
// the same files into memory: the floor Open is measured against. Each
// iteration starts, as a restart does, with no garbage from the one
// before: it is collected outside the measurement, so both read into
// memory the process already has.
func BenchmarkOpen(b *testing.B) {
	n := benchScale(50_000)
	dir := b.TempDir()
	e := open(b, dir, disk.WithSyncMode(disk.SyncPeriodic), disk.WithCompactThreshold(1<<40))
	c := coll(b, e, "c")
	for i := range n {
		if i == n/2 {
			must(b, e.Compact())
		}
		if _, _, err := c.Put(fmt.Appendf(nil, "k%010d", i), benchItem(i)); err != nil {
			b.Fatal(err)
		}
	}
	must(b, e.Close())
	var bytes int64
	settle := func(b *testing.B, cpu *cpuClock) {
		b.StopTimer()
		cpu.pause()
		runtime.GC()
		cpu.resume()
		b.StartTimer()
	}
	b.Run("read-files", func(b *testing.B) {
		cpu := startCPU()
		for range b.N {
			settle(b, cpu)
			bytes = 0
			ents, err := os.ReadDir(dir)
			must(b, err)
			for _, ent := range ents {
				data, err := os.ReadFile(filepath.Join(dir, ent.Name()))
				must(b, err)
				bytes += int64(len(data))
			}
		}
		cpu.report(b)
		b.ReportMetric(float64(bytes)/1e6, "MB")
	})
	b.Run("open", func(b *testing.B) {
		b.ReportAllocs()
		cpu := startCPU()
		for range b.N {
			settle(b, cpu)
			e := open(b, dir)
			c := coll(b, e, "c")
			if _, ok, err := c.Get(fmt.Appendf(nil, "k%010d", n-1)); !ok || err != nil {
				b.Fatalf("last item: %v %v", ok, err)
			}
			if c.Len() != n {
				b.Fatalf("%d items, want %d", c.Len(), n)
			}
			must(b, e.Close())
		}
		cpu.report(b)
		b.ReportMetric(float64(n), "items")
	})
}

// BenchmarkPutParallel8 is 8 writers putting ~170-byte items:
//
//	memory      the in-memory engine: the CPU cost of a write without a disk
//	durable     SyncAlways with group commit
//	periodic    SyncPeriodic (fsync every 100ms)
//	fsync-bound one writer fsyncing a small append to a file in the same
//	            directory: the disk's synchronous-write latency (its
//	            ns/op); 8 writers can at best commit 8 per fsync, so the
//	            durable case is bounded by 8 / that latency.
//
// Compare durable's ns/op with fsync-bound's ns/op / 8, or better with
// its own bound-ns/op (its fsyncs' mean duration / 8: the disk's latency
// during the same run, which on a shared disk varies from run to run),
// and the cpu-ns/op
// (process CPU time per write) of durable with memory's. The kernel's own
// CPU time for an fsync (fsync-bound's cpu-ns/op, hundreds of µs on a
// cloud VM) is shared by the writes of a group; durable's
// engine-cpu-ns/op leaves it out (when fsync-bound ran first), which is
// what the engine itself costs.
func BenchmarkPutParallel8(b *testing.B) {
	var fsyncCPU float64 // fsync-bound's CPU time per fsync
	b.Run("fsync-bound", func(b *testing.B) {
		f, err := os.OpenFile(filepath.Join(b.TempDir(), "f"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		must(b, err)
		defer f.Close()
		rec := make([]byte, 200)
		cpu := startCPU()
		b.ResetTimer()
		for range b.N {
			_, err := f.Write(rec)
			must(b, err)
			must(b, f.Sync())
		}
		b.StopTimer()
		fsyncCPU = cpu.report(b)
	})
	cases := []struct {
		name string
		open func(b *testing.B) storage.Engine
	}{
		{"memory", func(*testing.B) storage.Engine { return storage.NewMemory() }},
		{"durable", func(b *testing.B) storage.Engine {
			return open(b, b.TempDir(), disk.WithCompactThreshold(1<<40))
		}},
		{"periodic", func(b *testing.B) storage.Engine {
			return open(b, b.TempDir(), disk.WithSyncMode(disk.SyncPeriodic), disk.WithCompactThreshold(1<<40))
		}},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			e := tc.open(b)
			defer e.Close()
			c := coll(b, e, "c")
			var mu sync.Mutex // the memory engine leaves locking to its caller
			put := func(key []byte, it storage.Value) error {
				if _, ok := e.(*disk.Engine); !ok {
					mu.Lock()
					defer mu.Unlock()
				}
				_, _, err := c.Put(key, it)
				return err
			}
			var next atomic.Int64
			b.ReportAllocs()
			cpu := startCPU()
			b.ResetTimer()
			var wg sync.WaitGroup
			for range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						i := int(next.Add(1)) - 1
						if i >= b.N {
							return
						}
						if err := put(fmt.Appendf(nil, "k%010d", i), benchItem(i)); err != nil {
							b.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
			b.StopTimer()
			perOp := cpu.report(b)
			if d, ok := e.(*disk.Engine); ok {
				st := d.Stats()
				b.ReportMetric(float64(st.Writes)/float64(max(st.Syncs, 1)), "writes/fsync")
				if tc.name == "durable" {
					// The bound, measured in this run: 8 writes per fsync.
					b.ReportMetric(float64(st.SyncTime)/float64(max(st.Syncs, 1))/8, "bound-ns/op")
					if fsyncCPU > 0 {
						b.ReportMetric(perOp-fsyncCPU*float64(st.Syncs)/float64(b.N), "engine-cpu-ns/op")
					}
				}
			}
		})
	}
}
