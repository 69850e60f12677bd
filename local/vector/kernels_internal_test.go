package vector

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The kernels' tolerance. Every term of dot and sumSquares is a product of
// float32 values, exact in float64, so a kernel's only error is its additions:
// summed in any order, n terms err by at most (n−1)·u·Σ|terms| (u = 2⁻⁵³;
// Higham, Accuracy and Stability of Numerical Algorithms, §4.2). In
// squaredDistance each term also carries the rounding of q−v (when the
// exponents lie far apart) and, in the Go kernel, of the square: at most 3u
// relative. kernelTol, (n+8)·u·Σ|terms|, covers both; two implementations
// within it of the exact value agree within twice it.
func kernelTol(n int, sumAbs float64) float64 { return float64(n+8) * 0x1p-53 * sumAbs }

type kernelCase struct {
	name  string
	exact func(q, v []float32) (sum, sumAbs float64) // the exact value, rounded once
	goK   func(q []float64, v []float32) float64
	asmK  func(q []float64, v []float32) float64
}

// exactSum returns Σ term(q[i], v[i]) computed without rounding (to 2048
// bits, enough for every float32 product), then rounded to float64, and
// Σ|term| in float64.
func exactSum(q, v []float32, term func(a, b *big.Float) *big.Float) (float64, float64) {
	s := new(big.Float).SetPrec(2048)
	var abs float64
	for i := range q {
		a := new(big.Float).SetPrec(2048).SetFloat64(float64(q[i]))
		b := new(big.Float).SetPrec(2048).SetFloat64(float64(v[i]))
		t := term(a, b)
		s.Add(s, t)
		f, _ := t.Float64()
		abs += math.Abs(f)
	}
	f, _ := s.Float64()
	return f, abs
}

var kernelCases = []kernelCase{
	{"dot",
		func(q, v []float32) (float64, float64) {
			return exactSum(q, v, func(a, b *big.Float) *big.Float { return a.Mul(a, b) })
		},
		dotGo,
		// The prefetched row is another buffer: prefetching changes no result.
		func(q []float64, v []float32) float64 {
			return dotAVX2(q, v, unsafe.SliceData(make([]float32, len(q)+1)))
		}},
	{"squaredDistance",
		func(q, v []float32) (float64, float64) {
			return exactSum(q, v, func(a, b *big.Float) *big.Float { a.Sub(a, b); return a.Mul(a, a) })
		},
		squaredDistanceGo, squaredDistanceAVX2},
	{"sumSquares",
		func(_, v []float32) (float64, float64) {
			return exactSum(v, v, func(a, b *big.Float) *big.Float { return a.Mul(a, b) })
		},
		func(_ []float64, v []float32) float64 { return sumSquaresGo(v) },
		func(_ []float64, v []float32) float64 { return sumSquaresAVX2(v) }},
}

func widen(v []float32) []float64 {
	w := make([]float64, len(v))
	for i, f := range v {
		w[i] = float64(f)
	}
	return w
}

// checkKernels checks the Go kernels (and the assembly, where the CPU has
// it) against the exact sums; with exact, the results must be bit for bit
// the exact value.
func checkKernels(t *testing.T, q, v []float32, exact bool) {
	t.Helper()
	qw := widen(q)
	for _, k := range kernelCases {
		want, sumAbs := k.exact(q, v)
		tol := kernelTol(len(q), sumAbs)
		impls := []struct {
			name string
			f    func(q []float64, v []float32) float64
		}{{"go", k.goK}}
		if hasAVX2FMA {
			impls = append(impls, struct {
				name string
				f    func(q []float64, v []float32) float64
			}{"avx2", k.asmK})
		}
		for _, impl := range impls {
			got := impl.f(qw, v)
			if exact && got != want || math.Abs(got-want) > tol || math.IsNaN(got) {
				t.Fatalf("%s %s over %d elements: %.17g, exact %.17g (tolerance %.3g)", impl.name, k.name, len(q), got, want, tol)
			}
		}
	}
}

// TestKernelsAgree: every length from 0 to 67 (every tail of the 32-, 4- and
// 1-element loops), at every offset of an element from an aligned buffer,
// with small integers (all sums exact: the results must be equal bit for
// bit), normal values and values of widely spread exponents.
func TestKernelsAgree(t *testing.T) {
	if !hasAVX2FMA {
		t.Log("no AVX2+FMA kernels in this build or on this CPU: checking the Go kernels alone")
	}
	r := rand.New(rand.NewPCG(5, 5))
	gens := []struct {
		name  string
		exact bool
		f     func() float32
	}{
		{"integers", true, func() float32 { return float32(r.IntN(17) - 8) }},
		{"normal", false, func() float32 { return float32(r.NormFloat64()) }},
		{"spread", false, func() float32 { return float32(math.Ldexp(r.NormFloat64(), r.IntN(81)-40)) }},
	}
	qbuf := make([]float32, 80)
	vbuf := make([]float32, 80)
	for _, g := range gens {
		for n := range 68 {
			for off := range 8 {
				q, v := qbuf[off:off+n], vbuf[7-off:7-off+n]
				for i := range q {
					q[i], v[i] = g.f(), g.f()
				}
				t.Run(fmt.Sprintf("%s/%d/%d", g.name, n, off), func(t *testing.T) { checkKernels(t, q, v, g.exact) })
			}
		}
	}
}

// FuzzKernels: any finite float32 vectors (the input's bytes, split in two
// halves) give kernel results within the tolerance of the exact sums.
func FuzzKernels(f *testing.F) {
	seed := func(fs ...float32) []byte {
		b := make([]byte, 4*len(fs))
		for i, x := range fs {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
		}
		return b
	}
	f.Add(seed())
	f.Add(seed(1, 2))
	f.Add(seed(math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, 1))
	f.Add(seed(1e30, 1, 1e-30, -1e30, 3, 4, 5, 6, 7, 8, 9, 10))
	big := make([]float32, 2*37)
	for i := range big {
		big[i] = float32(i%7) - 3.5
	}
	f.Add(seed(big...))
	f.Fuzz(func(t *testing.T, data []byte) {
		var fs []float32
		for i := 0; i+4 <= len(data); i += 4 {
			x := math.Float32frombits(binary.LittleEndian.Uint32(data[i:]))
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return // the index and the search take finite values only
			}
			fs = append(fs, x)
		}
		n := len(fs) / 2
		checkKernels(t, fs[:n], fs[n:2*n], false)
	})
}

// TestSearchSameWithEitherKernel: the assembly leaves the results of a
// search as the Go kernels give them: the same hits in the same order
// (ties, from duplicated vectors, in key order) and scores within 1e-12 of
// each other, far above the kernels' rounding ((n+8)·2⁻⁵³ ≈ 1.2e-14 relative
// for 100 dimensions of normal values) and far below the gaps between the
// scores of random vectors.
func TestSearchSameWithEitherKernel(t *testing.T) {
	if !hasAVX2FMA {
		t.Skip("no AVX2+FMA kernels in this build or on this CPU")
	}
	const dims = 100
	r := rand.New(rand.NewPCG(6, 6))
	for _, dist := range []types.VectorDistanceFunction{types.VectorDistanceFunctionCosine, types.VectorDistanceFunctionDotProduct, types.VectorDistanceFunctionEuclidean} {
		ix, err := New(Definition{Name: "vix", Attribute: "embedding", Dimensions: dims, Distance: dist, Projection: types.ProjectionTypeKeysOnly})
		if err != nil {
			t.Fatal(err)
		}
		var vs [][]float32
		for i := range 2000 {
			v := make([]float32, dims)
			if i%10 == 9 {
				copy(v, vs[r.IntN(len(vs))]) // a duplicate: a tie
			} else {
				for j := range v {
					v[j] = float32(r.NormFloat64())
				}
			}
			vs = append(vs, v)
			ix.Upsert(fmt.Sprintf("k%05d", (i*7919)%2000), Item{"embedding": vectorValue(v)})
		}
		q := &Query{Vector: vs[17], TopK: 100}
		search := func(asm bool) Result {
			defer func(was bool) { useAVX2 = was }(useAVX2)
			useAVX2 = asm
			res, err := ix.Search(q)
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		got, want := search(true), search(false)
		if len(got.Hits) != len(want.Hits) {
			t.Fatalf("%s: %d hits, want %d", dist, len(got.Hits), len(want.Hits))
		}
		for i, w := range want.Hits {
			g := got.Hits[i]
			if g.Key != w.Key || math.Abs(g.Score-w.Score) > 1e-12*math.Max(1, math.Abs(w.Score)) {
				t.Fatalf("%s hit %d: avx2 %s %.17g, go %s %.17g", dist, i, g.Key, g.Score, w.Key, w.Score)
			}
		}
	}
}
