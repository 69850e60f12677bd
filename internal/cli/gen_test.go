package cli

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/codec/ddbjson"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/gen")

// desc builds a table description: keys "name:S:HASH", "name:N:RANGE",
// other attribute definitions "name:S".
func desc(table string, attrs ...string) *types.TableDescription {
	d := &types.TableDescription{TableName: aws.String(table),
		BillingModeSummary: &types.BillingModeSummary{BillingMode: types.BillingModePayPerRequest}}
	for _, a := range attrs {
		p := strings.Split(a, ":")
		d.AttributeDefinitions = append(d.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String(p[0]), AttributeType: types.ScalarAttributeType(p[1])})
		if len(p) == 3 {
			d.KeySchema = append(d.KeySchema, types.KeySchemaElement{AttributeName: aws.String(p[0]), KeyType: types.KeyType(p[2])})
		}
	}
	return d
}

func keySchema(pk, sk string) []types.KeySchemaElement {
	ks := []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash}}
	if sk != "" {
		ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(sk), KeyType: types.KeyTypeRange})
	}
	return ks
}

func items(t *testing.T, lines ...string) []item {
	t.Helper()
	var out []item
	for _, l := range lines {
		it, err := ddbjson.UnmarshalItem([]byte(l))
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		out = append(out, it)
	}
	return out
}

func TestGenerateGolden(t *testing.T) {
	provisioned := desc("orders", "PK:S:HASH", "SK:S:RANGE", "status:S", "total:N")
	provisioned.BillingModeSummary = nil
	provisioned.ProvisionedThroughput = &types.ProvisionedThroughputDescription{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(5)}
	provisioned.GlobalSecondaryIndexes = []types.GlobalSecondaryIndexDescription{
		{IndexName: aws.String("ByStatus"), KeySchema: keySchema("status", "total"),
			Projection:            &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"note"}},
			ProvisionedThroughput: &types.ProvisionedThroughputDescription{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(2)}},
		{IndexName: aws.String("Inverted"), KeySchema: keySchema("SK", "PK"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
	}
	provisioned.LocalSecondaryIndexes = []types.LocalSecondaryIndexDescription{
		{IndexName: aws.String("ByTotal"), KeySchema: keySchema("PK", "total"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}},
	}

	docs := desc("docs", "pk:S:HASH", "sk:S:RANGE", "tenant:S", "lang:S")
	docs.VectorIndexes = []types.VectorIndexDescription{{
		IndexName: aws.String("Semantic"), Dimensions: aws.Int64(3), DistanceFunction: types.VectorDistanceFunctionDotProduct,
		VectorAttribute: &types.VectorAttributeDefinition{AttributeName: aws.String("embedding")},
		SearchSchema: []types.SearchSchemaElement{
			{AttributeName: aws.String("tenant"), SearchSchemaElementType: types.SearchSchemaElementTypeHash},
			{AttributeName: aws.String("lang"), SearchSchemaElementType: types.SearchSchemaElementTypeInlineFilter},
		},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
	}}

	tickets := desc("tickets", "pk:S:HASH", "tenant:S", "region:S", "created_at:S", "priority:N")
	tickets.GlobalSecondaryIndexes = []types.GlobalSecondaryIndexDescription{
		{IndexName: aws.String("ByTenant"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String("tenant"), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String("region"), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String("created_at"), KeyType: types.KeyTypeRange},
				{AttributeName: aws.String("priority"), KeyType: types.KeyTypeRange},
			}},
		{IndexName: aws.String("ByPlace"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String("tenant"), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String("region"), KeyType: types.KeyTypeHash},
			}},
	}

	tests := []struct {
		name  string
		cfg   genConfig
		desc  *types.TableDescription
		items []string
	}{{
		name: "entity_custom_key_names",
		cfg:  genConfig{Table: "orders", Package: "orders"},
		desc: provisioned,
		items: []string{
			`{"PK":{"S":"order#acme#u1"},"SK":{"S":"2024-06-01T10:00:00.000000000Z#o1"},"tenant":{"S":"acme"},"user_id":{"S":"u1"},"placed_at":{"S":"2024-06-01T10:00:00.000000000Z"},"order_id":{"S":"o1"},"status":{"S":"open"},"total":{"N":"12"},"mixed":{"S":"x"},"weird,name":{"S":"y"}}`,
			`{"PK":{"S":"order#acme#u2"},"SK":{"S":"2024-06-02T10:00:00.000000000Z#o2"},"tenant":{"S":"acme"},"user_id":{"S":"u2"},"placed_at":{"S":"2024-06-02T10:00:00.000000000Z"},"order_id":{"S":"o2"},"status":{"S":"paid"},"total":{"N":"99999999999999999999"},"mixed":{"N":"1"},"flag":{"NULL":true}}`,
		},
	}, {
		name: "entity_key_not_stored",
		cfg:  genConfig{Table: "app", TypeName: "Session", Package: "app"},
		desc: desc("app", "pk:S:HASH", "sk:S:RANGE"),
		items: []string{
			`{"pk":{"S":"session#s1"},"sk":{"S":"42"},"n":{"N":"42"}}`,
			`{"pk":{"S":"session#s2"},"sk":{"S":"7"},"n":{"N":"7"}}`,
		},
	}, {
		name: "vector_index",
		cfg:  genConfig{Table: "docs", Package: "docs"},
		desc: docs,
		items: []string{
			`{"pk":{"S":"doc#d1"},"sk":{"S":"v1"},"doc_id":{"S":"d1"},"rev":{"S":"v1"},"tenant":{"S":"t1"},"lang":{"S":"en"},"embedding":{"L":[{"N":"0.1"},{"N":"0.2"},{"N":"0.3"}]}}`,
		},
	}, {
		name: "raw_binary_keys",
		cfg:  genConfig{Table: "blobs", Package: "blobs"},
		desc: desc("blobs", "hash:B:HASH", "version:N:RANGE"),
		items: []string{
			`{"hash":{"B":"AQID"},"version":{"N":"1"},"size":{"N":"1.5"},"tags":{"SS":["a"]},"parts":{"BS":["AQ=="]},"ok":{"BOOL":true}}`,
			`{"hash":{"B":"BAUG"},"version":{"N":"2"},"size":{"N":"3"}}`,
		},
	}, {
		name: "multi_key_gsi",
		cfg:  genConfig{Table: "tickets", Package: "tickets"},
		desc: tickets,
		items: []string{
			`{"pk":{"S":"ticket#a"},"id":{"S":"a"},"tenant":{"S":"t1"},"region":{"S":"eu"},"created_at":{"S":"2025-03-01T01:00:00Z"},"priority":{"N":"2"}}`,
		},
	}, {
		name: "empty_table",
		cfg:  genConfig{Table: "user-events_v2", Package: "events"},
		desc: desc("user-events_v2", "id:S:HASH"),
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src, _, err := generate(tc.cfg, tc.desc, items(t, tc.items...))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "gen", tc.name+".go.golden")
			if *update {
				if err := os.WriteFile(path, src, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if string(want) != string(src) {
				t.Errorf("generated source differs from %s (go test -update rewrites it):\n%s", path, src)
			}
		})
	}
}

func TestGenerateTypeWithSeveralEntities(t *testing.T) {
	_, _, err := generate(genConfig{Table: "app", TypeName: "Thing", Package: "p"}, desc("app", "pk:S:HASH", "sk:S:RANGE"), items(t,
		`{"pk":{"S":"a#1"},"sk":{"S":"x"},"id":{"S":"1"},"k":{"S":"x"}}`,
		`{"pk":{"S":"b#1"},"sk":{"S":"x"},"id":{"S":"1"},"k":{"S":"x"}}`,
	))
	if err == nil || !strings.Contains(err.Error(), "2 kinds of items (entities a, b): --type can name only one") {
		t.Fatalf("err = %v", err)
	}
}

func TestGoName(t *testing.T) {
	for in, want := range map[string]string{
		"user_id": "UserID", "placedAt": "PlacedAt", "app-orders": "AppOrders", "HTTPLog": "HTTPLog",
		"url": "URL", "2fa": "X2fa", "user.name": "UserName", "": "", "PK": "PK", "ttl": "TTL",
	} {
		if got := goName(in); got != want {
			t.Errorf("goName(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"Order": "order", "UserAddress": "user_address", "HTTPLog": "http_log", "Metric": "metric"} {
		if got := snakeName(in); got != want {
			t.Errorf("snakeName(%q) = %q, want %q", in, got, want)
		}
	}
}

// Items carrying the entity attribute are grouped by its value, exactly:
// a child in its parent's partitions gets EntityFrom, one whose parent was
// not read keeps the parent's key prefix and says so; the attribute itself
// is not declared but kept by the catch-all field.
func TestGenerateEntityAttribute(t *testing.T) {
	src, typs, err := generate(genConfig{Table: "app", Package: "p"}, desc("app", "pk:S:HASH", "sk:S:RANGE"), items(t,
		`{"pk":{"S":"user#u1"},"sk":{"S":"x#1"},"_entity":{"S":"user"},"user_id":{"S":"u1"},"k":{"S":"x"},"n":{"S":"1"}}`,
		`{"pk":{"S":"user#u1"},"sk":{"S":"x#2"},"_entity":{"S":"user_note"},"user_id":{"S":"u1"},"k":{"S":"x"},"n":{"S":"2"}}`,
		`{"pk":{"S":"team#t1"},"sk":{"S":"m#1"},"_entity":{"S":"team_member"},"team_id":{"S":"t1"},"k":{"S":"m"},"n":{"S":"1"}}`,
	))
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	for _, want := range []string{
		"type User struct", "type UserNote struct", "type TeamMember struct",
		"var UserNoteSchema = schema.Must[UserNote](\"app\",\n\tschema.EntityFrom(UserSchema),",
		"var TeamMemberSchema = schema.Must[TeamMember](\"app\",\n\tschema.EntityName(\"team\"),",
		"// Its items are entity \"team_member\" in partitions of entity \"team\", whose own items were not read",
		"map[string]types.AttributeValue `dynamo:\",unknown\"`",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q in\n%s", want, s)
		}
	}
	if strings.Contains(s, `dynamo:"_entity`) || len(typs) != 3 {
		t.Errorf("%d types; source:\n%s", len(typs), s)
	}
}
