package dynamo_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/schema"
)

func ExampleRepo_CreateBackup() {
	repo, done := exampleRepo()
	defer done()
	ctx := context.Background()
	orders := dynamo.Bind(repo, Orders)
	placed := time.Date(2024, 6, 1, 10, 0, 0, 0, time.UTC)
	if err := orders.Put(ctx, Order{UserID: "u1", PlacedAt: placed, OrderID: "o1", Total: 25}); err != nil {
		log.Fatal(err)
	}

	b, err := repo.CreateBackup(ctx, "app", "before-migration")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(aws.ToString(b.BackupName), b.BackupStatus)

	// The migration goes wrong: the order is deleted. Restore the backup
	// into a new table and read the order from there.
	if err := orders.Delete(ctx, Order{UserID: "u1", PlacedAt: placed, OrderID: "o1"}); err != nil {
		log.Fatal(err)
	}
	if _, err := repo.RestoreTableFromBackup(ctx, aws.ToString(b.BackupArn), "app-restored"); err != nil {
		log.Fatal(err)
	}
	if _, err := repo.WaitForTable(ctx, "app-restored"); err != nil {
		log.Fatal(err)
	}
	restored := dynamo.Bind(repo, schema.Must[Order]("app-restored", schema.EntityName("order")))
	got, err := restored.Get(ctx, Order{UserID: "u1", PlacedAt: placed, OrderID: "o1"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(got.OrderID, got.Total)
	for s, err := range repo.ListBackups(ctx, dynamo.BackupFilter{Table: "app"}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(aws.ToString(s.BackupName), aws.ToInt64(s.BackupSizeBytes) > 0)
	}
	// Output:
	// before-migration AVAILABLE
	// o1 25
	// before-migration true
}
