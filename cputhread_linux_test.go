package dynamo_test

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPUTime is the CPU time (user and system) of the calling OS thread.
// Its caller locks its goroutine to the thread (runtime.LockOSThread), so
// it is that goroutine's CPU time: not the in-process server's, the HTTP
// transport's or the collector's background workers'. ok is false where
// there is no thread clock.
func threadCPUTime() (d time.Duration, ok bool) {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
