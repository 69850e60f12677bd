package vector

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU is the CPU time of the calling OS thread, to the nanosecond.
// The machine may be shared, so wall time includes time spent descheduled;
// CPU time still includes memory stalls, which is what a bandwidth bound is
// about. Callers lock the thread.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
