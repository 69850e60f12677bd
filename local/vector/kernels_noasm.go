//go:build !amd64 || purego

package vector

// Without assembly (another platform, or the purego build tag) the portable
// kernels serve every search.

const hasAVX2FMA = false

var useAVX2 = false

func dotAVX2(q []float64, v []float32) float64 { panic("vector: no AVX2 kernels in this build") }
func squaredDistanceAVX2(q []float64, v []float32) float64 {
	panic("vector: no AVX2 kernels in this build")
}
func sumSquaresAVX2(v []float32) float64 { panic("vector: no AVX2 kernels in this build") }
