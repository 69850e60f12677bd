package dynamo_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/dynamogo/dynamo"
)

func ExampleTable_Execute() {
	repo, done := exampleRepo()
	defer done()
	ctx := context.Background()
	orders, users := dynamo.Bind(repo, Orders), dynamo.Bind(repo, Users)
	for i := range 3 {
		if err := orders.Put(ctx, order("u1", i)); err != nil {
			log.Fatal(err)
		}
	}
	if err := users.Put(ctx, User{ID: "u1", Name: "Ann"}); err != nil {
		log.Fatal(err)
	}

	// Rows load into Order; the user sharing the table is skipped.
	page, err := orders.Execute(ctx, dynamo.PartiQL(`SELECT * FROM "app" WHERE total >= ?`, 10))
	if err != nil {
		log.Fatal(err)
	}
	for _, o := range page.Items {
		fmt.Println(o.OrderID, o.Total)
	}

	// A write, its row the updated item.
	page, err = orders.Execute(ctx, dynamo.PartiQL(`UPDATE "app" SET total = total + ? WHERE pk = ? AND sk = ? RETURNING ALL NEW *`,
		5, "order#u1", "2024-06-01T10:00:00.000000000Z#o000"))
	fmt.Println(page.Items[0].Total, err)

	// An INSERT of an existing key fails like a failed condition.
	_, err = repo.Execute(ctx, dynamo.PartiQL(`INSERT INTO "app" VALUE {'pk': 'user#u1', 'sk': 'profile'}`))
	fmt.Println(errors.Is(err, dynamo.ErrConditionalCheckFailed))
	// Output:
	// o001 10
	// o002 20
	// 5 <nil>
	// true
}
