package disk_test

import (
	"fmt"
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
	it := storage.Item{
		"pk":    &types.AttributeValueMemberS{Value: "USER#0000000042"},
		"sk":    &types.AttributeValueMemberS{Value: "ORDER#2026-12-01T08:00:00Z"},
		"total": &types.AttributeValueMemberN{Value: "129.95"},
		"items": &types.AttributeValueMemberL{Value: []types.AttributeValue{
			&types.AttributeValueMemberS{Value: "SKU-1"}, &types.AttributeValueMemberS{Value: "SKU-2"}}},
		"note": &types.AttributeValueMemberS{Value: "leave at the door, ring twice, thank you"},
	}
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
		c.Put(fmt.Appendf(nil, "k%06d", i), storage.Item{
			"pk": &types.AttributeValueMemberS{Value: fmt.Sprintf("USER#%06d", i)},
			"n":  &types.AttributeValueMemberN{Value: "12345"},
			"s":  &types.AttributeValueMemberS{Value: "some text of a typical length here"},
		})
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
			it := storage.Item{
				"pk":   &types.AttributeValueMemberS{Value: "USER#0000000042"},
				"sk":   &types.AttributeValueMemberS{Value: "ORDER#2026-12-01T08:00:00Z"},
				"note": &types.AttributeValueMemberS{Value: "leave at the door, ring twice, thank you, and more text here"},
			}
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
