package vector

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/internal/limits"
)

// Query is one nearest-neighbour search of an index. [Prepare] builds it
// from a SearchVectors request with the service's validation; a caller that
// has its own inputs may fill it directly.
type Query struct {
	Vector []float32 // exactly the index's Dimensions
	TopK   int       // 1..MaxTopK

	// Partition is the HASH value to search in; required when the index has
	// a HASH element, and must be nil when it has none.
	Partition types.AttributeValue

	// Equal holds INLINE_FILTER equalities by attribute name: an entry
	// matches when its attribute is present, of the same type and equal
	// (numbers by value: 1 equals 1.0). A mismatched type matches nothing.
	Equal map[string]types.AttributeValue

	// Keep, when set, is an extra predicate on the primary key, evaluated
	// after the inline filters (for example to hide TTL-expired items).
	Keep func(key string) bool

	// IncludeVector adds the vector attribute to each hit's Item, as the
	// index's float32 copy (see [FormatFloat32]). Set it when the request's
	// ProjectionExpression names the vector attribute ([NeedsVector]).
	IncludeVector bool
}

// Hit is one search result.
type Hit struct {
	Key   string  // the primary key as given to Upsert
	Score float64 // the service's score (see [Index.Search])
	Item  Item    // the projected attributes; a fresh map the caller may keep
}

// Result is the outcome of a search.
type Result struct {
	Hits    []Hit // best first; at most TopK
	Scanned int   // entries examined (every entry of the searched partition)

	// RequestBytes is ConsumedCapacity.VectorSearchRequestBytes: the
	// bytes of the entries examined, at least 1024. (The service's figure is
	// data-dependent and not reproducible; this one is deterministic.)
	RequestBytes float64
}

// MinRequestBytes is the floor of the vector capacity figures (1 KB).
const MinRequestBytes = 1024

// Search returns the exact TopK nearest neighbours of q.Vector in the
// searched partition (recall 1.0), best first, with the service's scores:
//
//   - COSINE: 1 − cosine similarity, in [0, 2], lowest best; a zero vector
//     on either side scores 1.
//   - EUCLIDEAN: the L2 distance (square root taken), lowest best.
//   - DOT_PRODUCT: the inner product, highest best.
//
// Scores are computed in float64 from the float32 elements and saturate to
// ±math.MaxFloat32. Equal scores come back in ascending key order (the
// service's order for ties is arbitrary). Search never allocates per
// candidate: it keeps a bounded heap of TopK rows.
func (ix *Index) Search(q *Query) (Result, error) {
	d := &ix.def
	if len(q.Vector) != d.Dimensions {
		return Result{}, validation(fmt.Sprintf("Input search vector dimension %d does not match vector index dimension %d", len(q.Vector), d.Dimensions))
	}
	if q.TopK < limits.MinTopK || q.TopK > MaxTopK {
		return Result{}, validation(fmt.Sprintf("Provided TopK value '%d' is out of valid range. The value must be between 1 and 100 inclusive", q.TopK))
	}
	pkey := ""
	if d.HasPartition() {
		if q.Partition == nil {
			return Result{}, validation("SearchConditionExpression must be provided when SearchSchema has a HASH key")
		}
		k, typ, ok := scalarKey(q.Partition)
		if !ok || typ != string(d.Partition.Type) {
			return Result{}, validation(fmt.Sprintf("Type of '%s' attribute in SearchConditionExpression (%s) does not match type in search schema (%s)", d.Partition.Name, typeName(q.Partition), d.Partition.Type))
		}
		pkey = k
	} else if q.Partition != nil {
		return Result{}, fmt.Errorf("vector: index %s has no HASH element to search a partition of", d.Name)
	}
	var conds [MaxInlineFilters]filterCond
	var wants [MaxInlineFilters]string // equality keys; "" matches nothing
	nc := 0
	for _, name := range slices.Sorted(maps.Keys(q.Equal)) {
		col := slices.IndexFunc(d.Filters, func(a Attr) bool { return a.Name == name })
		if col < 0 {
			return Result{}, validation("SearchConditionExpression must not contain any attributes that is not in SearchSchema. Invalid attribute: " + name)
		}
		if k, typ, ok := scalarKey(q.Equal[name]); ok && typ == string(d.Filters[col].Type) {
			wants[nc] = k
		}
		conds[nc].col = col
		nc++
	}

	ix.mu.RLock()
	defer ix.mu.RUnlock()
	p := ix.parts[pkey]
	if p == nil {
		return Result{Hits: []Hit{}, RequestBytes: MinRequestBytes}, nil
	}
	for i := range nc {
		conds[i].want = ix.codes[conds[i].col].lookup(wants[i])
	}
	top := ix.scan(p, q, conds[:nc])
	res := Result{Hits: make([]Hit, len(top)), Scanned: len(p.keys)}
	var bytes int64
	for _, s := range p.sizes {
		bytes += int64(s)
	}
	res.RequestBytes = float64(max(bytes, MinRequestBytes))
	for i, c := range top {
		item := maps.Clone(p.items[c.row])
		if item == nil {
			item = Item{}
		}
		if q.IncludeVector {
			item[d.Attribute] = vectorValue(p.vecs[int(c.row)*d.Dimensions : int(c.row+1)*d.Dimensions])
		}
		score := c.rank
		if d.Distance == types.VectorDistanceFunctionDotProduct {
			score = -score
		}
		res.Hits[i] = Hit{Key: p.keys[c.row], Score: score, Item: item}
	}
	return res, nil
}

type filterCond struct {
	col  int
	want uint32 // a code of ix.codes[col]
}

// scan scores every row of p that passes the filters and returns the best
// TopK, sorted. rank is the score arranged so that lower is better (the
// negated score for DOT_PRODUCT).
func (ix *Index) scan(p *partition, q *Query, conds []filterCond) []cand {
	d := &ix.def
	dim := d.Dimensions
	nf := len(d.Filters)
	qv := make([]float64, dim)
	for i, f := range q.Vector {
		qv[i] = float64(f)
	}
	var qnorm, qq float64
	switch d.Distance {
	case types.VectorDistanceFunctionCosine:
		qnorm = norm32(q.Vector)
	case types.VectorDistanceFunctionEuclidean:
		qq = sumSquares(q.Vector)
	}
	h := heap{keys: p.keys, c: make([]cand, 0, q.TopK), k: q.TopK}
	n := len(p.keys)
	vecs := p.vecs[:n*dim]
	filtered := len(conds) > 0 || q.Keep != nil
	next := 0
	if filtered {
		next = p.next(0, nf, conds, q.Keep)
	}
	for r := next; r < n; r = next {
		next = r + 1
		// Consecutive rows stream from memory at full speed; a row after a
		// gap is prefetched while this one is scored (ahead), or a search
		// that skips rows would wait on memory latency and take longer
		// than one that reads them all.
		var ahead []float32
		if filtered {
			if next = p.next(r+1, nf, conds, q.Keep); next > r+1 && next < n {
				ahead = vecs[next*dim : next*dim+dim]
			}
		}
		v := vecs[r*dim : r*dim+dim]
		var rank float64
		switch d.Distance {
		case types.VectorDistanceFunctionCosine:
			rank = 1
			if den := qnorm * p.norms[r]; den != 0 {
				rank = min(max(1-dot(qv, v, ahead)/den, 0), 2)
			}
		case types.VectorDistanceFunctionEuclidean:
			// Screen with qq + vv − 2q·v, which runs at the speed of a dot
			// product, and compute the exact distance (no cancellation)
			// only for rows that may enter the heap: a row is skipped only
			// when even the estimate minus its error bound is worse.
			if len(h.c) == h.k && h.c[0].rank < maxScore {
				vv := p.norms[r]
				est := qq + vv - 2*dot(qv, v, ahead)
				w := h.c[0].rank
				if est-squaredDistanceBound(dim, qq, vv) > w*w*(1+0x1p-40) {
					continue
				}
			}
			rank = saturate(sqrt(squaredDistance(qv, v)))
		default: // DOT_PRODUCT: highest is best
			rank = -saturate(dot(qv, v, ahead))
		}
		if len(h.c) == h.k && rank > h.c[0].rank {
			continue // the common case once the heap is full: not among the best
		}
		h.offer(rank, int32(r))
	}
	return h.sorted()
}

// next returns the first row from r on that passes the filters and keep,
// or len(p.keys).
func (p *partition) next(r, nf int, conds []filterCond, keep func(string) bool) int {
rows:
	for ; r < len(p.keys); r++ {
		for _, c := range conds {
			if p.filt[r*nf+c.col] != c.want {
				continue rows
			}
		}
		if keep == nil || keep(p.keys[r]) {
			return r
		}
	}
	return r
}

// maxScore is the saturation value of scores: ties at it are decided by
// key, so the Euclidean screen (which only proves "worse") stays off.
const maxScore = math.MaxFloat32

// vectorValue is the float32 copy as a DynamoDB list of numbers.
func vectorValue(v []float32) types.AttributeValue {
	l := make([]types.AttributeValue, len(v))
	buf := make([]byte, 0, 16*len(v))
	for i, f := range v {
		start := len(buf)
		buf = appendFloat32(buf, f)
		l[i] = &types.AttributeValueMemberN{Value: string(buf[start:])}
	}
	return &types.AttributeValueMemberL{Value: l}
}

// NeedsVector reports whether a parsed ProjectionExpression (top-level
// names resolved through names) asks for the index's vector attribute, so
// that the caller sets [Query.IncludeVector].
func NeedsVector(d *Definition, topLevel []string, names map[string]string) bool {
	for _, n := range topLevel {
		if strings.HasPrefix(n, "#") {
			n = names[n]
		}
		if n == d.Attribute {
			return true
		}
	}
	return false
}
