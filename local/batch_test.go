package local_test

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func putReq(it item) types.WriteRequest {
	return types.WriteRequest{PutRequest: &types.PutRequest{Item: it}}
}

func delReq(k item) types.WriteRequest {
	return types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: k}}
}

func TestBatchWriteAndGet(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "aaa")
	hashTable(t, srv, "bbb")
	var reqs []types.WriteRequest
	for i := 0; i < 20; i++ {
		reqs = append(reqs, putReq(item{"pk": S(fmt.Sprint(i)), "v": N(fmt.Sprint(i))}))
	}
	out, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
		"aaa": reqs, "bbb": {putReq(item{"pk": S("x")})},
	}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.UnprocessedItems) != 0 || len(out.ConsumedCapacity) != 2 {
		t.Fatalf("unprocessed %v, capacity %v", out.UnprocessedItems, out.ConsumedCapacity)
	}
	if cc := out.ConsumedCapacity[0]; aws.ToString(cc.TableName) != "aaa" || aws.ToFloat64(cc.CapacityUnits) != 20 {
		t.Fatalf("capacity %s %v", aws.ToString(cc.TableName), aws.ToFloat64(cc.CapacityUnits))
	}
	var keys []map[string]types.AttributeValue
	for i := 0; i < 5; i++ {
		keys = append(keys, item{"pk": S(fmt.Sprint(i))})
	}
	keys = append(keys, item{"pk": S("missing")})
	g, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
		"aaa": {Keys: keys, ProjectionExpression: aws.String("v")},
		"bbb": {Keys: []map[string]types.AttributeValue{{"pk": S("x")}}, ConsistentRead: aws.Bool(true)},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Responses["aaa"]) != 5 || len(g.Responses["bbb"]) != 1 || len(g.Responses["aaa"][0]) != 1 {
		t.Fatalf("responses %v", g.Responses)
	}
	// Deletes.
	if _, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
		"aaa": {delReq(item{"pk": S("0")}), delReq(item{"pk": S("1")})}}}); err != nil {
		t.Fatal(err)
	}
	s, _ := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("aaa"), Select: types.SelectCount})
	if s.Count != 18 {
		t.Fatalf("count after deletes = %d", s.Count)
	}
}

func TestBatchValidation(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "aaa")
	var many []types.WriteRequest
	for i := 0; i < 26; i++ {
		many = append(many, putReq(item{"pk": S(fmt.Sprint(i))}))
	}
	_, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"aaa": many}})
	wantErrContains(t, err, "ValidationException", "Member must have length less than or equal to 25")
	_, err = c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
		"aaa": {putReq(item{"pk": S("a")}), putReq(item{"pk": S("a")})}}})
	wantErr(t, err, "ValidationException", "Provided list of item keys contains duplicates")
	_, err = c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
		"aaa": {putReq(item{"pk": S("a")}), delReq(item{"pk": S("a")})}}})
	wantErr(t, err, "ValidationException", "Provided list of item keys contains duplicates")
	_, err = c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
		"aaa": {putReq(item{"pk": N("1")})}}})
	wantErr(t, err, "ValidationException", "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N")
	_, err = c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
		"nope": {putReq(item{"pk": S("1")})}}})
	wantErr(t, err, "ResourceNotFoundException", "Requested resource not found")

	var keys []map[string]types.AttributeValue
	for i := 0; i < 101; i++ {
		keys = append(keys, item{"pk": S(fmt.Sprint(i))})
	}
	_, err = c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"aaa": {Keys: keys}}})
	wantErrContains(t, err, "ValidationException", "Member must have length less than or equal to 100")
	_, err = c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"aaa": {Keys: []map[string]types.AttributeValue{{"pk": S("a")}, {"pk": S("a")}}}}})
	wantErr(t, err, "ValidationException", "Provided list of item keys contains duplicates")
	_, err = c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"aaa": {Keys: []map[string]types.AttributeValue{{"pk": S("a"), "x": S("b")}}}}})
	wantErr(t, err, "ValidationException", "The provided key element does not match the schema")
}

func TestBatchWriteRequestShape(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "aaa")
	_, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"aaa": {{}}}})
	wantErr(t, err, "ValidationException", "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes")
}
