package disk

import (
	"io"
	"os"
)

// fileSystem is the few file operations the engine performs, behind an
// interface so tests can inject the failures of a full or failing disk.
type fileSystem interface {
	OpenFile(name string, flag int, perm os.FileMode) (file, error)
	Rename(from, to string) error
	Remove(name string) error
	ReadDir(name string) ([]os.DirEntry, error)
	// SyncDir makes renames and file creations in the directory durable.
	SyncDir(name string) error
}

// file is the part of *os.File the engine uses.
type file interface {
	io.Reader
	io.ReaderAt
	io.Writer
	io.WriterAt // the log is written at its records' end, over zeros written ahead
	Name() string
	Stat() (os.FileInfo, error)
	Sync() error
	Truncate(size int64) error
	Close() error
}

// osFS is the real file system.
type osFS struct{}

func (osFS) OpenFile(name string, flag int, perm os.FileMode) (file, error) {
	f, err := os.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err // not a nil *os.File in a non-nil file
	}
	return f, nil
}

func (osFS) Rename(from, to string) error               { return os.Rename(from, to) }
func (osFS) Remove(name string) error                   { return os.Remove(name) }
func (osFS) ReadDir(name string) ([]os.DirEntry, error) { return os.ReadDir(name) }
func (osFS) SyncDir(name string) error                  { return syncDir(name) }

// Files and the directory are created owner-only: items are the user's data.
const (
	dirPerm  os.FileMode = 0o700
	filePerm os.FileMode = 0o600
)
