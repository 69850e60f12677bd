package dynamo_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/schema"
)

type Doc struct {
	Tenant    string    `dynamo:"tenant,pk"`
	ID        string    `dynamo:"id,sk"`
	Lang      string    `dynamo:"lang"`
	Title     string    `dynamo:"title"`
	Embedding []float32 `dynamo:"embedding,dim=3"`
}

var Docs = schema.Must[Doc]("docs", schema.EntityName("doc"),
	schema.VectorIndex("Semantic", "embedding", schema.VectorPartition("tenant"), schema.InlineFilters("lang")))

func TestSearchVectorsCanned(t *testing.T) {
	var req map[string]any
	main := newCanned(t, func(string, int, []byte) reply { return reply{status: 500, body: `{}`} })
	search := newCanned(t, func(_ string, _ int, body []byte) reply {
		_ = json.Unmarshal(body, &req)
		return reply{body: `{"SearchResults":[
			{"Item":{"pk":{"S":"doc#t1"},"sk":{"S":"d1"},"title":{"S":"Intro"}},"Score":0.0},
			{"Item":{"pk":{"S":"doc#t1"},"sk":{"S":"d2"},"title":{"S":"Guide"}},"Score":0.4}],
			"ConsumedCapacity":{"VectorSearchRequestBytes":1024}}`}
	})
	tr := &recordingTracer{}
	repo := fastRepo(t, main.URL, dynamo.WithSearchEndpoint(search.URL), dynamo.WithTracer(tr))
	docs := dynamo.Bind(repo, Docs)
	res, err := docs.SearchVectors(context.Background(), "Semantic", []float32{1, 0, 0.5},
		dynamo.TopK(2), dynamo.Filter(expr.AllOf(expr.Eq("tenant", "t1"), expr.Eq("lang", "en"))),
		dynamo.ConsumedCapacity(types.ReturnConsumedCapacityTotal))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) != 2 || res.Results[0].Item.Tenant != "t1" || res.Results[0].Item.ID != "d1" ||
		res.Results[1].Item.Title != "Guide" || res.Results[1].Score != 0.4 {
		t.Fatalf("results = %+v", res.Results)
	}
	if res.ConsumedCapacity == nil || *res.ConsumedCapacity.VectorSearchRequestBytes != 1024 {
		t.Errorf("capacity = %+v", res.ConsumedCapacity)
	}
	if req["TopK"] != float64(2) || req["IndexName"] != "Semantic" || req["SearchConditionExpression"] == nil {
		t.Errorf("request = %v", req)
	}
	if vec, _ := req["SearchVector"].([]any); len(vec) != 3 {
		t.Errorf("SearchVector = %v", req["SearchVector"])
	}
	if main.count("SearchVectors") != 0 {
		t.Errorf("search sent to the main endpoint")
	}
	if len(tr.ends) != 1 || !slices.Equal(tr.ends[0].Tables, []string{"docs"}) || len(tr.ends[0].ConsumedCapacity) != 1 ||
		tr.ends[0].ConsumedCapacity[0].VectorIndexes["Semantic"].VectorSearchRequestBytes == nil {
		t.Errorf("trace = %+v", tr.ends)
	}

	// Validation before any request: wrong dimension, missing partition value.
	before := search.count("SearchVectors")
	for name, opts := range map[string][]dynamo.SearchOption{
		"no partition": {dynamo.Filter(expr.Eq("lang", "en"))},
		"top k":        {dynamo.TopK(101), dynamo.Filter(expr.Eq("tenant", "t1"))},
	} {
		if _, err := docs.SearchVectors(context.Background(), "Semantic", []float32{1, 0, 0}, opts...); !errors.Is(err, dynamo.ErrValidation) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := docs.SearchVectors(context.Background(), "Semantic", []float32{1, 0}, dynamo.Filter(expr.Eq("tenant", "t1"))); !errors.Is(err, dynamo.ErrValidation) {
		t.Errorf("dimension: %v", err)
	}
	if search.count("SearchVectors") != before {
		t.Errorf("invalid searches were sent")
	}
}

func TestSearchVectorsLocal(t *testing.T) {
	srv := dynamotest.NewServer(t)
	in, err := schema.CreateTableInput(Docs)
	if err != nil {
		t.Fatal(err)
	}
	srv.CreateTable(t, in)
	repo, err := dynamo.New(aws.Config{}, dynamo.WithEndpoint(srv.URL), dynamo.WithCredentials("dynamotest", "dynamotest", ""))
	if err != nil {
		t.Fatal(err)
	}
	docs := dynamo.Bind(repo, Docs)
	ctx := context.Background()
	for _, d := range []Doc{
		{Tenant: "t1", ID: "near", Lang: "en", Title: "Near", Embedding: []float32{1, 0, 0}},
		{Tenant: "t1", ID: "mid", Lang: "en", Title: "Mid", Embedding: []float32{0.6, 0.8, 0}},
		{Tenant: "t1", ID: "far", Lang: "en", Title: "Far", Embedding: []float32{-1, 0, 0}},
		{Tenant: "t1", ID: "de", Lang: "de", Title: "De", Embedding: []float32{1, 0, 0}},
		{Tenant: "t2", ID: "other", Lang: "en", Title: "Other", Embedding: []float32{1, 0, 0}},
	} {
		if err := docs.Put(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	// The local server's vector index is up to date when Put returns.
	res, err := docs.SearchVectors(ctx, "Semantic", []float32{1, 0, 0}, dynamo.TopK(2),
		dynamo.Filter(expr.AllOf(expr.Eq("tenant", "t1"), expr.Eq("lang", "en"))))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) != 2 || res.Results[0].Item.ID != "near" || res.Results[1].Item.ID != "mid" {
		t.Fatalf("results = %+v", res.Results)
	}
	if r := res.Results[0]; r.Item.Tenant != "t1" || r.Item.Title != "Near" || r.Score > 0.001 {
		t.Errorf("best = %+v", r)
	}
}
