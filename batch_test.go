package dynamo_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/local"
	"github.com/dynamogo/dynamo/schema"
)

func TestBatchWriteChunksAcrossSchemas(t *testing.T) {
	srv, repo := newTestRepo(t)
	orders, users := dynamo.Bind(repo, Orders), dynamo.Bind(repo, Users)
	ctx := context.Background()
	var ops []dynamo.WriteOp
	for i := range 60 {
		ops = append(ops, orders.PutOp(order("u1", i)))
	}
	for i := range 10 {
		ops = append(ops, users.PutOp(User{ID: fmt.Sprintf("user%d", i)}))
	}
	res, err := repo.BatchWrite(ctx, ops, dynamo.ConsumedCapacity(types.ReturnConsumedCapacityTotal))
	if err != nil || len(res.Unprocessed) != 0 {
		t.Fatalf("BatchWrite: %v, %d unprocessed", err, len(res.Unprocessed))
	}
	if calls := srv.Calls("BatchWriteItem"); calls != 3 {
		t.Errorf("%d BatchWriteItem calls for 70 ops", calls)
	}
	if len(res.ConsumedCapacity) == 0 {
		t.Errorf("no consumed capacity")
	}
	all, _ := orders.QueryAll(ctx, Order{UserID: "u1"})
	if len(all) != 60 {
		t.Fatalf("%d orders written", len(all))
	}
	// Deletes mix with puts.
	res, err = repo.BatchWrite(ctx, []dynamo.WriteOp{orders.DeleteOp(order("u1", 0)), orders.DeleteOp(order("u1", 1)), dynamo.Bind(repo, Users).PutOp(User{ID: "x"})})
	if err != nil {
		t.Fatal(err)
	}
	if all, _ := orders.QueryAll(ctx, Order{UserID: "u1"}); len(all) != 58 {
		t.Errorf("%d orders after deletes", len(all))
	}
	// Validation before sending: a bad op, the same item twice in a chunk.
	before := srv.Calls(dynamotest.AnyAction)
	if _, err := repo.BatchWrite(ctx, []dynamo.WriteOp{orders.PutOp(Order{})}); !errors.Is(err, dynamo.ErrValidation) {
		t.Errorf("bad op: %v", err)
	}
	if _, err := repo.BatchWrite(ctx, []dynamo.WriteOp{orders.PutOp(order("u", 1)), orders.DeleteOp(order("u", 1))}); !errors.Is(err, dynamo.ErrValidation) {
		t.Errorf("duplicate: %v", err)
	}
	if srv.Calls(dynamotest.AnyAction) != before {
		t.Errorf("requests sent for invalid batches")
	}
}

func TestBatchWriteUnprocessedRetries(t *testing.T) {
	srv, repo := newTestRepo(t, dynamo.WithBatchRetries(2))
	orders := dynamo.Bind(repo, Orders)
	ctx := context.Background()
	ops := make([]dynamo.WriteOp, 10)
	for i := range ops {
		ops[i] = orders.PutOp(order("u1", i))
	}
	// Two calls leave 4 unprocessed: the retries write them.
	srv.Unprocessed("BatchWriteItem", 2, 4)
	res, err := repo.BatchWrite(ctx, ops)
	if err != nil || len(res.Unprocessed) != 0 {
		t.Fatalf("%v, %d unprocessed", err, len(res.Unprocessed))
	}
	if calls := srv.Calls("BatchWriteItem"); calls != 3 {
		t.Errorf("%d calls, want 3", calls)
	}
	// Sustained throttling: after 2 retries, the leftovers come back.
	srv.Unprocessed("BatchWriteItem", -1, 3)
	defer srv.ClearFaults()
	ops2 := make([]dynamo.WriteOp, 5)
	for i := range ops2 {
		ops2[i] = orders.PutOp(order("u9", i))
	}
	res, err = repo.BatchWrite(ctx, ops2)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Unprocessed) != 1 || len(res.Unprocessed["app"]) != 3 || res.Unprocessed["app"][0].PutRequest == nil {
		t.Fatalf("unprocessed = %+v", res.Unprocessed)
	}
	if got, _ := orders.QueryAll(ctx, Order{UserID: "u9"}); len(got) != 2 {
		t.Errorf("%d of 5 written", len(got))
	}
}

func TestBatchWriteHardFailure(t *testing.T) {
	srv, repo := newTestRepo(t)
	orders := dynamo.Bind(repo, Orders)
	ops := make([]dynamo.WriteOp, 30)
	for i := range ops {
		ops[i] = orders.PutOp(order("u1", i))
	}
	srv.FailWith("BatchWriteItem", 1, &local.Error{Type: "AccessDeniedException", Message: "not authorized"})
	res, err := repo.BatchWrite(context.Background(), ops)
	if !errors.Is(err, dynamo.ErrAccessDenied) {
		t.Fatalf("err = %v", err)
	}
	if n := len(res.Unprocessed["app"]); n != 30 {
		t.Errorf("%d reported unprocessed, want all 30", n)
	}
}

func TestBatchGet(t *testing.T) {
	srv, repo := newTestRepo(t, dynamo.WithBatchRetries(1))
	orders := dynamo.Bind(repo, Orders)
	ctx := context.Background()
	ops := make([]dynamo.WriteOp, 0, 150)
	keys := make([]Order, 0, 151)
	for i := range 150 {
		o := order("u1", i)
		ops = append(ops, orders.PutOp(o))
		keys = append(keys, Order{UserID: o.UserID, PlacedAt: o.PlacedAt, OrderID: o.OrderID})
	}
	if _, err := repo.BatchWrite(ctx, ops); err != nil {
		t.Fatal(err)
	}
	keys = append(keys, Order{UserID: "missing", PlacedAt: t0, OrderID: "x"})
	before := srv.Calls("BatchGetItem")
	res, err := orders.BatchGet(ctx, keys, dynamo.Consistent())
	if err != nil || len(res.Items) != 150 || len(res.Unprocessed) != 0 {
		t.Fatalf("BatchGet = %d items, %d unprocessed, %v", len(res.Items), len(res.Unprocessed), err)
	}
	if calls := srv.Calls("BatchGetItem") - before; calls != 2 {
		t.Errorf("%d calls for 151 keys", calls)
	}
	// Projection.
	res, err = orders.BatchGet(ctx, keys[:2], dynamo.Project("total"))
	if err != nil || len(res.Items) != 2 || res.Items[0].Status != "" && res.Items[0].Status != "pending" {
		t.Errorf("projected: %+v %v", res.Items, err)
	}
	// Leftovers after the retries come back as keys.
	srv.Unprocessed("BatchGetItem", -1, 2)
	defer srv.ClearFaults()
	res, err = orders.BatchGet(ctx, keys[:5])
	if err != nil || len(res.Items) != 3 || len(res.Unprocessed) != 2 {
		t.Fatalf("leftovers: %d items, %d unprocessed, %v", len(res.Items), len(res.Unprocessed), err)
	}
	if u := res.Unprocessed[0]; u.UserID != "u1" || u.OrderID == "" {
		t.Errorf("unprocessed key = %+v", u)
	}
	if _, err := orders.BatchGet(ctx, []Order{keys[0], keys[0]}); !errors.Is(err, dynamo.ErrValidation) {
		t.Errorf("duplicate keys: %v", err)
	}
}

type Acct struct {
	ID      string `dynamo:"id,pk"`
	Kind    string `dynamo:"kind,sk,default=acct"`
	Balance int    `dynamo:"balance"`
}

var Accts = schema.Must[Acct]("app", schema.EntityName("acct"))

func TestTransact(t *testing.T) {
	_, repo := newTestRepo(t)
	accts, orders := dynamo.Bind(repo, Accts), dynamo.Bind(repo, Orders)
	ctx := context.Background()
	for _, a := range []Acct{{ID: "a", Balance: 10}, {ID: "b"}} {
		if err := accts.Put(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	err := repo.Transact(ctx, []dynamo.TxOp{
		accts.TxUpdate(Acct{ID: "a"}, expr.Decrement("balance", 5), dynamo.If(expr.Ge("balance", 5))),
		accts.TxUpdate(Acct{ID: "b"}, expr.Increment("balance", 5)),
		orders.TxPut(order("u1", 1), dynamo.If(expr.NotExists("pk"))),
	}, dynamo.ClientRequestToken("idem-1"))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := accts.Get(ctx, Acct{ID: "a"})
	b, _ := accts.Get(ctx, Acct{ID: "b"})
	if a.Balance != 5 || b.Balance != 5 {
		t.Fatalf("balances %d %d", a.Balance, b.Balance)
	}

	// A canceled transaction reports one reason per op, with the stored item
	// decoded through the op's schema when asked.
	err = repo.Transact(ctx, []dynamo.TxOp{
		accts.TxCheck(Acct{ID: "b"}, expr.Exists("pk")),
		accts.TxUpdate(Acct{ID: "a"}, expr.Decrement("balance", 50), dynamo.If(expr.Ge("balance", 50)), dynamo.ReturnOldOnConditionFail()),
		accts.TxDelete(Acct{ID: "zzz"}),
	})
	var e *dynamo.Error
	if !errors.As(err, &e) || e.Type != dynamo.ErrTransactionCanceled || !errors.Is(err, dynamo.ErrTransactionCanceled) {
		t.Fatalf("err = %v", err)
	}
	if len(e.CancellationReasons) != 3 {
		t.Fatalf("reasons = %+v", e.CancellationReasons)
	}
	r := e.CancellationReasons
	if r[0].Code != "None" || r[1].Code != "ConditionalCheckFailed" || r[2].Code != "None" {
		t.Errorf("codes = %s %s %s", r[0].Code, r[1].Code, r[2].Code)
	}
	if old, ok := r[1].Value.(Acct); !ok || old.Balance != 5 || old.ID != "a" {
		t.Errorf("decoded item = %#v", r[1].Value)
	}
	if a, _ := accts.Get(ctx, Acct{ID: "a"}); a.Balance != 5 {
		t.Errorf("canceled transaction applied")
	}

	// Local validation: the same item twice, an empty op.
	if err := repo.Transact(ctx, []dynamo.TxOp{accts.TxDelete(Acct{ID: "a"}), accts.TxCheck(Acct{ID: "a"}, expr.Exists("pk"))}); !errors.Is(err, dynamo.ErrValidation) {
		t.Errorf("duplicate: %v", err)
	}
	if err := repo.Transact(ctx, []dynamo.TxOp{{}}); !errors.Is(err, dynamo.ErrValidation) {
		t.Errorf("empty op: %v", err)
	}
	if err := repo.Transact(ctx, []dynamo.TxOp{accts.TxPut(Acct{})}); !errors.Is(err, dynamo.ErrValidation) {
		t.Errorf("bad item: %v", err)
	}
}

func TestConcurrentUse(t *testing.T) {
	_, repo := newTestRepo(t, dynamo.WithTracer(&recordingTracer{}))
	orders := dynamo.Bind(repo, Orders)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			user := fmt.Sprintf("c%d", g)
			for i := range 10 {
				if err := orders.Put(ctx, order(user, i)); err != nil {
					errs <- err
					return
				}
				if _, err := orders.Update(ctx, order(user, i), expr.Increment("version", 1)); err != nil {
					errs <- err
					return
				}
			}
			got, err := orders.QueryAll(ctx, Order{UserID: user}, dynamo.Limit(3))
			if err != nil || len(got) != 10 {
				errs <- fmt.Errorf("%s: %d items, %v", user, len(got), err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	all, err := orders.ScanAll(ctx, dynamo.Parallel(3, 0))
	if err != nil || len(all) != 80 {
		t.Errorf("scan: %d, %v", len(all), err)
	}
}

// TestTransactCanned pins the typed transaction path against a captured
// cancellation body: reasons in order, the stored item decoded per op.
func TestTransactCanned(t *testing.T) {
	var body []byte
	srv := newCanned(t, func(_ string, _ int, b []byte) reply {
		body = b
		return reply{status: 400, body: canceledBody}
	})
	repo := fastRepo(t, srv.URL)
	accts := dynamo.Bind(repo, Accts)
	err := repo.Transact(context.Background(), []dynamo.TxOp{
		accts.TxCheck(Acct{ID: "b"}, expr.Exists("pk")),
		accts.TxUpdate(Acct{ID: "a"}, expr.Decrement("balance", 50), dynamo.If(expr.Ge("balance", 50)), dynamo.ReturnOldOnConditionFail()),
	}, dynamo.ClientRequestToken("idem-2"))
	var e *dynamo.Error
	if !errors.As(err, &e) || e.Type != dynamo.ErrTransactionCanceled || e.Op != "TransactWriteItems" || e.Table != "app" {
		t.Fatalf("err = %v", err)
	}
	if len(e.CancellationReasons) != 2 || e.CancellationReasons[1].Code != "ConditionalCheckFailed" {
		t.Fatalf("reasons = %+v", e.CancellationReasons)
	}
	if old, ok := e.CancellationReasons[1].Value.(Acct); !ok || old.ID != "a" || old.Balance != 3 {
		t.Errorf("decoded = %#v", e.CancellationReasons[1].Value)
	}
	if !bytes.Contains(body, []byte(`"ClientRequestToken":"idem-2"`)) {
		t.Errorf("token not sent: %s", body)
	}
	if srv.count("TransactWriteItems") != 1 {
		t.Errorf("canceled transaction retried")
	}
}
