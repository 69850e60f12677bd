package vector_test

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/local/vector"
)

// schemaIndex is the index of the captured messages: "schema" with HASH
// tenant (S) and INLINE_FILTER category (S), over a 3-dimension vector.
func schemaIndex(t testing.TB) *vector.Index {
	d := def(types.VectorDistanceFunctionCosine, 3)
	d.Name = "schema"
	d.Partition = vector.Attr{Name: "tenant", Type: types.ScalarAttributeTypeS}
	d.Filters = []vector.Attr{{Name: "category", Type: types.ScalarAttributeTypeS}}
	return mustIndex(t, d)
}

func wantErr(t *testing.T, err error, msg string) {
	t.Helper()
	if msg == "" {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	var ve *vector.Error
	if !errors.As(err, &ve) {
		t.Fatalf("error %v, want ValidationException %q", err, msg)
	}
	if ve.Type != vector.ValidationException || ve.Message != msg {
		t.Fatalf("error\n  %s: %s\nwant\n  ValidationException: %s", ve.Type, ve.Message, msg)
	}
}

// The write-path rules and messages of spec/vector-search.md 2.5.
func TestCheckItem(t *testing.T) {
	ix := schemaIndex(t)
	ok := func(extra vector.Item) vector.Item {
		item := vector.Item{"pk": s("a"), "tenant": s("acme"), "embedding": vec(1, 2, 3)}
		for k, v := range extra {
			if v == nil {
				delete(item, k)
			} else {
				item[k] = v
			}
		}
		return item
	}
	cases := []struct {
		name string
		item vector.Item
		want string
	}{
		{"valid", ok(nil), ""},
		{"no vector: sparse", ok(vector.Item{"embedding": nil}), ""},
		{"no HASH: not indexed, accepted", ok(vector.Item{"tenant": nil}), ""},
		{"no filter: accepted", ok(nil), ""},
		{"empty-string filter: accepted", ok(vector.Item{"category": s("")}), ""},
		{"wrong length", ok(vector.Item{"embedding": vec(1, 2)}),
			"One or more parameter values were invalid. Invalid size for parameter embedding, Expected: 3, Actual: 2 IndexName: schema"},
		{"string element", ok(vector.Item{"embedding": l(n("1"), s("2"), n("3"))}),
			"One or more parameter values were invalid. Invalid type for parameter embedding[1], Expected: 32-bit floating point number, Actual: S. IndexName: schema"},
		{"not a list", ok(vector.Item{"embedding": s("1,2,3")}),
			"One or more parameter values were invalid. Invalid type for parameter embedding, Expected: 32-bit floating point number list IndexName: schema"},
		{"number set", ok(vector.Item{"embedding": &types.AttributeValueMemberNS{Value: []string{"1", "2", "3"}}}),
			"One or more parameter values were invalid. Invalid type for parameter embedding, Expected: 32-bit floating point number list IndexName: schema"},
		{"beyond float32", ok(vector.Item{"embedding": l(n("3.5E38"), n("0"), n("0"))}),
			"One or more parameter values were invalid. Invalid value for parameter embedding[0], Value: 3.5E38 is outside valid range [-3.4028235E38, 3.4028235E38]. IndexName: schema"},
		{"element checked before length", ok(vector.Item{"embedding": l(bl(true))}),
			"One or more parameter values were invalid. Invalid type for parameter embedding[0], Expected: 32-bit floating point number, Actual: BOOL. IndexName: schema"},
		{"HASH type", ok(vector.Item{"tenant": n("7")}),
			"One or more parameter values were invalid. Attribute 'tenant' type mismatch. Expected: S, Actual: N. IndexName: schema"},
		{"HASH type without a vector", ok(vector.Item{"tenant": n("7"), "embedding": nil}),
			"One or more parameter values were invalid. Attribute 'tenant' type mismatch. Expected: S, Actual: N. IndexName: schema"},
		{"empty HASH", ok(vector.Item{"tenant": s("")}),
			"One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty string value. IndexName: schema, IndexKey: tenant"},
		{"filter type", ok(vector.Item{"category": bl(true)}),
			"One or more parameter values were invalid. Attribute 'category' type mismatch. Expected: S, Actual: BOOL. IndexName: schema"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantErr(t, ix.Check(c.item), c.want)
			// Whatever Check rejects, Upsert does not index (backfill skips it).
			if c.want != "" && ix.Upsert("x", c.item) {
				t.Error("Upsert indexed an item Check rejects")
			}
		})
	}
}

func TestCheckUpdate(t *testing.T) {
	ix := schemaIndex(t)
	// An item stored before the index existed, with a bad vector: an update
	// of another attribute passes; one that sets the vector is checked.
	item := vector.Item{"pk": s("a"), "tenant": s("acme"), "embedding": vec(1, 2), "title": s("x")}
	wantErr(t, ix.CheckUpdate(item, []string{"title"}), "")
	wantErr(t, ix.CheckUpdate(item, []string{"embedding"}),
		"One or more parameter values were invalid. Invalid size for parameter embedding, Expected: 3, Actual: 2 IndexName: schema")
	item["tenant"] = s("")
	wantErr(t, ix.CheckUpdate(item, []string{"tenant"}),
		"One or more parameter values are not valid. The update expression attempted to update a secondary index key to a value that is not supported. The AttributeValue for a key attribute cannot contain an empty string value.")
}

func TestSetNamesTheFailingIndex(t *testing.T) {
	var set vector.Set
	a := def(types.VectorDistanceFunctionCosine, 3)
	a.Name = "plain"
	bdef := def(types.VectorDistanceFunctionEuclidean, 2)
	bdef.Name, bdef.Attribute = "other", "small"
	set.Add(mustIndex(t, a))
	set.Add(mustIndex(t, bdef))
	wantErr(t, set.Check(vector.Item{"embedding": vec(1, 2, 3), "small": vec(1)}),
		"One or more parameter values were invalid. Invalid size for parameter small, Expected: 2, Actual: 1 IndexName: other")
	set.Upsert("k", vector.Item{"embedding": vec(1, 2, 3), "small": vec(1, 2)})
	if set.Get("plain").Len() != 1 || set.Get("other").Len() != 1 {
		t.Fatal("Upsert did not reach every index")
	}
	set.Delete("k")
	if set.Get("plain").Len() != 0 || set.Get("other").Len() != 0 {
		t.Fatal("Delete did not reach every index")
	}
	if !set.Remove("plain") || set.Remove("plain") || set.Len() != 1 || set.Get("plain") != nil {
		t.Fatal("Remove")
	}
}

func TestWriteBytes(t *testing.T) {
	var set vector.Set
	d := def(types.VectorDistanceFunctionCosine, 3)
	d.Projection = types.ProjectionTypeKeysOnly
	set.Add(mustIndex(t, d))
	item := vector.Item{"pk": s("a"), "embedding": vec(1, 2, 3), "title": s("t")}
	if got := set.WriteBytes(nil, item); got["vix"] != 1024 {
		t.Errorf("create: %v, want vix: 1024 (floored)", got)
	}
	if got := set.WriteBytes(item, item); got != nil {
		t.Errorf("identical overwrite: %v, want none", got)
	}
	changed := vector.Item{"pk": s("a"), "embedding": vec(1, 2, 3), "title": s("new")}
	if got := set.WriteBytes(item, changed); got != nil {
		t.Errorf("write of an unprojected attribute: %v, want none", got)
	}
	if got := set.WriteBytes(item, vector.Item{"pk": s("a"), "embedding": vec(1, 2, 4)}); got["vix"] != 1024 {
		t.Errorf("vector change: %v", got)
	}
	if got := set.WriteBytes(item, nil); got["vix"] != 1024 {
		t.Errorf("delete: %v", got)
	}
	if got := set.WriteBytes(vector.Item{"pk": s("a")}, vector.Item{"pk": s("a"), "x": s("y")}); got != nil {
		t.Errorf("write of an item outside the index: %v", got)
	}
	big := def(types.VectorDistanceFunctionCosine, 300)
	bix := mustIndex(t, big)
	if got := bix.WriteBytes(nil, vector.Item{"pk": s("a"), "embedding": vec(make([]float32, 300)...)}); got != 4*300+9+2+1 {
		t.Errorf("300 dimensions: %v, want 4×300 + len(embedding) + size of pk", got)
	}
}

func TestFromSDK(t *testing.T) {
	defs := []types.AttributeDefinition{
		{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
		{AttributeName: aws.String("tenant"), AttributeType: types.ScalarAttributeTypeS},
		{AttributeName: aws.String("year"), AttributeType: types.ScalarAttributeTypeN},
	}
	el := func(name string, typ types.SearchSchemaElementType) types.SearchSchemaElement {
		return types.SearchSchemaElement{AttributeName: aws.String(name), SearchSchemaElementType: typ}
	}
	vi := func(dims int64, schema ...types.SearchSchemaElement) types.VectorIndex {
		return types.VectorIndex{
			IndexName:        aws.String("vix"),
			VectorAttribute:  &types.VectorAttributeDefinition{AttributeName: aws.String("embedding")},
			Dimensions:       aws.Int64(dims),
			DistanceFunction: types.VectorDistanceFunctionDotProduct,
			Projection:       &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"title"}},
			SearchSchema:     schema,
		}
	}
	hash, filter := types.SearchSchemaElementTypeHash, types.SearchSchemaElementTypeInlineFilter

	d, err := vector.FromSDK(vi(1024, el("tenant", hash), el("year", filter)), defs, "pk")
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "vix" || d.Attribute != "embedding" || d.Dimensions != 1024 || d.Distance != types.VectorDistanceFunctionDotProduct ||
		d.Partition != (vector.Attr{Name: "tenant", Type: "S"}) || len(d.Filters) != 1 || d.Filters[0] != (vector.Attr{Name: "year", Type: "N"}) ||
		d.Projection != types.ProjectionTypeInclude || d.NonKeyAttributes[0] != "title" || d.TableKeys[0] != "pk" {
		t.Errorf("FromSDK = %+v", d)
	}
	desc := d.SDK()
	if *desc.IndexName != "vix" || *desc.Dimensions != 1024 || len(desc.SearchSchema) != 2 || *desc.SearchSchema[0].AttributeName != "tenant" {
		t.Errorf("SDK() = %+v", desc)
	}

	for _, c := range []struct {
		name string
		vi   types.VectorIndex
		defs []types.AttributeDefinition
		want string
	}{
		{"too many dimensions", vi(4097), defs, "One or more parameter values were invalid: Number of dimensions must be between 1 and 4096 inclusive."},
		{"two HASH", vi(3, el("tenant", hash), el("year", hash)), defs,
			"One or more parameter values were invalid: Value '2' at 'SearchSchema' failed to satisfy constraint: Member must have HASH count less than or equal to 1"},
		{"duplicate", vi(3, el("tenant", hash), el("tenant", filter)), defs, "One or more parameter values were invalid: SearchSchema contains a duplicate AttributeName"},
		{"undeclared", vi(3, el("region", filter)), defs, "One or more parameter values were invalid: One element in SearchSchema is not defined in attribute definitions"},
		{"vector attribute declared", vi(3), append(defs, types.AttributeDefinition{AttributeName: aws.String("embedding"), AttributeType: "S"}),
			"One or more parameter values were invalid: Conflicting attribute definition for 'embedding'. An attribute cannot be defined in AttributeDefinitions when used as a VectorAttribute."},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := vector.FromSDK(c.vi, c.defs, "pk")
			wantErr(t, err, c.want)
		})
	}

	many := make([]vector.Definition, 6)
	for i := range many {
		many[i] = def(types.VectorDistanceFunctionCosine, 3)
		many[i].Name = strings.Repeat("v", i+3)
	}
	wantErr(t, vector.ValidateIndexes(many), "One or more parameter values were invalid: VectorIndex count exceeds the per-table limit of 5")
	wantErr(t, vector.ValidateIndexes(many[:2]), "")
	wantErr(t, vector.ValidateIndexes(many[:2], "vvv"), "One or more parameter values were invalid: Duplicate index name: vvv")
	many[1].Dimensions = 4
	wantErr(t, vector.ValidateIndexes(many[:2]),
		"One or more parameter values were invalid: Conflicting attribute definition for 'embedding'. All VectorIndexes on the same vector attribute must use the same dimensions.")
}

func TestFormatFloat32RoundTrips(t *testing.T) {
	for bits := uint32(0); bits < math.MaxUint32-65521; bits += 65521 {
		f := math.Float32frombits(bits)
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			continue
		}
		text := vector.FormatFloat32(f)
		back, err := strconv.ParseFloat(text, 32)
		if err != nil || float32(back) != f && f != 0 {
			t.Fatalf("%g → %q → %v", f, text, back)
		}
	}
}

func TestFormatFloat32(t *testing.T) {
	for f, want := range map[float32]string{
		1:                "1.0",
		-2:               "-2.0",
		0.1:              "0.1",
		16777217:         "16777216.0",
		0:                "0.0",
		1.5e-7:           "1.5e-7",
		1e20:             "1e20",
		3.4028235e38:     "3.4028235e38",
		-3.4028235e38:    "-3.4028235e38",
		0.0001:           "0.0001",
		0.00009999999:    "9.999999e-5",
		9999999999999998: "1e16",
		123456.7:         "123456.7",
		1.401298464e-45:  "1e-45",
		float32(1) / 3:   "0.33333334",
		-0.00012345678:   "-0.00012345678",
		1234567800000000: "1234567800000000.0",
	} {
		if got := vector.FormatFloat32(f); got != want {
			t.Errorf("FormatFloat32(%g) = %q, want %q", f, got, want)
		}
	}
}
