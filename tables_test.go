package dynamo_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/schema"
)

func TestTableManagement(t *testing.T) {
	srv := dynamotest.NewServer(t)
	repo := srv.Repo(t)
	ctx := context.Background() // a hang fails at go test's -timeout; a deadline here fails a slow machine

	// Orders and Users share "app": one table, created once and ACTIVE.
	if err := repo.CreateTables(ctx, Orders, Users); err != nil {
		t.Fatal(err)
	}
	d, err := repo.DescribeTable(ctx, "app")
	if err != nil {
		t.Fatal(err)
	}
	if d.TableStatus != types.TableStatusActive || len(d.GlobalSecondaryIndexes) != 1 {
		t.Errorf("app: status %s, %d GSIs", d.TableStatus, len(d.GlobalSecondaryIndexes))
	}

	// Creating it again is DynamoDB's ResourceInUseException, normalised.
	in, err := schema.CreateTableInput(Orders)
	if err != nil {
		t.Fatal(err)
	}
	_, err = repo.CreateTable(ctx, in)
	var de *dynamo.Error
	if !errors.As(err, &de) || de.Type != dynamo.ErrResourceInUse || de.Op != "CreateTable" {
		t.Fatalf("second CreateTable: %v", err)
	}

	// ListTables follows pagination (the server pages at 100 names).
	for i := range 120 {
		in := &dynamodb.CreateTableInput{
			TableName:            aws.String("t" + string(rune('a'+i/26)) + string(rune('a'+i%26))),
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
			BillingMode:          types.BillingModePayPerRequest,
		}
		if _, err := repo.CreateTable(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	var names []string
	for name, err := range repo.ListTables(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	if len(names) != 121 || !slices.Contains(names, "app") || !slices.IsSorted(names) {
		t.Errorf("ListTables: %d names, sorted %v", len(names), slices.IsSorted(names))
	}

	if err := repo.DeleteTable(ctx, "app"); err != nil {
		t.Fatal(err)
	}
	if err := repo.WaitForTableDeleted(ctx, "app"); err != nil {
		t.Fatal(err)
	}
	if _, err := repo.DescribeTable(ctx, "app"); !errors.Is(err, dynamo.ErrResourceNotFound) {
		t.Errorf("DescribeTable after delete: %v", err)
	}
}

func TestTableManagementNeedsTableAPI(t *testing.T) {
	repo, err := dynamo.FromClient(dataOnly{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = repo.DescribeTable(context.Background(), "app")
	if !errors.Is(err, dynamo.ErrValidation) {
		t.Fatalf("DescribeTable on a data-only stub: %v, want a validation error", err)
	}
}

// dataOnly implements dynamo.API and nothing else.
type dataOnly struct{ dynamo.API }

// SyncTables creates what is missing, is a no-op the second time, adds a
// GSI the schema gained, leaves an index the schema lost, and refuses a key
// it would have to change.
func TestSyncTables(t *testing.T) {
	srv := dynamotest.NewServer(t)
	repo := srv.Repo(t)
	ctx := context.Background()
	sync := func(schemas ...schema.Described) []string {
		t.Helper()
		changes, err := repo.SyncTables(ctx, schemas...)
		if err != nil {
			t.Fatal(err)
		}
		var s []string
		for _, c := range changes {
			s = append(s, c.String())
		}
		return s
	}
	gsis := func() []string {
		t.Helper()
		d, err := repo.DescribeTable(ctx, "app")
		if err != nil {
			t.Fatal(err)
		}
		var s []string
		for _, g := range d.GlobalSecondaryIndexes {
			if g.IndexStatus != types.IndexStatusActive {
				t.Errorf("index %s is %s", aws.ToString(g.IndexName), g.IndexStatus)
			}
			s = append(s, aws.ToString(g.IndexName))
		}
		slices.Sort(s)
		return s
	}

	if got := sync(Orders, Users); !slices.Equal(got, []string{"app: create table"}) {
		t.Fatalf("first sync: %q", got)
	}
	if got := sync(Orders, Users); got != nil {
		t.Fatalf("second sync changed %q", got)
	}
	orders := dynamo.Bind(repo, Orders)
	if err := orders.Put(ctx, order("u1", 1)); err != nil {
		t.Fatal(err)
	}

	// The schema gains an index: it is added, ACTIVE, and backfilled.
	withTotal := schema.Must[Order]("app",
		schema.EntityName("order"),
		schema.GSI("StatusIndex", "status", "placed_at"),
		schema.GSI("TotalIndex", "total", ""),
	)
	if got := sync(withTotal, Users); !slices.Equal(got, []string{"app: create index TotalIndex"}) {
		t.Fatalf("sync with a new GSI: %q", got)
	}
	if got := gsis(); !slices.Equal(got, []string{"StatusIndex", "TotalIndex"}) {
		t.Fatalf("GSIs after adding one: %q", got)
	}
	if got := sync(withTotal, Users); got != nil {
		t.Fatalf("sync after adding a GSI changed %q", got)
	}

	// The schema loses it again: the index stays and is reported.
	if got := sync(Orders, Users); !slices.Equal(got, []string{"app: keep index TotalIndex"}) {
		t.Fatalf("sync without the new GSI: %q", got)
	}
	if got := gsis(); !slices.Equal(got, []string{"StatusIndex", "TotalIndex"}) {
		t.Fatalf("GSIs after sync without one: %q", got)
	}

	// A table keyed differently is an error naming table and attribute.
	in := &dynamodb.CreateTableInput{
		TableName:            aws.String("legacy"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	}
	if _, err := repo.CreateTable(ctx, in); err != nil {
		t.Fatal(err)
	}
	legacy := schema.Must[User]("legacy", schema.EntityName("user"))
	_, err := repo.SyncTables(ctx, legacy)
	var de *dynamo.Error
	if !errors.As(err, &de) || de.Type != dynamo.ErrValidation || !strings.Contains(err.Error(), "legacy") || !strings.Contains(err.Error(), "pk") {
		t.Fatalf("sync of a differently keyed table: %v", err)
	}
	t.Log(err)
	d, err := repo.DescribeTable(ctx, "legacy")
	if err != nil || aws.ToString(d.KeySchema[0].AttributeName) != "id" || len(d.KeySchema) != 1 {
		t.Fatalf("legacy table changed: %v", err)
	}
}
