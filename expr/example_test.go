package expr_test

import (
	"fmt"

	"github.com/dynamogo/dynamo/expr"
)

func Example() {
	b := expr.NewBuilder(nil) // no schema: values are inferred
	cond, _ := b.Condition(expr.AllOf(
		expr.NotExists("pk"),
		expr.OneOf("status", "a", "b"),
	), "c")
	update, _ := b.Update([]expr.Change{
		expr.Set("status", "paid"),
		expr.Increment("version", 1),
		expr.Remove("tmp"),
	})
	fmt.Println(cond)
	fmt.Println(update)
	fmt.Println(len(b.Names()), "names,", len(b.Values()), "values")
	// Output:
	// attribute_not_exists(#c0) AND #c1 IN (:c2, :c3)
	// SET #a0 = :v0, #a1 = #a1 + :v1 REMOVE #a2
	// 5 names, 4 values
}

func ExampleAttr() {
	b := expr.NewBuilder(nil)
	text, _ := b.Condition(expr.AnyOf(
		expr.Eq(expr.Attr("address", "city"), "Paris"),
		expr.Gt(expr.Size(expr.Attr("items").Index(0).Attr("tags")), 2),
	), "f")
	fmt.Println(text)
	fmt.Println(b.Names())
	// Output:
	// #f0.#f1 = :f2 OR size(#f3[0].#f4) > :f5
	// map[#f0:address #f1:city #f3:items #f4:tags]
}

func ExampleRawCond() {
	b := expr.NewBuilder(nil)
	text, _ := b.Condition(expr.AllOf(
		expr.Exists("pk"),
		expr.RawCond("#t > :m", map[string]string{"#t": "total"}, map[string]any{"m": 100}),
	), "c")
	fmt.Println(text)
	// Output:
	// attribute_exists(#c0) AND (#t > :m)
}
