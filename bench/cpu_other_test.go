//go:build !unix

package bench

func cpuNanos() int64 { return 0 }
