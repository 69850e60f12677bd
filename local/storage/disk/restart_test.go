package disk_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/dynamogo/dynamo/local/storage"
	"github.com/dynamogo/dynamo/local/storage/disk"
)

// Open keeps items in the blocks it read the files into. Updates and
// deletes before and after a restart leave blocks partly stale; every
// restart still sees exactly the writes made, and a Value read before its
// item was replaced keeps its bytes.
func TestRestartAfterUpdatesAndDeletes(t *testing.T) {
	dir := t.TempDir()
	opts := []disk.Option{disk.WithSyncMode(disk.SyncPeriodic), disk.WithCompactThreshold(1 << 40)}
	m := model{}
	write := func(e *disk.Engine, round, n, every int, del bool) {
		c := coll(t, e, "c")
		for i := 0; i < n; i += every {
			k := fmt.Sprintf("k%05d", i)
			if del {
				_, _, err := c.Delete([]byte(k))
				must(t, err)
				delete(m["c"], k)
				continue
			}
			v := fmt.Sprintf("%s@%d%s", k, round, strings.Repeat(".", i%300))
			_, _, err := c.Put([]byte(k), item(v))
			must(t, err)
			m.put("c", k, v)
		}
	}
	const n = 6000 // several blocks of the snapshot and of the log
	e := open(t, dir, opts...)
	write(e, 0, n, 1, false)
	must(t, e.Compact())
	write(e, 1, n, 3, false) // the log replaces a third of the snapshot's items
	write(e, 1, n, 7, true)
	must(t, e.Close())
	for round := 2; round < 5; round++ {
		e = open(t, dir, opts...)
		m.check(t, e)
		c := coll(t, e, "c")
		var held storage.Value // the first item, which the writes replace
		must(t, c.Ascend(nil, nil, func(_ []byte, v storage.Value) bool {
			held = v
			return false
		}))
		was := val(held)
		write(e, round, n, round, false)
		write(e, round, n, 2*round+1, true)
		if round == 3 {
			must(t, e.Compact())
		}
		runtime.GC()
		if got := val(held); got != was {
			t.Fatalf("a Value read before its item was replaced changed from %q to %q", was, got)
		}
		m.check(t, e)
		must(t, e.Close())
	}
	e = open(t, dir, opts...)
	defer e.Close()
	m.check(t, e)
}

// The memory a restart's items hold is at most the size of the files it
// read, and the items' own once they are all replaced: each block of a
// file stays allocated while one of its items is stored, and is freed once
// none is.
func TestRestartMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 20k items of 0.5 KB several times")
	}
	dir := t.TempDir()
	// The files are read into blocks, not mapped, through a file system
	// that is not the os package's.
	opts := []disk.Option{disk.WithSyncMode(disk.SyncPeriodic), disk.WithCompactThreshold(1 << 40), disk.WithFaults(noFaults)}
	const n = 20000
	value := func(i, round int) storage.Value {
		return item(fmt.Sprintf("%06d@%d%s", i, round, strings.Repeat("x", 500)))
	}
	e := open(t, dir, opts...)
	c := coll(t, e, "c")
	for i := range n {
		_, _, err := c.Put(fmt.Appendf(nil, "k%06d", i), value(i, 0))
		must(t, err)
	}
	must(t, e.Compact())
	must(t, e.Close())
	heap := func() int64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapAlloc)
	}
	// What the engine holds besides items: the tree (a 24-byte slot per
	// item and its share of a node), the log's buffers.
	const other = n*48 + 2<<20
	// restart opens the directory, replaces every item but one in keep
	// and returns the size of the files it read and the heap the engine
	// held after the restart and after the writes.
	restart := func(round, keep int) (files, loaded, held int64) {
		for _, name := range []string{"snapshot", "wal.2"} {
			st, err := os.Stat(filepath.Join(dir, name))
			must(t, err)
			files += st.Size()
		}
		base := heap()
		e := open(t, dir, opts...)
		c := coll(t, e, "c")
		loaded = heap() - base
		for i := range n {
			if i%keep != 0 {
				_, _, err := c.Put(fmt.Appendf(nil, "k%06d", i), value(i, round))
				must(t, err)
			}
		}
		must(t, e.Sync())
		held = heap() - base
		must(t, e.Close())
		t.Logf("round %d: files %d B; held after the restart %d B, after replacing all but every %dth item %d B", round, files, loaded, keep, held)
		return files, loaded, held
	}
	// Every item replaced: the blocks are freed, the engine holds the new
	// items alone (about the size of the snapshot), not the blocks too.
	files, loaded, held := restart(1, n)
	if loaded > files+other {
		t.Errorf("after a restart the engine holds %d bytes, more than the %d of the files read", loaded, files)
	}
	if held > files*5/4+other {
		t.Errorf("with every item replaced but one, the engine holds %d bytes: the blocks of the %d of files read were not freed", held, files)
	}
	// The worst case: an item left in every block keeps them all; the
	// engine holds the files read plus the new items.
	files, loaded, held = restart(2, 50)
	if loaded > files+other {
		t.Errorf("after a restart the engine holds %d bytes, more than the %d of the files read", loaded, files)
	}
	if held > 2*files+other {
		t.Errorf("with an item kept in every block, the engine holds %d bytes, more than the %d of the files read and the new items", held, files)
	}
}

// A restart allocates per block of the files, not per item: the items
// stay where they were read.
func TestRestartAllocatesPerBlock(t *testing.T) {
	dir := t.TempDir()
	e := open(t, dir, disk.WithSyncMode(disk.SyncPeriodic))
	c := coll(t, e, "c")
	const n = 20000
	for i := range n {
		if i == n/2 {
			must(t, e.Compact())
		}
		_, _, err := c.Put(fmt.Appendf(nil, "k%06d", i), item(fmt.Sprint(i)))
		must(t, err)
	}
	must(t, e.Close())
	allocs := testing.AllocsPerRun(3, func() {
		e := open(t, dir, disk.WithFaults(noFaults)) // read, not mapped
		if c := coll(t, e, "c"); c.Len() != n {
			t.Fatalf("%d items, want %d", c.Len(), n)
		}
		must(t, e.Close())
	})
	// The blocks; the log's half is put item by item (two allocations per
	// node, one node per ~60 items), the snapshot's half built from a few
	// slabs; and little else.
	if allocs > n/32 {
		t.Fatalf("a restart of %d items made %.0f allocations", n, allocs)
	}
	t.Logf("a restart of %d items: %.0f allocations", n, allocs)
}

// noFaults is a fault hook that fails nothing: files go through a file
// system that is not the os package's, so Open reads them into blocks.
func noFaults(op, name string) error { return nil }

// A restart builds each collection of the snapshot at once from its items
// in key order, and replays the log after it write by write: it reads back
// every item of collections of every size, and writes in any order after
// it land as on a tree built by writes.
func TestRestartBuildsFromSnapshot(t *testing.T) {
	dir := t.TempDir()
	opts := []disk.Option{disk.WithSyncMode(disk.SyncPeriodic), disk.WithCompactThreshold(1 << 40)}
	sizes := []int{1, 62, 63, 64, 200, 30000}
	r := rand.New(rand.NewPCG(15, 16))
	m := model{}
	write := func(e *disk.Engine, round, n int) {
		for range n {
			name := fmt.Sprintf("c%d", r.IntN(len(sizes)))
			c := coll(t, e, name)
			k := fmt.Sprintf("k%06d", r.IntN(2*sizes[name[1]-'0']+2))
			if r.IntN(3) == 0 {
				_, _, err := c.Delete([]byte(k))
				must(t, err)
				delete(m[name], k)
				continue
			}
			v := fmt.Sprintf("%s@%d", k, round)
			_, _, err := c.Put([]byte(k), item(v))
			must(t, err)
			m.put(name, k, v)
		}
	}
	e := open(t, dir, opts...)
	for i, n := range sizes {
		name := fmt.Sprintf("c%d", i)
		c := coll(t, e, name)
		for _, j := range r.Perm(n) {
			k, v := fmt.Sprintf("k%06d", 2*j), fmt.Sprintf("v%d", j)
			_, _, err := c.Put([]byte(k), item(v))
			must(t, err)
			m.put(name, k, v)
		}
	}
	must(t, e.Compact())
	write(e, 1, 2000) // a log after the snapshot
	must(t, e.Close())
	for round := 2; round < 4; round++ {
		e = open(t, dir, opts...)
		m.check(t, e)
		write(e, round, 20000)
		m.check(t, e)
		must(t, e.Compact())
		must(t, e.Close())
	}
	e = open(t, dir, opts...)
	defer e.Close()
	m.check(t, e)
}
