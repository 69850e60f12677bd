// Package request holds the pure request builders: schema + value + options
// → *dynamodb.XxxInput, or an error before any I/O.
//
// Every builder is generic over the schema and validates what DynamoDB
// would reject before sending: missing key parts, updates of key
// attributes, more than 25 batch writes, 100 batch reads or 100 transaction
// operations, duplicate items in one request, a consistent read on a GSI, a
// vector of the wrong dimension, a TopK outside 1…100.
//
// Options are typed per operation family (GetOption, QueryOption, …). One
// option may belong to several families (Consistent is a GetOption, a
// QueryOption, a ScanOption and a BatchGetOption) and an option that makes
// no sense for an operation does not compile there (Segment is only a
// ScanOption, Descending only a QueryOption).
//
// Update and TxUpdate take the changes built by package expr in the same
// argument list as their options. QueryAll and ScanAll build the first
// request of a read that pages for the caller, with its Paging (MaxItems,
// Parallel), which only those families accept.
//
// Conditions, filters and update changes are built with package expr; every
// attribute name goes through a placeholder. The placeholders are
// deterministic, and golden files in testdata pin every builder's output as
// DynamoDB JSON (go test ./request -update rewrites them).
//
// Errors are *Error values naming the operation and, where there is one, the
// field; the repo reports them as validation errors.
package request
