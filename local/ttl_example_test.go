package local_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/local"
)

// Expired items are deleted by the sweeper (WithTTLSweep) or on demand with
// SweepExpired; WithClock lets a test move time.
func ExampleServer_SweepExpired() {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	srv, _ := local.New(local.WithClock(func() time.Time { return now }))
	defer srv.Close()
	hs := httptest.NewServer(srv)
	defer hs.Close()
	ctx := context.Background()
	c := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(hs.URL),
		Credentials: credentials.NewStaticCredentialsProvider("any", "thing", ""),
		HTTPClient:  dynamotest.HTTPClient()}) // see dynamotest.HTTPClient
	c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("sessions"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	})
	c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("sessions"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("expires"), Enabled: aws.Bool(true)}})
	for id, in := range map[string]time.Duration{"short": time.Minute, "long": time.Hour} {
		c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("sessions"), Item: map[string]types.AttributeValue{
			"id":      &types.AttributeValueMemberS{Value: id},
			"expires": &types.AttributeValueMemberN{Value: strconv.FormatInt(now.Add(in).Unix(), 10)},
		}})
	}
	fmt.Println(srv.SweepExpired()) // nothing has expired yet
	now = now.Add(2 * time.Minute)
	fmt.Println(srv.SweepExpired())
	out, _ := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("sessions")})
	fmt.Println(out.Count, out.Items[0]["id"].(*types.AttributeValueMemberS).Value)
	// Output:
	// 0
	// 1
	// 1 long
}
