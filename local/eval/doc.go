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
// simply false. Numbers compare and add exactly (internal/numbers).
//
// Errors are *Error with Type "ValidationException" and DynamoDB's message.
package eval
