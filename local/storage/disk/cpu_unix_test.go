//go:build unix

package disk_test

import (
	"syscall"
	"testing"
	"time"
)

// cpuClock measures the process's CPU time (user and system) over a
// benchmark, except while paused, reported per op as cpu-ns/op.
type cpuClock struct {
	start, spent time.Duration
	paused       bool
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func startCPU() *cpuClock { return &cpuClock{start: cpuTime()} }

func (c *cpuClock) pause() {
	c.spent += cpuTime() - c.start
	c.paused = true
}

func (c *cpuClock) resume() {
	c.start, c.paused = cpuTime(), false
}

// report reports the CPU time per op, and returns it.
func (c *cpuClock) report(b *testing.B) float64 {
	spent := c.spent
	if !c.paused {
		spent += cpuTime() - c.start
	}
	perOp := float64(spent) / float64(b.N)
	b.ReportMetric(perOp, "cpu-ns/op")
	return perOp
}
