//go:build unix

package local_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used (user and system), which a
// loaded machine does not inflate the way it does wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
