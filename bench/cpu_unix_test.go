//go:build unix

package bench

import "syscall"

// cpuNanos is the process's user+system CPU time: on a loaded machine it
// varies far less than wall time, so it is reported next to ns/op.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
