// Package limits holds DynamoDB's service limits as named constants, so that
// the client-side validation (packages request, schema and dynamo) and the
// local server's enforcement (package local and below) check one number.
//
// Sources: the developer guide's "Service, account, and table quotas in
// Amazon DynamoDB" (ServiceQuotas.html) and "Constraints" pages, the API
// reference of each action named below, and spec/vector-search.md section 2.2
// for vector indexes. The values are DynamoDB's; change one only when
// DynamoDB does.
package limits
