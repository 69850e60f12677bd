package disk_test

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/local/storage"
	"github.com/dynamogo/dynamo/local/storage/disk"
	"github.com/dynamogo/dynamo/local/storage/storagetest"
)

// quiet discards the engine's log; tests that check messages pass their own.
var quiet = disk.WithLogger(slog.New(slog.DiscardHandler))

func open(t testing.TB, dir string, opts ...disk.Option) *disk.Engine {
	t.Helper()
	e, err := disk.Open(dir, append([]disk.Option{quiet}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func sv(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }

func item(v string) storage.Value { return storage.MustEncode(storage.Item{"v": sv(v)}) }

func val(v storage.Value) string {
	if v.IsZero() {
		return "<nil>"
	}
	it, err := v.Item()
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return it["v"].(*types.AttributeValueMemberS).Value
}

func coll(t testing.TB, e storage.Engine, name string) storage.Collection {
	t.Helper()
	c, err := e.Collection(name)
	must(t, err)
	return c
}

// contents is a collection as key=value strings, in order.
func contents(t testing.TB, c storage.Collection) []string {
	t.Helper()
	var out []string
	must(t, c.Ascend(nil, nil, func(k []byte, it storage.Value) bool {
		out = append(out, string(k)+"="+val(it))
		return true
	}))
	return out
}

// The conformance suite runs with periodic sync (it makes tens of thousands
// of writes: at a millisecond an fsync that is most of a minute; the
// durability tests below use SyncAlways), and again with a tiny compaction
// threshold, so compactions run between its writes.
func TestConformance(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storage.Engine {
		return open(t, t.TempDir(), disk.WithSyncMode(disk.SyncPeriodic))
	})
}

func TestConformanceCompacting(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storage.Engine {
		return open(t, t.TempDir(), disk.WithSyncMode(disk.SyncPeriodic), disk.WithCompactThreshold(16<<10))
	})
}

// TestPutAtLogged checks that a write through a Slot (storage.Finder),
// alone or in a batch, is logged like any other: a reopened engine has it.
func TestPutAtLogged(t *testing.T) {
	dir := t.TempDir()
	e := open(t, dir)
	a := coll(t, e, "a")
	for i := range 100 {
		k := fmt.Sprintf("k%02d", i)
		_, _, err := a.Put([]byte(k), item(k))
		must(t, err)
	}
	f := a.(storage.Finder)
	v, at, err := f.Find([]byte("k05"))
	must(t, err)
	if val(v) != "k05" || at == (storage.Slot{}) {
		t.Fatalf("Find(k05) = %s, %v", val(v), at)
	}
	old, replaced, err := f.PutAt(at, []byte("k05"), item("five"))
	must(t, err)
	if val(old) != "k05" || !replaced {
		t.Fatalf("PutAt(k05) = %s, %v", val(old), replaced)
	}
	_, at, err = f.Find([]byte("k06"))
	must(t, err)
	must(t, e.Apply([]storage.Op{storage.PutAt(a, []byte("k06"), item("six"), at)}))
	want := contents(t, a)
	if want[5] != "k05=five" || want[6] != "k06=six" {
		t.Fatalf("before reopen: %v", want[:8])
	}
	must(t, e.Close())

	e = open(t, dir)
	defer e.Close()
	if got := contents(t, coll(t, e, "a")); !slices.Equal(got, want) {
		t.Fatalf("a after reopen = %v, want %v", got, want)
	}
}

func TestReopen(t *testing.T) {
	dir := t.TempDir()
	e := open(t, dir)
	a, b := coll(t, e, "a"), coll(t, e, "b")
	for i := range 10 {
		k := fmt.Sprintf("k%d", i)
		_, _, err := a.Put([]byte(k), item(k))
		must(t, err)
	}
	_, _, err := a.Delete([]byte("k3"))
	must(t, err)
	_, _, err = a.Put([]byte("k4"), item("four"))
	must(t, err)
	_, _, err = b.Put([]byte{0, 1, 0}, storage.MustEncode(storage.Item{"all": &types.AttributeValueMemberM{Value: allTypes()}}))
	must(t, err)
	must(t, e.PutMeta("table/a", []byte(`{"a":1}`)))
	must(t, e.PutMeta("table/gone", []byte(`{}`)))
	must(t, e.PutMeta("table/gone", nil))
	must(t, e.Drop("b"))
	c := coll(t, e, "b") // recreated after the drop
	_, _, err = c.Put([]byte("new"), item("new"))
	must(t, err)
	want := contents(t, a)
	must(t, e.Close())

	e = open(t, dir)
	defer e.Close()
	if got := contents(t, coll(t, e, "a")); !slices.Equal(got, want) {
		t.Fatalf("a after reopen = %v, want %v", got, want)
	}
	if got := contents(t, coll(t, e, "b")); !slices.Equal(got, []string{"new=new"}) {
		t.Fatalf("b after reopen = %v", got)
	}
	m, err := e.Meta()
	must(t, err)
	if len(m) != 1 || string(m["table/a"]) != `{"a":1}` {
		t.Fatalf("Meta after reopen = %q", m)
	}
}

// Every attribute type survives the log and the snapshot unchanged.
func TestAllTypesRoundTrip(t *testing.T) {
	for _, compact := range []bool{false, true} {
		dir := t.TempDir()
		e := open(t, dir)
		want := storage.Item{"m": &types.AttributeValueMemberM{Value: allTypes()}, "s": sv("x")}
		_, _, err := coll(t, e, "c").Put([]byte("k"), storage.MustEncode(want))
		must(t, err)
		if compact {
			must(t, e.Compact())
		}
		must(t, e.Close())
		e = open(t, dir)
		v, ok, err := coll(t, e, "c").Get([]byte("k"))
		must(t, err)
		got, err := v.Item()
		must(t, err)
		if !ok || !equalItems(got, want) {
			t.Fatalf("compact=%v: got %#v", compact, got)
		}
		e.Close()
	}
}

func allTypes() map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		"S":     sv("héllo\x00"),
		"Empty": sv(""),
		"N":     &types.AttributeValueMemberN{Value: "-1.5E+10"},
		"B":     &types.AttributeValueMemberB{Value: []byte{0, 1, 255}},
		"T":     &types.AttributeValueMemberBOOL{Value: true},
		"F":     &types.AttributeValueMemberBOOL{Value: false},
		"NULL":  &types.AttributeValueMemberNULL{Value: true},
		"L":     &types.AttributeValueMemberL{Value: []types.AttributeValue{sv("a"), &types.AttributeValueMemberL{}, &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"x": sv("y")}}}},
		"SS":    &types.AttributeValueMemberSS{Value: []string{"a", "b"}},
		"NS":    &types.AttributeValueMemberNS{Value: []string{"1", "2.5"}},
		"BS":    &types.AttributeValueMemberBS{Value: [][]byte{{1}, {}}},
		"M":     &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}},
	}
}

func equalItems(a, b storage.Item) bool {
	return fmt.Sprintf("%#v", flatten(a)) == fmt.Sprintf("%#v", flatten(b))
}

// flatten renders a value tree deterministically (maps sorted).
func flatten(v any) string {
	switch x := v.(type) {
	case storage.Item:
		return flatten(&types.AttributeValueMemberM{Value: x})
	case *types.AttributeValueMemberM:
		var parts []string
		for k, m := range x.Value {
			parts = append(parts, k+":"+flatten(m))
		}
		slices.Sort(parts)
		return "M{" + strings.Join(parts, ",") + "}"
	case *types.AttributeValueMemberL:
		var parts []string
		for _, m := range x.Value {
			parts = append(parts, flatten(m))
		}
		return "L[" + strings.Join(parts, ",") + "]"
	default:
		return fmt.Sprintf("%T%v", v, v)
	}
}

func TestLock(t *testing.T) {
	dir := t.TempDir()
	e := open(t, dir)
	if _, err := disk.Open(dir, quiet); !errors.Is(err, disk.ErrLocked) {
		t.Fatalf("second Open: %v, want ErrLocked", err)
	}
	must(t, e.Close())
	e = open(t, dir)
	must(t, e.Close())
	must(t, e.Close()) // a second Close is harmless
	if _, err := e.Collection("c"); !errors.Is(err, storage.ErrClosed) {
		t.Fatalf("Collection after Close: %v", err)
	}
}

func TestBadOptions(t *testing.T) {
	if _, err := disk.Open(t.TempDir(), disk.WithSyncMode(7)); err == nil {
		t.Error("unknown sync mode accepted")
	}
	if _, err := disk.Open(t.TempDir(), disk.WithSyncInterval(0)); err == nil {
		t.Error("zero interval accepted")
	}
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "wal.1"), []byte("not a log at all"), 0o644))
	if _, err := disk.Open(dir, quiet); err == nil || !strings.Contains(err.Error(), "not a log file") {
		t.Errorf("foreign file: %v", err)
	}
}

// model applies the same operations as an engine, to check it against.
type model map[string]map[string]string

func (m model) put(c, k, v string) {
	if m[c] == nil {
		m[c] = map[string]string{}
	}
	m[c][k] = v
}

func (m model) check(t *testing.T, e storage.Engine) {
	t.Helper()
	for name, kv := range m {
		var want []string
		for k, v := range kv {
			want = append(want, k+"="+v)
		}
		slices.Sort(want)
		c := coll(t, e, name)
		if got := contents(t, c); !slices.Equal(got, want) {
			t.Fatalf("collection %s: %d entries, want %d (first %v)", name, len(got), len(want), got[:min(3, len(got))])
		}
		var size int64
		must(t, c.Ascend(nil, nil, func(_ []byte, v storage.Value) bool { size += int64(v.Size()); return true }))
		if c.Size() != size {
			t.Fatalf("collection %s: Size %d, its items' sizes sum to %d", name, c.Size(), size)
		}
	}
}

// Random puts, deletes and drops with a small compaction threshold: the
// engine compacts many times and every reopen sees the model's state.
func TestCompactionReopen(t *testing.T) {
	dir := t.TempDir()
	opts := []disk.Option{disk.WithSyncMode(disk.SyncPeriodic), disk.WithCompactThreshold(8 << 10)}
	e := open(t, dir, opts...)
	m := model{}
	r := rand.New(rand.NewPCG(5, 6))
	compactions := uint64(0)
	for round := range 4 {
		for range 1500 {
			c := fmt.Sprintf("c%d", r.IntN(3))
			k := fmt.Sprintf("k%03d", r.IntN(200))
			switch x := r.IntN(100); {
			case x < 1:
				must(t, e.Drop(c))
				delete(m, c)
			case x < 30:
				_, _, err := coll(t, e, c).Delete([]byte(k))
				must(t, err)
				delete(m[c], k)
			default:
				v := fmt.Sprintf("%s@%d", k, round)
				_, _, err := coll(t, e, c).Put([]byte(k), item(v))
				must(t, err)
				m.put(c, k, v)
			}
		}
		must(t, e.PutMeta(fmt.Sprintf("round/%d", round), []byte("done")))
		// Compaction runs in the background: on a loaded machine the
		// compactor may not have run yet, so give it a moment.
		for start := time.Now(); e.Stats().Compactions == 0 && time.Since(start) < 2*time.Second; {
			time.Sleep(time.Millisecond)
		}
		compactions += e.Stats().Compactions
		m.check(t, e)
		must(t, e.Close())
		e = open(t, dir, opts...)
		m.check(t, e)
	}
	defer e.Close()
	if compactions == 0 {
		t.Fatal("the log never compacted")
	}
	meta, err := e.Meta()
	must(t, err)
	if len(meta) != 4 {
		t.Fatalf("Meta = %q", meta)
	}
}

// writeSome puts keys prefix00..prefix19 in a, deletes the even ones,
// and drops and recreates b around a put.
func writeSome(t *testing.T, e *disk.Engine, prefix string) {
	t.Helper()
	a := coll(t, e, "a")
	for i := range 20 {
		k := fmt.Sprintf("%s%02d", prefix, i)
		_, _, err := a.Put([]byte(k), item(k))
		must(t, err)
	}
	for i := range 10 {
		_, _, err := a.Delete(fmt.Appendf(nil, "%s%02d", prefix, i*2))
		must(t, err)
	}
	must(t, e.Drop("b"))
	_, _, err := coll(t, e, "b").Put([]byte(prefix), item(prefix))
	must(t, err)
}

func logFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "wal.*"))
	must(t, err)
	for i := range m {
		m[i] = filepath.Base(m[i])
	}
	return m
}

// A crash after the snapshot is renamed into place but before the logs it
// covers are removed leaves them behind: Open removes them, and the state
// is the snapshot's plus the newer log's. A leftover snapshot.tmp is a
// compaction cut short and is ignored.
func TestCrashAfterSnapshotRename(t *testing.T) {
	dir := t.TempDir()
	e := open(t, dir)
	writeSome(t, e, "x")
	must(t, e.Sync())
	oldLog, err := os.ReadFile(filepath.Join(dir, "wal.1"))
	must(t, err)
	must(t, e.Compact())
	if st := e.Stats(); st.Compactions != 1 || st.LogBytes != 8 || st.SnapshotBytes == 0 {
		t.Fatalf("after Compact: %+v", st)
	}
	if got := logFiles(t, dir); !slices.Equal(got, []string{"wal.2"}) {
		t.Fatalf("logs after Compact: %v", got)
	}
	writeSome(t, e, "y")
	want := contents(t, coll(t, e, "a"))
	must(t, e.Close())
	must(t, os.WriteFile(filepath.Join(dir, "wal.1"), oldLog, 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "snapshot.tmp"), []byte("half a snapshot"), 0o644))

	e = open(t, dir)
	defer e.Close()
	if got := contents(t, coll(t, e, "a")); !slices.Equal(got, want) {
		t.Fatalf("a = %v, want %v", got, want)
	}
	if got := contents(t, coll(t, e, "b")); !slices.Equal(got, []string{"y=y"}) {
		t.Fatalf("b = %v", got)
	}
	if got := logFiles(t, dir); !slices.Equal(got, []string{"wal.2"}) {
		t.Fatalf("logs after reopen: %v", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "snapshot.tmp")); !os.IsNotExist(err) {
		t.Fatalf("leftover snapshot.tmp: %v", err)
	}
}

// When writing the snapshot fails, nothing is lost: the engine keeps
// writing into the new log, Open replays every log in order, and the next
// compaction that succeeds removes them all.
func TestFailedCompaction(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "snapshot.tmp")
	must(t, os.MkdirAll(filepath.Join(blocker, "x"), 0o755)) // the snapshot cannot be created
	e := open(t, dir)
	for _, p := range []string{"x", "y", "z"} {
		writeSome(t, e, p)
		if err := e.Compact(); err == nil {
			t.Fatal("Compact succeeded without a place for the snapshot")
		}
	}
	want := contents(t, coll(t, e, "a"))
	must(t, e.Close())
	if got := logFiles(t, dir); len(got) != 4 {
		t.Fatalf("logs = %v", got)
	}
	e = open(t, dir)
	if got := contents(t, coll(t, e, "a")); !slices.Equal(got, want) {
		t.Fatalf("a = %v, want %v", got, want)
	}
	must(t, os.RemoveAll(blocker))
	must(t, e.Compact())
	must(t, e.Close())
	if got := logFiles(t, dir); !slices.Equal(got, []string{"wal.5"}) {
		t.Fatalf("logs after a good compaction: %v", got)
	}
	e = open(t, dir)
	defer e.Close()
	if got := contents(t, coll(t, e, "a")); !slices.Equal(got, want) {
		t.Fatalf("a = %v, want %v", got, want)
	}
	if got := contents(t, coll(t, e, "b")); !slices.Equal(got, []string{"z=z"}) {
		t.Fatalf("b = %v", got)
	}
}

func TestDamagedSnapshotFailsOpen(t *testing.T) {
	dir := t.TempDir()
	e := open(t, dir)
	_, _, err := coll(t, e, "a").Put([]byte("k"), item("v"))
	must(t, err)
	must(t, e.Compact())
	must(t, e.Close())
	path := filepath.Join(dir, "snapshot")
	b, err := os.ReadFile(path)
	must(t, err)
	for _, damage := range []func([]byte) []byte{
		func(b []byte) []byte { b[len(b)/2] ^= 1; return b },
		func(b []byte) []byte { return b[:len(b)-1] },
		func(b []byte) []byte { return append(b, b[8:]...) }, // records after the end marker
	} {
		must(t, os.WriteFile(path, damage(slices.Clone(b)), 0o644))
		if _, err := disk.Open(dir, quiet); err == nil || !strings.Contains(err.Error(), "snapshot") {
			t.Errorf("Open with a damaged snapshot: %v", err)
		}
	}
}

// Writers on many collections at once, with readers alongside, under -race;
// concurrent writers share fsyncs.
func TestConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	e := open(t, dir, disk.WithCompactThreshold(4<<10))
	const writers, perWriter = 8, 60
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(2)
		go func() {
			defer wg.Done()
			c := coll(t, e, fmt.Sprintf("w%d", w))
			for i := range perWriter {
				k := fmt.Sprintf("%03d", i)
				if _, _, err := c.Put([]byte(k), item(k)); err != nil {
					t.Error(err)
					return
				}
			}
		}()
		go func() { // a reader of another collection, and of the catalog
			defer wg.Done()
			c := coll(t, e, fmt.Sprintf("r%d", w))
			for range perWriter {
				c.Ascend(nil, nil, func([]byte, storage.Value) bool { return true })
				if _, err := e.Meta(); err != nil {
					t.Error(err)
				}
				e.Stats()
			}
		}()
	}
	wg.Wait()
	st := e.Stats()
	t.Logf("%d writes, %d fsyncs (%.1f writes per fsync), %d compactions", st.Writes, st.Syncs, float64(st.Writes)/float64(max(st.Syncs, 1)), st.Compactions)
	if st.Writes != writers*perWriter {
		t.Fatalf("Writes = %d", st.Writes)
	}
	must(t, e.Close())
	e = open(t, dir)
	defer e.Close()
	for w := range writers {
		if n := coll(t, e, fmt.Sprintf("w%d", w)).Len(); n != perWriter {
			t.Fatalf("w%d has %d items after reopen", w, n)
		}
	}
}

// Periodic sync fsyncs the log by itself, once per interval, with no Sync
// or Close: the writes of an interval are durable at its end.
func TestPeriodicSyncsEveryInterval(t *testing.T) {
	synced := make(chan struct{}, 1)
	var armed atomic.Bool
	e := open(t, t.TempDir(), disk.WithSyncMode(disk.SyncPeriodic), disk.WithSyncInterval(5*time.Millisecond),
		disk.WithFaults(func(op, name string) error {
			if op == "sync" && strings.HasPrefix(name, "wal.") && armed.Load() {
				select {
				case synced <- struct{}{}:
				default:
				}
			}
			return nil
		}))
	defer e.Close()
	for round := range 3 {
		// Nothing is left to fsync: the next fsync carries this write.
		armed.Store(true)
		_, _, err := coll(t, e, "a").Put(fmt.Appendf(nil, "%d", round), item("v"))
		must(t, err)
		<-synced // without the periodic fsync, the test binary's timeout ends it
		armed.Store(false)
	}
	// Each signal came from an fsync that started after the one before
	// had ended.
	if st := e.Stats(); st.Syncs < 2 || st.Writes != 3 {
		t.Fatalf("stats after three intervals: %+v", st)
	}
}

// Periodic sync still writes every record to the OS before returning, so a
// crash of the process (simulated: the files are copied while the engine is
// still open) loses nothing.
func TestPeriodicSurvivesProcessCrash(t *testing.T) {
	dir := t.TempDir()
	e := open(t, dir, disk.WithSyncMode(disk.SyncPeriodic), disk.WithSyncInterval(time.Hour))
	defer e.Close()
	for i := range 50 {
		_, _, err := coll(t, e, "a").Put(fmt.Appendf(nil, "%02d", i), item("v"))
		must(t, err)
	}
	if st := e.Stats(); st.Syncs != 0 {
		t.Fatalf("periodic mode fsynced on write: %+v", st)
	}
	crashed := copyDir(t, dir)
	e2 := open(t, crashed)
	defer e2.Close()
	if n := coll(t, e2, "a").Len(); n != 50 {
		t.Fatalf("recovered %d of 50 items", n)
	}
}

func copyDir(t testing.TB, dir string) string {
	t.Helper()
	out := t.TempDir()
	ents, err := os.ReadDir(dir)
	must(t, err)
	for _, ent := range ents {
		if ent.Name() == "LOCK" || !ent.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, ent.Name()))
		must(t, err)
		must(t, os.WriteFile(filepath.Join(out, ent.Name()), b, 0o644))
	}
	return out
}

// logBuffer collects the engine's log messages.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// Once Put returns under SyncAlways its record is in the file and fsynced:
// a copy of the directory taken right then (a crash) holds every write.
func TestAcknowledgedMeansDurable(t *testing.T) {
	dir := t.TempDir()
	e := open(t, dir)
	defer e.Close()
	c := coll(t, e, "a")
	for i := range 12 {
		_, _, err := c.Put(fmt.Appendf(nil, "%02d", i), item("v"))
		must(t, err)
		if st := e.Stats(); st.Syncs != uint64(i+1) {
			t.Fatalf("after %d serial writes, %d fsyncs", i+1, st.Syncs)
		}
		crashed := open(t, copyDir(t, dir))
		if n := coll(t, crashed, "a").Len(); n != i+1 {
			t.Fatalf("after %d acknowledged writes a crash keeps %d", i+1, n)
		}
		crashed.Close()
	}
}

// Steady writers fill each fsync: the writers one fsync releases are
// waited for by the next, instead of splitting into two groups that take
// turns with half of them each. Every fsync here is held until each
// writer still running has its next write under way, so without the wait
// the groups alternate and average writers/2.
func TestGroupCommitFillsEachFsync(t *testing.T) {
	const writers, perWriter = 8, 40
	var mu sync.Mutex
	changed := sync.NewCond(&mu)
	active, inPut, started := writers, 0, false
	hold := func(op, name string) error {
		if op == "sync" && strings.HasPrefix(name, "wal.") {
			mu.Lock()
			for started && inPut < active {
				changed.Wait()
			}
			mu.Unlock()
		}
		return nil
	}
	e := open(t, t.TempDir(), disk.WithFaults(hold), disk.WithCompactThreshold(1<<40))
	defer e.Close()
	c := coll(t, e, "c")
	base := e.Stats()
	mu.Lock()
	started = true
	mu.Unlock()
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { mu.Lock(); active--; changed.Broadcast(); mu.Unlock() }()
			for i := range perWriter {
				mu.Lock()
				inPut++
				changed.Broadcast()
				mu.Unlock()
				k := fmt.Sprintf("%d-%03d", w, i)
				_, _, err := c.Put([]byte(k), item(k))
				mu.Lock()
				inPut--
				mu.Unlock()
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	st := e.Stats()
	writes, syncs := st.Writes-base.Writes, st.Syncs-base.Syncs
	t.Logf("%d writes, %d fsyncs", writes, syncs)
	if per := float64(writes) / float64(syncs); per < 6 {
		t.Fatalf("%.1f writes per fsync with %d writers, want at least 6", per, writers)
	}
}

// The logs' writes are applied in key order, merged into the snapshot's
// items as they are read or, where the snapshot is loaded first, into its
// trees: random puts, deletes, batches and drops over keys in no order,
// many replacing a snapshot's items, with meta writes between them, come
// back as they were made, reopen after reopen, both ways.
func TestReplayInKeyOrder(t *testing.T) {
	for _, mode := range []string{"merged", "snapshotFirst", "chunked"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			opts := []disk.Option{disk.WithSyncMode(disk.SyncPeriodic), disk.WithCompactThreshold(1 << 40)}
			switch mode {
			case "snapshotFirst":
				opts = append(opts, disk.WithSnapshotFirst())
			case "chunked": // writes of one key and drops fall in different chunks
				opts = append(opts, disk.WithSnapshotFirst(), disk.WithReplayChunk(37))
			}
			e := open(t, dir, opts...)
			m := model{}
			meta := map[string]string{}
			r := rand.New(rand.NewPCG(7, 8))
			// Keys of 3 bytes, and of 6 sharing their first 4 bytes (none a
			// prefix of another, so that their order is that of "k=v").
			key := func() string {
				if r.IntN(2) == 0 {
					return fmt.Sprintf("%c%02d", 'a'+r.IntN(26), r.IntN(40))
				}
				return fmt.Sprintf("%c%02d/%02d", 'A'+r.IntN(3), r.IntN(3), r.IntN(30))
			}
			for round := range 5 {
				for range 800 {
					c := fmt.Sprintf("c%d", r.IntN(4))
					switch x := r.IntN(100); {
					case x < 2 && c == "c3": // c0 to c2 keep their snapshot items
						must(t, e.Drop(c))
						delete(m, c)
					case x < 4:
						k, v := fmt.Sprintf("m%d", r.IntN(5)), fmt.Sprintf("%d.%d", round, r.IntN(1000))
						must(t, e.PutMeta(k, []byte(v)))
						meta[k] = v
					case x < 25:
						k := key()
						_, _, err := coll(t, e, c).Delete([]byte(k))
						must(t, err)
						delete(m[c], k)
					case x < 40: // a batch, which may write a key twice
						var ops []storage.Op
						for range 1 + r.IntN(5) {
							k, v := key(), fmt.Sprintf("batch@%d.%d", round, r.IntN(1000))
							if r.IntN(4) == 0 {
								ops = append(ops, storage.Delete(coll(t, e, c), []byte(k)))
								delete(m[c], k)
								continue
							}
							ops = append(ops, storage.Put(coll(t, e, c), []byte(k), item(v)))
							m.put(c, k, v)
						}
						must(t, e.Apply(ops))
					default:
						k, v := key(), fmt.Sprintf("put@%d.%d", round, r.IntN(1000))
						_, _, err := coll(t, e, c).Put([]byte(k), item(v))
						must(t, err)
						m.put(c, k, v)
					}
				}
				if round == 1 || round == 3 {
					must(t, e.Compact()) // later rounds replace the snapshot's items
				}
				check := func() {
					t.Helper()
					m.check(t, e)
					got, err := e.Meta()
					must(t, err)
					for k, v := range meta {
						if string(got[k]) != v {
							t.Fatalf("meta %s = %q, want %q", k, got[k], v)
						}
					}
				}
				check()
				must(t, e.Close())
				e = open(t, dir, opts...)
				check()
				if round == 2 || round == 4 { // a snapshot, and a round of writes after it
					switch n := e.ReplayFlushes(); {
					case mode == "merged" && n != 0, mode == "snapshotFirst" && n != 1, mode == "chunked" && n < 10:
						t.Fatalf("round %d: the logs' writes went to the trees in %d chunks", round, n)
					}
				}
			}
			must(t, e.Close())
		})
	}
}

// Logs far larger than compactions keep them (compactions failed) are
// applied to the snapshot a chunk at a time, so that Open buffers a
// bounded number of their writes; logs of the usual size are merged.
func TestReplayChunksLogsCompactionsLeft(t *testing.T) {
	dir := t.TempDir()
	const threshold = 8 << 10
	opts := []disk.Option{disk.WithSyncMode(disk.SyncPeriodic), disk.WithCompactThreshold(threshold), disk.WithReplayChunk(100)}
	e := open(t, dir, opts...)
	m := model{}
	r := rand.New(rand.NewPCG(3, 4))
	write := func(n int) {
		for range n {
			k := fmt.Sprintf("k%03d", r.IntN(400))
			if r.IntN(5) == 0 {
				_, _, err := coll(t, e, "c").Delete([]byte(k))
				must(t, err)
				delete(m["c"], k)
				continue
			}
			v := fmt.Sprintf("v%d", r.IntN(1e6))
			_, _, err := coll(t, e, "c").Put([]byte(k), item(v))
			must(t, err)
			m.put("c", k, v)
		}
	}
	write(300)
	must(t, e.Compact())
	write(100)
	must(t, e.Close())
	e = open(t, dir, opts...)
	m.check(t, e)
	if n := e.ReplayFlushes(); n != 0 {
		t.Fatalf("a log smaller than the threshold was applied in %d chunks, not merged", n)
	}

	// A directory where the snapshot is written makes compactions fail.
	must(t, os.MkdirAll(filepath.Join(dir, "snapshot.tmp", "x"), 0o755))
	write(3000)
	must(t, e.Close())
	must(t, os.RemoveAll(filepath.Join(dir, "snapshot.tmp")))
	var logs int64
	ents, err := os.ReadDir(dir)
	must(t, err)
	for _, ent := range ents {
		if info, err := ent.Info(); err == nil && strings.HasPrefix(ent.Name(), "wal.") {
			logs += info.Size()
		}
	}
	if logs <= 4*threshold {
		t.Fatalf("the logs hold %d bytes: compactions were not held off", logs)
	}
	e = open(t, dir, opts...)
	m.check(t, e)
	if n := e.ReplayFlushes(); n < 20 {
		t.Fatalf("%d bytes of logs applied in %d chunks of 100 writes", logs, n)
	}
	write(100)
	must(t, e.Close())
	e = open(t, dir, opts...)
	m.check(t, e)
	must(t, e.Close())
}
