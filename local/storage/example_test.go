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
		v, _ := storage.Encode(storage.Item{"n": &types.AttributeValueMemberN{Value: n}})
		c.Put(k, v)
	}
	c.Ascend(nil, nil, func(_ []byte, v storage.Value) bool {
		it, _ := v.Item()
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
	order, _ := storage.Encode(storage.Item{"id": &types.AttributeValueMemberS{Value: "o1"}, "user": &types.AttributeValueMemberS{Value: "ann"}})
	err := e.Apply([]storage.Op{
		storage.Put(items, []byte("o1"), order),
		storage.Put(byUser, []byte("ann\x00o1"), order),
	})
	fmt.Println(err, items.Len(), byUser.Len())
	// Output: <nil> 1 1
}

// A Value answers as DynamoDB JSON straight from its encoding, and knows
// its size.
func ExampleValue_AppendJSON() {
	v, _ := storage.Encode(storage.Item{
		"pk":   &types.AttributeValueMemberS{Value: "user#1"},
		"n":    &types.AttributeValueMemberN{Value: "42"},
		"tags": &types.AttributeValueMemberSS{Value: []string{"a", "b"}},
	})
	fmt.Println(string(v.AppendJSON(nil)), v.Size())
	// Output: {"n":{"N":"42"},"pk":{"S":"user#1"},"tags":{"SS":["a","b"]}} 17
}
