//go:build !purego

package vector

import "golang.org/x/sys/cpu"

// hasAVX2FMA reports whether the CPU (and the operating system, which must
// save the YMM registers) supports the assembly kernels.
var hasAVX2FMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

var useAVX2 = hasAVX2FMA

// The AVX2+FMA kernels (kernels_amd64.s); len(v) must equal len(q). dotAVX2
// prefetches len(q) elements from ahead as it goes.

//go:noescape
func dotAVX2(q []float64, v []float32, ahead *float32) float64

//go:noescape
func squaredDistanceAVX2(q []float64, v []float32) float64

//go:noescape
func sumSquaresAVX2(v []float32) float64
