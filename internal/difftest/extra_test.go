package difftest

import (
	"strings"
	"testing"
)

// getP is a GetItem of k1 with ProjectionExpression p and extra members.
func getP(p, extra string) req {
	return r("GetItem", `{"TableName":"Tbl","Key":`+k1+`,"ProjectionExpression":"`+p+`"`+extra+`}`)
}

var extraCases = []dcase{
	{name: "proj/duplicate-path", steps: steps(create(tH), put(it1), getP("n, n", ""))},
	{name: "proj/undefined-name", steps: steps(create(tH), getP("#x", ""))},
	{name: "proj/nested-missing-index", steps: steps(create(tH), put(it1), getP("l[5], m.nope.x, s[0]", ""))},
	{name: "proj/overlap-list-index", steps: steps(create(tH), getP("l[0], l", ""))},
	{name: "proj/sibling-list-indexes", steps: steps(create(tH), put(it1), getP("l[1], l[0]", ""))},
	{name: "proj/deep-list-map", steps: steps(create(tH), put(`{"pk":{"S":"a"},"a":{"L":[{"M":{"b":{"N":"1"},"c":{"N":"2"}}},{"M":{"b":{"N":"3"}}}]}}`), getP("a[1].b, a[0].c", ""))},
	{name: "proj/syntax-error", steps: steps(create(tH), getP("a,,b", ""))},
	{name: "proj/empty", steps: steps(create(tH), getP("", ""))},
	{name: "proj/too-long", steps: steps(create(tH), getP("a"+strings.Repeat(", a", 1400), ""))},
	{name: "proj/with-attributes-to-get", steps: steps(create(tH), getP("a", `,"AttributesToGet":["a"]`))},
	{name: "proj/attributes-to-get-legacy", steps: steps(create(tH), put(it1), r("GetItem", `{"TableName":"Tbl","Key":`+k1+`,"AttributesToGet":["s","n","nope"]}`))},
	{name: "proj/attributes-to-get-duplicate", steps: steps(create(tH), r("GetItem", `{"TableName":"Tbl","Key":`+k1+`,"AttributesToGet":["s","s"]}`))},
	{name: "proj/value-placeholder", steps: steps(create(tH), getP(":v", `,"ExpressionAttributeValues":{":v":{"S":"x"}}`))},
	{name: "rvcf/update-missing-item", steps: steps(create(tH), upd(k1, "SET a = :one", vals(one)+cond+`"attribute_exists(pk)","ReturnValuesOnConditionCheckFailure":"ALL_OLD"`))},
	{name: "rvcf/delete-fail", steps: steps(create(tH), put(it1), r("DeleteItem", `{"TableName":"Tbl","Key":`+k1+`,"ConditionExpression":"attribute_not_exists(pk)","ReturnValuesOnConditionCheckFailure":"ALL_OLD"}`))},
	{name: "rvcf/bad-value", steps: steps(create(tH), r("PutItem", `{"TableName":"Tbl","Item":{"pk":{"S":"a"}},"ReturnValuesOnConditionCheckFailure":"ALL_NEW"}`))},
	{name: "rv/update-updated-old-new-attr", steps: steps(create(tH), put(it1), upd(k1, "SET fresh = :one", vals(one)+rvUOld))},
	{name: "rv/update-remove-updated-new", steps: steps(create(tH), put(it1), upd(k1, "REMOVE s", rvUNew))},
	{name: "rv/update-none-explicit", steps: steps(create(tH), upd(k1, "SET a = :one", vals(one)+`,"ReturnValues":"NONE"`))},
	{name: "rv/consumed-update-delete", steps: steps(create(tH), upd(k1, "SET a = :one", vals(one)+`,"ReturnConsumedCapacity":"TOTAL"`), r("DeleteItem", `{"TableName":"Tbl","Key":`+k1+`,"ReturnConsumedCapacity":"TOTAL"}`))},
	{name: "rv/consumed-bad-value", steps: steps(create(tH), r("GetItem", `{"TableName":"Tbl","Key":`+k1+`,"ReturnConsumedCapacity":"ALL"}`))},
	{name: "cond2/legacy-expected-exists-false", steps: steps(create(tH), put(it1), r("PutItem", `{"TableName":"Tbl","Item":{"pk":{"S":"a"}},"Expected":{"pk":{"Exists":false}}}`))},
	{name: "cond2/legacy-expected-operator", steps: steps(create(tH), put(it1), r("DeleteItem", `{"TableName":"Tbl","Key":`+k1+`,"Expected":{"n":{"ComparisonOperator":"GT","AttributeValueList":[{"N":"0"}]}},"ReturnValues":"ALL_OLD"}`))},
	{name: "cond2/function-as-operand", steps: steps(create(tH), condPut("size(s) = size(l)", ""))},
	{name: "cond2/nested-function", steps: steps(create(tH), condPut("attribute_exists(size(s))", ""))},
	{name: "cond2/reserved-function-name-attr", steps: steps(create(tH), condPut("attribute_not_exists(size)", ""))},
	{name: "cond2/keyword-case", steps: steps(create(tH), condPut("attribute_not_exists(pk) and not attribute_exists(x) or pk between :a and :b", vals(`{":a":{"S":"a"},":b":{"S":"b"}}`)))},
	{name: "cond2/in-single", steps: steps(create(tH), put(it1), condPut("n IN (:one)", vals(one)))},
	{name: "cond2/between-strings", steps: steps(create(tH), put(it1), condPut("s BETWEEN :a AND :z", vals(`{":a":{"S":"a"},":z":{"S":"z"}}`)))},
	{name: "cond2/contains-string-set-number", steps: steps(create(tH), put(it1), condPut("contains(ns, :one) AND contains(ss, :a)", vals(`{":one":{"N":"1.0"},":a":{"S":"a"}}`)))},
	{name: "scan3/select-specific", steps: steps(create(tH), put(it1), scan(`"Select":"SPECIFIC_ATTRIBUTES","ProjectionExpression":"s"`))},
	{name: "scan3/select-bad", steps: steps(create(tH), scan(`"Select":"EVERYTHING"`))},
	{name: "scan3/filter-unused-value", steps: steps(create(tH), scan(`"FilterExpression":"attribute_exists(a)","ExpressionAttributeValues":{":x":{"S":"x"}}`))},
	{name: "scan3/index-missing", steps: steps(create(tH), scan(`"IndexName":"nope"`))},
	{name: "scan3/lsi-all-attributes", steps: steps(create(tIdx), idxItems, scan(`"IndexName":"lsi","Select":"ALL_ATTRIBUTES"`))},
	{name: "query3/gsi-select-all-projected", steps: steps(create(tIdx), idxItems, query(`"IndexName":"ginc","Select":"ALL_PROJECTED_ATTRIBUTES","KeyConditionExpression":"gpk = :g","ExpressionAttributeValues":{":g":{"S":"g"}}`)), unordered: true},
	{name: "query3/gsi-filter-non-projected", steps: steps(create(tIdx), idxItems, query(`"IndexName":"gkeys","FilterExpression":"a > :z","KeyConditionExpression":"gpk = :g","ExpressionAttributeValues":{":g":{"S":"g"},":z":{"N":"0"}}`)), unordered: true},
	{name: "query3/key-value-wrong-type-sort", steps: steps(create(tHR), query(`"KeyConditionExpression":"pk = :p AND sk > :s","ExpressionAttributeValues":{":p":{"S":"p"},":s":{"S":"x"}}`))},
	{name: "query3/key-condition-function-on-hash", steps: steps(create(tHR), query(`"KeyConditionExpression":"attribute_exists(pk)"`))},
	{name: "query3/key-condition-parens", steps: steps(create(tHR), seedItems(2), query(`"KeyConditionExpression":"(pk = :p) AND (sk > :s)","ExpressionAttributeValues":{":p":{"S":"p"},":s":{"N":"1"}}`))},
	{name: "query3/key-condition-reversed-operands", steps: steps(create(tHR), seedItems(2), query(`"KeyConditionExpression":":p = pk",`+pv))},
}

func TestDiffExtra(t *testing.T) { run(t, extraCases) }
