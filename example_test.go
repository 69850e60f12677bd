package dynamo_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http/httptest"
	"sort"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/codec"
	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/local"
	"github.com/dynamogo/dynamo/schema"
)

// exampleRepo runs the local server in-process with the "app" table (the
// dynamotest package does the same for tests).
func exampleRepo() (*dynamo.Repo, func()) {
	l, err := local.New()
	if err != nil {
		log.Fatal(err)
	}
	hs := httptest.NewServer(l)
	repo, err := dynamo.New(aws.Config{}, dynamo.WithEndpoint(hs.URL), dynamo.WithCredentials("example", "example-secret", ""))
	if err != nil {
		log.Fatal(err)
	}
	in, err := schema.CreateTableInput(Orders, Users)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := repo.Client().(*dynamodb.Client).CreateTable(context.Background(), in); err != nil {
		log.Fatal(err)
	}
	return repo, func() { hs.Close(); l.Close() }
}

func Example() {
	repo, done := exampleRepo()
	defer done()
	ctx := context.Background()
	orders := dynamo.Bind(repo, Orders)

	placed := time.Date(2024, 6, 1, 10, 0, 0, 0, time.UTC)
	o := Order{UserID: "u1", PlacedAt: placed, OrderID: "o1", Total: 25}
	if err := orders.Put(ctx, o, dynamo.If(expr.NotExists("pk"))); err != nil {
		log.Fatal(err)
	}
	got, err := orders.Get(ctx, Order{UserID: "u1", PlacedAt: placed, OrderID: "o1"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(got.OrderID, got.Total, got.Status)
	// Output: o1 25 pending
}

func ExampleTable_Put() {
	repo, done := exampleRepo()
	defer done()
	ctx := context.Background()
	orders := dynamo.Bind(repo, Orders)

	o := Order{UserID: "u1", PlacedAt: t0, OrderID: "o1", Total: 10}
	_ = orders.Put(ctx, o)
	o.Total = 20
	old, replaced, err := orders.PutReturningOld(ctx, o)
	fmt.Println(old.Total, replaced, err)

	// A conditional create of an existing item fails.
	err = orders.Put(ctx, o, dynamo.If(expr.NotExists("pk")))
	fmt.Println(errors.Is(err, dynamo.ErrConditionalCheckFailed))
	// Output:
	// 10 true <nil>
	// true
}

func ExampleTable_Get() {
	repo, done := exampleRepo()
	defer done()
	orders := dynamo.Bind(repo, Orders)

	_, err := orders.Get(context.Background(), Order{UserID: "nobody", PlacedAt: t0, OrderID: "x"}, dynamo.Consistent())
	fmt.Println(errors.Is(err, dynamo.ErrNotFound))
	// Output: true
}

func ExampleTable_Update() {
	repo, done := exampleRepo()
	defer done()
	ctx := context.Background()
	orders := dynamo.Bind(repo, Orders)

	key := Order{UserID: "u1", PlacedAt: t0, OrderID: "o1"}
	_ = orders.Put(ctx, Order{UserID: "u1", PlacedAt: t0, OrderID: "o1", Total: 10, Tags: codec.NewSet("a")})
	now, err := orders.Update(ctx, key,
		expr.Set("status", "paid"),
		expr.Increment("version", 1),
		expr.Add("tags", codec.NewSet("b")),
		dynamo.If(expr.Eq("version", 0)))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(now.Status, now.Version, now.Tags.Sorted())

	// Key fields cannot be updated: a validation error before any request.
	_, err = orders.Update(ctx, key, expr.Set("order_id", "o2"))
	fmt.Println(errors.Is(err, dynamo.ErrValidation))
	// Output:
	// paid 1 [a b]
	// true
}

func ExampleTable_Query() {
	repo, done := exampleRepo()
	defer done()
	ctx := context.Background()
	orders := dynamo.Bind(repo, Orders)
	for i := range 5 {
		_ = orders.Put(ctx, order("u1", i))
	}

	page, err := orders.Query(ctx, Order{UserID: "u1"}, dynamo.Descending(), dynamo.Limit(2))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ids(page.Items), page.HasMore())
	next, _ := orders.Query(ctx, Order{UserID: "u1"}, dynamo.Descending(), dynamo.StartAfter(page.Cursor))
	fmt.Println(ids(next.Items))

	big, _ := orders.QueryAll(ctx, Order{UserID: "u1"}, dynamo.Filter(expr.Ge("total", 30)))
	fmt.Println(ids(big))
	// Output:
	// [u1/o004 u1/o003] true
	// [u1/o002 u1/o001 u1/o000]
	// [u1/o003 u1/o004]
}

func ExampleTable_QueryStream() {
	repo, done := exampleRepo()
	defer done()
	ctx := context.Background()
	orders := dynamo.Bind(repo, Orders)
	for i := range 5 {
		_ = orders.Put(ctx, order("u1", i))
	}

	for o, err := range orders.QueryStream(ctx, Order{UserID: "u1"}, dynamo.Limit(2)) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Print(o.OrderID, " ")
		if o.OrderID == "o002" {
			break // no further page is fetched
		}
	}
	fmt.Println()
	// Output: o000 o001 o002
}

func ExampleTable_ScanAll() {
	repo, done := exampleRepo()
	defer done()
	ctx := context.Background()
	orders := dynamo.Bind(repo, Orders)
	for i := range 6 {
		_ = orders.Put(ctx, order("u1", i))
	}
	_ = dynamo.Bind(repo, Users).Put(ctx, User{ID: "u1", Name: "Ann"}) // another entity, same table

	all, err := orders.ScanAll(ctx, dynamo.Parallel(3, 2))
	if err != nil {
		log.Fatal(err)
	}
	got := ids(all)
	sort.Strings(got)
	fmt.Println(len(got), got[0], got[5])
	// Output: 6 u1/o000 u1/o005
}

func ExampleRepo_BatchWrite() {
	repo, done := exampleRepo()
	defer done()
	ctx := context.Background()
	orders, users := dynamo.Bind(repo, Orders), dynamo.Bind(repo, Users)

	var ops []dynamo.WriteOp
	for i := range 30 {
		ops = append(ops, orders.PutOp(order("u1", i)))
	}
	ops = append(ops, users.PutOp(User{ID: "u1", Name: "Ann"}))
	res, err := repo.BatchWrite(ctx, ops)
	fmt.Println(len(res.Unprocessed), err)

	got, _ := orders.BatchGet(ctx, []Order{order("u1", 3), order("u1", 7)})
	fmt.Println(len(got.Items), len(got.Unprocessed))
	// Output:
	// 0 <nil>
	// 2 0
}

func ExampleRepo_Request() {
	repo, done := exampleRepo()
	defer done()

	out, err := repo.Request(context.Background(), "DescribeTable", map[string]any{"TableName": "app"})
	if err != nil {
		log.Fatal(err)
	}
	table := out["Table"].(map[string]any)
	fmt.Println(table["TableName"], table["TableStatus"])

	_, err = repo.Request(context.Background(), "DescribeTable", map[string]any{"TableName": "missing"})
	fmt.Println(errors.Is(err, dynamo.ErrResourceNotFound))
	// Output:
	// app ACTIVE
	// true
}

func ExampleError() {
	repo, done := exampleRepo()
	defer done()
	orders := dynamo.Bind(repo, Orders)

	err := orders.Put(context.Background(), Order{UserID: "a#b", PlacedAt: t0, OrderID: "o1"})
	var e *dynamo.Error
	if errors.As(err, &e) {
		fmt.Println(e.Type, e.Op, e.Retryable)
	}
	// Output: validation_error PutItem false
}

func ExampleRepo_Transact() {
	repo, done := exampleRepo()
	defer done()
	ctx := context.Background()
	accts := dynamo.Bind(repo, Accts)
	_ = accts.Put(ctx, Acct{ID: "a", Balance: 10})
	_ = accts.Put(ctx, Acct{ID: "b"})

	move := func(amount int) error {
		return repo.Transact(ctx, []dynamo.TxOp{
			accts.TxUpdate(Acct{ID: "a"}, expr.Decrement("balance", amount),
				dynamo.If(expr.Ge("balance", amount)), dynamo.ReturnOldOnConditionFail()),
			accts.TxUpdate(Acct{ID: "b"}, expr.Increment("balance", amount)),
		})
	}
	fmt.Println(move(7))

	err := move(7)
	var e *dynamo.Error
	if errors.As(err, &e) && e.Type == dynamo.ErrTransactionCanceled {
		for i, r := range e.CancellationReasons {
			fmt.Println(i, r.Code)
		}
		fmt.Println("balance was", e.CancellationReasons[0].Value.(Acct).Balance)
	}
	// Output:
	// <nil>
	// 0 ConditionalCheckFailed
	// 1 None
	// balance was 3
}

func ExampleTable_SearchVectors() {
	repo, done := exampleRepo()
	defer done()
	ctx := context.Background()
	in, _ := schema.CreateTableInput(Docs)
	if _, err := repo.Client().(*dynamodb.Client).CreateTable(ctx, in); err != nil {
		log.Fatal(err)
	}
	docs := dynamo.Bind(repo, Docs)
	_ = docs.Put(ctx, Doc{Tenant: "t1", ID: "intro", Lang: "en", Title: "Intro", Embedding: []float32{1, 0, 0}})
	_ = docs.Put(ctx, Doc{Tenant: "t1", ID: "guide", Lang: "en", Title: "Guide", Embedding: []float32{0, 1, 0}})

	res, err := docs.SearchVectors(ctx, "Semantic", []float32{0.9, 0.1, 0}, dynamo.TopK(1),
		dynamo.Filter(expr.Eq("tenant", "t1")))
	if err != nil {
		log.Fatal(err)
	}
	best := res.Results[0]
	fmt.Println(best.Item.Tenant, best.Item.ID, best.Item.Title, best.Score < 0.1)
	// Output: t1 intro Intro true
}
