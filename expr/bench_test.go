package expr_test

import (
	"testing"

	"github.com/dynamogo/dynamo/expr"
)

func BenchmarkCondition(b *testing.B) {
	c := expr.AllOf(expr.Gt("total", 100), expr.OneOf("status", "open", "paid"), expr.Exists(expr.Attr("address", "city")))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := expr.NewBuilder(nil).Condition(c, "f"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUpdate(b *testing.B) {
	changes := []expr.Change{expr.Set("status", "paid"), expr.Increment("version", 1), expr.Remove("tmp"), expr.Append("log", []any{"x"})}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := expr.NewBuilder(nil).Update(changes); err != nil {
			b.Fatal(err)
		}
	}
}
