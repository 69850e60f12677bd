package dynamo_test

import (
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/codec"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/schema"
)

type Memo struct {
	ID    string            `dynamo:"id,pk"`
	Body  string            `dynamo:"body"`
	N     int               `dynamo:"n"`
	F     float64           `dynamo:"f"`
	OK    bool              `dynamo:"ok"`
	Blob  []byte            `dynamo:"blob"`
	Tags  codec.Set[string] `dynamo:"tags"`
	Nums  codec.Set[int]    `dynamo:"nums"`
	List  []string          `dynamo:"list"`
	Meta  map[string]int    `dynamo:"meta"`
	When  time.Time         `dynamo:"when"`
	Price codec.Number      `dynamo:"price"`
}

var Memos = schema.Must[Memo]("memos")

func memosRepo(t *testing.T) (*dynamotest.Server, *dynamo.Repo, *dynamo.Table[Memo]) {
	t.Helper()
	srv := dynamotest.NewServer(t)
	srv.CreateTables(t, Memos)
	repo := srv.Repo(t)
	return srv, repo, dynamo.Bind(repo, Memos)
}

func errType(t *testing.T, err error, want dynamo.ErrorType) *dynamo.Error {
	t.Helper()
	var e *dynamo.Error
	if !errors.As(err, &e) || e.Type != want {
		t.Fatalf("err = %v, want an *Error of type %s", err, want)
	}
	return e
}

// Parameters of every type are encoded by the codec, stored with their
// DynamoDB types, and read back into the struct through the schema.
func TestPartiQLParametersOfEveryType(t *testing.T) {
	ctx := context.Background()
	_, repo, notes := memosRepo(t)
	when := time.Date(2026, 12, 2, 3, 4, 5, 6, time.UTC)
	want := Memo{ID: "a", Body: "it's", N: -7, F: 1.5, OK: true, Blob: []byte{0, 1, 2},
		Tags: codec.NewSet("x", "y"), Nums: codec.NewSet(1, 2), List: []string{"l1", "l2"},
		Meta: map[string]int{"k": 3}, When: when, Price: codec.Number("12.5")}
	_, err := repo.Execute(ctx, dynamo.PartiQL(`INSERT INTO "memos" VALUE {'pk': ?, 'id': ?, 'body': ?, 'n': ?, 'f': ?, 'ok': ?,
		'blob': ?, 'tags': ?, 'nums': ?, 'list': ?, 'meta': ?, 'when': ?, 'price': ?, 'nothing': ?}`,
		"memo#a", want.ID, want.Body, want.N, want.F, want.OK, want.Blob, want.Tags, want.Nums, want.List, want.Meta,
		want.When, codec.Number("12.50"), nil))
	if err != nil {
		t.Fatal(err)
	}

	page, err := repo.Execute(ctx, dynamo.PartiQL(`SELECT * FROM "memos" WHERE pk = ?`, "memo#a"))
	if err != nil || len(page.Items) != 1 {
		t.Fatalf("raw select: %d rows, %v", len(page.Items), err)
	}
	kinds := map[string]any{"body": &types.AttributeValueMemberS{}, "n": &types.AttributeValueMemberN{},
		"f": &types.AttributeValueMemberN{}, "ok": &types.AttributeValueMemberBOOL{}, "blob": &types.AttributeValueMemberB{},
		"tags": &types.AttributeValueMemberSS{}, "nums": &types.AttributeValueMemberNS{}, "list": &types.AttributeValueMemberL{},
		"meta": &types.AttributeValueMemberM{}, "when": &types.AttributeValueMemberS{}, "price": &types.AttributeValueMemberN{},
		"nothing": &types.AttributeValueMemberNULL{}}
	for attr, kind := range kinds {
		if got := reflect.TypeOf(page.Items[0][attr]); got != reflect.TypeOf(kind) {
			t.Errorf("%s stored as %v, want %T", attr, got, kind)
		}
	}

	// Typed: the same row loaded into Memo, selected by a typed parameter.
	rows, err := notes.Execute(ctx, dynamo.PartiQL(`SELECT * FROM "memos" WHERE pk = ? AND "when" = ? AND price = ?`, "memo#a", when, codec.Number("12.5")))
	if err != nil || len(rows.Items) != 1 {
		t.Fatalf("typed select: %+v, %v", rows.Items, err)
	}
	if got := rows.Items[0]; !reflect.DeepEqual(got, want) {
		t.Fatalf("loaded %+v\nwant %+v", got, want)
	}

	// A parameter the codec refuses is a validation error before sending.
	_, err = notes.Execute(ctx, dynamo.PartiQL(`SELECT * FROM "memos" WHERE f = ?`, math.NaN()))
	if e := errType(t, err, dynamo.ErrValidation); e.Status != 0 || !strings.Contains(e.Message, "parameter 1") {
		t.Fatalf("NaN parameter: %v (status %d)", err, e.Status)
	}
}

// Every statement kind through the typed table, with DynamoDB's errors
// mapped like every other operation's.
func TestPartiQLStatementKinds(t *testing.T) {
	ctx := context.Background()
	srv, repo, notes := memosRepo(t)
	if err := notes.Put(ctx, Memo{ID: "a", Body: "first", N: 1}); err != nil {
		t.Fatal(err)
	}

	// INSERT of an existing key: DuplicateItemException, a failed condition.
	_, err := repo.Execute(ctx, dynamo.PartiQL(`INSERT INTO "memos" VALUE {'pk': 'memo#a', 'id': 'a'}`))
	if e := errType(t, err, dynamo.ErrConditionalCheckFailed); e.AWSCode != "DuplicateItemException" || e.Op != "ExecuteStatement" {
		t.Fatalf("duplicate insert: %+v", e)
	}

	// UPDATE … RETURNING: the row is the updated item, loaded.
	page, err := notes.Execute(ctx, dynamo.PartiQL(`UPDATE "memos" SET n = n + ? SET body = ? WHERE pk = ? RETURNING ALL NEW *`, 4, "second", "memo#a"))
	if err != nil || len(page.Items) != 1 || page.Items[0].N != 5 || page.Items[0].Body != "second" {
		t.Fatalf("update returning: %+v, %v", page.Items, err)
	}
	// A WHERE condition that does not hold.
	_, err = notes.Execute(ctx, dynamo.PartiQL(`UPDATE "memos" SET n = 0 WHERE pk = 'memo#a' AND n = ?`, 99))
	errType(t, err, dynamo.ErrConditionalCheckFailed)

	// SELECT by key, with a projection that keeps the key.
	page, err = notes.Execute(ctx, dynamo.PartiQL(`SELECT pk, id, n FROM "memos" WHERE pk = ?`, "memo#a"), dynamo.Consistent())
	if err != nil || len(page.Items) != 1 || !reflect.DeepEqual(page.Items[0], Memo{ID: "a", N: 5}) {
		t.Fatalf("projected select: %+v, %v", page.Items, err)
	}
	// A projection without the key cannot be loaded into T; the raw form reads it.
	_, err = notes.Execute(ctx, dynamo.PartiQL(`SELECT n FROM "memos" WHERE pk = 'memo#a'`))
	if e := errType(t, err, dynamo.ErrDecode); !strings.Contains(e.Message, "partition key pk") || e.Table != "memos" {
		t.Fatalf("projection without key: %v", err)
	}
	raw, err := repo.Execute(ctx, dynamo.PartiQL(`SELECT n FROM "memos" WHERE pk = 'memo#a'`))
	if err != nil || len(raw.Items) != 1 || len(raw.Items[0]) != 1 {
		t.Fatalf("raw projection: %+v, %v", raw.Items, err)
	}

	// DELETE … RETURNING ALL OLD *.
	page, err = notes.Execute(ctx, dynamo.PartiQL(`DELETE FROM "memos" WHERE pk = ? RETURNING ALL OLD *`, "memo#a"))
	if err != nil || len(page.Items) != 1 || page.Items[0].N != 5 {
		t.Fatalf("delete returning: %+v, %v", page.Items, err)
	}
	if _, err := notes.Get(ctx, Memo{ID: "a"}); !errors.Is(err, dynamo.ErrNotFound) {
		t.Fatalf("after delete: %v", err)
	}

	// Errors: a syntax error names its position; a missing table; a
	// parameter count that does not match.
	_, err = notes.Execute(ctx, dynamo.PartiQL(`SELECT * FORM "memos"`))
	if e := errType(t, err, dynamo.ErrValidation); e.AWSCode != "ValidationException" || !strings.Contains(e.Message, "line 1, column 10") {
		t.Fatalf("syntax error: %v", err)
	}
	_, err = repo.Execute(ctx, dynamo.PartiQL(`SELECT * FROM "missing"`))
	errType(t, err, dynamo.ErrResourceNotFound)
	_, err = repo.Execute(ctx, dynamo.PartiQL(`SELECT * FROM "memos" WHERE pk = ?`))
	errType(t, err, dynamo.ErrValidation)

	// Local validation: no request is sent.
	before := srv.Calls("ExecuteStatement")
	for _, bad := range []func() error{
		func() error { _, err := notes.Execute(ctx, dynamo.PartiQL("")); return err },
		func() error {
			_, err := notes.Execute(ctx, dynamo.PartiQL(`SELECT * FROM "memos"`), dynamo.Limit(0))
			return err
		},
		func() error {
			_, err := notes.Execute(ctx, dynamo.PartiQL(`SELECT * FROM "memos"`), dynamo.MaxItems(3))
			return err
		},
	} {
		errType(t, bad(), dynamo.ErrValidation)
	}
	if n := srv.Calls("ExecuteStatement") - before; n != 0 {
		t.Fatalf("%d requests sent for invalid statements", n)
	}
}

// In a single table, a typed statement loads its own entity and skips the
// others' items; the raw form returns them all.
func TestPartiQLSkipsOtherEntities(t *testing.T) {
	ctx := context.Background()
	_, repo := newTestRepo(t)
	seed(t, repo, 4)
	orders, users := dynamo.Bind(repo, Orders), dynamo.Bind(repo, Users)
	st := dynamo.PartiQL(`SELECT * FROM "app"`)

	o, err := orders.Execute(ctx, st)
	if err != nil || len(o.Items) != 7 || o.Count != 9 {
		t.Fatalf("orders: %d items of %d, %v", len(o.Items), o.Count, err)
	}
	u, err := users.Execute(ctx, st)
	if err != nil || len(u.Items) != 2 || u.Items[0].Name == "" {
		t.Fatalf("users: %+v, %v", u.Items, err)
	}
	all, err := repo.Execute(ctx, st)
	if err != nil || len(all.Items) != 9 {
		t.Fatalf("raw: %d items, %v", len(all.Items), err)
	}
	// An index, by name.
	idx, err := orders.Execute(ctx, dynamo.PartiQL(`SELECT * FROM "app"."StatusIndex" WHERE status = ?`, "closed"))
	if err != nil || len(idx.Items) != 3 {
		t.Fatalf("index: %d items, %v", len(idx.Items), err)
	}
}

// Pages follow the cursor; the stream fetches a page only when the loop
// needs it and stops fetching when the loop stops.
func TestPartiQLPagingAndStream(t *testing.T) {
	ctx := context.Background()
	srv, repo := newTestRepo(t)
	seed(t, repo, 10)
	orders := dynamo.Bind(repo, Orders)
	st := dynamo.PartiQL(`SELECT * FROM "app" WHERE pk = ?`, "order#u1")

	var got []Order
	cursor, pages := "", 0
	for {
		page, err := orders.Execute(ctx, st, dynamo.Limit(4), dynamo.StartAfter(cursor))
		if err != nil {
			t.Fatal(err)
		}
		pages++
		got = append(got, page.Items...)
		if !page.HasMore() {
			break
		}
		cursor = page.Cursor
	}
	if len(got) != 10 || pages != 3 || got[0].OrderID != "o000" || got[9].OrderID != "o009" {
		t.Fatalf("paged: %d items in %d pages (%v)", len(got), pages, ids(got))
	}

	// The whole stream, three items per page.
	var streamed []string
	for o, err := range orders.ExecuteStream(ctx, st, dynamo.Limit(3)) {
		if err != nil {
			t.Fatal(err)
		}
		streamed = append(streamed, o.OrderID)
	}
	if len(streamed) != 10 {
		t.Fatalf("stream: %v", streamed)
	}

	// Early exit: breaking after four items fetched two pages, not four.
	before := srv.Calls("ExecuteStatement")
	n := 0
	for _, err := range orders.ExecuteStream(ctx, st, dynamo.Limit(3)) {
		if err != nil {
			t.Fatal(err)
		}
		if n++; n == 4 {
			break
		}
	}
	if calls := srv.Calls("ExecuteStatement") - before; calls != 2 {
		t.Fatalf("early exit made %d requests, want 2", calls)
	}

	// MaxItems caps the total; the raw stream reads the same rows.
	capped, err := collectSeq(repo.ExecuteStream(ctx, st, dynamo.Limit(3), dynamo.MaxItems(5)))
	if err != nil || len(capped) != 5 {
		t.Fatalf("MaxItems: %d rows, %v", len(capped), err)
	}

	// An error is yielded once and ends the loop.
	errs := 0
	for _, err := range orders.ExecuteStream(ctx, dynamo.PartiQL(`SELECT * FROM "nope"`)) {
		errType(t, err, dynamo.ErrResourceNotFound)
		errs++
	}
	if errs != 1 {
		t.Fatalf("%d errors yielded", errs)
	}
}

func collectSeq[T any](seq func(func(T, error) bool)) ([]T, error) {
	var out []T
	for v, err := range seq {
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// A batch applies the statements that succeed and reports each failure on
// its own; the request fails as a whole only when it is invalid.
func TestPartiQLBatchMixedFailures(t *testing.T) {
	ctx := context.Background()
	_, repo, notes := memosRepo(t)
	for _, id := range []string{"a", "c", "d"} {
		if err := notes.Put(ctx, Memo{ID: id, N: 1}); err != nil {
			t.Fatal(err)
		}
	}
	res, err := repo.ExecuteBatch(ctx, []dynamo.Statement{
		dynamo.PartiQL(`INSERT INTO "memos" VALUE {'pk': ?, 'id': ?, 'n': ?}`, "memo#b", "b", 2),
		dynamo.PartiQL(`INSERT INTO "memos" VALUE {'pk': 'memo#a', 'id': 'a'}`),
		dynamo.PartiQL(`UPDATE "memos" SET n = 10 WHERE pk = 'memo#c' AND n = ?`, 99),
		dynamo.PartiQL(`UPDATE "memos" SET n = n + 1 WHERE pk = 'memo#d'`),
	})
	if err != nil || len(res) != 4 {
		t.Fatalf("batch: %v, %d results", err, len(res))
	}
	if res[0].Err != nil || res[3].Err != nil {
		t.Fatalf("successes failed: %v, %v", res[0].Err, res[3].Err)
	}
	if e := res[1].Err; e == nil || e.Type != dynamo.ErrConditionalCheckFailed || e.AWSCode != "DuplicateItem" || e.Op != "BatchExecuteStatement" {
		t.Fatalf("duplicate: %+v", e)
	}
	if e := res[2].Err; e == nil || !errors.Is(e, dynamo.ErrConditionalCheckFailed) {
		t.Fatalf("condition: %+v", e)
	}

	reads, err := repo.ExecuteBatch(ctx, []dynamo.Statement{
		dynamo.PartiQL(`SELECT * FROM "memos" WHERE pk = ?`, "memo#d"),
		dynamo.PartiQL(`SELECT * FROM "memos" WHERE pk = ?`, "memo#b"),
		dynamo.PartiQL(`SELECT * FROM "memos" WHERE pk = ?`, "memo#none"),
	})
	if err != nil {
		t.Fatal(err)
	}
	a, err := Memos.Load(reads[0].Item)
	if err != nil || a.N != 2 || reads[0].Table != "memos" {
		t.Fatalf("read d: %+v, %v", a, err)
	}
	if b, err := Memos.Load(reads[1].Item); err != nil || b.N != 2 {
		t.Fatalf("read b: %+v, %v", b, err)
	}
	if reads[2].Item != nil || reads[2].Err != nil {
		t.Fatalf("missing item: %+v", reads[2])
	}

	// Reads mixed with writes, or too many statements: the whole request fails.
	_, err = repo.ExecuteBatch(ctx, []dynamo.Statement{
		dynamo.PartiQL(`SELECT * FROM "memos" WHERE pk = 'memo#a'`),
		dynamo.PartiQL(`DELETE FROM "memos" WHERE pk = 'memo#b'`),
	})
	errType(t, err, dynamo.ErrValidation)
	_, err = repo.ExecuteBatch(ctx, make([]dynamo.Statement, 26))
	if e := errType(t, err, dynamo.ErrValidation); !strings.Contains(e.Message, "at most 25") {
		t.Fatalf("26 statements: %v", err)
	}
}

// A canceled transaction reports one reason per statement and applies
// nothing; a client request token applies a transaction once.
func TestPartiQLTransaction(t *testing.T) {
	ctx := context.Background()
	srv, repo, notes := memosRepo(t)
	for _, id := range []string{"a", "b"} {
		if err := notes.Put(ctx, Memo{ID: id, N: 1}); err != nil {
			t.Fatal(err)
		}
	}
	n := func(id string) int {
		t.Helper()
		v, err := notes.Get(ctx, Memo{ID: id}, dynamo.Consistent())
		if err != nil {
			t.Fatal(err)
		}
		return v.N
	}

	err := func() error {
		_, err := repo.ExecuteTransaction(ctx, []dynamo.Statement{
			dynamo.PartiQL(`UPDATE "memos" SET n = n + 1 WHERE pk = 'memo#a'`),
			dynamo.PartiQL(`INSERT INTO "memos" VALUE {'pk': 'memo#b', 'id': 'b'}`),
		})
		return err
	}()
	e := errType(t, err, dynamo.ErrTransactionCanceled)
	if len(e.CancellationReasons) != 2 || e.CancellationReasons[0].Code != "None" || e.CancellationReasons[1].Code != "DuplicateItem" {
		t.Fatalf("reasons: %+v", e.CancellationReasons)
	}
	if n("a") != 1 {
		t.Fatalf("a canceled transaction applied its update")
	}

	// An EXISTS check that fails cancels the write beside it.
	_, err = repo.ExecuteTransaction(ctx, []dynamo.Statement{
		dynamo.PartiQL(`EXISTS(SELECT * FROM "memos" WHERE pk = ?)`, "memo#none"),
		dynamo.PartiQL(`UPDATE "memos" SET n = 100 WHERE pk = 'memo#a'`),
	})
	if e := errType(t, err, dynamo.ErrTransactionCanceled); len(e.CancellationReasons) != 2 ||
		e.CancellationReasons[0].Code != "ConditionalCheckFailed" || n("a") != 1 {
		t.Fatalf("EXISTS: %+v, n = %d", e.CancellationReasons, n("a"))
	}
	if _, err := repo.ExecuteTransaction(ctx, []dynamo.Statement{
		dynamo.PartiQL(`EXISTS(SELECT * FROM "memos" WHERE pk = ?)`, "memo#b"),
	}); err != nil {
		t.Fatalf("EXISTS of an item: %v", err)
	}

	// The same token twice: applied once.
	incr := []dynamo.Statement{dynamo.PartiQL(`UPDATE "memos" SET n = n + ? WHERE pk = ?`, 5, "memo#a")}
	for range 2 {
		if _, err := repo.ExecuteTransaction(ctx, incr, dynamo.ClientRequestToken("tok-1")); err != nil {
			t.Fatal(err)
		}
	}
	if n("a") != 6 {
		t.Fatalf("n = %d after the same token twice, want 6", n("a"))
	}
	// The token with other statements is DynamoDB's mismatch.
	_, err = repo.ExecuteTransaction(ctx, []dynamo.Statement{dynamo.PartiQL(`UPDATE "memos" SET n = 0 WHERE pk = 'memo#a'`)},
		dynamo.ClientRequestToken("tok-1"))
	if e := errType(t, err, dynamo.ErrValidation); e.AWSCode != "IdempotentParameterMismatchException" {
		t.Fatalf("mismatch: %v", err)
	}

	// A read transaction returns each statement's item.
	items, err := repo.ExecuteTransaction(ctx, []dynamo.Statement{
		dynamo.PartiQL(`SELECT * FROM "memos" WHERE pk = 'memo#a'`),
		dynamo.PartiQL(`SELECT * FROM "memos" WHERE pk = 'memo#none'`),
	})
	if err != nil || len(items) != 2 || items[1] != nil {
		t.Fatalf("read transaction: %v, %v", items, err)
	}
	if a, err := Memos.Load(items[0]); err != nil || a.N != 6 {
		t.Fatalf("read a: %+v, %v", a, err)
	}

	before := srv.Calls("ExecuteTransaction")
	_, err = repo.ExecuteTransaction(ctx, nil)
	errType(t, err, dynamo.ErrValidation)
	if srv.Calls("ExecuteTransaction") != before {
		t.Fatal("an empty transaction was sent")
	}
}

// A lost answer: a SELECT is retried, a write statement is sent once and
// reported as an unknown outcome, a transaction is retried under its token.
func TestPartiQLLostAnswer(t *testing.T) {
	ctx := context.Background()
	srv, repo, l := lossyRepo(t, false)
	counters := dynamo.Bind(repo, Counters)
	if err := counters.Put(ctx, Counter{ID: "c"}); err != nil {
		t.Fatal(err)
	}
	calls := func(action string, f func() error) (int, error) {
		before := srv.Calls(action)
		err := f()
		return srv.Calls(action) - before, err
	}
	n := func() int {
		t.Helper()
		c, err := counters.Get(ctx, Counter{ID: "c"}, dynamo.Consistent())
		if err != nil {
			t.Fatal(err)
		}
		return c.N
	}

	l.Lose("ExecuteStatement", 1)
	sent, err := calls("ExecuteStatement", func() error {
		_, err := counters.Execute(ctx, dynamo.PartiQL(`SELECT * FROM "counters" WHERE pk = 'counter#c'`))
		return err
	})
	if err != nil || sent != 2 {
		t.Fatalf("select: sent %d, %v; want 2 and success", sent, err)
	}

	l.Lose("ExecuteStatement", 1)
	sent, err = calls("ExecuteStatement", func() error {
		_, err := counters.Execute(ctx, dynamo.PartiQL(`UPDATE "counters" SET n = n + 1 WHERE pk = 'counter#c'`))
		return err
	})
	wantOutcomeUnknown(t, err)
	if sent != 1 || n() != 1 {
		t.Fatalf("update: sent %d, n = %d; want 1 and 1", sent, n())
	}

	l.Lose("BatchExecuteStatement", 1)
	sent, err = calls("BatchExecuteStatement", func() error {
		_, err := repo.ExecuteBatch(ctx, []dynamo.Statement{dynamo.PartiQL(`UPDATE "counters" SET n = n + 1 WHERE pk = 'counter#c'`)})
		return err
	})
	wantOutcomeUnknown(t, err)
	if sent != 1 || n() != 2 {
		t.Fatalf("batch update: sent %d, n = %d; want 1 and 2", sent, n())
	}

	l.Lose("ExecuteTransaction", 1)
	sent, err = calls("ExecuteTransaction", func() error {
		_, err := repo.ExecuteTransaction(ctx, []dynamo.Statement{dynamo.PartiQL(`UPDATE "counters" SET n = n + 1 WHERE pk = 'counter#c'`)})
		return err
	})
	if err != nil || sent != 2 || n() != 3 {
		t.Fatalf("transaction: sent %d, %v, n = %d; want 2, success, 3", sent, err, n())
	}
}

// Statements go through the repo's tracer and retries like every
// operation: a stream is one operation over its pages, a throttled write
// is retried (it was never applied), a 5xx of a write statement is an
// unknown outcome, and the consumed capacity reaches the result and the
// tracer.
func TestPartiQLTracedAndRetried(t *testing.T) {
	ctx := context.Background()
	tr := &opTracer{}
	srv, repo := newTestRepo(t, dynamo.WithTracer(tr))
	seed(t, repo, 5)
	orders := dynamo.Bind(repo, Orders)

	for _, err := range orders.ExecuteStream(ctx, dynamo.PartiQL(`SELECT * FROM "app" WHERE pk = ?`, "order#u1"), dynamo.Limit(2)) {
		if err != nil {
			t.Fatal(err)
		}
	}
	op, n := tr.last(t)
	if op.Operation != "ExecuteStatement" || op.Err != nil || n != 3 || len(op.Tables) != 1 || op.Tables[0] != "app" {
		t.Fatalf("stream: %+v, %d attempts", op, n)
	}

	page, err := orders.Execute(ctx, dynamo.PartiQL(`SELECT * FROM "app" WHERE pk = ?`, "order#u1"),
		dynamo.ConsumedCapacity(types.ReturnConsumedCapacityTotal), dynamo.Consistent())
	if err != nil || page.ConsumedCapacity == nil || *page.ConsumedCapacity.CapacityUnits != 1 {
		t.Fatalf("capacity: %+v, %v", page.ConsumedCapacity, err)
	}
	tr.mu.Lock()
	end := tr.ends[len(tr.ends)-1]
	tr.mu.Unlock()
	if end.Action != "ExecuteStatement" || len(end.ConsumedCapacity) != 1 {
		t.Fatalf("traced attempt: %+v", end)
	}

	key := `UPDATE "app" SET total = total + 1 WHERE pk = 'order#u1' AND sk = ?`
	sk := order("u1", 0).PlacedAt.Format("2006-01-02T15:04:05.000000000Z") + "#o000"
	srv.Fail("ExecuteStatement", 1, dynamotest.Throttling)
	if _, err := orders.Execute(ctx, dynamo.PartiQL(key, sk)); err != nil {
		t.Fatalf("throttled update: %v", err)
	}
	if op, n := tr.last(t); n != 2 || op.Err != nil {
		t.Fatalf("throttled update: %+v, %d attempts", op, n)
	}
	srv.Fail("ExecuteStatement", 1, dynamotest.InternalServerError)
	_, err = orders.Execute(ctx, dynamo.PartiQL(key, sk))
	wantOutcomeUnknown(t, err)
	got, err := orders.Get(ctx, order("u1", 0))
	if err != nil || got.Total != 1 {
		t.Fatalf("total = %d, %v; want 1 (one update applied)", got.Total, err)
	}
}
