//go:build !linux

package dynamo_test

import "time"

// threadCPUTime reports no thread clock: BenchmarkOverhead then leaves out
// its per-thread figure.
func threadCPUTime() (time.Duration, bool) { return 0, false }
