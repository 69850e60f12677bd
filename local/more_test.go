package local_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/local"
	"github.com/dynamogo/dynamo/local/storage"
)

func nested(depth int) types.AttributeValue {
	var v types.AttributeValue = S("leaf")
	for i := 0; i < depth; i++ {
		v = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"m": v}}
	}
	return v
}

// TestNestingDepth: DynamoDB stores 32 levels, the attribute's own value
// the first, so 31 nested maps around a scalar are the most (difftest
// size/nesting-32; measured against the service in nubo-db/dynoxide#110).
func TestNestingDepth(t *testing.T) {
	const tooDeep = "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit"
	srv, c := newServer(t)
	hashTable(t, srv, "deep")
	if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("deep"), Item: item{"pk": S("a"), "d": nested(31)}}); err != nil {
		t.Fatalf("32 levels rejected: %v", err)
	}
	for _, d := range []int{32, 33} {
		_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("deep"), Item: item{"pk": S("a"), "d": nested(d)}})
		wantErr(t, err, "ValidationException", tooDeep)
	}
	l := types.AttributeValue(&types.AttributeValueMemberL{})
	for range 32 {
		l = &types.AttributeValueMemberL{Value: []types.AttributeValue{l}}
	}
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("deep"), Item: item{"pk": S("a"), "d": l}})
	wantErr(t, err, "ValidationException", tooDeep)
	// An update that nests one level too deep is rejected as well.
	_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("deep"), Key: item{"pk": S("a")},
		UpdateExpression: aws.String("SET d" + strings.Repeat(".m", 31) + " = :v"), ExpressionAttributeValues: item{":v": nested(1)}})
	wantErr(t, err, "ValidationException", tooDeep)
}

func TestSparseIndexAndIndexKeyTypes(t *testing.T) {
	srv, c := newServer(t)
	numbersTable(t, srv)
	put(t, c, "nums", item{"pk": S("a"), "sk": N("1")}) // no g: not in byG
	put(t, c, "nums", item{"pk": S("b"), "sk": N("1"), "g": S("G")})
	s, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("nums"), IndexName: aws.String("byG")})
	if err != nil || s.Count != 1 {
		t.Fatalf("sparse index holds %d items: %v", s.Count, err)
	}
	_, err = c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("nums"), Item: item{"pk": S("c"), "sk": N("1"), "g": N("5")}})
	wantErr(t, err, "ValidationException", "One or more parameter values were invalid: Type mismatch for Index Key g Expected: S Actual: N IndexName: byG")
	_, err = c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("nums"), Item: item{"pk": S("c"), "sk": N("1"), "g": S("")}})
	wantErr(t, err, "ValidationException", "One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty string value. IndexName: byG, IndexKey: g")
	// Removing the index attribute removes the item from the index.
	if _, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("nums"), Key: item{"pk": S("b"), "sk": N("1")}, UpdateExpression: aws.String("REMOVE g")}); err != nil {
		t.Fatal(err)
	}
	s, _ = c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("nums"), IndexName: aws.String("byG")})
	if s.Count != 0 {
		t.Fatalf("index still holds %d items", s.Count)
	}
	d, _ := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("nums")})
	if n := aws.ToInt64(d.Table.GlobalSecondaryIndexes[0].ItemCount); n != 0 {
		t.Fatalf("GSI ItemCount = %d", n)
	}
}

func TestUpdateKeyAttributeRejected(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "keys")
	_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("keys"), Key: item{"pk": S("a")},
		UpdateExpression: aws.String("SET pk = :v"), ExpressionAttributeValues: item{":v": S("b")}})
	wantErr(t, err, "ValidationException", "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key")
}

func TestDeleteItemCondition(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "dels")
	put(t, c, "dels", item{"pk": S("a"), "state": S("open")})
	_, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("dels"), Key: item{"pk": S("a")},
		ConditionExpression: aws.String("#s = :closed"), ExpressionAttributeNames: map[string]string{"#s": "state"}, ExpressionAttributeValues: item{":closed": S("closed")}})
	wantErr(t, err, "ConditionalCheckFailedException", "The conditional request failed")
	if _, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("dels"), Key: item{"pk": S("a")},
		ConditionExpression: aws.String("#s = :open"), ExpressionAttributeNames: map[string]string{"#s": "state"}, ExpressionAttributeValues: item{":open": S("open")}}); err != nil {
		t.Fatal(err)
	}
}

// A server over an engine that already holds tables (a durable engine after a
// restart) serves them with their items and indexes.
func TestReopenEngine(t *testing.T) {
	eng := storage.NewMemory()
	first := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithEngine(eng)))
	numbersTable(t, first)
	c := first.Client()
	put(t, c, "nums", item{"pk": S("a"), "sk": N("1"), "g": S("G")})
	first.Close()

	second := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithEngine(eng)))
	c = second.Client()
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("nums")})
	if err != nil || aws.ToInt64(d.Table.ItemCount) != 1 || aws.ToInt64(d.Table.TableSizeBytes) == 0 {
		t.Fatalf("reopened table: %v", err)
	}
	q, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("nums"), IndexName: aws.String("byG"),
		KeyConditionExpression: aws.String("g = :g"), ExpressionAttributeValues: item{":g": S("G")}})
	if err != nil || q.Count != 1 {
		t.Fatalf("reopened index: %v %v", q, err)
	}
}
