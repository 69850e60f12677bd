package local_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/dynamotest"
)

// numbersTable: pk S, sk N, GSI byG (g S, sk N, ALL), LSI byL (pk, l S, KEYS_ONLY).
func numbersTable(t *testing.T, srv *dynamotest.Server) {
	srv.CreateTable(t, &dynamodb.CreateTableInput{
		TableName:            aws.String("nums"),
		AttributeDefinitions: attrs("pk", "S", "sk", "N", "g", "S", "l", "S"),
		KeySchema:            keys("pk", "sk"),
		BillingMode:          types.BillingModePayPerRequest,
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byG"), KeySchema: keys("g", "sk"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("byL"), KeySchema: keys("pk", "l"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}},
	})
}

func skList(items []map[string]types.AttributeValue, attr string) string {
	var out []string
	for _, it := range items {
		out = append(out, sval(it[attr]))
	}
	return strings.Join(out, ",")
}

func TestQuerySortKeyConditions(t *testing.T) {
	srv, c := newServer(t)
	numbersTable(t, srv)
	for _, n := range []string{"-10", "-1.5", "0", "1", "2", "10", "100"} {
		put(t, c, "nums", item{"pk": S("p"), "sk": N(n), "g": S("G"), "l": S("L" + n), "x": S("v" + n)})
	}
	put(t, c, "nums", item{"pk": S("other"), "sk": N("1")})
	q := func(cond string, vals item, fwd bool) string {
		t.Helper()
		vals[":p"] = S("p")
		out, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("nums"), KeyConditionExpression: aws.String(cond),
			ExpressionAttributeValues: vals, ScanIndexForward: aws.Bool(fwd)})
		if err != nil {
			t.Fatalf("%s: %v", cond, err)
		}
		return skList(out.Items, "sk")
	}
	cases := []struct {
		cond string
		vals item
		want string
	}{
		{"pk = :p", item{}, "-10,-1.5,0,1,2,10,100"},
		{"pk = :p AND sk = :v", item{":v": N("1.0")}, "1"},
		{"pk = :p AND sk < :v", item{":v": N("1")}, "-10,-1.5,0"},
		{"pk = :p AND sk <= :v", item{":v": N("1")}, "-10,-1.5,0,1"},
		{"pk = :p AND sk > :v", item{":v": N("2")}, "10,100"},
		{"pk = :p AND sk >= :v", item{":v": N("2")}, "2,10,100"},
		{"pk = :p AND sk BETWEEN :a AND :b", item{":a": N("-1.5"), ":b": N("10")}, "-1.5,0,1,2,10"},
	}
	for _, tc := range cases {
		if got := q(tc.cond, tc.vals, true); got != tc.want {
			t.Errorf("%s = %s, want %s", tc.cond, got, tc.want)
		}
		parts := strings.Split(tc.want, ",")
		slices.Reverse(parts)
		if got, want := q(tc.cond, tc.vals, false), strings.Join(parts, ","); got != want {
			t.Errorf("%s backwards = %s, want %s", tc.cond, got, want)
		}
	}
	// begins_with on a string sort key, through the LSI.
	out, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("nums"), IndexName: aws.String("byL"),
		KeyConditionExpression: aws.String("pk = :p AND begins_with(l, :pre)"), ExpressionAttributeValues: item{":p": S("p"), ":pre": S("L1")}})
	if err != nil {
		t.Fatal(err)
	}
	if got := skList(out.Items, "l"); got != "L1,L10,L100" {
		t.Fatalf("begins_with on LSI = %s", got)
	}
	if len(out.Items[0]) != 3 { // KEYS_ONLY: pk, sk, l
		t.Fatalf("KEYS_ONLY LSI returned %v", out.Items[0])
	}
	// An LSI fetches non-projected attributes from the table.
	out, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("nums"), IndexName: aws.String("byL"), Select: types.SelectAllAttributes,
		KeyConditionExpression: aws.String("pk = :p AND l = :l"), ExpressionAttributeValues: item{":p": S("p"), ":l": S("L2")}})
	if err != nil || len(out.Items) != 1 || sval(out.Items[0]["x"]) != "v2" {
		t.Fatalf("LSI fetch: %v %v", out.Items, err)
	}
}

func TestQueryPaginationFilterCount(t *testing.T) {
	srv, c := newServer(t)
	numbersTable(t, srv)
	for i := 0; i < 25; i++ {
		put(t, c, "nums", item{"pk": S("p"), "sk": N(fmt.Sprint(i)), "g": S("G"), "odd": &types.AttributeValueMemberBOOL{Value: i%2 == 1}})
	}
	// Limit counts items read, before the filter; the SDK paginator follows LastEvaluatedKey.
	var got []string
	pages := 0
	p := dynamodb.NewQueryPaginator(c, &dynamodb.QueryInput{TableName: aws.String("nums"), Limit: aws.Int32(4),
		KeyConditionExpression: aws.String("pk = :p"), FilterExpression: aws.String("odd = :t"),
		ExpressionAttributeValues: item{":p": S("p"), ":t": &types.AttributeValueMemberBOOL{Value: true}}})
	for p.HasMorePages() {
		pg, err := p.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if pg.ScannedCount > 4 {
			t.Fatalf("page scanned %d items, limit 4", pg.ScannedCount)
		}
		pages++
		got = append(got, skList(pg.Items, "sk"))
	}
	if pages != 7 || strings.Join(got, ",") != "1,3,5,7,9,11,13,15,17,19,21,23," {
		t.Fatalf("%d pages: %v", pages, got)
	}
	// Through the GSI: the LastEvaluatedKey carries index and table keys.
	out, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("nums"), IndexName: aws.String("byG"), Limit: aws.Int32(2),
		KeyConditionExpression: aws.String("g = :g"), ExpressionAttributeValues: item{":g": S("G")}})
	if err != nil {
		t.Fatal(err)
	}
	if lek := out.LastEvaluatedKey; len(lek) != 3 || lek["g"] == nil || lek["pk"] == nil || sval(lek["sk"]) != "1" {
		t.Fatalf("GSI LastEvaluatedKey = %v", lek)
	}
	out, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("nums"), IndexName: aws.String("byG"), Limit: aws.Int32(2), ExclusiveStartKey: out.LastEvaluatedKey,
		KeyConditionExpression: aws.String("g = :g"), ExpressionAttributeValues: item{":g": S("G")}})
	if err != nil || skList(out.Items, "sk") != "2,3" {
		t.Fatalf("GSI page 2 = %v %v", skList(out.Items, "sk"), err)
	}
	// COUNT.
	out, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("nums"), Select: types.SelectCount,
		KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: item{":p": S("p")}})
	if err != nil || out.Count != 25 || out.Items != nil {
		t.Fatalf("COUNT: %d %v %v", out.Count, out.Items, err)
	}
}

func TestQueryValidation(t *testing.T) {
	srv, c := newServer(t)
	numbersTable(t, srv)
	cases := []struct {
		in  dynamodb.QueryInput
		msg string
	}{
		{dynamodb.QueryInput{TableName: aws.String("nums")}, "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request."},
		{dynamodb.QueryInput{TableName: aws.String("nums"), KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: item{":p": N("1")}},
			"One or more parameter values were invalid: Condition parameter type does not match schema type"},
		{dynamodb.QueryInput{TableName: aws.String("nums"), IndexName: aws.String("byG"), ConsistentRead: aws.Bool(true), KeyConditionExpression: aws.String("g = :g"), ExpressionAttributeValues: item{":g": S("x")}},
			"Consistent reads are not supported on global secondary indexes"},
		{dynamodb.QueryInput{TableName: aws.String("nums"), IndexName: aws.String("nope"), KeyConditionExpression: aws.String("g = :g"), ExpressionAttributeValues: item{":g": S("x")}},
			"The table does not have the specified index: nope"},
		{dynamodb.QueryInput{TableName: aws.String("nums"), Select: types.SelectCount, ProjectionExpression: aws.String("x"), KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: item{":p": S("x")}},
			"Cannot specify the ProjectionExpression when choosing to get only the Count"},
		{dynamodb.QueryInput{TableName: aws.String("nums"), Select: types.SelectAllProjectedAttributes, KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: item{":p": S("x")}},
			"ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName"},
		{dynamodb.QueryInput{TableName: aws.String("nums"), Limit: aws.Int32(0), KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: item{":p": S("x")}},
			"1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{dynamodb.QueryInput{TableName: aws.String("nums"), KeyConditionExpression: aws.String("pk = :p"), FilterExpression: aws.String("sk > :z"), ExpressionAttributeValues: item{":p": S("x"), ":z": N("0")}},
			"Filter Expression can only contain non-primary key attributes: Primary key attribute: sk"},
		{dynamodb.QueryInput{TableName: aws.String("nums"), KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: item{":p": S("x")}, ExclusiveStartKey: item{"pk": S("x")}},
			"The provided starting key is invalid: The provided key element does not match the schema"},
	}
	for _, tc := range cases {
		_, err := c.Query(ctx, &tc.in)
		wantErr(t, err, "ValidationException", tc.msg)
	}
	// A starting key outside the queried partition or sort range.
	_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("nums"), KeyConditionExpression: aws.String("pk = :p"),
		ExpressionAttributeValues: item{":p": S("x")}, ExclusiveStartKey: item{"pk": S("a-much-longer-partition-key"), "sk": N("1")}})
	wantErr(t, err, "ValidationException", "The provided starting key does not match the range key predicate")
	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("nums"), KeyConditionExpression: aws.String("pk = :p AND sk > :v"),
		ExpressionAttributeValues: item{":p": S("x"), ":v": N("5")}, ExclusiveStartKey: item{"pk": S("x"), "sk": N("1")}})
	wantErr(t, err, "ValidationException", "The provided starting key does not match the range key predicate")
	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("missing"), KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: item{":p": S("x")}})
	wantErr(t, err, "ResourceNotFoundException", "Requested resource not found")
}

func TestQueryPageLimit1MB(t *testing.T) {
	srv, c := newServer(t)
	hashRangeTable(t, srv, "big")
	blob := strings.Repeat("x", 300*1024)
	for i := 0; i < 5; i++ {
		put(t, c, "big", item{"pk": S("p"), "sk": S(fmt.Sprint(i)), "v": S(blob)})
	}
	out, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("big"), KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: item{":p": S("p")}})
	if err != nil {
		t.Fatal(err)
	}
	if out.Count != 4 || out.LastEvaluatedKey == nil {
		t.Fatalf("1 MB page: count %d, LEK %v", out.Count, out.LastEvaluatedKey)
	}
}

func TestScanSegments(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "scan")
	const n = 300
	for i := 0; i < n; i++ {
		put(t, c, "scan", item{"pk": S(fmt.Sprintf("k%03d", i))})
	}
	seen := map[string]int{}
	for seg := int32(0); seg < 4; seg++ {
		p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: aws.String("scan"), Segment: aws.Int32(seg), TotalSegments: aws.Int32(4), Limit: aws.Int32(17)})
		segCount := 0
		for p.HasMorePages() {
			pg, err := p.NextPage(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range pg.Items {
				seen[sval(it["pk"])]++
				segCount++
			}
		}
		if segCount == 0 || segCount == n {
			t.Errorf("segment %d holds %d of %d items: not partitioned", seg, segCount, n)
		}
	}
	if len(seen) != n {
		t.Fatalf("segments covered %d of %d items", len(seen), n)
	}
	for k, v := range seen {
		if v != 1 {
			t.Fatalf("%s seen %d times", k, v)
		}
	}
	_, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("scan"), Segment: aws.Int32(1)})
	wantErr(t, err, "ValidationException", "The TotalSegments parameter is required but was not present in the request when Segment parameter is present")
	_, err = c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("scan"), Segment: aws.Int32(4), TotalSegments: aws.Int32(4)})
	wantErr(t, err, "ValidationException", "The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: 4 is not less than TotalSegments: 4")
	// Filter and projection.
	out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("scan"), FilterExpression: aws.String("begins_with(pk, :p)"),
		ExpressionAttributeValues: item{":p": S("k00")}, ProjectionExpression: aws.String("pk")})
	if err != nil || out.Count != 10 || out.ScannedCount != n {
		t.Fatalf("filtered scan: %d/%d %v", out.Count, out.ScannedCount, err)
	}
}

// TestQueryConcurrentValues: a Query decodes its values into pooled memory
// that the next request reuses; concurrent queries, each with its own
// partition and filter values, each get their own items.
func TestQueryConcurrentValues(t *testing.T) {
	srv, c := newServer(t)
	numbersTable(t, srv)
	const parts = 4
	for p := range parts {
		for s := range 10 {
			put(t, c, "nums", item{"pk": S(fmt.Sprintf("p%d", p)), "sk": N(fmt.Sprint(s)), "n": N(fmt.Sprint(s)), "x": S(fmt.Sprintf("p%d-%d", p, s))})
		}
	}
	done := make(chan struct{})
	for p := range parts {
		go func() {
			defer func() { done <- struct{}{} }()
			pk, min := fmt.Sprintf("p%d", p), fmt.Sprint(p)
			want := []string{}
			for s := p; s < 10; s++ {
				want = append(want, fmt.Sprintf("p%d-%d", p, s))
			}
			for range 30 {
				out, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("nums"), KeyConditionExpression: aws.String("pk = :p"),
					FilterExpression: aws.String("n >= :min"), ExpressionAttributeValues: item{":p": S(pk), ":min": N(min)}})
				if err != nil {
					t.Error(err)
					return
				}
				if got := skList(out.Items, "x"); got != strings.Join(want, ",") {
					t.Errorf("%s, n >= %s: %s", pk, min, got)
					return
				}
			}
		}()
	}
	for range parts {
		<-done
	}
}

// TestRequestsShareNoNames: UpdateItem and Query decode their names into
// a recycled map, and their string members into recycled and interned
// strings; no request sees the names or strings of one before it.
func TestRequestsShareNoNames(t *testing.T) {
	srv, c := newServer(t)
	numbersTable(t, srv)
	put(t, c, "nums", item{"pk": S("p"), "sk": N("1"), "n": N("1")})
	key := item{"pk": S("p"), "sk": N("1")}
	update := func(expr string, names map[string]string, values item) (*dynamodb.UpdateItemOutput, error) {
		return c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("nums"), Key: key, UpdateExpression: aws.String(expr),
			ExpressionAttributeNames: names, ExpressionAttributeValues: values, ReturnValues: types.ReturnValueUpdatedNew})
	}
	for i := range 3 {
		out, err := update("ADD #a :one SET #b = :v", map[string]string{"#a": "n", "#b": "v"}, item{":one": N("1"), ":v": S("x")})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Attributes) != 2 {
			t.Fatalf("two names: %v", out.Attributes)
		}
		// One name: the first request's second name is not this one's.
		out, err = update("ADD #a :one", map[string]string{"#a": "n"}, item{":one": N("1")})
		if err != nil {
			t.Fatal(err)
		}
		if got := out.Attributes["n"]; len(out.Attributes) != 1 || got.(*types.AttributeValueMemberN).Value != fmt.Sprint(3+3*i) {
			t.Fatalf("one name: %v", out.Attributes)
		}
		_, err = update("ADD #b :one", map[string]string{"#a": "n"}, item{":one": N("1")})
		wantErr(t, err, "ValidationException", "Invalid UpdateExpression: An expression attribute name used in the document path is not defined; attribute name: #b")
		_, err = update("ADD n :one", nil, item{":one": N("1")})
		if err != nil {
			t.Fatal(err)
		}
		q, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("nums"), KeyConditionExpression: aws.String("#k = :p"),
			ExpressionAttributeNames: map[string]string{"#k": "pk"}, ExpressionAttributeValues: item{":p": S("p")}})
		if err != nil || q.Count != 1 {
			t.Fatalf("query with a name: %v, %v", q, err)
		}
		_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("nums"), KeyConditionExpression: aws.String("#k = :p"),
			ExpressionAttributeValues: item{":p": S("p")}})
		wantErr(t, err, "ValidationException", "Invalid KeyConditionExpression: An expression attribute name used in the document path is not defined; attribute name: #k")
	}
}

// TestReadsShareNoState runs Queries and Scans of every kind one after the
// other, as a client paging and filtering would: each request's recycled
// state (its source, walk, filter map, key condition and bounds) must start
// clean, whatever the request before it left there, an error included.
func TestReadsShareNoState(t *testing.T) {
	srv, c := newServer(t)
	numbersTable(t, srv)
	for i := range 5 {
		put(t, c, "nums", item{"pk": S("p"), "sk": N(fmt.Sprint(i)), "x": S(fmt.Sprint("v", i%2))})
		put(t, c, "nums", item{"pk": S("q"), "sk": N(fmt.Sprint(10 + i))})
	}
	query := func(in *dynamodb.QueryInput) *dynamodb.QueryOutput {
		t.Helper()
		in.TableName = aws.String("nums")
		out, err := c.Query(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for range 3 {
		out := query(&dynamodb.QueryInput{KeyConditionExpression: aws.String("pk = :p"), FilterExpression: aws.String("x = :x"),
			ExpressionAttributeValues: item{":p": S("p"), ":x": S("v1")}})
		if got := skList(out.Items, "sk"); got != "1,3" || out.ScannedCount != 5 {
			t.Fatalf("filtered: %s of %d", got, out.ScannedCount)
		}
		out = query(&dynamodb.QueryInput{KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: item{":p": S("q")}})
		if got := skList(out.Items, "sk"); got != "10,11,12,13,14" || out.LastEvaluatedKey != nil {
			t.Fatalf("whole partition: %s, %v", got, out.LastEvaluatedKey)
		}
		first := query(&dynamodb.QueryInput{KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: item{":p": S("p")},
			Limit: aws.Int32(2), ScanIndexForward: aws.Bool(false)})
		rest := query(&dynamodb.QueryInput{KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: item{":p": S("p")},
			ExclusiveStartKey: first.LastEvaluatedKey, ScanIndexForward: aws.Bool(false)})
		if got := skList(first.Items, "sk") + "|" + skList(rest.Items, "sk"); got != "4,3|2,1,0" {
			t.Fatalf("pages: %s", got)
		}
		_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("nums"), KeyConditionExpression: aws.String("pk = :p"),
			ExpressionAttributeValues: item{":p": N("1")}})
		wantErr(t, err, "ValidationException", "One or more parameter values were invalid: Condition parameter type does not match schema type")
		scan, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("nums"), FilterExpression: aws.String("sk >= :n"),
			ExpressionAttributeValues: item{":n": N("13")}})
		if err != nil {
			t.Fatal(err)
		}
		if scan.Count != 2 || scan.ScannedCount != 10 {
			t.Fatalf("scan: %d of %d", scan.Count, scan.ScannedCount)
		}
	}
}
