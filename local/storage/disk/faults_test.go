package disk_test

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/dynamogo/dynamo/local/storage/disk"
)

// A compaction that runs out of space (the snapshot does not fit) leaves
// the engine writing: every write is still acknowledged only once it is
// in the log, the engine reports itself healthy, the logs are kept, and a
// later compaction, once space is free, folds them into a snapshot.
func TestCompactionOnFullDiskIsRetried(t *testing.T) {
	dir := t.TempDir()
	var full atomic.Bool
	full.Store(true)
	compacted := make(chan error, 100)
	e := open(t, dir, disk.WithCompactThreshold(1<<10),
		disk.WithCompactHook(func(err error) { compacted <- err }),
		disk.WithFaults(func(op, name string) error {
			if full.Load() && op == "write" && name == "snapshot.tmp" {
				return syscall.ENOSPC
			}
			return nil
		}))
	defer func() { e.Close() }()
	c := coll(t, e, "a")
	n := 0
	put := func() {
		t.Helper()
		k := fmt.Sprintf("%04d", n)
		if _, _, err := c.Put([]byte(k), item(k)); err != nil {
			t.Fatalf("write %d: %v", n, err)
		}
		n++
	}
	// Write until a background compaction has failed, then some more.
	var err error
	for err == nil {
		put()
		select {
		case err = <-compacted:
		default:
		}
		if n > 10000 {
			t.Fatal("no compaction ran")
		}
	}
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("compaction: %v, want ENOSPC", err)
	}
	for range 20 {
		put()
	}
	if err := e.Health(); err != nil {
		t.Fatalf("Health after a failed compaction: %v", err)
	}
	if st := e.Stats(); st.FailedCompactions == 0 || st.Compactions != 0 {
		t.Fatalf("stats %+v", st)
	}
	if _, err := os.Stat(filepath.Join(dir, "snapshot.tmp")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a failed snapshot was left behind: %v", err)
	}
	// A crash now (a copy of the directory) keeps every acknowledged write.
	crashed := open(t, copyDir(t, dir))
	if got := coll(t, crashed, "a").Len(); got != n {
		t.Fatalf("a crash after the failed compaction keeps %d of %d writes", got, n)
	}
	crashed.Close()

	full.Store(false) // space is free again
	for err = errors.New("none yet"); err != nil; {
		put()
		select {
		case err = <-compacted:
		default:
		}
		if n > 20000 {
			t.Fatal("compaction was not retried")
		}
	}
	if st := e.Stats(); st.Compactions == 0 {
		t.Fatalf("stats %+v", st)
	}
	for range 5 {
		put()
	}
	must(t, e.Close())
	if got := logFiles(t, dir); len(got) != 1 {
		t.Fatalf("logs after the retried compaction: %v", got)
	}
	e = open(t, dir)
	if got := coll(t, e, "a").Len(); got != n {
		t.Fatalf("after reopening: %d of %d writes", got, n)
	}
}

// When the log itself cannot be written (the disk is full), the write
// fails, Health reports why (the server answers 503 on GET /), and every
// later call fails rather than serving memory the disk does not hold.
// Reopening once space is free recovers every acknowledged write; the half
// record the full disk left is a torn tail.
func TestFullDiskFailsLoudAndReopenRecovers(t *testing.T) {
	dir := t.TempDir()
	var full atomic.Bool
	faults := disk.WithFaults(func(op, name string) error {
		if full.Load() && op == "write" && strings.HasPrefix(name, "wal.") {
			return syscall.ENOSPC
		}
		return nil
	})
	e := open(t, dir, faults)
	c := coll(t, e, "a")
	for i := range 10 {
		k := fmt.Sprintf("%02d", i)
		_, _, err := c.Put([]byte(k), item(k))
		must(t, err)
	}
	must(t, e.Health())
	full.Store(true)
	if _, _, err := c.Put([]byte("lost"), item("lost")); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Put on a full disk: %v", err)
	}
	if err := e.Health(); !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), dir) {
		t.Fatalf("Health on a full disk: %v", err)
	}
	full.Store(false) // a broken engine stays broken: its log is in doubt
	if _, _, err := c.Put([]byte("later"), item("later")); err == nil {
		t.Fatal("a write after the failure succeeded")
	}
	if _, _, err := c.Get([]byte("00")); err == nil {
		t.Fatal("a read after the failure succeeded")
	}
	if err := e.Close(); err == nil {
		t.Fatal("Close of a broken engine reported success")
	}
	var msgs logBuffer
	e = open(t, dir, disk.WithLogger(slog.New(slog.NewTextHandler(&msgs, nil))))
	defer e.Close()
	must(t, e.Health())
	if got := contents(t, coll(t, e, "a")); len(got) != 10 || slices.Contains(got, "lost=lost") {
		t.Fatalf("after reopening: %v", got)
	}
	if !strings.Contains(msgs.String(), "torn record") {
		t.Fatalf("messages: %s", msgs.String())
	}
}

// A compaction that cannot even start the next log (no space for a new
// file) changes nothing, and is not retried on every write: only once the
// log has grown by another threshold.
func TestFailedCompactionWaitsBeforeRetrying(t *testing.T) {
	var attempts atomic.Int64
	e := open(t, t.TempDir(), disk.WithCompactThreshold(1<<10),
		disk.WithCompactHook(func(error) { attempts.Add(1) }),
		disk.WithFaults(func(op, name string) error {
			if op == "open" && name == "wal.2" {
				return syscall.ENOSPC
			}
			return nil
		}))
	c := coll(t, e, "a")
	for i := 0; attempts.Load() == 0; i++ {
		k := fmt.Sprintf("%04d", i)
		_, _, err := c.Put([]byte(k), item(k))
		must(t, err)
		if i > 10000 {
			t.Fatal("no compaction ran")
		}
	}
	for i := range 20 { // a few hundred bytes: less than the threshold
		k := fmt.Sprintf("x%02d", i)
		_, _, err := c.Put([]byte(k), item(k))
		must(t, err)
	}
	must(t, e.Close()) // waits for a running compaction
	if n := attempts.Load(); n != 1 {
		t.Fatalf("%d compaction attempts, want 1 until the log grows by another threshold", n)
	}
}

// Whichever file operation of a compaction fails (a full disk can fail any
// of them), the engine goes on writing, and reopening serves every
// acknowledged write: no step leaves a state Open cannot read, or reads
// as less.
func TestCompactionFailingAtEveryStep(t *testing.T) {
	var ops, failAt atomic.Int64
	faults := disk.WithFaults(func(op, name string) error {
		if ops.Add(1) == failAt.Load() {
			return syscall.ENOSPC
		}
		return nil
	})
	steps := int64(-1)
	write := func(e *disk.Engine, prefix string) {
		t.Helper()
		for _, c := range []string{"a", "b"} {
			_, _, err := coll(t, e, c).Put([]byte(prefix), item(prefix))
			must(t, err)
		}
	}
	for at := int64(1); steps < 0 || at <= steps; at++ {
		dir := t.TempDir()
		e := open(t, dir, faults)
		write(e, "x")
		ops.Store(0)
		if steps < 0 {
			must(t, e.Compact()) // count the steps of a compaction that works
			steps, at = ops.Load(), 0
			must(t, e.Close())
			continue
		}
		failAt.Store(at)
		cerr := e.Compact()
		failAt.Store(0)
		if err := e.Health(); err != nil {
			t.Fatalf("step %d of %d (Compact: %v): the engine broke: %v", at, steps, cerr, err)
		}
		write(e, "y")
		must(t, e.Close())
		e = open(t, dir)
		for _, c := range []string{"a", "b"} {
			if got := contents(t, coll(t, e, c)); !slices.Equal(got, []string{"x=x", "y=y"}) {
				t.Fatalf("step %d of %d (Compact: %v): reopened %s = %v", at, steps, cerr, c, got)
			}
		}
		must(t, e.Compact())
		must(t, e.Close())
	}
	t.Logf("failed each of the %d file operations of a compaction", steps)
	if steps < 8 {
		t.Fatalf("a compaction took only %d file operations", steps)
	}
}

// Whichever file operation of a recovery fails, Open reports it, and the
// next Open recovers the same writes: recovery never leaves a directory
// half repaired. The directory has a snapshot, a log with a torn tail (a
// complete record whose checksum fails, which recovery copies aside before
// cutting), and no MANIFEST (which recovery writes).
func TestOpenFailingAtEveryStep(t *testing.T) {
	var ops, failAt atomic.Int64
	faults := disk.WithFaults(func(op, name string) error {
		if ops.Add(1) == failAt.Load() {
			return syscall.ENOSPC
		}
		return nil
	})
	base := t.TempDir()
	e := open(t, base)
	_, _, err := coll(t, e, "a").Put([]byte("x"), item("x"))
	must(t, err)
	must(t, e.Compact())
	_, _, err = coll(t, e, "a").Put([]byte("y"), item("y"))
	must(t, err)
	must(t, e.Close())
	must(t, os.Remove(filepath.Join(base, "MANIFEST")))
	log := filepath.Join(base, "wal.2")
	b, err := os.ReadFile(log)
	must(t, err)
	must(t, os.WriteFile(log, append(b, 1, 0, 0, 0, 9, 9, 9, 9, 7), 0o600))

	steps := int64(-1)
	for at := int64(1); steps < 0 || at <= steps; at++ {
		dir := copyDir(t, base)
		ops.Store(0)
		if steps < 0 {
			must(t, open(t, dir, faults).Close()) // count the steps of an Open that works
			steps, at = ops.Load(), 0
			continue
		}
		failAt.Store(at)
		e, err := disk.Open(dir, quiet, faults)
		failAt.Store(0)
		if err == nil {
			e.Close() // a step whose failure does not matter (a best-effort removal)
		}
		e = open(t, dir)
		if got := contents(t, coll(t, e, "a")); !slices.Equal(got, []string{"x=x", "y=y"}) {
			t.Fatalf("step %d of %d (Open: %v): then recovered %v", at, steps, err, got)
		}
		must(t, e.Close())
	}
	t.Logf("failed each of the %d file operations of a recovery", steps)
}
