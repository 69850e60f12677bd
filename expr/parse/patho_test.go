package parse

import (
	"strings"
	"testing"
)

// Inputs built to make a backtracking parser slow or a recursive one deep;
// each must be rejected (or accepted) quickly.
func TestPathologicalInputs(t *testing.T) {
	for _, unit := range []string{"(", "(a", "(a = ", "((a) = :v AND ", "NOT ", "NOT (", "size(", "(size(",
		"a.", "a[1]", "(:v", "contains(", "a IN (", "a BETWEEN (", "(#a.b[0]", ") ", "( size(a) "} {
		s := strings.Repeat(unit, MaxExpressionSize/len(unit))
		Condition(s)
		Update("SET x = " + s[:len(s)-8])
		Projection(s)
	}
}
