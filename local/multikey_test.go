package local_test

import (
	"bytes"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/local"
	"github.com/dynamogo/dynamo/local/storage/disk"
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
		"One or more parameter values were invalid: The KeySchema exceeds the maximum allowed number of HASH key attributes")
	wantErr(t, gsi(ks("pk:HASH", "a:RANGE", "b:RANGE", "c:RANGE", "d:RANGE", "e:RANGE")), "ValidationException",
		"One or more parameter values were invalid: The KeySchema exceeds the maximum allowed number of RANGE key attributes")
	wantErr(t, gsi(ks("a:HASH", "b:RANGE", "c:HASH")), "ValidationException",
		"One or more parameter values were invalid: All HASH key attributes must precede RANGE key attributes in the KeySchema")
	wantErr(t, gsi(ks("b:RANGE", "c:RANGE", "a:HASH")), "ValidationException",
		"Invalid KeySchema: The first KeySchemaElement is not a HASH key type")
	wantErr(t, gsi(ks("a:HASH", "b:HASH", "a:RANGE")), "ValidationException",
		"The KeySchema contains multiple key attributes with the same name")
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

// Every legal key condition shape on a multi-attribute index selects what
// it says; every other shape gets a ValidationException.
func TestMultiKeyGSIQueryShapes(t *testing.T) {
	_, c := newServer(t)
	matchTable(t, c)
	for _, it := range []item{
		match("a", "W24", "NA", "1", "lower", 1),
		match("b", "W24", "NA", "1", "upper", 1),
		match("c", "W24", "NA", "1", "upper", 2),
		match("d", "W24", "NA", "2", "upper", 1),
		match("e", "W24", "NA", "10", "lower", 3),
		match("f", "W24", "EU", "1", "upper", 1),
		match("g", "S25", "NA", "1", "upper", 1),
	} {
		put(t, c, "matches", it)
	}
	q := func(cond string, vals item) *dynamodb.QueryInput {
		v := item{":t": S("W24"), ":r": S("NA")}
		for k, x := range vals {
			v[k] = x
		}
		names := map[string]string{}
		for ph, n := range map[string]string{"#r": "region", "#n": "round"} {
			if strings.Contains(cond, ph) {
				names[ph] = n
			}
		}
		if len(names) == 0 {
			names = nil
		}
		for k := range v {
			if !strings.Contains(cond, k) {
				delete(v, k)
			}
		}
		return &dynamodb.QueryInput{TableName: aws.String("matches"), IndexName: aws.String("byRound"),
			KeyConditionExpression: aws.String(cond), ExpressionAttributeNames: names, ExpressionAttributeValues: v}
	}
	const part = "tournament = :t AND #r = :r"
	for _, tc := range []struct {
		cond string
		vals item
		want []string
	}{
		{part, nil, []string{"a", "b", "c", "d", "e"}},
		{"#r = :r AND tournament = :t", nil, []string{"a", "b", "c", "d", "e"}},
		{part + " AND #n = :n", item{":n": N("1")}, []string{"a", "b", "c"}},
		{part + " AND #n < :n", item{":n": N("10")}, []string{"a", "b", "c", "d"}},
		{part + " AND #n <= :n", item{":n": N("2")}, []string{"a", "b", "c", "d"}},
		{part + " AND #n > :n", item{":n": N("1")}, []string{"d", "e"}},
		{part + " AND #n >= :n", item{":n": N("2")}, []string{"d", "e"}},
		{part + " AND #n BETWEEN :lo AND :hi", item{":lo": N("2"), ":hi": N("10")}, []string{"d", "e"}},
		{part + " AND #n = :n AND bracket = :b", item{":n": N("1"), ":b": S("upper")}, []string{"b", "c"}},
		{part + " AND #n = :n AND begins_with(bracket, :b)", item{":n": N("1"), ":b": S("up")}, []string{"b", "c"}},
		{part + " AND #n = :n AND bracket > :b", item{":n": N("1"), ":b": S("lower")}, []string{"b", "c"}},
		{part + " AND #n = :n AND bracket = :b AND seed = :s", item{":n": N("1"), ":b": S("upper"), ":s": B(2)}, []string{"c"}},
		{part + " AND #n = :n AND bracket = :b AND seed < :s", item{":n": N("1"), ":b": S("upper"), ":s": B(2)}, []string{"b"}},
		{part + " AND #n = :n AND bracket = :b AND seed BETWEEN :s AND :s2", item{":n": N("1"), ":b": S("upper"), ":s": B(1), ":s2": B(9)}, []string{"b", "c"}},
	} {
		if got := queryIDs(t, c, q(tc.cond, tc.vals)); !slices.Equal(got, tc.want) {
			t.Errorf("%s = %v, want %v", tc.cond, got, tc.want)
		}
	}
	for _, tc := range []struct {
		cond string
		vals item
		msg  string
	}{
		{"tournament = :t", nil, "Query condition missed key schema element: region"},
		{"#r = :r", nil, "Query condition missed key schema element: tournament"},
		{"tournament = :t AND #r > :r", nil, "Query key condition not supported"},
		{part + " AND bracket = :b", item{":b": S("upper")}, "Query condition missed key schema element: round"},
		{part + " AND #n = :n AND seed = :s", item{":n": N("1"), ":s": B(1)}, "Query condition missed key schema element: bracket"},
		{part + " AND #n > :n AND bracket = :b", item{":n": N("1"), ":b": S("upper")}, "Query key condition not supported"},
		{part + " AND #n = :n AND #n > :n", item{":n": N("1")}, "Invalid KeyConditionExpression: KeyConditionExpressions must only contain one condition per key"},
		{part + " AND score = :o", item{":o": N("1")}, "Query condition missed key schema element: round"},
		{part + " OR #n = :n", item{":n": N("1")}, "Invalid operator used in KeyConditionExpression: OR"},
		{part + " AND #n = :n", item{":n": S("1")}, "One or more parameter values were invalid: Condition parameter type does not match schema type"},
		{"tournament = :t AND #r = :n", item{":n": N("1")}, "One or more parameter values were invalid: Condition parameter type does not match schema type"},
		{part + " AND #n = :n AND begins_with(bracket, :b) AND seed = :s", item{":n": N("1"), ":b": S("u"), ":s": B(1)}, "Query key condition not supported"},
		{part + " AND #n BETWEEN :hi AND :lo", item{":lo": N("1"), ":hi": N("2")}, ""},
	} {
		_, err := c.Query(ctx, q(tc.cond, tc.vals))
		wantErr(t, err, "ValidationException", tc.msg)
	}
}

// Pages of a multi-attribute index query carry every index key attribute
// and the table key in LastEvaluatedKey and resume where they stopped, in
// both directions; Scan of the index walks its entries; Select COUNT and a
// filter work as on any index.
func TestMultiKeyGSIPagination(t *testing.T) {
	_, c := newServer(t)
	matchTable(t, c)
	var want []string
	for i := range 7 {
		id := string(rune('a' + i))
		it := match(id, "W24", "NA", "1", "upper", byte(10-i)) // seed falls as id rises
		it["score"] = N(strconv.Itoa(i))
		put(t, c, "matches", it)
		want = append([]string{id}, want...)
	}
	put(t, c, "matches", match("z", "W24", "EU", "1", "upper", 1))
	for _, forward := range []bool{true, false} {
		in := &dynamodb.QueryInput{TableName: aws.String("matches"), IndexName: aws.String("byRound"), Limit: aws.Int32(3),
			KeyConditionExpression:    aws.String("tournament = :t AND #r = :r AND #n = :n"),
			ExpressionAttributeNames:  map[string]string{"#r": "region", "#n": "round"},
			ExpressionAttributeValues: item{":t": S("W24"), ":r": S("NA"), ":n": N("1")},
			ScanIndexForward:          aws.Bool(forward), ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes}
		var got []string
		pages := 0
		for {
			out, err := c.Query(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			pages++
			got = append(got, matchIDs(out.Items)...)
			if out.ConsumedCapacity == nil || out.ConsumedCapacity.GlobalSecondaryIndexes["byRound"].CapacityUnits == nil {
				t.Fatalf("no index capacity: %+v", out.ConsumedCapacity)
			}
			if out.LastEvaluatedKey == nil {
				break
			}
			var keys []string
			for k := range out.LastEvaluatedKey {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			if !slices.Equal(keys, []string{"bracket", "id", "region", "round", "seed", "tournament"}) {
				t.Fatalf("LastEvaluatedKey attributes = %v", keys)
			}
			in.ExclusiveStartKey = out.LastEvaluatedKey
		}
		w := want
		if !forward {
			w = slices.Clone(want)
			slices.Reverse(w)
		}
		if !slices.Equal(got, w) || pages != 3 {
			t.Fatalf("forward=%v: %d pages %v, want 3 pages %v", forward, pages, got, w)
		}
	}
	// A starting key missing an index key attribute is refused.
	_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("matches"), IndexName: aws.String("byRound"),
		KeyConditionExpression:    aws.String("tournament = :t AND #r = :r"),
		ExpressionAttributeNames:  map[string]string{"#r": "region"},
		ExpressionAttributeValues: item{":t": S("W24"), ":r": S("NA")},
		ExclusiveStartKey:         item{"id": S("a"), "tournament": S("W24"), "region": S("NA"), "round": N("1"), "bracket": S("upper")}})
	wantErr(t, err, "ValidationException", "The provided starting key is invalid: The provided key element does not match the schema")

	cnt, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("matches"), IndexName: aws.String("byRound"), Select: types.SelectCount,
		KeyConditionExpression:    aws.String("tournament = :t AND #r = :r"),
		FilterExpression:          aws.String("score >= :s"),
		ExpressionAttributeNames:  map[string]string{"#r": "region"},
		ExpressionAttributeValues: item{":t": S("W24"), ":r": S("NA"), ":s": N("4")}})
	if err != nil {
		t.Fatal(err)
	}
	if cnt.Count != 3 || cnt.ScannedCount != 7 {
		t.Fatalf("COUNT with filter = %d of %d, %v; want 3 of 7", cnt.Count, cnt.ScannedCount, err)
	}
	// The index key attributes are no filter attributes.
	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("matches"), IndexName: aws.String("byRound"),
		KeyConditionExpression:    aws.String("tournament = :t AND #r = :r"),
		FilterExpression:          aws.String("seed > :s"),
		ExpressionAttributeNames:  map[string]string{"#r": "region"},
		ExpressionAttributeValues: item{":t": S("W24"), ":r": S("NA"), ":s": B(7)}})
	wantErr(t, err, "ValidationException", "Filter Expression can only contain non-primary key attributes: Primary key attribute: seed")

	var scanned []string
	in := &dynamodb.ScanInput{TableName: aws.String("matches"), IndexName: aws.String("byRound"), Limit: aws.Int32(2)}
	for {
		out, err := c.Scan(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		scanned = append(scanned, matchIDs(out.Items)...)
		if out.LastEvaluatedKey == nil {
			break
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	slices.Sort(scanned)
	if !slices.Equal(scanned, []string{"a", "b", "c", "d", "e", "f", "g", "z"}) {
		t.Fatalf("Scan of the index = %v", scanned)
	}
}

// Index key values are held to the key size limits on every write: 2048
// bytes for each partition attribute, 1024 for each sort attribute, on
// single- and multi-attribute indexes alike.
func TestIndexKeySizeLimits(t *testing.T) {
	_, c := newServer(t)
	matchTable(t, c)
	_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{
		TableName: aws.String("matches"), AttributeDefinitions: defs("tag:S", "note:B"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName: aws.String("byTag"), KeySchema: ks("tag:HASH", "note:RANGE"), Projection: allProjection}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	long := func(n int) string { return strings.Repeat("x", n) }
	ok := match("ok", long(2048), long(2048), "1", long(1024), 1)
	ok["tag"], ok["note"] = S(long(2048)), B(bytes.Repeat([]byte{7}, 1024)...)
	put(t, c, "matches", ok)
	for _, tc := range []struct {
		attr string
		v    types.AttributeValue
		msg  string
	}{
		{"region", S(long(2049)), "Size limit exceeded for Index Key region Actual Size: 2049 bytes Max Size: 2048 bytes IndexName: byRound"},
		{"bracket", S(long(1025)), "Size limit exceeded for Index Key bracket Actual Size: 1025 bytes Max Size: 1024 bytes IndexName: byRound"},
		{"tag", S(long(2049)), "Size limit exceeded for Index Key tag Actual Size: 2049 bytes Max Size: 2048 bytes IndexName: byTag"},
		{"note", B(bytes.Repeat([]byte{7}, 1025)...), "Size limit exceeded for Index Key note Actual Size: 1025 bytes Max Size: 1024 bytes IndexName: byTag"},
	} {
		it := match("big", "W24", "NA", "1", "upper", 1)
		it[tc.attr] = tc.v
		_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("matches"), Item: it})
		wantErr(t, err, "ValidationException", "One or more parameter values were invalid: "+tc.msg)
		_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("matches"), Key: item{"id": S("ok")},
			UpdateExpression: aws.String("SET #a = :v"), ExpressionAttributeNames: map[string]string{"#a": tc.attr},
			ExpressionAttributeValues: item{":v": tc.v}})
		wantErr(t, err, "ValidationException", "One or more parameter values were invalid: "+tc.msg)
		_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{TableName: aws.String("matches"), Item: it}}}})
		wantErrContains(t, err, "ValidationException", tc.msg)
		_, err = c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
			"matches": {{PutRequest: &types.PutRequest{Item: it}}}}})
		wantErrContains(t, err, "ValidationException", tc.msg)
	}
	if _, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("matches"), Key: item{"id": S("big")}}); err != nil {
		t.Fatal(err)
	}
}

// A GSI added to a table that holds items backfills exactly the items a
// write could have put in it: every key attribute present, of its type,
// not empty and within the size limits.
func TestGSIBackfillTakesOnlyQualifyingItems(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "events")
	for _, it := range []item{
		{"pk": S("in1"), "kind": S("click"), "day": N("2"), "at": B(1)},
		{"pk": S("in2"), "kind": S("click"), "day": N("1"), "at": B(2)},
		{"pk": S("in3"), "kind": S("view"), "day": N("1"), "at": B(1)},
		{"pk": S("emptyS"), "kind": S(""), "day": N("1"), "at": B(1)},
		{"pk": S("emptyB"), "kind": S("click"), "day": N("1"), "at": &types.AttributeValueMemberB{Value: []byte{}}},
		{"pk": S("wrongType"), "kind": S("click"), "day": S("1"), "at": B(1)},
		{"pk": S("missing"), "kind": S("click"), "day": N("1")},
		{"pk": S("tooLong"), "kind": S(strings.Repeat("k", 2049)), "day": N("1"), "at": B(1)},
	} {
		put(t, c, "events", it)
	}
	_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{
		TableName: aws.String("events"), AttributeDefinitions: defs("kind:S", "day:N", "at:B"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName: aws.String("byKind"), KeySchema: ks("kind:HASH", "day:RANGE", "at:RANGE"), Projection: allProjection}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("events"), IndexName: aws.String("byKind")})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range out.Items {
		got = append(got, sval(it["pk"]))
	}
	slices.Sort(got)
	if !slices.Equal(got, []string{"in1", "in2", "in3"}) {
		t.Fatalf("backfilled %v, want [in1 in2 in3]", got)
	}
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("events")})
	if err != nil {
		t.Fatal(err)
	}
	if n := aws.ToInt64(d.Table.GlobalSecondaryIndexes[0].ItemCount); n != 3 {
		t.Fatalf("index ItemCount = %d, want 3", n)
	}
	q := queryIDsPK(t, c, &dynamodb.QueryInput{TableName: aws.String("events"), IndexName: aws.String("byKind"),
		KeyConditionExpression: aws.String("kind = :k"), ExpressionAttributeValues: item{":k": S("click")}})
	if !slices.Equal(q, []string{"in2", "in1"}) {
		t.Fatalf("click query = %v, want [in2 in1]", q)
	}
}

func queryIDsPK(t *testing.T, c *dynamodb.Client, in *dynamodb.QueryInput) []string {
	t.Helper()
	out, err := c.Query(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range out.Items {
		got = append(got, sval(it["pk"]))
	}
	return got
}

// An UpdateTable that sets a GSI's provisioned throughput to its current
// value changes nothing and is refused, as for the table's.
func TestUpdateGSIThroughputUnchanged(t *testing.T) {
	_, c := newServer(t)
	pt := &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(5)}
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String("prov"), AttributeDefinitions: defs("pk:S", "a:S", "b:N"), KeySchema: ks("pk:HASH"),
		ProvisionedThroughput: pt,
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("gsi"), KeySchema: ks("a:HASH", "b:HASH"),
			Projection: allProjection, ProvisionedThroughput: pt}},
	})
	if err != nil {
		t.Fatal(err)
	}
	update := func(r int64) error {
		_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("prov"),
			GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Update: &types.UpdateGlobalSecondaryIndexAction{
				IndexName: aws.String("gsi"), ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(r), WriteCapacityUnits: aws.Int64(5)}}}}})
		return err
	}
	wantErr(t, update(5), "ValidationException", "The provisioned throughput for the index gsi will not change. The requested value equals the current value. Current ReadCapacityUnits provisioned for the index gsi: 5. Requested ReadCapacityUnits: 5. Current WriteCapacityUnits provisioned for the index gsi: 5. Requested WriteCapacityUnits: 5. Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.")
	if err := update(7); err != nil {
		t.Fatal(err)
	}
	wantErrContains(t, update(7), "ValidationException", "will not change")
}

// A restart on the disk engine keeps a multi-attribute index's key schema
// and entries.
func TestMultiKeyGSISurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	open := func() *disk.Engine {
		e, err := disk.Open(dir, disk.WithLogger(slog.New(slog.DiscardHandler)))
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	eng := open()
	first := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithEngine(eng)))
	c := first.Client()
	matchTable(t, c)
	put(t, c, "matches", match("a", "W24", "NA", "2", "upper", 1))
	put(t, c, "matches", match("b", "W24", "NA", "10", "lower", 1))
	first.Close()
	if err := eng.Close(); err != nil {
		t.Fatal(err)
	}
	eng = open()
	t.Cleanup(func() { eng.Close() })
	c = dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithEngine(eng))).Client()
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("matches")})
	if err != nil {
		t.Fatal(err)
	}
	var schema []string
	for _, k := range d.Table.GlobalSecondaryIndexes[0].KeySchema {
		schema = append(schema, aws.ToString(k.AttributeName)+":"+string(k.KeyType))
	}
	if s := strings.Join(schema, " "); s != "tournament:HASH region:HASH round:RANGE bracket:RANGE seed:RANGE" {
		t.Fatalf("KeySchema after restart = %s", s)
	}
	got := queryIDs(t, c, &dynamodb.QueryInput{TableName: aws.String("matches"), IndexName: aws.String("byRound"),
		KeyConditionExpression:    aws.String("tournament = :t AND #r = :r AND #n > :n"),
		ExpressionAttributeNames:  map[string]string{"#r": "region", "#n": "round"},
		ExpressionAttributeValues: item{":t": S("W24"), ":r": S("NA"), ":n": N("1")}})
	if !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("query after restart = %v, want [a b]", got)
	}
	put(t, c, "matches", match("c", "W24", "NA", "3", "upper", 1))
	if got := queryIDs(t, c, &dynamodb.QueryInput{TableName: aws.String("matches"), IndexName: aws.String("byRound"),
		KeyConditionExpression:    aws.String("tournament = :t AND #r = :r"),
		ExpressionAttributeNames:  map[string]string{"#r": "region"},
		ExpressionAttributeValues: item{":t": S("W24"), ":r": S("NA")}}); !slices.Equal(got, []string{"a", "c", "b"}) {
		t.Fatalf("query after a write = %v, want [a c b]", got)
	}
}

// A PartiQL SELECT of a multi-attribute index returns the items its WHERE
// selects.
func TestMultiKeyGSIPartiQL(t *testing.T) {
	_, c := newServer(t)
	matchTable(t, c)
	put(t, c, "matches", match("a", "W24", "NA", "2", "upper", 1))
	put(t, c, "matches", match("b", "W24", "EU", "1", "upper", 1))
	out, err := c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{
		Statement:  aws.String(`SELECT id FROM "matches"."byRound" WHERE tournament = ? AND region = ?`),
		Parameters: []types.AttributeValue{S("W24"), S("NA")}})
	if err != nil {
		t.Fatal(err)
	}
	if got := matchIDs(out.Items); !slices.Equal(got, []string{"a"}) {
		t.Fatalf("SELECT = %v, want [a]", got)
	}
}

// An index with a multi-attribute partition key and no sort key: a Query
// names every partition attribute and nothing else.
func TestMultiKeyGSIPartitionOnly(t *testing.T) {
	_, c := newServer(t)
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String("orders"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: defs("pk:S", "shop:S", "day:N", "code:B"), KeySchema: ks("pk:HASH"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byShopDay"),
			KeySchema: ks("shop:HASH", "day:HASH", "code:HASH"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	put(t, c, "orders", item{"pk": S("o1"), "shop": S("s"), "day": N("1"), "code": B(1), "total": N("5")})
	put(t, c, "orders", item{"pk": S("o2"), "shop": S("s"), "day": N("1.0"), "code": B(1)}) // the same number
	put(t, c, "orders", item{"pk": S("o3"), "shop": S("s"), "day": N("2"), "code": B(1)})
	in := func(cond string) *dynamodb.QueryInput {
		return &dynamodb.QueryInput{TableName: aws.String("orders"), IndexName: aws.String("byShopDay"),
			KeyConditionExpression: aws.String(cond), ExpressionAttributeValues: item{":s": S("s"), ":d": N("1"), ":c": B(1)}}
	}
	q0 := in("shop = :s AND #d = :d AND code = :c")
	q0.ExpressionAttributeNames = map[string]string{"#d": "day"}
	got := queryIDsPK(t, c, q0)
	slices.Sort(got)
	if !slices.Equal(got, []string{"o1", "o2"}) {
		t.Fatalf("partition (s, 1, 0x01) = %v, want [o1 o2]", got)
	}
	q := in("shop = :s AND #d = :d AND code = :c")
	q.ExpressionAttributeNames = map[string]string{"#d": "day"}
	out, err := c.Query(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range out.Items {
		if len(it) != 4 || it["total"] != nil {
			t.Fatalf("KEYS_ONLY entry = %v, want the 3 index keys and the table key", it)
		}
	}
	q = in("shop = :s AND #d = :d")
	q.ExpressionAttributeNames = map[string]string{"#d": "day"}
	q.ExpressionAttributeValues = item{":s": S("s"), ":d": N("1")}
	_, err = c.Query(ctx, q)
	wantErr(t, err, "ValidationException", "Query condition missed key schema element: code")
	q = in("shop = :s AND #d = :d AND code > :c")
	q.ExpressionAttributeNames = map[string]string{"#d": "day"}
	_, err = c.Query(ctx, q)
	wantErr(t, err, "ValidationException", "Query key condition not supported")
}
