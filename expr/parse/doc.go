// Package parse reads DynamoDB expression text — condition, filter, key
// condition, update and projection expressions — into the expr AST.
//
// The parser is a hand-written lexer and recursive-descent parser for the
// grammars of the DynamoDB developer guide ("Condition and filter
// expressions, operators, and functions", "Update expressions", "Projection
// expressions"). Precedence, from tightest: comparators, IN, BETWEEN,
// functions, parentheses, NOT, AND, OR.
//
// Names and values stay as written: a bare attribute name, or a "#name"
// placeholder in a PathElem, and a ":value" placeholder in an expr.Value with
// no AttributeValue. Resolving them against ExpressionAttributeNames and
// ExpressionAttributeValues, and every check that needs them (undefined and
// unused placeholders, operand types, overlapping update paths), is the work
// of local/eval.
//
// Errors are *SyntaxError carrying DynamoDB's ValidationException text for
// what is wrong with the text itself: syntax, reserved words used as names,
// redundant parentheses, unknown or misplaced functions (list_append only as
// the whole value of a SET action, size() only as an operand, the condition
// functions only as conditions), an empty or too large expression. When an
// expression has several such problems, the one reported is the one DynamoDB
// reports: a syntax error first, then redundant parentheses, then function
// names, then misplaced functions, then reserved words. Deep nesting is
// capped (MaxDepth), so no input can exhaust the stack.
//
// expr.Print renders a parsed tree as canonical text, and parsing that text
// gives the same tree back.
package parse
