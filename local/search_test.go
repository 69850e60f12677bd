package local_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/local"
	"github.com/dynamogo/dynamo/local/storage"
)

func vecAV(v []float32) types.AttributeValue {
	l := make([]types.AttributeValue, len(v))
	for i, x := range v {
		l[i] = N(strconv.FormatFloat(float64(x), 'g', -1, 32))
	}
	return &types.AttributeValueMemberL{Value: l}
}

func searchVec(v []float32) []types.AttributeValue {
	return vecAV(v).(*types.AttributeValueMemberL).Value
}

func vectorIndex(name, attr string, dims int64, dist types.VectorDistanceFunction, proj types.ProjectionType, schema ...types.SearchSchemaElement) types.VectorIndex {
	return types.VectorIndex{IndexName: aws.String(name), VectorAttribute: &types.VectorAttributeDefinition{AttributeName: aws.String(attr)},
		Dimensions: aws.Int64(dims), DistanceFunction: dist, Projection: &types.Projection{ProjectionType: proj}, SearchSchema: schema}
}

func schemaEl(name string, typ types.SearchSchemaElementType) types.SearchSchemaElement {
	return types.SearchSchemaElement{AttributeName: aws.String(name), SearchSchemaElementType: typ}
}

// docsTable has three vector indexes on "emb" (4 dimensions): byCos
// (COSINE, HASH tenant, INLINE_FILTER kind, KEYS_ONLY), byL2 (EUCLIDEAN,
// ALL) and byDot (DOT_PRODUCT, ALL).
func docsTable(t *testing.T, srv *dynamotest.Server) {
	t.Helper()
	srv.CreateTable(t, &dynamodb.CreateTableInput{
		TableName: aws.String("docs"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"},
			{AttributeName: aws.String("tenant"), AttributeType: "S"}, {AttributeName: aws.String("kind"), AttributeType: "S"}},
		KeySchema:   []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: "HASH"}},
		BillingMode: types.BillingModePayPerRequest,
		VectorIndexes: []types.VectorIndex{
			vectorIndex("byCos", "emb", 4, types.VectorDistanceFunctionCosine, types.ProjectionTypeKeysOnly,
				schemaEl("tenant", types.SearchSchemaElementTypeHash), schemaEl("kind", types.SearchSchemaElementTypeInlineFilter)),
			vectorIndex("byL2", "emb", 4, types.VectorDistanceFunctionEuclidean, types.ProjectionTypeAll),
			vectorIndex("byDot", "emb", 4, types.VectorDistanceFunctionDotProduct, types.ProjectionTypeAll),
		},
	})
}

type doc struct {
	pk, tenant, kind string
	v                []float32
}

func score(dist types.VectorDistanceFunction, q, v []float32) float64 {
	var dot, qq, vv, l2 float64
	for i := range q {
		a, b := float64(q[i]), float64(v[i])
		dot += a * b
		qq += a * a
		vv += b * b
		l2 += (a - b) * (a - b)
	}
	switch dist {
	case types.VectorDistanceFunctionCosine:
		if qq == 0 || vv == 0 {
			return 1
		}
		return 1 - dot/math.Sqrt(qq*vv)
	case types.VectorDistanceFunctionEuclidean:
		return math.Sqrt(l2)
	}
	return dot
}

// expect is the brute-force answer: the TopK best docs passing keep.
func expect(docs []doc, dist types.VectorDistanceFunction, q []float32, k int, keep func(doc) bool) []string {
	var c []doc
	for _, d := range docs {
		if keep == nil || keep(d) {
			c = append(c, d)
		}
	}
	sort.SliceStable(c, func(i, j int) bool {
		si, sj := score(dist, q, c[i].v), score(dist, q, c[j].v)
		if dist == types.VectorDistanceFunctionDotProduct {
			return si > sj
		}
		return si < sj
	})
	var out []string
	for i := 0; i < len(c) && i < k; i++ {
		out = append(out, c[i].pk)
	}
	return out
}

func hitKeys(out *dynamodb.SearchVectorsOutput) []string {
	var keys []string
	for _, r := range out.SearchResults {
		keys = append(keys, sval(r.Item["pk"]))
	}
	return keys
}

func TestSearchVectorsExactNeighbours(t *testing.T) {
	srv, c := newServer(t)
	docsTable(t, srv)
	r := rand.New(rand.NewPCG(7, 7))
	var docs []doc
	for i := range 60 {
		d := doc{pk: "d" + strconv.Itoa(i), tenant: []string{"acme", "globex"}[i%2], kind: []string{"a", "b", "c"}[i%3]}
		for range 4 {
			d.v = append(d.v, float32(math.Round(r.NormFloat64()*1000)/1000))
		}
		docs = append(docs, d)
		put(t, c, "docs", item{"pk": S(d.pk), "tenant": S(d.tenant), "kind": S(d.kind), "title": S("t" + d.pk), "emb": vecAV(d.v)})
	}
	put(t, c, "docs", item{"pk": S("novec"), "tenant": S("acme")}) // not in any index
	q := []float32{0.5, -1, 0.25, 2}
	for _, tc := range []struct {
		index string
		dist  types.VectorDistanceFunction
	}{{"byL2", types.VectorDistanceFunctionEuclidean}, {"byDot", types.VectorDistanceFunctionDotProduct}} {
		out, err := c.SearchVectors(ctx, &dynamodb.SearchVectorsInput{TableName: aws.String("docs"), IndexName: aws.String(tc.index),
			SearchVector: searchVec(q), TopK: aws.Int32(7), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
		if err != nil {
			t.Fatalf("%s: %v", tc.index, err)
		}
		want := expect(docs, tc.dist, q, 7, nil)
		if got := hitKeys(out); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("%s: hits %v, want %v", tc.index, got, want)
		}
		for i, h := range out.SearchResults {
			d := docs[mustAtoi(sval(h.Item["pk"])[1:])]
			if math.Abs(h.Score-score(tc.dist, q, d.v)) > 1e-5 {
				t.Fatalf("%s hit %d: score %v, want %v", tc.index, i, h.Score, score(tc.dist, q, d.v))
			}
			if _, ok := h.Item["emb"]; ok || sval(h.Item["title"]) != "t"+d.pk {
				t.Fatalf("%s: default projection = %v (ALL without the vector)", tc.index, h.Item)
			}
		}
		if cc := out.ConsumedCapacity; cc == nil || aws.ToFloat64(cc.VectorSearchRequestBytes) < 1024 {
			t.Fatalf("%s: consumed capacity %+v", tc.index, cc)
		}
	}

	// COSINE scoped to a HASH value, with an inline filter, KEYS_ONLY.
	out, err := c.SearchVectors(ctx, &dynamodb.SearchVectorsInput{TableName: aws.String("docs"), IndexName: aws.String("byCos"),
		SearchVector: searchVec(q), TopK: aws.Int32(5),
		SearchConditionExpression: aws.String("tenant = :t AND kind = :k"),
		ExpressionAttributeValues: item{":t": S("acme"), ":k": S("b")}})
	if err != nil {
		t.Fatal(err)
	}
	want := expect(docs, types.VectorDistanceFunctionCosine, q, 5, func(d doc) bool { return d.tenant == "acme" && d.kind == "b" })
	if got := hitKeys(out); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("byCos: hits %v, want %v", got, want)
	}
	for _, h := range out.SearchResults {
		if _, ok := h.Item["title"]; ok {
			t.Fatalf("KEYS_ONLY returned %v", h.Item)
		}
		if sval(h.Item["tenant"]) != "acme" || sval(h.Item["kind"]) != "b" {
			t.Fatalf("search schema attributes are projected: %v", h.Item)
		}
	}

	// A ProjectionExpression may ask for the vector (the index's float32 copy).
	out, err = c.SearchVectors(ctx, &dynamodb.SearchVectorsInput{TableName: aws.String(testArn + "docs"), IndexName: aws.String("byL2"),
		SearchVector: searchVec(docs[3].v), TopK: aws.Int32(1), ProjectionExpression: aws.String("#e, pk"),
		ExpressionAttributeNames: map[string]string{"#e": "emb"}})
	if err != nil {
		t.Fatal(err)
	}
	h := out.SearchResults[0]
	if sval(h.Item["pk"]) != "d3" || len(h.Item) != 2 || h.Score != 0 {
		t.Fatalf("projected hit = %v score %v", h.Item, h.Score)
	}
	if l, ok := h.Item["emb"].(*types.AttributeValueMemberL); !ok || len(l.Value) != 4 {
		t.Fatalf("vector = %#v", h.Item["emb"])
	}
}

func mustAtoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic(err)
	}
	return n
}

func TestSearchVectorsValidation(t *testing.T) {
	srv, c := newServer(t)
	docsTable(t, srv)
	put(t, c, "docs", item{"pk": S("a"), "tenant": S("acme"), "emb": vecAV([]float32{1, 0, 0, 0})})
	v := searchVec([]float32{1, 0, 0, 0})
	cases := []struct {
		name string
		in   dynamodb.SearchVectorsInput
		code string
		msg  string
	}{
		{"TopK range", dynamodb.SearchVectorsInput{IndexName: aws.String("byL2"), SearchVector: v, TopK: aws.Int32(101)},
			"ValidationException", "Provided TopK value '101' is out of valid range. The value must be between 1 and 100 inclusive"},
		{"dimensions", dynamodb.SearchVectorsInput{IndexName: aws.String("byL2"), SearchVector: v[:2], TopK: aws.Int32(1)},
			"ValidationException", "Input search vector dimension 2 does not match vector index dimension 4"},
		{"HASH required", dynamodb.SearchVectorsInput{IndexName: aws.String("byCos"), SearchVector: v, TopK: aws.Int32(1)},
			"ValidationException", "SearchConditionExpression must be provided when SearchSchema has a HASH key"},
		{"comparator", dynamodb.SearchVectorsInput{IndexName: aws.String("byCos"), SearchVector: v, TopK: aws.Int32(1),
			SearchConditionExpression: aws.String("tenant = :t AND kind > :k"), ExpressionAttributeValues: item{":t": S("acme"), ":k": S("a")}},
			"ValidationException", "Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression"},
		{"no such index", dynamodb.SearchVectorsInput{IndexName: aws.String("nope"), SearchVector: v, TopK: aws.Int32(1)},
			"ValidationException", "The table does not have the specified index: nope"},
		{"not a number", dynamodb.SearchVectorsInput{IndexName: aws.String("byL2"), SearchVector: []types.AttributeValue{S("x"), N("1"), N("1"), N("1")}, TopK: aws.Int32(1)},
			"ValidationException", "Search vector contains invalid values. All values in the search vector must be a 32-bit floating-point number attribute"},
		{"unused value", dynamodb.SearchVectorsInput{IndexName: aws.String("byL2"), SearchVector: v, TopK: aws.Int32(1), ProjectionExpression: aws.String("pk"),
			ExpressionAttributeValues: item{":x": S("x")}}, "ValidationException", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in
			in.TableName = aws.String("docs")
			_, err := c.SearchVectors(ctx, &in)
			wantErr(t, err, tc.code, tc.msg)
		})
	}
	_, err := c.SearchVectors(ctx, &dynamodb.SearchVectorsInput{TableName: aws.String("nope"), IndexName: aws.String("byL2"), SearchVector: v, TopK: aws.Int32(1)})
	wantErr(t, err, "ResourceNotFoundException", "")
	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("docs"), IndexName: aws.String("byL2"), KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: item{":p": S("a")}})
	wantErr(t, err, "ValidationException", "Query operation not supported on this index type.")
	_, err = c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("docs"), IndexName: aws.String("byL2")})
	wantErr(t, err, "ValidationException", "Scan operation not supported on this index type")
}

// Writes are validated against every vector index and keep them in step:
// PutItem, UpdateItem, DeleteItem, BatchWriteItem and TransactWriteItems.
func TestVectorIndexWritePath(t *testing.T) {
	srv, c := newServer(t)
	docsTable(t, srv)
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("docs"), Item: item{"pk": S("x"), "emb": vecAV([]float32{1, 2})}})
	wantErr(t, err, "ValidationException", "One or more parameter values were invalid. Invalid size for parameter emb, Expected: 4, Actual: 2 IndexName: byCos")
	_, err = c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("docs"), Item: item{"pk": S("x"), "tenant": N("1"), "emb": vecAV([]float32{1, 2, 3, 4})}})
	wantErr(t, err, "ValidationException", "One or more parameter values were invalid. Attribute 'tenant' type mismatch. Expected: S, Actual: N. IndexName: byCos")
	_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("docs"), Key: item{"pk": S("x")}, UpdateExpression: aws.String("SET emb = :v"),
		ExpressionAttributeValues: item{":v": S("not a list")}})
	wantErrContains(t, err, "ValidationException", "Expected: 32-bit floating point number list")
	_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{txPut("docs", item{"pk": S("x"), "emb": vecAV([]float32{1})})}})
	wantErrContains(t, err, "ValidationException", "Invalid size for parameter emb")

	out, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("docs"), Item: item{"pk": S("a"), "emb": vecAV([]float32{1, 0, 0, 0})},
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
	if err != nil {
		t.Fatal(err)
	}
	if vi := out.ConsumedCapacity.VectorIndexes; len(vi) != 2 || aws.ToFloat64(vi["byL2"].VectorWriteRequestBytes) < 1024 {
		t.Fatalf("vector write capacity = %+v (byCos has no HASH value: not indexed)", vi)
	}
	if _, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"docs": {
		{PutRequest: &types.PutRequest{Item: item{"pk": S("b"), "emb": vecAV([]float32{0, 1, 0, 0})}}},
	}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		txPut("docs", item{"pk": S("c"), "emb": vecAV([]float32{0, 0, 1, 0})}),
		txUpdate("docs", item{"pk": S("a")}, "SET emb = :v", item{":v": vecAV([]float32{0, 0, 0, 1})}),
	}}); err != nil {
		t.Fatal(err)
	}
	nearest := func(v []float32) string {
		t.Helper()
		out, err := c.SearchVectors(ctx, &dynamodb.SearchVectorsInput{TableName: aws.String("docs"), IndexName: aws.String("byL2"), SearchVector: searchVec(v), TopK: aws.Int32(1)})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.SearchResults) == 0 {
			return ""
		}
		return sval(out.SearchResults[0].Item["pk"])
	}
	if nearest([]float32{0, 0, 0, 1}) != "a" || nearest([]float32{0, 1, 0, 0}) != "b" || nearest([]float32{0, 0, 1, 0}) != "c" {
		t.Fatal("index out of step with the writes")
	}
	if _, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("docs"), Key: item{"pk": S("a")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("docs"), Key: item{"pk": S("b")}, UpdateExpression: aws.String("REMOVE emb")}); err != nil {
		t.Fatal(err)
	}
	if n := nearest([]float32{0, 0, 0, 1}); n != "c" {
		t.Fatalf("after deleting a and removing b's vector the only entry is c, got %q", n)
	}
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("docs")})
	if err != nil {
		t.Fatal(err)
	}
	var l2 *types.VectorIndexDescription
	for i, vi := range d.Table.VectorIndexes {
		if aws.ToString(vi.IndexName) == "byL2" {
			l2 = &d.Table.VectorIndexes[i]
		}
	}
	if len(d.Table.VectorIndexes) != 3 || l2 == nil || aws.ToInt64(l2.ItemCount) != 1 || l2.IndexStatus != types.IndexStatusActive ||
		aws.ToInt64(l2.Dimensions) != 4 || l2.DistanceFunction != types.VectorDistanceFunctionEuclidean ||
		!strings.HasSuffix(aws.ToString(l2.IndexArn), ":table/docs/index/byL2") || aws.ToString(l2.VectorAttribute.AttributeName) != "emb" {
		t.Fatalf("DescribeTable VectorIndexes = %+v", d.Table.VectorIndexes)
	}
}

func TestVectorIndexUpdateTable(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "notes")
	put(t, c, "notes", item{"pk": S("a"), "emb": vecAV([]float32{1, 0})})
	put(t, c, "notes", item{"pk": S("b"), "emb": vecAV([]float32{0, 1})})
	put(t, c, "notes", item{"pk": S("bad"), "emb": vecAV([]float32{0, 1, 5})}) // skipped by the backfill
	create := func(name string) error {
		_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("notes"), VectorIndexUpdates: []types.VectorIndexUpdate{{Create: &types.CreateVectorIndexAction{
			IndexName: aws.String(name), VectorAttribute: &types.VectorAttributeDefinition{AttributeName: aws.String("emb")},
			Dimensions: aws.Int64(2), DistanceFunction: types.VectorDistanceFunctionDotProduct, Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}}}})
		return err
	}
	if err := create("sem"); err != nil {
		t.Fatal(err)
	}
	wantErr(t, create("sem"), "ValidationException", "Attempting to create an index which already exists")
	out, err := c.SearchVectors(ctx, &dynamodb.SearchVectorsInput{TableName: aws.String("notes"), IndexName: aws.String("sem"), SearchVector: searchVec([]float32{0, 1}), TopK: aws.Int32(10)})
	if err != nil {
		t.Fatal(err)
	}
	if got := hitKeys(out); strings.Join(got, ",") != "b,a" || out.SearchResults[0].Score != 1 {
		t.Fatalf("backfilled hits = %v", got)
	}
	_, err = c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("notes"), VectorIndexUpdates: []types.VectorIndexUpdate{{Delete: &types.DeleteVectorIndexAction{IndexName: aws.String("nope")}}}})
	wantErr(t, err, "ResourceNotFoundException", "Requested resource not found: Index nope for table notes")
	if _, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("notes"), VectorIndexUpdates: []types.VectorIndexUpdate{{Delete: &types.DeleteVectorIndexAction{IndexName: aws.String("sem")}}}}); err != nil {
		t.Fatal(err)
	}
	_, err = c.SearchVectors(ctx, &dynamodb.SearchVectorsInput{TableName: aws.String("notes"), IndexName: aws.String("sem"), SearchVector: searchVec([]float32{0, 1}), TopK: aws.Int32(1)})
	wantErr(t, err, "ValidationException", "The table does not have the specified index: sem")
	// An item the old index would have refused is accepted once it is gone.
	put(t, c, "notes", item{"pk": S("c"), "emb": vecAV([]float32{1, 2, 3})})
}

func TestVectorIndexCreateTableValidation(t *testing.T) {
	_, c := newServer(t)
	base := func() *dynamodb.CreateTableInput {
		return &dynamodb.CreateTableInput{TableName: aws.String("vtab"),
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: "HASH"}},
			BillingMode:          types.BillingModePayPerRequest}
	}
	in := base()
	in.VectorIndexes = []types.VectorIndex{vectorIndex("vix", "emb", 5000, types.VectorDistanceFunctionCosine, types.ProjectionTypeAll)}
	_, err := c.CreateTable(ctx, in)
	wantErr(t, err, "ValidationException", "One or more parameter values were invalid: Number of dimensions must be between 1 and 4096 inclusive.")
	in = base()
	in.BillingMode, in.ProvisionedThroughput = "", &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)}
	in.VectorIndexes = []types.VectorIndex{vectorIndex("vix", "emb", 3, types.VectorDistanceFunctionCosine, types.ProjectionTypeAll)}
	_, err = c.CreateTable(ctx, in)
	wantErr(t, err, "ValidationException", "One or more parameter values were invalid: Vector indexes are only supported for PAY_PER_REQUEST tables")
	in = base()
	in.VectorIndexes = []types.VectorIndex{vectorIndex("vix", "emb", 3, types.VectorDistanceFunctionCosine, types.ProjectionTypeAll, schemaEl("tenant", types.SearchSchemaElementTypeHash))}
	_, err = c.CreateTable(ctx, in)
	wantErr(t, err, "ValidationException", "One or more parameter values were invalid: One element in SearchSchema is not defined in attribute definitions")
	in = base()
	in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String("emb"), AttributeType: "S"})
	in.VectorIndexes = []types.VectorIndex{vectorIndex("vix", "emb", 3, types.VectorDistanceFunctionCosine, types.ProjectionTypeAll)}
	_, err = c.CreateTable(ctx, in)
	wantErrContains(t, err, "ValidationException", "Conflicting attribute definition for 'emb'")
}

// A reopened engine brings back the vector indexes (rebuilt from the
// items), the TTL specification and the tags.
func TestReopenKeepsVectorsTTLAndTags(t *testing.T) {
	eng := storage.NewMemory()
	first := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithEngine(eng)))
	c := first.Client()
	docsTable(t, first)
	put(t, c, "docs", item{"pk": S("a"), "emb": vecAV([]float32{1, 2, 3, 4})})
	if err := updateTTL(c, "docs", "exp", true); err != nil {
		t.Fatal(err)
	}
	if _, err := c.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String(testArn + "docs"), Tags: []types.Tag{tag("env", "dev")}}); err != nil {
		t.Fatal(err)
	}
	first.Close()

	second := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithEngine(eng)))
	c = second.Client()
	out, err := c.SearchVectors(ctx, &dynamodb.SearchVectorsInput{TableName: aws.String("docs"), IndexName: aws.String("byL2"), SearchVector: searchVec([]float32{1, 2, 3, 4}), TopK: aws.Int32(1)})
	if err != nil || len(out.SearchResults) != 1 || sval(out.SearchResults[0].Item["pk"]) != "a" {
		t.Fatalf("reopened vector index: %v %v", out, err)
	}
	d, err := c.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String("docs")})
	if err != nil || d.TimeToLiveDescription.TimeToLiveStatus != types.TimeToLiveStatusEnabled {
		t.Fatalf("reopened TTL: %+v %v", d, err)
	}
	if got := listTags(t, c, testArn+"docs"); got["env"] != "dev" {
		t.Fatalf("reopened tags: %v", got)
	}
}

// BenchmarkSearchVectors is one SearchVectors call through the handler
// (decode, validation, search, encoding): 10k vectors of 256 dimensions in
// one partition, TopK 10. The engine alone at 100k × 768 is local/vector's
// BenchmarkSearchBandwidth (DYNAMO_BENCH_SCALE=1).
func BenchmarkSearchVectors(b *testing.B) {
	srv, err := local.New()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Close() })
	c := newCaller(srv)
	c.call(b, "CreateTable", `{"TableName":"vec","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST",`+
		`"VectorIndexes":[{"IndexName":"vix","VectorAttribute":{"AttributeName":"emb"},"Dimensions":256,"DistanceFunction":"COSINE","Projection":{"ProjectionType":"KEYS_ONLY"}}]}`)
	r := rand.New(rand.NewPCG(3, 3))
	vec := func() string {
		var sb strings.Builder
		sb.WriteByte('[')
		for i := range 256 {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(`{"N":"` + strconv.FormatFloat(r.NormFloat64(), 'f', 4, 64) + `"}`)
		}
		sb.WriteByte(']')
		return sb.String()
	}
	for i := range 10_000 {
		c.call(b, "PutItem", `{"TableName":"vec","Item":{"pk":{"S":"k`+strconv.Itoa(i)+`"},"emb":{"L":`+vec()+`}}}`)
	}
	body := `{"TableName":"vec","IndexName":"vix","TopK":10,"SearchVector":` + vec() + `}`
	b.ReportAllocs()
	b.SetBytes(10_000 * 256 * 4)
	for b.Loop() {
		c.call(b, "SearchVectors", body)
	}
}

func TestVectorIndexLifecycleRules(t *testing.T) {
	srv, c := newServer(t)
	docsTable(t, srv)
	put(t, c, "docs", item{"pk": S("old"), "tenant": S("acme"), "exp": N(strconv.FormatInt(time.Now().Unix()-60, 10)), "emb": vecAV([]float32{1, 1, 1, 1})})
	put(t, c, "docs", item{"pk": S("new"), "tenant": S("acme"), "emb": vecAV([]float32{1, 1, 1, 2})})
	// A TTL deletion leaves the vector indexes too.
	if err := updateTTL(c, "docs", "exp", true); err != nil {
		t.Fatal(err)
	}
	if n := srv.Local.SweepExpired(); n != 1 {
		t.Fatalf("swept %d", n)
	}
	out, err := c.SearchVectors(ctx, &dynamodb.SearchVectorsInput{TableName: aws.String("docs"), IndexName: aws.String("byCos"), SearchVector: searchVec([]float32{1, 1, 1, 1}),
		TopK: aws.Int32(5), SearchConditionExpression: aws.String("tenant = :t"), ExpressionAttributeValues: item{":t": S("acme")}})
	if err != nil || strings.Join(hitKeys(out), ",") != "new" {
		t.Fatalf("after the TTL sweep: %v %v", hitKeys(out), err)
	}
	// Vector indexes need on-demand billing.
	_, err = c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("docs"), BillingMode: types.BillingModeProvisioned,
		ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)}})
	wantErr(t, err, "ValidationException", "One or more parameter values were invalid: Tables with vector indexes must be in PAY_PER_REQUEST mode")
	// A created index's SearchSchema attributes join the table's definitions.
	if _, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("docs"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("lang"), AttributeType: "S"}},
		VectorIndexUpdates: []types.VectorIndexUpdate{{Create: &types.CreateVectorIndexAction{IndexName: aws.String("byLang"),
			VectorAttribute: &types.VectorAttributeDefinition{AttributeName: aws.String("emb")}, Dimensions: aws.Int64(4),
			DistanceFunction: types.VectorDistanceFunctionCosine, Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
			SearchSchema: []types.SearchSchemaElement{schemaEl("lang", types.SearchSchemaElementTypeHash)}}}}}); err != nil {
		t.Fatal(err)
	}
	d, _ := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("docs")})
	var defs []string
	for _, a := range d.Table.AttributeDefinitions {
		defs = append(defs, aws.ToString(a.AttributeName))
	}
	if strings.Join(defs, ",") != "pk,tenant,kind,lang" || len(d.Table.VectorIndexes) != 4 {
		t.Fatalf("definitions %v, %d vector indexes", defs, len(d.Table.VectorIndexes))
	}
}

// An item that breaks several rules gets the same error from PutItem,
// BatchWriteItem and TransactWriteItems: they check a new item in one
// order (key, index keys, vectors, size).
func TestPutValidationOrderIsShared(t *testing.T) {
	srv, c := newServer(t)
	docsTable(t, srv)
	bad := item{"pk": S("a"), "tenant": S("acme"), "emb": vecAV([]float32{1, 2}), "blob": B(make([]byte, 400*1024)...)}
	_, putErr := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("docs"), Item: bad})
	_, batchErr := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
		"docs": {{PutRequest: &types.PutRequest{Item: bad}}}}})
	_, txErr := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String("docs"), Item: bad}}}})
	if putErr == nil || strings.Contains(putErr.Error(), "Item size") {
		t.Fatalf("PutItem: %v, want the vector's error", putErr)
	}
	msg := func(err error) string {
		var ae smithy.APIError
		if !errors.As(err, &ae) {
			return fmt.Sprint(err)
		}
		return ae.ErrorCode() + ": " + ae.ErrorMessage()
	}
	if msg(batchErr) != msg(putErr) || msg(txErr) != msg(putErr) {
		t.Fatalf("PutItem: %s\nBatchWriteItem: %s\nTransactWriteItems: %s", msg(putErr), msg(batchErr), msg(txErr))
	}
}

// A cancelled transaction leaves the vector indexes as they were: neither
// its put nor its update of a vector is searchable.
func TestVectorIndexIgnoresCancelledTransaction(t *testing.T) {
	srv, c := newServer(t)
	docsTable(t, srv)
	put(t, c, "docs", item{"pk": S("a"), "emb": vecAV([]float32{1, 0, 0, 0})})
	put(t, c, "docs", item{"pk": S("guard")})
	_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		txPut("docs", item{"pk": S("b"), "emb": vecAV([]float32{0, 1, 0, 0})}),
		txUpdate("docs", item{"pk": S("a")}, "SET emb = :v", item{":v": vecAV([]float32{0, 0, 1, 0})}),
		{ConditionCheck: &types.ConditionCheck{TableName: aws.String("docs"), Key: item{"pk": S("guard")},
			ConditionExpression: aws.String("attribute_not_exists(pk)")}},
	}})
	wantErrContains(t, err, "TransactionCanceledException", "ConditionalCheckFailed")
	out, err := c.SearchVectors(ctx, &dynamodb.SearchVectorsInput{TableName: aws.String("docs"), IndexName: aws.String("byDot"),
		SearchVector: searchVec([]float32{1, 1, 1, 0}), TopK: aws.Int32(10)})
	if err != nil {
		t.Fatal(err)
	}
	if keys := strings.Join(hitKeys(out), ","); keys != "a" || out.SearchResults[0].Score != 1 {
		t.Fatalf("after a cancelled transaction: %s scored %v, want a alone at 1", keys, out.SearchResults[0].Score)
	}
}

// TestVectorIndexKeepsUpdatedValues: UpdateItem decodes its key and values
// into memory the next request reuses, so the view a vector index keeps of
// an updated item must not point into it: after another update with other
// values, the first item is found with its own.
func TestVectorIndexKeepsUpdatedValues(t *testing.T) {
	srv, c := newServer(t)
	docsTable(t, srv)
	update := func(pk, note string, v []float32) {
		t.Helper()
		if _, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("docs"), Key: item{"pk": S(pk)},
			UpdateExpression:          aws.String("SET emb = :v, note = :n"),
			ExpressionAttributeValues: item{":v": vecAV(v), ":n": S(note)}}); err != nil {
			t.Fatal(err)
		}
	}
	update("first", "one", []float32{1, 0, 0, 0})
	for i := range 20 {
		update(fmt.Sprintf("other%02d", i), fmt.Sprintf("xyz%02d", i), []float32{0, 1, float32(i), 0})
	}
	out, err := c.SearchVectors(ctx, &dynamodb.SearchVectorsInput{TableName: aws.String("docs"), IndexName: aws.String("byL2"),
		SearchVector: searchVec([]float32{1, 0, 0, 0}), TopK: aws.Int32(1)})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.SearchResults) != 1 {
		t.Fatalf("%d results", len(out.SearchResults))
	}
	got := out.SearchResults[0].Item
	if sval(got["pk"]) != "first" || sval(got["note"]) != "one" || out.SearchResults[0].Score != 0 {
		t.Fatalf("nearest = %s, note %q (score %v), want first, note one, 0", sval(got["pk"]), sval(got["note"]), out.SearchResults[0].Score)
	}
}
