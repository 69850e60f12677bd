package local_test

import (
	"hash/crc32"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/dynamogo/dynamo/local"
)

func rawCall(t *testing.T, h http.Handler, target, body string) (*http.Response, string) {
	t.Helper()
	req := httptest.NewRequest("POST", "/", strings.NewReader(body))
	if target != "" {
		req.Header.Set("X-Amz-Target", target)
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	res := w.Result()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

func TestProtocol(t *testing.T) {
	srv, err := local.New()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	cases := []struct {
		name, target, body string
		status             int
		want               string
	}{
		{"ok", "DynamoDB_20120810.ListTables", `{}`, 200, `{"TableNames":[]}`},
		{"malformed JSON", "DynamoDB_20120810.ListTables", `{"Limit":`, 400, `"__type":"com.amazon.coral.service#SerializationException"`},
		{"wrong JSON type", "DynamoDB_20120810.DescribeTable", `{"TableName":5}`, 400, `"__type":"com.amazon.coral.service#SerializationException"`},
		{"bad attribute value", "DynamoDB_20120810.PutItem", `{"TableName":"abc","Item":{"a":{"S":5}}}`, 400, `{"__type":"com.amazon.coral.service#SerializationException","message":"NUMBER_VALUE cannot be converted to String"}`},
		{"untyped attribute value", "DynamoDB_20120810.PutItem", `{"TableName":"abc","Item":{"a":{"Q":"x"}}}`, 400, `Supplied AttributeValue is empty, must contain exactly one of the supported datatypes`},
		{"untyped value in batch", "DynamoDB_20120810.BatchWriteItem", `{"RequestItems":{"abc":[{"PutRequest":{"Item":{"a":{"Q":"x"}}}}]}}`, 400, `Supplied AttributeValue is empty, must contain exactly one of the supported datatypes`},
		{"wrong member type", "DynamoDB_20120810.GetItem", `{"TableName":"abc","ConsistentRead":"yes"}`, 400, `STRING_VALUE cannot be converted to Boolean`},
		{"trailing garbage", "DynamoDB_20120810.GetItem", `{"TableName":"abc"} x`, 400, `SerializationException`},
		{"bad escape in unknown member", "DynamoDB_20120810.PutItem", `{"TableName":"abc","Other":"\q","Item":{"a":{"S":"x"}}}`, 400, `SerializationException`},
		{"wrong type in batch", "DynamoDB_20120810.BatchWriteItem", `{"RequestItems":{"abc":[{"PutRequest":5}]}}`, 400, `{"__type":"com.amazon.coral.service#SerializationException","message":"NUMBER_VALUE cannot be converted to Struct"}`},
		{"integer as string in scan", "DynamoDB_20120810.Scan", `{"TableName":"abc","Limit":"2"}`, 400, `ResourceNotFoundException`},
		{"member name in another case", "DynamoDB_20120810.Scan", `{"tablename":"abc"}`, 400, `ResourceNotFoundException`},
		{"unknown action", "DynamoDB_20120810.Frobnicate", `{}`, 400, `{"__type":"com.amazon.coral.service#UnknownOperationException","message":"Unknown operation \"DynamoDB_20120810.Frobnicate\""}`},
		{"missing target", "", `{}`, 400, `UnknownOperationException`},
		{"other service", "Kinesis_20131202.ListStreams", `{}`, 400, `UnknownOperationException`},
		{"streams", "DynamoDBStreams_20120810.ListStreams", `{}`, 200, `{"Streams":[]}`},
		{"streams action on DynamoDB", "DynamoDB_20120810.GetRecords", `{}`, 400, `UnknownOperationException`},
		{"validation", "DynamoDB_20120810.DescribeTable", `{}`, 400, `{"__type":"com.amazon.coral.validate#ValidationException","message":"The parameter 'TableName' is required but was not present in the request"}`},
		{"not found", "DynamoDB_20120810.DescribeTable", `{"TableName":"abc"}`, 400, `{"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException","message":"Requested resource not found: Table: abc not found"}`},
	}
	ids := map[string]bool{}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, body := rawCall(t, srv, tc.target, tc.body)
			if res.StatusCode != tc.status || !strings.Contains(body, tc.want) {
				t.Fatalf("%d %s, want %d containing %s", res.StatusCode, body, tc.status, tc.want)
			}
			if ct := res.Header.Get("Content-Type"); ct != "application/x-amz-json-1.0" {
				t.Errorf("Content-Type = %q", ct)
			}
			if crc := res.Header.Get("X-Amz-Crc32"); crc != strconv.FormatUint(uint64(crc32.ChecksumIEEE([]byte(body))), 10) {
				t.Errorf("X-Amz-Crc32 = %s, body CRC differs", crc)
			}
			id := res.Header.Get("X-Amzn-Requestid")
			if len(id) != 52 || ids[id] {
				t.Errorf("request id %q (len %d) missing or repeated", id, len(id))
			}
			ids[id] = true
		})
	}
}
