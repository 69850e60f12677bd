//go:build unix

package disk_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/dynamogo/dynamo/local/storage"
	"github.com/dynamogo/dynamo/local/storage/disk"
)

// Open maps the files it reads and keeps items where they lie in the
// mapping: the heap grows by the tree alone, not by the files. The items
// stay readable after a compaction deletes the files they lie in, and the
// next restart reads what the compaction wrote.
func TestRestartMapsFiles(t *testing.T) {
	dir := t.TempDir()
	opts := []disk.Option{disk.WithSyncMode(disk.SyncPeriodic), disk.WithCompactThreshold(1 << 40)}
	const n = 20000
	value := func(i, round int) storage.Value {
		return item(fmt.Sprintf("%06d@%d%s", i, round, strings.Repeat("x", 500)))
	}
	e := open(t, dir, opts...)
	c := coll(t, e, "c")
	for i := range n {
		if i == n/2 {
			must(t, e.Compact()) // half in the snapshot, half in the log
		}
		_, _, err := c.Put(fmt.Appendf(nil, "k%06d", i), value(i, 0))
		must(t, err)
	}
	must(t, e.Close())
	var files int64
	var read []os.FileInfo // the files the restart maps
	entries, err := os.ReadDir(dir)
	must(t, err)
	for _, de := range entries {
		if info, err := de.Info(); err == nil && (de.Name() == "snapshot" || strings.HasPrefix(de.Name(), "wal.")) {
			files += info.Size()
			read = append(read, info)
		}
	}
	heap := func() int64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapAlloc)
	}
	base := heap()
	e = open(t, dir, opts...)
	c = coll(t, e, "c")
	loaded := heap() - base
	t.Logf("files %d B, heap after the restart %d B", files, loaded)
	if loaded > files/4 {
		t.Errorf("a restart grew the heap by %d bytes for %d bytes of files: the items were copied, not mapped", loaded, files)
	}
	check := func(c storage.Collection, round func(i int) int) {
		t.Helper()
		for i := range n {
			got, ok, err := c.Get(fmt.Appendf(nil, "k%06d", i))
			must(t, err)
			if want := value(i, round(i)); !ok || got.Encoded() != want.Encoded() {
				t.Fatalf("item %d is not what was written", i)
			}
		}
	}
	for i := 0; i < n; i += 3 {
		_, _, err := c.Put(fmt.Appendf(nil, "k%06d", i), value(i, 1))
		must(t, err)
	}
	round := func(i int) int { return 1 - min(i%3, 1) }
	must(t, e.Compact()) // removes the files the items lie in
	for _, info := range read {
		if now, err := os.Stat(filepath.Join(dir, info.Name())); err == nil && os.SameFile(info, now) {
			t.Fatalf("the compaction kept %s", info.Name())
		}
	}
	check(c, round)
	must(t, e.Close())
	e = open(t, dir, opts...)
	defer e.Close()
	check(coll(t, e, "c"), round)
}
