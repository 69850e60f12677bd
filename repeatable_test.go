package dynamo

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestRepeatable(t *testing.T) {
	n := &types.AttributeValueMemberN{Value: "1"}
	ss := &types.AttributeValueMemberSS{Value: []string{"a"}}
	update := func(text string, mod ...func(*dynamodb.UpdateItemInput)) *dynamodb.UpdateItemInput {
		in := &dynamodb.UpdateItemInput{UpdateExpression: aws.String(text),
			ExpressionAttributeNames:  map[string]string{"#a": "a", "#b": "b", "#a2": "a"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":n": n, ":s": ss, ":v": n}}
		for _, m := range mod {
			m(in)
		}
		return in
	}
	cond := func(in *dynamodb.UpdateItemInput) { in.ConditionExpression = aws.String("attribute_exists(pk)") }
	returns := func(rv types.ReturnValue) func(*dynamodb.UpdateItemInput) {
		return func(in *dynamodb.UpdateItemInput) { in.ReturnValues = rv }
	}
	cases := []struct {
		action string
		params any
		want   bool
	}{
		{"GetItem", &dynamodb.GetItemInput{}, true},
		{"Query", &dynamodb.QueryInput{}, true},
		{"Scan", &dynamodb.ScanInput{}, true},
		{"DescribeTable", &dynamodb.DescribeTableInput{}, true},
		{"ListTables", &dynamodb.ListTablesInput{}, true},
		{"BatchGetItem", &dynamodb.BatchGetItemInput{}, true},
		{"BatchWriteItem", &dynamodb.BatchWriteItemInput{}, true},
		{"CreateTable", &dynamodb.CreateTableInput{}, false},
		{"DeleteTable", &dynamodb.DeleteTableInput{}, false},
		{"PutItem", &dynamodb.PutItemInput{}, true},
		{"PutItem", &dynamodb.PutItemInput{ReturnValues: types.ReturnValueNone}, true},
		{"PutItem", &dynamodb.PutItemInput{ReturnValues: types.ReturnValueAllOld}, false},
		{"PutItem", &dynamodb.PutItemInput{ConditionExpression: aws.String("attribute_not_exists(pk)")}, false},
		{"PutItem", &dynamodb.PutItemInput{Expected: map[string]types.ExpectedAttributeValue{"pk": {}}}, false},
		{"DeleteItem", &dynamodb.DeleteItemInput{}, true},
		{"DeleteItem", &dynamodb.DeleteItemInput{ReturnValues: types.ReturnValueAllOld}, false},
		{"DeleteItem", &dynamodb.DeleteItemInput{ConditionExpression: aws.String("v = :v")}, false},
		{"TransactWriteItems", &dynamodb.TransactWriteItemsInput{ClientRequestToken: aws.String("t")}, true},
		{"TransactWriteItems", &dynamodb.TransactWriteItemsInput{}, false},
		{"UpdateItem", &dynamodb.UpdateItemInput{}, true},
		{"UpdateItem", update("SET #a = :v, c = :v REMOVE d, e.f"), true},
		{"UpdateItem", update("SET #a = :v", returns(types.ReturnValueAllNew)), true},
		{"UpdateItem", update("SET #a = :v", returns(types.ReturnValueUpdatedNew)), true},
		{"UpdateItem", update("SET #a = :v", returns(types.ReturnValueAllOld)), false},
		{"UpdateItem", update("SET #a = :v", returns(types.ReturnValueUpdatedOld)), false},
		{"UpdateItem", update("SET #a = :v", cond), false},
		{"UpdateItem", update("SET #a = if_not_exists(#a, :v)"), true},
		{"UpdateItem", update("SET #a = if_not_exists(#a2, :v)"), true}, // the same attribute
		{"UpdateItem", update("SET #a = if_not_exists(#b, :v)"), false},
		{"UpdateItem", update("SET #a = #a + :n"), false},
		{"UpdateItem", update("SET #a = if_not_exists(#a, :v) + :n"), false},
		{"UpdateItem", update("SET #a = #b"), false},
		{"UpdateItem", update("SET #a = list_append(#a, :v)"), false},
		{"UpdateItem", update("SET l[3] = :v"), false},
		{"UpdateItem", update("REMOVE l[0]"), false},
		{"UpdateItem", update("ADD #a :n"), false},
		{"UpdateItem", update("ADD #a :s"), true},
		{"UpdateItem", update("DELETE #a :s"), true},
		{"UpdateItem", update("SET #a = :v ADD #b :n"), false},
		{"UpdateItem", update("this is not an expression"), false},
		{"UpdateItem", &dynamodb.UpdateItemInput{AttributeUpdates: map[string]types.AttributeValueUpdate{"a": {}}}, false},
		{"ExecuteStatement", &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "t"`)}, true},
		{"ExecuteStatement", &dynamodb.ExecuteStatementInput{Statement: aws.String("\n  select\t* FROM t")}, true},
		{"ExecuteStatement", &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT"a" FROM t`)}, true},
		{"ExecuteStatement", &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECTION`)}, false},
		{"ExecuteStatement", &dynamodb.ExecuteStatementInput{Statement: aws.String(`INSERT INTO "t" VALUE {'pk': 'a'}`)}, false},
		{"ExecuteStatement", &dynamodb.ExecuteStatementInput{Statement: aws.String(`UPDATE "t" SET a = 1 WHERE pk = 'a'`)}, false},
		{"ExecuteStatement", &dynamodb.ExecuteStatementInput{Statement: aws.String(`DELETE FROM "t" WHERE pk = 'a'`)}, false},
		{"ExecuteStatement", &dynamodb.ExecuteStatementInput{}, false},
		{"BatchExecuteStatement", &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
			{Statement: aws.String(`SELECT * FROM t WHERE pk = 'a'`)}, {Statement: aws.String(`SELECT * FROM t WHERE pk = 'b'`)}}}, true},
		{"BatchExecuteStatement", &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
			{Statement: aws.String(`SELECT * FROM t WHERE pk = 'a'`)}, {Statement: aws.String(`DELETE FROM t WHERE pk = 'b'`)}}}, false},
		{"ExecuteTransaction", &dynamodb.ExecuteTransactionInput{ClientRequestToken: aws.String("t")}, true},
		{"ExecuteTransaction", &dynamodb.ExecuteTransactionInput{}, false},
	}
	for _, tc := range cases {
		if got := repeatable(shapeOf(tc.action, tc.params)); got != tc.want {
			t.Errorf("%s %+v: repeatable = %v, want %v", tc.action, tc.params, got, tc.want)
		}
	}

	raw := []struct {
		action, body string
		want         bool
	}{
		{"GetItem", `{"TableName":"t"}`, true},
		{"PutItem", `{"TableName":"t","Item":{}}`, true},
		{"PutItem", `{"ConditionExpression":"attribute_not_exists(pk)"}`, false},
		{"UpdateItem", `{"UpdateExpression":"ADD n :one","ExpressionAttributeValues":{":one":{"N":"1"}}}`, false},
		{"UpdateItem", `{"UpdateExpression":"ADD n :s","ExpressionAttributeValues":{":s":{"SS":["a"]}}}`, true},
		{"UpdateItem", `{"UpdateExpression":"SET #n = :v","ExpressionAttributeNames":{"#n":"n"},"ReturnValues":"ALL_OLD"}`, false},
		{"TransactWriteItems", `{"TransactItems":[]}`, false},
		{"TransactWriteItems", `{"TransactItems":[],"ClientRequestToken":"t"}`, true},
		{"CreateTable", `{}`, false},
		{"UpdateItem", `not json`, false},
		{"ExecuteStatement", `{"Statement":"SELECT * FROM t"}`, true},
		{"ExecuteStatement", `{"Statement":"UPDATE t SET n = n + 1 WHERE pk = 'a'"}`, false},
		{"BatchExecuteStatement", `{"Statements":[{"Statement":"SELECT * FROM t"},{"Statement":"select * from t"}]}`, true},
		{"BatchExecuteStatement", `{"Statements":[{"Statement":"SELECT * FROM t"},{"Statement":"INSERT INTO t VALUE {'pk':'a'}"}]}`, false},
		{"ExecuteTransaction", `{"TransactStatements":[],"ClientRequestToken":"t"}`, true},
		{"ExecuteTransaction", `{"TransactStatements":[]}`, false},
	}
	for _, tc := range raw {
		if got := repeatable(rawShape(tc.action, []byte(tc.body))); got != tc.want {
			t.Errorf("raw %s %s: repeatable = %v, want %v", tc.action, tc.body, got, tc.want)
		}
	}
}
