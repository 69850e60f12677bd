package disk

import (
	"os"
	"syscall"
)

// preallocMax is the most zeros writeLog writes ahead of the log's records
// at once: 1 MiB, one full fsync per ~6,000 writes of a typical item.
const preallocMax = 1 << 20

// datasyncFile is fdatasync(2): for a write over blocks already allocated,
// with the file's size unchanged, it flushes the data alone, where fsync
// also writes the inode (its times) in a second synchronous write.
func datasyncFile(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) {
		for {
			if serr = syscall.Fdatasync(int(fd)); serr != syscall.EINTR {
				return
			}
		}
	}); err != nil {
		return err
	}
	if serr != nil {
		return &os.PathError{Op: "fdatasync", Path: f.Name(), Err: serr}
	}
	return nil
}
