package difftest

import (
	"fmt"
	"strings"
	"testing"
)

// names wraps ExpressionAttributeNames for upd's extra members.
func names(v string) string { return `,"ExpressionAttributeNames":` + v }

// condPut is a PutItem of {"pk":"a"} under condition c with extra members.
func condPut(c, extra string) req {
	return r("PutItem", fmt.Sprintf(`{"TableName":"Tbl","Item":{"pk":{"S":"a"}},"ConditionExpression":%q%s}`, c, extra))
}

// sizedItem is an item {pk:"a", m:{M:{x:{S:..}, l:{L:[N 12345, BOOL]}}}, v:{S:<filler>}}
// whose DynamoDB size is total bytes: names count their UTF-8 length; S its
// length; N 1 byte per 2 significant digits plus 1; BOOL 1; a list or map 3
// bytes plus 1 per element (developer guide, CapacityUnitCalculations).
func sizedItem(total int) string {
	fixed := len("pk") + 1 + // pk = "a"
		len("m") + 3 + 2 + // m: map overhead, 2 elements
		len("x") + 5 + // x = "hello"
		len("l") + 3 + 2 + (1 + 3) + 1 + // l: list overhead, 2 elements, 12345 (3 digits bytes + 1), true
		len("v")
	return fmt.Sprintf(`{"pk":{"S":"a"},"m":{"M":{"x":{"S":"hello"},"l":{"L":[{"N":"12345"},{"BOOL":true}]}}},"v":{"S":"%s"}}`, strings.Repeat("z", total-fixed))
}

var moreUpdateCases = []dcase{
	{name: "update2/same-path-twice", steps: steps(create(tH), upd(k1, "SET a = :one, a = :one", vals(one)))},
	{name: "update2/overlap-via-placeholder", steps: steps(create(tH), upd(k1, "SET #a = :one, a.b = :one", names(`{"#a":"a"}`)+vals(one)))},
	{name: "update2/remove-twice", steps: steps(create(tH), upd(k1, "REMOVE a, a", ""))},
	{name: "update2/add-delete-same", steps: steps(create(tH), upd(k1, "ADD ss :s DELETE ss :s", vals(`{":s":{"SS":["a"]}}`)))},
	{name: "update2/nested-list-index", steps: steps(create(tH), put(`{"pk":{"S":"a"},"l":{"L":[{"L":[{"N":"0"},{"N":"1"}]}]}}`), upd(k1, "SET l[0][1] = :one", vals(`{":one":{"S":"x"}}`)+rvNew))},
	{name: "update2/map-in-list", steps: steps(create(tH), put(`{"pk":{"S":"a"},"a":{"M":{"b":{"L":[{"N":"0"},{"N":"1"},{"M":{"c":{"N":"2"}}}]}}}}`), upd(k1, "SET a.b[2].c = :one REMOVE a.b[0]", vals(one)+rvNew))},
	{name: "update2/copy-missing-attr", steps: steps(create(tH), put(it1), upd(k1, "SET a = nope", ""))},
	{name: "update2/copy-attr", steps: steps(create(tH), put(it1), upd(k1, "SET a = m.y, b = l[0]", rvUNew))},
	{name: "update2/if-not-exists-arity", steps: steps(create(tH), upd(k1, "SET a = if_not_exists(a)", ""))},
	{name: "update2/list-append-arity", steps: steps(create(tH), upd(k1, "SET a = list_append(:v)", vals(`{":v":{"L":[]}}`)))},
	{name: "update2/plus-string-operand", steps: steps(create(tH), upd(k1, "SET a = :v + :one", vals(`{":v":{"S":"x"},":one":{"N":"1"}}`)))},
	{name: "update2/set-null", steps: steps(create(tH), upd(k1, "SET a = :v", vals(`{":v":{"NULL":true}}`)+rvNew))},
	{name: "update2/lowercase-keywords", steps: steps(create(tH), upd(k1, "set a = :one remove b add c :one", vals(one)+rvNew))},
	{name: "update2/no-spaces", steps: steps(create(tH), upd(k1, "SET a=:one,b=:one", vals(one)+rvNew))},
	{name: "update2/hyphen-name", steps: steps(create(tH), upd(k1, "SET a-b = :one", vals(one)))},
	{name: "update2/bare-colon", steps: steps(create(tH), upd(k1, "SET a = :", ""))},
	{name: "update2/bare-hash", steps: steps(create(tH), upd(k1, "SET # = :one", vals(one)))},
	{name: "update2/huge-index", steps: steps(create(tH), put(it1), upd(k1, "SET l[99999999999] = :one", vals(one)))},
	{name: "update2/delete-empty-set-value", steps: steps(create(tH), put(it1), upd(k1, "DELETE ss :v", vals(`{":v":{"SS":[]}}`)))},
	{name: "update2/add-creates-number-set", steps: steps(create(tH), upd(k1, "ADD ns :v", vals(`{":v":{"NS":["3","1"]}}`)+rvNew))},
	{name: "update2/add-number-to-set", steps: steps(create(tH), put(it1), upd(k1, "ADD ns :one", vals(one)))},
	{name: "update2/delete-from-missing", steps: steps(create(tH), upd(k1, "DELETE ss :v", vals(`{":v":{"SS":["a"]}}`)+rvNew))},
	{name: "update2/remove-only-upsert", steps: steps(create(tH), upd(k1, "REMOVE a", rvNew), get(k1))},
	{name: "update2/no-expression-upsert", steps: steps(create(tH), r("UpdateItem", `{"TableName":"Tbl","Key":`+k1+`,"ReturnValues":"ALL_NEW"}`), get(k1))},
	{name: "update2/condition-on-updated-attr", steps: steps(create(tH), put(it1), upd(k1, "SET n = n + :one", vals(one)+cond+`"n = :one"`+rvUOld), get(k1))},
	{name: "update2/expression-too-long", steps: steps(create(tH), upd(k1, "SET a = :one"+strings.Repeat(" ", 4100), vals(one)))},
	{name: "update2/reserved-count", steps: steps(create(tH), upd(k1, "SET count = :one", vals(one)))},
	{name: "update2/reserved-in-path", steps: steps(create(tH), upd(k1, "SET a.data = :one", vals(one)))},
	{name: "update2/name-with-dot", steps: steps(create(tH), upd(k1, "SET #d = :one", names(`{"#d":"a.b"}`)+vals(one)+rvNew), r("GetItem", `{"TableName":"Tbl","Key":`+k1+`,"ProjectionExpression":"#d","ExpressionAttributeNames":{"#d":"a.b"}}`))},
	{name: "update2/set-key-empty-string", steps: steps(create(tIdx), upd(`{"pk":{"S":"p"},"sk":{"S":"a"}}`, "SET gpk = :e", vals(`{":e":{"S":""}}`)))},
	{name: "update2/set-gsi-key-wrong-type", steps: steps(create(tIdx), upd(`{"pk":{"S":"p"},"sk":{"S":"a"}}`, "SET gsk = :e", vals(`{":e":{"S":"x"}}`)))},
	{name: "update2/put-gsi-key-wrong-type", steps: steps(create(tIdx), put(`{"pk":{"S":"p"},"sk":{"S":"a"},"gsk":{"S":"x"}}`))},
	{name: "update2/arith-number-overflow", steps: steps(create(tH), put(`{"pk":{"S":"a"},"n":{"N":"9.9999999999999999999999999999999999999E+125"}}`), upd(k1, "SET n = n + :v", vals(`{":v":{"N":"1E+125"}}`)))},
	{name: "update2/add-38-digits", steps: steps(create(tH), put(`{"pk":{"S":"a"},"n":{"N":"12345678901234567890123456789012345678"}}`), upd(k1, "ADD n :one", vals(one)+rvUNew))},
	{name: "update2/subtract-to-zero", steps: steps(create(tH), put(`{"pk":{"S":"a"},"n":{"N":"1.5"}}`), upd(k1, "SET n = n - :v", vals(`{":v":{"N":"1.50"}}`)+rvUNew))},
}

var moreCondCases = []dcase{
	{name: "cond/between-reversed", steps: steps(create(tH), condPut("n BETWEEN :b AND :a", vals(`{":a":{"N":"1"},":b":{"N":"2"}}`)))},
	{name: "cond/between-mixed-types", steps: steps(create(tH), condPut("n BETWEEN :a AND :b", vals(`{":a":{"N":"1"},":b":{"S":"2"}}`)))},
	{name: "cond/in-too-many", steps: steps(create(tH), condPut("n IN ("+inList(101)+")", vals(inValues(101))))},
	{name: "cond/in-100", steps: steps(create(tH), condPut("n IN ("+inList(100)+")", vals(inValues(100))))},
	{name: "cond/not", steps: steps(create(tH), put(it1), condPut("NOT n = :one", vals(one)))},
	{name: "cond/ne-missing-true", steps: steps(create(tH), condPut("nope <> :one", vals(one)+rvOld))},
	{name: "cond/redundant-parens", steps: steps(create(tH), condPut("((attribute_not_exists(pk)))", ""))},
	{name: "cond/precedence", steps: steps(create(tH), put(it1), condPut("n = :two OR n = :one AND s = :two", vals(`{":one":{"N":"1"},":two":{"N":"2"}}`)))},
	{name: "cond/exists-on-value", steps: steps(create(tH), condPut("attribute_exists(:v)", vals(one)))},
	{name: "cond/size-missing", steps: steps(create(tH), condPut("size(nope) > :one", vals(one)))},
	{name: "cond/begins-with-number", steps: steps(create(tH), put(it1), condPut("begins_with(n, :one)", vals(one)))},
	{name: "cond/contains-same-operand", steps: steps(create(tH), condPut("contains(l, l)", ""))},
	{name: "cond/map-equality", steps: steps(create(tH), put(it1), condPut("m = :m AND l = :l", vals(`{":m":{"M":{"x":{"N":"1"},"y":{"M":{"z":{"S":"deep"}}}}},":l":{"L":[{"N":"1"},{"S":"x"}]}}`)))},
	{name: "cond/set-equality-order", steps: steps(create(tH), put(it1), condPut("ss = :s", vals(`{":s":{"SS":["b","a"]}}`)))},
	{name: "cond/number-equality-canonical", steps: steps(create(tH), put(it1), condPut("n = :v", vals(`{":v":{"N":"1.000"}}`)))},
	{name: "cond/size-of-number", steps: steps(create(tH), put(it1), condPut("size(n) = :one", vals(one)))},
	{name: "cond/attribute-type-null", steps: steps(create(tH), put(it1), condPut("attribute_type(nul, :t) AND attribute_type(bin, :b)", vals(`{":t":{"S":"NULL"},":b":{"S":"B"}}`)))},
	{name: "cond/string-compare-utf8", steps: steps(create(tH), put(`{"pk":{"S":"a"},"s":{"S":"é"}}`), condPut("s > :z", vals(`{":z":{"S":"z"}}`)))},
	{name: "cond/binary-compare", steps: steps(create(tH), put(`{"pk":{"S":"a"},"b":{"B":"/w=="}}`), condPut("b > :v", vals(`{":v":{"B":"AQ=="}}`)))},
	{name: "cond/too-long", steps: steps(create(tH), condPut("attribute_not_exists(pk)"+strings.Repeat(" ", 4100), ""))},
	{name: "cond/delete-with-condition-return", steps: steps(create(tH), put(it1), r("DeleteItem", `{"TableName":"Tbl","Key":`+k1+`,"ConditionExpression":"size(l) = :two","ExpressionAttributeValues":{":two":{"N":"2"}},"ReturnValues":"ALL_OLD"}`))},
}

func inList(n int) string {
	var s []string
	for i := 0; i < n; i++ {
		s = append(s, fmt.Sprintf(":v%d", i))
	}
	return strings.Join(s, ", ")
}

func inValues(n int) string {
	var s []string
	for i := 0; i < n; i++ {
		s = append(s, fmt.Sprintf(`":v%d":{"N":"%d"}`, i, i))
	}
	return "{" + strings.Join(s, ",") + "}"
}

var moreQueryCases = []dcase{
	{name: "query2/desc-paginate", steps: steps(create(tHR), seedItems(5), query(`"KeyConditionExpression":"pk = :p","ScanIndexForward":false,"Limit":2,`+pv),
		query(`"KeyConditionExpression":"pk = :p","ScanIndexForward":false,"Limit":2,"ExclusiveStartKey":{"pk":{"S":"p"},"sk":{"N":"4"}},`+pv))},
	{name: "query2/filter-removes-all", steps: steps(create(tHR), seedItems(3), query(`"KeyConditionExpression":"pk = :p","FilterExpression":"a > :n","ExpressionAttributeValues":{":p":{"S":"p"},":n":{"N":"10"}}`))},
	{name: "query2/limit-equals-count", steps: steps(create(tHR), seedItems(2), query(`"KeyConditionExpression":"pk = :p","Limit":2,`+pv))},
	{name: "query2/lsi-all-projected", steps: steps(create(tIdx), idxItems, query(`"IndexName":"lsi","Select":"ALL_PROJECTED_ATTRIBUTES","KeyConditionExpression":"pk = :p",`+pv))},
	{name: "query2/lsi-fetch-non-projected", steps: steps(create(tIdx), idxItems, query(`"IndexName":"lsi","ProjectionExpression":"a, b","KeyConditionExpression":"pk = :p",`+pv))},
	{name: "query2/gsi-projection", steps: steps(create(tIdx), idxItems, query(`"IndexName":"gsi","ProjectionExpression":"a, gsk","KeyConditionExpression":"gpk = :g","ExpressionAttributeValues":{":g":{"S":"g"}}`))},
	{name: "query2/name-placeholders", steps: steps(create(tHR), seedItems(3), query(`"KeyConditionExpression":"#p = :p AND #s >= :s","ExpressionAttributeNames":{"#p":"pk","#s":"sk"},"ExpressionAttributeValues":{":p":{"S":"p"},":s":{"N":"2"}}`))},
	{name: "query2/begins-with-hash", steps: steps(create(tHR), query(`"KeyConditionExpression":"begins_with(pk, :p)",`+pv))},
	{name: "query2/between-reversed", steps: steps(create(tHR), query(`"KeyConditionExpression":"pk = :p AND sk BETWEEN :b AND :a","ExpressionAttributeValues":{":p":{"S":"p"},":a":{"N":"1"},":b":{"N":"2"}}`))},
	{name: "query2/legacy-key-conditions", steps: steps(create(tHR), seedItems(3), query(`"KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"p"}]},"sk":{"ComparisonOperator":"GT","AttributeValueList":[{"N":"1"}]}}`))},
	{name: "query2/legacy-and-expression", steps: steps(create(tHR), query(`"KeyConditionExpression":"pk = :p","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"p"}]}},`+pv))},
	{name: "query2/attributes-to-get-and-projection", steps: steps(create(tHR), query(`"KeyConditionExpression":"pk = :p","AttributesToGet":["a"],"ProjectionExpression":"a",`+pv))},
	{name: "query2/sparse-gsi", steps: steps(create(tIdx), idxItems, put(`{"pk":{"S":"p"},"sk":{"S":"d"},"gpk":{"S":"g"}}`), query(`"IndexName":"gsi","KeyConditionExpression":"gpk = :g","ExpressionAttributeValues":{":g":{"S":"g"}}`))},
	{name: "query2/consumed-indexes", steps: steps(create(tIdx), idxItems, query(`"IndexName":"gsi","ReturnConsumedCapacity":"INDEXES","KeyConditionExpression":"gpk = :g","ExpressionAttributeValues":{":g":{"S":"g"}}`))},
	{name: "query2/count-on-index", steps: steps(create(tIdx), idxItems, query(`"IndexName":"gsi","Select":"COUNT","KeyConditionExpression":"gpk = :g","ExpressionAttributeValues":{":g":{"S":"g"}}`))},
	{name: "query2/number-key-canonical", steps: steps(create(tHR), seedItems(3), query(`"KeyConditionExpression":"pk = :p AND sk = :s","ExpressionAttributeValues":{":p":{"S":"p"},":s":{"N":"2.00"}}`))},
	{name: "query2/filter-on-projection-only-attr", steps: steps(create(tHR), seedItems(3), query(`"KeyConditionExpression":"pk = :p","FilterExpression":"b = :b","ProjectionExpression":"a","ExpressionAttributeValues":{":p":{"S":"p"},":b":{"S":"x2"}}`))},
	{name: "query2/capacity-big-items", steps: steps(create(tHR), put(fmt.Sprintf(`{"pk":{"S":"p"},"sk":{"N":"1"},"v":{"S":"%s"}}`, rep("x", 5000))), put(fmt.Sprintf(`{"pk":{"S":"p"},"sk":{"N":"2"},"v":{"S":"%s"}}`, rep("x", 3000))),
		query(`"KeyConditionExpression":"pk = :p","ReturnConsumedCapacity":"TOTAL",`+pv), query(`"KeyConditionExpression":"pk = :p","ConsistentRead":true,"ReturnConsumedCapacity":"TOTAL",`+pv))},
	{name: "scan2/gsi-paginate", steps: steps(create(tIdx), idxItems[:3], scan(`"IndexName":"gsi","Limit":2`), scan(`"IndexName":"gsi","Limit":2,"ExclusiveStartKey":{"pk":{"S":"p"},"sk":{"S":"c"},"gpk":{"S":"g"},"gsk":{"N":"2"}}`))},
	{name: "scan2/bad-exclusive-start", steps: steps(create(tHR), scan(`"ExclusiveStartKey":{"pk":{"S":"p"}}`))},
	{name: "scan2/count-limit", steps: steps(create(tHR), seedItems(5), scan(`"Select":"COUNT","Limit":3`))},
	{name: "scan2/filter-not-contains", steps: steps(create(tHR), seedItems(4), scan(`"FilterExpression":"NOT contains(b, :x)","ExpressionAttributeValues":{":x":{"S":"3"}}`))},
	{name: "scan2/scan-filter-legacy", steps: steps(create(tHR), seedItems(4), scan(`"ScanFilter":{"a":{"ComparisonOperator":"GE","AttributeValueList":[{"N":"3"}]}}`))},
	{name: "scan2/projection-list-index", steps: steps(create(tH), put(it1), scan(`"ProjectionExpression":"l[1], m.y, ss"`))},
	{name: "scan2/consumed-big-items", steps: steps(create(tH), put(fmt.Sprintf(`{"pk":{"S":"a"},"v":{"S":"%s"}}`, rep("x", 4500))), scan(`"ReturnConsumedCapacity":"TOTAL"`))},
}

var moreValueCases = []dcase{
	{name: "size2/structured-at-limit", steps: steps(create(tH), put(sizedItem(400*1024)), r("GetItem", `{"TableName":"Tbl","Key":`+k1+`,"ProjectionExpression":"m"}`))},
	{name: "size2/structured-over-limit", steps: steps(create(tH), put(sizedItem(400*1024+1)))},
	{name: "size2/put-capacity-1kb", steps: steps(create(tH), r("PutItem", `{"TableName":"Tbl","Item":`+sizedItem(1024)+`,"ReturnConsumedCapacity":"TOTAL"}`), r("PutItem", `{"TableName":"Tbl","Item":`+sizedItem(1025)+`,"ReturnConsumedCapacity":"TOTAL"}`))},
	{name: "size2/get-capacity-4kb", steps: steps(create(tH), put(sizedItem(4096)), r("GetItem", `{"TableName":"Tbl","Key":`+k1+`,"ReturnConsumedCapacity":"TOTAL"}`), put(sizedItem(4097)), r("GetItem", `{"TableName":"Tbl","Key":`+k1+`,"ReturnConsumedCapacity":"TOTAL","ConsistentRead":true}`))},
	{name: "size2/gsi-write-capacity", steps: steps(create(tIdx), r("PutItem", `{"TableName":"Tbl","Item":{"pk":{"S":"p"},"sk":{"S":"a"},"gpk":{"S":"g"},"gsk":{"N":"1"}},"ReturnConsumedCapacity":"INDEXES"}`))},
	{name: "number2/set-equal-forms", steps: steps(create(tH), put(`{"pk":{"S":"a"},"ns":{"NS":["1E+2","100"]}}`))},
	{name: "number2/negative-extremes", steps: steps(create(tH), put(`{"pk":{"S":"a"},"a":{"N":"-1E-130"},"b":{"N":"-9.9999999999999999999999999999999999999E+125"},"c":{"N":"00.10"},"d":{"N":"1234567890123456789012345678901234567800"}}`), get(k1))},
	{name: "number2/negative-overflow", steps: steps(create(tH), putN("-1E+126"))},
	{name: "empty2/value-placeholder-empty-string", steps: steps(create(tH), put(`{"pk":{"S":"a"},"s":{"S":""}}`), condPut("s = :e", vals(`{":e":{"S":""}}`)))},
	{name: "empty2/binary-set-empty-element", steps: steps(create(tH), put(`{"pk":{"S":"a"},"bs":{"BS":[""]}}`), get(k1))},
	{name: "empty2/string-set-empty-element", steps: steps(create(tH), put(`{"pk":{"S":"a"},"ss":{"SS":["","x"]}}`), get(k1))},
	{name: "empty2/map-empty-key", steps: steps(create(tH), put(`{"pk":{"S":"a"},"m":{"M":{"":{"S":"x"}}}}`))},
	{name: "empty2/update-key-empty-names", steps: steps(create(tH), upd(k1, "SET a = :one", `,"ExpressionAttributeNames":{}`+vals(one)))},
	{name: "batch2/two-tables", steps: steps(create(tH), r("CreateTable", strings.Replace(tHR, `"Tbl"`, `"Two"`, 1)),
		r("BatchWriteItem", `{"RequestItems":{"Tbl":[{"PutRequest":{"Item":{"pk":{"S":"a"}}}}],"Two":[{"PutRequest":{"Item":{"pk":{"S":"p"},"sk":{"N":"1"}}}}]}}`),
		r("BatchGetItem", `{"RequestItems":{"Tbl":{"Keys":[{"pk":{"S":"a"}},{"pk":{"S":"zz"}}]},"Two":{"Keys":[{"pk":{"S":"p"},"sk":{"N":"1"}}],"ConsistentRead":true}}}`))},
	{name: "batch2/get-101-across-tables", steps: steps(create(tH), r("CreateTable", strings.Replace(tH, `"Tbl"`, `"Two"`, 1)),
		r("BatchGetItem", `{"RequestItems":{"Tbl":{"Keys":[`+keys(60, false)+`]},"Two":{"Keys":[`+keys(41, false)+`]}}}`))},
	{name: "batch2/write-item-too-large", steps: steps(create(tH), bw(`{"PutRequest":{"Item":`+bigItem(400*1024)+`}}`))},
	{name: "batch2/get-attributes-to-get-and-projection", steps: steps(create(tH), bg(`"Keys":[`+keys(1, false)+`],"AttributesToGet":["v"],"ProjectionExpression":"v"`))},
	{name: "batch2/write-unknown-request", steps: steps(create(tH), bw(`{"UpdateRequest":{"Key":{"pk":{"S":"a"}}}}`)), typeOnly: true},
	{name: "batch2/write-delete-missing-ok", steps: steps(create(tH), bw(`{"DeleteRequest":{"Key":{"pk":{"S":"nope"}}}}`))},
}

func TestDiffMore(t *testing.T) {
	var all []dcase
	all = append(all, moreUpdateCases...)
	all = append(all, moreCondCases...)
	all = append(all, moreQueryCases...)
	all = append(all, moreValueCases...)
	run(t, all)
}
