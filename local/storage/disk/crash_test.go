package disk_test

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dynamogo/dynamo/local/storage"
	"github.com/dynamogo/dynamo/local/storage/disk"
)

// writeLog writes n acknowledged puts (key %02d, one collection) to a fresh
// directory with SyncAlways, and returns the directory, the log's bytes and
// the offset at which each record starts (plus the end offset).
func writeLog(t *testing.T, n int) (string, []byte, []int64) {
	t.Helper()
	dir := t.TempDir()
	e := open(t, dir)
	c := coll(t, e, "t")
	offsets := []int64{e.Stats().LogBytes}
	for i := range n {
		k := fmt.Sprintf("%02d", i)
		_, _, err := c.Put([]byte(k), item(k))
		must(t, err)
		offsets = append(offsets, e.Stats().LogBytes)
	}
	must(t, e.Close())
	b, err := os.ReadFile(filepath.Join(dir, "wal.1"))
	must(t, err)
	if int64(len(b)) != offsets[n] {
		t.Fatalf("log is %d bytes, Stats said %d", len(b), offsets[n])
	}
	return dir, b, offsets
}

// recovered opens a directory holding log and returns how many of the
// writeLog records came back, checking they are a prefix (records 0..k-1).
func recovered(t *testing.T, log []byte, opts ...disk.Option) (int, error) {
	t.Helper()
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "wal.1"), log, 0o644))
	e, err := disk.Open(dir, append([]disk.Option{quiet}, opts...)...)
	if err != nil {
		return 0, err
	}
	defer e.Close()
	got := contents(t, coll(t, e, "t"))
	for i, kv := range got {
		if want := fmt.Sprintf("%02d=%02d", i, i); kv != want {
			t.Fatalf("recovered %v: not a prefix of the writes", got)
		}
	}
	// Recovery left a clean log: new writes go after the good prefix and
	// survive another reopen.
	_, _, err = coll(t, e, "t").Put([]byte("zz"), item("zz"))
	must(t, err)
	must(t, e.Close())
	e2 := open(t, dir)
	defer e2.Close()
	if n := coll(t, e2, "t").Len(); n != len(got)+1 {
		t.Fatalf("after recovery and one more write: %d items, want %d", n, len(got)+1)
	}
	return len(got), nil
}

// A crash mid-append leaves the last record cut at any byte: recovery
// drops it (the write was never acknowledged) and keeps every earlier one.
func TestTornTailAtEveryOffset(t *testing.T) {
	const n = 4
	_, log, off := writeLog(t, n)
	for cut := off[n-1]; cut <= off[n]; cut++ {
		var msgs logBuffer
		got, err := recovered(t, log[:cut], disk.WithLogger(slog.New(slog.NewTextHandler(&msgs, nil))))
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		want := n - 1
		if cut == off[n] {
			want = n
		}
		if got != want {
			t.Fatalf("cut at %d of %d: recovered %d records, want %d", cut, off[n], got, want)
		}
		if torn := cut != off[n-1] && cut != off[n]; torn != strings.Contains(msgs.String(), "incomplete record") {
			t.Fatalf("cut at %d: log message %q", cut, msgs.String())
		}
	}
	// A log whose header a crash cut short is an empty log.
	for cut := range off[0] {
		if got, err := recovered(t, log[:cut]); err != nil || got != 0 {
			t.Fatalf("header cut at %d: %d records, %v", cut, got, err)
		}
	}
}

// A flipped byte inside a record fails its checksum: that record and every
// later one are dropped, loudly, and kept aside in wal.1.corrupt-<offset>.
func TestCorruptRecordIsDropped(t *testing.T) {
	const n, bad = 5, 2
	_, log, off := writeLog(t, n)
	for at := off[bad]; at < off[bad+1]; at++ {
		damaged := append([]byte(nil), log...)
		damaged[at] ^= 0x40
		var msgs logBuffer
		dir := t.TempDir()
		must(t, os.WriteFile(filepath.Join(dir, "wal.1"), damaged, 0o644))
		e, err := disk.Open(dir, disk.WithLogger(slog.New(slog.NewTextHandler(&msgs, nil))))
		if err != nil {
			t.Fatalf("flip at %d: %v", at, err)
		}
		if got := coll(t, e, "t").Len(); got != bad {
			t.Fatalf("flip at %d: recovered %d records, want %d", at, got, bad)
		}
		e.Close()
		out := msgs.String()
		if !strings.Contains(out, fmt.Sprintf("offset=%d", off[bad])) {
			t.Fatalf("flip at %d: message does not name the record's offset: %q", at, out)
		}
		if at-off[bad] < 4 && strings.Contains(out, "incomplete record") {
			continue // a damaged length can read as a record running past the end
		}
		if !strings.Contains(out, "level=ERROR") || !strings.Contains(out, "corrupt") {
			t.Fatalf("flip at %d: message %q", at, out)
		}
		saved, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("wal.1.corrupt-%d", off[bad])))
		if err != nil || string(saved) != string(damaged[off[bad]:]) {
			t.Fatalf("flip at %d: the dropped bytes were not kept aside: %v", at, err)
		}
	}
}

// Damage anywhere in the log never panics and always recovers a prefix of
// the writes (a damaged file header is an error: the file is not ours).
func TestDamageAnywhere(t *testing.T) {
	const n = 3
	_, log, off := writeLog(t, n)
	for at := range int64(len(log)) {
		damaged := append([]byte(nil), log...)
		damaged[at] ^= 0xff
		got, err := recovered(t, damaged)
		if at < off[0] {
			if err == nil || !strings.Contains(err.Error(), "not a log file") {
				t.Fatalf("header flip at %d: %v", at, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("flip at %d: %v", at, err)
		}
		want := 0
		for want < n && off[want+1] <= at {
			want++
		}
		if got != want {
			t.Fatalf("flip at %d: recovered %d, want %d", at, got, want)
		}
	}
}

// A crash can leave the log longer than what reached the disk, the rest
// reading as zeros: that is a torn write (a warning), not corruption.
func TestZeroFilledTail(t *testing.T) {
	_, log, off := writeLog(t, 3)
	var msgs logBuffer
	damaged := append(log[:off[2]:off[2]], make([]byte, 100)...)
	got, err := recovered(t, damaged, disk.WithLogger(slog.New(slog.NewTextHandler(&msgs, nil))))
	if err != nil || got != 2 {
		t.Fatalf("recovered %d, %v", got, err)
	}
	if out := msgs.String(); !strings.Contains(out, "level=WARN") || !strings.Contains(out, "incomplete record") {
		t.Fatalf("message %q", out)
	}
}

// Damage in a log that is not the newest (one kept by a failed compaction)
// drops the rest of it and every newer log: their records came later.
func TestDamagedOlderLogDropsNewerLogs(t *testing.T) {
	dir := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(dir, "snapshot.tmp", "x"), 0o755)) // compactions fail
	e := open(t, dir)
	c := coll(t, e, "t")
	for i := range 6 {
		k := fmt.Sprintf("%02d", i)
		_, _, err := c.Put([]byte(k), item(k))
		must(t, err)
		if i%2 == 1 {
			e.Compact() // fails after starting the next log: two records a log
		}
	}
	must(t, e.Close())
	path := filepath.Join(dir, "wal.2")
	b, err := os.ReadFile(path)
	must(t, err)
	b[len(b)-3] ^= 1 // inside the second record of wal.2 (key 03)
	must(t, os.WriteFile(path, b, 0o644))
	var msgs logBuffer
	e, err = disk.Open(dir, disk.WithLogger(slog.New(slog.NewTextHandler(&msgs, nil))))
	must(t, err)
	defer e.Close()
	if got := contents(t, coll(t, e, "t")); strings.Join(got, " ") != "00=00 01=01 02=02" {
		t.Fatalf("recovered %v", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "wal.3.dropped")); err != nil {
		t.Fatalf("newer log not kept aside: %v; log: %s", err, msgs.String())
	}
	if !strings.Contains(msgs.String(), "follows a damaged one") {
		t.Fatalf("messages: %s", msgs.String())
	}
}

// A batch is one record: a crash that cuts it at any byte, or damage
// anywhere inside it, drops every one of its ops (the batch was never
// acknowledged), and the writes before it all survive.
func TestTornBatchAppliesNothing(t *testing.T) {
	dir := t.TempDir()
	e := open(t, dir)
	a, b := coll(t, e, "a"), coll(t, e, "b")
	_, _, err := a.Put([]byte("1"), item("before"))
	must(t, err)
	_, _, err = a.Put([]byte("2"), item("before"))
	must(t, err)
	start := e.Stats().LogBytes
	must(t, e.Apply([]storage.Op{
		storage.Put(a, []byte("1"), item("after")),
		storage.Delete(a, []byte("2")),
		storage.Put(a, []byte("3"), item("after")),
		storage.Put(b, []byte("1"), item("after")),
	}))
	end := e.Stats().LogBytes
	if st := e.Stats(); st.Writes != 3 {
		t.Fatalf("a batch of 4 ops was %d records, want 1", st.Writes-2)
	}
	must(t, e.Close())
	log, err := os.ReadFile(filepath.Join(dir, "wal.1"))
	must(t, err)
	if int64(len(log)) != end {
		t.Fatalf("log is %d bytes, Stats said %d", len(log), end)
	}
	const before, after = "a:1=before a:2=before", "a:1=after a:3=after b:1=after"
	state := func(log []byte) string {
		t.Helper()
		dir := t.TempDir()
		must(t, os.WriteFile(filepath.Join(dir, "wal.1"), log, 0o644))
		e := open(t, dir)
		defer e.Close()
		var out []string
		for _, name := range []string{"a", "b"} {
			for _, kv := range contents(t, coll(t, e, name)) {
				out = append(out, name+":"+kv)
			}
		}
		return strings.Join(out, " ")
	}
	if got := state(log); got != after {
		t.Fatalf("whole log: %s", got)
	}
	for cut := start; cut < end; cut++ {
		if got := state(log[:cut]); got != before {
			t.Fatalf("batch cut at %d of [%d, %d): recovered %s, want %s", cut, start, end, got, before)
		}
	}
	for at := start; at < end; at++ {
		damaged := append([]byte(nil), log...)
		damaged[at] ^= 0x10
		if got := state(damaged); got != before {
			t.Fatalf("flip at %d of [%d, %d): recovered %s, want %s", at, start, end, got, before)
		}
	}
}
