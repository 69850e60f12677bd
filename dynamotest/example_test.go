package dynamotest_test

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/dynamotest"
)

func ExampleNewServer() {
	t := &testing.T{} // in a real test, the *testing.T of the test
	srv := dynamotest.NewServer(t)
	defer srv.Close()
	c := srv.Client()
	srv.CreateTable(t, &dynamodb.CreateTableInput{
		TableName:            aws.String("users"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	})
	c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("users"), Item: map[string]types.AttributeValue{
		"id": &types.AttributeValueMemberS{Value: "u1"}, "name": &types.AttributeValueMemberS{Value: "Ada"}}})
	out, _ := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("users"), Key: map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: "u1"}}})
	fmt.Println(out.Item["name"].(*types.AttributeValueMemberS).Value)
	// Output: Ada
}
