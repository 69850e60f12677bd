//go:build unix

package dynamo_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used (user and system): the
// in-process server's share of a call included, and far less inflated by
// a loaded machine than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
