package dynamo_test

import (
	"context"
	"fmt"
	"log"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/schema"
)

// SyncTables creates what the schemas declare, settings included, and on
// the next start finds nothing to do.
func ExampleRepo_SyncTables() {
	repo, done := exampleRepo()
	defer done()
	ctx := context.Background()
	sessions := schema.Must[Session]("sessions",
		schema.TTL("expires"),
		schema.Stream(types.StreamViewTypeNewImage),
		schema.Tag("team", "auth"),
	)
	for range 2 {
		changes, err := repo.SyncTables(ctx, Orders, Users, sessions)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(changes)
	}
	// Output:
	// [sessions: create table sessions: enable ttl expires]
	// []
}

// TransactGet reads items of several schemas at one point in time, each
// into its own typed result.
func ExampleRepo_TransactGet() {
	repo, done := exampleRepo()
	defer done()
	ctx := context.Background()
	orders, users := dynamo.Bind(repo, Orders), dynamo.Bind(repo, Users)
	if err := users.Put(ctx, User{ID: "u1", Name: "Ann"}); err != nil {
		log.Fatal(err)
	}
	u, o := users.GetOp(User{ID: "u1"}), orders.GetOp(order("u1", 1))
	if err := repo.TransactGet(ctx, []dynamo.ReadOp{u, o}); err != nil {
		log.Fatal(err)
	}
	user, found := u.Item()
	fmt.Println(user.Name, found)
	_, found = o.Item()
	fmt.Println("order found:", found)
	// Output:
	// Ann true
	// order found: false
}
