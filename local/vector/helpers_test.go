package vector_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/internal/avtest"
	"github.com/dynamogo/dynamo/local/vector"
)

var s, n, bl, l = avtest.S, avtest.N, avtest.BOOL, avtest.L

// vec is a vector attribute value with the shortest text of each float32.
func vec(fs ...float32) types.AttributeValue {
	out := make([]types.AttributeValue, len(fs))
	for i, f := range fs {
		out[i] = n(strconv.FormatFloat(float64(f), 'g', -1, 32))
	}
	return l(out...)
}

func nums(fs ...float32) []types.AttributeValue {
	return vec(fs...).(*types.AttributeValueMemberL).Value
}

// eq is the parsed form of "name = placeholder".
func eq(name, placeholder string) *expr.Compare {
	return &expr.Compare{Op: expr.EQ, L: expr.Path{{Name: name}}, R: &expr.Value{Placeholder: placeholder}}
}

func and(cs ...expr.Cond) expr.Cond { return &expr.And{Conds: cs} }

func mustIndex(t testing.TB, d vector.Definition) *vector.Index {
	t.Helper()
	ix, err := vector.New(d)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func def(dist types.VectorDistanceFunction, dims int) vector.Definition {
	return vector.Definition{
		Name: "vix", Attribute: "embedding", Dimensions: dims, Distance: dist,
		Projection: types.ProjectionTypeAll, TableKeys: []string{"pk"},
	}
}

var distances = []types.VectorDistanceFunction{
	types.VectorDistanceFunctionCosine,
	types.VectorDistanceFunctionEuclidean,
	types.VectorDistanceFunctionDotProduct,
}

// refScore is the service's score, computed naively in float64.
func refScore(dist types.VectorDistanceFunction, q, v []float32) float64 {
	var dot, qq, vv, sq float64
	for i := range q {
		a, b := float64(q[i]), float64(v[i])
		dot += a * b
		qq += a * a
		vv += b * b
		sq += (a - b) * (a - b)
	}
	switch dist {
	case types.VectorDistanceFunctionCosine:
		if qq == 0 || vv == 0 {
			return 1
		}
		return math.Min(math.Max(1-dot/math.Sqrt(qq*vv), 0), 2)
	case types.VectorDistanceFunctionEuclidean:
		return math.Sqrt(sq)
	}
	return dot
}

type refHit struct {
	key   string
	score float64
}

// refSearch is the brute-force reference: score everything, sort by the
// service's direction, ties by key.
func refSearch(dist types.VectorDistanceFunction, q []float32, rows map[string][]float32, k int, keep func(string) bool) []refHit {
	var all []refHit
	for key, v := range rows {
		if keep != nil && !keep(key) {
			continue
		}
		all = append(all, refHit{key, refScore(dist, q, v)})
	}
	slices.SortFunc(all, func(a, b refHit) int {
		x, y := a.score, b.score
		if dist == types.VectorDistanceFunctionDotProduct {
			x, y = -x, -y
		}
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return strings.Compare(a.key, b.key)
	})
	return all[:min(k, len(all))]
}

func randVec(r *rand.Rand, dims int) []float32 {
	v := make([]float32, dims)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

// sameHits compares a search with the reference: same keys in the same
// order, scores within float64 rounding.
func sameHits(t *testing.T, got []vector.Hit, want []refHit) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d hits, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Key != want[i].key || math.Abs(got[i].Score-want[i].score) > 1e-9*math.Max(1, math.Abs(want[i].score)) {
			t.Fatalf("hit %d: got %s %.17g, want %s %.17g", i, got[i].Key, got[i].Score, want[i].key, want[i].score)
		}
	}
}

func keyOf(i int) string { return fmt.Sprintf("k%05d", i) }
