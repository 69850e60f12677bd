//go:build !linux

package vector

import "time"

var clockStart = time.Now()

// threadCPU falls back to wall time where the thread's CPU clock is not
// read (see clock_linux_test.go).
func threadCPU() time.Duration { return time.Since(clockStart) }
