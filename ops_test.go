package dynamo_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/dynamotest"
)

type Order struct {
	UserID   string             `dynamo:"user_id,pk"`
	PlacedAt time.Time          `dynamo:"placed_at,sk"`
	OrderID  string             `dynamo:"order_id,sk"`
	Total    int                `dynamo:"total"`
	Status   string             `dynamo:"status,default=pending"`
	Tags     dynamo.Set[string] `dynamo:"tags"`
	Version  int                `dynamo:"version"`
}

var Orders = dynamo.MustSchema[Order]("app",
	dynamo.EntityName("order"),
	dynamo.GSI("StatusIndex", "status", "placed_at"),
)

// User shares the table "app" with Order (single-table design).
type User struct {
	ID   string `dynamo:"id,pk"`
	Kind string `dynamo:"kind,sk,default=profile"`
	Name string `dynamo:"name"`
}

var Users = dynamo.MustSchema[User]("app", dynamo.EntityName("user"))

var t0 = time.Date(2024, 6, 1, 10, 0, 0, 0, time.UTC)

func order(user string, i int) Order {
	return Order{UserID: user, PlacedAt: t0.Add(time.Duration(i) * time.Hour), OrderID: fmt.Sprintf("o%03d", i), Total: 10 * i, Status: "open"}
}

// newTestRepo starts a local server with the "app" table and returns a repo
// on it with fast backoff.
func newTestRepo(t testing.TB, opts ...dynamo.Option) (*dynamotest.Server, *dynamo.Repo) {
	t.Helper()
	srv := dynamotest.NewServer(t)
	in, err := dynamo.CreateTableInput(Orders, Users)
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
	o.Tags = dynamo.NewSet("gift")

	if old, err := orders.Put(ctx, o); err != nil || old != nil {
		t.Fatalf("Put = %v, %v", old, err)
	}
	got, err := orders.Get(ctx, Order{UserID: "u1", PlacedAt: o.PlacedAt, OrderID: o.OrderID}, dynamo.Consistent())
	if err != nil {
		t.Fatal(err)
	}
	if got.Total != 10 || got.Status != "open" || !got.Tags.Has("gift") || got.UserID != "u1" || !got.PlacedAt.Equal(o.PlacedAt) {
		t.Errorf("Get = %+v", got)
	}

	// Conditional create fails on the existing item.
	_, err = orders.Put(ctx, o, dynamo.If(dynamo.NotExists("pk")))
	if !errors.Is(err, dynamo.ErrConditionalCheckFailed) {
		t.Fatalf("conditional put: %v", err)
	}
	var de *dynamo.Error
	if !errors.As(err, &de) || de.Op != "PutItem" || de.Table != "app" || de.Status != 400 {
		t.Errorf("error = %#v", de)
	}

	// ReturnOldOnConditionFail puts the stored item into the error.
	_, err = orders.Put(ctx, o, dynamo.If(dynamo.NotExists("pk")), dynamo.ReturnOldOnConditionFail())
	if !errors.As(err, &de) || de.Item["total"] == nil {
		t.Errorf("no item on condition failure: %#v", de)
	}

	// Put returning the old item.
	o2 := o
	o2.Total = 99
	old, err := orders.Put(ctx, o2, dynamo.ReturnValues(types.ReturnValueAllOld))
	if err != nil || old == nil || old.Total != 10 {
		t.Fatalf("Put ALL_OLD = %+v, %v", old, err)
	}

	// Projection.
	p, err := orders.Get(ctx, o, dynamo.Project("total"))
	if err != nil || p.Total != 99 || p.Status != "" && p.Status != "pending" {
		t.Errorf("projected Get = %+v, %v", p, err)
	}

	// Delete returning the old item, then not found.
	old, err = orders.Delete(ctx, o, dynamo.ReturnValues(types.ReturnValueAllOld))
	if err != nil || old == nil || old.Total != 99 {
		t.Fatalf("Delete = %+v, %v", old, err)
	}
	_, err = orders.Get(ctx, o)
	if !errors.Is(err, dynamo.ErrNotFound) {
		t.Fatalf("Get after delete: %v", err)
	}
	if errors.Is(err, dynamo.ErrResourceNotFound) {
		t.Errorf("not found item confused with missing table")
	}
	if old, err := orders.Delete(ctx, o, dynamo.ReturnValues(types.ReturnValueAllOld)); err != nil || old != nil {
		t.Errorf("Delete of absent = %v, %v", old, err)
	}
}

func TestValidationBeforeAnyRequest(t *testing.T) {
	srv, repo := newTestRepo(t)
	orders := dynamo.Bind(repo, Orders)
	ctx := context.Background()
	before := srv.Calls(dynamotest.AnyAction)
	cases := map[string]error{}
	_, cases["put empty"] = orders.Put(ctx, Order{})
	_, cases["get partial key"] = orders.Get(ctx, Order{UserID: "u"})
	_, cases["update key field"] = orders.Update(ctx, order("u", 1), []dynamo.Change{dynamo.SetAttr("user_id", "x")})
	_, cases["separator in key"] = orders.Put(ctx, Order{UserID: "a#b", PlacedAt: t0, OrderID: "o"})
	_, cases["consistent on GSI"] = orders.Query(ctx, Order{Status: "open"}, dynamo.Index("StatusIndex"), dynamo.Consistent())
	_, cases["page size on one page"] = orders.Query(ctx, Order{UserID: "u"}, dynamo.PageSize(3))
	_, cases["segments on one page"] = orders.Scan(ctx, dynamo.Segments(3))
	_, cases["bad cursor"] = orders.Query(ctx, Order{UserID: "u"}, dynamo.StartAfter("%%%"))
	for name, err := range cases {
		var e *dynamo.Error
		if !errors.As(err, &e) || e.Type != dynamo.TypeValidation {
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
	o.Tags = dynamo.NewSet("a", "b")
	if _, err := orders.Put(ctx, o); err != nil {
		t.Fatal(err)
	}
	got, err := orders.Update(ctx, o, []dynamo.Change{
		dynamo.SetAttr("status", "paid"),
		dynamo.Increment("version", 2),
		dynamo.Decrement("total", 3),
		dynamo.Add("tags", dynamo.NewSet("c")),
	})
	if err != nil || got != nil {
		t.Fatalf("Update = %+v, %v", got, err)
	}
	got, err = orders.Update(ctx, o, []dynamo.Change{dynamo.DeleteFromSet("tags", dynamo.NewSet("a"))}, dynamo.ReturnValues(types.ReturnValueAllNew))
	if err != nil {
		t.Fatal(err)
	}
	if got == nil || got.Status != "paid" || got.Version != 2 || got.Total != 7 || got.Tags.Has("a") || !got.Tags.Has("c") || !got.Tags.Has("b") {
		t.Fatalf("ALL_NEW = %+v", got)
	}
	// UPDATED_OLD returns only the changed attributes.
	got, err = orders.Update(ctx, o, []dynamo.Change{dynamo.SetAttr("status", "shipped")}, dynamo.ReturnValues(types.ReturnValueUpdatedOld))
	if err != nil || got == nil || got.Status != "paid" || got.Total != 0 {
		t.Fatalf("UPDATED_OLD = %+v, %v", got, err)
	}
	// No return values: nil.
	got, err = orders.Update(ctx, o, []dynamo.Change{dynamo.Remove("tags"), dynamo.IfNotExists("version", 100)})
	if err != nil || got != nil {
		t.Fatalf("Update = %+v, %v", got, err)
	}
	after, _ := orders.Get(ctx, o)
	if after.Tags != nil || after.Version != 2 || after.Status != "shipped" {
		t.Errorf("after = %+v", after)
	}
	// A condition on the update.
	_, err = orders.Update(ctx, o, []dynamo.Change{dynamo.Increment("version", 1)}, dynamo.If(dynamo.Eq("version", 5)))
	if !errors.Is(err, dynamo.ErrConditionalCheckFailed) {
		t.Errorf("conditional update: %v", err)
	}
	// Raw update expression.
	_, err = orders.Update(ctx, o, []dynamo.Change{dynamo.RawUpdate("SET #t = :t", map[string]string{"#t": "total"}, map[string]any{":t": 42})})
	if err != nil {
		t.Fatal(err)
	}
	if after, _ := orders.Get(ctx, o); after.Total != 42 {
		t.Errorf("raw update: %+v", after)
	}
}
