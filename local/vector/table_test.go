package vector_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/local/vector"
)

func wantTypedErr(t *testing.T, err error, typ, msg string) {
	t.Helper()
	var ve *vector.Error
	if !errors.As(err, &ve) || ve.Type != typ || ve.Message != msg {
		t.Fatalf("error %v, want %s: %s", err, typ, msg)
	}
}

func sdkIndex(name, attr string, dims int64, schema ...types.SearchSchemaElement) types.VectorIndex {
	return types.VectorIndex{
		IndexName:        aws.String(name),
		VectorAttribute:  &types.VectorAttributeDefinition{AttributeName: aws.String(attr)},
		Dimensions:       aws.Int64(dims),
		DistanceFunction: types.VectorDistanceFunctionCosine,
		Projection:       &types.Projection{ProjectionType: types.ProjectionTypeAll},
		SearchSchema:     schema,
	}
}

var tableDefs = []types.AttributeDefinition{
	{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
	{AttributeName: aws.String("tenant"), AttributeType: types.ScalarAttributeTypeS},
}

func TestModelConstraints(t *testing.T) {
	if cs := vector.ModelConstraints(sdkIndex("vix", "embedding", 3), "vectorIndexes.1.member"); len(cs) != 0 {
		t.Fatalf("valid index: %+v", cs)
	}
	bad := types.VectorIndex{
		IndexName:        aws.String("ab"),
		VectorAttribute:  &types.VectorAttributeDefinition{},
		Dimensions:       aws.Int64(0),
		DistanceFunction: "MANHATTAN",
		SearchSchema:     []types.SearchSchemaElement{{AttributeName: aws.String("t"), SearchSchemaElementType: "RANGE"}},
	}
	var got []string
	for _, c := range vector.ModelConstraints(bad, "vectorIndexes.1.member") {
		got = append(got, c.Path+": "+c.Rule)
	}
	want := []string{
		"vectorIndexes.1.member.indexName: Member must have length greater than or equal to 3",
		"vectorIndexes.1.member.vectorAttribute.attributeName: Member must not be null",
		"vectorIndexes.1.member.dimensions: Member must have value greater than or equal to 1",
		"vectorIndexes.1.member.distanceFunction: Member must satisfy enum value set: [COSINE, DOT_PRODUCT, EUCLIDEAN]",
		"vectorIndexes.1.member.projection: Member must not be null",
		"vectorIndexes.1.member.searchSchema.1.member.searchSchemaElementType: Member must satisfy enum value set: [HASH, INLINE_FILTER]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestCreateTableIndexes(t *testing.T) {
	ppr := vector.Table{Name: "t", PayPerRequest: true, TableKeys: []string{"pk"}, Other: []string{"ByStatus"}}
	hash := types.SearchSchemaElement{AttributeName: aws.String("tenant"), SearchSchemaElementType: types.SearchSchemaElementTypeHash}

	defs, err := vector.CreateTableIndexes([]types.VectorIndex{sdkIndex("vix", "embedding", 3, hash), sdkIndex("vix2", "embedding", 3)}, ppr, tableDefs)
	if err != nil || len(defs) != 2 || defs[0].Partition.Name != "tenant" {
		t.Fatalf("CreateTableIndexes = %+v, %v", defs, err)
	}
	if defs, err := vector.CreateTableIndexes(nil, ppr, tableDefs); defs != nil || err != nil {
		t.Fatal("no VectorIndexes member")
	}
	provisioned := ppr
	provisioned.PayPerRequest = false
	six := make([]types.VectorIndex, 6)
	for i := range six {
		six[i] = sdkIndex(strings.Repeat("x", i+3), "embedding", 3)
	}
	for _, c := range []struct {
		name string
		vis  []types.VectorIndex
		t    vector.Table
		want string
	}{
		{"empty list", []types.VectorIndex{}, ppr, "One or more parameter values were invalid: List of VectorIndexes is empty"},
		{"provisioned", []types.VectorIndex{sdkIndex("vix", "e", 3)}, provisioned, "One or more parameter values were invalid: Vector indexes are only supported for PAY_PER_REQUEST tables"},
		{"six", six, ppr, "One or more parameter values were invalid: VectorIndex count exceeds the per-table limit of 5"},
		{"duplicate", []types.VectorIndex{sdkIndex("vix", "e", 3), sdkIndex("vix", "f", 3)}, ppr, "One or more parameter values were invalid: Duplicate index name: vix"},
		{"GSI name", []types.VectorIndex{sdkIndex("ByStatus", "e", 3)}, ppr, "One or more parameter values were invalid: Duplicate index name: ByStatus"},
		{"dimensions disagree", []types.VectorIndex{sdkIndex("vix", "e", 3), sdkIndex("vix2", "e", 4)}, ppr,
			"One or more parameter values were invalid: Conflicting attribute definition for 'e'. All VectorIndexes on the same vector attribute must use the same dimensions."},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := vector.CreateTableIndexes(c.vis, c.t, tableDefs)
			wantErr(t, err, c.want)
		})
	}
}

func TestUpdateTableAction(t *testing.T) {
	existing, _ := vector.FromSDK(sdkIndex("vix", "embedding", 3), tableDefs, "pk")
	tbl := vector.Table{Name: "Products", PayPerRequest: true, TableKeys: []string{"pk"}, Vector: []vector.Definition{existing}, Other: []string{"ByStatus"}}
	create := func(vi types.VectorIndex) types.VectorIndexUpdate {
		return types.VectorIndexUpdate{Create: &types.CreateVectorIndexAction{
			IndexName: vi.IndexName, VectorAttribute: vi.VectorAttribute, Dimensions: vi.Dimensions,
			DistanceFunction: vi.DistanceFunction, Projection: vi.Projection, SearchSchema: vi.SearchSchema,
		}}
	}
	del := func(name string) types.VectorIndexUpdate {
		return types.VectorIndexUpdate{Delete: &types.DeleteVectorIndexAction{IndexName: aws.String(name)}}
	}

	d, name, err := vector.UpdateTableAction([]types.VectorIndexUpdate{create(sdkIndex("vix2", "other", 8))}, tbl, tableDefs)
	if err != nil || d == nil || d.Name != "vix2" || name != "" {
		t.Fatalf("create: %+v %q %v", d, name, err)
	}
	d, name, err = vector.UpdateTableAction([]types.VectorIndexUpdate{del("vix")}, tbl, nil)
	if err != nil || d != nil || name != "vix" {
		t.Fatalf("delete: %+v %q %v", d, name, err)
	}

	busy := tbl
	busy.Building = true
	provisioned := tbl
	provisioned.PayPerRequest = false
	both := create(sdkIndex("vix2", "other", 8))
	both.Delete = &types.DeleteVectorIndexAction{IndexName: aws.String("vix")}
	for _, c := range []struct {
		name      string
		ups       []types.VectorIndexUpdate
		t         vector.Table
		typ, want string
	}{
		{"two actions", []types.VectorIndexUpdate{del("vix"), del("vix")}, tbl, "LimitExceededException",
			"Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table"},
		{"while building", []types.VectorIndexUpdate{create(sdkIndex("vix2", "other", 8))}, busy, "LimitExceededException",
			"Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table"},
		{"create and delete", []types.VectorIndexUpdate{both}, tbl, "ValidationException",
			"One or more parameter values were invalid: Only one vector index action is allowed per VectorIndexUpdate object"},
		{"neither", []types.VectorIndexUpdate{{}}, tbl, "ValidationException",
			"One or more parameter values were invalid: One of VectorIndexUpdate.Create, VectorIndexUpdate.Delete must not be null"},
		{"delete unknown", []types.VectorIndexUpdate{del("nope")}, tbl, "ResourceNotFoundException", "Requested resource not found: Index nope for table Products"},
		{"exists", []types.VectorIndexUpdate{create(sdkIndex("vix", "other", 8))}, tbl, "ValidationException", "Attempting to create an index which already exists"},
		{"exists as GSI", []types.VectorIndexUpdate{create(sdkIndex("ByStatus", "other", 8))}, tbl, "ValidationException", "Attempting to create an index which already exists"},
		{"provisioned", []types.VectorIndexUpdate{create(sdkIndex("vix2", "other", 8))}, provisioned, "ValidationException",
			"One or more parameter values were invalid: Vector indexes are only supported for PAY_PER_REQUEST tables"},
		{"dimensions disagree", []types.VectorIndexUpdate{create(sdkIndex("vix2", "embedding", 8))}, tbl, "ValidationException",
			"One or more parameter values were invalid: Conflicting attribute definition for 'embedding'. All VectorIndexes on the same vector attribute must use the same dimensions."},
		{"schema not declared", []types.VectorIndexUpdate{create(sdkIndex("vix2", "other", 8, types.SearchSchemaElement{AttributeName: aws.String("region"), SearchSchemaElementType: types.SearchSchemaElementTypeHash}))}, tbl,
			"ValidationException", "One or more parameter values were invalid: One element in SearchSchema is not defined in attribute definitions"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := vector.UpdateTableAction(c.ups, c.t, tableDefs)
			wantTypedErr(t, err, c.typ, c.want)
		})
	}
}

func TestBackfill(t *testing.T) {
	ix := mustIndex(t, def(types.VectorDistanceFunctionCosine, 2))
	items := map[string]vector.Item{
		"a": {"embedding": vec(1, 0)},
		"b": {"embedding": vec(1)}, // a live write would be rejected: skipped
		"c": {"title": s("no vector")},
		"d": {"embedding": vec(0, 1)},
	}
	n := ix.Backfill(func(yield func(string, vector.Item) bool) {
		for k, it := range items {
			if !yield(k, it) {
				return
			}
		}
	})
	if n != 2 || ix.Len() != 2 {
		t.Fatalf("Backfill indexed %d (Len %d), want 2", n, ix.Len())
	}
}

// The server persists table metadata as JSON (durable mode): a Definition
// must survive the round trip.
func TestDefinitionJSONRoundTrip(t *testing.T) {
	hash := types.SearchSchemaElement{AttributeName: aws.String("tenant"), SearchSchemaElementType: types.SearchSchemaElementTypeHash}
	d, err := vector.FromSDK(sdkIndex("vix", "embedding", 3, hash), tableDefs, "pk")
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var back vector.Definition
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(back)
	if string(again) != string(data) || back.Partition != d.Partition || *back.SearchSchema[0].AttributeName != "tenant" {
		t.Fatalf("round trip:\n%s\n%s", data, again)
	}
	if _, err := vector.New(back); err != nil {
		t.Fatal(err)
	}
}
