package prefault

import (
	"syscall"
	"unsafe"
)

// The advice values the syscall package does not name.
const (
	madvHugepage      = 14 // MADV_HUGEPAGE
	madvPopulateWrite = 23 // MADV_POPULATE_WRITE (Linux 5.14)
)

// hugePage is the size of a transparent huge page on the platforms Go
// runs Linux on with 4 KB base pages.
const hugePage = 2 << 20

func region(p unsafe.Pointer, n uintptr) {
	start := uintptr(p)
	end := start + n
	lo, hi := start&^(hugePage-1), (end+hugePage-1)&^(hugePage-1)
	syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, madvHugepage)
	page := uintptr(syscall.Getpagesize())
	if lo, hi = (start+page-1)&^(page-1), end&^(page-1); lo < hi {
		syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, madvPopulateWrite)
	}
}
