package storage_test

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/local/storage"
)

// Keys encoded with AppendKey sort as DynamoDB orders key values: numbers
// numerically, not as text.
func ExampleAppendKey() {
	c, _ := storage.NewMemory().Collection("scores")
	for _, n := range []string{"10", "-2.5", "9", "100"} {
		k, _ := storage.AppendKey(nil, &types.AttributeValueMemberN{Value: n})
		c.Put(k, storage.Item{"n": &types.AttributeValueMemberN{Value: n}})
	}
	c.Ascend(nil, nil, func(_ []byte, it storage.Item) bool {
		fmt.Print(it["n"].(*types.AttributeValueMemberN).Value, " ")
		return true
	})
	fmt.Println()
	// Output: -2.5 9 10 100
}

// Apply writes an item and its index entry together, or neither.
func ExampleEngine_Apply() {
	e := storage.NewMemory()
	items, _ := e.Collection("orders")
	byUser, _ := e.Collection("orders/by-user")
	order := storage.Item{"id": &types.AttributeValueMemberS{Value: "o1"}, "user": &types.AttributeValueMemberS{Value: "ann"}}
	err := e.Apply([]storage.Op{
		storage.Put(items, []byte("o1"), order),
		storage.Put(byUser, []byte("ann\x00o1"), order),
	})
	fmt.Println(err, items.Len(), byUser.Len())
	// Output: <nil> 1 1
}
