package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"regexp"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/dynamotest"
)

// Failures print from the *dynamo.Error the repo returns: a service error
// as the Error prints itself, a transport error as the network error and
// the attempts made; reason drops the action and table.
func TestErrorText(t *testing.T) {
	srv := dynamotest.NewServer(t)
	repo, err := dynamo.New(aws.Config{}, dynamo.WithEndpoint(srv.URL), dynamo.WithRegion("us-east-1"), dynamo.WithCredentials("a", "b", ""))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	_, missing := repo.DescribeTable(ctx, "nosuch")

	// A port nothing listens on: listen, note the address, close.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	down, err := dynamo.New(aws.Config{}, dynamo.WithEndpoint("http://"+addr), dynamo.WithRegion("us-east-1"),
		dynamo.WithCredentials("a", "b", ""), dynamo.WithMaxRetries(1), dynamo.WithBackoff(time.Millisecond, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	var refused error
	for _, err := range down.ListTables(ctx) {
		refused = err
	}
	var de *dynamo.Error
	if !errors.As(refused, &de) || de.Type != dynamo.ErrTransport {
		t.Fatalf("want a transport *dynamo.Error, got %v", refused)
	}

	for _, tc := range []struct {
		name string
		got  string
		want string
	}{
		{"service", errorText(missing), `^DescribeTable "nosuch": Requested resource not found.*\(ResourceNotFoundException, HTTP 400\)$`},
		{"service reason", reason(missing), `^Requested resource not found.*\(ResourceNotFoundException, HTTP 400\)$`},
		{"transport", errorText(refused), `^ListTables: dial tcp ` + regexp.QuoteMeta(addr) + `: .*refused \(after 2 attempts\)$`},
		{"transport reason", reason(refused), `^dial tcp ` + regexp.QuoteMeta(addr) + `: .*refused \(after 2 attempts\)$`},
		{"wrapped", errorText(fmt.Errorf("replayed: %w", missing)), `^replayed: DescribeTable "nosuch": Requested resource not found.*\(ResourceNotFoundException, HTTP 400\)$`},
		{"wrapped transport", reason(fmt.Errorf("list: %w", refused)), `^list: dial tcp ` + regexp.QuoteMeta(addr) + `: .*refused \(after 2 attempts\)$`},
		{"plain", errorText(errors.New("dynamo: boom")), `^boom$`},
	} {
		if !regexp.MustCompile(tc.want).MatchString(tc.got) {
			t.Errorf("%s: %q does not match %s", tc.name, tc.got, tc.want)
		}
	}
}

// The sample scan follows LastEvaluatedKey past a page of 1000 and keeps
// the attribute values as stored (a number set stays a number set, binary
// stays binary).
func TestSampleItems(t *testing.T) {
	srv := dynamotest.NewServer(t)
	srv.CreateTable(t, &dynamodb.CreateTableInput{
		TableName:            aws.String("sample"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
	})
	c := srv.Client()
	ctx := context.Background()
	var batch []types.WriteRequest
	for i := range 1003 {
		batch = append(batch, types.WriteRequest{PutRequest: &types.PutRequest{Item: item{
			"pk":  &types.AttributeValueMemberS{Value: fmt.Sprintf("k%04d", i)},
			"ns":  &types.AttributeValueMemberNS{Value: []string{"1", "2.5"}},
			"bin": &types.AttributeValueMemberB{Value: []byte{0, 1, 255}},
		}}})
		if len(batch) == 25 || i == 1002 {
			if _, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"sample": batch}}); err != nil {
				t.Fatal(err)
			}
			batch = nil
		}
	}
	repo, err := dynamo.New(aws.Config{}, dynamo.WithEndpoint(srv.URL), dynamo.WithRegion("us-east-1"), dynamo.WithCredentials("a", "b", ""))
	if err != nil {
		t.Fatal(err)
	}
	before := srv.Calls("Scan")
	items, complete, err := sampleItems(ctx, repo, "sample", 1002, func(int) {})
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 1002 || complete || srv.Calls("Scan")-before != 2 {
		t.Fatalf("%d items in %d scans, want 1002 in 2", len(items), srv.Calls("Scan")-before)
	}
	seen := map[string]bool{}
	for _, it := range items {
		pk, _ := it["pk"].(*types.AttributeValueMemberS)
		ns, _ := it["ns"].(*types.AttributeValueMemberNS)
		bin, _ := it["bin"].(*types.AttributeValueMemberB)
		if pk == nil || ns == nil || len(ns.Value) != 2 || bin == nil || string(bin.Value) != "\x00\x01\xff" {
			t.Fatalf("item decoded as %#v", it)
		}
		seen[pk.Value] = true
	}
	if len(seen) != 1002 {
		t.Fatalf("%d distinct items", len(seen))
	}
	// By default the whole table, reporting the count after each page.
	var counts []int
	all, complete, err := sampleItems(ctx, repo, "sample", -1, func(n int) { counts = append(counts, n) })
	if err != nil || len(all) != 1003 || !complete || len(counts) == 0 || counts[len(counts)-1] != 1003 {
		t.Fatalf("whole table: %d items, complete %v, counts %v, %v", len(all), complete, counts, err)
	}
	if _, _, err := sampleItems(ctx, repo, "nosuch", 5, func(int) {}); !errors.Is(err, dynamo.ErrResourceNotFound) {
		t.Fatalf("err = %v, want ResourceNotFound", err)
	}
}
