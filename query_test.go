package dynamo_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"sort"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/local"
)

// seed writes n orders for u1, 3 for u2 and two users, all in table "app".
func seed(t testing.TB, repo *dynamo.Repo, n int) {
	t.Helper()
	orders, users := dynamo.Bind(repo, Orders), dynamo.Bind(repo, Users)
	var ops []dynamo.WriteOp
	for i := range n {
		ops = append(ops, orders.PutOp(order("u1", i)))
	}
	for i := range 3 {
		o := order("u2", i)
		o.Status = "closed"
		ops = append(ops, orders.PutOp(o))
	}
	ops = append(ops, users.PutOp(User{ID: "u1", Name: "Ann"}), users.PutOp(User{ID: "u2", Name: "Bob"}))
	res, err := repo.BatchWrite(context.Background(), ops)
	if err != nil || len(res.Unprocessed) != 0 {
		t.Fatalf("seed: %v, %d unprocessed", err, len(res.Unprocessed))
	}
}

func ids(os []Order) []string {
	out := make([]string, len(os))
	for i, o := range os {
		out[i] = o.UserID + "/" + o.OrderID
	}
	return out
}

func TestQueryForms(t *testing.T) {
	_, repo := newTestRepo(t)
	seed(t, repo, 10)
	orders := dynamo.Bind(repo, Orders)
	ctx := context.Background()
	u1 := Order{UserID: "u1"}

	cases := []struct {
		name string
		key  Order
		opts []dynamo.QueryOption
		want int
		desc bool
	}{
		{"partition", u1, nil, 10, false},
		{"begins_with composite", u1, []dynamo.QueryOption{dynamo.SortBeginsWith("2024-06-01T1")}, 10, false},
		{"struct partial sort key", Order{UserID: "u1", PlacedAt: t0.Add(3 * time.Hour)}, nil, 1, false},
		{"struct sort key ignored", Order{UserID: "u1", PlacedAt: t0.Add(3 * time.Hour)}, []dynamo.QueryOption{dynamo.SortNone()}, 10, false},
		{"between", u1, []dynamo.QueryOption{dynamo.SortBetween("2024-06-01T12", "2024-06-01T14~")}, 3, false},
		{"descending limit", u1, []dynamo.QueryOption{dynamo.Descending(), dynamo.Limit(4)}, 4, true},
		{"filter", u1, []dynamo.QueryOption{dynamo.Filter(expr.Gt("total", 50))}, 4, false},
		{"filter or", u1, []dynamo.QueryOption{dynamo.Filter(expr.AnyOf(expr.Eq("total", 0), expr.Ge("total", 90)))}, 2, false},
		{"gsi typed sort key", Order{Status: "closed"}, []dynamo.QueryOption{dynamo.Index("StatusIndex"), dynamo.SortGt(t0)}, 2, false},
		{"gsi equality", Order{Status: "open"}, []dynamo.QueryOption{dynamo.Index("StatusIndex")}, 10, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			page, err := orders.Query(ctx, tc.key, tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if len(page.Items) != tc.want {
				t.Fatalf("%d items %v, want %d", len(page.Items), ids(page.Items), tc.want)
			}
			if tc.desc && page.Items[0].OrderID != "o009" {
				t.Errorf("not descending: %v", ids(page.Items))
			}
		})
	}

	count, err := orders.Query(ctx, u1, dynamo.Select(types.SelectCount))
	if err != nil || count.Count != 10 || len(count.Items) != 0 {
		t.Errorf("count = %+v, %v", count, err)
	}
}

func TestQueryPagination(t *testing.T) {
	_, repo := newTestRepo(t)
	seed(t, repo, 10)
	orders := dynamo.Bind(repo, Orders)
	ctx := context.Background()
	var all []Order
	var cursor string
	pages := 0
	for {
		page, err := orders.Query(ctx, Order{UserID: "u1"}, dynamo.Limit(3), dynamo.StartAfter(cursor))
		if err != nil {
			t.Fatal(err)
		}
		pages++
		all = append(all, page.Items...)
		if !page.HasMore() {
			if page.Cursor != "" {
				t.Errorf("cursor without more pages")
			}
			break
		}
		// The cursor survives a round trip through JSON.
		b, _ := json.Marshal(page.Cursor)
		if err := json.Unmarshal(b, &cursor); err != nil {
			t.Fatal(err)
		}
	}
	if len(all) != 10 || pages != 4 {
		t.Fatalf("%d items in %d pages", len(all), pages)
	}
	// A cursor this package did not produce is a validation error, before
	// any request.
	if _, err := orders.Query(ctx, Order{UserID: "u1"}, dynamo.StartAfter("not a cursor")); !errors.Is(err, dynamo.ErrValidation) {
		t.Errorf("StartAfter: %v", err)
	}
}

func TestQueryAllAndStream(t *testing.T) {
	srv, repo := newTestRepo(t)
	seed(t, repo, 10)
	orders := dynamo.Bind(repo, Orders)
	ctx := context.Background()

	all, err := orders.QueryAll(ctx, Order{UserID: "u1"}, dynamo.Limit(3))
	if err != nil || len(all) != 10 {
		t.Fatalf("QueryAll = %d, %v", len(all), err)
	}
	capped, err := orders.QueryAll(ctx, Order{UserID: "u1"}, dynamo.MaxItems(4), dynamo.Limit(3))
	if err != nil || len(capped) != 4 {
		t.Fatalf("QueryAll limit = %d, %v", len(capped), err)
	}

	// The stream fetches a page only when the loop needs it.
	before := srv.Calls("Query")
	n := 0
	for o, err := range orders.QueryStream(ctx, Order{UserID: "u1"}, dynamo.Limit(2)) {
		if err != nil {
			t.Fatal(err)
		}
		if o.UserID != "u1" {
			t.Fatalf("item %+v", o)
		}
		if n++; n == 3 {
			break
		}
	}
	if calls := srv.Calls("Query") - before; calls != 2 {
		t.Errorf("%d Query calls for 3 items at page size 2", calls)
	}

	// An error ends the stream after being yielded once.
	srv.FailWith("Query", 1, &local.Error{Type: "AccessDeniedException", Message: "User is not authorized to perform: dynamodb:Query"})
	var errs int
	for _, err := range orders.QueryStream(ctx, Order{UserID: "u1"}) {
		if err != nil {
			errs++
			if !errors.Is(err, dynamo.ErrAccessDenied) {
				t.Errorf("err = %v", err)
			}
		}
	}
	if errs != 1 {
		t.Errorf("%d errors yielded", errs)
	}
}

func TestScanSkipsOtherEntities(t *testing.T) {
	_, repo := newTestRepo(t)
	seed(t, repo, 10)
	orders, users := dynamo.Bind(repo, Orders), dynamo.Bind(repo, Users)
	ctx := context.Background()

	page, err := orders.Scan(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) != 13 || page.Count != 15 {
		t.Errorf("scan: %d orders, Count %d", len(page.Items), page.Count)
	}
	us, err := users.ScanAll(ctx)
	if err != nil || len(us) != 2 {
		t.Fatalf("users: %d, %v", len(us), err)
	}
	// Querying a partition holding only users yields no orders, no error.
	got, err := orders.QueryAll(ctx, Order{UserID: "nobody"})
	if err != nil || len(got) != 0 {
		t.Errorf("empty query: %v %v", got, err)
	}
}

func scanGoroutines() int {
	buf := make([]byte, 1<<20)
	n := runtime.Stack(buf, true)
	return bytes.Count(buf[:n], []byte("dynamo.scanSegment"))
}

func TestParallelScan(t *testing.T) {
	srv, repo := newTestRepo(t)
	seed(t, repo, 40)
	orders := dynamo.Bind(repo, Orders)
	ctx := context.Background()

	all, err := orders.ScanAll(ctx, dynamo.Parallel(4, 2), dynamo.Limit(5))
	if err != nil {
		t.Fatal(err)
	}
	got := ids(all)
	sort.Strings(got)
	if len(got) != 43 {
		t.Fatalf("%d orders", len(got))
	}
	for i := 1; i < len(got); i++ {
		if got[i] == got[i-1] {
			t.Fatalf("duplicate %s", got[i])
		}
	}
	capped, err := orders.ScanAll(ctx, dynamo.Parallel(4, 0), dynamo.MaxItems(7), dynamo.Limit(2))
	if err != nil || len(capped) != 7 {
		t.Errorf("limit: %d, %v", len(capped), err)
	}

	t.Run("break stops every worker", func(t *testing.T) {
		for range orders.ScanStream(ctx, dynamo.Parallel(8, 0), dynamo.Limit(1)) {
			break
		}
		if n := scanGoroutines(); n != 0 {
			t.Errorf("%d segment goroutines left", n)
		}
	})
	t.Run("context cancel", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		var last error
		n := 0
		for _, err := range orders.ScanStream(cctx, dynamo.Parallel(4, 0), dynamo.Limit(1)) {
			if err != nil {
				last = err
				continue
			}
			if n++; n == 2 {
				cancel()
			}
		}
		cancel()
		if !errors.Is(last, dynamo.ErrCanceled) && !errors.Is(last, context.Canceled) {
			t.Errorf("last error = %v", last)
		}
		if n := scanGoroutines(); n != 0 {
			t.Errorf("%d segment goroutines left", n)
		}
	})
	t.Run("first error wins", func(t *testing.T) {
		// Every call fails (a single queued failure could be taken by a request
		// the previous subtest canceled while it was in flight).
		srv.FailWith("Scan", -1, &local.Error{Type: "AccessDeniedException", Message: "not authorized"})
		defer srv.ClearFaults()
		_, err := orders.ScanAll(ctx, dynamo.Parallel(4, 0), dynamo.Limit(2))
		if !errors.Is(err, dynamo.ErrAccessDenied) {
			t.Errorf("err = %v", err)
		}
		if n := scanGoroutines(); n != 0 {
			t.Errorf("%d segment goroutines left", n)
		}
	})
	t.Run("options", func(t *testing.T) {
		first, err := orders.Scan(ctx, dynamo.Limit(1))
		if err != nil || first.Cursor == "" {
			t.Fatalf("first page: %v", err)
		}
		for _, opts := range [][]dynamo.ScanAllOption{
			{dynamo.Parallel(0, 0)},
			{dynamo.Parallel(2, -1)},
			{dynamo.Parallel(2, 0), dynamo.Segment(0, 2)},
			{dynamo.Parallel(2, 0), dynamo.StartAfter(first.Cursor)},
			{dynamo.MaxItems(0)},
		} {
			if _, err := orders.ScanAll(ctx, opts...); !errors.Is(err, dynamo.ErrValidation) {
				t.Errorf("%v: err = %v", opts, err)
			}
		}
	})
	_ = dynamotest.AnyAction
}

func TestScanOptions(t *testing.T) {
	_, repo := newTestRepo(t)
	seed(t, repo, 10)
	orders := dynamo.Bind(repo, Orders)
	ctx := context.Background()

	filtered, err := orders.ScanAll(ctx, dynamo.Filter(expr.Eq("status", "closed")))
	if err != nil || len(filtered) != 3 {
		t.Errorf("filter: %d, %v", len(filtered), err)
	}
	var seen int
	var cursor string
	for {
		page, err := orders.Scan(ctx, dynamo.Limit(4), dynamo.StartAfter(cursor), dynamo.ConsumedCapacity(types.ReturnConsumedCapacityTotal))
		if err != nil {
			t.Fatal(err)
		}
		if page.ConsumedCapacity == nil || page.ScannedCount > 4 {
			t.Errorf("page: capacity %v, scanned %d", page.ConsumedCapacity, page.ScannedCount)
		}
		seen += len(page.Items)
		if cursor = page.Cursor; cursor == "" {
			break
		}
	}
	if seen != 13 {
		t.Errorf("paged scan saw %d orders", seen)
	}
	gsi, err := orders.ScanAll(ctx, dynamo.Index("StatusIndex"), dynamo.Limit(2))
	if err != nil || len(gsi) != 13 {
		t.Errorf("index scan: %d, %v", len(gsi), err)
	}
	one, err := orders.Scan(ctx, dynamo.Segment(0, 2))
	if err != nil || len(one.Items) > 13 {
		t.Errorf("one segment: %d, %v", len(one.Items), err)
	}
}
