package disk

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dynamogo/dynamo/local/storage"
)

// File names inside the data directory.
const (
	lockName     = "LOCK"
	logPrefix    = "wal." // then the log's generation: wal.1, wal.2...
	snapshotName = "snapshot"
	snapshotTmp  = "snapshot.tmp"
)

// Each file starts with a magic string naming its kind and, in its last
// byte, its record format (see format): the engine writes the current one
// and reads format1 too.
var (
	logMagic      = []byte("dynwal02")
	snapshotMagic = []byte("dynsnp02")
)

// formatOf returns the record format of a file whose header is head, for
// magic, the current header of files of its kind.
func formatOf(head, magic []byte) (format, error) {
	n := len(magic) - 1
	if len(head) != len(magic) || !bytes.Equal(head[:n], magic[:n]) {
		return 0, fmt.Errorf("bad magic %q", head)
	}
	switch head[n] {
	case '1':
		return format1, nil
	case '2':
		return format2, nil
	}
	return 0, fmt.Errorf("record format %c, which this version does not read (written by a newer version?)", head[n])
}

// ErrLocked is returned by Open when another Engine (in this process or
// another) has the directory open.
var ErrLocked = errors.New("disk: data directory is in use by another engine")

// ErrDamaged is returned by Open, wrapped in a message naming the file, the
// offset and how to recover, when the data directory is damaged in a way a
// crash cannot cause: a log record that fails its checksum with valid
// records after it, a damaged snapshot or MANIFEST, a file the MANIFEST
// lists that is missing. Open never serves less than was acknowledged
// unless told to (WithTruncateDamagedLog).
var ErrDamaged = errors.New("disk: data directory is damaged")

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
	truncate  bool         // WithTruncateDamagedLog
	noGroup   bool         // fsync each write alone (benchmarks compare it)
	noMap     bool         // read files into blocks even where they can be mapped (tests compare it)
	snapFirst bool         // load the snapshot before the logs (tests compare it)
	fs        fileSystem   // tests inject faults
	onCompact func(error)  // tests learn that a background compaction ended
	onCommit  func(uint64) // tests learn each write applied (Stats.Writes so far)

	// replayChunk is how many of the logs' writes Open buffers at most when
	// it loads the snapshot first (tests make it small).
	replayChunk int
}

// WithSyncMode sets when the log is fsynced (default SyncAlways).
func WithSyncMode(m SyncMode) Option { return func(o *options) { o.mode = m } }

// WithSyncInterval sets SyncPeriodic's fsync interval (default 100ms).
func WithSyncInterval(d time.Duration) Option { return func(o *options) { o.interval = d } }

// WithCompactThreshold sets the log size in bytes past which the engine
// compacts: it starts a new log, writes a snapshot of every item and
// removes the old logs. The log
// may also grow to the size of the last snapshot before compacting, so
// compaction work stays proportional to the writes. Default 64 MiB.
func WithCompactThreshold(n int64) Option { return func(o *options) { o.threshold = n } }

// WithLogger sets where recovery and failure messages go (default
// slog.Default(); nil discards them). Messages carry offsets and sizes,
// never item contents.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }

// WithTruncateDamagedLog lets Open repair a log damaged in the middle (see
// ErrDamaged): it keeps a copy of the whole log in <log>.damaged-<offset>,
// then cuts the log at the first bad record, dropping that record, every
// record after it and every newer log (renamed <log>.dropped). Those
// writes are lost: use it once, knowingly, after a damaged Open. A torn
// tail, the only damage a crash causes, is repaired without it.
func WithTruncateDamagedLog() Option { return func(o *options) { o.truncate = true } }

// Stats are counters since Open.
type Stats struct {
	Writes uint64 // records committed (puts, deletes, batches, drops, catalog changes)
	Syncs  uint64 // fsyncs of the log; Writes/Syncs is the group-commit factor
	// SyncTime is the time the Syncs took, with the writes before them:
	// SyncTime/Syncs is the disk's synchronous-write latency under this
	// load, and Writes/Syncs writes per that time the best group commit
	// can do.
	SyncTime          time.Duration
	Compactions       uint64 // snapshots written
	FailedCompactions uint64 // compactions that failed (a full disk); the logs are kept and it is retried later
	LogBytes          int64  // size of the log, including records not yet written out
	SnapshotBytes     int64  // size of the current snapshot (0 if none)
}

// Engine is a durable storage.Engine: the items live in memory (the
// in-memory B-tree engine of package storage), every change is appended to
// a checksummed write-ahead log before it is acknowledged, and the log is
// replayed on Open. Compaction folds the log into a snapshot.
type Engine struct {
	dir  string
	opts options
	fs   fileSystem
	log  *slog.Logger
	mem  storage.Engine
	lock *os.File

	// failure is what reads return: ErrClosed after Close, or the error that
	// broke the engine (a failed write or fsync). Writes check it under mu.
	failure atomic.Pointer[error]

	mu    sync.Mutex
	cond  sync.Cond // signals the end of a flush (busy cleared)
	colls map[string]*collection
	// lastColl is the collection collLocked returned last.
	lastColl *collection
	// readBuf is what Open reads mapped files through (see readFile).
	readBuf []byte
	// replayed holds the logs' writes Open has read and not yet applied.
	replayed replayBuf
	file     file   // the current log
	gen      uint64 // the current log's generation
	err      error  // sticky: once the log cannot be trusted, nothing is written
	// replayFlushes is how many times Open applied a chunk of the logs'
	// writes to the trees of the snapshot (tests check which way it went).
	replayFlushes int
	// closed is set by Close.
	closed bool
	// The current log's records end at written (logSize less pending), the
	// file runs on in zeros written ahead of them up to fileSize, and
	// syncedSize is the size the last fsync made durable (-1: unknown).
	// While the two sizes agree, a write overwrites zeros already on disk
	// and only its data needs flushing (fdatasync): one synchronous disk
	// write instead of two, the data and then the inode. Only the goroutine
	// doing the log's I/O (busy, or holding mu) touches them.
	written, fileSize, syncedSize int64
	// busy is set while one goroutine writes or fsyncs the log with mu
	// released; others wait on cond instead of issuing their own I/O.
	busy bool
	// pending holds records applied in memory but not yet written; spare is
	// the buffer the last flush used, kept for reuse.
	pending, spare []byte
	pendingN       int           // records in pending
	expect         int           // records the next fsync waits for (see gatherLocked)
	lastSync       time.Duration // how long the last write and fsync took
	released       time.Time     // when the last fsync released its writers
	returned       time.Duration // how long the group after it took to gather (see gatherLocked)
	lastSeq        uint64        // sequence number of the last committed record
	writtenSeq     uint64        // records up to here are written (SyncPeriodic) or synced (SyncAlways)
	dirty          bool          // records written but not fsynced (SyncPeriodic)
	logSize        int64
	snapSize       int64
	// retryAt is the log size before which no compaction is retried after
	// one failed (0: none failed), so a full disk is not hit on every write.
	retryAt int64
	stats   Stats

	snapGen uint64 // the log generation the snapshot covers (0: none); guarded by compactMu

	compactMu sync.Mutex // one compaction at a time; Close waits for it
	compactCh chan struct{}
	stop      chan struct{}
	wg        sync.WaitGroup
}

// Open opens (creating if needed, owner-only) the data directory dir: it
// takes the directory's lock, checks that every file the MANIFEST lists is
// there, loads the snapshot, replays the logs and cuts off a torn tail (the
// trace of a crash, logged as a warning). Damage a crash cannot cause is an
// error wrapping ErrDamaged. The caller must Close the engine.
func Open(dir string, opts ...Option) (*Engine, error) {
	o := options{interval: 100 * time.Millisecond, threshold: 64 << 20, replayChunk: 1 << 20, logger: slog.Default(), fs: osFS{}}
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
	if err := os.MkdirAll(dir, dirPerm); err != nil {
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
		fs:        o.fs,
		log:       o.logger,
		mem:       storage.NewMemory(),
		lock:      lock,
		colls:     map[string]*collection{},
		compactCh: make(chan struct{}, 1),
		stop:      make(chan struct{}),
	}
	e.cond.L = &e.mu
	err = e.load()
	e.readBuf = nil
	if err != nil {
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

func logPath(dir string, gen uint64) string {
	return filepath.Join(dir, logPrefix+strconv.FormatUint(gen, 10))
}

// logGen parses a log file name; ok is false for any other name.
func logGen(name string) (uint64, bool) {
	rest, ok := strings.CutPrefix(name, logPrefix)
	if !ok {
		return 0, false
	}
	g, err := strconv.ParseUint(rest, 10, 64)
	return g, err == nil && g > 0 && strconv.FormatUint(g, 10) == rest
}

// logGens lists the generations of the log files in dir, ascending.
func (e *Engine) logGens() ([]uint64, error) {
	ents, err := e.fs.ReadDir(e.dir)
	if err != nil {
		return nil, fmt.Errorf("disk: %w", err)
	}
	var gens []uint64
	for _, ent := range ents {
		if g, ok := logGen(ent.Name()); ok {
			gens = append(gens, g)
		}
	}
	slices.Sort(gens)
	return gens, nil
}

// load checks the directory's files against its MANIFEST, loads the
// snapshot and replays the logs written since, oldest first. Logs the
// snapshot covers are leftovers of a compaction that crashed before
// removing them, and are removed now.
func (e *Engine) load() error {
	e.fs.Remove(filepath.Join(e.dir, snapshotTmp)) // a compaction cut short
	e.fs.Remove(filepath.Join(e.dir, manifestTmp))
	man, hasMan, err := e.readManifest()
	if err != nil {
		return err
	}
	ents, err := e.fs.ReadDir(e.dir)
	if err != nil {
		return fmt.Errorf("disk: %w", err)
	}
	hasSnap, hasLog, foreign := false, false, ""
	var snapBytes int64
	for _, ent := range ents {
		switch name := ent.Name(); {
		case name == snapshotName:
			hasSnap = true
			if info, err := ent.Info(); err == nil {
				snapBytes = info.Size()
			}
		case name == lockName || name == manifestName || name == snapshotTmp || name == "lost+found":
		default:
			if _, ok := logGen(name); ok {
				hasLog = true
			} else if foreign == "" {
				foreign = name
			}
		}
	}
	if !hasMan {
		if !hasSnap && !hasLog {
			if foreign != "" {
				return fmt.Errorf("disk: %s holds %q but no %s: it is not a data directory (pass a new or empty one)", e.dir, foreign, manifestName)
			}
			return e.initDir()
		}
		e.log.Warn("disk: the data directory has no MANIFEST (written by an earlier version, or deleted); checking its files and writing one", "dir", e.dir)
	}
	if hasMan && man.snap > 0 && !hasSnap {
		return e.missing(snapshotName, "")
	}
	// The logs are read before the snapshot, to merge their writes into it
	// (see replayBuf), when the snapshot's trailer says which logs it
	// covers and the logs are within mergeLimit; otherwise the snapshot is
	// loaded first, and the logs' writes are applied to it a chunk at a
	// time.
	var covered uint64
	merge := true
	if hasSnap {
		covered, merge = e.snapshotCovers()
		merge = merge && !e.opts.snapFirst
	}
	merge = merge && logBytes(ents, covered) <= e.mergeLimit(snapBytes)
	if !merge {
		e.replayed.chunk = e.opts.replayChunk
		if covered, err = e.loadSnapshot(newSortedLoad(nil)); err != nil {
			return err
		}
	}
	if hasMan && covered < man.snap {
		return fmt.Errorf("%w: %s covers the logs up to wal.%d but %s lists one up to wal.%d: it is an older copy (restore the whole directory from one backup)",
			ErrDamaged, filepath.Join(e.dir, snapshotName), covered, manifestName, man.snap)
	}
	gens, err := e.logGens()
	if err != nil {
		return err
	}
	var live []uint64
	for _, g := range gens {
		if g <= covered {
			e.fs.Remove(logPath(e.dir, g))
		} else {
			live = append(live, g)
		}
	}
	// The logs after the snapshot run without a gap up to the newest one
	// the MANIFEST lists (a compaction creates the next log before it
	// writes the snapshot, so there is always one).
	newest := man.newest
	if len(live) > 0 {
		newest = max(newest, live[len(live)-1])
	}
	for g, i := covered+1, 0; g <= max(newest, covered+1); g++ {
		if i < len(live) && live[i] == g {
			i++
			continue
		}
		hint := ""
		if covered == 0 && len(live) > 0 {
			hint = fmt.Sprintf(" (or the snapshot covering the logs before wal.%d)", live[0])
		}
		return e.missing(filepath.Base(logPath(e.dir, g)), hint)
	}
	for i := 0; i < len(live); i++ {
		f, end, cut, form, err := e.replayLog(logPath(e.dir, live[i]), i == len(live)-1)
		if err != nil {
			return err
		}
		if cut && i < len(live)-1 {
			// The records of later logs came after the dropped ones.
			for _, g := range live[i+1:] {
				from := logPath(e.dir, g)
				if err := e.fs.Rename(from, from+".dropped"); err != nil {
					f.Close()
					return fmt.Errorf("disk: %w", err)
				}
				e.log.Error("disk: dropped a log that follows a damaged one", "dir", e.dir, "saved", from+".dropped")
			}
			live = live[:i+1]
		}
		if i < len(live)-1 {
			f.Close()
			continue
		}
		e.useLog(f, live[i], end)
		if form != format2 {
			// New records go to a new log in the current format; this one
			// is replayed in its own until a compaction covers it.
			f.Close()
			nf, err := e.createLog(e.gen + 1)
			if err != nil {
				e.file = nil
				return err
			}
			e.useLog(nf, e.gen+1, int64(len(logMagic)))
		}
	}
	if err := e.applyLogs(merge, covered); err != nil {
		return err
	}
	e.snapGen = covered
	if want := (manifest{snap: covered, newest: e.gen}); !hasMan || man != want {
		return e.writeManifest(want)
	}
	return nil
}

// logBytes is the size of the logs in ents after generation covered.
func logBytes(ents []os.DirEntry, covered uint64) int64 {
	var n int64
	for _, ent := range ents {
		if g, ok := logGen(ent.Name()); ok && g > covered {
			if info, err := ent.Info(); err == nil {
				n += info.Size()
			}
		}
	}
	return n
}

// maxMergeLogs bounds the logs Open merges into a snapshot whatever its
// size: their buffered writes take about as much memory.
const maxMergeLogs = 16 << 30

// mergeLimit is the most bytes of logs Open reads whole before the
// snapshot, to merge them into it: twice what compactions let a log grow
// to. Larger logs mean compactions have been failing (a full disk), and
// might take far more memory to buffer than the items they leave.
func (e *Engine) mergeLimit(snapBytes int64) int64 {
	return min(2*max(e.opts.threshold, snapBytes), maxMergeLogs)
}

// applyLogs applies the writes of the logs Open has read: merged into the
// snapshot as it is loaded, if merge is set (the snapshot must then cover
// the logs up to covered, as its trailer said), or else into the trees
// the snapshot was loaded into.
func (e *Engine) applyLogs(merge bool, covered uint64) error {
	b := &e.replayed
	defer func() { e.replayFlushes, e.replayed = b.flushes, replayBuf{} }()
	if merge {
		b.sort()
		ld := newSortedLoad(b)
		loaded, err := e.loadSnapshot(ld)
		if err != nil {
			return err
		}
		if loaded != covered {
			return fmt.Errorf("%w: snapshot %s covers the logs up to wal.%d, its trailer up to wal.%d", ErrDamaged, filepath.Join(e.dir, snapshotName), loaded, covered)
		}
		if err := ld.rest(); err != nil {
			return fmt.Errorf("disk: replay: %w", err)
		}
	} else if err := b.flush(); err != nil {
		return fmt.Errorf("disk: replay: %w", err)
	}
	for _, r := range b.meta {
		if err := e.replay(r); err != nil {
			return fmt.Errorf("disk: replay: %w", err)
		}
	}
	return nil
}

// missing is the error for a file the directory should hold and does not.
func (e *Engine) missing(name, hint string) error {
	return fmt.Errorf("%w: %s is missing%s, though the directory's MANIFEST or other files say it holds data (deleted by hand, or the wrong directory?): restore it from a backup, or move the directory aside to start empty",
		ErrDamaged, filepath.Join(e.dir, name), hint)
}

// initDir makes an empty directory a data directory: the first log, then
// the MANIFEST that lists it.
func (e *Engine) initDir() error {
	f, err := e.createLog(1)
	if err != nil {
		return err
	}
	e.useLog(f, 1, int64(len(logMagic)))
	return e.writeManifest(manifest{newest: 1})
}

// useLog makes f, log generation gen whose records end at end, the log new
// records go to. Whether its size is durable is unknown (a crash may have
// left zeros written ahead that never reached the disk), so the first sync
// is a full fsync.
func (e *Engine) useLog(f file, gen uint64, end int64) {
	e.file, e.gen, e.logSize, e.written = f, gen, end, end
	e.fileSize, e.syncedSize = end, -1
	if st, err := f.Stat(); err == nil {
		e.fileSize = max(st.Size(), end)
	}
}

// createLog creates log generation gen, durably, with its header.
func (e *Engine) createLog(gen uint64) (file, error) {
	path := logPath(e.dir, gen)
	f, err := e.fs.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, filePerm)
	if err != nil {
		return nil, fmt.Errorf("disk: %w", err)
	}
	_, err = f.WriteAt(logMagic, 0)
	if err == nil {
		err = f.Sync()
	}
	if err == nil {
		err = e.fs.SyncDir(e.dir)
	}
	if err != nil {
		f.Close()
		e.fs.Remove(path)
		return nil, fmt.Errorf("disk: create %s: %w", path, err)
	}
	return f, nil
}

// replayLog applies the records of one log and repairs a torn tail (see
// repairLog). It returns the open log, its size after recovery, whether
// records were cut off, and its record format.
func (e *Engine) replayLog(path string, newest bool) (f file, end int64, cut bool, form format, err error) {
	opened, err := e.fs.OpenFile(path, os.O_RDWR, filePerm)
	if err != nil {
		return nil, 0, false, 0, fmt.Errorf("disk: %w", err)
	}
	defer func() {
		if err != nil {
			opened.Close()
		}
	}()
	f = opened
	st, err := f.Stat()
	if err != nil {
		return nil, 0, false, 0, fmt.Errorf("disk: %w", err)
	}
	size := st.Size()
	head := make([]byte, min(size, int64(len(logMagic))))
	if _, err := f.ReadAt(head, 0); err != nil {
		return nil, 0, false, 0, fmt.Errorf("disk: read %s: %w", path, err)
	}
	if size < int64(len(logMagic)) {
		if !bytes.HasPrefix(logMagic, head) {
			return nil, 0, false, 0, fmt.Errorf("disk: %s is not a log file", path)
		}
		if !newest {
			return nil, 0, false, 0, fmt.Errorf("%w: %s is cut short inside its header, but a newer log follows it", ErrDamaged, path)
		}
		// A crash cut short the creation of a log: it holds no records.
		if err := resetLog(f); err != nil {
			return nil, 0, false, 0, err
		}
		return f, int64(len(logMagic)), false, format2, nil
	}
	form, err = formatOf(head, logMagic)
	if err != nil {
		return nil, 0, false, 0, fmt.Errorf("disk: %s is not a log file this version reads: %w", path, err)
	}
	base := int64(len(logMagic))
	e.replayed.reserve(size)
	end, rerr := readRecords(e.readFile(f, base, size), base, size, form, e.replayLogRecord)
	if rerr == nil {
		return f, end, false, form, nil
	}
	var fe *frameError
	if !errors.As(rerr, &fe) {
		return nil, 0, false, 0, fmt.Errorf("disk: replay %s: %w", path, rerr)
	}
	if zeros, err := zeroTail(f, fe, size); err != nil {
		return nil, 0, false, 0, fmt.Errorf("disk: read %s: %w", path, err)
	} else if zeros {
		return f, end, false, form, nil
	}
	if err := e.repairLog(f, fe, size, newest, form); err != nil {
		return nil, 0, false, 0, err
	}
	return f, end, true, form, nil
}

// repairLog handles a log that stops being readable at fe.offset. A crash
// can tear only the end of the newest log (older ones were complete and
// fsynced before the next was created): an incomplete last record, or one
// whose checksum fails because only part of it reached the disk, with
// nothing valid after it. That tail was never acknowledged; it is cut off
// with a warning. Anything else is damage to acknowledged writes, and an
// ErrDamaged error unless the options say to truncate: a record that
// passes its checksum after the bad one means the bad one is not the end of
// what was written.
func (e *Engine) repairLog(f file, fe *frameError, size int64, newest bool, form format) error {
	dropped := size - fe.offset
	next := int64(-1)
	if newest {
		var err error
		if next, err = nextRecord(f, fe.offset, size, form); err != nil {
			return fmt.Errorf("disk: read %s: %w", f.Name(), err)
		}
		if next < 0 {
			saved := ""
			if !fe.torn {
				// A crash can also leave the file longer than the data that
				// reached the disk, the rest reading as zeros: keep anything
				// else for inspection.
				zero, err := allZero(f, fe.offset, size)
				if err != nil {
					return fmt.Errorf("disk: read %s: %w", f.Name(), err)
				}
				if !zero {
					saved = fmt.Sprintf("%s.torn-%d", f.Name(), fe.offset)
					if err := e.copyRange(f, fe.offset, size, saved); err != nil {
						return fmt.Errorf("disk: save the torn tail of %s: %w", f.Name(), err)
					}
				}
			}
			e.log.Warn("disk: dropped a torn record at the end of the log (a write cut short by a crash or a full disk, never acknowledged)",
				"log", f.Name(), "offset", fe.offset, "bytes", dropped, "reason", fe.err.Error(), "saved", saved)
			return truncateLog(f, fe.offset)
		}
	}
	why := "a newer log follows it, and a log is complete and fsynced before the next one starts"
	if next >= 0 {
		why = fmt.Sprintf("a valid record follows at offset %d", next)
		// A power cut (not a process crash) can leave a hole of zeros inside
		// the last write, which was then never acknowledged.
		if zero, err := allZero(f, fe.offset, next); err == nil && zero {
			why += " after zeros (if the machine lost power, that can be the last write, never acknowledged: truncating then loses nothing acknowledged)"
		}
	}
	saved := fmt.Sprintf("%s.damaged-%d", f.Name(), fe.offset)
	if !e.opts.truncate {
		return fmt.Errorf("%w: log %s: %v; %s, so this is not a write cut short by a crash, and the acknowledged writes after offset %d would be lost. "+
			"To cut the log there anyway, keeping a copy of the whole file in %s, open it with disk.WithTruncateDamagedLog (dynamo local --truncate-damaged-log)",
			ErrDamaged, f.Name(), fe, why, fe.offset, saved)
	}
	if err := e.copyRange(f, 0, size, saved); err != nil {
		return fmt.Errorf("disk: save a copy of the damaged log %s: %w", f.Name(), err)
	}
	e.log.Error("disk: log is damaged; cut it at the damage as asked, dropping every record after it",
		"log", f.Name(), "offset", fe.offset, "bytes", dropped, "reason", fe.err.Error(), "saved", saved)
	return truncateLog(f, fe.offset)
}

// zeroTail reports whether reading a log stopped at fe only because zeros
// run from there to its end: the zeros written ahead of the records (see
// writeLog), which is where the log ends. An older log normally ends at its
// last record (a compaction cuts the zeros off the log it retires, but a
// crash or a failure can leave them). A record is never empty, so its
// header is never all zeros; a crash that cut a write short leaves
// something else, and repairLog deals with it as before. A record whose
// end lies in the zeros (its bytes cut short, the rest of it zeros) is
// marked torn, as it would be without zeros after it.
func zeroTail(f file, fe *frameError, size int64) (bool, error) {
	b := make([]byte, size-fe.offset)
	if _, err := f.ReadAt(b, fe.offset); err != nil && err != io.EOF {
		return false, err
	}
	data := len(bytes.TrimRight(b, "\x00"))
	if data == 0 {
		return true, nil
	}
	if data < frameHeader || frameHeader+int64(binary.LittleEndian.Uint32(b)) > int64(data) {
		fe.torn = true
	}
	return false, nil
}

func truncateLog(f file, size int64) error {
	if err := f.Truncate(size); err != nil {
		return fmt.Errorf("disk: truncate log: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("disk: sync log: %w", err)
	}
	return nil
}

// nextRecord returns the offset of the first record after the one at from
// that is complete, passes its checksum and decodes, or -1 if there is
// none: bytes that a crash left behind do not form one. (An item value
// holding the bytes of a whole record would pass too, inside a torn last
// record: that errs on the side of refusing to open.)
func nextRecord(f file, from, size int64, form format) (int64, error) {
	b := make([]byte, size-from)
	if _, err := f.ReadAt(b, from); err != nil && err != io.EOF {
		return 0, err
	}
	for i := 1; i+frameHeader <= len(b); i++ {
		n := int(binary.LittleEndian.Uint32(b[i:]))
		if n == 0 || n > maxPayload || n > len(b)-i-frameHeader {
			continue
		}
		payload := b[i+frameHeader : i+frameHeader+n]
		if frameSum(b[i:i+4], payload) != binary.LittleEndian.Uint32(b[i+4:]) {
			continue
		}
		if _, err := decodeRecord(payload, form, nil); err == nil {
			return from + int64(i), nil
		}
	}
	return -1, nil
}

func allZero(f file, from, to int64) (bool, error) {
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

// copyRange copies bytes [from, to) of f to a new file at path, fsynced.
func (e *Engine) copyRange(f file, from, to int64, path string) error {
	out, err := e.fs.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, filePerm)
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

// replay applies a drop or a meta write, of a log or a snapshot, to the
// memory engine.
func (e *Engine) replay(r *record) error {
	switch r.op {
	case opDrop:
		return e.dropLocked(r.coll)
	case opPutMeta:
		return e.mem.PutMeta(r.coll, r.value)
	case opDeleteMeta:
		return e.mem.PutMeta(r.coll, nil)
	default:
		// A snapshot's puts go through sortedLoad, and a log's puts,
		// deletes and batches through replayBuf.
		return fmt.Errorf("record op %d out of place", r.op)
	}
}

// loadSnapshot loads the snapshot, if any, through ld (which merges the
// logs' writes it holds, if any) and returns the generation of the last
// log it covers.
func (e *Engine) loadSnapshot(ld *sortedLoad) (uint64, error) {
	path := filepath.Join(e.dir, snapshotName)
	f, err := e.fs.OpenFile(path, os.O_RDONLY, 0)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("disk: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, fmt.Errorf("disk: %w", err)
	}
	damaged := func(err error) error {
		return fmt.Errorf("%w: snapshot %s: %w (a snapshot is renamed into place only once complete and fsynced, so this is not a crash: restore it from a backup, or move the directory aside to start empty)", ErrDamaged, path, err)
	}
	head := make([]byte, len(snapshotMagic))
	if _, err := io.ReadFull(f, head); err != nil {
		return 0, damaged(errors.New("bad magic"))
	}
	form, err := formatOf(head, snapshotMagic)
	if err != nil {
		return 0, damaged(err)
	}
	var count, gen uint64
	ended := false
	_, err = readRecords(e.readFile(f, int64(len(snapshotMagic)), st.Size()), int64(len(snapshotMagic)), st.Size(), form, func(r *record) error {
		if ended {
			return errors.New("records after the end marker")
		}
		if r.op == opEnd {
			if r.count != count {
				return fmt.Errorf("end marker counts %d records, read %d", r.count, count)
			}
			ended, gen = true, r.gen
			return ld.finish()
		}
		count++
		if r.op == opPut {
			if ld.m != nil && ld.m.dropped[r.coll] {
				return nil // a log drops the collection
			}
			return ld.put(e.collLocked(r.coll), r)
		}
		if err := ld.finish(); err != nil {
			return err
		}
		return e.replay(r)
	})
	if err == nil && !ended {
		err = errors.New("no end marker")
	}
	if err != nil {
		return 0, damaged(err)
	}
	e.snapSize = st.Size()
	return gen, nil
}

// readFile is the source of f's records in [base, size) (see readFile).
func (e *Engine) readFile(f file, base, size int64) source {
	return readFile(f, base, size, !e.opts.noMap, &e.readBuf)
}

// sortedLoad loads a snapshot's puts, which come one collection after
// another in key order, through the memory engine's storage.SortedLoader
// where it has one: each collection's tree is built once, from full leaves
// up. It merges the logs' writes into them (see replayBuf), when Open has
// read the logs first.
type sortedLoad struct {
	c    *collection
	ld   storage.Loader
	cold storage.ColdPutter // ld, if it is one
	// The logs' writes: m's runs by collection, which have been merged,
	// and c's writes not yet merged, m.order[next:end].
	m         *replayBuf
	runOf     map[*collection]int
	merged    []bool
	next, end int
}

func newSortedLoad(m *replayBuf) *sortedLoad {
	s := &sortedLoad{m: m}
	if m != nil {
		s.runOf = make(map[*collection]int, len(m.runs))
		for k, r := range m.runs {
			s.runOf[r.c] = k
		}
		s.merged = make([]bool, len(m.runs))
	}
	return s
}

// start begins the load of c, which is empty.
func (s *sortedLoad) start(c *collection) error {
	s.c, s.next, s.end = c, 0, 0
	if k, ok := s.runOf[c]; ok {
		s.next, s.end, s.merged[k] = s.m.runs[k].lo, s.m.runs[k].hi, true
	}
	if sl, ok := c.mem.(storage.SortedLoader); ok && c.mem.Len() == 0 {
		ld, err := sl.LoadSorted()
		if err != nil {
			return err
		}
		s.ld = ld
		s.cold, _ = ld.(storage.ColdPutter)
	}
	return nil
}

// put stores a put record of c, after the logs' writes of keys before its
// own; a log's write of its key replaces it.
func (s *sortedLoad) put(c *collection, r *record) error {
	if c != s.c {
		if err := s.finish(); err != nil {
			return err
		}
		if err := s.start(c); err != nil {
			return err
		}
	}
	var pre uint64
	if s.next < s.end {
		pre = uint64(prefix(r.key))
	}
	for s.next < s.end {
		o := s.m.order[s.next]
		i := uint32(o)
		d := cmp.Compare(o>>32, pre) // the prefixes first: no key to read
		if d == 0 {
			d = bytes.Compare(s.m.key(i), r.key)
		}
		if d > 0 {
			break
		}
		s.next++
		if err := s.putLogged(i); err != nil || d == 0 {
			return err
		}
	}
	return s.store(r.kv, r.key, r.item)
}

// putLogged stores the log's write i, a put (a delete has nothing to
// remove: the key is not stored).
func (s *sortedLoad) putLogged(i uint32) error {
	op := &s.m.ops[i]
	if op.kv == nil {
		return nil
	}
	kv, item := op.put()
	return s.store(kv, s.m.key(i), item)
}

func (s *sortedLoad) store(kv, key []byte, item storage.Value) error {
	switch {
	case s.cold != nil:
		return s.cold.PutCold(kv, key, item)
	case s.ld != nil:
		return s.ld.PutShared(kv, len(key), item)
	}
	return s.c.load(kv, key, item)
}

// finish ends the load in progress, if any, with the logs' writes of keys
// after the snapshot's.
func (s *sortedLoad) finish() error {
	for ; s.next < s.end; s.next++ {
		if err := s.putLogged(uint32(s.m.order[s.next])); err != nil {
			return err
		}
	}
	if s.ld != nil {
		s.ld.Finish()
	}
	s.c, s.ld, s.cold = nil, nil, nil
	return nil
}

// rest loads the logs' writes of the collections the snapshot does not
// hold.
func (s *sortedLoad) rest() error {
	for k, r := range s.m.runs {
		if !s.merged[k] && r.lo < r.hi { // a dropped collection's run is empty
			if err := s.start(r.c); err != nil {
				return err
			}
			if err := s.finish(); err != nil {
				return err
			}
		}
	}
	return nil
}

// resetLog empties a log and writes its header, durably.
func resetLog(f file) error {
	if err := f.Truncate(0); err != nil {
		return fmt.Errorf("disk: truncate log: %w", err)
	}
	if _, err := f.WriteAt(logMagic, 0); err != nil {
		return fmt.Errorf("disk: write log: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("disk: sync log: %w", err)
	}
	return nil
}

// writeLog writes buf after the log's records and, if sync is set, makes
// every record written so far durable. A write that passes the end of the
// file writes zeros ahead of the records (preallocates), and the next sync
// is a full fsync, which makes that size durable; until the records reach
// it again, syncs flush only the data. The caller does the log's I/O (it
// holds mu, or busy is set).
func (e *Engine) writeLog(buf []byte, sync bool) error {
	if len(buf) > 0 {
		// os.File.WriteAt loops until done or an error.
		if _, err := e.file.WriteAt(buf, e.written); err != nil {
			return err
		}
		e.written += int64(len(buf))
		if e.written > e.fileSize {
			e.fileSize = e.written + e.zeroFill(e.written)
		}
	}
	if !sync {
		return nil
	}
	if e.fileSize == e.syncedSize {
		return datasync(e.file)
	}
	if err := e.file.Sync(); err != nil {
		return err
	}
	e.syncedSize = e.fileSize
	return nil
}

// closeLog closes the current log, cut at its last record if trim is set
// (the engine has not failed): the zeros ahead of the records are only for
// appends.
func (e *Engine) closeLog(trim bool) error {
	var err error
	if trim && e.fileSize > e.written {
		err = e.file.Truncate(e.written)
	}
	if cerr := e.file.Close(); err == nil {
		err = cerr
	}
	return err
}

// zeros is what zeroFill writes.
var zeros [64 << 10]byte

// zeroFill writes zeros at off, the end of the log's records, as many as
// the log holds so far, at least 64 KiB and at most preallocMax (0 where
// fdatasync is not used, see datasync): the size grows geometrically, so a
// small log stays small and a busy one pays a full fsync once per
// preallocMax bytes. It returns how many it wrote: if the disk is full, the
// records are in place and only fewer zeros are ahead of them.
func (e *Engine) zeroFill(off int64) int64 {
	n := min(max(off, int64(len(zeros))), preallocMax)
	var done int64
	for done < n {
		k, err := e.file.WriteAt(zeros[:min(n-done, int64(len(zeros)))], off+done)
		done += int64(k)
		if err != nil {
			break
		}
	}
	return done
}

// datasync flushes f's data, and only the metadata needed to read it back,
// where the platform can (fdatasync); a full fsync elsewhere.
func datasync(f file) error {
	switch f := f.(type) {
	case *os.File:
		return datasyncFile(f)
	case interface{ Datasync() error }:
		return f.Datasync()
	}
	return f.Sync()
}

// collLocked returns the collection handle for name, creating it.
func (e *Engine) collLocked(name string) *collection {
	if c := e.lastColl; c != nil && c.name == name && !c.dropped {
		return c // the common case of a restart: records of one collection in a row
	}
	c := e.colls[name]
	if c == nil {
		mc, _ := e.mem.Collection(name) // the memory engine is open while e is
		c = &collection{e: e, name: name, mem: mc}
		c.shared, _ = mc.(storage.SharedPutter)
		c.cold, _ = mc.(storage.ColdPutter)
		e.colls[name] = c
	}
	e.lastColl = c
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
// once rec is durable (per the sync mode): commitDeferred, then
// WaitDurable.
func (e *Engine) commit(rec []byte, check func() error, apply func()) error {
	seq, err := e.commitDeferred(rec, check, apply)
	if err != nil {
		return err
	}
	return e.WaitDurable(seq)
}

// commitDeferred appends rec to the pending records and applies the change
// in memory, returning rec's sequence number (0 if check skipped it)
// without waiting for it to be written. check runs first under the lock
// and may veto the write. The change is applied under the same lock that
// orders the log, so memory and log agree on order; the server answers no
// one who wrote or read the change before WaitDurable of its sequence
// number returns (storage.Deferred).
func (e *Engine) commitDeferred(rec []byte, check func() error, apply func()) (storage.Ticket, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.writableLocked(); err != nil {
		return 0, err
	}
	if check != nil {
		if err := check(); err != nil {
			if err == errSkip {
				return 0, nil
			}
			return 0, err
		}
	}
	e.stats.Writes++
	e.logSize += int64(len(rec))
	e.lastSeq++
	if e.opts.noGroup {
		start := time.Now()
		if err := e.writeLog(rec, true); err != nil {
			e.failLocked(err)
			return 0, e.err
		}
		e.stats.Syncs++
		e.stats.SyncTime += time.Since(start)
		e.writtenSeq = e.lastSeq
		apply()
	} else {
		e.pending = append(e.pending, rec...)
		e.pendingN++
		if e.pendingN == e.expect {
			e.returned = time.Since(e.released)
			e.cond.Broadcast() // the fsync waiting for this record can start
		}
		apply()
	}
	if e.opts.onCommit != nil {
		e.opts.onCommit(e.stats.Writes)
	}
	if e.compactDueLocked() {
		select {
		case e.compactCh <- struct{}{}:
		default:
		}
	}
	return storage.Ticket(e.lastSeq), nil
}

// WaitDurable implements storage.Deferred: it returns once record t and
// every one before it are written out (and, in SyncAlways mode, fsynced),
// joining the group commit of waitLocked.
func (e *Engine) WaitDurable(t storage.Ticket) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.waitLocked(uint64(t))
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
		if e.opts.mode == SyncAlways {
			e.gatherLocked()
		}
		e.flushLocked(e.opts.mode == SyncAlways)
	}
	return nil
}

// gatherLocked holds the next fsync back until as many records are pending
// as the last fsync and its queue carried. The writers the last fsync
// released are usually back with their next write soon; without the wait,
// N steady writers split into two groups that alternate, each fsync
// carrying half of them, and throughput is half what the disk allows. How
// soon is the time their requests take, not the disk's: on a fast disk the
// writers take longer to come back than an fsync takes, and an fsync that
// left without them would cost its CPU time (most of a durable write's) for
// a few records. So the wait lasts up to twice the time the last group took
// to gather, at least half the last fsync's duration, and at most a
// millisecond more than that. A lone writer never waits (it alone is
// expected); when writers leave, the next fsync waits out the window once.
// The caller holds mu and busy is clear.
func (e *Engine) gatherLocked() {
	if e.pendingN >= e.expect || e.lastSync <= 0 {
		return
	}
	e.busy = true // no one else flushes meanwhile
	window := min(max(e.lastSync/2, 2*e.returned), e.lastSync/2+time.Millisecond)
	deadline := e.released.Add(window)
	t := time.AfterFunc(time.Until(deadline), func() {
		e.mu.Lock()
		e.cond.Broadcast()
		e.mu.Unlock()
	})
	for e.pendingN < e.expect && time.Now().Before(deadline) {
		e.cond.Wait()
	}
	t.Stop()
	if e.pendingN < e.expect {
		e.returned = window // they took longer: the next wait may be longer
	}
	e.busy = false
}

// flushLocked writes the pending records, and fsyncs the log if sync is set,
// with mu released during the I/O. The caller holds mu and busy is clear.
func (e *Engine) flushLocked(sync bool) {
	e.busy = true
	buf, upto, n := e.pending, e.lastSeq, e.pendingN
	e.pending, e.pendingN = e.spare[:0], 0
	e.mu.Unlock()
	if sync {
		// Let the goroutines readied onto this P run first (a writer that
		// Unlock just woke; net/http's connection reader, started once the
		// request body is read): left queued during the fsync, they make
		// the runtime's monitor take the P and wake a thread for them, and
		// poll at its fastest rate meanwhile. Thread switches cost far more
		// than a goroutine switch, most of all on a virtualised machine.
		runtime.Gosched()
	}
	start := time.Now()
	err := e.writeLog(buf, sync)
	took := time.Since(start)
	e.mu.Lock()
	e.busy = false
	if sync && n > 0 {
		// The writers just released, and those that queued meanwhile,
		// make the next group.
		e.lastSync, e.expect = took, n+e.pendingN
		e.released = time.Now()
	}
	if cap(buf) <= 1<<20 {
		e.spare = buf[:0]
	}
	if err != nil {
		e.failLocked(err)
	} else {
		e.writtenSeq = upto
		if sync {
			e.stats.Syncs++
			e.stats.SyncTime += took
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

// compactDueLocked reports whether the log has grown enough to compact.
func (e *Engine) compactDueLocked() bool {
	return e.logSize > max(e.opts.threshold, e.snapSize, e.retryAt)
}

// compactor runs the compactions that commits ask for. After one fails (a
// full disk) the logs are kept, writes go on, and the next try waits until
// the log has grown by another threshold.
func (e *Engine) compactor() {
	defer e.wg.Done()
	for {
		select {
		case <-e.stop:
			return
		case <-e.compactCh:
			e.compactMu.Lock()
			e.mu.Lock()
			due := e.writableLocked() == nil && e.compactDueLocked()
			e.mu.Unlock()
			if due {
				err := e.compact()
				if err != nil {
					e.log.Error("disk: compaction failed; the logs are kept (replayed on open) and it is retried later", "dir", e.dir, "err", err.Error())
				}
				if e.opts.onCompact != nil {
					e.opts.onCompact(err)
				}
			}
			e.compactMu.Unlock()
		}
	}
}

// Compact writes a snapshot of every item and catalog entry and removes the
// logs it covers. It runs by itself when the log passes the compaction
// threshold.
func (e *Engine) Compact() error {
	e.compactMu.Lock()
	defer e.compactMu.Unlock()
	return e.compact()
}

// compact pauses writes only to flush the log, start the next log
// generation and take pointers to the current items (stored items are never
// modified, only replaced); the snapshot is written with writes flowing
// into the new log. It goes to a temporary file, is fsynced and renamed into
// place and the rename made durable, the MANIFEST is updated, and only then
// are the logs it covers removed. A crash at any point leaves a snapshot
// plus every log written since it, or a new snapshot plus logs it covers,
// which Open removes. A failure (a full disk) leaves the same, and the
// engine writing: only a failed write or fsync of the log itself breaks it.
// The caller holds compactMu.
func (e *Engine) compact() (err error) {
	defer func() {
		e.mu.Lock()
		if err != nil && e.writableLocked() == nil {
			e.stats.FailedCompactions++
			e.retryAt = e.logSize + e.opts.threshold
		}
		e.mu.Unlock()
	}()
	e.mu.Lock()
	for e.busy && e.writableLocked() == nil {
		e.cond.Wait()
	}
	if err := e.writableLocked(); err != nil {
		e.mu.Unlock()
		return err
	}
	if len(e.pending) > 0 || e.dirty {
		// The retiring log must be complete and durable.
		start := time.Now()
		if err := e.writeLog(e.pending, true); err != nil {
			e.failLocked(err)
			e.mu.Unlock()
			return e.err
		}
		e.pending, e.pendingN, e.writtenSeq, e.dirty = e.pending[:0], 0, e.lastSeq, false
		e.stats.Syncs++
		e.stats.SyncTime += time.Since(start)
		e.cond.Broadcast()
	}
	covered := e.gen
	f, err := e.createLog(covered + 1)
	if err != nil {
		e.mu.Unlock()
		return err // nothing changed: writes carry on in the current log
	}
	e.closeLog(true) // if the cut fails, the zeros left read as the end
	e.useLog(f, covered+1, int64(len(logMagic)))
	// The MANIFEST's newest log is a lower bound (Open replays newer ones),
	// so the new log is in use whether or not this update reaches the disk.
	if err := e.writeManifest(manifest{snap: e.snapGen, newest: covered + 1}); err != nil {
		e.mu.Unlock()
		return err
	}
	state, err := e.captureLocked()
	e.mu.Unlock()
	if err != nil {
		return err
	}

	size, err := e.writeSnapshot(state, covered)
	if err != nil {
		e.fs.Remove(filepath.Join(e.dir, snapshotTmp))
		return err // the logs are intact: nothing is lost
	}
	e.snapGen = covered
	e.mu.Lock()
	e.snapSize, e.retryAt = size, 0
	e.stats.Compactions++
	e.mu.Unlock()
	if err := e.writeManifest(manifest{snap: covered, newest: covered + 1}); err != nil {
		return err // the snapshot is in place; Open removes the logs it covers
	}
	gens, err := e.logGens()
	if err != nil {
		return err
	}
	for _, g := range gens {
		if g <= covered {
			if err := e.fs.Remove(logPath(e.dir, g)); err != nil {
				return fmt.Errorf("disk: remove covered log: %w", err) // Open removes it
			}
		}
	}
	return nil
}

// snapState is the engine's content at one moment: the catalog, and for
// each collection its keys (packed into one buffer) and items.
type snapState struct {
	meta  map[string][]byte
	colls []snapColl
}

type snapColl struct {
	name  string
	keys  []byte
	ends  []int // keys[ends[i-1]:ends[i]] is the key of items[i]
	items []storage.Value
}

func (e *Engine) captureLocked() (*snapState, error) {
	meta, err := e.mem.Meta()
	if err != nil {
		return nil, err
	}
	st := &snapState{meta: meta}
	for _, name := range sortedKeys(e.colls) {
		mc := e.colls[name].mem
		sc := snapColl{name: name, ends: make([]int, 0, mc.Len()), items: make([]storage.Value, 0, mc.Len())}
		err := mc.Ascend(nil, nil, func(k []byte, it storage.Value) bool {
			sc.keys = append(sc.keys, k...)
			sc.ends = append(sc.ends, len(sc.keys))
			sc.items = append(sc.items, it)
			return true
		})
		if err != nil {
			return nil, err
		}
		if len(sc.items) > 0 {
			st.colls = append(st.colls, sc)
		}
	}
	return st, nil
}

// writeSnapshot writes st as the snapshot covering logs up to gen.
func (e *Engine) writeSnapshot(st *snapState, gen uint64) (int64, error) {
	tmp := filepath.Join(e.dir, snapshotTmp)
	f, err := e.fs.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, filePerm)
	if err != nil {
		return 0, fmt.Errorf("disk: snapshot: %w", err)
	}
	defer f.Close()
	cw := &countWriter{w: f}
	w := bufio.NewWriterSize(cw, 1<<20)
	w.Write(snapshotMagic)
	var buf []byte
	var count uint64
	for _, k := range sortedKeys(st.meta) {
		buf = appendMeta(buf[:0], k, st.meta[k])
		w.Write(buf)
		count++
	}
	for _, sc := range st.colls {
		start := 0
		for i, it := range sc.items {
			buf, err = appendPut(buf[:0], sc.name, sc.keys[start:sc.ends[i]], it)
			if err != nil {
				return 0, fmt.Errorf("disk: snapshot of %q: %w", sc.name, err)
			}
			start = sc.ends[i]
			w.Write(buf)
			count++
		}
	}
	w.Write(appendEnd(buf[:0], count, gen))
	if err := w.Flush(); err != nil { // bufio keeps the first write error
		return 0, fmt.Errorf("disk: snapshot: %w", err)
	}
	if err := f.Sync(); err != nil {
		return 0, fmt.Errorf("disk: snapshot: %w", err)
	}
	if err := f.Close(); err != nil {
		return 0, fmt.Errorf("disk: snapshot: %w", err)
	}
	if err := e.fs.Rename(tmp, filepath.Join(e.dir, snapshotName)); err != nil {
		return 0, fmt.Errorf("disk: snapshot: %w", err)
	}
	return cw.n, e.fs.SyncDir(e.dir)
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

// Health reports why the engine cannot take writes: nil while it can,
// storage.ErrClosed once closed, or the log write or fsync failure (a full
// or failing disk) that broke it; reopening the directory recovers every
// acknowledged write. A failed compaction leaves the engine healthy.
func (e *Engine) Health() error { return e.readErr() }

// Close writes out and fsyncs every pending record, whatever the sync mode,
// then releases the directory. Later calls return storage.ErrClosed; a
// second Close returns nil.
func (e *Engine) Close() error {
	e.compactMu.Lock() // a running compaction finishes first
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		e.compactMu.Unlock()
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

	e.compactMu.Unlock() // closed is set: no compaction starts again

	close(e.stop)
	e.wg.Wait()
	if cerr := e.closeLog(err == nil); err == nil && cerr != nil {
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

// Apply makes every write of ops or none: the batch is one log record (one
// checksum, one fsync shared with concurrent writers), applied in memory
// whole once every op's collection checks out, and replayed whole or
// dropped whole by Open if a crash tore it. It is ApplyDeferred, then
// WaitDurable.
func (e *Engine) Apply(ops []storage.Op) error {
	t, err := e.ApplyDeferred(ops)
	if err != nil {
		return err
	}
	return e.WaitDurable(t)
}

// ApplyDeferred implements storage.Deferred: Apply without waiting for the
// batch's record to be written.
func (e *Engine) ApplyDeferred(ops []storage.Op) (storage.Ticket, error) {
	if len(ops) == 0 {
		return 0, nil
	}
	names := make([]string, len(ops))
	cs := make([]*collection, len(ops))
	for i, op := range ops {
		c, ok := op.Coll.(*collection)
		if !ok || c.e != e {
			return 0, fmt.Errorf("disk: batch op %d: the collection is not one of this engine's", i)
		}
		names[i], cs[i] = c.name, c
	}
	bp := recPool.Get().(*[]byte)
	defer func() {
		if cap(*bp) <= 64<<10 {
			recPool.Put(bp)
		}
	}()
	rec, err := appendBatch((*bp)[:0], names, ops)
	*bp = rec
	if err != nil {
		return 0, fmt.Errorf("disk: %w", err)
	}
	check := func() error {
		changes := false
		for i, c := range cs {
			if err := c.check(); err != nil {
				return fmt.Errorf("batch op %d: %w", i, err)
			}
			if !changes {
				_, present, _ := c.mem.Get(ops[i].Key)
				changes = !ops[i].Value.IsZero() || present
			}
		}
		if !changes {
			return errSkip // only deletes of absent keys: no record, no fsync
		}
		return nil
	}
	return e.commitDeferred(rec, check, func() {
		for i, c := range cs {
			if ops[i].Value.IsZero() {
				c.mem.Delete(ops[i].Key)
			} else {
				c.memPut(ops[i].At, ops[i].Key, ops[i].Value)
			}
		}
	})
}

var (
	_ storage.Engine        = (*Engine)(nil)
	_ storage.HealthChecker = (*Engine)(nil)
	_ storage.Deferred      = (*Engine)(nil)
	_ storage.Finder        = (*collection)(nil)
)

// collection is a handle on one collection: reads go straight to memory,
// writes through the log.
type collection struct {
	e       *Engine
	name    string
	mem     storage.Collection
	shared  storage.SharedPutter // mem, if it keeps items where Open read them
	cold    storage.ColdPutter   // mem, if it also does so without reading them
	dropped bool                 // guarded by e.mu
}

// load stores an item that Open read from a file: the key kv[:len(key)]
// and the item, whose encoding normally follows it in kv, where they are
// kept; key is the same bytes as read. They stay where they are kept if
// mem allows: what items alias is never reused (see readFile), and mem
// reads key, not kv, where it can (see storage.ColdPutter).
func (c *collection) load(kv, key []byte, item storage.Value) error {
	var err error
	switch {
	case c.cold != nil:
		err = c.cold.PutCold(kv, key, item)
	case c.shared != nil:
		_, _, err = c.shared.PutShared(kv, len(key), item)
	default:
		_, _, err = c.mem.Put(key, item)
	}
	return err
}

var recPool = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

func (c *collection) check() error {
	if c.dropped {
		return fmt.Errorf("disk: collection %q was dropped", c.name)
	}
	return nil
}

func (c *collection) Get(key []byte) (storage.Value, bool, error) {
	if err := c.e.readErr(); err != nil {
		return storage.Value{}, false, err
	}
	return c.mem.Get(key)
}

func (c *collection) Put(key []byte, item storage.Value) (old storage.Value, replaced bool, err error) {
	return c.PutAt(storage.Slot{}, key, item)
}

// Find implements storage.Finder: its slots are those of the memory
// collection, which every write reaches once logged.
func (c *collection) Find(key []byte) (storage.Value, storage.Slot, error) {
	if err := c.e.readErr(); err != nil {
		return storage.Value{}, storage.Slot{}, err
	}
	if f, ok := c.mem.(storage.Finder); ok {
		return f.Find(key)
	}
	v, _, err := c.mem.Get(key)
	return v, storage.Slot{}, err
}

// memPut stores key and item in memory, at at if mem can use it.
func (c *collection) memPut(at storage.Slot, key []byte, item storage.Value) (storage.Value, bool) {
	if f, ok := c.mem.(storage.Finder); ok {
		old, replaced, _ := f.PutAt(at, key, item)
		return old, replaced
	}
	old, replaced, _ := c.mem.Put(key, item)
	return old, replaced
}

// PutAt implements storage.Finder: the write is logged as Put's is.
func (c *collection) PutAt(at storage.Slot, key []byte, item storage.Value) (old storage.Value, replaced bool, err error) {
	if item.IsZero() {
		return storage.Value{}, false, fmt.Errorf("disk: put in %q of the zero Value", c.name)
	}
	bp := recPool.Get().(*[]byte)
	defer func() {
		if cap(*bp) <= 64<<10 {
			recPool.Put(bp)
		}
	}()
	rec, err := appendPut((*bp)[:0], c.name, key, item)
	*bp = rec
	if err != nil {
		return storage.Value{}, false, fmt.Errorf("disk: put in %q: %w", c.name, err)
	}
	err = c.e.commit(rec, c.check, func() { old, replaced = c.memPut(at, key, item) })
	return old, replaced, err
}

func (c *collection) Delete(key []byte) (old storage.Value, deleted bool, err error) {
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

func (c *collection) Ascend(start, end []byte, fn func([]byte, storage.Value) bool) error {
	if err := c.e.readErr(); err != nil {
		return err
	}
	return c.mem.Ascend(start, end, fn)
}

func (c *collection) Descend(start, end []byte, fn func([]byte, storage.Value) bool) error {
	if err := c.e.readErr(); err != nil {
		return err
	}
	return c.mem.Descend(start, end, fn)
}

func (c *collection) Len() int { return c.mem.Len() }

func (c *collection) Size() int64 { return c.mem.Size() }
