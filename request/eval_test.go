package request_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/local/eval"
)

// Every golden request's expressions pass the local server's validation,
// which follows DynamoDB's: syntax, reserved words, undefined and unused
// names and values, overlapping paths.
func TestGoldenRequestsValidate(t *testing.T) {
	lines := append(cheatSheet(), moreBuilders()...)
	for _, line := range lines {
		t.Run(line.name, func(t *testing.T) {
			_, in, err := line.build()
			if err != nil {
				t.Fatal(err)
			}
			for i, e := range inputsOf(in) {
				if _, err := eval.Compile(e); err != nil {
					t.Errorf("expression set %d: %v\n%+v", i, err, e)
				}
			}
		})
	}
}

// inputsOf lists the expression sets of one request: one per item for
// transactions, one per table for batch reads.
func inputsOf(in any) []eval.Input {
	switch in := in.(type) {
	case *dynamodb.GetItemInput:
		return []eval.Input{{Projection: in.ProjectionExpression, Names: in.ExpressionAttributeNames}}
	case *dynamodb.PutItemInput:
		return []eval.Input{{Condition: in.ConditionExpression, Names: in.ExpressionAttributeNames, Values: in.ExpressionAttributeValues}}
	case *dynamodb.DeleteItemInput:
		return []eval.Input{{Condition: in.ConditionExpression, Names: in.ExpressionAttributeNames, Values: in.ExpressionAttributeValues}}
	case *dynamodb.UpdateItemInput:
		return []eval.Input{{Update: in.UpdateExpression, Condition: in.ConditionExpression, Names: in.ExpressionAttributeNames, Values: in.ExpressionAttributeValues}}
	case *dynamodb.CreateTableInput:
		return nil // no expressions
	case *dynamodb.QueryInput:
		return []eval.Input{{KeyCondition: in.KeyConditionExpression, Filter: in.FilterExpression, Projection: in.ProjectionExpression,
			Names: in.ExpressionAttributeNames, Values: in.ExpressionAttributeValues}}
	case *dynamodb.ScanInput:
		return []eval.Input{{Filter: in.FilterExpression, Projection: in.ProjectionExpression,
			Names: in.ExpressionAttributeNames, Values: in.ExpressionAttributeValues}}
	case *dynamodb.SearchVectorsInput:
		return []eval.Input{{Filter: in.SearchConditionExpression, Projection: in.ProjectionExpression,
			Names: in.ExpressionAttributeNames, Values: in.ExpressionAttributeValues}}
	case *dynamodb.BatchGetItemInput:
		var out []eval.Input
		for _, ka := range in.RequestItems {
			out = append(out, eval.Input{Projection: ka.ProjectionExpression, Names: ka.ExpressionAttributeNames})
		}
		return out
	case *dynamodb.TransactGetItemsInput:
		var out []eval.Input
		for _, it := range in.TransactItems {
			out = append(out, eval.Input{Projection: it.Get.ProjectionExpression, Names: it.Get.ExpressionAttributeNames})
		}
		return out
	case *dynamodb.BatchWriteItemInput:
		return nil
	case *dynamodb.TransactWriteItemsInput:
		var out []eval.Input
		for _, it := range in.TransactItems {
			out = append(out, txInput(it))
		}
		return out
	}
	panic("inputsOf: unexpected input")
}

func txInput(it types.TransactWriteItem) eval.Input {
	switch {
	case it.Put != nil:
		return eval.Input{Condition: it.Put.ConditionExpression, Names: it.Put.ExpressionAttributeNames, Values: it.Put.ExpressionAttributeValues}
	case it.Update != nil:
		return eval.Input{Update: it.Update.UpdateExpression, Condition: it.Update.ConditionExpression, Names: it.Update.ExpressionAttributeNames, Values: it.Update.ExpressionAttributeValues}
	case it.Delete != nil:
		return eval.Input{Condition: it.Delete.ConditionExpression, Names: it.Delete.ExpressionAttributeNames, Values: it.Delete.ExpressionAttributeValues}
	}
	return eval.Input{Condition: it.ConditionCheck.ConditionExpression, Names: it.ConditionCheck.ExpressionAttributeNames, Values: it.ConditionCheck.ExpressionAttributeValues}
}
