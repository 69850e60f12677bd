package dynamotest_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/dynamotest"
)

// fillLarge writes n items of about 256 KB: a full Scan page is then 1 MB.
func fillLarge(t *testing.T, c *dynamodb.Client, n int) {
	t.Helper()
	blob := strings.Repeat("x", 256<<10)
	for i := range n {
		_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("items"), Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: string(rune('a'+i%26)) + strings.Repeat("k", i/26)},
			"v":  &types.AttributeValueMemberS{Value: blob},
		}})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func scanPages(c *dynamodb.Client, pages int) (failed int, first error) {
	var start map[string]types.AttributeValue
	for range pages {
		out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("items"), ExclusiveStartKey: start})
		if err != nil {
			failed++
			if first == nil {
				first = err
			}
			start = nil
			continue
		}
		start = out.LastEvaluatedKey
	}
	return failed, first
}

// A stock aws-sdk-go-v2 client loses large responses now and then (a 200
// whose body fails with "use of closed network connection"); the clients of
// this package must never do.
func TestClientsSurviveLargeResponses(t *testing.T) {
	srv := dynamotest.NewServer(t)
	newTable(t, srv)
	fillLarge(t, srv.Client(), 12)
	noRetry := func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} }
	clients := map[string]*dynamodb.Client{
		"Server.Client": srv.Client(noRetry),
		"HTTPClient": dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(srv.URL),
			Credentials: credentials.NewStaticCredentialsProvider("a", "b", ""), HTTPClient: dynamotest.HTTPClient()}, noRetry),
	}
	for name, c := range clients {
		if failed, err := scanPages(c, 100); failed > 0 {
			t.Errorf("%s: %d of 100 scans of 1 MB failed: %v", name, failed, err)
		}
	}
}
