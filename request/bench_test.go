package request_test

import (
	"testing"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/request"
)

// BenchmarkQueryFilter builds the request of bench/expression_test.go: a
// Query of one partition with a begins_with sort key, a two-clause filter
// and a projection. bench/ compares it with aws-sdk-go-v2's expression
// package.
func BenchmarkQueryFilter(b *testing.B) {
	filter := expr.AllOf(expr.Gt("total", 100), expr.OneOf("status", "open", "paid"))
	b.ReportAllocs()
	for b.Loop() {
		in, err := request.Query(Orders, Order{UserID: "u"},
			request.SortBeginsWith("2024-06"),
			request.Filter(filter),
			request.Project("total", "status"))
		if err != nil || in.FilterExpression == nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUpdate(b *testing.B) {
	args := []request.UpdateOption{expr.Set("status", "paid"), expr.Increment("version", 1), expr.Remove("tmp")}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := request.Update(Orders, key, args...); err != nil {
			b.Fatal(err)
		}
	}
}
