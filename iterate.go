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
}

// fetchFunc fetches the page that starts after start (nil: the first page).
type fetchFunc func(ctx context.Context, start map[string]types.AttributeValue) (rawPage, error)

// decodeFunc loads one item; ok=false skips it (an item of another entity).
type decodeFunc[T any] func(item map[string]types.AttributeValue) (v T, ok bool, err error)

// stream yields the decoded items of consecutive pages, fetching the next
// page only when the consumer has taken the previous one. limit > 0 caps the
// number of items yielded. An error is yielded once, then the stream ends.
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
			for _, item := range page.items {
				v, ok, err := decode(item)
				if err != nil {
					yield(zero, err)
					return
				}
				if !ok {
					continue
				}
				if !yield(v, nil) {
					return
				}
				if n++; limit > 0 && n >= limit {
					return
				}
			}
			if len(page.last) == 0 {
				return
			}
			start = page.last
		}
	}
}

// segmentPage is what a segment worker hands to the consumer.
type segmentPage[T any] struct {
	items []T
	err   error
}

// parallelScan runs one worker per segment, at most maxConcurrency of them
// fetching at once. Each worker decodes its page and blocks until the
// consumer takes it before fetching the next one, so memory stays around
// segments × page size. The first error wins and stops every worker; when the
// consumer stops (break, error, limit reached) every worker has exited before
// the iterator returns.
func parallelScan[T any](ctx context.Context, segments, maxConcurrency, limit int, fetch func(segment int) fetchFunc, decode decodeFunc[T]) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		ctx, cancel := context.WithCancel(ctx)
		var wg sync.WaitGroup
		defer wg.Wait() // runs after cancel below: no worker outlives the loop
		defer cancel()

		pages := make(chan segmentPage[T])
		sem := make(chan struct{}, maxConcurrency)
		var workers sync.WaitGroup
		for seg := range segments {
			wg.Add(1)
			workers.Add(1)
			go func() {
				defer wg.Done()
				defer workers.Done()
				scanSegment(ctx, sem, pages, fetch(seg), decode)
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
			for _, v := range p.items {
				if !yield(v, nil) {
					return
				}
				if n++; limit > 0 && n >= limit {
					return
				}
			}
		}
		if err := ctx.Err(); err != nil {
			yield(zero, mapError("Scan", "", callerDone(ctx, err)))
		}
	}
}

func scanSegment[T any](ctx context.Context, sem chan struct{}, pages chan<- segmentPage[T], fetch fetchFunc, decode decodeFunc[T]) {
	var start map[string]types.AttributeValue
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
				send(segmentPage[T]{err: err})
			}
			return
		}
		items := make([]T, 0, len(page.items))
		for _, item := range page.items {
			v, ok, err := decode(item)
			if err != nil {
				send(segmentPage[T]{err: err})
				return
			}
			if ok {
				items = append(items, v)
			}
		}
		if len(items) > 0 && !send(segmentPage[T]{items: items}) {
			return
		}
		if len(page.last) == 0 {
			return
		}
		start = page.last
	}
}
