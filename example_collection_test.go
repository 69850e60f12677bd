package dynamo_test

import (
	"context"
	"fmt"
	"log"

	"github.com/dynamogo/dynamo"
)

// A member's partition holds a profile, a child, orders and payments; one
// query reads them all, each into its own type.
func ExampleQueryCollection() {
	repo, done := exampleRepo()
	defer done()
	ctx := context.Background()
	if _, err := repo.SyncTables(ctx, Members, MemberChildren, MemberOrders, MemberPayments); err != nil {
		log.Fatal(err)
	}
	_, err := repo.BatchWrite(ctx, []dynamo.WriteOp{
		dynamo.Bind(repo, Members).PutOp(Member{ID: "m1", Name: "Ada"}),
		dynamo.Bind(repo, MemberChildren).PutOp(MemberChild{ID: "m1", Name: "Bo"}),
		dynamo.Bind(repo, MemberOrders).PutOp(MemberOrder{ID: "m1", Ref: "r1", Amount: 30}),
		dynamo.Bind(repo, MemberPayments).PutOp(MemberPayment{ID: "m1", Ref: "r1", Amount: 30}),
	})
	if err != nil {
		log.Fatal(err)
	}
	page, err := dynamo.QueryCollection(ctx, repo, MemberView, Member{ID: "m1"})
	if err != nil {
		log.Fatal(err)
	}
	for _, v := range page.Items {
		fmt.Printf("%T %+v\n", v, v)
	}
	fmt.Println("orders:", len(dynamo.ItemsOf(page, MemberOrders)))
	// Output:
	// dynamo_test.MemberChild {ID:m1 Kind:child Name:Bo}
	// dynamo_test.MemberOrder {ID:m1 Kind:order Ref:r1 Amount:30}
	// dynamo_test.MemberPayment {ID:m1 Kind:payment Ref:r1 Amount:30}
	// dynamo_test.Member {ID:m1 Kind:profile Name:Ada}
	// orders: 1
}
