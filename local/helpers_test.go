package local_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/internal/avtest"
)

var ctx = context.Background()

// newServer starts a server and returns it with a client that does not retry
// (so error tests see the first answer).
func newServer(t *testing.T) (*dynamotest.Server, *dynamodb.Client) {
	t.Helper()
	srv := dynamotest.NewServer(t)
	return srv, srv.Client(func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} })
}

var S, N, B = avtest.S, avtest.N, avtest.B

type item = map[string]types.AttributeValue

// wantErr checks that err is an API error of the given code whose message
// contains msg (an exact message when exact is set).
func wantErr(t *testing.T, err error, code, msg string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want %s %q, got success", code, msg)
	}
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		t.Fatalf("want API error %s, got %v", code, err)
	}
	if ae.ErrorCode() != code {
		t.Fatalf("error code = %s (%s), want %s", ae.ErrorCode(), ae.ErrorMessage(), code)
	}
	if msg != "" && ae.ErrorMessage() != msg {
		t.Fatalf("message = %q\nwant      %q", ae.ErrorMessage(), msg)
	}
}

func wantErrContains(t *testing.T, err error, code, part string) {
	t.Helper()
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		t.Fatalf("want API error %s, got %v", code, err)
	}
	if ae.ErrorCode() != code || !strings.Contains(ae.ErrorMessage(), part) {
		t.Fatalf("error = %s %q, want %s containing %q", ae.ErrorCode(), ae.ErrorMessage(), code, part)
	}
}

// hashRangeTable creates table name with pk (S) and sk (S) keys, on demand.
func hashRangeTable(t *testing.T, srv *dynamotest.Server, name string) {
	t.Helper()
	srv.CreateTable(t, &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"}, {AttributeName: aws.String("sk"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: "HASH"}, {AttributeName: aws.String("sk"), KeyType: "RANGE"}},
		BillingMode:          types.BillingModePayPerRequest,
	})
}

func hashTable(t *testing.T, srv *dynamotest.Server, name string) {
	t.Helper()
	srv.CreateTable(t, &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: "HASH"}},
		BillingMode:          types.BillingModePayPerRequest,
	})
}

func put(t *testing.T, c *dynamodb.Client, table string, it item) {
	t.Helper()
	if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
		t.Fatalf("PutItem: %v", err)
	}
}

func sval(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return v.Value
	case *types.AttributeValueMemberN:
		return v.Value
	case nil:
		return "<nil>"
	}
	return "?"
}
