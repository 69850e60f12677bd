package dynamo_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/expr"
)

// QueryCount and ScanCount count across pages with Select COUNT.
func TestCount(t *testing.T) {
	srv, repo := newTestRepo(t)
	ctx := context.Background()
	orders := dynamo.Bind(repo, Orders)
	for i := range 25 {
		if err := orders.Put(ctx, order("u1", i)); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 5 {
		if err := orders.Put(ctx, order("u2", i)); err != nil {
			t.Fatal(err)
		}
	}
	before := srv.Calls("Query")
	n, err := orders.QueryCount(ctx, Order{UserID: "u1"}, dynamo.Limit(7))
	if err != nil || n != 25 {
		t.Fatalf("QueryCount = %d, %v; want 25", n, err)
	}
	if calls := srv.Calls("Query") - before; calls != 4 {
		t.Errorf("QueryCount made %d requests, want 4 pages of 7", calls)
	}
	if n, err := orders.QueryCount(ctx, Order{UserID: "u1"}, dynamo.Filter(expr.Ge("total", 200))); err != nil || n != 5 {
		t.Errorf("QueryCount with a filter = %d, %v; want 5", n, err)
	}
	if n, err := orders.ScanCount(ctx, dynamo.Limit(4)); err != nil || n != 30 {
		t.Errorf("ScanCount = %d, %v; want 30", n, err)
	}
	if _, err := orders.QueryCount(ctx, Order{UserID: "u1"}, dynamo.Project("total")); !errors.Is(err, dynamo.ErrValidation) {
		t.Errorf("QueryCount with Project: %v", err)
	}
}

// One item that does not load (its number rewritten as text by a GUI
// tool) is an error naming its key, not its values, and every other item is
// still read: Get, Query, QueryStream, QueryAll, ScanStream in parallel,
// ScanAll.
func TestBadItemDoesNotEndStream(t *testing.T) {
	srv, repo := newTestRepo(t)
	ctx := context.Background()
	orders := dynamo.Bind(repo, Orders)
	for i := range 5 {
		if err := orders.Put(ctx, order("u1", i)); err != nil {
			t.Fatal(err)
		}
	}
	bad := order("u1", 2)
	item, err := Orders.Dump(bad)
	if err != nil {
		t.Fatal(err)
	}
	item["total"] = &types.AttributeValueMemberS{Value: "secret-ish text"}
	if _, err := srv.Client().PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("app"), Item: item}); err != nil {
		t.Fatal(err)
	}
	key, err := Orders.PrimaryKey(bad)
	if err != nil {
		t.Fatal(err)
	}
	isBad := func(t *testing.T, err error, keys int) {
		t.Helper()
		var e *dynamo.Error
		if !errors.As(err, &e) || e.Type != dynamo.ErrDecode || len(e.Keys) != keys {
			t.Fatalf("err = %v, want ErrDecode with %d keys", err, keys)
		}
		if !slices.ContainsFunc(e.Keys, func(k map[string]types.AttributeValue) bool {
			return k["pk"].(*types.AttributeValueMemberS).Value == key.PK.(*types.AttributeValueMemberS).Value &&
				k["sk"].(*types.AttributeValueMemberS).Value == key.SK.(*types.AttributeValueMemberS).Value
		}) {
			t.Errorf("Keys %v lack the bad item's", e.Keys)
		}
		if strings.Contains(err.Error(), "secret-ish") {
			t.Errorf("message shows the value: %v", err)
		}
	}
	ids := func(os []Order) []string {
		var s []string
		for _, o := range os {
			s = append(s, o.OrderID)
		}
		slices.Sort(s)
		return s
	}
	good := []string{"o000", "o001", "o003", "o004"}

	_, err = orders.Get(ctx, bad)
	isBad(t, err, 1)

	for name, read := range map[string]func([]dynamo.ReadOp) error{
		"TransactGet": func(r []dynamo.ReadOp) error { return repo.TransactGet(ctx, r) },
		"BatchGet":    func(r []dynamo.ReadOp) error { _, err := repo.BatchGet(ctx, r); return err },
	} {
		okRead, badRead := orders.GetOp(order("u1", 0)), orders.GetOp(bad)
		isBad(t, read([]dynamo.ReadOp{okRead, badRead}), 1)
		if o, found := okRead.Item(); !found || o.OrderID != "o000" {
			t.Errorf("%s: the good read holds %+v, %v", name, o, found)
		}
		if _, found := badRead.Item(); found {
			t.Errorf("%s: the bad read was found", name)
		}
	}

	page, err := orders.Query(ctx, Order{UserID: "u1"})
	isBad(t, err, 1)
	if got := ids(page.Items); !slices.Equal(got, good) {
		t.Errorf("Query page: %v", got)
	}

	var streamed []Order
	var errs []error
	for o, err := range orders.QueryStream(ctx, Order{UserID: "u1"}, dynamo.Limit(2)) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		streamed = append(streamed, o)
	}
	if len(errs) != 1 || !slices.Equal(ids(streamed), good) {
		t.Fatalf("QueryStream: %v and errors %v", ids(streamed), errs)
	}
	isBad(t, errs[0], 1)

	all, err := orders.QueryAll(ctx, Order{UserID: "u1"})
	isBad(t, err, 1)
	if !slices.Equal(ids(all), good) {
		t.Errorf("QueryAll: %v", ids(all))
	}

	streamed, errs = nil, nil
	for o, err := range orders.ScanStream(ctx, dynamo.Parallel(3, 2), dynamo.Limit(1)) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		streamed = append(streamed, o)
	}
	if len(errs) != 1 || !slices.Equal(ids(streamed), good) {
		t.Fatalf("parallel ScanStream: %v and errors %v", ids(streamed), errs)
	}
	all, err = orders.ScanAll(ctx)
	isBad(t, err, 1)
	if !slices.Equal(ids(all), good) {
		t.Errorf("ScanAll: %v", ids(all))
	}

	// Stopping at the error is the consumer's choice.
	n := 0
	for _, err := range orders.QueryStream(ctx, Order{UserID: "u1"}) {
		n++
		if err != nil {
			break
		}
	}
	if n != 3 {
		t.Errorf("stopped at the error after %d values, want 3", n)
	}
}

// A parallel scan stopped part way resumes from its stored cursor and
// reads every item at least once, then nothing more.
func TestResumeScan(t *testing.T) {
	srv, repo := newTestRepo(t)
	ctx := context.Background()
	orders := dynamo.Bind(repo, Orders)
	for i := range 60 {
		if err := orders.Put(ctx, order("u"+string(rune('a'+i%7)), i)); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]int{}
	var cur dynamo.ScanCursor
	taken := 0
	for o, err := range orders.ScanStream(ctx, dynamo.Parallel(4, 2), dynamo.Limit(5), dynamo.ResumeScan(&cur)) {
		if err != nil {
			t.Fatal(err)
		}
		seen[o.UserID+o.OrderID]++
		if taken++; taken == 23 {
			break
		}
	}
	stored, err := json.Marshal(cur) // what a migration writes down
	if err != nil {
		t.Fatal(err)
	}
	if len(cur.Segments) != 4 {
		t.Fatalf("cursor has %d segments", len(cur.Segments))
	}

	var resumed dynamo.ScanCursor
	if err := json.Unmarshal(stored, &resumed); err != nil {
		t.Fatal(err)
	}
	again := 0
	for o, err := range orders.ScanStream(ctx, dynamo.Parallel(4, 2), dynamo.Limit(5), dynamo.ResumeScan(&resumed)) {
		if err != nil {
			t.Fatal(err)
		}
		if seen[o.UserID+o.OrderID]++; seen[o.UserID+o.OrderID] > 1 {
			again++
		}
	}
	if len(seen) != 60 {
		t.Fatalf("after resuming, %d of 60 items seen", len(seen))
	}
	// At most the partly taken page of each segment comes again.
	if again > 4*5 {
		t.Errorf("%d items read twice", again)
	}
	for i, s := range resumed.Segments {
		if !s.Done || s.After != "" {
			t.Errorf("segment %d after the end: %+v", i, s)
		}
	}
	before := srv.Calls("Scan")
	for _, err := range orders.ScanStream(ctx, dynamo.Parallel(4, 2), dynamo.ResumeScan(&resumed)) {
		t.Fatalf("a finished scan yielded (%v)", err)
	}
	if srv.Calls("Scan") != before {
		t.Error("a finished scan sent requests")
	}
	if _, err := orders.ScanAll(ctx, dynamo.Parallel(3, 1), dynamo.ResumeScan(&resumed)); !errors.Is(err, dynamo.ErrValidation) {
		t.Errorf("a 4-segment cursor on a 3-segment scan: %v", err)
	}
	for _, c := range []*dynamo.ScanCursor{nil, {Segments: []dynamo.SegmentCursor{{After: "not a cursor"}}}} {
		if _, err := orders.ScanAll(ctx, dynamo.ResumeScan(c)); !errors.Is(err, dynamo.ErrValidation) {
			t.Errorf("ResumeScan(%v): %v", c, err)
		}
	}
}
