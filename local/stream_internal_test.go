package local

import (
	"math/rand/v2"
	"testing"
)

// recTimes agrees with a plain slice through pushes and drops that cross
// chunk boundaries, down to empty and back.
func TestRecTimesChunks(t *testing.T) {
	var l recTimes
	var want []recTime
	rng := rand.New(rand.NewPCG(1, 2))
	seq := uint64(0)
	check := func() {
		t.Helper()
		if l.len() != len(want) {
			t.Fatalf("len %d, want %d", l.len(), len(want))
		}
		for i, w := range want {
			if got := l.at(i); got != w {
				t.Fatalf("at(%d) = %v, want %v", i, got, w)
			}
		}
		if len(want) > 0 {
			mid := want[len(want)/2].seq
			if i := l.search(func(r recTime) bool { return r.seq >= mid }); i != len(want)/2 {
				t.Fatalf("search found %d, want %d", i, len(want)/2)
			}
		}
		if l.search(func(recTime) bool { return false }) != len(want) {
			t.Fatal("search for nothing did not give len")
		}
		if most := (l.head+l.n+timesChunk-1)/timesChunk + 1; len(l.chunks) > most {
			t.Fatalf("%d chunks kept for %d entries from %d", len(l.chunks), l.n, l.head)
		}
	}
	for round := range 200 {
		for range rng.IntN(3 * timesChunk) {
			seq += 1 + rng.Uint64N(3)
			r := recTime{seq: seq, ms: int64(seq) * 10}
			l.push(r)
			want = append(want, r)
		}
		check()
		n := rng.IntN(len(want) + 1)
		if round%10 == 0 {
			n = len(want) // empty
		}
		l.drop(n)
		want = want[n:]
		check()
	}
}
