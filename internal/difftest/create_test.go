package difftest

import (
	"fmt"
	"strings"
	"testing"
)

func gsi(name, ks, proj string) string {
	return fmt.Sprintf(`{"IndexName":%q,"KeySchema":%s,"Projection":%s}`, name, ks, proj)
}

const (
	projAll  = `{"ProjectionType":"ALL"}`
	projKeys = `{"ProjectionType":"KEYS_ONLY"}`
	gks      = `[{"AttributeName":"g","KeyType":"HASH"}]`
	adHG     = `"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"}]`
	adHRL    = `"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"},{"AttributeName":"l","AttributeType":"S"}]`
	lks      = `[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"l","KeyType":"RANGE"}]`
)

var createCases = []dcase{
	{name: "create/ok-hash", tableClass: true, steps: steps(r("CreateTable", tH), r("DescribeTable", `{"TableName":"Tbl"}`))},
	{name: "create/ok-hash-range-provisioned", steps: steps(createWith(ksHR+","+adHR+","+prov1), r("DescribeTable", `{"TableName":"Tbl"}`))},
	{name: "create/ok-indexes", steps: steps(r("CreateTable", tIdx), r("DescribeTable", `{"TableName":"Tbl"}`))},
	{name: "create/ok-stream", steps: steps(createWith(ksH + "," + adH + "," + ppr + `,"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}`))},
	{name: "create/short-name", steps: steps(r("CreateTable", `{"TableName":"T",`+ksH+","+adH+","+ppr+`}`))},
	{name: "create/long-name", steps: steps(r("CreateTable", `{"TableName":"`+rep("a", 256)+`",`+ksH+","+adH+","+ppr+`}`))},
	{name: "create/bad-name-chars", steps: steps(r("CreateTable", `{"TableName":"a b c",`+ksH+","+adH+","+ppr+`}`))},
	{name: "create/missing-name", steps: steps(r("CreateTable", `{`+ksH+","+adH+","+ppr+`}`))},
	{name: "create/missing-keyschema", steps: steps(createWith(adH + "," + ppr))},
	{name: "create/empty-keyschema", steps: steps(createWith(`"KeySchema":[],` + adH + "," + ppr))},
	{name: "create/missing-attrdefs", steps: steps(createWith(ksH + "," + ppr))},
	{name: "create/two-hash", steps: steps(createWith(`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"HASH"}],` + adHR + "," + ppr))},
	{name: "create/range-only", steps: steps(createWith(`"KeySchema":[{"AttributeName":"pk","KeyType":"RANGE"}],` + adH + "," + ppr))},
	{name: "create/range-first", steps: steps(createWith(`"KeySchema":[{"AttributeName":"sk","KeyType":"RANGE"},{"AttributeName":"pk","KeyType":"HASH"}],` + adHR + "," + ppr))},
	{name: "create/three-keys", steps: steps(createWith(`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"},{"AttributeName":"x","KeyType":"RANGE"}],` + adHR + "," + ppr))},
	{name: "create/same-attr-hash-range", steps: steps(createWith(`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"pk","KeyType":"RANGE"}],` + adH + "," + ppr))},
	{name: "create/key-not-defined", steps: steps(createWith(ksHR + "," + adH + "," + ppr))},
	{name: "create/extra-attrdef", steps: steps(createWith(ksH + "," + adHR + "," + ppr))},
	{name: "create/duplicate-attrdef", steps: steps(createWith(ksH + `,"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"pk","AttributeType":"N"}],` + ppr))},
	{name: "create/bad-attr-type", steps: steps(createWith(ksH + `,"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"X"}],` + ppr))},
	{name: "create/bool-attr-type", steps: steps(createWith(ksH + `,"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"BOOL"}],` + ppr))},
	{name: "create/bad-key-type", steps: steps(createWith(`"KeySchema":[{"AttributeName":"pk","KeyType":"PRIMARY"}],` + adH + "," + ppr))},
	{name: "create/empty-attr-name", steps: steps(createWith(`"KeySchema":[{"AttributeName":"","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"","AttributeType":"S"}],` + ppr))},
	{name: "create/provisioned-no-throughput", steps: steps(createWith(ksH + "," + adH + `,"BillingMode":"PROVISIONED"`))},
	{name: "create/default-billing-no-throughput", steps: steps(createWith(ksH + "," + adH))},
	{name: "create/ppr-with-throughput", steps: steps(createWith(ksH + "," + adH + "," + ppr + "," + prov1))},
	{name: "create/zero-throughput", steps: steps(createWith(ksH + "," + adH + `,"ProvisionedThroughput":{"ReadCapacityUnits":0,"WriteCapacityUnits":1}`))},
	{name: "create/bad-billing-mode", steps: steps(createWith(ksH + "," + adH + `,"BillingMode":"ON_DEMAND"`))},
	{name: "create/exists", steps: steps(create(tH), r("CreateTable", tH))},
	{name: "create/gsi-ok-describe", steps: steps(createWith(ksH+","+adHG+","+ppr+`,"GlobalSecondaryIndexes":[`+gsi("byG", gks, projAll)+`]`), r("DescribeTable", `{"TableName":"Tbl"}`))},
	{name: "create/gsi-no-projection", steps: steps(createWith(ksH + "," + adHG + "," + ppr + `,"GlobalSecondaryIndexes":[{"IndexName":"byG","KeySchema":` + gks + `}]`))},
	{name: "create/gsi-key-not-defined", steps: steps(createWith(ksH + "," + adH + "," + ppr + `,"GlobalSecondaryIndexes":[` + gsi("byG", gks, projAll) + `]`))},
	{name: "create/gsi-duplicate-name", steps: steps(createWith(ksH + "," + adHG + "," + ppr + `,"GlobalSecondaryIndexes":[` + gsi("byG", gks, projAll) + "," + gsi("byG", gks, projKeys) + `]`))},
	{name: "create/gsi-short-name", steps: steps(createWith(ksH + "," + adHG + "," + ppr + `,"GlobalSecondaryIndexes":[` + gsi("ab", gks, projAll) + `]`))},
	{name: "create/gsi-empty-list", steps: steps(createWith(ksH + "," + adH + "," + ppr + `,"GlobalSecondaryIndexes":[]`))},
	{name: "create/gsi-range-only", steps: steps(createWith(ksH + "," + adHG + "," + ppr + `,"GlobalSecondaryIndexes":[` + gsi("byG", `[{"AttributeName":"g","KeyType":"RANGE"}]`, projAll) + `]`))},
	{name: "create/gsi-provisioned-missing-throughput", steps: steps(createWith(ksH + "," + adHG + "," + prov1 + `,"GlobalSecondaryIndexes":[` + gsi("byG", gks, projAll) + `]`))},
	{name: "create/gsi-ppr-with-throughput", steps: steps(createWith(ksH + "," + adHG + "," + ppr + `,"GlobalSecondaryIndexes":[{"IndexName":"byG","KeySchema":` + gks + `,"Projection":{"ProjectionType":"ALL"},` + prov1 + `}]`))},
	{name: "create/include-no-nonkey", steps: steps(createWith(ksH + "," + adHG + "," + ppr + `,"GlobalSecondaryIndexes":[` + gsi("byG", gks, `{"ProjectionType":"INCLUDE"}`) + `]`))},
	{name: "create/keysonly-with-nonkey", steps: steps(createWith(ksH + "," + adHG + "," + ppr + `,"GlobalSecondaryIndexes":[` + gsi("byG", gks, `{"ProjectionType":"KEYS_ONLY","NonKeyAttributes":["x"]}`) + `]`))},
	{name: "create/include-duplicate-nonkey", steps: steps(createWith(ksH + "," + adHG + "," + ppr + `,"GlobalSecondaryIndexes":[` + gsi("byG", gks, `{"ProjectionType":"INCLUDE","NonKeyAttributes":["x","x"]}`) + `]`))},
	{name: "create/bad-projection-type", steps: steps(createWith(ksH + "," + adHG + "," + ppr + `,"GlobalSecondaryIndexes":[` + gsi("byG", gks, `{"ProjectionType":"SOME"}`) + `]`))},
	{name: "create/lsi-ok-describe", steps: steps(createWith(ksHR+","+adHRL+","+ppr+`,"LocalSecondaryIndexes":[`+gsi("byL", lks, projAll)+`]`), r("DescribeTable", `{"TableName":"Tbl"}`))},
	{name: "create/lsi-no-range-table", steps: steps(createWith(ksH + `,"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"l","AttributeType":"S"}],` + ppr + `,"LocalSecondaryIndexes":[` + gsi("byL", lks, projAll) + `]`))},
	{name: "create/lsi-other-hash", steps: steps(createWith(ksHR + "," + adHRL + "," + ppr + `,"LocalSecondaryIndexes":[` + gsi("byL", `[{"AttributeName":"l","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]`, projAll) + `]`))},
	{name: "create/lsi-hash-only", steps: steps(createWith(ksHR + "," + adHR + "," + ppr + `,"LocalSecondaryIndexes":[` + gsi("byL", `[{"AttributeName":"pk","KeyType":"HASH"}]`, projAll) + `]`))},
	{name: "create/lsi-no-projection", steps: steps(createWith(ksHR + "," + adHRL + "," + ppr + `,"LocalSecondaryIndexes":[{"IndexName":"byL","KeySchema":` + lks + `}]`))},
	{name: "create/lsi-gsi-same-name", steps: steps(createWith(ksHR + `,"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"},{"AttributeName":"l","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"}],` + ppr + `,"LocalSecondaryIndexes":[` + gsi("idx", lks, projAll) + `],"GlobalSecondaryIndexes":[` + gsi("idx", gks, projAll) + `]`))},
	{name: "create/lsi-with-throughput", steps: steps(createWith(ksHR + "," + adHRL + "," + prov1 + `,"LocalSecondaryIndexes":[{"IndexName":"byL","KeySchema":` + lks + `,"Projection":{"ProjectionType":"ALL"},` + prov1 + `}]`))},
	{name: "create/stream-enabled-no-type", steps: steps(createWith(ksH + "," + adH + "," + ppr + `,"StreamSpecification":{"StreamEnabled":true}`))},
	{name: "create/stream-disabled-with-type", steps: steps(createWith(ksH + "," + adH + "," + ppr + `,"StreamSpecification":{"StreamEnabled":false,"StreamViewType":"KEYS_ONLY"}`))},
	{name: "create/stream-bad-type", steps: steps(createWith(ksH + "," + adH + "," + ppr + `,"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"ALL"}`))},
	{name: "create/deletion-protection", steps: steps(createWith(ksH+","+adH+","+ppr+`,"DeletionProtectionEnabled":true`), r("DeleteTable", `{"TableName":"Tbl"}`),
		r("UpdateTable", `{"TableName":"Tbl","DeletionProtectionEnabled":false}`), r("DeleteTable", `{"TableName":"Tbl"}`))},
	{name: "create/too-many-gsis", steps: steps(createWith(ksH + "," + adHG + "," + ppr + `,"GlobalSecondaryIndexes":[` + manyGSIs(21) + `]`))},
	{name: "create/empty-body", steps: steps(r("CreateTable", `{}`))},
}

func manyGSIs(n int) string {
	s := ""
	for i := 0; i < n; i++ {
		if i > 0 {
			s += ","
		}
		s += gsi(fmt.Sprintf("idx%02d", i), gks, projKeys)
	}
	return s
}

var controlCases = []dcase{
	{name: "describe/missing", steps: steps(r("DescribeTable", `{"TableName":"Nope"}`))},
	{name: "describe/short-name", steps: steps(r("DescribeTable", `{"TableName":"ab"}`))},
	{name: "describe/no-name", steps: steps(r("DescribeTable", `{}`))},
	{name: "delete/long-name", steps: steps(r("DeleteTable", `{"TableName":"`+strings.Repeat("a", 256)+`"}`))},
	{name: "describe/after-puts", steps: steps(create(tHR), seedItems(3), r("DescribeTable", `{"TableName":"Tbl"}`))},
	{name: "delete/missing", steps: steps(r("DeleteTable", `{"TableName":"Nope"}`))},
	{name: "delete/ok-then-describe", steps: steps(r("CreateTable", tH), r("DeleteTable", `{"TableName":"Tbl"}`), r("DescribeTable", `{"TableName":"Tbl"}`))},
	{name: "list/paginate", steps: steps(
		r("CreateTable", `{"TableName":"aaa",`+ksH+","+adH+","+ppr+`}`),
		r("CreateTable", `{"TableName":"bbb",`+ksH+","+adH+","+ppr+`}`),
		r("CreateTable", `{"TableName":"ccc",`+ksH+","+adH+","+ppr+`}`),
		r("ListTables", `{"Limit":2}`), r("ListTables", `{"Limit":2,"ExclusiveStartTableName":"bbb"}`), r("ListTables", `{}`))},
	{name: "list/limit-zero", steps: steps(r("ListTables", `{"Limit":0}`))},
	{name: "list/limit-101", steps: steps(r("ListTables", `{"Limit":101}`))},
	{name: "updatetable/billing-to-provisioned", steps: steps(create(tH), r("UpdateTable", `{"TableName":"Tbl","BillingMode":"PROVISIONED",`+prov1+`}`), r("DescribeTable", `{"TableName":"Tbl"}`))},
	{name: "updatetable/nothing", steps: steps(create(tH), r("UpdateTable", `{"TableName":"Tbl"}`))},
	{name: "protocol/unknown-action", steps: steps(r("FrobnicateTable", `{}`))},
	{name: "protocol/malformed-json", steps: steps(r("CreateTable", `{"TableName":`)), typeOnly: true},
	{name: "protocol/wrong-member-type", steps: steps(r("DescribeTable", `{"TableName":5}`)), typeOnly: true},
	{name: "protocol/bad-attribute-value", steps: steps(create(tH), put(`{"pk":{"Q":"x"}}`)), typeOnly: true},
}

func TestDiffCreate(t *testing.T)  { run(t, createCases) }
func TestDiffControl(t *testing.T) { run(t, controlCases) }
