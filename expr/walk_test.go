package expr_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dynamogo/dynamo/expr"
)

// Nodes reaches every operand, including both BETWEEN bounds, every IN
// value and function arguments, in written order, and stops when asked.
func TestNodes(t *testing.T) {
	c := expr.AllOf(
		expr.InRange("a", expr.Attr("lo"), expr.Attr("hi")),
		expr.Negate(expr.OneOf("b", expr.Attr("in1"), expr.Size("in2"))),
		expr.AnyOf(expr.BeginsWith("c", "x"), expr.Gt(expr.Size("d"), 1)),
	)
	var paths []string
	for n := range expr.Nodes(c) {
		if p, ok := n.(expr.Path); ok {
			paths = append(paths, fmt.Sprint(p))
		}
	}
	if got, want := strings.Join(paths, " "), "a lo hi b in1 in2 c d"; got != want {
		t.Fatalf("paths %q, want %q", got, want)
	}
	seen := 0
	for range expr.Nodes(c) {
		if seen++; seen == 3 {
			break
		}
	}
	if seen != 3 {
		t.Fatalf("visited %d nodes after break", seen)
	}
}
