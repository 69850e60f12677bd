package local_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/local"
)

// An update that only removes attributes of an item that does not exist
// creates nothing, and removing a nested path of it is not an error.
func TestUpdateOnlyRemovingMissingItemCreatesNothing(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "tbl")
	key := item{"pk": S("a")}
	for _, u := range []*dynamodb.UpdateItemInput{
		{UpdateExpression: aws.String("REMOVE x")},
		{UpdateExpression: aws.String("REMOVE x.y, z[0]")},
		{UpdateExpression: aws.String("DELETE s :v"), ExpressionAttributeValues: item{":v": &types.AttributeValueMemberSS{Value: []string{"a"}}}},
		{AttributeUpdates: map[string]types.AttributeValueUpdate{"x": {Action: types.AttributeActionDelete}}},
	} {
		u.TableName, u.Key, u.ReturnValues = aws.String("tbl"), key, types.ReturnValueAllNew
		out, err := c.UpdateItem(ctx, u)
		if err != nil {
			t.Fatalf("%v: %v", aws.ToString(u.UpdateExpression), err)
		}
		if out.Attributes != nil {
			t.Errorf("%v: Attributes = %v, want none", aws.ToString(u.UpdateExpression), out.Attributes)
		}
		got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: key})
		if err != nil || got.Item != nil {
			t.Fatalf("%v: item = %v, %v; want none", aws.ToString(u.UpdateExpression), got.Item, err)
		}
	}
	_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Update: &types.Update{TableName: aws.String("tbl"), Key: key, UpdateExpression: aws.String("REMOVE x.y")}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: key})
	if err != nil || got.Item != nil {
		t.Fatalf("after transaction: item = %v, %v; want none", got.Item, err)
	}
	// An update without actions still creates the item with its key.
	if _, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: key}); err != nil {
		t.Fatal(err)
	}
	got, _ = c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: key})
	if len(got.Item) != 1 {
		t.Fatalf("item = %v, want just the key", got.Item)
	}
}

// BatchGetItem charges a key with no item what GetItem charges for it.
func TestBatchGetMissingKeyCapacity(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "tbl")
	for _, consistent := range []bool{false, true} {
		keys := []item{{"pk": S("missing")}}
		out, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{
			RequestItems:           map[string]types.KeysAndAttributes{"tbl": {Keys: keys, ConsistentRead: aws.Bool(consistent)}},
			ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		})
		if err != nil {
			t.Fatal(err)
		}
		get, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: keys[0], ConsistentRead: aws.Bool(consistent), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.ConsumedCapacity) != 1 || aws.ToFloat64(out.ConsumedCapacity[0].CapacityUnits) != aws.ToFloat64(get.ConsumedCapacity.CapacityUnits) {
			t.Errorf("consistent=%v: BatchGetItem consumed %+v, GetItem %v", consistent, out.ConsumedCapacity, aws.ToFloat64(get.ConsumedCapacity.CapacityUnits))
		}
	}
}

// DeleteTable describes the table without its key schema, attribute
// definitions, creation time or indexes, as the service does.
func TestDeleteTableDescription(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "tbl")
	out, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("tbl")})
	if err != nil {
		t.Fatal(err)
	}
	d := out.TableDescription
	if d.TableStatus != types.TableStatusDeleting || aws.ToString(d.TableName) != "tbl" || aws.ToString(d.TableArn) == "" || d.ProvisionedThroughput == nil {
		t.Errorf("description = %+v", d)
	}
	if d.KeySchema != nil || d.AttributeDefinitions != nil || d.CreationDateTime != nil || d.GlobalSecondaryIndexes != nil || d.LocalSecondaryIndexes != nil {
		t.Errorf("description has members the service leaves out: %+v", d)
	}
}

// TagResource and UntagResource answer with an empty body.
func TestTagResourceEmptyBody(t *testing.T) {
	srv, err := local.New()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	res, body := rawCall(t, srv, "DynamoDB_20120810.CreateTable", `{"TableName":"tbl","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`)
	if res.StatusCode != 200 {
		t.Fatal(body)
	}
	arn := `"arn:aws:dynamodb:us-east-1:000000000000:table/tbl"`
	for _, tc := range []struct{ target, body string }{
		{"DynamoDB_20120810.TagResource", `{"ResourceArn":` + arn + `,"Tags":[{"Key":"k","Value":"v"}]}`},
		{"DynamoDB_20120810.UntagResource", `{"ResourceArn":` + arn + `,"TagKeys":["k"]}`},
	} {
		res, body := rawCall(t, srv, tc.target, tc.body)
		if res.StatusCode != 200 || body != "" {
			t.Errorf("%s: %d %q, want 200 and no body", tc.target, res.StatusCode, body)
		}
	}
}
