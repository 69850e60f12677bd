package local_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func ks(parts ...string) []types.KeySchemaElement {
	var out []types.KeySchemaElement
	for _, p := range parts {
		name, kt, _ := strings.Cut(p, ":")
		out = append(out, types.KeySchemaElement{AttributeName: aws.String(name), KeyType: types.KeyType(kt)})
	}
	return out
}

func defs(parts ...string) []types.AttributeDefinition {
	var out []types.AttributeDefinition
	for _, p := range parts {
		name, typ, _ := strings.Cut(p, ":")
		out = append(out, types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: types.ScalarAttributeType(typ)})
	}
	return out
}

var allProjection = &types.Projection{ProjectionType: types.ProjectionTypeAll}

// matchTable: tournament matches indexed by (tournament S, region S) and
// sorted by (round N, bracket S, seed B).
func matchTable(t *testing.T, c *dynamodb.Client) {
	t.Helper()
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("matches"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: defs("id:S", "tournament:S", "region:S", "round:N", "bracket:S", "seed:B"),
		KeySchema:            ks("id:HASH"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("byRound"),
			KeySchema:  ks("tournament:HASH", "region:HASH", "round:RANGE", "bracket:RANGE", "seed:RANGE"),
			Projection: allProjection,
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
}

func match(id, tournament, region, round, bracket string, seed byte) item {
	return item{"id": S(id), "tournament": S(tournament), "region": S(region), "round": N(round), "bracket": S(bracket), "seed": B(seed)}
}

// ids returns the "id" of each item.
func matchIDs(items []map[string]types.AttributeValue) []string {
	var out []string
	for _, it := range items {
		out = append(out, sval(it["id"]))
	}
	return out
}

func queryIDs(t *testing.T, c *dynamodb.Client, in *dynamodb.QueryInput) []string {
	t.Helper()
	q, err := c.Query(ctx, in)
	if err != nil {
		t.Fatalf("Query %s: %v", aws.ToString(in.KeyConditionExpression), err)
	}
	return matchIDs(q.Items)
}

// CreateTable, DescribeTable and UpdateTable keep multi-attribute GSI key
// schemas of one to four attributes on each side, of every key type, in
// order.
func TestMultiKeyGSICreateDescribeUpdate(t *testing.T) {
	srv, c := newServer(t)
	_ = srv
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("tbl"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: defs("pk:S", "a:S", "b:N", "c:B", "d:S", "e:N", "f:B", "g:S", "h:N"),
		KeySchema:            ks("pk:HASH"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String("four"), KeySchema: ks("a:HASH", "b:HASH", "c:HASH", "d:HASH", "e:RANGE", "f:RANGE", "g:RANGE", "h:RANGE"), Projection: allProjection},
			{IndexName: aws.String("twoHash"), KeySchema: ks("b:HASH", "c:HASH"), Projection: allProjection},
			{IndexName: aws.String("oneTwo"), KeySchema: ks("a:HASH", "e:RANGE", "f:RANGE"), Projection: allProjection},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.UpdateTable(ctx, &dynamodb.UpdateTableInput{
		TableName: aws.String("tbl"), AttributeDefinitions: defs("g:S", "h:N", "c:B"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName: aws.String("added"), KeySchema: ks("g:HASH", "h:HASH", "c:RANGE", "g2:RANGE"), Projection: allProjection}}},
	})
	wantErr(t, err, "ValidationException", "Invalid KeySchema: Some index key attribute have no definition")
	_, err = c.UpdateTable(ctx, &dynamodb.UpdateTableInput{
		TableName: aws.String("tbl"), AttributeDefinitions: defs("g:S", "h:N", "c:B"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName: aws.String("added"), KeySchema: ks("g:HASH", "h:HASH", "c:RANGE"), Projection: allProjection}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("tbl")})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"four":    "a:HASH b:HASH c:HASH d:HASH e:RANGE f:RANGE g:RANGE h:RANGE",
		"twoHash": "b:HASH c:HASH",
		"oneTwo":  "a:HASH e:RANGE f:RANGE",
		"added":   "g:HASH h:HASH c:RANGE",
	}
	if len(d.Table.GlobalSecondaryIndexes) != len(want) {
		t.Fatalf("%d indexes, want %d", len(d.Table.GlobalSecondaryIndexes), len(want))
	}
	for _, g := range d.Table.GlobalSecondaryIndexes {
		var got []string
		for _, k := range g.KeySchema {
			got = append(got, aws.ToString(k.AttributeName)+":"+string(k.KeyType))
		}
		if s := strings.Join(got, " "); s != want[aws.ToString(g.IndexName)] {
			t.Errorf("index %s KeySchema = %s, want %s", aws.ToString(g.IndexName), s, want[aws.ToString(g.IndexName)])
		}
	}
}

// Illegal multi-attribute key schemas are refused; tables and local
// indexes keep one HASH and at most one RANGE element.
func TestMultiKeyGSIInvalidSchemas(t *testing.T) {
	_, c := newServer(t)
	all := defs("pk:S", "sk:S", "a:S", "b:N", "c:B", "d:S", "e:N")
	gsi := func(schema []types.KeySchemaElement) error {
		_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
			TableName: aws.String("bad"), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: all, KeySchema: ks("pk:HASH"),
			GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("gsi"), KeySchema: schema, Projection: allProjection}},
		})
		return err
	}
	wantErr(t, gsi(ks("a:HASH", "b:HASH", "c:HASH", "d:HASH", "e:HASH")), "ValidationException",
		"Invalid KeySchema: The number of HASH key elements exceeds the limit of 4")
	wantErr(t, gsi(ks("pk:HASH", "a:RANGE", "b:RANGE", "c:RANGE", "d:RANGE", "e:RANGE")), "ValidationException",
		"Invalid KeySchema: The number of RANGE key elements exceeds the limit of 4")
	wantErr(t, gsi(ks("a:HASH", "b:RANGE", "c:HASH")), "ValidationException",
		"Invalid KeySchema: HASH key elements must precede RANGE key elements")
	wantErr(t, gsi(ks("b:RANGE", "c:RANGE", "a:HASH")), "ValidationException",
		"Invalid KeySchema: The first KeySchemaElement is not a HASH key type")
	wantErr(t, gsi(ks("a:HASH", "b:HASH", "a:RANGE")), "ValidationException",
		"Invalid KeySchema: Duplicate key attribute name: a")
	wantErr(t, gsi(ks("a:HASH", "zz:HASH")), "ValidationException",
		"Invalid KeySchema: Some index key attribute have no definition")
	wantErrContains(t, gsi(ks("a:HASH", "b:HASH", "c:HASH", "d:HASH", "e:RANGE", "pk:RANGE", "sk:RANGE", "a:RANGE", "b:RANGE")),
		"ValidationException", "Member must have length less than or equal to 8")

	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String("bad"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: defs("pk:S", "a:S"), KeySchema: ks("pk:HASH", "a:HASH"),
	})
	wantErr(t, err, "ValidationException", "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type")
	_, err = c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String("bad"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: defs("pk:S", "a:S", "b:S"), KeySchema: ks("pk:HASH", "a:RANGE", "b:RANGE"),
	})
	wantErrContains(t, err, "ValidationException", "Member must have length less than or equal to 2")
	_, err = c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String("bad"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: defs("pk:S", "sk:S", "a:S", "b:S"), KeySchema: ks("pk:HASH", "sk:RANGE"),
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("lsi"), KeySchema: ks("pk:HASH", "a:RANGE", "b:RANGE"), Projection: allProjection}},
	})
	wantErrContains(t, err, "ValidationException", "Member must have length less than or equal to 2")
}

// Items enter a multi-attribute index only with every key attribute of its
// type; puts, updates, deletes, batch and transaction writes move them in
// and out; the index sorts by round numerically, then bracket, then seed
// bytewise.
func TestMultiKeyGSIIndexing(t *testing.T) {
	_, c := newServer(t)
	matchTable(t, c)
	for _, it := range []item{
		match("m1", "W24", "NA", "10", "upper", 2),
		match("m2", "W24", "NA", "9", "upper", 1),
		match("m3", "W24", "NA", "10", "lower", 0xff),
		match("m4", "W24", "NA", "10", "upper", 0x80),
		match("m5", "W24", "EU", "1", "upper", 1),                                                      // another partition
		{"id": S("m6"), "tournament": S("W24"), "region": S("NA"), "round": N("1")},                    // no bracket, seed: not indexed
		{"id": S("m7"), "tournament": S("W24"), "region": S("NA"), "round": S("1"), "bracket": S("x")}, // wrong type: not indexed
	} {
		if it["round"] != nil {
			if _, ok := it["round"].(*types.AttributeValueMemberS); ok {
				// round is an index key of type N: the write is refused.
				_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("matches"), Item: it})
				wantErr(t, err, "ValidationException", "One or more parameter values were invalid: Type mismatch for Index Key round Expected: N Actual: S IndexName: byRound")
				continue
			}
		}
		put(t, c, "matches", it)
	}
	na := func() *dynamodb.QueryInput {
		return &dynamodb.QueryInput{TableName: aws.String("matches"), IndexName: aws.String("byRound"),
			KeyConditionExpression:    aws.String("tournament = :t AND #r = :r"),
			ExpressionAttributeNames:  map[string]string{"#r": "region"},
			ExpressionAttributeValues: item{":t": S("W24"), ":r": S("NA")}}
	}
	if got := queryIDs(t, c, na()); !slices.Equal(got, []string{"m2", "m3", "m1", "m4"}) {
		t.Fatalf("NA partition = %v, want [m2 m3 m1 m4]", got)
	}
	back := na()
	back.ScanIndexForward = aws.Bool(false)
	if got := queryIDs(t, c, back); !slices.Equal(got, []string{"m4", "m1", "m3", "m2"}) {
		t.Fatalf("NA partition backwards = %v", got)
	}

	// An update that adds the missing attributes moves m6 in; one that
	// removes one moves m1 out; one that changes one moves m2 across.
	upd := func(id, expr string, vals item) {
		t.Helper()
		in := &dynamodb.UpdateItemInput{TableName: aws.String("matches"), Key: item{"id": S(id)}, UpdateExpression: aws.String(expr)}
		if vals != nil {
			in.ExpressionAttributeValues = vals
		}
		if strings.Contains(expr, "#r") {
			in.ExpressionAttributeNames = map[string]string{"#r": "region"}
		}
		if _, err := c.UpdateItem(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	upd("m6", "SET bracket = :b, seed = :s", item{":b": S("upper"), ":s": B(9)})
	upd("m1", "REMOVE seed", nil)
	upd("m2", "SET #r = :eu", item{":eu": S("EU")})
	// Batch and transaction writes.
	if _, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
		"matches": {{PutRequest: &types.PutRequest{Item: match("m8", "W24", "NA", "2", "a", 0)}},
			{DeleteRequest: &types.DeleteRequest{Key: item{"id": S("m3")}}}},
	}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String("matches"), Item: match("m9", "W24", "NA", "10", "upper", 0x01)}},
	}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("matches"), Key: item{"id": S("m4")}}); err != nil {
		t.Fatal(err)
	}
	if got := queryIDs(t, c, na()); !slices.Equal(got, []string{"m6", "m8", "m9"}) {
		t.Fatalf("NA partition after writes = %v, want [m6 m8 m9]", got)
	}
	eu := na()
	eu.ExpressionAttributeValues[":r"] = S("EU")
	if got := queryIDs(t, c, eu); !slices.Equal(got, []string{"m5", "m2"}) {
		t.Fatalf("EU partition = %v, want [m5 m2]", got)
	}
}
