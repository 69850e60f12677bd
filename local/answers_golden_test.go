package local_test

import (
	"testing"

	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/local"
)

// TestAnswerBytes pins the exact bytes of the data-plane answers whose
// encoders are hand-written (members in encoding/json's order, items as
// GetItem writes them), so that a faster encoder cannot change an answer.
func TestAnswerBytes(t *testing.T) {
	srv := dynamotest.NewServer(t)
	setup := []struct{ action, body string }{
		{"CreateTable", `{"TableName":"aaa","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"},{"AttributeName":"g","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"GlobalSecondaryIndexes":[{"IndexName":"gix","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}],"BillingMode":"PAY_PER_REQUEST"}`},
		{"CreateTable", `{"TableName":"bbb","AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`},
		{"BatchWriteItem", `{"RequestItems":{"aaa":[{"PutRequest":{"Item":{"pk":{"S":"p"},"sk":{"N":"1"},"g":{"S":"x"},"v":{"S":"<a & b>"},"m":{"M":{"z":{"L":[{"N":"1"},{"BOOL":true},{"NULL":true}]},"a":{"SS":["s","t"]}}}}}},{"PutRequest":{"Item":{"pk":{"S":"p"},"sk":{"N":"2"},"n":{"N":"5"},"b":{"B":"AAE="}}}}],"bbb":[{"PutRequest":{"Item":{"id":{"S":"\u00e9\u2028\""},"ns":{"NS":["1","2.5"]}}}}]}}`},
	}
	for _, s := range setup {
		if status, out := rawPost(t, srv, s.action, []byte(s.body)); status != 200 {
			t.Fatalf("%s: %d %s", s.action, status, out)
		}
	}
	for _, c := range []struct{ name, action, body, want string }{
		{"batch get", "BatchGetItem", `{"RequestItems":{"bbb":{"Keys":[{"id":{"S":"\u00e9\u2028\""}},{"id":{"S":"none"}}]},"aaa":{"Keys":[{"pk":{"S":"p"},"sk":{"N":"1"}},{"pk":{"S":"p"},"sk":{"N":"2"}}],"ProjectionExpression":"v, m.z[0], n, #s","ExpressionAttributeNames":{"#s":"sk"}}}}`, `{"Responses":{"aaa":[{"m":{"M":{"z":{"L":[{"N":"1"}]}}},"sk":{"N":"1"},"v":{"S":"<a & b>"}},{"n":{"N":"5"},"sk":{"N":"2"}}],"bbb":[{"id":{"S":"é\u2028\""},"ns":{"NS":["1","2.5"]}}]},"UnprocessedKeys":{}}`},
		{"batch get capacity", "BatchGetItem", `{"RequestItems":{"aaa":{"Keys":[{"pk":{"S":"p"},"sk":{"N":"1"}}],"ConsistentRead":true},"bbb":{"Keys":[{"id":{"S":"none"}}]}},"ReturnConsumedCapacity":"INDEXES"}`, `{"ConsumedCapacity":[{"TableName":"aaa","CapacityUnits":1,"Table":{"CapacityUnits":1}},{"TableName":"bbb","CapacityUnits":0.5,"Table":{"CapacityUnits":0.5}}],"Responses":{"aaa":[{"g":{"S":"x"},"m":{"M":{"a":{"SS":["s","t"]},"z":{"L":[{"N":"1"},{"BOOL":true},{"NULL":true}]}}},"pk":{"S":"p"},"sk":{"N":"1"},"v":{"S":"<a & b>"}}],"bbb":[]},"UnprocessedKeys":{}}`},
		{"batch write", "BatchWriteItem", `{"RequestItems":{"aaa":[{"DeleteRequest":{"Key":{"pk":{"S":"q"},"sk":{"N":"9"}}}}],"bbb":[{"PutRequest":{"Item":{"id":{"S":"new"}}}}]},"ReturnConsumedCapacity":"INDEXES","ReturnItemCollectionMetrics":"SIZE"}`, `{"ConsumedCapacity":[{"TableName":"aaa","CapacityUnits":1,"Table":{"CapacityUnits":1}},{"TableName":"bbb","CapacityUnits":1,"Table":{"CapacityUnits":1}}],"ItemCollectionMetrics":{},"UnprocessedItems":{}}`},
		{"batch write total", "BatchWriteItem", `{"RequestItems":{"aaa":[{"PutRequest":{"Item":{"pk":{"S":"q"},"sk":{"N":"3"},"g":{"S":"y"}}}}]},"ReturnConsumedCapacity":"TOTAL"}`, `{"ConsumedCapacity":[{"TableName":"aaa","CapacityUnits":2}],"UnprocessedItems":{}}`},
		{"get", "GetItem", `{"TableName":"aaa","Key":{"pk":{"S":"p"},"sk":{"N":"1"}},"ReturnConsumedCapacity":"TOTAL"}`, `{"Item":{"g":{"S":"x"},"m":{"M":{"a":{"SS":["s","t"]},"z":{"L":[{"N":"1"},{"BOOL":true},{"NULL":true}]}}},"pk":{"S":"p"},"sk":{"N":"1"},"v":{"S":"<a & b>"}},"ConsumedCapacity":{"TableName":"aaa","CapacityUnits":0.5}}`},
		{"query", "Query", `{"TableName":"aaa","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"p"}},"ReturnConsumedCapacity":"INDEXES"}`, `{"Items":[{"g":{"S":"x"},"m":{"M":{"a":{"SS":["s","t"]},"z":{"L":[{"N":"1"},{"BOOL":true},{"NULL":true}]}}},"pk":{"S":"p"},"sk":{"N":"1"},"v":{"S":"<a & b>"}},{"b":{"B":"AAE="},"n":{"N":"5"},"pk":{"S":"p"},"sk":{"N":"2"}}],"Count":2,"ScannedCount":2,"ConsumedCapacity":{"TableName":"aaa","CapacityUnits":0.5,"Table":{"CapacityUnits":0.5}}}`},
		{"query page", "Query", `{"TableName":"aaa","KeyConditionExpression":"pk = :p","FilterExpression":"attribute_exists(n)","ExpressionAttributeValues":{":p":{"S":"p"}},"Limit":1}`, `{"Items":[],"Count":0,"ScannedCount":1,"LastEvaluatedKey":{"pk":{"S":"p"},"sk":{"N":"1"}}}`},
		{"update", "UpdateItem", `{"TableName":"aaa","Key":{"pk":{"S":"p"},"sk":{"N":"2"}},"UpdateExpression":"ADD n :one SET w = :w","ExpressionAttributeValues":{":one":{"N":"1"},":w":{"S":"<w>"}},"ReturnValues":"ALL_NEW","ReturnConsumedCapacity":"INDEXES"}`, `{"Attributes":{"b":{"B":"AAE="},"n":{"N":"6"},"pk":{"S":"p"},"sk":{"N":"2"},"w":{"S":"<w>"}},"ConsumedCapacity":{"TableName":"aaa","CapacityUnits":1,"Table":{"CapacityUnits":1}}}`},
		{"update old", "UpdateItem", `{"TableName":"aaa","Key":{"pk":{"S":"p"},"sk":{"N":"2"}},"UpdateExpression":"ADD n :one","ExpressionAttributeValues":{":one":{"N":"1"}},"ReturnValues":"UPDATED_OLD"}`, `{"Attributes":{"n":{"N":"6"}}}`},
		{"put", "PutItem", `{"TableName":"aaa","Item":{"pk":{"S":"p"},"sk":{"N":"2"},"g":{"S":"z"}},"ReturnValues":"ALL_OLD","ReturnConsumedCapacity":"TOTAL"}`, `{"Attributes":{"b":{"B":"AAE="},"n":{"N":"7"},"pk":{"S":"p"},"sk":{"N":"2"},"w":{"S":"<w>"}},"ConsumedCapacity":{"TableName":"aaa","CapacityUnits":2}}`},
		{"delete", "DeleteItem", `{"TableName":"aaa","Key":{"pk":{"S":"p"},"sk":{"N":"2"}},"ReturnValues":"ALL_OLD","ReturnConsumedCapacity":"INDEXES"}`, `{"Attributes":{"g":{"S":"z"},"pk":{"S":"p"},"sk":{"N":"2"}},"ConsumedCapacity":{"TableName":"aaa","CapacityUnits":2,"Table":{"CapacityUnits":1},"GlobalSecondaryIndexes":{"gix":{"CapacityUnits":1}}}}`},
	} {
		status, out := rawPost(t, srv, c.action, []byte(c.body))
		if status != 200 || out != c.want {
			t.Errorf("%s: %d\n got %s\nwant %s", c.name, status, out, c.want)
		}
	}
}

// TestAnswerBytesUnprocessed pins the batch answers with requests left
// unprocessed.
func TestAnswerBytesUnprocessed(t *testing.T) {
	srv := dynamotest.NewServer(t, dynamotest.WithFaultFunc(func(action string) local.Fault {
		if action == "BatchWriteItem" || action == "BatchGetItem" {
			return local.Fault{Unprocessed: 2}
		}
		return local.Fault{}
	}))
	if status, out := rawPost(t, srv, "CreateTable", []byte(`{"TableName":"bbb","AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`)); status != 200 {
		t.Fatal(out)
	}
	for _, c := range []struct{ name, action, body, want string }{
		{"batch write", "BatchWriteItem", `{"RequestItems":{"bbb":[{"PutRequest":{"Item":{"id":{"S":"a"},"v":{"S":"<&>"}}}},{"PutRequest":{"Item":{"id":{"S":"b"},"n":{"N":"1"}}}},{"DeleteRequest":{"Key":{"id":{"S":"c"}}}}]},"ReturnConsumedCapacity":"TOTAL"}`, `{"ConsumedCapacity":[{"TableName":"bbb","CapacityUnits":1}],"UnprocessedItems":{"bbb":[{"PutRequest":{"Item":{"id":{"S":"b"},"n":{"N":"1"}}}},{"DeleteRequest":{"Key":{"id":{"S":"c"}}}}]}}`},
		{"batch get", "BatchGetItem", `{"RequestItems":{"bbb":{"Keys":[{"id":{"S":"a"}},{"id":{"S":"b"}},{"id":{"S":"c"}}],"ProjectionExpression":"#v","ExpressionAttributeNames":{"#v":"v"},"ConsistentRead":false}},"ReturnConsumedCapacity":"TOTAL"}`, `{"ConsumedCapacity":[{"TableName":"bbb","CapacityUnits":0.5}],"Responses":{"bbb":[{"v":{"S":"<&>"}}]},"UnprocessedKeys":{"bbb":{"ConsistentRead":false,"ExpressionAttributeNames":{"#v":"v"},"Keys":[{"id":{"S":"b"}},{"id":{"S":"c"}}],"ProjectionExpression":"#v"}}}`},
	} {
		status, out := rawPost(t, srv, c.action, []byte(c.body))
		if status != 200 || out != c.want {
			t.Errorf("%s: %d\n got %s\nwant %s", c.name, status, out, c.want)
		}
	}
}
