package expr_test

import (
	"strings"
	"testing"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/expr/parse"
)

// FuzzBuilderNames: whatever the attribute names (reserved words, dots,
// spaces, quotes, non-ASCII), the Builder's output parses as DynamoDB
// expression text and its names map back to exactly the names given.
func FuzzBuilderNames(f *testing.F) {
	f.Add("status", "a.b", "comment", 3)
	f.Add("#x", ":y", "size", -1)
	f.Add("with space", "ünïcode", "(", 0)
	f.Fuzz(func(t *testing.T, n1, n2, n3 string, i int) {
		if n1 == "" || n2 == "" || n3 == "" {
			return
		}
		b := expr.NewBuilder(nil)
		idx := i & 7
		cond := expr.AllOf(
			expr.Eq(n1, "v"),
			expr.AnyOf(expr.Exists(expr.Attr(n2, n3)), expr.Gt(expr.Size(expr.Attr(n1).Index(idx)), i)),
			expr.Negate(expr.BeginsWith(n3, n2)),
		)
		text, err := b.Condition(cond, "c")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := parse.Condition(text); err != nil {
			t.Fatalf("parse %q: %v", text, err)
		}
		update, err := b.Update([]expr.Change{expr.Set(n1, i), expr.Remove(expr.Attr(n2).Index(idx))})
		if err != nil {
			if n1 == n2 {
				return // the same path twice is rightly refused
			}
			t.Fatal(err)
		}
		if _, err := parse.Update(update); err != nil {
			t.Fatalf("parse %q: %v", update, err)
		}
		got := map[string]bool{}
		for ph, name := range b.Names() {
			if !strings.Contains(text+" "+update, ph) {
				t.Errorf("name %s unused", ph)
			}
			got[name] = true
		}
		for _, n := range []string{n1, n2, n3} {
			if !got[n] {
				t.Errorf("name %q missing from %v", n, b.Names())
			}
		}
	})
}
