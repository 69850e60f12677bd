package local_test

import (
	"testing"

	"github.com/dynamogo/dynamo/local"
)

// FuzzRequests sends arbitrary bodies to every hot action: the server must
// answer each with a 200 or a 400, never a 500 (a panic or an internal error).
func FuzzRequests(f *testing.F) {
	seeds := []string{
		`{"TableName":"fuzz","Item":{"pk":{"S":"a"},"n":{"N":"1"}}}`,
		`{"TableName":"fuzz","Key":{"pk":{"S":"a"}},"ProjectionExpression":"n"}`,
		`{"TableName":"fuzz","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET n = n + :o","ExpressionAttributeValues":{":o":{"N":"1"}}}`,
		`{"TableName":"fuzz","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"Limit":1}`,
		`{"TableName":"fuzz","Item":{"pk":{"S":"a"},"m":{"M":{"l":{"L":[{"NULL":true},{"SS":["x"]}]}}}}}`,
		`{"RequestItems":{"fuzz":[{"PutRequest":{"Item":{"pk":{"S":"b"}}}}]}}`,
		`{"TableName":"fuzz","Segment":0,"TotalSegments":2}`,
		`{"TransactItems":[{"Put":{"TableName":"fuzz","Item":{"pk":{"S":"c"}}}},{"Update":{"TableName":"fuzz","Key":{"pk":{"S":"d"}},"UpdateExpression":"ADD n :o","ExpressionAttributeValues":{":o":{"N":"1"}}}}]}`,
		`{"TransactItems":[{"Get":{"TableName":"fuzz","Key":{"pk":{"S":"c"}}}}]}`,
	}
	for i, s := range seeds {
		f.Add(uint8(i), s)
	}
	actions := []string{"PutItem", "GetItem", "UpdateItem", "DeleteItem", "Query", "Scan", "BatchWriteItem", "BatchGetItem", "TransactWriteItems", "TransactGetItems", "CreateTable", "UpdateTable"}
	srv, err := local.New()
	if err != nil {
		f.Fatal(err)
	}
	c := newCaller(srv)
	c.call(f, "CreateTable", `{"TableName":"fuzz","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`)
	fuzzActions(f, c, actions)
}

// fuzzActions sends each fuzzed body to one of actions (picked by the
// fuzzed byte) and fails on any status but 200 or 400: a 500 is a panic or
// an internal error.
func fuzzActions(f *testing.F, c *caller, actions []string) {
	f.Fuzz(func(t *testing.T, a uint8, body string) {
		action := actions[int(a)%len(actions)]
		c.req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+action)
		c.br.Reset([]byte(body))
		c.req.Body = &c.br
		c.req.ContentLength = int64(len(body))
		clear(c.w.h)
		c.h.ServeHTTP(&c.w, c.req)
		if c.w.status != 200 && c.w.status != 400 {
			t.Fatalf("%s %q: status %d", action, body, c.w.status)
		}
	})
}
