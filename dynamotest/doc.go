// Package dynamotest runs the local DynamoDB-compatible server inside a test,
// in the manner of net/http/httptest: NewServer gives a running server on
// 127.0.0.1 and a ready aws-sdk-go-v2 client, both cleaned up with the test.
//
// Faults can be injected on chosen calls (throttling, 500s, latency,
// unprocessed batch items) to exercise retry and batch logic for real.
package dynamotest
