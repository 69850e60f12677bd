// Command dynamo is the Dynamo for Go command line: `dynamo local` serves a
// DynamoDB-compatible endpoint, `dynamo demo` walks through the library on
// it, and create-table, list-tables, delete-table and generate-schema manage
// tables; see `dynamo help` and package internal/cli for flags and exit codes.
package main
