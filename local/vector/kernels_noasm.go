//go:build !amd64 || purego

package vector

// Without assembly (another platform, or the purego build tag) the portable
// kernels serve every search; the stubs below are never called.

const hasAVX2FMA = false

var useAVX2 = false

const noAsm = "vector: no AVX2 kernels in this build"

func dotAVX2(q []float64, v []float32, ahead *float32) float64 { panic(noAsm) }
func squaredDistanceAVX2(q []float64, v []float32) float64     { panic(noAsm) }
func sumSquaresAVX2(v []float32) float64                       { panic(noAsm) }
