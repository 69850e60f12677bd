// Package expr builds DynamoDB condition, filter, update and projection
// expressions.
//
// It holds the one AST of DynamoDB expressions (ast.go), shared with
// expr/parse, which reads expression text into the same tree for the local
// server. Print, PrintUpdate and PrintProjection render a tree as text.
package expr
