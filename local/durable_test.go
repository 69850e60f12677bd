package local_test

import (
	"log/slog"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/local"
	"github.com/dynamogo/dynamo/local/storage/disk"
)

// A server on a disk engine is closed and a new one opened on the same
// directory: tables, indexes and their items, TTL settings and tags all come
// back, written and read through the real SDK client. Half the writes land
// before a compaction (so they come back from the snapshot) and half after
// (from the log).
func TestDurableEngineSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	openEngine := func() *disk.Engine {
		e, err := disk.Open(dir, disk.WithLogger(slog.New(slog.DiscardHandler)))
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	eng := openEngine()
	first := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithEngine(eng)))
	c := first.Client()
	must := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	str := aws.String
	must(c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:   str("orders"),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: str("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: str("sk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: str("status"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: str("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: str("sk"), KeyType: types.KeyTypeRange},
		},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName: str("byStatus"),
			KeySchema: []types.KeySchemaElement{
				{AttributeName: str("status"), KeyType: types.KeyTypeHash},
				{AttributeName: str("sk"), KeyType: types.KeyTypeRange},
			},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
		Tags: []types.Tag{{Key: str("team"), Value: str("checkout")}},
	}))
	for _, name := range []string{"scratch", "counters"} {
		must(c.CreateTable(ctx, &dynamodb.CreateTableInput{
			TableName:            str(name),
			BillingMode:          types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: str("id"), AttributeType: types.ScalarAttributeTypeN}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: str("id"), KeyType: types.KeyTypeHash}},
		}))
	}
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: str("orders")})
	if err != nil {
		t.Fatal(err)
	}
	arn := d.Table.TableArn
	must(c.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: arn, Tags: []types.Tag{{Key: str("env"), Value: str("dev")}}}))
	must(c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: str("orders"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: str("expires"), Enabled: aws.Bool(true)}}))

	order := func(pk, sk, status string) map[string]types.AttributeValue {
		return item{"pk": S(pk), "sk": S(sk), "status": S(status), "expires": N("4102444800"), // 2100
			"lines": &types.AttributeValueMemberL{Value: []types.AttributeValue{S("SKU-1"), N("2")}}}
	}
	for _, it := range []item{order("u1", "o1", "open"), order("u1", "o2", "open"), order("u2", "o3", "shipped")} {
		must(c.PutItem(ctx, &dynamodb.PutItemInput{TableName: str("orders"), Item: it}))
	}
	must(c.PutItem(ctx, &dynamodb.PutItemInput{TableName: str("counters"), Item: item{"id": N("1"), "n": N("0")}}))
	if err := eng.Compact(); err != nil {
		t.Fatal(err)
	}

	// After the snapshot: updates, deletes, batch and transaction writes,
	// and a dropped table.
	must(c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: str("orders"), Key: item{"pk": S("u1"), "sk": S("o2")},
		UpdateExpression: str("SET #s = :s"), ExpressionAttributeNames: map[string]string{"#s": "status"},
		ExpressionAttributeValues: item{":s": S("shipped")}}))
	must(c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: str("orders"), Key: item{"pk": S("u1"), "sk": S("o1")}}))
	must(c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
		"orders": {{PutRequest: &types.PutRequest{Item: order("u3", "o4", "open")}}},
	}}))
	must(c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Update: &types.Update{TableName: str("counters"), Key: item{"id": N("1")}, UpdateExpression: str("ADD n :one"), ExpressionAttributeValues: item{":one": N("1")}}},
		{Put: &types.Put{TableName: str("orders"), Item: order("u3", "o5", "shipped")}},
	}}))
	must(c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: str("scratch")}))
	first.Close()
	if err := eng.Close(); err != nil {
		t.Fatal(err)
	}

	eng = openEngine()
	t.Cleanup(func() { eng.Close() })
	second := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithEngine(eng)))
	c = second.Client()

	lt, err := c.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil || !slices.Equal(lt.TableNames, []string{"counters", "orders"}) {
		t.Fatalf("ListTables = %v, %v", lt.TableNames, err)
	}
	d, err = c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: str("orders")})
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToInt64(d.Table.ItemCount) != 4 || len(d.Table.GlobalSecondaryIndexes) != 1 ||
		aws.ToString(d.Table.GlobalSecondaryIndexes[0].IndexName) != "byStatus" || aws.ToString(d.Table.TableArn) != aws.ToString(arn) {
		t.Fatalf("DescribeTable after restart: %d items, indexes %+v", aws.ToInt64(d.Table.ItemCount), d.Table.GlobalSecondaryIndexes)
	}
	q, err := c.Query(ctx, &dynamodb.QueryInput{TableName: str("orders"), IndexName: str("byStatus"),
		KeyConditionExpression: str("#s = :s"), ExpressionAttributeNames: map[string]string{"#s": "status"},
		ExpressionAttributeValues: item{":s": S("shipped")}})
	if err != nil {
		t.Fatal(err)
	}
	var shipped []string
	for _, it := range q.Items {
		shipped = append(shipped, it["sk"].(*types.AttributeValueMemberS).Value)
	}
	if !slices.Equal(shipped, []string{"o2", "o3", "o5"}) {
		t.Fatalf("GSI query after restart = %v", shipped)
	}
	g, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: str("orders"), Key: item{"pk": S("u1"), "sk": S("o1")}})
	if err != nil || g.Item != nil {
		t.Fatalf("deleted item came back: %v %v", g.Item, err)
	}
	g, err = c.GetItem(ctx, &dynamodb.GetItemInput{TableName: str("orders"), Key: item{"pk": S("u3"), "sk": S("o4")}})
	if err != nil || len(g.Item["lines"].(*types.AttributeValueMemberL).Value) != 2 {
		t.Fatalf("batch-written item after restart: %v %v", g.Item, err)
	}
	g, err = c.GetItem(ctx, &dynamodb.GetItemInput{TableName: str("counters"), Key: item{"id": N("1")}})
	if err != nil || g.Item["n"].(*types.AttributeValueMemberN).Value != "1" {
		t.Fatalf("transaction update after restart: %v %v", g.Item, err)
	}
	ttl, err := c.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: str("orders")})
	if err != nil || ttl.TimeToLiveDescription.TimeToLiveStatus != types.TimeToLiveStatusEnabled ||
		aws.ToString(ttl.TimeToLiveDescription.AttributeName) != "expires" {
		t.Fatalf("TTL after restart: %+v %v", ttl.TimeToLiveDescription, err)
	}
	tags, err := c.ListTagsOfResource(ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: arn})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, tg := range tags.Tags {
		got[aws.ToString(tg.Key)] = aws.ToString(tg.Value)
	}
	if len(got) != 2 || got["team"] != "checkout" || got["env"] != "dev" {
		t.Fatalf("tags after restart: %v", got)
	}
	// The restarted server takes writes, and they are durable too.
	must(c.PutItem(ctx, &dynamodb.PutItemInput{TableName: str("counters"), Item: item{"id": N("2")}}))
	if st := eng.Stats(); st.Writes == 0 || st.Syncs == 0 {
		t.Fatalf("write after restart did not reach the log: %+v", st)
	}
}
