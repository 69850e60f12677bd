//go:build unix

package disk_test

import (
	"syscall"
	"testing"
	"time"
)

// cpuClock measures the process's CPU time (user and system) over a
// benchmark, reported per op as cpu-ns/op.
type cpuClock struct{ start time.Duration }

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func startCPU() cpuClock { return cpuClock{cpuTime()} }

func (c cpuClock) report(b *testing.B) {
	b.ReportMetric(float64(cpuTime()-c.start)/float64(b.N), "cpu-ns/op")
}
