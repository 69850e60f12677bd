package difftest

import (
	"fmt"
	"strings"
)

// Tables shared by the cases. Names are at least 3 characters: DynamoDB Local
// answers shorter names with a message of its own (see the create cases).
const (
	// tH: hash key pk (S).
	tH = `{"TableName":"Tbl","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}`
	// tHR: hash pk (S), range sk (N).
	tHR = `{"TableName":"Tbl","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}],"BillingMode":"PAY_PER_REQUEST"}`
	// tIdx: hash pk (S), range sk (S); GSI gsi (gpk S, gsk N, ALL), GSI gkeys
	// (gpk, KEYS_ONLY), GSI ginc (gpk, INCLUDE a), LSI lsi (pk, lsk S, KEYS_ONLY).
	tIdx = `{"TableName":"Tbl","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"},{"AttributeName":"gpk","AttributeType":"S"},{"AttributeName":"gsk","AttributeType":"N"},{"AttributeName":"lsk","AttributeType":"S"}],
"GlobalSecondaryIndexes":[
 {"IndexName":"gsi","KeySchema":[{"AttributeName":"gpk","KeyType":"HASH"},{"AttributeName":"gsk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}},
 {"IndexName":"gkeys","KeySchema":[{"AttributeName":"gpk","KeyType":"HASH"}],"Projection":{"ProjectionType":"KEYS_ONLY"}},
 {"IndexName":"ginc","KeySchema":[{"AttributeName":"gpk","KeyType":"HASH"}],"Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["a"]}}],
"LocalSecondaryIndexes":[{"IndexName":"lsi","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"lsk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}],
"BillingMode":"PAY_PER_REQUEST"}`
)

// create is the setup CreateTable of a shared table.
func create(t string) req { return req{op: "CreateTable", body: t, setup: true} }

// put builds a PutItem of item (DynamoDB JSON) into Tbl.
func put(item string) req { return r("PutItem", `{"TableName":"Tbl","Item":`+item+`}`) }

// get builds a GetItem of key from Tbl.
func get(key string) req { return r("GetItem", `{"TableName":"Tbl","Key":`+key+`}`) }

// upd builds an UpdateItem on key with expression and extra members
// (",ReturnValues..." etc., may be "").
func upd(key, expr, extra string) req {
	return r("UpdateItem", fmt.Sprintf(`{"TableName":"Tbl","Key":%s,"UpdateExpression":%q%s}`, key, expr, extra))
}

// query builds a Query on Tbl with extra members.
func query(members string) req { return r("Query", `{"TableName":"Tbl",`+members+`}`) }

// scan builds a Scan on Tbl with extra members.
func scan(members string) req {
	if members == "" {
		return r("Scan", `{"TableName":"Tbl"}`)
	}
	return r("Scan", `{"TableName":"Tbl",`+members+`}`)
}

// createWith returns a CreateTable body for Tbl with the given members
// (KeySchema, AttributeDefinitions, ...), for validation cases.
func createWith(members string) req {
	return req{op: "CreateTable", body: `{"TableName":"Tbl",` + members + `}`, setup: true}
}

const (
	ksH   = `"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]`
	adH   = `"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}]`
	ppr   = `"BillingMode":"PAY_PER_REQUEST"`
	ksHR  = `"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]`
	adHR  = `"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}]`
	prov1 = `"ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}`
)

// seedItems puts n items pk=p, sk=1..n, with attribute a = i and b = "x<i>".
func seedItems(n int) []req {
	var out []req
	for i := 1; i <= n; i++ {
		out = append(out, put(fmt.Sprintf(`{"pk":{"S":"p"},"sk":{"N":"%d"},"a":{"N":"%d"},"b":{"S":"x%d"}}`, i, i, i)))
	}
	return out
}

func steps(parts ...any) []req {
	var out []req
	for _, p := range parts {
		switch x := p.(type) {
		case req:
			out = append(out, x)
		case []req:
			out = append(out, x...)
		default:
			panic(fmt.Sprintf("steps: %T", p))
		}
	}
	return out
}

func rep(s string, n int) string { return strings.Repeat(s, n) }
