package eval_test

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/local/eval"
)

func str(s string) *string { return &s }

func ExampleCompile() {
	c, err := eval.Compile(eval.Input{
		Condition: str("attribute_exists(pk) AND #s = :open"),
		Update:    str("SET #s = :closed ADD visits :one"),
		Names:     map[string]string{"#s": "status"},
		Values: map[string]types.AttributeValue{
			":open":   &types.AttributeValueMemberS{Value: "open"},
			":closed": &types.AttributeValueMemberS{Value: "closed"},
			":one":    &types.AttributeValueMemberN{Value: "1"},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	item := eval.Item{
		"pk":     &types.AttributeValueMemberS{Value: "order#1"},
		"status": &types.AttributeValueMemberS{Value: "open"},
		"visits": &types.AttributeValueMemberN{Value: "41"},
	}
	ok, _ := c.Condition(item)
	fmt.Println("condition:", ok)
	updated, changed, err := c.Update(item, []string{"pk"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("changed:", changed)
	fmt.Println("status:", updated["status"].(*types.AttributeValueMemberS).Value)
	fmt.Println("visits:", updated["visits"].(*types.AttributeValueMemberN).Value)
	// Output:
	// condition: true
	// changed: [status visits]
	// status: closed
	// visits: 42
}

func ExampleCompile_errors() {
	_, err := eval.Compile(eval.Input{
		Filter: str("#t > :min"),
		Values: map[string]types.AttributeValue{":min": &types.AttributeValueMemberN{Value: "100"}},
	})
	fmt.Println(err)
	_, err = eval.Compile(eval.Input{
		Update: str("SET a = :v, a.b = :v"),
		Values: map[string]types.AttributeValue{":v": &types.AttributeValueMemberS{Value: "x"}},
	})
	fmt.Println(err)
	// Output:
	// Invalid FilterExpression: An expression attribute name used in the document path is not defined; attribute name: #t
	// Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a, b]
}

func ExampleCompiled_KeyCondition() {
	c, err := eval.Compile(eval.Input{
		KeyCondition: str("pk = :pk AND begins_with(sk, :month)"),
		Values: map[string]types.AttributeValue{
			":pk":    &types.AttributeValueMemberS{Value: "user#u1"},
			":month": &types.AttributeValueMemberS{Value: "2024-06"},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	kc, err := c.KeyCondition("pk", "sk")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(kc.PartitionName, kc.SortName, kc.SortOp)
	fmt.Println(kc.Matches(&types.AttributeValueMemberS{Value: "2024-06-17#o1"}))
	_, err = c.KeyCondition("gpk", "gsk")
	fmt.Println(err)
	// Output:
	// pk sk BEGINS_WITH
	// true
	// Query condition missed key schema element: gpk
}

func ExampleCompiled_Project() {
	c, err := eval.Compile(eval.Input{Projection: str("pk, entries[1].sku")})
	if err != nil {
		fmt.Println(err)
		return
	}
	item := eval.Item{
		"pk":    &types.AttributeValueMemberS{Value: "order#1"},
		"total": &types.AttributeValueMemberN{Value: "30"},
		"entries": &types.AttributeValueMemberL{Value: []types.AttributeValue{
			&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"sku": &types.AttributeValueMemberS{Value: "a"}}},
			&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
				"sku": &types.AttributeValueMemberS{Value: "b"}, "qty": &types.AttributeValueMemberN{Value: "2"}}},
		}},
	}
	out := c.Project(item)
	lines := out["entries"].(*types.AttributeValueMemberL).Value
	fmt.Println(len(out), len(lines), lines[0].(*types.AttributeValueMemberM).Value["sku"].(*types.AttributeValueMemberS).Value)
	// Output: 2 1 b
}
