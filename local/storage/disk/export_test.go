package disk

import (
	"os"
	"path/filepath"
)

// WithoutGroupCommit makes every write do its own write and fsync, holding
// the log lock throughout: the baseline the benchmarks compare group commit
// against.
func WithoutGroupCommit() Option { return func(o *options) { o.noGroup = true } }

// WithFaults puts a fault injector in front of the real file system: fail
// is asked before each operation (op is "open", "write", "sync",
// "truncate", "rename", "remove" or "syncdir") on the named file's base
// name, and a non-nil answer fails the operation. A failing write writes
// half its bytes first, as a write that runs out of space does.
func WithFaults(fail func(op, name string) error) Option {
	return func(o *options) { o.fs = faultFS{fail: fail} }
}

// WithSnapshotFirst makes Open load the snapshot before it reads the logs,
// as it does when it cannot read the snapshot's trailer, and apply the
// logs' writes to the trees built from it rather than merge them in.
func WithSnapshotFirst() Option { return func(o *options) { o.snapFirst = true } }

// WithReplayChunk makes Open, when it loads the snapshot before the logs,
// apply the logs' writes n at a time.
func WithReplayChunk(n int) Option { return func(o *options) { o.replayChunk = n } }

// ReplayFlushes is how many chunks of the logs' writes Open applied to the
// trees of the snapshot it loaded first: 0 if it merged them into the
// snapshot as it loaded it.
func (e *Engine) ReplayFlushes() int { return e.replayFlushes }

// WithCompactHook calls f with the outcome of every background compaction.
func WithCompactHook(f func(error)) Option { return func(o *options) { o.onCompact = f } }

// WithCommitHook calls f, under the engine's lock, after each write is
// applied, with the number of writes applied so far (Stats.Writes).
func WithCommitHook(f func(writes uint64)) Option { return func(o *options) { o.onCommit = f } }

type faultFS struct {
	osFS
	fail func(op, name string) error
}

func (fs faultFS) check(op, name string) error { return fs.fail(op, filepath.Base(name)) }

func (fs faultFS) OpenFile(name string, flag int, perm os.FileMode) (file, error) {
	if err := fs.check("open", name); err != nil {
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	f, err := fs.osFS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return faultFile{f, fs}, nil
}

func (fs faultFS) Rename(from, to string) error {
	if err := fs.check("rename", to); err != nil {
		return err
	}
	return fs.osFS.Rename(from, to)
}

func (fs faultFS) Remove(name string) error {
	if err := fs.check("remove", name); err != nil {
		return err
	}
	return fs.osFS.Remove(name)
}

func (fs faultFS) SyncDir(name string) error {
	if err := fs.check("syncdir", name); err != nil {
		return err
	}
	return fs.osFS.SyncDir(name)
}

type faultFile struct {
	file
	fs faultFS
}

func (f faultFile) Write(p []byte) (int, error) {
	if err := f.fs.check("write", f.Name()); err != nil {
		n, _ := f.file.Write(p[:len(p)/2])
		return n, &os.PathError{Op: "write", Path: f.Name(), Err: err}
	}
	return f.file.Write(p)
}

func (f faultFile) WriteAt(p []byte, off int64) (int, error) {
	if err := f.fs.check("write", f.Name()); err != nil {
		n, _ := f.file.WriteAt(p[:len(p)/2], off)
		return n, &os.PathError{Op: "write", Path: f.Name(), Err: err}
	}
	return f.file.WriteAt(p, off)
}

// Datasync is asked about as a "sync".
func (f faultFile) Datasync() error {
	if err := f.fs.check("sync", f.Name()); err != nil {
		return &os.PathError{Op: "sync", Path: f.Name(), Err: err}
	}
	return datasync(f.file)
}

func (f faultFile) Sync() error {
	if err := f.fs.check("sync", f.Name()); err != nil {
		return &os.PathError{Op: "sync", Path: f.Name(), Err: err}
	}
	return f.file.Sync()
}

func (f faultFile) Truncate(size int64) error {
	if err := f.fs.check("truncate", f.Name()); err != nil {
		return &os.PathError{Op: "truncate", Path: f.Name(), Err: err}
	}
	return f.file.Truncate(size)
}

// WithoutMapping makes Open read files into blocks even where it could map
// them: the other path, which tests compare with the mapped one.
func WithoutMapping() Option { return func(o *options) { o.noMap = true } }
