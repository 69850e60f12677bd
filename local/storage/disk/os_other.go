//go:build !unix

package disk

import (
	"errors"
	"os"
)

// lockDir creates dir/LOCK exclusively. Without flock the lock outlives a
// crashed process: remove the file by hand once no process uses the dir.
func lockDir(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, filePerm)
	if errors.Is(err, os.ErrExist) {
		return nil, ErrLocked
	}
	return f, err
}

func unlockDir(f *os.File) error {
	name := f.Name()
	err := f.Close()
	if rerr := os.Remove(name); err == nil {
		err = rerr
	}
	return err
}

// syncDir is a no-op: directories cannot be fsynced here (Windows makes
// renames durable with the file system's own journal).
func syncDir(string) error { return nil }

// mapFile maps nothing here: the caller reads the file.
func mapFile(file, int64) []byte { return nil }
