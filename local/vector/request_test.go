package vector_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/local/vector"
)

// request builds a SearchVectors request against the "schema" index
// (HASH tenant S, INLINE_FILTER category S, 3 dimensions).
func request(t *testing.T, cond string, names map[string]string, values vector.Item) *vector.Request {
	t.Helper()
	r := &vector.Request{IndexName: "schema", SearchVector: nums(1, 0, 0), TopK: 5, Names: names, Values: values}
	if cond != "" {
		r.ConditionExpression = &cond
	}
	return r
}

// Both validation steps, in the service's order, as the server runs them.
func validate(ix *vector.Index, r *vector.Request) (*vector.Query, error) {
	if err := vector.CheckRequest(r); err != nil {
		return nil, err
	}
	return ix.Prepare(r)
}

func TestSearchVectorsValidation(t *testing.T) {
	ix := schemaIndex(t)
	acme := vector.Item{":t": s("acme")}
	cases := []struct {
		name   string
		mutate func(r *vector.Request)
		cond   string
		names  map[string]string
		values vector.Item
		want   string
	}{
		{name: "valid", cond: "tenant = :t", values: acme},
		{name: "valid with filter and names", cond: "#t = :t AND category = :c", names: map[string]string{"#t": "tenant"}, values: vector.Item{":t": s("acme"), ":c": s("shoes")}},
		{name: "value on the left", cond: ":t = tenant", values: acme},
		{name: "short index name", mutate: func(r *vector.Request) { r.IndexName = "ix" }, cond: "tenant = :t", values: acme,
			want: "Value at 'IndexName' failed to satisfy constraint: Member must have length greater than or equal to 3"},
		{name: "empty vector", mutate: func(r *vector.Request) { r.SearchVector = nil }, cond: "tenant = :t", values: acme,
			want: "Value at 'SearchVector' failed to satisfy constraint: Member must have length greater than or equal to 1"},
		{name: "TopK 0", mutate: func(r *vector.Request) { r.TopK = 0 }, cond: "tenant = :t", values: acme,
			want: "Value at 'TopK' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{name: "TopK 101", mutate: func(r *vector.Request) { r.TopK = 101 }, cond: "tenant = :t", values: acme,
			want: "Provided TopK value '101' is out of valid range. The value must be between 1 and 100 inclusive"},
		{name: "TopK before the vector", mutate: func(r *vector.Request) { r.TopK = 101; r.SearchVector = nums(1) }, cond: "tenant = :t", values: acme,
			want: "Provided TopK value '101' is out of valid range. The value must be between 1 and 100 inclusive"},
		{name: "values without expression", values: acme, want: "ExpressionAttributeValues can only be specified when using expressions"},
		{name: "names without expression", names: map[string]string{"#t": "tenant"}, want: "ExpressionAttributeNames can only be specified when using expressions"},
		{name: "names with only a projection", mutate: func(r *vector.Request) { r.HasProjection = true }, names: map[string]string{"#t": "title"},
			want: "SearchConditionExpression must be provided when SearchSchema has a HASH key"},
		{name: "empty values", cond: "tenant = :t", values: vector.Item{}, want: "ExpressionAttributeValues must not be empty"},
		{name: "undefined value", cond: "tenant = :x", values: acme,
			want: "Invalid SearchConditionExpression: An expression attribute value used in expression is not defined; attribute value: :x"},
		{name: "undefined name", cond: "#t = :t", names: map[string]string{"#u": "tenant"}, values: acme,
			want: "Invalid SearchConditionExpression: An expression attribute name used in the document path is not defined; attribute name: #t"},
		{name: "comparator", cond: "tenant = :t AND category > :t", values: acme,
			want: "Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression"},
		{name: "OR", cond: "tenant = :t OR category = :t", values: acme,
			want: "Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression"},
		{name: "NOT", cond: "NOT tenant = :t", values: acme,
			want: "Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression"},
		{name: "IN", cond: "tenant IN (:t)", values: acme,
			want: "Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression"},
		{name: "BETWEEN", cond: "tenant BETWEEN :t AND :t", values: acme,
			want: "Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression"},
		{name: "function", cond: "begins_with(tenant, :t)", values: acme,
			want: "Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression"},
		{name: "two paths", cond: "tenant = category",
			want: "Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression"},
		{name: "syntax error", cond: "tenant =", values: acme, want: `Invalid SearchConditionExpression: Syntax error; token: "<EOF>", near: "="`},
		{name: "TopK before syntax", mutate: func(r *vector.Request) { r.TopK = 200 }, cond: "tenant =", values: acme,
			want: "Provided TopK value '200' is out of valid range. The value must be between 1 and 100 inclusive"},
		{name: "syntax before undefined values", cond: "tenant = :x AND", values: acme, want: `Invalid SearchConditionExpression: Syntax error; token: "<EOF>", near: "AND"`},
		{name: "element not a number", mutate: func(r *vector.Request) { r.SearchVector = []types.AttributeValue{n("1"), s("0"), n("0")} }, cond: "tenant = :t", values: acme,
			want: "Search vector contains invalid values. All values in the search vector must be a 32-bit floating-point number attribute"},
		{name: "wrapped in L", mutate: func(r *vector.Request) { r.SearchVector = []types.AttributeValue{vec(1, 0, 0)} }, cond: "tenant = :t", values: acme,
			want: "Search vector contains invalid values. All values in the search vector must be a 32-bit floating-point number attribute"},
		{name: "beyond float32", mutate: func(r *vector.Request) { r.SearchVector = nums(1, 0, 0); r.SearchVector[2] = n("-1e39") }, cond: "tenant = :t", values: acme,
			want: "Search vector contains invalid values. All values in the search vector must be a 32-bit floating-point number attribute"},
		{name: "elements before dimensions", mutate: func(r *vector.Request) { r.SearchVector = []types.AttributeValue{s("x")} }, cond: "tenant = :t", values: acme,
			want: "Search vector contains invalid values. All values in the search vector must be a 32-bit floating-point number attribute"},
		{name: "dimensions", mutate: func(r *vector.Request) { r.SearchVector = nums(1, 0) }, cond: "tenant = :t", values: acme,
			want: "Input search vector dimension 2 does not match vector index dimension 3"},
		{name: "not in schema", cond: "tenant = :t AND title = :t", values: acme,
			want: "SearchConditionExpression must not contain any attributes that is not in SearchSchema. Invalid attribute: title"},
		{name: "not in schema via name", cond: "#x = :t", names: map[string]string{"#x": "owner"}, values: acme,
			want: "SearchConditionExpression must not contain any attributes that is not in SearchSchema. Invalid attribute: owner"},
		{name: "membership before nesting", cond: "tenant.x = :t AND title = :t", values: acme,
			want: "SearchConditionExpression must not contain any attributes that is not in SearchSchema. Invalid attribute: title"},
		{name: "nested", cond: "tenant = :t AND category.x = :t", values: acme,
			want: "Invalid SearchConditionExpression: SearchConditionExpression cannot have conditions on nested attributes"},
		{name: "list index", cond: "tenant = :t AND category[0] = :t", values: acme,
			want: "Invalid SearchConditionExpression: SearchConditionExpression cannot have conditions on nested attributes"},
		{name: "two conditions on one attribute", cond: "tenant = :t AND #t = :t", names: map[string]string{"#t": "tenant"}, values: acme,
			want: "Invalid SearchConditionExpression: SearchConditionExpression must only contain one condition per attribute"},
		{name: "no condition", want: "SearchConditionExpression must be provided when SearchSchema has a HASH key"},
		{name: "condition without HASH", cond: "category = :t", values: acme,
			want: "SearchConditionExpression must be provided when SearchSchema has a HASH key"},
		{name: "HASH type", cond: "tenant = :t", values: vector.Item{":t": n("1")},
			want: "Type of 'tenant' attribute in SearchConditionExpression (N) does not match type in search schema (S)"},
		{name: "empty HASH", cond: "tenant = :t", values: vector.Item{":t": s("")},
			want: "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: tenant"},
		{name: "filter type mismatch is no error", cond: "tenant = :t AND category = :n", values: vector.Item{":t": s("acme"), ":n": n("1")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := request(t, c.cond, c.names, c.values)
			if c.mutate != nil {
				c.mutate(r)
			}
			_, err := validate(ix, r)
			wantErr(t, err, c.want)
		})
	}
}

func TestPreparedQuerySearches(t *testing.T) {
	ix := schemaIndex(t)
	ix.Upsert("a", vector.Item{"pk": s("a"), "tenant": s("acme"), "category": s("shoes"), "embedding": vec(1, 0, 0)})
	ix.Upsert("b", vector.Item{"pk": s("b"), "tenant": s("acme"), "category": s("hats"), "embedding": vec(1, 1, 0)})
	ix.Upsert("c", vector.Item{"pk": s("c"), "tenant": s("other"), "category": s("hats"), "embedding": vec(1, 1, 0)})
	for cond, want := range map[string][]string{
		"tenant = :t":                   {"b", "a"},
		"tenant = :t AND category = :c": {"b"},
		":c = category AND :t = tenant": {"b"},
	} {
		r := request(t, cond, nil, vector.Item{":t": s("acme"), ":c": s("hats")})
		r.SearchVector = nums(0, 1, 0)
		if cond == "tenant = :t" {
			r.Values = vector.Item{":t": s("acme")}
		}
		q, err := validate(ix, r)
		if err != nil {
			t.Fatal(err)
		}
		res, err := ix.Search(q)
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, h := range res.Hits {
			keys = append(keys, h.Key)
		}
		if len(keys) != len(want) || keys[0] != want[0] || (len(want) > 1 && keys[1] != want[1]) {
			t.Errorf("%s: hits %v, want %v", cond, keys, want)
		}
		if err := r.CheckUnused(); err != nil {
			t.Errorf("%s: %v", cond, err)
		}
	}
}

func TestCheckUnused(t *testing.T) {
	r := request(t, "#t = :t", map[string]string{"#t": "tenant", "#p": "title", "#z": "x", "#a": "y"}, vector.Item{":t": s("acme"), ":u": s("x")})
	wantErr(t, r.CheckUnused("#p"), "Value provided in ExpressionAttributeNames unused in expressions: keys: {#a, #z}")
	r.Names = map[string]string{"#t": "tenant"}
	wantErr(t, r.CheckUnused(), "Value provided in ExpressionAttributeValues unused in expressions: keys: {:u}")
}

func TestNeedsVector(t *testing.T) {
	d := def(types.VectorDistanceFunctionCosine, 3)
	if !vector.NeedsVector(&d, []string{"pk", "#e"}, map[string]string{"#e": "embedding"}) {
		t.Error("#e → embedding not seen")
	}
	if vector.NeedsVector(&d, []string{"pk", "title"}, nil) {
		t.Error("vector wanted without being named")
	}
}
