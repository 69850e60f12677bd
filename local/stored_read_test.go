package local_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/codec/ddbjson"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/internal/avtest"
)

// bodyRecorder keeps the body of the last response the client read.
type bodyRecorder struct {
	mu   sync.Mutex
	last []byte
}

func (r *bodyRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.last = b
	r.mu.Unlock()
	res.Body = io.NopCloser(bytes.NewReader(b))
	return res, nil
}

// member returns the raw JSON of the named member of the last body.
func (r *bodyRecorder) member(t *testing.T, name string) json.RawMessage {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(r.last, &m); err != nil {
		t.Fatalf("response %s: %v", r.last, err)
	}
	return m[name]
}

func (r *bodyRecorder) items(t *testing.T, name string) []string {
	t.Helper()
	var raw []json.RawMessage
	if err := json.Unmarshal(r.member(t, name), &raw); err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(raw))
	for i, b := range raw {
		out[i] = string(b)
	}
	return out
}

func marshalItems(t *testing.T, its ...item) []string {
	t.Helper()
	out := make([]string, len(its))
	for i, it := range its {
		b, err := ddbjson.MarshalItem(it)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = string(b)
	}
	return out
}

// Reads answer with stored items written straight from their encoding, or
// decoded for a filter, a projection or an index fetch: either way the
// bytes are those of the item encoded as DynamoDB JSON, for every type and
// for strings that need escaping.
func TestReadsAnswerStoredItemsExactly(t *testing.T) {
	srv := dynamotest.NewServer(t)
	rec := &bodyRecorder{}
	c := srv.Client(func(o *dynamodb.Options) {
		o.Retryer = aws.NopRetryer{}
		o.HTTPClient = &http.Client{Transport: rec}
	})
	srv.CreateTable(t, &dynamodb.CreateTableInput{
		TableName: aws.String("tbl"),
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: "S"}, {AttributeName: aws.String("sk"), AttributeType: "S"},
			{AttributeName: aws.String("n"), AttributeType: "N"}, {AttributeName: aws.String("g"), AttributeType: "S"}},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: "HASH"}, {AttributeName: aws.String("sk"), KeyType: "RANGE"}},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("byN"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: "HASH"}, {AttributeName: aws.String("n"), KeyType: "RANGE"}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byG"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: "HASH"}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"s"}}}},
		BillingMode: types.BillingModePayPerRequest,
	})
	var its []item
	for i, sk := range []string{"a", "b\"\\\n\u2028<&>é\x7f", "c"} {
		it := item{
			"pk": S("p"), "sk": S(sk), "n": N([]string{"3", "-1.5", "12345678901234567890"}[i]), "g": S("g"),
			"s":  S("tab\there \x01 \"quoted\""),
			"b":  B(0, 1, 254, 255),
			"t":  avtest.BOOL(i%2 == 0),
			"z":  avtest.NULL(),
			"ss": avtest.SS("x", "y"), "ns": avtest.NS("1", "2.5"),
			"bs": &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2, 3}}},
			"l":  avtest.L(S("l0"), N("7"), avtest.L(), avtest.M("k", S("v"))),
			"m":  avtest.M("b", S("1"), "a", avtest.M("y", N("0"), "x", avtest.BOOL(false))),
		}
		put(t, c, "tbl", it)
		its = append(its, it)
	}
	check := func(what string, got, want []string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Fatalf("%s:\n got %q\nwant %q", what, got, want)
		}
	}
	key := func(it item) item { return item{"pk": it["pk"], "sk": it["sk"]} }

	_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: key(its[1])})
	must(t, err)
	check("GetItem", []string{string(rec.member(t, "Item"))}, marshalItems(t, its[1]))

	_, err = c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: key(its[1]), ProjectionExpression: aws.String("s, m.a")})
	must(t, err)
	check("GetItem projected", []string{string(rec.member(t, "Item"))},
		marshalItems(t, item{"s": its[1]["s"], "m": avtest.M("a", its[1]["m"].(*types.AttributeValueMemberM).Value["a"])}))

	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("tbl"), KeyConditionExpression: aws.String("pk = :p"),
		ExpressionAttributeValues: item{":p": S("p")}})
	must(t, err)
	check("Query", rec.items(t, "Items"), marshalItems(t, its...))

	_, err = c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), Limit: aws.Int32(2)})
	must(t, err)
	check("Scan with Limit", rec.items(t, "Items"), marshalItems(t, its[:2]...))
	check("LastEvaluatedKey", []string{string(rec.member(t, "LastEvaluatedKey"))}, marshalItems(t, key(its[1])))

	_, err = c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), FilterExpression: aws.String("t = :t"),
		ExpressionAttributeValues: item{":t": avtest.BOOL(true)}})
	must(t, err)
	check("Scan with filter", rec.items(t, "Items"), marshalItems(t, its[0], its[2]))

	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("tbl"), IndexName: aws.String("byN"), Select: types.SelectAllAttributes,
		KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: item{":p": S("p")}})
	must(t, err)
	check("LSI fetch", rec.items(t, "Items"), marshalItems(t, its[1], its[0], its[2])) // by n

	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("tbl"), IndexName: aws.String("byG"),
		KeyConditionExpression: aws.String("g = :g"), ExpressionAttributeValues: item{":g": S("g")}})
	must(t, err)
	var projected []item
	for _, it := range its {
		projected = append(projected, item{"pk": it["pk"], "sk": it["sk"], "g": it["g"], "s": it["s"]})
	}
	check("GSI INCLUDE", rec.items(t, "Items"), marshalItems(t, projected...))

	_, err = c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "tbl" WHERE pk = ? AND sk = ?`),
		Parameters: []types.AttributeValue{S("p"), its[2]["sk"]}})
	must(t, err)
	check("PartiQL by key", rec.items(t, "Items"), marshalItems(t, its[2]))

	_, err = c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
		"tbl": {Keys: []item{key(its[1])}}}})
	must(t, err)
	var batch map[string][]json.RawMessage
	must(t, json.Unmarshal(rec.member(t, "Responses"), &batch))
	// The same bytes as GetItem's: no HTML escaping of <, > and &.
	check("BatchGetItem", []string{string(batch["tbl"][0])}, marshalItems(t, its[1]))

	_, err = c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{{Get: &types.Get{TableName: aws.String("tbl"), Key: key(its[0])}}}})
	must(t, err)
	var resp []map[string]json.RawMessage
	must(t, json.Unmarshal(rec.member(t, "Responses"), &resp))
	check("TransactGetItems", []string{string(resp[0]["Item"])}, marshalItems(t, its[0]))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
