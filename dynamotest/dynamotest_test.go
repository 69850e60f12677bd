package dynamotest_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
	"github.com/dynamogo/dynamo/dynamotest"
)

var ctx = context.Background()

func newTable(t *testing.T, srv *dynamotest.Server) {
	srv.CreateTable(t, &dynamodb.CreateTableInput{
		TableName:            aws.String("items"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: "HASH"}},
		BillingMode:          types.BillingModePayPerRequest,
	})
}

func TestFailThenRetrySucceeds(t *testing.T) {
	srv := dynamotest.NewServer(t)
	newTable(t, srv)
	c := srv.Client()
	srv.Fail("PutItem", 2, dynamotest.Throttling)
	// The SDK's standard retryer (3 attempts) absorbs two throttles.
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("items"), Item: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "a"}}})
	if err != nil {
		t.Fatal(err)
	}
	if n := srv.Calls("PutItem"); n != 3 {
		t.Fatalf("PutItem calls = %d, want 3", n)
	}
}

func TestFailKinds(t *testing.T) {
	srv := dynamotest.NewServer(t)
	c := srv.Client(func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} })
	cases := []struct {
		kind   dynamotest.ErrorKind
		code   string
		status int
	}{
		{dynamotest.Throttling, "ThrottlingException", 400},
		{dynamotest.ProvisionedThroughputExceeded, "ProvisionedThroughputExceededException", 400},
		{dynamotest.RequestLimitExceeded, "RequestLimitExceeded", 400},
		{dynamotest.InternalServerError, "InternalServerError", 500},
		{dynamotest.ServiceUnavailable, "ServiceUnavailableException", 503},
	}
	for _, tc := range cases {
		srv.Fail(dynamotest.AnyAction, 1, tc.kind)
		_, err := c.ListTables(ctx, &dynamodb.ListTablesInput{})
		var ae smithy.APIError
		var re *smithyhttp.ResponseError
		if !errors.As(err, &ae) || ae.ErrorCode() != tc.code || !errors.As(err, &re) || re.HTTPStatusCode() != tc.status {
			t.Errorf("kind %d: got %v", tc.kind, err)
		}
	}
	if _, err := c.ListTables(ctx, &dynamodb.ListTablesInput{}); err != nil {
		t.Fatalf("faults not used up: %v", err)
	}
}

func TestDelay(t *testing.T) {
	srv := dynamotest.NewServer(t)
	c := srv.Client()
	srv.Delay("ListTables", 1, 50*time.Millisecond)
	start := time.Now()
	if _, err := c.ListTables(ctx, &dynamodb.ListTablesInput{}); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Fatalf("call took %v, want >= 50ms", d)
	}
}

func TestUnprocessed(t *testing.T) {
	srv := dynamotest.NewServer(t)
	newTable(t, srv)
	c := srv.Client()
	srv.Unprocessed("BatchWriteItem", 1, 2)
	var reqs []types.WriteRequest
	for _, k := range []string{"a", "b", "c"} {
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: k}}}})
	}
	out, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"items": reqs}})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(out.UnprocessedItems["items"]); n != 2 {
		t.Fatalf("unprocessed = %d, want 2", n)
	}
	// The unprocessed requests were not executed; resubmitting them completes the batch.
	s, _ := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("items"), Select: types.SelectCount})
	if s.Count != 1 {
		t.Fatalf("items after partial batch = %d, want 1", s.Count)
	}
	out, err = c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: out.UnprocessedItems})
	if err != nil || len(out.UnprocessedItems) != 0 {
		t.Fatalf("resubmit: %v %v", out.UnprocessedItems, err)
	}
	srv.Unprocessed("BatchGetItem", 1, 1)
	g, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"items": {Keys: []map[string]types.AttributeValue{
		{"pk": &types.AttributeValueMemberS{Value: "a"}}, {"pk": &types.AttributeValueMemberS{Value: "b"}}}}}})
	if err != nil || len(g.Responses["items"]) != 1 || len(g.UnprocessedKeys["items"].Keys) != 1 {
		t.Fatalf("BatchGetItem unprocessed: %v %v", g, err)
	}
}

func TestHTTPClientIsLoopback(t *testing.T) {
	srv := dynamotest.NewServer(t)
	res, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if srv.URL[:17] != "http://127.0.0.1:" {
		t.Fatalf("URL = %s", srv.URL)
	}
}
