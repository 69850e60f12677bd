//go:build unix

package local

import "syscall"

// openFileLimit is the process's soft limit on open files (Go raises it to
// the hard limit at start-up), or 1024 when it cannot be read.
func openFileLimit() int {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return 1024
	}
	return int(min(rl.Cur, 1<<20)) // RLIM_INFINITY is all ones
}
