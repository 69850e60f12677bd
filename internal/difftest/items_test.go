package difftest

import "testing"

const (
	k1   = `{"pk":{"S":"a"}}`
	it1  = `{"pk":{"S":"a"},"n":{"N":"1"},"s":{"S":"hello"},"l":{"L":[{"N":"1"},{"S":"x"}]},"m":{"M":{"x":{"N":"1"},"y":{"M":{"z":{"S":"deep"}}}}},"ss":{"SS":["a","b"]},"ns":{"NS":["1","2"]},"bool":{"BOOL":true},"nul":{"NULL":true},"bin":{"B":"AQID"}}`
	kr1  = `{"pk":{"S":"p"},"sk":{"N":"1"}}`
	cond = `,"ConditionExpression":`
)

var itemCases = []dcase{
	{name: "put/get-roundtrip", steps: steps(create(tH), put(it1), get(k1))},
	{name: "get/missing-item", steps: steps(create(tH), get(k1))},
	{name: "get/missing-table", steps: steps(get(k1))},
	{name: "get/projection", steps: steps(create(tH), put(it1), r("GetItem", `{"TableName":"Tbl","Key":`+k1+`,"ProjectionExpression":"m.y.z, l[1], ss, nope"}`))},
	{name: "get/projection-overlap", steps: steps(create(tH), r("GetItem", `{"TableName":"Tbl","Key":`+k1+`,"ProjectionExpression":"m, m.x"}`))},
	{name: "get/projection-reserved", steps: steps(create(tH), r("GetItem", `{"TableName":"Tbl","Key":`+k1+`,"ProjectionExpression":"name"}`))},
	{name: "get/projection-unused-name", steps: steps(create(tH), r("GetItem", `{"TableName":"Tbl","Key":`+k1+`,"ProjectionExpression":"n","ExpressionAttributeNames":{"#x":"y"}}`))},
	{name: "get/key-missing-attr", steps: steps(create(tHR), get(`{"pk":{"S":"p"}}`))},
	{name: "get/key-extra-attr", steps: steps(create(tH), get(`{"pk":{"S":"a"},"x":{"S":"b"}}`))},
	{name: "get/key-wrong-type", steps: steps(create(tH), get(`{"pk":{"N":"1"}}`))},
	{name: "get/key-empty-string", steps: steps(create(tH), get(`{"pk":{"S":""}}`))},
	{name: "get/consumed-capacity", steps: steps(create(tH), put(it1), r("GetItem", `{"TableName":"Tbl","Key":`+k1+`,"ReturnConsumedCapacity":"TOTAL"}`), r("GetItem", `{"TableName":"Tbl","Key":`+k1+`,"ReturnConsumedCapacity":"TOTAL","ConsistentRead":true}`))},
	{name: "put/missing-key", steps: steps(create(tH), put(`{"x":{"S":"a"}}`))},
	{name: "put/key-wrong-type", steps: steps(create(tHR), put(`{"pk":{"S":"p"},"sk":{"S":"1"}}`))},
	{name: "put/empty-string-key", steps: steps(create(tH), put(`{"pk":{"S":""}}`))},
	{name: "put/empty-binary-range-key", steps: steps(createWith(ksHR+`,"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"B"}],`+ppr), put(`{"pk":{"S":"p"},"sk":{"B":""}}`))},
	{name: "put/empty-values-non-key", steps: steps(create(tH), put(`{"pk":{"S":"a"},"s":{"S":""},"b":{"B":""},"l":{"L":[]},"m":{"M":{}}}`), get(k1))},
	{name: "put/empty-string-set", steps: steps(create(tH), put(`{"pk":{"S":"a"},"ss":{"SS":[]}}`))},
	{name: "put/empty-string-in-set", steps: steps(create(tH), put(`{"pk":{"S":"a"},"ss":{"SS":[""]}}`))},
	{name: "put/duplicate-in-set", steps: steps(create(tH), put(`{"pk":{"S":"a"},"ss":{"SS":["x","x"]}}`))},
	{name: "put/duplicate-numbers-in-set", steps: steps(create(tH), put(`{"pk":{"S":"a"},"ns":{"NS":["1","1.0"]}}`))},
	{name: "put/null-false", steps: steps(create(tH), put(`{"pk":{"S":"a"},"x":{"NULL":false}}`))},
	{name: "put/two-types-in-value", steps: steps(create(tH), put(`{"pk":{"S":"a"},"x":{"S":"a","N":"1"}}`))},
	{name: "put/empty-value", steps: steps(create(tH), put(`{"pk":{"S":"a"},"x":{}}`))},
	{name: "put/return-all-old", steps: steps(create(tH), put(it1), r("PutItem", `{"TableName":"Tbl","Item":{"pk":{"S":"a"}},"ReturnValues":"ALL_OLD"}`), r("PutItem", `{"TableName":"Tbl","Item":{"pk":{"S":"b"}},"ReturnValues":"ALL_OLD"}`))},
	{name: "put/return-all-new-invalid", steps: steps(create(tH), r("PutItem", `{"TableName":"Tbl","Item":{"pk":{"S":"a"}},"ReturnValues":"ALL_NEW"}`))},
	{name: "put/return-updated-old-invalid", steps: steps(create(tH), r("PutItem", `{"TableName":"Tbl","Item":{"pk":{"S":"a"}},"ReturnValues":"UPDATED_OLD"}`))},
	{name: "put/return-bogus", steps: steps(create(tH), r("PutItem", `{"TableName":"Tbl","Item":{"pk":{"S":"a"}},"ReturnValues":"EVERYTHING"}`))},
	{name: "put/cond-not-exists", steps: steps(create(tH),
		r("PutItem", `{"TableName":"Tbl","Item":{"pk":{"S":"a"}}`+cond+`"attribute_not_exists(pk)"}`),
		r("PutItem", `{"TableName":"Tbl","Item":{"pk":{"S":"a"}}`+cond+`"attribute_not_exists(pk)"}`))},
	{name: "put/cond-fail-return-old", steps: steps(create(tH), put(it1),
		r("PutItem", `{"TableName":"Tbl","Item":{"pk":{"S":"a"}}`+cond+`"attribute_not_exists(pk)","ReturnValuesOnConditionCheckFailure":"ALL_OLD"}`))},
	{name: "put/cond-functions", steps: steps(create(tH), put(it1),
		r("PutItem", `{"TableName":"Tbl","Item":`+it1+cond+`"begins_with(s, :h) AND contains(l, :one) AND size(ss) = :two AND attribute_type(m, :M) AND n BETWEEN :zero AND :two AND n IN (:one, :two) AND contains(s, :ell)","ExpressionAttributeValues":{":h":{"S":"he"},":one":{"N":"1"},":two":{"N":"2"},":M":{"S":"M"},":zero":{"N":"0"},":ell":{"S":"ll"}}}`))},
	{name: "put/cond-type-mismatch-false", steps: steps(create(tH), put(it1),
		r("PutItem", `{"TableName":"Tbl","Item":{"pk":{"S":"a"}}`+cond+`"n < :s","ExpressionAttributeValues":{":s":{"S":"5"}}}`))},
	{name: "put/cond-nested-path", steps: steps(create(tH), put(it1),
		r("PutItem", `{"TableName":"Tbl","Item":{"pk":{"S":"a"}}`+cond+`"m.y.z = :d AND l[0] = :one","ExpressionAttributeValues":{":d":{"S":"deep"},":one":{"N":"1"}}}`))},
	{name: "put/cond-undefined-value", steps: steps(create(tH), r("PutItem", `{"TableName":"Tbl","Item":{"pk":{"S":"a"}}`+cond+`"n = :missing"}`))},
	{name: "put/cond-undefined-name", steps: steps(create(tH), r("PutItem", `{"TableName":"Tbl","Item":{"pk":{"S":"a"}}`+cond+`"#missing = :v","ExpressionAttributeValues":{":v":{"N":"1"}}}`))},
	{name: "put/cond-unused-value", steps: steps(create(tH), r("PutItem", `{"TableName":"Tbl","Item":{"pk":{"S":"a"}}`+cond+`"attribute_not_exists(pk)","ExpressionAttributeValues":{":v":{"N":"1"}}}`))},
	{name: "put/cond-unused-name", steps: steps(create(tH), r("PutItem", `{"TableName":"Tbl","Item":{"pk":{"S":"a"}}`+cond+`"attribute_not_exists(pk)","ExpressionAttributeNames":{"#n":"n"}}`))},
	{name: "put/unused-values-no-expression", steps: steps(create(tH), r("PutItem", `{"TableName":"Tbl","Item":{"pk":{"S":"a"}},"ExpressionAttributeValues":{":v":{"N":"1"}}}`))},
	{name: "put/empty-values-map", steps: steps(create(tH), r("PutItem", `{"TableName":"Tbl","Item":{"pk":{"S":"a"}}`+cond+`"attribute_not_exists(pk)","ExpressionAttributeValues":{}}`))},
	{name: "put/empty-condition", steps: steps(create(tH), r("PutItem", `{"TableName":"Tbl","Item":{"pk":{"S":"a"}}`+cond+`""}`))},
	{name: "put/cond-reserved-word", steps: steps(create(tH), r("PutItem", `{"TableName":"Tbl","Item":{"pk":{"S":"a"}}`+cond+`"attribute_not_exists(status)"}`))},
	{name: "put/cond-syntax-error", steps: steps(create(tH), r("PutItem", `{"TableName":"Tbl","Item":{"pk":{"S":"a"}}`+cond+`"n = = :v","ExpressionAttributeValues":{":v":{"N":"1"}}}`))},
	{name: "put/cond-unknown-function", steps: steps(create(tH), r("PutItem", `{"TableName":"Tbl","Item":{"pk":{"S":"a"}}`+cond+`"exists(n)"}`))},
	{name: "put/cond-bad-attribute-type-arg", steps: steps(create(tH), r("PutItem", `{"TableName":"Tbl","Item":{"pk":{"S":"a"}}`+cond+`"attribute_type(n, :t)","ExpressionAttributeValues":{":t":{"S":"X"}}}`))},
	{name: "put/cond-value-value-compare", steps: steps(create(tH), r("PutItem", `{"TableName":"Tbl","Item":{"pk":{"S":"a"}}`+cond+`":a = :a","ExpressionAttributeValues":{":a":{"N":"1"}}}`))},
	{name: "put/expected-and-condition", steps: steps(create(tH), r("PutItem", `{"TableName":"Tbl","Item":{"pk":{"S":"a"}}`+cond+`"attribute_not_exists(pk)","Expected":{"pk":{"Exists":false}}}`))},
	{name: "put/legacy-expected", steps: steps(create(tH), put(it1), r("PutItem", `{"TableName":"Tbl","Item":{"pk":{"S":"a"}},"Expected":{"n":{"Value":{"N":"2"}}}}`))},
	{name: "put/consumed-capacity", steps: steps(create(tH), r("PutItem", `{"TableName":"Tbl","Item":`+it1+`,"ReturnConsumedCapacity":"TOTAL"}`))},
	{name: "put/item-collection-metrics", steps: steps(create(tHR), r("PutItem", `{"TableName":"Tbl","Item":`+kr1+`,"ReturnItemCollectionMetrics":"SIZE"}`))},
	{name: "delete/return-all-old", steps: steps(create(tH), put(it1), r("DeleteItem", `{"TableName":"Tbl","Key":`+k1+`,"ReturnValues":"ALL_OLD"}`), r("DeleteItem", `{"TableName":"Tbl","Key":`+k1+`,"ReturnValues":"ALL_OLD"}`))},
	{name: "delete/return-all-new-invalid", steps: steps(create(tH), r("DeleteItem", `{"TableName":"Tbl","Key":`+k1+`,"ReturnValues":"ALL_NEW"}`))},
	{name: "delete/cond-fail", steps: steps(create(tH), put(it1), r("DeleteItem", `{"TableName":"Tbl","Key":`+k1+cond+`"n > :v","ExpressionAttributeValues":{":v":{"N":"5"}},"ReturnValuesOnConditionCheckFailure":"ALL_OLD"}`), get(k1))},
	{name: "delete/cond-on-missing", steps: steps(create(tH), r("DeleteItem", `{"TableName":"Tbl","Key":`+k1+cond+`"attribute_exists(pk)"}`))},
	{name: "delete/key-missing-range", steps: steps(create(tHR), r("DeleteItem", `{"TableName":"Tbl","Key":{"pk":{"S":"p"}}}`))},
}

func TestDiffItems(t *testing.T) { run(t, itemCases) }
