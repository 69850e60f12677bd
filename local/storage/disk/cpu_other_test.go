//go:build !unix

package disk_test

import "testing"

type cpuClock struct{}

func startCPU() *cpuClock { return &cpuClock{} }

func (*cpuClock) pause()                    {}
func (*cpuClock) resume()                   {}
func (*cpuClock) report(*testing.B) float64 { return 0 }
