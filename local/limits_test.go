package local_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// BatchGetItem returns at most 16 MB; the rest comes back in UnprocessedKeys
// (API_BatchGetItem.html).
func TestBatchGet16MB(t *testing.T) {
	if testing.Short() {
		t.Skip("moves about 40 MB")
	}
	srv, c := newServer(t)
	hashTable(t, srv, "huge")
	blob := strings.Repeat("x", 390*1024)
	var keys []map[string]types.AttributeValue
	for i := 0; i < 45; i++ {
		put(t, c, "huge", item{"pk": S(fmt.Sprint(i)), "v": S(blob)})
		keys = append(keys, item{"pk": S(fmt.Sprint(i))})
	}
	out, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"huge": {Keys: keys}}})
	if err != nil {
		t.Fatal(err)
	}
	got, left := len(out.Responses["huge"]), len(out.UnprocessedKeys["huge"].Keys)
	if got+left != 45 || left == 0 || got*390*1024 > 16<<20+390*1024 {
		t.Fatalf("returned %d, unprocessed %d", got, left)
	}
}

func TestScanIndexRules(t *testing.T) {
	srv, c := newServer(t)
	numbersTable(t, srv)
	_, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("nums"), IndexName: aws.String("byG"), ConsistentRead: aws.Bool(true)})
	wantErr(t, err, "ValidationException", "Consistent reads are not supported on global secondary indexes")
	_, err = c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("nums"), Select: types.SelectAllProjectedAttributes})
	wantErr(t, err, "ValidationException", "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName")
	put(t, c, "nums", item{"pk": S("a"), "sk": N("1"), "l": S("x"), "other": S("o")})
	// An LSI scan with ALL_ATTRIBUTES fetches from the table; ALL_PROJECTED does not.
	out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("nums"), IndexName: aws.String("byL"), Select: types.SelectAllAttributes})
	if err != nil || len(out.Items) != 1 || sval(out.Items[0]["other"]) != "o" {
		t.Fatalf("LSI ALL_ATTRIBUTES: %v %v", out.Items, err)
	}
	out, err = c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("nums"), IndexName: aws.String("byL"), Select: types.SelectAllProjectedAttributes})
	if err != nil || len(out.Items) != 1 || out.Items[0]["other"] != nil {
		t.Fatalf("LSI ALL_PROJECTED_ATTRIBUTES: %v %v", out.Items, err)
	}
	// The Scan LastEvaluatedKey of an index resumes the index scan.
	put(t, c, "nums", item{"pk": S("b"), "sk": N("1"), "l": S("y")})
	first, _ := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("nums"), IndexName: aws.String("byL"), Limit: aws.Int32(1)})
	second, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("nums"), IndexName: aws.String("byL"), ExclusiveStartKey: first.LastEvaluatedKey})
	if err != nil || len(first.Items)+len(second.Items) != 2 || sval(first.Items[0]["pk"]) == sval(second.Items[0]["pk"]) {
		t.Fatalf("index scan pages: %v / %v (%v)", first.Items, second.Items, err)
	}
}
