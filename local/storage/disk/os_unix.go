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

// mapFile maps f's first size bytes read-only, or returns nil if it cannot
// (not an *os.File, an empty file, a file system without mmap): the caller
// then reads the file. The mapping is never unmapped, because the items a
// restart keeps alias it; see readFile. Its pages are not faulted in here:
// Open reads the file through a buffer, and an item's page is first
// touched when the item is read.
func mapFile(f file, size int64) []byte {
	osf, ok := f.(*os.File)
	if !ok || size <= 0 || size != int64(int(size)) {
		return nil
	}
	b, err := syscall.Mmap(int(osf.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		return nil
	}
	return b
}
