package local_test

import (
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/internal/itemsize"
	"github.com/dynamogo/dynamo/local"
	"github.com/dynamogo/dynamo/local/storage/disk"
)

// DescribeTable's TableSizeBytes and IndexSizeBytes are the sums of the
// sizes of what the table and each index hold, as a Scan of each returns
// it: after every kind of write, an index built later, and a restart on
// the same directory (which reads no item to know them).
func TestSizesFollowWritesAndRestarts(t *testing.T) {
	dir := t.TempDir()
	var srv *dynamotest.Server
	var eng *disk.Engine
	var c *dynamodb.Client
	restart := func() {
		if srv != nil {
			srv.Close()
			if err := eng.Close(); err != nil {
				t.Fatal(err)
			}
		}
		var err error
		if eng, err = disk.Open(dir, disk.WithLogger(slog.New(slog.DiscardHandler))); err != nil {
			t.Fatal(err)
		}
		srv = dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithEngine(eng)))
		c = srv.Client()
	}
	restart()
	t.Cleanup(func() { eng.Close() })
	str := aws.String
	keys := func(h, r string) []types.KeySchemaElement {
		return []types.KeySchemaElement{{AttributeName: str(h), KeyType: types.KeyTypeHash}, {AttributeName: str(r), KeyType: types.KeyTypeRange}}
	}
	srv.CreateTable(t, &dynamodb.CreateTableInput{
		TableName:   str("sizes"),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: str("pk"), AttributeType: "S"}, {AttributeName: str("sk"), AttributeType: "S"},
			{AttributeName: str("g"), AttributeType: "S"}, {AttributeName: str("l"), AttributeType: "N"},
		},
		KeySchema: keys("pk", "sk"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName: str("byG"), KeySchema: keys("g", "sk"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		}},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{
			IndexName: str("byL"), KeySchema: keys("pk", "l"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"a"}},
		}},
	})
	scanSize := func(index *string) (size int64) {
		p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: str("sizes"), IndexName: index})
		for p.HasMorePages() {
			page, err := p.NextPage(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range page.Items {
				size += int64(itemsize.Item(it))
			}
		}
		return size
	}
	check := func(when string, indexes int) {
		t.Helper()
		d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: str("sizes")})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := aws.ToInt64(d.Table.TableSizeBytes), scanSize(nil); got != want || want == 0 {
			t.Errorf("%s: TableSizeBytes %d, the items' sizes sum to %d", when, got, want)
		}
		seen := 0
		for _, ix := range d.Table.GlobalSecondaryIndexes {
			if got, want := aws.ToInt64(ix.IndexSizeBytes), scanSize(ix.IndexName); got != want || want == 0 {
				t.Errorf("%s: %s's IndexSizeBytes %d, its entries' sizes sum to %d", when, *ix.IndexName, got, want)
			}
			seen++
		}
		for _, ix := range d.Table.LocalSecondaryIndexes {
			if got, want := aws.ToInt64(ix.IndexSizeBytes), scanSize(ix.IndexName); got != want || want == 0 {
				t.Errorf("%s: %s's IndexSizeBytes %d, its entries' sizes sum to %d", when, *ix.IndexName, got, want)
			}
			seen++
		}
		if seen != indexes {
			t.Fatalf("%s: %d indexes described, want %d", when, seen, indexes)
		}
	}
	must := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	key := func(i int) item { return item{"pk": S(fmt.Sprintf("p%d", i%7)), "sk": S(fmt.Sprintf("s%03d", i))} }
	full := func(i, round int) item {
		it := key(i)
		it["g"], it["l"], it["h"] = S(fmt.Sprintf("g%d", (i+round)%3)), N(fmt.Sprint(i*round)), S("h")
		it["a"], it["b"] = S(strings.Repeat("a", (i*round)%50)), S(strings.Repeat("b", i%30))
		return it
	}
	writes := func(round int) {
		for i := range 60 {
			must(c.PutItem(ctx, &dynamodb.PutItemInput{TableName: str("sizes"), Item: full(i, round)}))
		}
		for i := 0; i < 60; i += 4 { // moves index entries and changes sizes
			must(c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: str("sizes"), Key: key(i),
				UpdateExpression:          str("SET g = :g, a = :a REMOVE b"),
				ExpressionAttributeValues: item{":g": S(fmt.Sprintf("g%d", i%5)), ":a": S(strings.Repeat("x", i))}}))
		}
		for i := 1; i < 60; i += 9 {
			must(c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: str("sizes"), Key: key(i)}))
		}
		var reqs []types.WriteRequest
		for i := 60; i < 80; i++ {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: full(i, round)}})
		}
		reqs = append(reqs, types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: key(2)}})
		must(c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"sizes": reqs}}))
		must(c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{TableName: str("sizes"), Item: full(90, round)}},
			{Delete: &types.Delete{TableName: str("sizes"), Key: key(3)}},
			{Update: &types.Update{TableName: str("sizes"), Key: key(5), UpdateExpression: str("SET b = :b"),
				ExpressionAttributeValues: item{":b": S(strings.Repeat("y", 40))}}},
		}}))
	}
	writes(1)
	check("after writes", 2)
	must(c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: str("sizes"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: str("h"), AttributeType: "S"}, {AttributeName: str("sk"), AttributeType: "S"}},
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName: str("byH"), KeySchema: keys("h", "sk"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}}}}))
	check("after an index is built", 3)
	restart()
	check("after a restart", 3)
	writes(2)
	check("after writes since the restart", 3)
	restart()
	check("after a second restart", 3)
}
