package request_test

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/request"
)

func ExampleQuery() {
	in, err := request.Query(Orders, Order{UserID: "u"},
		request.SortBeginsWith("2024-06"),
		request.Filter(expr.Gt("total", 100)),
		request.Descending(), request.Limit(50))
	if err != nil {
		panic(err)
	}
	fmt.Println(*in.KeyConditionExpression)
	fmt.Println(*in.FilterExpression)
	fmt.Println(in.ExpressionAttributeNames)
	// Output:
	// #pk = :pk AND begins_with(#sk, :sk)
	// #f0 > :f1
	// map[#f0:total #pk:pk #sk:sk]
}

func ExampleUpdate() {
	in, err := request.Update(Orders, Order{UserID: "u", PlacedAt: dt, OrderID: "o"},
		expr.Set("status", "paid"), expr.Increment("version", 1),
		request.If(expr.Eq("version", 3)),
		request.ReturnValues(types.ReturnValueAllNew))
	if err != nil {
		panic(err)
	}
	fmt.Println(*in.UpdateExpression)
	fmt.Println(*in.ConditionExpression)

	_, err = request.Update(Orders, Order{UserID: "u", PlacedAt: dt, OrderID: "o"},
		expr.Set("user_id", "v"))
	fmt.Println(err)
	// Output:
	// SET #a0 = :v0, #a1 = #a1 + :v1, #a2 = if_not_exists(#a2, :v2)
	// #c0 = :c1
	// dynamo: UpdateItem: field user_id: key attributes cannot be updated; delete the item and put it again (atomically with a transaction)
}

func ExampleTransactWrite() {
	in, err := request.TransactWrite([]request.TxOp{
		request.TxUpdate(Accts, Acct{ID: "a"}, expr.Decrement("balance", 5),
			request.If(expr.Ge("balance", 5))),
		request.TxUpdate(Accts, Acct{ID: "b"}, expr.Increment("balance", 5)),
	}, request.ClientRequestToken("idem-1"))
	if err != nil {
		panic(err)
	}
	for _, item := range in.TransactItems {
		fmt.Println(*item.Update.UpdateExpression, "|", item.Update.ConditionExpression != nil)
	}
	// Output:
	// SET #a0 = #a0 - :v0, #a1 = if_not_exists(#a1, :v1) | true
	// SET #a0 = #a0 + :v0, #a1 = if_not_exists(#a1, :v1) | false
}
