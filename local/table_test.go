package local_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func attrs(nt ...string) []types.AttributeDefinition {
	var out []types.AttributeDefinition
	for i := 0; i < len(nt); i += 2 {
		out = append(out, types.AttributeDefinition{AttributeName: aws.String(nt[i]), AttributeType: types.ScalarAttributeType(nt[i+1])})
	}
	return out
}

func keys(hash string, rng ...string) []types.KeySchemaElement {
	out := []types.KeySchemaElement{{AttributeName: aws.String(hash), KeyType: types.KeyTypeHash}}
	for _, r := range rng {
		out = append(out, types.KeySchemaElement{AttributeName: aws.String(r), KeyType: types.KeyTypeRange})
	}
	return out
}

func TestCreateDescribeTable(t *testing.T) {
	_, c := newServer(t)
	out, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:             aws.String("orders"),
		AttributeDefinitions:  attrs("pk", "S", "sk", "S", "gpk", "S", "lsk", "N"),
		KeySchema:             keys("pk", "sk"),
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(3)},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName: aws.String("byG"), KeySchema: keys("gpk", "sk"),
			Projection:            &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"total"}},
			ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(2)},
		}},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{
			IndexName: aws.String("byL"), KeySchema: keys("pk", "lsk"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		}},
		StreamSpecification:       &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
		DeletionProtectionEnabled: aws.Bool(true),
	})
	if err != nil {
		t.Fatal(err)
	}
	d := out.TableDescription
	if d.TableStatus != types.TableStatusActive || aws.ToString(d.TableArn) != "arn:aws:dynamodb:us-east-1:000000000000:table/orders" {
		t.Fatalf("status %s arn %s", d.TableStatus, aws.ToString(d.TableArn))
	}
	desc, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("orders")})
	if err != nil {
		t.Fatal(err)
	}
	tb := desc.Table
	if aws.ToString(tb.TableId) == "" || tb.CreationDateTime == nil || len(tb.KeySchema) != 2 || len(tb.AttributeDefinitions) != 4 {
		t.Fatalf("incomplete description: %+v", tb)
	}
	if *tb.ProvisionedThroughput.ReadCapacityUnits != 5 || *tb.ProvisionedThroughput.WriteCapacityUnits != 3 {
		t.Fatalf("throughput %+v", tb.ProvisionedThroughput)
	}
	if len(tb.GlobalSecondaryIndexes) != 1 || aws.ToString(tb.GlobalSecondaryIndexes[0].IndexArn) != "arn:aws:dynamodb:us-east-1:000000000000:table/orders/index/byG" ||
		tb.GlobalSecondaryIndexes[0].IndexStatus != types.IndexStatusActive || tb.GlobalSecondaryIndexes[0].Projection.NonKeyAttributes[0] != "total" {
		t.Fatalf("GSI %+v", tb.GlobalSecondaryIndexes)
	}
	if len(tb.LocalSecondaryIndexes) != 1 || tb.LocalSecondaryIndexes[0].Projection.ProjectionType != types.ProjectionTypeKeysOnly {
		t.Fatalf("LSI %+v", tb.LocalSecondaryIndexes)
	}
	if !aws.ToBool(tb.StreamSpecification.StreamEnabled) || aws.ToString(tb.LatestStreamLabel) == "" ||
		!strings.HasPrefix(aws.ToString(tb.LatestStreamArn), "arn:aws:dynamodb:us-east-1:000000000000:table/orders/stream/") {
		t.Fatalf("stream %+v %s", tb.StreamSpecification, aws.ToString(tb.LatestStreamArn))
	}
	if !aws.ToBool(tb.DeletionProtectionEnabled) {
		t.Fatal("deletion protection missing")
	}
	if tb.TableClassSummary != nil { // never set: not reported (create/ok-hash)
		t.Fatalf("TableClassSummary %+v for a table created without TableClass", tb.TableClassSummary)
	}
	_, err = c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("orders"), AttributeDefinitions: attrs("pk", "S"), KeySchema: keys("pk"), BillingMode: types.BillingModePayPerRequest})
	wantErr(t, err, "ResourceInUseException", "Table already exists: orders")

	// Deletion protection refuses DeleteTable until UpdateTable lifts it.
	_, err = c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("orders")})
	wantErr(t, err, "ValidationException", "Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.")
	if _, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("orders"), DeletionProtectionEnabled: aws.Bool(false)}); err != nil {
		t.Fatal(err)
	}
	del, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("orders")})
	if err != nil || del.TableDescription.TableStatus != types.TableStatusDeleting {
		t.Fatalf("DeleteTable: %v", err)
	}
	_, err = c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("orders")})
	wantErr(t, err, "ResourceNotFoundException", "Requested resource not found: Table: orders not found")
}

func TestCreateTableValidation(t *testing.T) {
	_, c := newServer(t)
	ppr := types.BillingModePayPerRequest
	gsi := func(name string, ks []types.KeySchemaElement) types.GlobalSecondaryIndex {
		return types.GlobalSecondaryIndex{IndexName: aws.String(name), KeySchema: ks, Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}
	}
	var manyGSIs []types.GlobalSecondaryIndex
	for i := 0; i < 21; i++ {
		manyGSIs = append(manyGSIs, gsi(fmt.Sprintf("gsi%02d", i), keys("g")))
	}
	cases := []struct {
		name string
		in   dynamodb.CreateTableInput
		msg  string
	}{
		{"short name", dynamodb.CreateTableInput{TableName: aws.String("ab"), AttributeDefinitions: attrs("pk", "S"), KeySchema: keys("pk"), BillingMode: ppr},
			"1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3"},
		{"bad chars", dynamodb.CreateTableInput{TableName: aws.String("a b"), AttributeDefinitions: attrs("pk", "S"), KeySchema: keys("pk"), BillingMode: ppr},
			"1 validation error detected: Value 'a b' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"},
		{"bad type", dynamodb.CreateTableInput{TableName: aws.String("abc"), AttributeDefinitions: attrs("pk", "X"), KeySchema: keys("pk"), BillingMode: ppr},
			"1 validation error detected: Value 'X' at 'attributeDefinitions.1.member.attributeType' failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]"},
		{"undefined key", dynamodb.CreateTableInput{TableName: aws.String("abc"), AttributeDefinitions: attrs("x", "S"), KeySchema: keys("pk"), BillingMode: ppr},
			"One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [pk], AttributeDefinitions: [x]"},
		{"same names", dynamodb.CreateTableInput{TableName: aws.String("abc"), AttributeDefinitions: attrs("pk", "S", "sk", "S"), KeySchema: keys("pk", "pk"), BillingMode: ppr},
			"Both the Hash Key and the Range Key element in the KeySchema have the same name"},
		{"range first", dynamodb.CreateTableInput{TableName: aws.String("abc"), AttributeDefinitions: attrs("pk", "S"), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeRange}}, BillingMode: ppr},
			"Invalid KeySchema: The first KeySchemaElement is not a HASH key type"},
		{"unused definition", dynamodb.CreateTableInput{TableName: aws.String("abc"), AttributeDefinitions: attrs("pk", "S", "x", "S"), KeySchema: keys("pk"), BillingMode: ppr},
			"One or more parameter values were invalid: Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions"},
		{"no throughput", dynamodb.CreateTableInput{TableName: aws.String("abc"), AttributeDefinitions: attrs("pk", "S"), KeySchema: keys("pk")},
			"One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED"},
		{"throughput on demand", dynamodb.CreateTableInput{TableName: aws.String("abc"), AttributeDefinitions: attrs("pk", "S"), KeySchema: keys("pk"), BillingMode: ppr,
			ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)}},
			"One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST"},
		{"zero throughput", dynamodb.CreateTableInput{TableName: aws.String("abc"), AttributeDefinitions: attrs("pk", "S"), KeySchema: keys("pk"),
			ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(0), WriteCapacityUnits: aws.Int64(0)}},
			"2 validation errors detected: Value '0' at 'provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: Member must have value greater than or equal to 1; Value '0' at 'provisionedThroughput.readCapacityUnits' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{"lsi without range", dynamodb.CreateTableInput{TableName: aws.String("abc"), AttributeDefinitions: attrs("pk", "S", "l", "S"), KeySchema: keys("pk"), BillingMode: ppr,
			LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("lsi"), KeySchema: keys("pk", "l"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}},
			"One or more parameter values were invalid: Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex"},
		{"lsi other hash", dynamodb.CreateTableInput{TableName: aws.String("abc"), AttributeDefinitions: attrs("pk", "S", "sk", "S", "l", "S"), KeySchema: keys("pk", "sk"), BillingMode: ppr,
			LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("lsi"), KeySchema: keys("l", "sk"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}},
			"One or more parameter values were invalid: Index KeySchema does not have the same leading hash key as table KeySchema for index: lsi. index hash key: l, table hash key: pk"},
		{"gsi throughput missing", dynamodb.CreateTableInput{TableName: aws.String("abc"), AttributeDefinitions: attrs("pk", "S", "g", "S"), KeySchema: keys("pk"),
			ProvisionedThroughput:  &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)},
			GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{gsi("gsi", keys("g"))}},
			"One or more parameter values were invalid: ProvisionedThroughput is not specified for index: gsi"},
		{"too many gsis", dynamodb.CreateTableInput{TableName: aws.String("abc"), AttributeDefinitions: attrs("pk", "S", "g", "S"), KeySchema: keys("pk"), BillingMode: ppr,
			GlobalSecondaryIndexes: manyGSIs},
			"One or more parameter values were invalid: GlobalSecondaryIndex count exceeds the per-table limit of 20"},
		{"duplicate index", dynamodb.CreateTableInput{TableName: aws.String("abc"), AttributeDefinitions: attrs("pk", "S", "g", "S"), KeySchema: keys("pk"), BillingMode: ppr,
			GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{gsi("gsi", keys("g")), gsi("gsi", keys("g"))}},
			"One or more parameter values were invalid: Duplicate index name: gsi"},
		{"keys only with attributes", dynamodb.CreateTableInput{TableName: aws.String("abc"), AttributeDefinitions: attrs("pk", "S", "g", "S"), KeySchema: keys("pk"), BillingMode: ppr,
			GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("gsi"), KeySchema: keys("g"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly, NonKeyAttributes: []string{"x"}}}}},
			"One or more parameter values were invalid: ProjectionType is KEYS_ONLY, but NonKeyAttributes is specified"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.CreateTable(ctx, &tc.in)
			wantErr(t, err, "ValidationException", tc.msg)
		})
	}
}

func TestListTables(t *testing.T) {
	srv, c := newServer(t)
	for _, n := range []string{"ccc", "aaa", "bbb", "ddd"} {
		hashTable(t, srv, n)
	}
	out, err := c.ListTables(ctx, &dynamodb.ListTablesInput{Limit: aws.Int32(2)})
	if err != nil || strings.Join(out.TableNames, ",") != "aaa,bbb" || aws.ToString(out.LastEvaluatedTableName) != "bbb" {
		t.Fatalf("page 1: %v %v %v", out.TableNames, aws.ToString(out.LastEvaluatedTableName), err)
	}
	out, err = c.ListTables(ctx, &dynamodb.ListTablesInput{Limit: aws.Int32(2), ExclusiveStartTableName: out.LastEvaluatedTableName})
	if err != nil || strings.Join(out.TableNames, ",") != "ccc,ddd" || out.LastEvaluatedTableName != nil {
		t.Fatalf("page 2: %v %v %v", out.TableNames, aws.ToString(out.LastEvaluatedTableName), err)
	}
	// The SDK paginator walks every page.
	var all []string
	p := dynamodb.NewListTablesPaginator(c, &dynamodb.ListTablesInput{Limit: aws.Int32(3)})
	for p.HasMorePages() {
		pg, err := p.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, pg.TableNames...)
	}
	if strings.Join(all, ",") != "aaa,bbb,ccc,ddd" {
		t.Fatalf("paginated: %v", all)
	}
	_, err = c.ListTables(ctx, &dynamodb.ListTablesInput{Limit: aws.Int32(101)})
	wantErr(t, err, "ValidationException", "1 validation error detected: Value '101' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100")
}

func TestUpdateTableGSIBackfill(t *testing.T) {
	srv, c := newServer(t)
	hashRangeTable(t, srv, "tab")
	for i := 0; i < 10; i++ {
		it := item{"pk": S("p"), "sk": S(fmt.Sprint(i))}
		if i%2 == 0 {
			it["status"] = S("even")
		}
		put(t, c, "tab", it)
	}
	_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{
		TableName:            aws.String("tab"),
		AttributeDefinitions: attrs("status", "S", "sk", "S"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName: aws.String("byStatus"), KeySchema: keys("status", "sk"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	q, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("tab"), IndexName: aws.String("byStatus"),
		KeyConditionExpression: aws.String("#s = :s"), ExpressionAttributeNames: map[string]string{"#s": "status"}, ExpressionAttributeValues: item{":s": S("even")}})
	if err != nil || q.Count != 5 {
		t.Fatalf("backfilled index query: %d %v", q.Count, err)
	}
	d, _ := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("tab")})
	if g := d.Table.GlobalSecondaryIndexes; len(g) != 1 || aws.ToInt64(g[0].ItemCount) != 5 || aws.ToInt64(d.Table.ItemCount) != 10 {
		t.Fatalf("counts: %+v", g)
	}
	_, err = c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tab"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Delete: &types.DeleteGlobalSecondaryIndexAction{IndexName: aws.String("byStatus")}}}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("tab"), IndexName: aws.String("byStatus"),
		KeyConditionExpression: aws.String("#s = :s"), ExpressionAttributeNames: map[string]string{"#s": "status"}, ExpressionAttributeValues: item{":s": S("even")}})
	wantErr(t, err, "ValidationException", "The table does not have the specified index: byStatus")
	_, err = c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tab")})
	wantErr(t, err, "ValidationException", "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates, SSESpecification, ReplicaUpdates, "+
		"MultiAccountReplicaReady, ReplicaTransitRoleArn, MultiRegionConsistency, DeletionProtectionEnabled, OnDemandThroughput, WarmThroughput or TableClass is required")

	// Billing mode switch.
	out, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tab"), BillingMode: types.BillingModeProvisioned,
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(7), WriteCapacityUnits: aws.Int64(8)}})
	if err != nil || out.TableDescription.BillingModeSummary.BillingMode != types.BillingModeProvisioned || *out.TableDescription.ProvisionedThroughput.ReadCapacityUnits != 7 {
		t.Fatalf("billing switch: %v", err)
	}
	_, err = c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tab"),
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(7), WriteCapacityUnits: aws.Int64(8)}})
	wantErrContains(t, err, "ValidationException", "The provisioned throughput for the table will not change.")
}

func TestDescribeLimitsAndEndpoints(t *testing.T) {
	_, c := newServer(t)
	l, err := c.DescribeLimits(ctx, &dynamodb.DescribeLimitsInput{})
	if err != nil || aws.ToInt64(l.TableMaxReadCapacityUnits) != 40000 {
		t.Fatalf("%v %v", l, err)
	}
	e, err := c.DescribeEndpoints(ctx, &dynamodb.DescribeEndpointsInput{})
	if err != nil || len(e.Endpoints) != 1 || !strings.HasPrefix(aws.ToString(e.Endpoints[0].Address), "127.0.0.1:") {
		t.Fatalf("%v %v", e, err)
	}
}
