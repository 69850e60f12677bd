package disk_test

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
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
	offsets := putRecords(t, e, n)
	must(t, e.Close())
	b, err := os.ReadFile(filepath.Join(dir, "wal.1"))
	must(t, err)
	if int64(len(b)) != offsets[n] {
		t.Fatalf("log is %d bytes, Stats said %d", len(b), offsets[n])
	}
	return dir, b, offsets
}

var oneLogManifest struct {
	sync.Mutex
	b []byte
}

// manifestOfOneLog is the MANIFEST of a directory holding only wal.1.
func manifestOfOneLog(t *testing.T) []byte {
	t.Helper()
	oneLogManifest.Lock()
	defer oneLogManifest.Unlock()
	if oneLogManifest.b == nil {
		dir := t.TempDir()
		must(t, open(t, dir).Close())
		b, err := os.ReadFile(filepath.Join(dir, "MANIFEST"))
		must(t, err)
		oneLogManifest.b = b
	}
	return oneLogManifest.b
}

// logDir returns a new data directory holding log as wal.1.
func logDir(t *testing.T, log []byte) string {
	t.Helper()
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "wal.1"), log, 0o600))
	must(t, os.WriteFile(filepath.Join(dir, "MANIFEST"), manifestOfOneLog(t), 0o600))
	return dir
}

// recovered opens a directory holding log and returns how many of the
// writeLog records came back, checking they are a prefix (records 0..k-1).
func recovered(t *testing.T, log []byte, opts ...disk.Option) (int, error) {
	t.Helper()
	dir := logDir(t, log)
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
		if torn := cut != off[n-1] && cut != off[n]; torn != strings.Contains(msgs.String(), "level=WARN msg=\"disk: dropped a torn record") {
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

// A flipped byte inside a record that is not the last one is damage no
// crash causes: a valid record follows it. Open refuses, naming the log and
// the offset and the way out, and leaves the files as they were. With
// WithTruncateDamagedLog it keeps a copy of the whole log, cuts it at the
// damage and recovers the records before it.
func TestCorruptRecordRefusesOpen(t *testing.T) {
	const n, bad = 5, 2
	_, log, off := writeLog(t, n)
	for at := off[bad]; at < off[bad+1]; at++ {
		damaged := append([]byte(nil), log...)
		damaged[at] ^= 0x40
		dir := logDir(t, damaged)
		_, err := disk.Open(dir, quiet)
		if !errors.Is(err, disk.ErrDamaged) {
			t.Fatalf("flip at %d: Open = %v, want ErrDamaged", at, err)
		}
		for _, want := range []string{filepath.Join(dir, "wal.1"), fmt.Sprintf("offset %d", off[bad]), "WithTruncateDamagedLog", "--truncate-damaged-log"} {
			if !strings.Contains(err.Error(), want) {
				t.Fatalf("flip at %d: error does not say %q: %v", at, want, err)
			}
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "wal.1")); !bytes.Equal(b, damaged) {
			t.Fatalf("flip at %d: a refused Open changed the log", at)
		}

		var msgs logBuffer
		e, err := disk.Open(dir, disk.WithTruncateDamagedLog(), disk.WithLogger(slog.New(slog.NewTextHandler(&msgs, nil))))
		if err != nil {
			t.Fatalf("flip at %d: with WithTruncateDamagedLog: %v", at, err)
		}
		if got := coll(t, e, "t").Len(); got != bad {
			t.Fatalf("flip at %d: recovered %d records, want %d", at, got, bad)
		}
		e.Close()
		if out := msgs.String(); !strings.Contains(out, "level=ERROR") || !strings.Contains(out, fmt.Sprintf("offset=%d", off[bad])) {
			t.Fatalf("flip at %d: message %q", at, out)
		}
		saved, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("wal.1.damaged-%d", off[bad])))
		if err != nil || !bytes.Equal(saved, damaged) {
			t.Fatalf("flip at %d: the damaged log was not kept: %v", at, err)
		}
	}
}

// A power cut can leave zeros inside the last, unacknowledged, write with
// records after them; so can damage. Open refuses, and says that
// truncating then loses nothing acknowledged if the machine lost power.
func TestZerosBeforeValidRecords(t *testing.T) {
	const n, bad = 5, 3
	_, log, off := writeLog(t, n)
	holed := append([]byte(nil), log...)
	clear(holed[off[bad]:off[bad+1]])
	_, err := recovered(t, holed)
	if !errors.Is(err, disk.ErrDamaged) || !strings.Contains(err.Error(), fmt.Sprintf("a valid record follows at offset %d after zeros", off[bad+1])) {
		t.Fatalf("Open = %v", err)
	}
	if got, err := recovered(t, holed, disk.WithTruncateDamagedLog()); err != nil || got != bad {
		t.Fatalf("with WithTruncateDamagedLog: %d records, %v", got, err)
	}
}

// Damage anywhere in the log never panics: in the last record it is a torn
// tail (every earlier record recovered), before it an ErrDamaged error,
// and a prefix of the writes with WithTruncateDamagedLog (a damaged file
// header is an error: the file is not ours).
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
		want := 0
		for want < n && off[want+1] <= at {
			want++
		}
		if want < n-1 {
			if !errors.Is(err, disk.ErrDamaged) {
				t.Fatalf("flip at %d in record %d of %d: %v, want ErrDamaged", at, want, n, err)
			}
			got, err = recovered(t, damaged, disk.WithTruncateDamagedLog())
		}
		if err != nil {
			t.Fatalf("flip at %d: %v", at, err)
		}
		if got != want {
			t.Fatalf("flip at %d: recovered %d, want %d", at, got, want)
		}
	}
}

// Zeros after the last record are where the log ends: the engine writes
// zeros ahead of its records (so that appends need only fdatasync), and a
// crash can also leave the file longer than what reached the disk. Neither
// is a torn write: no warning, and appends go where the zeros begin.
func TestZeroFilledTail(t *testing.T) {
	_, log, off := writeLog(t, 3)
	var msgs logBuffer
	damaged := append(log[:off[2]:off[2]], make([]byte, 100)...)
	got, err := recovered(t, damaged, disk.WithLogger(slog.New(slog.NewTextHandler(&msgs, nil))))
	if err != nil || got != 2 {
		t.Fatalf("recovered %d, %v", got, err)
	}
	if out := msgs.String(); out != "" {
		t.Fatalf("message %q", out)
	}
}

// putRecords writes n acknowledged puts (key %02d) to collection "t" of
// e, and returns the offset at which each record starts (plus the end).
func putRecords(t *testing.T, e *disk.Engine, n int) []int64 {
	t.Helper()
	c := coll(t, e, "t")
	offsets := []int64{e.Stats().LogBytes}
	for i := range n {
		k := fmt.Sprintf("%02d", i)
		_, _, err := c.Put([]byte(k), item(k))
		must(t, err)
		offsets = append(offsets, e.Stats().LogBytes)
	}
	return offsets
}

// crashedLog writes n acknowledged puts like writeLog, and returns the log
// as a crash leaves it: copied while the engine is open, with the zeros
// written ahead of the records where the platform preallocates.
func crashedLog(t *testing.T, n int) ([]byte, []int64) {
	t.Helper()
	dir := t.TempDir()
	e := open(t, dir)
	defer e.Close()
	offsets := putRecords(t, e, n)
	b, err := os.ReadFile(filepath.Join(dir, "wal.1"))
	must(t, err)
	if int64(len(b)) < offsets[n] || !bytes.Equal(b[offsets[n]:], make([]byte, len(b)-int(offsets[n]))) {
		t.Fatalf("log of %d bytes, %d of them records: not records then zeros", len(b), offsets[n])
	}
	if runtime.GOOS == "linux" && int64(len(b)) == offsets[n] {
		t.Fatalf("log of %d bytes: no zeros written ahead of the records", len(b))
	}
	return b, offsets
}

// A crash of an engine that preallocated its log recovers every
// acknowledged write, quietly, and later writes go after them (recovered
// checks that they survive a reopen; writeLog, that a closed log ends at
// its last record).
func TestCrashWithPreallocatedLog(t *testing.T) {
	const n = 4
	log, _ := crashedLog(t, n)
	var msgs logBuffer
	if got, err := recovered(t, log, disk.WithLogger(slog.New(slog.NewTextHandler(&msgs, nil)))); err != nil || got != n {
		t.Fatalf("recovered %d, %v", got, err)
	}
	if out := msgs.String(); out != "" {
		t.Fatalf("message %q", out)
	}
}

// A crash mid-append into the zeros written ahead leaves the last record
// cut short (the rest of it zeros), or its header not yet on disk and the
// rest of it there: either is a torn tail, dropped with a warning, and
// every earlier record is kept.
func TestTornRecordBeforeZeros(t *testing.T) {
	const n = 4
	log, off := crashedLog(t, n)
	// saved says whether the record's bytes are kept aside: only when it
	// is not simply cut short.
	check := func(what string, torn []byte, saved bool) {
		t.Helper()
		var msgs logBuffer
		got, err := recovered(t, torn, disk.WithLogger(slog.New(slog.NewTextHandler(&msgs, nil))))
		if err != nil || got != n-1 {
			t.Fatalf("%s: recovered %d, %v; want %d", what, got, err, n-1)
		}
		out := msgs.String()
		if !strings.Contains(out, "level=WARN msg=\"disk: dropped a torn record") || strings.Contains(out, "saved=/") != saved {
			t.Fatalf("%s: message %q", what, out)
		}
	}
	for cut := off[n-1] + 1; cut < off[n]; cut++ {
		torn := slices.Clone(log)
		clear(torn[cut:off[n]])
		check(fmt.Sprintf("cut at %d", cut), torn, false)
	}
	torn := slices.Clone(log)
	clear(torn[off[n-1] : off[n-1]+8])
	check("header lost", torn, true)
}

// Damage in a log that is not the newest (one kept by a failed compaction)
// is never a torn write: that log was complete and fsynced before the next
// one began. Open refuses; with WithTruncateDamagedLog it drops the rest of
// the log and every newer log (their records came later).
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
	if _, err := disk.Open(dir, quiet); !errors.Is(err, disk.ErrDamaged) || !strings.Contains(err.Error(), "wal.2") {
		t.Fatalf("Open with a damaged older log: %v", err)
	}
	var msgs logBuffer
	e, err = disk.Open(dir, disk.WithTruncateDamagedLog(), disk.WithLogger(slog.New(slog.NewTextHandler(&msgs, nil))))
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
