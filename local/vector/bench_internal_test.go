package vector

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"testing"
	"time"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// BenchmarkSearchBandwidth measures exact top-10 searches over one
// partition of float32 vectors against the memory-bandwidth bound: the
// time to read the same slab once, taken in the same iteration. With
// DYNAMO_BENCH_SCALE=1 the slab is 100k vectors of 768 dimensions (307 MB,
// far beyond any cache; about a minute with -benchtime 10x); by default it
// is 10k (31 MB), which runs in seconds but may sit partly in cache.
//
// Per distance function it runs each kernel the machine has ("go", the
// portable one, and "avx2"), then, with the default kernel, three filtered
// searches, each iteration also running the unfiltered search for
// comparison: inline filters that every row, every other row and every
// tenth row pass. Metrics: ms (p50 thread CPU time per search: the machine
// may be shared, so wall time, reported as wall-ms, includes time spent
// descheduled; CPU time still includes memory stalls), bound-ms (p50 of the
// plain read), x-bound (ms ÷ bound-ms) and, for the filtered searches,
// x-unfiltered (ms ÷ the p50 of the unfiltered search).
func BenchmarkSearchBandwidth(b *testing.B) {
	if testing.Short() {
		b.Skip("the bandwidth benchmark allocates hundreds of MB; skipped in -short mode")
	}
	rows := 10_000
	if os.Getenv("DYNAMO_BENCH_SCALE") == "1" {
		rows = 100_000
	}
	p := benchSlab(rows)
	r := rand.New(rand.NewPCG(2, 2))
	q := make([]float32, benchDims)
	for i := range q {
		q[i] = float32(r.NormFloat64())
	}
	kernels := []string{"go"}
	if hasAVX2FMA {
		kernels = append(kernels, "avx2")
	}
	filters := []struct {
		name  string
		equal Item
	}{
		{"filter-all", Item{"every": &types.AttributeValueMemberS{Value: "x"}}},
		{"filter-half", Item{"parity": &types.AttributeValueMemberS{Value: "even"}}},
		{"filter-tenth", Item{"tenth": &types.AttributeValueMemberS{Value: "0"}}},
	}
	size := fmt.Sprintf("%dx%d", rows, benchDims)
	unfiltered := &Query{Vector: q, TopK: 10}
	for _, dist := range []types.VectorDistanceFunction{types.VectorDistanceFunctionCosine, types.VectorDistanceFunctionDotProduct, types.VectorDistanceFunctionEuclidean} {
		ix := benchIndex(b, dist, p)
		for _, k := range kernels {
			b.Run(size+"/"+string(dist)+"/"+k, func(b *testing.B) {
				defer func(was bool) { useAVX2 = was }(useAVX2)
				useAVX2 = k == "avx2"
				benchSearch(b, ix, p, unfiltered, nil)
			})
		}
		for _, f := range filters {
			b.Run(size+"/"+string(dist)+"/"+f.name, func(b *testing.B) {
				benchSearch(b, ix, p, &Query{Vector: q, TopK: 10, Equal: f.equal}, unfiltered)
			})
		}
	}
}

// benchSearch runs query against ix, each time after a plain read of the
// slab and, when base is set, a search of base, and reports the metrics of
// BenchmarkSearchBandwidth.
func benchSearch(b *testing.B, ix *Index, p *partition, query, base *Query) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var lat, wall, reads, baseLat []time.Duration
	search := func(q *Query) time.Duration {
		start, startWall := threadCPU(), time.Now()
		res, err := ix.Search(q)
		d := threadCPU() - start
		wall = append(wall, time.Since(startWall))
		if err != nil || len(res.Hits) != 10 {
			b.Fatal(err, len(res.Hits))
		}
		return d
	}
	for b.Loop() {
		d, sum := sumPass(p.vecs)
		benchSink += sum
		reads = append(reads, d)
		if base != nil {
			baseLat = append(baseLat, search(base))
			wall = wall[:len(wall)-1]
		}
		lat = append(lat, search(query))
	}
	p50, bound := median(lat), median(reads)
	b.ReportMetric(ms(p50), "ms")
	b.ReportMetric(ms(median(wall)), "wall-ms")
	b.ReportMetric(ms(bound), "bound-ms")
	b.ReportMetric(p50.Seconds()/bound.Seconds(), "x-bound")
	if base != nil {
		b.ReportMetric(p50.Seconds()/median(baseLat).Seconds(), "x-unfiltered")
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

const benchDims = 768

// benchSlab is a partition of rows random vectors of benchDims dimensions,
// built directly (100k items of 768 attribute values each would take
// gigabytes and minutes), with the codes of three inline filter columns:
// "every" (the same value on every row), "parity" (even and odd rows
// alternate) and "tenth" (ten values in turn).
func benchSlab(rows int) *partition {
	r := rand.New(rand.NewPCG(1, 1))
	p := &partition{
		keys:  make([]string, rows),
		vecs:  make([]float32, rows*benchDims),
		filt:  make([]uint32, 3*rows),
		items: make([]Item, rows),
		sizes: make([]int32, rows),
	}
	for i := range p.vecs {
		p.vecs[i] = float32(r.NormFloat64())
	}
	for row := range rows {
		p.keys[row] = fmt.Sprintf("item#%06d", row)
		p.filt[3*row] = 1                    // "Sx" (see benchIndex)
		p.filt[3*row+1] = 1 + uint32(row%2)  // "Seven", "Sodd"
		p.filt[3*row+2] = 1 + uint32(row%10) // "S0" to "S9"
		p.sizes[row] = int32(4*benchDims + len("embedding"))
	}
	return p
}

// benchIndex serves the shared slab with the per-row norms dist needs.
func benchIndex(b testing.TB, dist types.VectorDistanceFunction, p *partition) *Index {
	ix, err := New(Definition{Name: "vix", Attribute: "embedding", Dimensions: benchDims, Distance: dist, Projection: types.ProjectionTypeKeysOnly,
		Filters: []Attr{{Name: "every", Type: types.ScalarAttributeTypeS}, {Name: "parity", Type: types.ScalarAttributeTypeS}, {Name: "tenth", Type: types.ScalarAttributeTypeS}}})
	if err != nil {
		b.Fatal(err)
	}
	for row := range p.keys {
		ix.codes[0].acquire("Sx")
		ix.codes[1].acquire([]string{"Seven", "Sodd"}[row%2])
		ix.codes[2].acquire(fmt.Sprint("S", row%10))
	}
	cp := *p
	cp.norms = nil
	if dist != types.VectorDistanceFunctionDotProduct {
		rows := len(p.keys)
		cp.norms = make([]float64, rows)
		for row := range rows {
			v := p.vecs[row*benchDims : (row+1)*benchDims]
			if dist == types.VectorDistanceFunctionCosine {
				cp.norms[row] = norm32(v)
			} else {
				cp.norms[row] = sumSquares(v)
			}
		}
	}
	ix.parts[""] = &cp
	return ix
}

// sumPass reads every byte of v once, as 8-byte words into four
// independent integer accumulators: the least any exact search must do, at
// a cost per byte well below the memory system's, so its time is the
// memory-bandwidth bound.
func sumPass(v []float32) (time.Duration, uint64) {
	w := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(v))), len(v)/2)
	start := threadCPU()
	var s0, s1, s2, s3 uint64
	for i := 0; i+4 <= len(w); i += 4 {
		x := w[i : i+4 : i+4]
		s0 += x[0]
		s1 += x[1]
		s2 += x[2]
		s3 += x[3]
	}
	return threadCPU() - start, s0 + s1 + s2 + s3
}

var benchSink uint64

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkSearchSmall is the everyday benchmark: 10k×128 with an inline
// filter, in a normal -bench run.
func BenchmarkSearchSmall(b *testing.B) {
	def := Definition{Name: "vix", Attribute: "embedding", Dimensions: 128, Distance: types.VectorDistanceFunctionCosine,
		Projection: types.ProjectionTypeKeysOnly, Filters: []Attr{{Name: "cat", Type: types.ScalarAttributeTypeS}}}
	ix, _ := New(def)
	r := rand.New(rand.NewPCG(3, 3))
	for i := range 10_000 {
		l := make([]types.AttributeValue, 128)
		for j := range l {
			l[j] = &types.AttributeValueMemberN{Value: FormatFloat32(float32(r.NormFloat64()))}
		}
		ix.Upsert(fmt.Sprintf("k%05d", i), Item{
			"embedding": &types.AttributeValueMemberL{Value: l},
			"cat":       &types.AttributeValueMemberS{Value: []string{"a", "b"}[i%2]},
		})
	}
	q := make([]float32, 128)
	for i := range q {
		q[i] = float32(r.NormFloat64())
	}
	for _, c := range []struct {
		name  string
		equal Item
	}{{"all", nil}, {"filtered", Item{"cat": &types.AttributeValueMemberS{Value: "a"}}}} {
		b.Run(c.name, func(b *testing.B) {
			query := &Query{Vector: q, TopK: 10, Equal: c.equal}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ix.Search(query); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkUpsert768 is the index's share of a PutItem with a 768-dimension
// vector: Check (the server's validation call) plus Upsert.
func BenchmarkUpsert768(b *testing.B) {
	ix, _ := New(Definition{Name: "vix", Attribute: "embedding", Dimensions: benchDims, Distance: types.VectorDistanceFunctionCosine, Projection: types.ProjectionTypeAll, TableKeys: []string{"pk"}})
	r := rand.New(rand.NewPCG(4, 4))
	l := make([]types.AttributeValue, benchDims)
	for j := range l {
		l[j] = &types.AttributeValueMemberN{Value: FormatFloat32(float32(r.NormFloat64()))}
	}
	item := Item{"pk": &types.AttributeValueMemberS{Value: "k"}, "embedding": &types.AttributeValueMemberL{Value: l}}
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = fmt.Sprintf("k%04d", i)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if err := ix.Check(item); err != nil {
			b.Fatal(err)
		}
		ix.Upsert(keys[i%len(keys)], item)
		i++
	}
}
