package vector_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/local/vector"
)

func TestSearchMatchesReference(t *testing.T) {
	for _, dist := range distances {
		for _, dims := range []int{1, 3, 17, 64} {
			t.Run(string(dist), func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(dims), 7))
				ix := mustIndex(t, def(dist, dims))
				rows := map[string][]float32{}
				for i := range 300 {
					v := randVec(r, dims)
					rows[keyOf(i)] = v
					if !ix.Upsert(keyOf(i), vector.Item{"pk": s(keyOf(i)), "embedding": vec(v...)}) {
						t.Fatalf("row %d not indexed", i)
					}
				}
				for _, k := range []int{1, 5, 100} {
					q := randVec(r, dims)
					res, err := ix.Search(&vector.Query{Vector: q, TopK: k})
					if err != nil {
						t.Fatal(err)
					}
					sameHits(t, res.Hits, refSearch(dist, q, rows, k, nil))
					if res.Scanned != 300 {
						t.Errorf("Scanned = %d, want 300", res.Scanned)
					}
				}
			})
		}
	}
}

// The values the service returns for the query [1,0,0] (spec 2.3).
func TestObservedScores(t *testing.T) {
	items := map[string][]float32{
		"a-same":       {1, 0, 0},
		"b-tilted":     {0.6, 0.8, 0},
		"c-orthogonal": {0, 1, 0},
		"d-opposite":   {-1, 0, 0},
		"e-longer":     {10, 0, 0},
	}
	want := map[types.VectorDistanceFunction]map[string]float64{
		types.VectorDistanceFunctionCosine:     {"a-same": 0, "b-tilted": 0.4, "c-orthogonal": 1, "d-opposite": 2, "e-longer": 0},
		types.VectorDistanceFunctionEuclidean:  {"a-same": 0, "b-tilted": math.Sqrt(0.8), "c-orthogonal": math.Sqrt2, "d-opposite": 2, "e-longer": 9},
		types.VectorDistanceFunctionDotProduct: {"a-same": 1, "b-tilted": 0.6, "c-orthogonal": 0, "d-opposite": -1, "e-longer": 10},
	}
	order := map[types.VectorDistanceFunction][]string{
		types.VectorDistanceFunctionCosine:     {"a-same", "e-longer", "b-tilted", "c-orthogonal", "d-opposite"},
		types.VectorDistanceFunctionEuclidean:  {"a-same", "b-tilted", "c-orthogonal", "d-opposite", "e-longer"},
		types.VectorDistanceFunctionDotProduct: {"e-longer", "a-same", "b-tilted", "c-orthogonal", "d-opposite"},
	}
	for _, dist := range distances {
		t.Run(string(dist), func(t *testing.T) {
			ix := mustIndex(t, def(dist, 3))
			for k, v := range items {
				ix.Upsert(k, vector.Item{"pk": s(k), "embedding": vec(v...)})
			}
			res, err := ix.Search(&vector.Query{Vector: []float32{1, 0, 0}, TopK: 10})
			if err != nil {
				t.Fatal(err)
			}
			for i, h := range res.Hits {
				if h.Key != order[dist][i] {
					t.Errorf("hit %d = %s, want %s", i, h.Key, order[dist][i])
				}
				// 0.6 and 0.8 are not exact in float32: allow float32 rounding.
				if w := want[dist][h.Key]; math.Abs(h.Score-w) > 1e-6 {
					t.Errorf("%s: score %v, want %v", h.Key, h.Score, w)
				}
			}
		})
	}
}

func TestZeroVectorAndSaturation(t *testing.T) {
	ix := mustIndex(t, def(types.VectorDistanceFunctionCosine, 2))
	ix.Upsert("zero", vector.Item{"embedding": vec(0, 0)})
	ix.Upsert("one", vector.Item{"embedding": vec(1, 0)})
	res, _ := ix.Search(&vector.Query{Vector: []float32{0, 0}, TopK: 2})
	for _, h := range res.Hits {
		if h.Score != 1 {
			t.Errorf("COSINE with a zero vector: %s scored %v, want 1", h.Key, h.Score)
		}
	}

	big := float32(math.MaxFloat32)
	for _, dist := range []types.VectorDistanceFunction{types.VectorDistanceFunctionDotProduct, types.VectorDistanceFunctionEuclidean} {
		ix := mustIndex(t, def(dist, 2))
		ix.Upsert("max", vector.Item{"embedding": vec(big, big)})
		ix.Upsert("min", vector.Item{"embedding": vec(-big, -big)})
		res, err := ix.Search(&vector.Query{Vector: []float32{big, big}, TopK: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Hits {
			if math.IsInf(h.Score, 0) || math.IsNaN(h.Score) || math.Abs(h.Score) > math.MaxFloat32 {
				t.Errorf("%s %s: score %v not saturated", dist, h.Key, h.Score)
			}
		}
		if dist == types.VectorDistanceFunctionDotProduct && (res.Hits[0].Score != math.MaxFloat32 || res.Hits[1].Score != -math.MaxFloat32) {
			t.Errorf("DOT_PRODUCT saturation: %+v", res.Hits)
		}
	}
}

func TestTiesComeBackInKeyOrder(t *testing.T) {
	for _, dist := range distances {
		ix := mustIndex(t, def(dist, 4))
		// Inserted in reverse key order, all with the same vector: every
		// score is equal, so key order alone decides, including which rows
		// make the cut at TopK.
		for i := 50; i > 0; i-- {
			ix.Upsert(keyOf(i), vector.Item{"embedding": vec(1, 2, 3, 4)})
		}
		ix.Upsert("a-best", vector.Item{"embedding": vec(1, 2, 3, 4.5)})
		q := []float32{1, 2, 3, 5}
		res, err := ix.Search(&vector.Query{Vector: q, TopK: 10})
		if err != nil {
			t.Fatal(err)
		}
		if res.Hits[0].Key != "a-best" {
			t.Fatalf("%s: best = %s", dist, res.Hits[0].Key)
		}
		for i, h := range res.Hits[1:] {
			if h.Key != keyOf(i+1) || h.Score != res.Hits[1].Score {
				t.Errorf("%s: tie %d = %s (%v), want %s", dist, i, h.Key, h.Score, keyOf(i+1))
			}
		}
	}
}

func TestPartitionsAndFilters(t *testing.T) {
	d := def(types.VectorDistanceFunctionEuclidean, 8)
	d.Partition = vector.Attr{Name: "tenant", Type: types.ScalarAttributeTypeS}
	d.Filters = []vector.Attr{{Name: "category", Type: types.ScalarAttributeTypeS}, {Name: "year", Type: types.ScalarAttributeTypeN}}
	ix := mustIndex(t, d)
	r := rand.New(rand.NewPCG(1, 2))
	type row struct {
		tenant, category, year string
		v                      []float32
	}
	rows := map[string]row{}
	tenants, cats, years := []string{"acme", "globex"}, []string{"shoes", "hats", ""}, []string{"2024", "2025", ""}
	for i := range 400 {
		rw := row{tenants[r.IntN(2)], cats[r.IntN(3)], years[r.IntN(3)], randVec(r, 8)}
		item := vector.Item{"pk": s(keyOf(i)), "tenant": s(rw.tenant), "embedding": vec(rw.v...)}
		if rw.category != "" {
			item["category"] = s(rw.category)
		}
		if rw.year != "" {
			item["year"] = n(rw.year)
		}
		rows[keyOf(i)] = rw
		ix.Upsert(keyOf(i), item)
	}
	cases := []struct {
		name    string
		tenant  string
		equal   vector.Item
		keep    func(key string) bool
		matches func(row) bool
	}{
		{"tenant only", "acme", nil, nil, func(rw row) bool { return rw.tenant == "acme" }},
		{"category", "globex", vector.Item{"category": s("hats")}, nil, func(rw row) bool { return rw.tenant == "globex" && rw.category == "hats" }},
		// Numbers match by value: 2025.0 is 2025.
		{"year by value", "acme", vector.Item{"year": n("2025.0")}, nil, func(rw row) bool { return rw.tenant == "acme" && rw.year == "2025" }},
		{"two filters", "acme", vector.Item{"year": n("2024"), "category": s("shoes")}, nil, func(rw row) bool {
			return rw.tenant == "acme" && rw.year == "2024" && rw.category == "shoes"
		}},
		{"type mismatch matches nothing", "acme", vector.Item{"year": s("2024")}, nil, func(row) bool { return false }},
		{"keep", "acme", nil, func(k string) bool { return k < "k00100" }, func(rw row) bool { return rw.tenant == "acme" }},
		{"unknown tenant", "initech", nil, nil, func(row) bool { return false }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := randVec(r, 8)
			ref := map[string][]float32{}
			for k, rw := range rows {
				if c.matches(rw) {
					ref[k] = rw.v
				}
			}
			res, err := ix.Search(&vector.Query{Vector: q, TopK: 7, Partition: s(c.tenant), Equal: c.equal, Keep: c.keep})
			if err != nil {
				t.Fatal(err)
			}
			sameHits(t, res.Hits, refSearch(types.VectorDistanceFunctionEuclidean, q, ref, 7, c.keep))
			if res.Hits == nil {
				t.Error("Hits is nil, want an empty slice (SearchResults: [])")
			}
		})
	}
}

// TestUpsertDeleteConsistency drives random writes against a model and
// checks every search, unfiltered and filtered, against the reference on
// the model. Filter values come and go (some are used by a single write),
// so the filter codes are released and reused along the way.
func TestUpsertDeleteConsistency(t *testing.T) {
	d := def(types.VectorDistanceFunctionCosine, 5)
	d.Partition = vector.Attr{Name: "p", Type: types.ScalarAttributeTypeN}
	d.Filters = []vector.Attr{{Name: "f", Type: types.ScalarAttributeTypeS}}
	ix := mustIndex(t, d)
	r := rand.New(rand.NewPCG(3, 4))
	model := map[string]map[string][]float32{} // partition → key → vector
	part := map[string]string{}                // key → partition
	filter := map[string]string{}              // key → filter value ("" absent)
	forget := func(key string) {
		if old, ok := part[key]; ok {
			delete(model[old], key)
			delete(part, key)
			delete(filter, key)
		}
	}
	for step := range 3000 {
		key := keyOf(r.IntN(60))
		switch op := r.IntN(10); {
		case op < 6: // put, possibly moving the item to another partition
			p := []string{"1", "2", "3"}[r.IntN(3)]
			v := randVec(r, 5)
			item := vector.Item{"p": n(p), "embedding": vec(v...)}
			f := []string{"", "a", "b", fmt.Sprint("once", step)}[r.IntN(4)]
			if f != "" {
				item["f"] = s(f)
			}
			ix.Upsert(key, item)
			forget(key)
			if model[p] == nil {
				model[p] = map[string][]float32{}
			}
			model[p][key], part[key], filter[key] = v, p, f
		case op < 8: // delete
			ix.Delete(key)
			forget(key)
		default: // an update that removes the vector takes the item out
			ix.Upsert(key, vector.Item{"p": n("1"), "f": s("a")})
			forget(key)
		}
		if step%50 == 0 {
			for _, p := range []string{"1", "2", "3"} {
				q := randVec(r, 5)
				res, err := ix.Search(&vector.Query{Vector: q, TopK: 100, Partition: n(p)})
				if err != nil {
					t.Fatal(err)
				}
				sameHits(t, res.Hits, refSearch(d.Distance, q, model[p], 100, nil))
				for i := range 52 {
					f := fmt.Sprint("once", step-i)
					if i >= 50 {
						f = []string{"a", "b"}[i-50]
					}
					res, err = ix.Search(&vector.Query{Vector: q, TopK: 100, Partition: n(p), Equal: vector.Item{"f": s(f)}})
					if err != nil {
						t.Fatal(err)
					}
					sameHits(t, res.Hits, refSearch(d.Distance, q, model[p], 100, func(k string) bool { return filter[k] == f }))
				}
			}
			if ix.Len() != len(part) {
				t.Fatalf("Len = %d, want %d", ix.Len(), len(part))
			}
		}
	}
}

func TestUpsertSkipsWhatCheckRejects(t *testing.T) {
	d := def(types.VectorDistanceFunctionDotProduct, 2)
	d.Partition = vector.Attr{Name: "tenant", Type: types.ScalarAttributeTypeS}
	d.Filters = []vector.Attr{{Name: "cat", Type: types.ScalarAttributeTypeN}}
	ix := mustIndex(t, d)
	for name, item := range map[string]vector.Item{
		"no vector":      {"tenant": s("t")},
		"no tenant":      {"embedding": vec(1, 2)},
		"empty tenant":   {"tenant": s(""), "embedding": vec(1, 2)},
		"tenant type":    {"tenant": n("1"), "embedding": vec(1, 2)},
		"short vector":   {"tenant": s("t"), "embedding": vec(1)},
		"string element": {"tenant": s("t"), "embedding": l(n("1"), s("2"))},
		"out of range":   {"tenant": s("t"), "embedding": l(n("1"), n("1e39"))},
		"filter type":    {"tenant": s("t"), "embedding": vec(1, 2), "cat": s("x")},
	} {
		if ix.Upsert("k", item) {
			t.Errorf("%s: indexed", name)
		}
		if ix.Len() != 0 {
			t.Errorf("%s: Len = %d", name, ix.Len())
		}
	}
	if !ix.Upsert("k", vector.Item{"tenant": s("t"), "embedding": vec(1, 2)}) {
		t.Error("valid item not indexed")
	}
}

func TestProjection(t *testing.T) {
	item := vector.Item{
		"pk": s("a"), "sk": s("1"), "tenant": s("t"), "cat": s("c"),
		"title": s("Title"), "body": s("Body"), "embedding": vec(1, 16777217, 0.1),
	}
	cases := []struct {
		proj    types.ProjectionType
		include []string
		want    []string
	}{
		{types.ProjectionTypeAll, nil, []string{"pk", "sk", "tenant", "cat", "title", "body"}},
		{types.ProjectionTypeKeysOnly, nil, []string{"pk", "sk", "tenant", "cat"}},
		{types.ProjectionTypeInclude, []string{"title"}, []string{"pk", "sk", "tenant", "cat", "title"}},
	}
	for _, c := range cases {
		d := def(types.VectorDistanceFunctionCosine, 3)
		d.TableKeys = []string{"pk", "sk"}
		d.Partition = vector.Attr{Name: "tenant", Type: types.ScalarAttributeTypeS}
		d.Filters = []vector.Attr{{Name: "cat", Type: types.ScalarAttributeTypeS}}
		d.Projection, d.NonKeyAttributes = c.proj, c.include
		ix := mustIndex(t, d)
		ix.Upsert("a", item)
		for _, withVector := range []bool{false, true} {
			res, err := ix.Search(&vector.Query{Vector: []float32{1, 0, 0}, TopK: 1, Partition: s("t"), IncludeVector: withVector})
			if err != nil {
				t.Fatal(err)
			}
			got := res.Hits[0].Item
			want := len(c.want)
			if withVector {
				want++
				// The index's float32 copy, as the service returns it.
				l := got["embedding"].(*types.AttributeValueMemberL).Value
				var texts []string
				for _, e := range l {
					texts = append(texts, e.(*types.AttributeValueMemberN).Value)
				}
				if texts[0] != "1.0" || texts[1] != "16777216.0" || texts[2] != "0.1" {
					t.Errorf("vector copy = %v", texts)
				}
			} else if _, ok := got["embedding"]; ok {
				t.Errorf("%s: vector returned without being asked for", c.proj)
			}
			if len(got) != want {
				t.Errorf("%s: item %v, want attributes %v", c.proj, got, c.want)
			}
			for _, a := range c.want {
				if _, ok := got[a]; !ok {
					t.Errorf("%s: %s missing", c.proj, a)
				}
			}
		}
	}
}

func TestSearchRejectsBadQueries(t *testing.T) {
	d := def(types.VectorDistanceFunctionCosine, 3)
	d.Partition = vector.Attr{Name: "tenant", Type: types.ScalarAttributeTypeS}
	ix := mustIndex(t, d)
	for _, q := range []vector.Query{
		{Vector: []float32{1, 2}, TopK: 1, Partition: s("t")},
		{Vector: []float32{1, 2, 3}, TopK: 0, Partition: s("t")},
		{Vector: []float32{1, 2, 3}, TopK: 101, Partition: s("t")},
		{Vector: []float32{1, 2, 3}, TopK: 1},
		{Vector: []float32{1, 2, 3}, TopK: 1, Partition: n("1")},
		{Vector: []float32{1, 2, 3}, TopK: 1, Partition: s("t"), Equal: vector.Item{"other": s("x")}},
	} {
		if _, err := ix.Search(&q); err == nil {
			t.Errorf("Search(%+v) succeeded", q)
		}
	}
}

func TestRequestBytesAndSize(t *testing.T) {
	ix := mustIndex(t, def(types.VectorDistanceFunctionCosine, 3))
	res, _ := ix.Search(&vector.Query{Vector: []float32{1, 0, 0}, TopK: 1})
	if res.RequestBytes != 1024 {
		t.Errorf("empty index: RequestBytes = %v, want the 1 KB floor", res.RequestBytes)
	}
	big := mustIndex(t, def(types.VectorDistanceFunctionCosine, 300))
	for i := range 3 {
		big.Upsert(keyOf(i), vector.Item{"pk": s(keyOf(i)), "embedding": vec(make([]float32, 300)...)})
	}
	// Each entry: 4×300 + len("embedding") + len("pk") + len("k00000").
	per := int64(4*300 + 9 + 2 + 6)
	if got := big.SizeBytes(); got != 3*per {
		t.Errorf("SizeBytes = %d, want %d", got, 3*per)
	}
	res, _ = big.Search(&vector.Query{Vector: make([]float32, 300), TopK: 1})
	if res.RequestBytes != float64(3*per) {
		t.Errorf("RequestBytes = %v, want %d", res.RequestBytes, 3*per)
	}
	big.Delete(keyOf(0))
	if got := big.SizeBytes(); got != 2*per {
		t.Errorf("after delete: SizeBytes = %d, want %d", got, 2*per)
	}
}

// TestConcurrentWritesAndSearches is for -race: searches run while writes
// move rows around the slab.
func TestConcurrentWritesAndSearches(t *testing.T) {
	ix := mustIndex(t, def(types.VectorDistanceFunctionDotProduct, 8))
	done := make(chan struct{})
	go func() {
		defer close(done)
		r := rand.New(rand.NewPCG(5, 6))
		for i := range 2000 {
			if i%3 == 0 {
				ix.Delete(keyOf(r.IntN(100)))
			} else {
				ix.Upsert(keyOf(r.IntN(100)), vector.Item{"embedding": vec(randVec(r, 8)...)})
			}
		}
	}()
	q := make([]float32, 8)
	for {
		select {
		case <-done:
			return
		default:
		}
		res, err := ix.Search(&vector.Query{Vector: q, TopK: 10, IncludeVector: true})
		if err != nil || len(res.Hits) > 10 {
			t.Fatal(err, len(res.Hits))
		}
	}
}

// Near neighbours far from the origin are where |q|²+|v|²−2q·v loses its
// digits to cancellation; the Euclidean screen must still give the exact
// ranking, as must the other distances.
func TestClusteredNeighboursFarFromOrigin(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	const dims = 32
	base := make([]float32, dims)
	for i := range base {
		base[i] = 1000 + float32(r.NormFloat64())*100
	}
	near := func(scale float64) []float32 {
		v := make([]float32, dims)
		for i := range v {
			v[i] = base[i] + float32(r.NormFloat64()*scale)
		}
		return v
	}
	for _, dist := range distances {
		ix := mustIndex(t, def(dist, dims))
		rows := map[string][]float32{}
		for i := range 500 {
			v := near([]float64{1e-2, 1e-1, 1}[i%3])
			rows[keyOf(i)] = v
			ix.Upsert(keyOf(i), vector.Item{"embedding": vec(v...)})
		}
		for range 5 {
			q := near(1e-2)
			res, err := ix.Search(&vector.Query{Vector: q, TopK: 20})
			if err != nil {
				t.Fatal(err)
			}
			want := refSearch(dist, q, rows, 20, nil)
			if dist == types.VectorDistanceFunctionEuclidean {
				sameHits(t, res.Hits, want)
				continue
			}
			// COSINE and DOT_PRODUCT scores this close together differ
			// from the reference in the last bits, so compare scores only.
			for i := range want {
				if math.Abs(res.Hits[i].Score-want[i].score) > 1e-9*math.Max(1, math.Abs(want[i].score)) {
					t.Fatalf("%s hit %d: %v, want %v", dist, i, res.Hits[i].Score, want[i].score)
				}
			}
		}
	}
}

// A search allocates per hit, never per candidate.
func TestSearchAllocationsDoNotGrowWithTheIndex(t *testing.T) {
	allocs := func(rows int) float64 {
		ix := mustIndex(t, def(types.VectorDistanceFunctionEuclidean, 16))
		r := rand.New(rand.NewPCG(uint64(rows), 1))
		for i := range rows {
			ix.Upsert(keyOf(i), vector.Item{"pk": s(keyOf(i)), "embedding": vec(randVec(r, 16)...)})
		}
		q := &vector.Query{Vector: randVec(r, 16), TopK: 5}
		return testing.AllocsPerRun(20, func() {
			if _, err := ix.Search(q); err != nil {
				t.Fatal(err)
			}
		})
	}
	if small, large := allocs(50), allocs(5000); large != small {
		t.Errorf("allocations per search: %v with 50 rows, %v with 5000", small, large)
	}
}
