package dynamo_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/codec"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/schema"
)

type Order struct {
	UserID   string            `dynamo:"user_id,pk"`
	PlacedAt time.Time         `dynamo:"placed_at,sk"`
	OrderID  string            `dynamo:"order_id,sk"`
	Total    int               `dynamo:"total"`
	Status   string            `dynamo:"status,default=pending"`
	Tags     codec.Set[string] `dynamo:"tags"`
	Version  int               `dynamo:"version"`
}

var Orders = schema.Must[Order]("app",
	schema.EntityName("order"),
	schema.GSI("StatusIndex", "status", "placed_at"),
)

// User shares the table "app" with Order (single-table design).
type User struct {
	ID   string `dynamo:"id,pk"`
	Kind string `dynamo:"kind,sk,default=profile"`
	Name string `dynamo:"name"`
}

var Users = schema.Must[User]("app", schema.EntityName("user"))

var t0 = time.Date(2024, 6, 1, 10, 0, 0, 0, time.UTC)

func order(user string, i int) Order {
	return Order{UserID: user, PlacedAt: t0.Add(time.Duration(i) * time.Hour), OrderID: fmt.Sprintf("o%03d", i), Total: 10 * i, Status: "open"}
}

// newTestRepo starts a local server with the "app" table and returns a repo
// on it with fast backoff.
func newTestRepo(t testing.TB, opts ...dynamo.Option) (*dynamotest.Server, *dynamo.Repo) {
	t.Helper()
	srv := dynamotest.NewServer(t)
	in, err := schema.CreateTableInput(Orders, Users)
	if err != nil {
		t.Fatal(err)
	}
	srv.CreateTable(t, in)
	return srv, newRepoFor(t, srv, opts...)
}

// newRepoFor opens a repo on srv with fast backoff.
func newRepoFor(t testing.TB, srv *dynamotest.Server, opts ...dynamo.Option) *dynamo.Repo {
	t.Helper()
	base := []dynamo.Option{
		dynamo.WithEndpoint(srv.URL),
		dynamo.WithRegion("us-east-1"),
		dynamo.WithCredentials("dynamotest", "dynamotest", ""),
		dynamo.WithBackoff(time.Millisecond, 2*time.Millisecond),
	}
	repo, err := dynamo.New(aws.Config{}, append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return repo
}

func TestPutGetDelete(t *testing.T) {
	_, repo := newTestRepo(t)
	orders := dynamo.Bind(repo, Orders)
	ctx := context.Background()
	o := order("u1", 1)
	o.Tags = codec.NewSet("gift")

	if err := orders.Put(ctx, o); err != nil {
		t.Fatalf("Put: %v", err)
	}
	got, err := orders.Get(ctx, Order{UserID: "u1", PlacedAt: o.PlacedAt, OrderID: o.OrderID}, dynamo.Consistent())
	if err != nil {
		t.Fatal(err)
	}
	if got.Total != 10 || got.Status != "open" || !got.Tags.Has("gift") || got.UserID != "u1" || !got.PlacedAt.Equal(o.PlacedAt) {
		t.Errorf("Get = %+v", got)
	}

	// Conditional create fails on the existing item.
	err = orders.Put(ctx, o, dynamo.If(expr.NotExists("pk")))
	if !errors.Is(err, dynamo.ErrConditionalCheckFailed) {
		t.Fatalf("conditional put: %v", err)
	}
	var de *dynamo.Error
	if !errors.As(err, &de) || de.Op != "PutItem" || de.Table != "app" || de.Status != 400 {
		t.Errorf("error = %#v", de)
	}

	// ReturnOldOnConditionFail puts the stored item into the error.
	err = orders.Put(ctx, o, dynamo.If(expr.NotExists("pk")), dynamo.ReturnOldOnConditionFail())
	if !errors.As(err, &de) || de.Item["total"] == nil {
		t.Errorf("no item on condition failure: %#v", de)
	}

	// Put returning the old item.
	o2 := o
	o2.Total = 99
	old, replaced, err := orders.PutReturningOld(ctx, o2)
	if err != nil || !replaced || old.Total != 10 {
		t.Fatalf("PutReturningOld = %+v, %v, %v", old, replaced, err)
	}

	// Projection.
	p, err := orders.Get(ctx, o, dynamo.Project("total"))
	if err != nil || p.Total != 99 || p.Status != "" && p.Status != "pending" {
		t.Errorf("projected Get = %+v, %v", p, err)
	}

	// Delete returning the old item, then not found.
	old, deleted, err := orders.DeleteReturningOld(ctx, o)
	if err != nil || !deleted || old.Total != 99 {
		t.Fatalf("DeleteReturningOld = %+v, %v, %v", old, deleted, err)
	}
	_, err = orders.Get(ctx, o)
	if !errors.Is(err, dynamo.ErrNotFound) {
		t.Fatalf("Get after delete: %v", err)
	}
	if errors.Is(err, dynamo.ErrResourceNotFound) {
		t.Errorf("not found item confused with missing table")
	}
	if old, deleted, err := orders.DeleteReturningOld(ctx, o); err != nil || deleted || old.Total != 0 {
		t.Errorf("DeleteReturningOld of absent = %v, %v, %v", old, deleted, err)
	}
	if err := orders.Delete(ctx, o); err != nil {
		t.Errorf("Delete of absent: %v", err)
	}
	// Put of a new item replaces nothing.
	if _, replaced, err := orders.PutReturningOld(ctx, o); err != nil || replaced {
		t.Errorf("PutReturningOld of new = %v, %v", replaced, err)
	}
}

func TestValidationBeforeAnyRequest(t *testing.T) {
	srv, repo := newTestRepo(t)
	orders := dynamo.Bind(repo, Orders)
	ctx := context.Background()
	before := srv.Calls(dynamotest.AnyAction)
	cases := map[string]error{}
	cases["put empty"] = orders.Put(ctx, Order{})
	_, cases["get partial key"] = orders.Get(ctx, Order{UserID: "u"})
	_, cases["update key field"] = orders.Update(ctx, order("u", 1), expr.Set("user_id", "x"))
	cases["separator in key"] = orders.Put(ctx, Order{UserID: "a#b", PlacedAt: t0, OrderID: "o"})
	_, cases["consistent on GSI"] = orders.Query(ctx, Order{Status: "open"}, dynamo.Index("StatusIndex"), dynamo.Consistent())
	_, cases["limit 0"] = orders.Query(ctx, Order{UserID: "u"}, dynamo.Limit(0))
	_, cases["max items 0"] = orders.QueryAll(ctx, Order{UserID: "u"}, dynamo.MaxItems(0))
	_, cases["parallel of 0"] = orders.ScanAll(ctx, dynamo.Parallel(0, 0))
	_, cases["bad cursor"] = orders.Query(ctx, Order{UserID: "u"}, dynamo.StartAfter("%%%"))
	for name, err := range cases {
		var e *dynamo.Error
		if !errors.As(err, &e) || e.Type != dynamo.ErrValidation {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	if n := srv.Calls(dynamotest.AnyAction) - before; n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

func TestUpdateOperators(t *testing.T) {
	_, repo := newTestRepo(t)
	orders := dynamo.Bind(repo, Orders)
	ctx := context.Background()
	o := order("u1", 1)
	o.Tags = codec.NewSet("a", "b")
	if err := orders.Put(ctx, o); err != nil {
		t.Fatal(err)
	}
	got, err := orders.Update(ctx, o,
		expr.Set("status", "paid"),
		expr.Increment("version", 2),
		expr.Decrement("total", 3),
		expr.Add("tags", codec.NewSet("c")),
	)
	if err != nil || got.Status != "paid" || got.Version != 2 {
		t.Fatalf("Update = %+v, %v", got, err)
	}
	// Update returns the whole item as it is after the update.
	got, err = orders.Update(ctx, o, expr.Delete("tags", codec.NewSet("a")))
	if err != nil {
		t.Fatal(err)
	}
	if got.UserID != "u1" || got.Status != "paid" || got.Version != 2 || got.Total != 7 || got.Tags.Has("a") || !got.Tags.Has("c") || !got.Tags.Has("b") {
		t.Fatalf("ALL_NEW = %+v", got)
	}
	// Changes and options mix in one argument list, changes in order.
	got, err = orders.Update(ctx, o, expr.Set("status", "shipped"), dynamo.If(expr.Eq("status", "paid")),
		expr.Remove("tags"), expr.IfNotExists("version", 100))
	if err != nil || got.Status != "shipped" || got.Tags != nil || got.Version != 2 {
		t.Fatalf("Update = %+v, %v", got, err)
	}
	after, _ := orders.Get(ctx, o)
	if after.Tags != nil || after.Version != 2 || after.Status != "shipped" {
		t.Errorf("after = %+v", after)
	}
	// A condition on the update.
	_, err = orders.Update(ctx, o, expr.Increment("version", 1), dynamo.If(expr.Eq("version", 5)))
	if !errors.Is(err, dynamo.ErrConditionalCheckFailed) {
		t.Errorf("conditional update: %v", err)
	}
	// Raw update expression.
	_, err = orders.Update(ctx, o, expr.RawUpdate("SET #t = :t", map[string]string{"#t": "total"}, map[string]any{":t": 42}))
	if err != nil {
		t.Fatal(err)
	}
	if after, _ := orders.Get(ctx, o); after.Total != 42 {
		t.Errorf("raw update: %+v", after)
	}
}
