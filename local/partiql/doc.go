// Package partiql parses the PartiQL dialect DynamoDB speaks in
// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction
// (ql-reference.html and the pages under it):
//
//	SELECT * | path, ... FROM "table"["."index"] [WHERE cond] [ORDER BY key [ASC|DESC], ...]
//	INSERT INTO "table" VALUE {'attr': value, ...}
//	UPDATE "table" SET path = value [, ...] | REMOVE path [, ...] ... WHERE cond
//	       [RETURNING ALL|MODIFIED OLD|NEW *]
//	DELETE FROM "table" WHERE cond [RETURNING ALL OLD *]
//	EXISTS(SELECT * FROM "table" WHERE cond)          (transactions only)
//
// Conditions use =, <> (or !=), <, <=, >, >=, BETWEEN, IN, AND, OR, NOT,
// IS [NOT] MISSING, IS [NOT] NULL and the functions begins_with, contains,
// attribute_type and size; SET values may add or subtract (+, -) and call
// list_append, set_add, set_delete and if_not_exists. Literals are
// 'strings' (a doubled quote stands for one), numbers, TRUE, FALSE, NULL, lists [...],
// maps {'k': v} and sets <<...>>; ? is the next of the request's Parameters.
// Keywords and function names are case-insensitive; identifiers, bare or
// "double-quoted", are case-sensitive, as attribute names are.
//
// The parser produces the expression AST of package expr (paths, values,
// conditions, update actions), with every literal and parameter already an
// encoded attribute value, so the server evaluates a statement with the same
// engine as the equivalent JSON operation. Syntax errors are *SyntaxError,
// whose message is DynamoDB's ValidationException text with the line and
// column of the offending token.
package partiql
