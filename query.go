package dynamo

import (
	"context"
	"iter"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/request"
)

// Page is one response of Query or Scan.
type Page[T any] struct {
	// Items are the loaded items of this schema's entity; items of other
	// entities sharing the table are skipped (they still count in Count).
	Items []T
	// Cursor continues after this page (StartAfter); "" when there is no more.
	Cursor Cursor
	// LastEvaluatedKey is the raw form of Cursor (StartKey).
	LastEvaluatedKey map[string]types.AttributeValue
	// Count and ScannedCount are DynamoDB's: items returned after the filter,
	// and items evaluated before it.
	Count, ScannedCount int
	// ConsumedCapacity is set when asked for with ConsumedCapacity.
	ConsumedCapacity *types.ConsumedCapacity
}

// HasMore reports whether another page may follow.
func (p *Page[T]) HasMore() bool { return len(p.LastEvaluatedKey) > 0 }

// All iterates over the page's items.
func (p *Page[T]) All() iter.Seq[T] {
	return func(yield func(T) bool) {
		for _, v := range p.Items {
			if !yield(v) {
				return
			}
		}
	}
}

// Repo-level options tune how the repo pages. Each embeds the request option
// closest to it, so it is a QueryOption / ScanOption: PageSize is Limit,
// StartAfter is StartKey with the decoded cursor, Segments and MaxConcurrency
// a single whole segment. The operations take PageSize, Segments and
// MaxConcurrency out before building the request and check StartAfter's
// cursor.
type queryScanOption interface {
	QueryOption
	ScanOption
}

type pagingOption struct {
	queryScanOption
	kind     pagingKind
	n        int
	startErr error
}

type scanPagingOption struct {
	ScanOption
	kind pagingKind
	n    int
}

type pagingKind uint8

const (
	kindPageSize pagingKind = iota + 1
	kindStartAfter
	kindSegments
	kindMaxConcurrency
)

// PageSize is the per-request Limit of Stream, ScanStream, QueryAll and
// ScanAll (while Limit caps their total). At least 1.
func PageSize(n int) ListOption {
	return pagingOption{queryScanOption: request.Limit(n), kind: kindPageSize, n: n}
}

// StartAfter continues a Query or Scan after the page whose Cursor is c.
// An invalid cursor is a validation error when the operation runs.
func StartAfter(c Cursor) ListOption {
	key, err := c.Key()
	return pagingOption{queryScanOption: request.StartKey(key), kind: kindStartAfter, startErr: err}
}

// Segments splits ScanAll and ScanStream into n parallel segments (1 to
// 1,000,000), one goroutine each. Results arrive in no particular order.
func Segments(n int) ScanOption {
	return scanPagingOption{ScanOption: request.Segment(0, 1), kind: kindSegments, n: n}
}

// MaxConcurrency bounds how many segments fetch at once (default: all).
func MaxConcurrency(n int) ScanOption {
	return scanPagingOption{ScanOption: request.Segment(0, 1), kind: kindMaxConcurrency, n: n}
}

type paging struct {
	pageSize, segments, maxConcurrency int
	streaming                          bool // the operation pages for the caller
}

// splitPaging takes the repo-level options out of opts.
func splitPaging[O any](op string, opts []O, streaming bool) ([]O, paging, error) {
	p := paging{streaming: streaming}
	rest := make([]O, 0, len(opts))
	for _, o := range opts {
		switch v := any(o).(type) {
		case pagingOption:
			switch v.kind {
			case kindPageSize:
				if !streaming {
					return nil, p, invalidf(op, "PageSize applies to streams and QueryAll/ScanAll; use Limit for one page")
				}
				if v.n < 1 {
					return nil, p, invalidf(op, "PageSize %d: must be at least 1", v.n)
				}
				p.pageSize = v.n
				continue
			case kindStartAfter:
				if v.startErr != nil {
					return nil, p, invalid(op, v.startErr)
				}
			}
		case scanPagingOption:
			if !streaming {
				return nil, p, invalidf(op, "Segments and MaxConcurrency apply to ScanAll and ScanStream; use Segment(i, n) for one page")
			}
			if v.n < 1 || v.n > 1000000 {
				return nil, p, invalidf(op, "%s %d: must be between 1 and 1000000", map[pagingKind]string{kindSegments: "Segments", kindMaxConcurrency: "MaxConcurrency"}[v.kind], v.n)
			}
			if v.kind == kindSegments {
				p.segments = v.n
			} else {
				p.maxConcurrency = v.n
			}
			continue
		}
		rest = append(rest, o)
	}
	return rest, p, nil
}

// Query reads one page of the partition key's key fields name (see
// request.Query for how the sort-key condition is derived from key and the
// Sort options).
func (t *Table[T]) Query(ctx context.Context, key T, opts ...QueryOption) (Page[T], error) {
	const op = "Query"
	in, _, err := t.queryInput(op, key, opts, false)
	if err != nil {
		return Page[T]{}, err
	}
	out, err := t.repo.api.Query(ctx, in, t.repo.callOpts...)
	if err != nil {
		return Page[T]{}, mapError(op, t.schema.Table(), err)
	}
	return t.page(op, out.Items, out.LastEvaluatedKey, out.Count, out.ScannedCount, out.ConsumedCapacity)
}

// Scan reads one page of the schema's table (or Index).
func (t *Table[T]) Scan(ctx context.Context, opts ...ScanOption) (Page[T], error) {
	const op = "Scan"
	in, _, err := t.scanInput(op, opts, false)
	if err != nil {
		return Page[T]{}, err
	}
	out, err := t.repo.api.Scan(ctx, in, t.repo.callOpts...)
	if err != nil {
		return Page[T]{}, mapError(op, t.schema.Table(), err)
	}
	return t.page(op, out.Items, out.LastEvaluatedKey, out.Count, out.ScannedCount, out.ConsumedCapacity)
}

func (t *Table[T]) page(op string, items []map[string]types.AttributeValue, last map[string]types.AttributeValue, count, scanned int32, cc *types.ConsumedCapacity) (Page[T], error) {
	p := Page[T]{Items: make([]T, 0, len(items)), LastEvaluatedKey: last, Count: int(count), ScannedCount: int(scanned), ConsumedCapacity: cc}
	decode := t.decodeOwned(op)
	for _, item := range items {
		v, ok, err := decode(item)
		if err != nil {
			return Page[T]{}, err
		}
		if ok {
			p.Items = append(p.Items, v)
		}
	}
	c, err := CursorFromKey(last)
	if err != nil {
		return Page[T]{}, err
	}
	p.Cursor = c
	return p, nil
}

func (t *Table[T]) queryInput(op string, key T, opts []QueryOption, streaming bool) (*dynamodb.QueryInput, paging, error) {
	rest, p, err := splitPaging(op, opts, streaming)
	if err != nil {
		return nil, p, err
	}
	in, err := request.Query(t.schema, key, rest...)
	if err != nil {
		return nil, p, invalid(op, err)
	}
	return in, p, nil
}

func (t *Table[T]) scanInput(op string, opts []ScanOption, streaming bool) (*dynamodb.ScanInput, paging, error) {
	rest, p, err := splitPaging(op, opts, streaming)
	if err != nil {
		return nil, p, err
	}
	in, err := request.Scan(t.schema, rest...)
	if err != nil {
		return nil, p, invalid(op, err)
	}
	if p.segments > 0 && in.TotalSegments != nil {
		return nil, p, invalidf(op, "Segments and Segment together: choose one")
	}
	if p.maxConcurrency > 0 && p.segments == 0 {
		return nil, p, invalidf(op, "MaxConcurrency without Segments")
	}
	if p.segments > 1 && len(in.ExclusiveStartKey) > 0 {
		return nil, p, invalidf(op, "StartAfter/StartKey with Segments: a parallel scan starts every segment at its beginning")
	}
	return in, p, nil
}

// limits reads the total cap (Limit) and sets the per-page Limit.
func (p paging) limits(limit **int32) (total int) {
	if *limit != nil {
		total = int(**limit)
	}
	if p.pageSize > 0 {
		*limit = aws.Int32(int32(p.pageSize))
	}
	return total
}

// Stream queries lazily: pages are fetched as the loop consumes them (page
// size PageSize, total cap Limit). An error is yielded once and ends the
// loop; breaking out stops fetching.
//
//	for o, err := range orders.Stream(ctx, Order{UserID: "u"}, dynamo.PageSize(100)) {
//		if err != nil { return err }
//		…
//	}
func (t *Table[T]) Stream(ctx context.Context, key T, opts ...QueryOption) iter.Seq2[T, error] {
	const op = "Query"
	in, p, err := t.queryInput(op, key, opts, true)
	if err != nil {
		return failed[T](err)
	}
	total := p.limits(&in.Limit)
	return stream(ctx, in.ExclusiveStartKey, total, t.queryFetch(in), t.decodeOwned(op))
}

func (t *Table[T]) queryFetch(in *dynamodb.QueryInput) fetchFunc {
	return func(ctx context.Context, start map[string]types.AttributeValue) (rawPage, error) {
		q := *in
		q.ExclusiveStartKey = start
		out, err := t.repo.api.Query(ctx, &q, t.repo.callOpts...)
		if err != nil {
			return rawPage{}, mapError("Query", t.schema.Table(), err)
		}
		return rawPage{items: out.Items, last: out.LastEvaluatedKey}, nil
	}
}

// QueryAll collects every item of the query, page after page; Limit caps
// the total. Without Limit the whole partition is loaded into memory.
func (t *Table[T]) QueryAll(ctx context.Context, key T, opts ...QueryOption) ([]T, error) {
	return collect(t.Stream(ctx, key, opts...))
}

// ScanStream scans lazily. With Segments(n) it is a parallel scan: n
// goroutines, at most MaxConcurrency fetching at once, each holding at most
// one page until the loop takes it (memory ≈ n × page size). Results arrive
// in no particular order. The first error ends the loop; when the loop ends
// (break, error, Limit reached, canceled context) every goroutine has exited.
func (t *Table[T]) ScanStream(ctx context.Context, opts ...ScanOption) iter.Seq2[T, error] {
	const op = "Scan"
	in, p, err := t.scanInput(op, opts, true)
	if err != nil {
		return failed[T](err)
	}
	total := p.limits(&in.Limit)
	if p.segments <= 1 {
		return stream(ctx, in.ExclusiveStartKey, total, t.scanFetch(in), t.decodeOwned(op))
	}
	conc := p.maxConcurrency
	if conc == 0 || conc > p.segments {
		conc = p.segments
	}
	segments := int32(p.segments)
	return parallelScan(ctx, p.segments, conc, total, func(seg int) fetchFunc {
		s := *in
		s.Segment, s.TotalSegments = aws.Int32(int32(seg)), aws.Int32(segments)
		return t.scanFetch(&s)
	}, t.decodeOwned(op))
}

func (t *Table[T]) scanFetch(in *dynamodb.ScanInput) fetchFunc {
	return func(ctx context.Context, start map[string]types.AttributeValue) (rawPage, error) {
		s := *in
		s.ExclusiveStartKey = start
		out, err := t.repo.api.Scan(ctx, &s, t.repo.callOpts...)
		if err != nil {
			return rawPage{}, mapError("Scan", t.schema.Table(), err)
		}
		return rawPage{items: out.Items, last: out.LastEvaluatedKey}, nil
	}
}

// ScanAll collects every item of the scan (in parallel with Segments);
// Limit caps the total.
func (t *Table[T]) ScanAll(ctx context.Context, opts ...ScanOption) ([]T, error) {
	return collect(t.ScanStream(ctx, opts...))
}

func collect[T any](seq iter.Seq2[T, error]) ([]T, error) {
	var out []T
	for v, err := range seq {
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func failed[T any](err error) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		yield(zero, err)
	}
}
