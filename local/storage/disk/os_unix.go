//go:build unix

package disk

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockDir takes an exclusive advisory lock on dir/LOCK. The kernel drops the
// lock when the process dies, so a crash never leaves a stale lock behind.
// flock locks belong to the open file, so a second Open in the same process
// is refused too.
func lockDir(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, filePerm)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrLocked
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return f, nil
}

func unlockDir(f *os.File) error {
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return f.Close()
}

// syncDir makes renames and file creations in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("disk: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("disk: sync %s: %w", dir, err)
	}
	return nil
}
