package parse

import (
	"errors"
	"strings"
	"testing"
)

// Inputs built to make a backtracking parser slow or a recursive one deep:
// each is malformed, so each parser must return a short syntax error (one
// that quotes a few tokens near the fault, not the 4 KB input) rather than
// accept it, panic or exhaust the stack.
func TestPathologicalInputs(t *testing.T) {
	for _, unit := range []string{"(", "(a", "(a = ", "((a) = :v AND ", "NOT ", "NOT (", "size(", "(size(",
		"a.", "a[1]", "(:v", "contains(", "a IN (", "a BETWEEN (", "(#a.b[0]", ") ", "( size(a) "} {
		s := strings.Repeat(unit, MaxExpressionSize/len(unit))
		_, cond := Condition(s)
		_, upd := Update("SET x = " + s[:len(s)-8])
		_, proj := Projection(s)
		for _, c := range []struct {
			kind string
			err  error
		}{{"Condition", cond}, {"Update", upd}, {"Projection", proj}} {
			var se *SyntaxError
			if !errors.As(c.err, &se) {
				t.Errorf("%s of %q repeated: err = %v, want a *SyntaxError", c.kind, unit, c.err)
				continue
			}
			msg := se.Error()
			if !strings.HasPrefix(msg, "Invalid "+c.kind+"Expression: Syntax error; token: ") || len(msg) > 120 {
				t.Errorf("%s of %q repeated: message %.200q", c.kind, unit, msg)
			}
		}
	}
}
