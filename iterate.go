package dynamo

import (
	"context"
	"iter"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// rawPage is one response page of a query or scan.
type rawPage struct {
	items []map[string]types.AttributeValue
	last  map[string]types.AttributeValue
	count int // the page's Count (with Select COUNT, items is empty)
}

// countPages sums the Count of every page from start on.
func countPages(ctx context.Context, start map[string]types.AttributeValue, fetch fetchFunc) (int, error) {
	n := 0
	for {
		p, err := fetch(ctx, start)
		if err != nil {
			return n, err
		}
		n += p.count
		if len(p.last) == 0 {
			return n, nil
		}
		start = p.last
	}
}

// fetchFunc fetches the page that starts after start (nil: the first page).
type fetchFunc func(ctx context.Context, start map[string]types.AttributeValue) (rawPage, error)

// decodeFunc loads one item; ok=false skips it (an item of another entity).
// An error is about that item alone: the stream yields it and goes on if
// the consumer does.
type decodeFunc[T any] func(item map[string]types.AttributeValue) (v T, ok bool, err error)

// result is one decoded item, or the error of an item that did not decode.
type result[T any] struct {
	v   T
	err error
}

// decodePage decodes the items of a page in order, keeping the errors of
// the items that do not decode in their place.
func decodePage[T any](items []map[string]types.AttributeValue, decode decodeFunc[T]) []result[T] {
	out := make([]result[T], 0, len(items))
	for _, item := range items {
		v, ok, err := decode(item)
		if err != nil || ok {
			out = append(out, result[T]{v, err})
		}
	}
	return out
}

// stream yields the decoded items of consecutive pages, fetching the next
// page only when the consumer has taken the previous one. limit > 0 caps the
// number of items yielded. A failed fetch is yielded once and ends the
// stream; an item that does not decode is yielded as its error, and the
// stream goes on if the consumer does.
func stream[T any](ctx context.Context, start map[string]types.AttributeValue, limit int, fetch fetchFunc, decode decodeFunc[T]) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		n := 0
		for {
			page, err := fetch(ctx, start)
			if err != nil {
				yield(zero, err)
				return
			}
			for _, r := range decodePage(page.items, decode) {
				if !yield(r.v, r.err) {
					return
				}
				if r.err == nil {
					if n++; limit > 0 && n >= limit {
						return
					}
				}
			}
			if len(page.last) == 0 {
				return
			}
			start = page.last
		}
	}
}

// segmentPage is what a segment worker hands to the consumer: a decoded
// page and where it ends (last), or the error that ended the segment.
type segmentPage[T any] struct {
	seg     int
	results []result[T]
	last    map[string]types.AttributeValue
	err     error
}

// segmentStart is where a segment of a parallel scan starts: after start
// (nil: at its beginning), or nowhere when it is done.
type segmentStart struct {
	start map[string]types.AttributeValue
	done  bool
}

// parallelScan runs one worker per segment not done, at most
// maxConcurrency of them fetching at once. Each worker decodes its page and
// blocks until the consumer takes it before fetching the next one, so
// memory stays around segments × page size. taken, when set, is called on
// the consumer's goroutine once the loop has taken every item of a page of
// segment seg, with the page's last key (empty: the segment is done). The
// first failed fetch wins and stops every worker; when the consumer stops
// (break, error, limit reached) every worker has exited before the
// iterator returns.
func parallelScan[T any](ctx context.Context, starts []segmentStart, maxConcurrency, limit int, fetch func(segment int) fetchFunc, decode decodeFunc[T], taken func(seg int, last map[string]types.AttributeValue)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		ctx, cancel := context.WithCancel(ctx)
		var wg sync.WaitGroup
		defer wg.Wait() // runs after cancel below: no worker outlives the loop
		defer cancel()

		pages := make(chan segmentPage[T])
		sem := make(chan struct{}, maxConcurrency)
		var workers sync.WaitGroup
		for seg, st := range starts {
			if st.done {
				continue
			}
			wg.Add(1)
			workers.Add(1)
			go func() {
				defer wg.Done()
				defer workers.Done()
				scanSegment(ctx, seg, st.start, sem, pages, fetch(seg), decode)
			}()
		}
		wg.Add(1)
		go func() { defer wg.Done(); workers.Wait(); close(pages) }()

		var zero T
		n := 0
		for p := range pages {
			if p.err != nil {
				yield(zero, p.err)
				return
			}
			for _, r := range p.results {
				if !yield(r.v, r.err) {
					return
				}
				if r.err == nil {
					if n++; limit > 0 && n >= limit {
						return
					}
				}
			}
			if taken != nil {
				taken(p.seg, p.last)
			}
		}
		if err := ctx.Err(); err != nil {
			yield(zero, mapError("Scan", "", callerDone(ctx, err)))
		}
	}
}

func scanSegment[T any](ctx context.Context, seg int, start map[string]types.AttributeValue, sem chan struct{}, pages chan<- segmentPage[T], fetch fetchFunc, decode decodeFunc[T]) {
	send := func(p segmentPage[T]) bool {
		select {
		case pages <- p:
			return true
		case <-ctx.Done():
			return false
		}
	}
	for {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			return
		}
		page, err := fetch(ctx, start)
		<-sem
		if err != nil {
			if ctx.Err() == nil {
				send(segmentPage[T]{seg: seg, err: err})
			}
			return
		}
		// Empty pages are handed over too: they move the segment's cursor.
		if !send(segmentPage[T]{seg: seg, results: decodePage(page.items, decode), last: page.last}) {
			return
		}
		if len(page.last) == 0 {
			return
		}
		start = page.last
	}
}
