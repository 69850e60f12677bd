package parse_test

import (
	"fmt"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/expr/parse"
)

func ExampleCondition() {
	c, err := parse.Condition("attribute_not_exists(pk) OR (#v < :max AND begins_with(sk, :p))")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%T: %s\n", c, expr.Print(c))
	// Output: *expr.Or: attribute_not_exists(pk) OR #v < :max AND begins_with(sk, :p)
}

func ExampleCondition_error() {
	_, err := parse.Condition("status = :s")
	fmt.Println(err)
	_, err = parse.Condition("a =")
	fmt.Println(err)
	// Output:
	// Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: status
	// Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "="
}

func ExampleUpdate() {
	u, err := parse.Update("add visits :one set #n = if_not_exists(#n, :zero) + :one remove tmp")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(expr.PrintUpdate(u))
	// Output: SET #n = if_not_exists(#n, :zero) + :one REMOVE tmp ADD visits :one
}

func ExampleProjection() {
	paths, err := parse.Projection("pk, #d.entries[0].sku")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range paths {
		fmt.Println(p)
	}
	// Output:
	// pk
	// #d.entries[0].sku
}

func ExampleIsReserved() {
	fmt.Println(parse.IsReserved("Status"), parse.IsReserved("total"), parse.IsReserved("price"))
	// Output: true true false
}
