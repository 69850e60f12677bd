package dynamo

import (
	"context"
	"iter"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/request"
)

// Page is one response of [Table.Query], [Table.Scan] or [Table.Execute].
type Page[T any] struct {
	// Items are the loaded items of this schema's entity; items of other
	// entities sharing the table are skipped (they still count in Count).
	Items []T
	// Cursor continues after this page (pass it to StartAfter); "" when
	// there are no more pages. It is URL-safe text holding the page's last
	// key: treat it like the keys themselves.
	Cursor string
	// Count and ScannedCount are DynamoDB's: items returned after the filter,
	// and items evaluated before it.
	Count, ScannedCount int
	// ConsumedCapacity is set when asked for with ConsumedCapacity.
	ConsumedCapacity *types.ConsumedCapacity
}

// HasMore reports whether another page may follow.
func (p *Page[T]) HasMore() bool { return p.Cursor != "" }

// Query reads one page of the partition whose key fields are set on key
// (the sort-key condition is derived from the sort-key fields set, or given
// by a Sort option; see [SortEq]). Limit is DynamoDB's Limit; continue with
// StartAfter(page.Cursor). Items that do not load are left out of the page
// and reported as one ErrDecode with their keys in Error.Keys, returned
// with the page (its other items and Cursor).
//
//	page, err := orders.Query(ctx, Order{UserID: "u"}, dynamo.SortBeginsWith("2024-06"), dynamo.Limit(50))
func (t *Table[T]) Query(ctx context.Context, key T, opts ...QueryOption) (Page[T], error) {
	var p Page[T]
	err := t.run(ctx, "Query", func(ctx context.Context, op string) error {
		in, err := request.Query(t.schema, key, opts...)
		if err != nil {
			return invalid(op, err)
		}
		out, err := t.repo.api.Query(ctx, in, t.repo.callOpts...)
		if err != nil {
			return mapError(op, t.schema.Table(), err)
		}
		p, err = t.page(op, out.Items, out.LastEvaluatedKey, out.Count, out.ScannedCount, out.ConsumedCapacity)
		return err
	})
	return p, err
}

// Scan reads one page of the schema's table (or Index); items that do not
// load are reported as Query reports them.
func (t *Table[T]) Scan(ctx context.Context, opts ...ScanOption) (Page[T], error) {
	var p Page[T]
	err := t.run(ctx, "Scan", func(ctx context.Context, op string) error {
		in, err := request.Scan(t.schema, opts...)
		if err != nil {
			return invalid(op, err)
		}
		out, err := t.repo.api.Scan(ctx, in, t.repo.callOpts...)
		if err != nil {
			return mapError(op, t.schema.Table(), err)
		}
		p, err = t.page(op, out.Items, out.LastEvaluatedKey, out.Count, out.ScannedCount, out.ConsumedCapacity)
		return err
	})
	return p, err
}

// page builds a Page. Items that do not decode are left out and reported
// together as one ErrDecode with their keys, returned with the page (its
// other items and its Cursor), so that a caller can go on past them.
func (t *Table[T]) page(op string, items []map[string]types.AttributeValue, last map[string]types.AttributeValue, count, scanned int32, cc *types.ConsumedCapacity) (Page[T], error) {
	p := Page[T]{Items: make([]T, 0, len(items)), Count: int(count), ScannedCount: int(scanned), ConsumedCapacity: cc}
	var bad []*Error
	for _, item := range items {
		if !t.schema.Owns(item) {
			continue
		}
		// Each item is decoded in its place in the page, not copied there.
		n := len(p.Items)
		p.Items = p.Items[:n+1]
		if err := loadItemInto(t.schema, op, item, &p.Items[n]); err != nil {
			var zero T
			p.Items[n], p.Items = zero, p.Items[:n]
			e, _ := undecodable(err)
			bad = append(bad, e)
		}
	}
	c, err := request.EncodeCursor(last)
	if err != nil {
		return Page[T]{}, &Error{Type: ErrDecode, Op: op, Table: t.schema.Table(), Message: "cursor: " + err.Error(), cause: err}
	}
	p.Cursor = c
	return p, decodeErrors(bad)
}

// QueryStream queries lazily: a page is fetched only when the loop needs it
// (page size Limit, total cap MaxItems). A failed request is yielded once
// and ends the loop. An item that does not decode is yielded as an
// ErrDecode with its key in Error.Keys, and the loop goes on if it
// continues. Breaking out stops fetching.
//
//	for o, err := range orders.QueryStream(ctx, Order{UserID: "u"}, dynamo.Limit(100)) {
//		if err != nil { return err }
//		…
//	}
func (t *Table[T]) QueryStream(ctx context.Context, key T, opts ...QueryAllOption) iter.Seq2[T, error] {
	const op = "Query"
	return t.stream(ctx, op, func(ctx context.Context) (iter.Seq2[T, error], error) {
		in, p, err := request.QueryAll(t.schema, key, opts...)
		if err != nil {
			return nil, invalid(op, err)
		}
		return stream(ctx, in.ExclusiveStartKey, p.MaxItems, t.queryFetch(in), t.decodeOwned(op)), nil
	})
}

func (t *Table[T]) queryFetch(in *dynamodb.QueryInput) fetchFunc {
	return func(ctx context.Context, start map[string]types.AttributeValue) (rawPage, error) {
		q := *in
		q.ExclusiveStartKey = start
		out, err := t.repo.api.Query(ctx, &q, t.repo.callOpts...)
		if err != nil {
			return rawPage{}, mapError("Query", t.schema.Table(), err)
		}
		return rawPage{items: out.Items, last: out.LastEvaluatedKey, count: int(out.Count)}, nil
	}
}

// QueryAll collects every item of the query, page after page; MaxItems
// caps the total. Without it the whole partition is loaded into memory.
// Items that do not decode do not stop it: it returns the others with one
// ErrDecode whose Keys are theirs.
func (t *Table[T]) QueryAll(ctx context.Context, key T, opts ...QueryAllOption) ([]T, error) {
	return collect(t.QueryStream(ctx, key, opts...))
}

// ScanStream scans lazily, like [Table.QueryStream]. With Parallel it is a
// parallel scan: one goroutine per segment, at most its workers fetching at
// once, each holding at most one page until the loop takes it (memory ≈
// segments × page size). Results then arrive in no particular order. The
// first error ends the loop; when the loop ends (break, error, MaxItems
// reached, canceled context) every goroutine has exited.
func (t *Table[T]) ScanStream(ctx context.Context, opts ...ScanAllOption) iter.Seq2[T, error] {
	const op = "Scan"
	return t.stream(ctx, op, func(ctx context.Context) (iter.Seq2[T, error], error) {
		in, p, err := request.ScanAll(t.schema, opts...)
		if err != nil {
			return nil, invalid(op, err)
		}
		if p.Segments <= 1 && p.Resume == nil {
			return stream(ctx, in.ExclusiveStartKey, p.MaxItems, t.scanFetch(in), t.decodeOwned(op)), nil
		}
		workers := p.Workers
		if workers == 0 || workers > p.Segments {
			workers = p.Segments
		}
		starts := make([]segmentStart, p.Segments)
		var taken func(int, map[string]types.AttributeValue)
		if cur := p.Resume; cur != nil {
			if len(cur.Segments) == 0 {
				cur.Segments = make([]request.SegmentCursor, p.Segments)
			}
			for i := range starts {
				starts[i] = segmentStart{start: p.Starts[i], done: cur.Segments[i].Done}
			}
			taken = func(seg int, last map[string]types.AttributeValue) {
				after, _ := request.EncodeCursor(last) // a key DynamoDB returned encodes
				cur.Segments[seg] = request.SegmentCursor{After: after, Done: len(last) == 0}
			}
		}
		segments := int32(p.Segments)
		return parallelScan(ctx, starts, workers, p.MaxItems, func(seg int) fetchFunc {
			s := *in
			s.Segment, s.TotalSegments = aws.Int32(int32(seg)), aws.Int32(segments)
			return t.scanFetch(&s)
		}, t.decodeOwned(op), taken), nil
	})
}

func (t *Table[T]) scanFetch(in *dynamodb.ScanInput) fetchFunc {
	return func(ctx context.Context, start map[string]types.AttributeValue) (rawPage, error) {
		s := *in
		s.ExclusiveStartKey = start
		out, err := t.repo.api.Scan(ctx, &s, t.repo.callOpts...)
		if err != nil {
			return rawPage{}, mapError("Scan", t.schema.Table(), err)
		}
		return rawPage{items: out.Items, last: out.LastEvaluatedKey, count: int(out.Count)}, nil
	}
}

// ScanAll collects every item of the scan (in parallel with Parallel);
// MaxItems caps the total. Items that do not decode do not stop it, as in
// QueryAll.
func (t *Table[T]) ScanAll(ctx context.Context, opts ...ScanAllOption) ([]T, error) {
	return collect(t.ScanStream(ctx, opts...))
}

// stream runs one whole-read operation of this table under the repo's
// operation tracer (see runStream).
func (t *Table[T]) stream(ctx context.Context, op string, build func(context.Context) (iter.Seq2[T, error], error)) iter.Seq2[T, error] {
	return runStream(ctx, t.repo, op, t.tables(), build)
}

// runStream runs one whole-read operation under the repo's operation
// tracer: the operation starts with the loop and ends with it, its pages
// fetched with the operation's context.
func runStream[T any](ctx context.Context, r *Repo, op string, tables []string, build func(context.Context) (iter.Seq2[T, error], error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		_ = r.run(ctx, op, tables, func(ctx context.Context) error {
			seq, err := build(ctx)
			if err != nil {
				yield(zero, err)
				return err
			}
			// The sequence ends after a failed request itself; an item
			// that does not decode is the consumer's to skip.
			var last error
			for v, err := range seq {
				if err != nil {
					last = err
				}
				if !yield(v, err) {
					return last
				}
			}
			return last
		})
	}
}

// collect gathers a stream's items. A failed request ends it with that
// error alone; items that do not decode are gathered into one ErrDecode
// returned with the other items.
func collect[T any](seq iter.Seq2[T, error]) ([]T, error) {
	var out []T
	var bad []*Error
	for v, err := range seq {
		if e, ok := undecodable(err); ok {
			bad = append(bad, e)
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, decodeErrors(bad)
}

// QueryCount counts the items of the query (after any Filter), page after
// page, with Select COUNT: DynamoDB returns no items, and nothing is
// decoded. Every item of the table's key range counts, whatever entity it
// is. Limit is the page size.
func (t *Table[T]) QueryCount(ctx context.Context, key T, opts ...QueryOption) (int, error) {
	var n int
	err := t.run(ctx, "Query", func(ctx context.Context, op string) error {
		in, err := request.Query(t.schema, key, append(opts, request.Select(types.SelectCount))...)
		if err != nil {
			return invalid(op, err)
		}
		n, err = countPages(ctx, in.ExclusiveStartKey, t.queryFetch(in))
		return err
	})
	return n, err
}

// ScanCount counts the items of the table or index (after any Filter), as
// QueryCount does.
func (t *Table[T]) ScanCount(ctx context.Context, opts ...ScanOption) (int, error) {
	var n int
	err := t.run(ctx, "Scan", func(ctx context.Context, op string) error {
		in, err := request.Scan(t.schema, append(opts, request.Select(types.SelectCount))...)
		if err != nil {
			return invalid(op, err)
		}
		n, err = countPages(ctx, in.ExclusiveStartKey, t.scanFetch(in))
		return err
	})
	return n, err
}
