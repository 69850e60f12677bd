// Package dynamotest runs the local DynamoDB-compatible server inside a test,
// in the manner of net/http/httptest: NewServer gives a running server on
// 127.0.0.1 and a ready aws-sdk-go-v2 client, NewRepo a server with the
// tables of the given schemas and a ready *dynamo.Repo; everything is cleaned
// up with the test.
//
//	repo, srv := dynamotest.NewRepo(t, Orders, Users)
//
// Faults can be injected on chosen calls (throttling, 500s, latency,
// unprocessed batch items) to exercise retry and batch logic for real.
// WithAccessKey makes the server verify request signatures, with the
// returned client and repo signing with the key. WithConsole serves the
// server's web console at URL + "/console/".
//
// A stock aws-sdk-go-v2 client of a local server should use HTTPClient (as
// Server.Client does): without it the SDK loses a large response now and
// then and sends the request again.
package dynamotest
