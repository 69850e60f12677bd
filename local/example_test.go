package local_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/local"
)

// The server is an http.Handler; the AWS SDK talks to it like to DynamoDB.
func Example() {
	srv, _ := local.New()
	defer srv.Close()
	hs := httptest.NewServer(srv)
	defer hs.Close()

	ctx := context.Background()
	c := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(hs.URL),
		Credentials: credentials.NewStaticCredentialsProvider("any", "thing", ""),
		HTTPClient:  dynamotest.HTTPClient()}) // see dynamotest.HTTPClient
	c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("counters"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	})
	for range 3 {
		c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("counters"),
			Key:                       map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: "hits"}},
			UpdateExpression:          aws.String("ADD n :one"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}}})
	}
	out, _ := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("counters"),
		Key: map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: "hits"}}})
	fmt.Println(out.Item["n"].(*types.AttributeValueMemberN).Value)
	// Output: 3
}
