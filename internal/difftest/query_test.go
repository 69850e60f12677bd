package difftest

import (
	"fmt"
	"testing"
)

const pv = `"ExpressionAttributeValues":{":p":{"S":"p"}}`

// idxItems seeds tIdx: 4 items in partition p, with GSI and LSI attributes on some.
var idxItems = []req{
	put(`{"pk":{"S":"p"},"sk":{"S":"a"},"gpk":{"S":"g"},"gsk":{"N":"3"},"lsk":{"S":"z"},"a":{"N":"1"},"b":{"S":"x"}}`),
	put(`{"pk":{"S":"p"},"sk":{"S":"b"},"gpk":{"S":"g"},"gsk":{"N":"1"},"lsk":{"S":"y"},"a":{"N":"2"}}`),
	put(`{"pk":{"S":"p"},"sk":{"S":"c"},"gpk":{"S":"g"},"gsk":{"N":"2"},"b":{"S":"y"}}`),
	put(`{"pk":{"S":"q"},"sk":{"S":"a"},"gpk":{"S":"h"},"gsk":{"N":"-1"}}`),
}

var queryCases = []dcase{
	{name: "query/eq", steps: steps(create(tHR), seedItems(5), query(`"KeyConditionExpression":"pk = :p",`+pv))},
	{name: "query/between", steps: steps(create(tHR), seedItems(5), query(`"KeyConditionExpression":"pk = :p AND sk BETWEEN :a AND :b","ExpressionAttributeValues":{":p":{"S":"p"},":a":{"N":"2"},":b":{"N":"4"}}`))},
	{name: "query/lt-desc", steps: steps(create(tHR), seedItems(5), query(`"KeyConditionExpression":"pk = :p AND sk < :a","ScanIndexForward":false,"ExpressionAttributeValues":{":p":{"S":"p"},":a":{"N":"4"}}`))},
	{name: "query/begins-with-on-number", steps: steps(create(tHR), query(`"KeyConditionExpression":"pk = :p AND begins_with(sk, :a)","ExpressionAttributeValues":{":p":{"S":"p"},":a":{"N":"4"}}`))},
	{name: "query/begins-with-string", steps: steps(create(tIdx), idxItems, query(`"KeyConditionExpression":"pk = :p AND begins_with(sk, :a)","ExpressionAttributeValues":{":p":{"S":"p"},":a":{"S":"b"}}`))},
	{name: "query/limit-paginate", steps: steps(create(tHR), seedItems(5), query(`"KeyConditionExpression":"pk = :p","Limit":2,`+pv),
		query(`"KeyConditionExpression":"pk = :p","Limit":2,"ExclusiveStartKey":{"pk":{"S":"p"},"sk":{"N":"2"}},`+pv),
		query(`"KeyConditionExpression":"pk = :p","Limit":5,`+pv))},
	{name: "query/limit-zero", steps: steps(create(tHR), query(`"KeyConditionExpression":"pk = :p","Limit":0,`+pv))},
	{name: "query/filter-limit", steps: steps(create(tHR), seedItems(5), query(`"KeyConditionExpression":"pk = :p","FilterExpression":"a > :two","Limit":3,"ExpressionAttributeValues":{":p":{"S":"p"},":two":{"N":"2"}}`))},
	{name: "query/filter-on-key", steps: steps(create(tHR), query(`"KeyConditionExpression":"pk = :p","FilterExpression":"sk > :two","ExpressionAttributeValues":{":p":{"S":"p"},":two":{"N":"2"}}`))},
	{name: "query/no-key-condition", steps: steps(create(tHR), query(`"FilterExpression":"a > :two","ExpressionAttributeValues":{":two":{"N":"2"}}`))},
	{name: "query/non-key-condition", steps: steps(create(tHR), query(`"KeyConditionExpression":"a = :p",`+pv))},
	{name: "query/or-condition", steps: steps(create(tHR), query(`"KeyConditionExpression":"pk = :p OR sk = :p",`+pv))},
	{name: "query/range-only", steps: steps(create(tHR), query(`"KeyConditionExpression":"sk = :p","ExpressionAttributeValues":{":p":{"N":"1"}}`))},
	{name: "query/hash-lt", steps: steps(create(tHR), query(`"KeyConditionExpression":"pk < :p",`+pv))},
	{name: "query/hash-type-mismatch", steps: steps(create(tHR), query(`"KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"N":"1"}}`))},
	{name: "query/ne-on-range", steps: steps(create(tHR), query(`"KeyConditionExpression":"pk = :p AND sk <> :a","ExpressionAttributeValues":{":p":{"S":"p"},":a":{"N":"1"}}`))},
	{name: "query/projection", steps: steps(create(tHR), seedItems(3), query(`"KeyConditionExpression":"pk = :p","ProjectionExpression":"b, sk",`+pv))},
	{name: "query/select-count", steps: steps(create(tHR), seedItems(4), query(`"KeyConditionExpression":"pk = :p","Select":"COUNT",`+pv))},
	{name: "query/select-count-with-projection", steps: steps(create(tHR), query(`"KeyConditionExpression":"pk = :p","Select":"COUNT","ProjectionExpression":"a",`+pv))},
	{name: "query/select-specific-no-projection", steps: steps(create(tHR), query(`"KeyConditionExpression":"pk = :p","Select":"SPECIFIC_ATTRIBUTES",`+pv))},
	{name: "query/select-all-projected-base", steps: steps(create(tHR), query(`"KeyConditionExpression":"pk = :p","Select":"ALL_PROJECTED_ATTRIBUTES",`+pv))},
	{name: "query/select-all-with-projection", steps: steps(create(tHR), query(`"KeyConditionExpression":"pk = :p","Select":"ALL_ATTRIBUTES","ProjectionExpression":"a",`+pv))},
	{name: "query/consumed-capacity", steps: steps(create(tHR), seedItems(3), query(`"KeyConditionExpression":"pk = :p","ReturnConsumedCapacity":"TOTAL",`+pv))},
	{name: "query/exclusive-start-bad-key", steps: steps(create(tHR), seedItems(2), query(`"KeyConditionExpression":"pk = :p","ExclusiveStartKey":{"pk":{"S":"p"}},`+pv))},
	{name: "query/exclusive-start-other-partition", steps: steps(create(tHR), seedItems(2), query(`"KeyConditionExpression":"pk = :p","ExclusiveStartKey":{"pk":{"S":"z"},"sk":{"N":"1"}},`+pv))},
	{name: "query/gsi", steps: steps(create(tIdx), idxItems, query(`"IndexName":"gsi","KeyConditionExpression":"gpk = :g AND gsk >= :n","ExpressionAttributeValues":{":g":{"S":"g"},":n":{"N":"2"}}`))},
	{name: "query/gsi-paginate", steps: steps(create(tIdx), idxItems, query(`"IndexName":"gsi","KeyConditionExpression":"gpk = :g","Limit":1,"ExpressionAttributeValues":{":g":{"S":"g"}}`),
		query(`"IndexName":"gsi","KeyConditionExpression":"gpk = :g","Limit":1,"ExclusiveStartKey":{"pk":{"S":"p"},"sk":{"S":"b"},"gpk":{"S":"g"},"gsk":{"N":"1"}},"ExpressionAttributeValues":{":g":{"S":"g"}}`))},
	{name: "query/gsi-consistent-read", steps: steps(create(tIdx), query(`"IndexName":"gsi","ConsistentRead":true,"KeyConditionExpression":"gpk = :g","ExpressionAttributeValues":{":g":{"S":"g"}}`))},
	{name: "query/gsi-keys-only", unordered: true, steps: steps(create(tIdx), idxItems, query(`"IndexName":"gkeys","KeyConditionExpression":"gpk = :g","ExpressionAttributeValues":{":g":{"S":"g"}}`))},
	{name: "query/gsi-keys-only-select-all", steps: steps(create(tIdx), query(`"IndexName":"gkeys","Select":"ALL_ATTRIBUTES","KeyConditionExpression":"gpk = :g","ExpressionAttributeValues":{":g":{"S":"g"}}`))},
	{name: "query/gsi-include-project-other", steps: steps(create(tIdx), idxItems, query(`"IndexName":"ginc","ProjectionExpression":"a, b","KeyConditionExpression":"gpk = :g","ExpressionAttributeValues":{":g":{"S":"g"}}`))},
	{name: "query/lsi", steps: steps(create(tIdx), idxItems, query(`"IndexName":"lsi","KeyConditionExpression":"pk = :p",`+pv))},
	{name: "query/lsi-fetch-all", steps: steps(create(tIdx), idxItems, query(`"IndexName":"lsi","Select":"ALL_ATTRIBUTES","KeyConditionExpression":"pk = :p AND lsk > :y","ExpressionAttributeValues":{":p":{"S":"p"},":y":{"S":"x"}}`))},
	{name: "query/missing-index", steps: steps(create(tIdx), query(`"IndexName":"nope","KeyConditionExpression":"pk = :p",`+pv))},
	{name: "query/index-wrong-key", steps: steps(create(tIdx), query(`"IndexName":"gsi","KeyConditionExpression":"pk = :p",`+pv))},
	{name: "query/key-cond-unused-value", steps: steps(create(tHR), query(`"KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"p"},":x":{"S":"x"}}`))},
	{name: "query/key-cond-syntax", steps: steps(create(tHR), query(`"KeyConditionExpression":"pk = ",`+pv))},
	{name: "query/key-cond-twice", steps: steps(create(tHR), query(`"KeyConditionExpression":"pk = :p AND pk = :p",`+pv))},
	{name: "query/missing-table", steps: steps(query(`"KeyConditionExpression":"pk = :p",` + pv))},
	{name: "scan/all", steps: steps(create(tIdx), idxItems, scan(""))},
	{name: "scan/filter-projection", steps: steps(create(tIdx), idxItems, scan(`"FilterExpression":"attribute_exists(b) AND a <> :one","ProjectionExpression":"pk, sk, b","ExpressionAttributeValues":{":one":{"N":"1"}}`))},
	{name: "scan/limit-paginate-single-partition", steps: steps(create(tHR), seedItems(5), scan(`"Limit":2`), scan(`"Limit":2,"ExclusiveStartKey":{"pk":{"S":"p"},"sk":{"N":"2"}}`), scan(`"Limit":3,"ExclusiveStartKey":{"pk":{"S":"p"},"sk":{"N":"4"}}`))},
	{name: "scan/select-count-filter", steps: steps(create(tHR), seedItems(5), scan(`"Select":"COUNT","FilterExpression":"a >= :n","ExpressionAttributeValues":{":n":{"N":"3"}}`))},
	{name: "scan/segments", steps: steps(create(tHR), seedItems(3), scan(`"Segment":0,"TotalSegments":1`))},
	{name: "scan/segment-out-of-range", steps: steps(create(tHR), scan(`"Segment":2,"TotalSegments":2`))},
	{name: "scan/segment-without-total", steps: steps(create(tHR), scan(`"Segment":0`))},
	{name: "scan/total-segments-too-big", steps: steps(create(tHR), scan(`"Segment":0,"TotalSegments":1000001`))},
	{name: "scan/gsi", steps: steps(create(tIdx), idxItems, scan(`"IndexName":"gsi"`))},
	{name: "scan/gsi-consistent", steps: steps(create(tIdx), scan(`"IndexName":"gsi","ConsistentRead":true`))},
	{name: "scan/filter-syntax", steps: steps(create(tHR), scan(`"FilterExpression":"a >"`))},
	{name: "scan/filter-size-contains", steps: steps(create(tH), put(it1), scan(`"FilterExpression":"size(l) = :two AND contains(ss, :a) AND NOT attribute_type(n, :s)","ExpressionAttributeValues":{":two":{"N":"2"},":a":{"S":"a"},":s":{"S":"S"}}`))},
	{name: "scan/limit-negative", steps: steps(create(tHR), scan(`"Limit":-1`))},
	{name: "scan/number-order", steps: steps(create(tHR), numberSortItems(), query(`"KeyConditionExpression":"pk = :p",`+pv))},
}

func numberSortItems() []req {
	var out []req
	for _, n := range []string{"-1E+10", "-2.5", "-0.001", "0", "0.0001", "1", "10", "9.99", "1E+2", "100.5"} {
		out = append(out, put(fmt.Sprintf(`{"pk":{"S":"p"},"sk":{"N":%q}}`, n)))
	}
	return out
}

func TestDiffQuery(t *testing.T) { run(t, queryCases) }
