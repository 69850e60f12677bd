package vector

import "slices"

// cand is a row of the searched partition with its rank (lower is better).
type cand struct {
	rank float64
	row  int32
}

// heap is a bounded max-heap of the k best candidates seen so far: the root
// is the worst of them, so a new candidate is compared with one value and,
// when better, replaces the root. Ties on rank are broken by key, the
// smaller key being better, so the result does not depend on row order.
type heap struct {
	keys []string
	c    []cand
	k    int
}

// worse reports whether a ranks behind b.
func (h *heap) worse(a, b cand) bool {
	if a.rank != b.rank {
		return a.rank > b.rank
	}
	return h.keys[a.row] > h.keys[b.row]
}

func (h *heap) offer(rank float64, row int32) {
	x := cand{rank, row}
	if len(h.c) < h.k {
		h.c = append(h.c, x)
		i := len(h.c) - 1
		for i > 0 {
			parent := (i - 1) / 2
			if !h.worse(h.c[i], h.c[parent]) {
				break
			}
			h.c[i], h.c[parent] = h.c[parent], h.c[i]
			i = parent
		}
		return
	}
	if !h.worse(h.c[0], x) {
		return
	}
	h.c[0] = x
	i, n := 0, len(h.c)
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		w := l
		if r := l + 1; r < n && h.worse(h.c[r], h.c[l]) {
			w = r
		}
		if !h.worse(h.c[w], h.c[i]) {
			break
		}
		h.c[i], h.c[w] = h.c[w], h.c[i]
		i = w
	}
}

// sorted returns the candidates best first.
func (h *heap) sorted() []cand {
	slices.SortFunc(h.c, func(a, b cand) int {
		switch {
		case h.worse(b, a):
			return -1
		case h.worse(a, b):
			return 1
		}
		return 0
	})
	return h.c
}
