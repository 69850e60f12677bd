package disk

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dynamogo/dynamo/local/storage"
)

// File names inside the data directory.
const (
	lockName     = "LOCK"
	logName      = "wal"
	snapshotName = "snapshot"
	snapshotTmp  = "snapshot.tmp"
)

// Each file starts with a magic string naming its format and version.
var (
	logMagic      = []byte("dynwal01")
	snapshotMagic = []byte("dynsnp01")
)

// ErrLocked is returned by Open when another Engine (in this process or
// another) has the directory open.
var ErrLocked = errors.New("disk: data directory is in use by another engine")

// SyncMode says when the log is flushed to stable storage.
type SyncMode int

const (
	// SyncAlways fsyncs the log before a write returns; writers that arrive
	// while an fsync is in flight share the next one (group commit). No
	// acknowledged write is lost to a crash or a power cut. The default.
	SyncAlways SyncMode = iota
	// SyncPeriodic hands each record to the operating system before the
	// write returns and fsyncs every sync interval: a crash of the process
	// loses nothing, a crash of the machine loses up to one interval. For
	// tests and benchmarks.
	SyncPeriodic
)

// Option configures Open.
type Option func(*options)

type options struct {
	mode      SyncMode
	interval  time.Duration
	threshold int64
	logger    *slog.Logger
	noGroup   bool // fsync each write alone (benchmarks compare it)
}

// WithSyncMode sets when the log is fsynced (default SyncAlways).
func WithSyncMode(m SyncMode) Option { return func(o *options) { o.mode = m } }

// WithSyncInterval sets SyncPeriodic's fsync interval (default 100ms).
func WithSyncInterval(d time.Duration) Option { return func(o *options) { o.interval = d } }

// WithCompactThreshold sets the log size in bytes past which the engine
// compacts: it writes a snapshot of every item and empties the log. The log
// may also grow to the size of the last snapshot before compacting, so
// compaction work stays proportional to the writes. Default 64 MiB.
func WithCompactThreshold(n int64) Option { return func(o *options) { o.threshold = n } }

// WithLogger sets where recovery and failure messages go (default
// slog.Default(); nil discards them). Messages carry offsets and sizes,
// never item contents.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }

// Stats are counters since Open.
type Stats struct {
	Writes        uint64 // records committed (puts, deletes, drops, catalog changes)
	Syncs         uint64 // fsyncs of the log; Writes/Syncs is the group-commit factor
	Compactions   uint64 // snapshots written
	LogBytes      int64  // size of the log, including records not yet written out
	SnapshotBytes int64  // size of the current snapshot (0 if none)
}

// Engine is a durable storage.Engine: the items live in memory (the
// in-memory B-tree engine of package storage), every change is appended to
// a checksummed write-ahead log before it is acknowledged, and the log is
// replayed on Open. Compaction folds the log into a snapshot.
type Engine struct {
	dir  string
	opts options
	log  *slog.Logger
	mem  storage.Engine
	lock *os.File

	// failure is what reads return: ErrClosed after Close, or the error that
	// broke the engine (a failed write or fsync). Writes check it under mu.
	failure atomic.Pointer[error]

	mu    sync.Mutex
	cond  sync.Cond // signals the end of a flush (busy cleared)
	colls map[string]*collection
	file  *os.File // the log, opened O_APPEND
	err   error    // sticky: once the log cannot be trusted, nothing is written
	// closed is set by Close.
	closed bool
	// busy is set while one goroutine writes or fsyncs the log with mu
	// released; others wait on cond instead of issuing their own I/O.
	busy bool
	// pending holds records applied in memory but not yet written; spare is
	// the buffer the last flush used, kept for reuse.
	pending, spare []byte
	lastSeq        uint64 // sequence number of the last committed record
	writtenSeq     uint64 // records up to here are written (SyncPeriodic) or synced (SyncAlways)
	dirty          bool   // records written but not fsynced (SyncPeriodic)
	logSize        int64
	snapSize       int64
	stats          Stats

	compactCh chan struct{}
	stop      chan struct{}
	wg        sync.WaitGroup
}

// Open opens (creating if needed) the data directory dir: it takes the
// directory's lock, loads the snapshot, replays the log and truncates a torn
// or corrupt tail (logging what was dropped). The caller must Close it.
func Open(dir string, opts ...Option) (*Engine, error) {
	o := options{interval: 100 * time.Millisecond, threshold: 64 << 20, logger: slog.Default()}
	for _, opt := range opts {
		opt(&o)
	}
	if o.logger == nil {
		o.logger = slog.New(slog.DiscardHandler)
	}
	if o.mode != SyncAlways && o.mode != SyncPeriodic {
		return nil, fmt.Errorf("disk: unknown sync mode %d", o.mode)
	}
	if o.interval <= 0 {
		return nil, fmt.Errorf("disk: sync interval %v is not positive", o.interval)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("disk: %w", err)
	}
	lock, err := lockDir(filepath.Join(dir, lockName))
	if err != nil {
		if errors.Is(err, ErrLocked) {
			return nil, fmt.Errorf("%w: %s", ErrLocked, dir)
		}
		return nil, fmt.Errorf("disk: %w", err)
	}
	e := &Engine{
		dir:       dir,
		opts:      o,
		log:       o.logger,
		mem:       storage.NewMemory(),
		lock:      lock,
		colls:     map[string]*collection{},
		compactCh: make(chan struct{}, 1),
		stop:      make(chan struct{}),
	}
	e.cond.L = &e.mu
	if err := e.load(); err != nil {
		if e.file != nil {
			e.file.Close()
		}
		unlockDir(lock)
		return nil, err
	}
	e.wg.Add(1)
	go e.compactor()
	if o.mode == SyncPeriodic {
		e.wg.Add(1)
		go e.syncer()
	}
	return e, nil
}

// load loads the snapshot and replays the log.
func (e *Engine) load() error {
	os.Remove(filepath.Join(e.dir, snapshotTmp)) // a compaction cut short
	if err := e.loadSnapshot(); err != nil {
		return err
	}
	path := filepath.Join(e.dir, logName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("disk: %w", err)
	}
	e.file = f
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("disk: %w", err)
	}
	size := st.Size()
	head := make([]byte, min(size, int64(len(logMagic))))
	if _, err := f.ReadAt(head, 0); err != nil {
		return fmt.Errorf("disk: read %s: %w", path, err)
	}
	if size < int64(len(logMagic)) {
		// A new log, or one whose header a crash cut short.
		if !bytes.HasPrefix(logMagic, head) {
			return fmt.Errorf("disk: %s is not a log file", path)
		}
		if err := e.resetLog(); err != nil {
			return err
		}
		return syncDir(e.dir)
	}
	if !bytes.Equal(head, logMagic) {
		return fmt.Errorf("disk: %s is not a log file (bad magic %q)", path, head)
	}
	base := int64(len(logMagic))
	r := bufio.NewReaderSize(io.NewSectionReader(f, base, size-base), 1<<20)
	end, err := readRecords(r, base, size, e.replay)
	e.logSize = end
	if err != nil {
		var fe *frameError
		if !errors.As(err, &fe) {
			return fmt.Errorf("disk: replay %s: %w", path, err)
		}
		if err := e.dropTail(fe, size); err != nil {
			return err
		}
	}
	return nil
}

// dropTail truncates the log at the first bad record. A torn record is the
// expected trace of a crash mid-write; a complete record that fails its
// checksum is damage, so its bytes and all after them are kept aside in
// wal.corrupt-<offset> for inspection before the log is cut.
func (e *Engine) dropTail(fe *frameError, size int64) error {
	dropped := size - fe.offset
	if !fe.torn {
		// A crash can leave the file longer than the data that reached the
		// disk, the rest reading as zeros: that is a torn write too.
		zero, err := allZero(e.file, fe.offset, size)
		if err != nil {
			return fmt.Errorf("disk: read log: %w", err)
		}
		fe.torn = zero
	}
	if fe.torn {
		e.log.Warn("disk: dropped an incomplete record at the end of the log (a write cut short by a crash)",
			"dir", e.dir, "offset", fe.offset, "bytes", dropped, "reason", fe.err.Error())
	} else {
		saved := filepath.Join(e.dir, fmt.Sprintf("%s.corrupt-%d", logName, fe.offset))
		if err := copyTail(e.file, fe.offset, size, saved); err != nil {
			return fmt.Errorf("disk: log record at offset %d is corrupt (%v) and saving the tail failed: %w", fe.offset, fe.err, err)
		}
		e.log.Error("disk: log record is corrupt; dropped it and every record after it",
			"dir", e.dir, "offset", fe.offset, "bytes", dropped, "reason", fe.err.Error(), "saved", saved)
	}
	if err := e.file.Truncate(fe.offset); err != nil {
		return fmt.Errorf("disk: truncate log: %w", err)
	}
	if err := e.file.Sync(); err != nil {
		return fmt.Errorf("disk: sync log: %w", err)
	}
	return nil
}

func allZero(f *os.File, from, to int64) (bool, error) {
	buf := make([]byte, 64<<10)
	for off := from; off < to; {
		n, err := f.ReadAt(buf[:min(int64(len(buf)), to-off)], off)
		for _, b := range buf[:n] {
			if b != 0 {
				return false, nil
			}
		}
		if err != nil && err != io.EOF {
			return false, err
		}
		if n == 0 {
			break
		}
		off += int64(n)
	}
	return true, nil
}

func copyTail(f *os.File, from, to int64, path string) error {
	out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, io.NewSectionReader(f, from, to-from))
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// replay applies one log or snapshot record to the memory engine.
func (e *Engine) replay(r record) error {
	switch r.op {
	case opPut:
		_, _, err := e.collLocked(r.coll).mem.Put(r.key, r.item)
		return err
	case opDelete:
		_, _, err := e.collLocked(r.coll).mem.Delete(r.key)
		return err
	case opDrop:
		return e.dropLocked(r.coll)
	case opPutMeta:
		return e.mem.PutMeta(r.coll, r.value)
	case opDeleteMeta:
		return e.mem.PutMeta(r.coll, nil)
	default:
		return fmt.Errorf("record op %d out of place", r.op)
	}
}

func (e *Engine) loadSnapshot() error {
	path := filepath.Join(e.dir, snapshotName)
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("disk: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("disk: %w", err)
	}
	damaged := func(err error) error {
		return fmt.Errorf("disk: snapshot %s is damaged: %w (a snapshot is renamed into place only once complete and fsynced, so this is not a crash: restore it from a backup, or move the directory aside to start empty)", path, err)
	}
	br := bufio.NewReaderSize(f, 1<<20)
	head := make([]byte, len(snapshotMagic))
	if _, err := io.ReadFull(br, head); err != nil || !bytes.Equal(head, snapshotMagic) {
		return damaged(errors.New("bad magic"))
	}
	var count uint64
	ended := false
	_, err = readRecords(br, int64(len(snapshotMagic)), st.Size(), func(r record) error {
		if ended {
			return errors.New("records after the end marker")
		}
		if r.op == opEnd {
			if r.count != count {
				return fmt.Errorf("end marker counts %d records, read %d", r.count, count)
			}
			ended = true
			return nil
		}
		count++
		return e.replay(r)
	})
	if err == nil && !ended {
		err = errors.New("no end marker")
	}
	if err != nil {
		return damaged(err)
	}
	e.snapSize = st.Size()
	return nil
}

// resetLog empties the log and writes its header, durably. O_APPEND makes
// the next write land at the new end.
func (e *Engine) resetLog() error {
	if err := e.file.Truncate(0); err != nil {
		return fmt.Errorf("disk: truncate log: %w", err)
	}
	if err := writeAll(e.file, logMagic); err != nil {
		return fmt.Errorf("disk: write log: %w", err)
	}
	if err := e.file.Sync(); err != nil {
		return fmt.Errorf("disk: sync log: %w", err)
	}
	e.logSize = int64(len(logMagic))
	return nil
}

func writeAll(f *os.File, b []byte) error {
	_, err := f.Write(b) // os.File.Write loops until done or an error
	return err
}

// collLocked returns the collection handle for name, creating it.
func (e *Engine) collLocked(name string) *collection {
	c := e.colls[name]
	if c == nil {
		mc, _ := e.mem.Collection(name) // the memory engine is open while e is
		c = &collection{e: e, name: name, mem: mc}
		e.colls[name] = c
	}
	return c
}

func (e *Engine) dropLocked(name string) error {
	if c := e.colls[name]; c != nil {
		c.dropped = true
		delete(e.colls, name)
	}
	return e.mem.Drop(name)
}

// writableLocked reports why the engine cannot take a write, if it cannot.
func (e *Engine) writableLocked() error {
	if e.closed {
		return storage.ErrClosed
	}
	return e.err
}

// failLocked breaks the engine: after a failed write or fsync the log's
// state on disk is unknown (and a later fsync may falsely succeed), so
// every later read and write fails until the directory is reopened.
func (e *Engine) failLocked(err error) {
	if e.err != nil {
		return
	}
	e.err = fmt.Errorf("disk: engine failed, reopen %s to recover: %w", e.dir, err)
	e.failure.Store(&e.err)
	e.log.Error("disk: log write failed; the engine refuses further calls", "dir", e.dir, "err", err.Error())
	e.cond.Broadcast()
}

func (e *Engine) readErr() error {
	if p := e.failure.Load(); p != nil {
		return *p
	}
	return nil
}

// errSkip from a commit check means there is nothing to write.
var errSkip = errors.New("nothing to write")

// commit appends rec to the log, applies the change in memory and returns
// once rec is durable (per the sync mode). check runs first under the lock
// and may veto the write. The change is applied before the fsync, under the
// same lock that orders the log, so memory and log agree on order; the
// server keeps readers of a table out until its write returns, so nobody
// observes a change before it is durable.
func (e *Engine) commit(rec []byte, check func() error, apply func()) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.writableLocked(); err != nil {
		return err
	}
	if check != nil {
		if err := check(); err != nil {
			if err == errSkip {
				return nil
			}
			return err
		}
	}
	e.stats.Writes++
	e.logSize += int64(len(rec))
	e.lastSeq++
	if e.opts.noGroup {
		err := writeAll(e.file, rec)
		if err == nil {
			err = e.file.Sync()
		}
		if err != nil {
			e.failLocked(err)
			return e.err
		}
		e.stats.Syncs++
		e.writtenSeq = e.lastSeq
		apply()
	} else {
		e.pending = append(e.pending, rec...)
		apply()
		if err := e.waitLocked(e.lastSeq); err != nil {
			return err
		}
	}
	if e.logSize > max(e.opts.threshold, e.snapSize) {
		select {
		case e.compactCh <- struct{}{}:
		default:
		}
	}
	return nil
}

// waitLocked returns once record seq is written out: the first waiter to
// find the log idle writes (and in SyncAlways mode fsyncs) everything
// pending, while later arrivals queue behind it and go out together in the
// next flush.
func (e *Engine) waitLocked(seq uint64) error {
	for e.writtenSeq < seq {
		if e.err != nil {
			return e.err
		}
		if e.busy {
			e.cond.Wait()
			continue
		}
		e.flushLocked(e.opts.mode == SyncAlways)
	}
	return nil
}

// flushLocked writes the pending records, and fsyncs the log if sync is set,
// with mu released during the I/O. The caller holds mu and busy is clear.
func (e *Engine) flushLocked(sync bool) {
	e.busy = true
	buf, upto := e.pending, e.lastSeq
	e.pending = e.spare[:0]
	e.mu.Unlock()
	var err error
	if len(buf) > 0 {
		err = writeAll(e.file, buf)
	}
	if err == nil && sync {
		err = e.file.Sync()
	}
	e.mu.Lock()
	e.busy = false
	if cap(buf) <= 1<<20 {
		e.spare = buf[:0]
	}
	if err != nil {
		e.failLocked(err)
	} else {
		e.writtenSeq = upto
		if sync {
			e.stats.Syncs++
			e.dirty = false
		} else if len(buf) > 0 {
			e.dirty = true
		}
	}
	e.cond.Broadcast()
}

// Sync makes every write so far durable (useful with SyncPeriodic).
func (e *Engine) Sync() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	for {
		if err := e.writableLocked(); err != nil {
			return err
		}
		if !e.busy {
			break
		}
		e.cond.Wait()
	}
	if len(e.pending) > 0 || e.dirty {
		e.flushLocked(true)
	}
	return e.err
}

// syncer fsyncs the log every interval in SyncPeriodic mode.
func (e *Engine) syncer() {
	defer e.wg.Done()
	t := time.NewTicker(e.opts.interval)
	defer t.Stop()
	for {
		select {
		case <-e.stop:
			return
		case <-t.C:
			e.Sync()
		}
	}
}

// compactor runs the compactions that commits ask for.
func (e *Engine) compactor() {
	defer e.wg.Done()
	for {
		select {
		case <-e.stop:
			return
		case <-e.compactCh:
			e.mu.Lock()
			if e.writableLocked() == nil && e.logSize > max(e.opts.threshold, e.snapSize) {
				if err := e.compactLocked(); err != nil {
					e.log.Error("disk: compaction failed; the log keeps growing", "dir", e.dir, "err", err.Error())
				}
			}
			e.mu.Unlock()
		}
	}
}

// Compact writes a snapshot of every item and catalog entry and empties the
// log. It runs by itself when the log passes the compaction threshold.
func (e *Engine) Compact() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.compactLocked()
}

// compactLocked holds mu throughout, so no write is applied while the
// snapshot is taken (readers carry on). The snapshot goes to a temporary
// file, is fsynced, renamed over the old one and the rename made durable,
// and only then is the log emptied. A crash at any point leaves either the
// old snapshot and the full log, or the new snapshot and some or all of the
// log; replaying a log over a snapshot that already holds its effects is
// harmless, since every record sets state rather than changing it.
func (e *Engine) compactLocked() error {
	for {
		if err := e.writableLocked(); err != nil {
			return err
		}
		if !e.busy {
			break
		}
		e.cond.Wait()
	}
	size, err := e.writeSnapshotLocked()
	if err != nil {
		os.Remove(filepath.Join(e.dir, snapshotTmp))
		return err // the log is untouched: nothing is lost
	}
	// Everything applied, pending records included, is in the snapshot.
	e.pending = e.pending[:0]
	e.writtenSeq, e.dirty = e.lastSeq, false
	e.snapSize = size
	e.stats.Compactions++
	if err := e.resetLog(); err != nil {
		e.failLocked(err)
		return e.err
	}
	e.cond.Broadcast()
	return nil
}

func (e *Engine) writeSnapshotLocked() (int64, error) {
	tmp := filepath.Join(e.dir, snapshotTmp)
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return 0, fmt.Errorf("disk: snapshot: %w", err)
	}
	defer f.Close()
	cw := &countWriter{w: f}
	w := bufio.NewWriterSize(cw, 1<<20)
	w.Write(snapshotMagic)
	var buf []byte
	var count uint64
	meta, err := e.mem.Meta()
	if err != nil {
		return 0, err
	}
	for _, k := range sortedKeys(meta) {
		buf = appendMeta(buf[:0], k, meta[k])
		w.Write(buf)
		count++
	}
	for _, name := range sortedKeys(e.colls) {
		var perr error
		err := e.colls[name].mem.Ascend(nil, nil, func(k []byte, it storage.Item) bool {
			buf, perr = appendPut(buf[:0], name, k, it)
			w.Write(buf)
			count++
			return perr == nil
		})
		if err == nil {
			err = perr
		}
		if err != nil {
			return 0, fmt.Errorf("disk: snapshot of %q: %w", name, err)
		}
	}
	w.Write(appendEnd(buf[:0], count))
	if err := w.Flush(); err != nil { // bufio keeps the first write error
		return 0, fmt.Errorf("disk: snapshot: %w", err)
	}
	if err := f.Sync(); err != nil {
		return 0, fmt.Errorf("disk: snapshot: %w", err)
	}
	if err := f.Close(); err != nil {
		return 0, fmt.Errorf("disk: snapshot: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(e.dir, snapshotName)); err != nil {
		return 0, fmt.Errorf("disk: snapshot: %w", err)
	}
	return cw.n, syncDir(e.dir)
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Stats returns the engine's counters.
func (e *Engine) Stats() Stats {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.stats
	s.LogBytes, s.SnapshotBytes = e.logSize, e.snapSize
	return s
}

// Dir is the data directory.
func (e *Engine) Dir() string { return e.dir }

// Close writes out and fsyncs every pending record, whatever the sync mode,
// then releases the directory. Later calls return storage.ErrClosed; a
// second Close returns nil.
func (e *Engine) Close() error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil
	}
	// Writers may still append while a flush runs with mu released; closed
	// is set only once nothing is pending, and then no one appends.
	for e.err == nil && (e.busy || len(e.pending) > 0 || e.dirty) {
		if e.busy {
			e.cond.Wait()
		} else {
			e.flushLocked(true)
		}
	}
	err := e.err
	e.closed = true
	closed := storage.ErrClosed
	e.failure.Store(&closed)
	e.cond.Broadcast()
	e.mu.Unlock()

	close(e.stop)
	e.wg.Wait()
	if cerr := e.file.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("disk: close log: %w", cerr)
	}
	if uerr := unlockDir(e.lock); err == nil && uerr != nil {
		err = fmt.Errorf("disk: unlock: %w", uerr)
	}
	e.mem.Close()
	return err
}

// Collection opens the named collection, creating it empty if absent.
func (e *Engine) Collection(name string) (storage.Collection, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.writableLocked(); err != nil {
		return nil, err
	}
	return e.collLocked(name), nil
}

// Drop deletes a collection and its items.
func (e *Engine) Drop(name string) error {
	return e.commit(appendDrop(nil, name),
		func() error {
			if e.colls[name] == nil {
				return errSkip
			}
			return nil
		},
		func() { e.dropLocked(name) })
}

// PutMeta stores a catalog entry; a nil value deletes it.
func (e *Engine) PutMeta(key string, value []byte) error {
	return e.commit(appendMeta(nil, key, value), nil, func() { e.mem.PutMeta(key, value) })
}

// Meta returns every catalog entry.
func (e *Engine) Meta() (map[string][]byte, error) {
	if err := e.readErr(); err != nil {
		return nil, err
	}
	return e.mem.Meta()
}

var _ storage.Engine = (*Engine)(nil)

// collection is a handle on one collection: reads go straight to memory,
// writes through the log.
type collection struct {
	e       *Engine
	name    string
	mem     storage.Collection
	dropped bool // guarded by e.mu
}

var recPool = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

func (c *collection) check() error {
	if c.dropped {
		return fmt.Errorf("disk: collection %q was dropped", c.name)
	}
	return nil
}

func (c *collection) Get(key []byte) (storage.Item, bool, error) {
	if err := c.e.readErr(); err != nil {
		return nil, false, err
	}
	return c.mem.Get(key)
}

func (c *collection) Put(key []byte, item storage.Item) (old storage.Item, replaced bool, err error) {
	bp := recPool.Get().(*[]byte)
	defer func() {
		if cap(*bp) <= 64<<10 {
			recPool.Put(bp)
		}
	}()
	rec, err := appendPut((*bp)[:0], c.name, key, item)
	*bp = rec
	if err != nil {
		return nil, false, fmt.Errorf("disk: put in %q: %w", c.name, err)
	}
	err = c.e.commit(rec, c.check, func() { old, replaced, _ = c.mem.Put(key, item) })
	return old, replaced, err
}

func (c *collection) Delete(key []byte) (old storage.Item, deleted bool, err error) {
	bp := recPool.Get().(*[]byte)
	defer recPool.Put(bp)
	rec := appendDelete((*bp)[:0], c.name, key)
	*bp = rec
	check := func() error {
		if err := c.check(); err != nil {
			return err
		}
		if _, ok, _ := c.mem.Get(key); !ok {
			return errSkip // deleting an absent key changes nothing: no record, no fsync
		}
		return nil
	}
	err = c.e.commit(rec, check, func() { old, deleted, _ = c.mem.Delete(key) })
	return old, deleted, err
}

func (c *collection) Ascend(start, end []byte, fn func([]byte, storage.Item) bool) error {
	if err := c.e.readErr(); err != nil {
		return err
	}
	return c.mem.Ascend(start, end, fn)
}

func (c *collection) Descend(start, end []byte, fn func([]byte, storage.Item) bool) error {
	if err := c.e.readErr(); err != nil {
		return err
	}
	return c.mem.Descend(start, end, fn)
}

func (c *collection) Len() int { return c.mem.Len() }
