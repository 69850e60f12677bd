package dynamo_test

import (
	"context"
	"errors"
	"slices"
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
