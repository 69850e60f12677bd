package difftest

import "testing"

// vals wraps ExpressionAttributeValues for upd's extra members.
func vals(v string) string { return `,"ExpressionAttributeValues":` + v }

const (
	rvNew  = `,"ReturnValues":"ALL_NEW"`
	rvUNew = `,"ReturnValues":"UPDATED_NEW"`
	rvUOld = `,"ReturnValues":"UPDATED_OLD"`
	rvOld  = `,"ReturnValues":"ALL_OLD"`
	one    = `{":one":{"N":"1"}}`
)

var updateCases = []dcase{
	{name: "update/upsert-all-new", steps: steps(create(tH), upd(k1, "SET a = :one", vals(one)+rvNew))},
	{name: "update/updated-new", steps: steps(create(tH), put(it1), upd(k1, "SET n = n + :one, s = :one", vals(one)+rvUNew))},
	{name: "update/updated-old", steps: steps(create(tH), put(it1), upd(k1, "SET n = n + :one, z = :one", vals(one)+rvUOld))},
	{name: "update/all-old", steps: steps(create(tH), put(it1), upd(k1, "REMOVE s", rvOld))},
	{name: "update/all-old-missing-item", steps: steps(create(tH), upd(k1, "SET a = :one", vals(one)+rvOld))},
	{name: "update/nested-set", steps: steps(create(tH), put(it1), upd(k1, "SET m.y.z = :one, m.w = :one", vals(one)+rvUNew))},
	{name: "update/nested-missing-parent", steps: steps(create(tH), put(it1), upd(k1, "SET nope.x = :one", vals(one)))},
	{name: "update/nested-through-scalar", steps: steps(create(tH), put(it1), upd(k1, "SET n.x = :one", vals(one)))},
	{name: "update/list-index-set", steps: steps(create(tH), put(it1), upd(k1, "SET l[0] = :one, l[9] = :one", vals(`{":one":{"S":"new"}}`)+rvNew))},
	{name: "update/list-index-on-map", steps: steps(create(tH), put(it1), upd(k1, "SET m[0] = :one", vals(one)))},
	{name: "update/list-remove-indexes", steps: steps(create(tH), put(it1), upd(k1, "REMOVE l[0], l[5]", rvUNew), get(k1))},
	{name: "update/list-append", steps: steps(create(tH), put(it1), upd(k1, "SET l = list_append(l, :v), l2 = list_append(:v, :v)", vals(`{":v":{"L":[{"S":"z"}]}}`)+rvUNew))},
	{name: "update/list-append-prepend", steps: steps(create(tH), put(it1), upd(k1, "SET l = list_append(:v, l)", vals(`{":v":{"L":[{"S":"z"}]}}`)+rvUNew))},
	{name: "update/list-append-non-list", steps: steps(create(tH), put(it1), upd(k1, "SET l = list_append(l, :v)", vals(`{":v":{"S":"z"}}`)))},
	{name: "update/list-append-missing", steps: steps(create(tH), put(it1), upd(k1, "SET q = list_append(q, :v)", vals(`{":v":{"L":[]}}`)))},
	{name: "update/if-not-exists", steps: steps(create(tH), put(it1), upd(k1, "SET n = if_not_exists(n, :z), c = if_not_exists(c, :z)", vals(`{":z":{"N":"0"}}`)+rvUNew))},
	{name: "update/arith-missing-attr", steps: steps(create(tH), put(it1), upd(k1, "SET q = q + :one", vals(one)))},
	{name: "update/arith-on-string", steps: steps(create(tH), put(it1), upd(k1, "SET s = s + :one", vals(one)))},
	{name: "update/arith-minus", steps: steps(create(tH), put(it1), upd(k1, "SET n = :a - :b", vals(`{":a":{"N":"10.5"},":b":{"N":"0.25"}}`)+rvUNew))},
	{name: "update/arith-overflow-precision", steps: steps(create(tH), upd(k1, "SET n = :a + :b", vals(`{":a":{"N":"99999999999999999999999999999999999999"},":b":{"N":"1"}}`)))},
	{name: "update/arith-precision-loss", steps: steps(create(tH), upd(k1, "SET n = :a + :b", vals(`{":a":{"N":"1E+30"},":b":{"N":"0.000000001"}}`)))},
	{name: "update/add-number", steps: steps(create(tH), put(it1), upd(k1, "ADD n :one, fresh :one", vals(one)+rvUNew))},
	{name: "update/add-set", steps: steps(create(tH), put(it1), upd(k1, "ADD ss :v, new :v", vals(`{":v":{"SS":["b","c"]}}`)+rvUNew))},
	{name: "update/add-set-type-mismatch", steps: steps(create(tH), put(it1), upd(k1, "ADD ss :v", vals(`{":v":{"NS":["1"]}}`)))},
	{name: "update/add-string", steps: steps(create(tH), put(it1), upd(k1, "ADD s :v", vals(`{":v":{"S":"x"}}`)))},
	{name: "update/add-list", steps: steps(create(tH), put(it1), upd(k1, "ADD l :v", vals(`{":v":{"L":[]}}`)))},
	{name: "update/add-nested", steps: steps(create(tH), put(it1), upd(k1, "ADD m.x :one", vals(one)+rvUNew))},
	{name: "update/delete-set", steps: steps(create(tH), put(it1), upd(k1, "DELETE ss :v", vals(`{":v":{"SS":["a","zz"]}}`)+rvUNew))},
	{name: "update/delete-set-empties", steps: steps(create(tH), put(it1), upd(k1, "DELETE ss :v", vals(`{":v":{"SS":["a","b"]}}`)+rvNew))},
	{name: "update/delete-number", steps: steps(create(tH), put(it1), upd(k1, "DELETE n :one", vals(one)))},
	{name: "update/delete-type-mismatch", steps: steps(create(tH), put(it1), upd(k1, "DELETE ns :v", vals(`{":v":{"SS":["1"]}}`)))},
	{name: "update/delete-missing-attr", steps: steps(create(tH), put(it1), upd(k1, "DELETE nope :v", vals(`{":v":{"SS":["1"]}}`)+rvNew))},
	{name: "update/overlap-set-remove", steps: steps(create(tH), upd(k1, "SET a = :one REMOVE a", vals(one)))},
	{name: "update/overlap-parent-child", steps: steps(create(tH), upd(k1, "SET a = :one, a.b = :one", vals(one)))},
	{name: "update/overlap-list-items-ok", steps: steps(create(tH), put(it1), upd(k1, "SET l[0] = :one, l[1] = :one", vals(one)+rvUNew))},
	{name: "update/overlap-same-index", steps: steps(create(tH), upd(k1, "SET l[0] = :one, l[0] = :one", vals(one)))},
	{name: "update/conflict-nested", steps: steps(create(tH), upd(k1, "SET m.x = :one REMOVE m", vals(one)))},
	{name: "update/section-twice", steps: steps(create(tH), upd(k1, "SET a = :one SET b = :one", vals(one)))},
	{name: "update/key-attribute", steps: steps(create(tH), upd(k1, "SET pk = :v", vals(`{":v":{"S":"b"}}`)))},
	{name: "update/key-attribute-remove", steps: steps(create(tHR), upd(kr1, "REMOVE sk", ""))},
	{name: "update/reserved-word", steps: steps(create(tH), upd(k1, "SET name = :one", vals(one)))},
	{name: "update/name-placeholder", steps: steps(create(tH), upd(k1, "SET #n.#m = :one, #s = :one", `,"ExpressionAttributeNames":{"#n":"m","#m":"x.y","#s":"name"}`+vals(one)+rvNew))},
	{name: "update/undefined-value", steps: steps(create(tH), upd(k1, "SET a = :nope", ""))},
	{name: "update/undefined-name", steps: steps(create(tH), upd(k1, "SET #nope = :one", vals(one)))},
	{name: "update/unused-value", steps: steps(create(tH), upd(k1, "SET a = :one", vals(`{":one":{"N":"1"},":two":{"N":"2"}}`)))},
	{name: "update/unused-name", steps: steps(create(tH), upd(k1, "SET a = :one", `,"ExpressionAttributeNames":{"#x":"x"}`+vals(one)))},
	{name: "update/syntax-trailing-eq", steps: steps(create(tH), upd(k1, "SET a =", ""))},
	{name: "update/syntax-bare-set", steps: steps(create(tH), upd(k1, "SET", ""))},
	{name: "update/syntax-unknown-action", steps: steps(create(tH), upd(k1, "FOO a :one", vals(one)))},
	{name: "update/syntax-trailing-comma", steps: steps(create(tH), upd(k1, "SET a = :one,", vals(one)))},
	{name: "update/empty-expression", steps: steps(create(tH), upd(k1, "", ""))},
	{name: "update/with-attribute-updates", steps: steps(create(tH), r("UpdateItem", `{"TableName":"Tbl","Key":`+k1+`,"UpdateExpression":"SET a = :one","ExpressionAttributeValues":`+one+`,"AttributeUpdates":{"b":{"Action":"PUT","Value":{"N":"1"}}}}`))},
	{name: "update/legacy-add-type-mismatch", steps: steps(create(tH), put(it1), r("UpdateItem", `{"TableName":"Tbl","Key":`+k1+`,"AttributeUpdates":{"n":{"Action":"ADD","Value":{"SS":["x"]}}}}`))},
	{name: "update/legacy-attribute-updates", steps: steps(create(tH), put(it1), r("UpdateItem", `{"TableName":"Tbl","Key":`+k1+`,"AttributeUpdates":{"b":{"Action":"PUT","Value":{"N":"1"}},"n":{"Action":"ADD","Value":{"N":"2"}},"s":{"Action":"DELETE"}},"ReturnValues":"ALL_NEW"}`))},
	{name: "update/unknown-function", steps: steps(create(tH), upd(k1, "SET a = list_apend(a, :one)", vals(one)))},
	{name: "update/size-not-allowed", steps: steps(create(tH), put(it1), upd(k1, "SET a = size(s)", ""))},
	{name: "update/cond-fail-return-old", steps: steps(create(tH), put(it1), upd(k1, "SET n = :one", vals(one)+cond+`"n > :one","ReturnValuesOnConditionCheckFailure":"ALL_OLD"`))},
	{name: "update/cond-on-missing-item", steps: steps(create(tH), upd(k1, "SET n = :one", vals(one)+cond+`"attribute_exists(pk)"`))},
	{name: "update/empty-set-value", steps: steps(create(tH), upd(k1, "SET a = :v", vals(`{":v":{"SS":[]}}`)))},
	{name: "update/empty-string-value", steps: steps(create(tH), upd(k1, "SET a = :v", vals(`{":v":{"S":""}}`)+rvNew))},
	{name: "update/remove-missing-ok", steps: steps(create(tH), put(it1), upd(k1, "REMOVE nope, m.nope, l[7]", rvUOld))},
	{name: "update/set-plus-no-value", steps: steps(create(tH), upd(k1, "SET a = :one + ", vals(one)))},
	{name: "update/deep-path", steps: steps(create(tH), put(it1), upd(k1, "SET m.y.q = l[1]", rvUNew))},
	{name: "update/index-on-name-placeholder", steps: steps(create(tH), put(it1), upd(k1, "SET #l[1] = :one", `,"ExpressionAttributeNames":{"#l":"l"}`+vals(one)+rvUNew))},
	{name: "update/remove-all-list", steps: steps(create(tH), put(it1), upd(k1, "REMOVE l[0], l[1]", rvNew))},
	{name: "update/missing-key-table", steps: steps(upd(k1, "SET a = :one", vals(one)))},
}

func TestDiffUpdate(t *testing.T) { run(t, updateCases) }
