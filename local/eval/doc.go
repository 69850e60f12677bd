// Package eval is the local server's expression engine: it compiles the
// expressions of one request (ConditionExpression, FilterExpression,
// KeyConditionExpression, UpdateExpression, ProjectionExpression) with their
// ExpressionAttributeNames and ExpressionAttributeValues, and evaluates them
// against items with DynamoDB's semantics.
//
// Compile does every check DynamoDB does before it reads an item, in
// DynamoDB's order and with its messages: the placeholder maps, syntax and
// reserved words (expr/parse), undefined names and values, operand counts
// and types, BETWEEN bounds, overlapping update and projection paths, and
// finally placeholders that no expression used. What can only be known from
// an item — a missing attribute in SET, arithmetic on a non-number, a path
// whose parent does not exist — fails when the update is applied.
//
// Conditions never fail on an item: comparing values of different types is
// simply false, a missing attribute is equal to nothing and unequal (<>) to
// everything. Numbers compare and add exactly (internal/numbers); strings
// and binaries compare bytewise, strings as UTF-8; size() of a string counts
// UTF-16 code units, as DynamoDB does.
//
// Where the developer guide is silent or wrong, the behaviour follows what
// DynamoDB answers (as recorded by test suites run against it): contains()
// works on binaries and lists, attribute_type() and begins_with() accept
// values as first operand, IN takes at most 100 values, list_append may only
// be the whole value of a SET action, and REMOVE of a nested path whose
// parent is missing fails.
//
// Compile keeps the parse of recently seen expression texts (a bounded,
// concurrency-safe cache: parsing depends on the text alone), so a client
// repeating its expressions pays for resolving its names and values only;
// every check against them still runs on every request. The paths of an
// update or projection, and the conditions of a key condition, which depend
// on the text and the names alone, are kept with the parse and reused while
// the names stand for the same attributes; a key condition's values are
// checked against its kept conditions, and a request whose values fail a
// check is resolved in full for its error.
//
// Errors are *Error with Type "ValidationException" and DynamoDB's message.
package eval
