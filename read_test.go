package dynamo_test

import (
	"context"
	"errors"
	"testing"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/local"
)

func conflictError() *local.Error {
	return &local.Error{Type: "TransactionConflictException", Message: "Transaction is ongoing for the item"}
}

// TransactGet reads items of several schemas and tables in one
// transaction, each into its own typed result.
func TestTransactGet(t *testing.T) {
	srv := dynamotest.NewServer(t)
	repo := srv.Repo(t)
	ctx := context.Background()
	if _, err := repo.SyncTables(ctx, Orders, Users, Sessions); err != nil {
		t.Fatal(err)
	}
	orders, users, sessions := dynamo.Bind(repo, Orders), dynamo.Bind(repo, Users), dynamo.Bind(repo, Sessions)
	o := order("u1", 1)
	if err := orders.Put(ctx, o); err != nil {
		t.Fatal(err)
	}
	if err := users.Put(ctx, User{ID: "u1", Name: "Ann"}); err != nil {
		t.Fatal(err)
	}

	ro, ru, rs := orders.GetOp(o), users.GetOp(User{ID: "u1"}), sessions.GetOp(Session{ID: "none"})
	if err := repo.TransactGet(ctx, []dynamo.ReadOp{ro, ru, rs}); err != nil {
		t.Fatal(err)
	}
	if got, ok := ro.Item(); !ok || got.OrderID != o.OrderID || got.Total != o.Total {
		t.Errorf("order: %+v, %v", got, ok)
	}
	if got, ok := ru.Item(); !ok || got.Name != "Ann" {
		t.Errorf("user: %+v, %v", got, ok)
	}
	if got, ok := rs.Item(); ok || got.ID != "" {
		t.Errorf("missing session: %+v, %v", got, ok)
	}

	// A key without its fields, or the same item twice, fails before sending.
	before := srv.Calls(dynamotest.AnyAction)
	if err := repo.TransactGet(ctx, []dynamo.ReadOp{ro, orders.GetOp(o)}); !errors.Is(err, dynamo.ErrValidation) {
		t.Errorf("same item twice: %v", err)
	}
	if err := repo.TransactGet(ctx, []dynamo.ReadOp{users.GetOp(User{})}); !errors.Is(err, dynamo.ErrValidation) {
		t.Errorf("no key: %v", err)
	}
	if srv.Calls(dynamotest.AnyAction) != before {
		t.Error("an invalid TransactGet was sent")
	}
}

// WithConflictRetries sends a transaction again after a conflict, reads
// and writes alike, and never a write whose token it did not choose while
// DynamoDB may still be applying it.
func TestConflictRetries(t *testing.T) {
	srv, repo := newTestRepo(t, dynamo.WithConflictRetries(2))
	plainSrv, plain := newTestRepo(t)
	ctx := context.Background()
	orders := dynamo.Bind(repo, Orders)
	o := order("u1", 1)

	srv.FailWith("TransactWriteItems", 2, conflictError())
	if err := repo.Transact(ctx, []dynamo.TxOp{orders.TxPut(o)}); err != nil {
		t.Fatalf("Transact after two conflicts: %v", err)
	}
	if n := srv.Calls("TransactWriteItems"); n != 3 {
		t.Errorf("TransactWriteItems calls = %d, want 3", n)
	}
	read := orders.GetOp(o)
	srv.FailWith("TransactGetItems", 1, conflictError())
	if err := repo.TransactGet(ctx, []dynamo.ReadOp{read}); err != nil {
		t.Fatalf("TransactGet after a conflict: %v", err)
	}
	if _, ok := read.Item(); !ok {
		t.Error("TransactGet after a conflict found nothing")
	}

	// Bounded: the third conflict is returned.
	srv.FailWith("TransactGetItems", 3, conflictError())
	if err := repo.TransactGet(ctx, []dynamo.ReadOp{read}); !errors.Is(err, dynamo.ErrTransactionConflict) {
		t.Fatalf("TransactGet after three conflicts: %v", err)
	}
	srv.ClearFaults()

	// Off by default.
	plainSrv.FailWith("TransactWriteItems", 1, conflictError())
	if err := plain.Transact(ctx, []dynamo.TxOp{dynamo.Bind(plain, Orders).TxPut(o)}); !errors.Is(err, dynamo.ErrTransactionConflict) {
		t.Fatalf("conflict without WithConflictRetries: %v", err)
	}

	// In progress under the SDK's own token: not sent again with a new one.
	inProgress := &local.Error{Type: "TransactionInProgressException", Message: "Transaction is in progress"}
	srv.FailWith("TransactWriteItems", 1, inProgress)
	before := srv.Calls("TransactWriteItems")
	if err := repo.Transact(ctx, []dynamo.TxOp{orders.TxPut(o)}); !errors.Is(err, dynamo.ErrTransactionConflict) {
		t.Fatalf("in progress without a token: %v", err)
	}
	if n := srv.Calls("TransactWriteItems") - before; n != 1 {
		t.Errorf("in progress without a token: %d calls, want 1", n)
	}
	// With the caller's token it is the same request again: retried.
	srv.FailWith("TransactWriteItems", 1, inProgress)
	if err := repo.Transact(ctx, []dynamo.TxOp{orders.TxPut(o)}, dynamo.ClientRequestToken("tok-1")); err != nil {
		t.Fatalf("in progress with a token: %v", err)
	}
}

// Repo.BatchGet reads keys of several schemas, two of them sharing a table,
// each into its own typed result, across requests of 100 keys, and returns
// what stayed unprocessed.
func TestRepoBatchGet(t *testing.T) {
	srv := dynamotest.NewServer(t)
	repo := srv.Repo(t, dynamo.WithBatchRetries(0))
	ctx := context.Background()
	if _, err := repo.SyncTables(ctx, Orders, Users, Sessions); err != nil {
		t.Fatal(err)
	}
	orders, users, sessions := dynamo.Bind(repo, Orders), dynamo.Bind(repo, Users), dynamo.Bind(repo, Sessions)
	var reads []dynamo.ReadOp
	var ordersRead []*dynamo.Read[Order]
	for i := range 120 {
		o := order("u1", i)
		if i%2 == 0 {
			if err := orders.Put(ctx, o); err != nil {
				t.Fatal(err)
			}
		}
		r := orders.GetOp(o)
		ordersRead = append(ordersRead, r)
		reads = append(reads, r)
	}
	if err := users.Put(ctx, User{ID: "u1", Name: "Ann"}); err != nil {
		t.Fatal(err)
	}
	ru, rs := users.GetOp(User{ID: "u1"}), sessions.GetOp(Session{ID: "s1"})
	reads = append(reads, ru, rs)

	left, err := repo.BatchGet(ctx, reads)
	if err != nil || len(left) != 0 {
		t.Fatalf("BatchGet: %d left, %v", len(left), err)
	}
	for i, r := range ordersRead {
		got, ok := r.Item()
		if ok != (i%2 == 0) || (ok && got.OrderID != order("u1", i).OrderID) {
			t.Fatalf("order %d: %+v, %v", i, got, ok)
		}
	}
	if got, ok := ru.Item(); !ok || got.Name != "Ann" {
		t.Errorf("user: %+v, %v", got, ok)
	}
	if _, ok := rs.Item(); ok {
		t.Error("a missing session was found")
	}
	if n := srv.Calls("BatchGetItem"); n != 2 {
		t.Errorf("BatchGetItem calls = %d, want 2", n)
	}

	// Unprocessed keys come back as the reads they belong to.
	srv.Unprocessed("BatchGetItem", 1, 2)
	left, err = repo.BatchGet(ctx, []dynamo.ReadOp{ordersRead[0], ru, rs})
	if err != nil || len(left) != 2 {
		t.Fatalf("BatchGet with 2 unprocessed: %d left, %v", len(left), err)
	}
	for _, l := range left {
		if l != dynamo.ReadOp(ru) && l != dynamo.ReadOp(rs) {
			t.Errorf("unprocessed %T is not one of the last two reads", l)
		}
	}
	if _, ok := ordersRead[0].Item(); !ok {
		t.Error("the processed read found nothing")
	}
}
