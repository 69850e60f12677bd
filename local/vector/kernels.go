package vector

import "unsafe"

// The scoring kernels. The index keeps float32 vectors, as the service does,
// and scores are doubles (SearchResultItem.Score; see
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_SearchResultItem.html);
// the query is widened to float64 once per search, so the inner loops convert
// only the stored element. A product of a float32 by a float32-valued float64
// is exact, so only the additions round: whatever the order of the sum, a
// kernel's result is within (n−1)·2⁻⁵³·Σ|terms| of the exact value, and
// the ranking agrees with a float64 reference to a few ulps.
//
// Each kernel has two implementations that differ only in the order of the
// additions: AVX2+FMA assembly (kernels_amd64.s), used when the CPU has both
// features, and the portable Go below, used on other platforms, on CPUs
// without them and under the purego build tag. The assembly converts and
// multiplies four elements per instruction into eight accumulators, so a
// search runs at the speed of memory (BenchmarkSearchBandwidth); a fused
// multiply-add is exact here because the product is, except in
// squaredDistance, where it is the more precise of the two.
//
// useAVX2 (kernels_amd64.go, kernels_noasm.go) picks the implementation;
// tests and benchmarks switch it to compare the two.

// dot returns Σ q[i]·v[i]; len(v) must be at least len(q). The assembly
// prefetches ahead (at least len(q) elements, or nil) while it reads v:
// the row a search scores next when it is not the adjacent one, which the
// CPU would not fetch ahead by itself.
func dot(q []float64, v, ahead []float32) float64 {
	v = v[:len(q)]
	if useAVX2 {
		if ahead == nil {
			ahead = v
		}
		return dotAVX2(q, v, unsafe.SliceData(ahead[:len(q)]))
	}
	return dotGo(q, v)
}

// squaredDistance returns Σ (q[i]-v[i])²; len(v) must be at least len(q).
// The difference of two float32 values is exact in float64 (unless their
// exponents lie more than 29 apart), so identical vectors give exactly 0 and
// near neighbours lose no precision to cancellation (which the
// |q|²+|v|²-2q·v shortcut would).
func squaredDistance(q []float64, v []float32) float64 {
	v = v[:len(q)]
	if useAVX2 {
		return squaredDistanceAVX2(q, v)
	}
	return squaredDistanceGo(q, v)
}

// sumSquares returns Σ v[i]², summed in float64.
func sumSquares(v []float32) float64 {
	if useAVX2 {
		return sumSquaresAVX2(v)
	}
	return sumSquaresGo(v)
}

// norm32 returns the Euclidean norm of v, summed in float64.
func norm32(v []float32) float64 { return sqrt(sumSquares(v)) }

// dotGo is the portable dot. Eight elements per iteration halve the loop
// overhead; each of four accumulators takes every fourth element, which
// breaks the add dependency chain; the three-index slices let the compiler
// drop the bounds checks.
func dotGo(q []float64, v []float32) float64 {
	v = v[:len(q)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+8 <= len(q); i += 8 {
		x := q[i : i+8 : i+8]
		y := v[i : i+8 : i+8]
		s0 += x[0] * float64(y[0])
		s1 += x[1] * float64(y[1])
		s2 += x[2] * float64(y[2])
		s3 += x[3] * float64(y[3])
		s0 += x[4] * float64(y[4])
		s1 += x[5] * float64(y[5])
		s2 += x[6] * float64(y[6])
		s3 += x[7] * float64(y[7])
	}
	for ; i < len(q); i++ {
		s0 += q[i] * float64(v[i])
	}
	return (s0 + s1) + (s2 + s3)
}

// squaredDistanceGo is the portable squaredDistance.
func squaredDistanceGo(q []float64, v []float32) float64 {
	v = v[:len(q)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(q); i += 4 {
		x := q[i : i+4 : i+4]
		y := v[i : i+4 : i+4]
		d0 := x[0] - float64(y[0])
		d1 := x[1] - float64(y[1])
		d2 := x[2] - float64(y[2])
		d3 := x[3] - float64(y[3])
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	for ; i < len(q); i++ {
		d := q[i] - float64(v[i])
		s0 += d * d
	}
	return (s0 + s1) + (s2 + s3)
}

// sumSquaresGo is the portable sumSquares.
func sumSquaresGo(v []float32) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(v); i += 4 {
		y := v[i : i+4 : i+4]
		a, b, c, d := float64(y[0]), float64(y[1]), float64(y[2]), float64(y[3])
		s0 += a * a
		s1 += b * b
		s2 += c * c
		s3 += d * d
	}
	for ; i < len(v); i++ {
		a := float64(v[i])
		s0 += a * a
	}
	return (s0 + s1) + (s2 + s3)
}

// squaredDistanceBound bounds the rounding error of qq + vv − 2·dot(q, v)
// as an estimate of Σ (q[i]-v[i])², where qq and vv are sumSquares of q
// and v and all three sums are computed by the kernels above over n
// elements. A sum of n products (exact in float64) in any order errs by at
// most (n−1)·u·Σ|terms| (u = 2⁻⁵³), |dot| is at most (qq+vv)/2 by
// Cauchy–Schwarz, and the final two additions add 2u; (n+16)·2⁻⁵²·(qq+vv)
// covers it with room to spare, for either implementation.
func squaredDistanceBound(n int, qq, vv float64) float64 {
	return float64(n+16) * 0x1p-52 * (qq + vv)
}
