package ddbjson_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/codec/ddbjson"
)

func ExampleMarshalItem() {
	item := map[string]types.AttributeValue{
		"pk":    &types.AttributeValueMemberS{Value: "order#42"},
		"total": &types.AttributeValueMemberN{Value: "19.90"},
		"tags":  &types.AttributeValueMemberSS{Value: []string{"gift", "<fragile>"}},
	}
	b, _ := ddbjson.MarshalItem(item)
	fmt.Println(string(b))
	// Output: {"pk":{"S":"order#42"},"tags":{"SS":["gift","<fragile>"]},"total":{"N":"19.90"}}
}

func ExampleUnmarshal() {
	av, _ := ddbjson.Unmarshal([]byte(`{"L":[{"S":"a"},{"BOOL":true}]}`))
	for _, e := range av.(*types.AttributeValueMemberL).Value {
		fmt.Printf("%T\n", e)
	}

	_, err := ddbjson.Unmarshal([]byte(`{"N":123}`))
	var se *ddbjson.SyntaxError
	if errors.As(err, &se) {
		fmt.Println(se.Msg)
	}
	// Output:
	// *types.AttributeValueMemberS
	// *types.AttributeValueMemberBOOL
	// NUMBER_VALUE cannot be converted to String
}

func ExampleItem() {
	var req struct {
		TableName string
		Key       ddbjson.Item
	}
	_ = json.Unmarshal([]byte(`{"TableName":"app","Key":{"pk":{"S":"u#1"}}}`), &req)
	fmt.Println(req.TableName, req.Key["pk"].(*types.AttributeValueMemberS).Value)
	out, _ := json.Marshal(req)
	fmt.Println(string(out))
	// Output:
	// app u#1
	// {"TableName":"app","Key":{"pk":{"S":"u#1"}}}
}
