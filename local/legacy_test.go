package local_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/local"
)

func cond(op types.ComparisonOperator, vals ...types.AttributeValue) types.Condition {
	return types.Condition{ComparisonOperator: op, AttributeValueList: vals}
}

func TestLegacyExpected(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "leg")
	absent := map[string]types.ExpectedAttributeValue{"pk": {Exists: aws.Bool(false)}}
	if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("leg"), Item: item{"pk": S("a"), "n": N("5"), "s": S("hello")}, Expected: absent}); err != nil {
		t.Fatal(err)
	}
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("leg"), Item: item{"pk": S("a")}, Expected: absent})
	wantErr(t, err, "ConditionalCheckFailedException", "The conditional request failed")

	cases := []struct {
		name     string
		expected map[string]types.ExpectedAttributeValue
		op       types.ConditionalOperator
		ok       bool
	}{
		{"value equals", map[string]types.ExpectedAttributeValue{"n": {Value: N("5")}}, "", true},
		{"value differs", map[string]types.ExpectedAttributeValue{"n": {Value: N("6")}}, "", false},
		{"exists true", map[string]types.ExpectedAttributeValue{"n": {Value: N("5"), Exists: aws.Bool(true)}}, "", true},
		{"GT", map[string]types.ExpectedAttributeValue{"n": {ComparisonOperator: types.ComparisonOperatorGt, AttributeValueList: []types.AttributeValue{N("4")}}}, "", true},
		{"BETWEEN", map[string]types.ExpectedAttributeValue{"n": {ComparisonOperator: types.ComparisonOperatorBetween, AttributeValueList: []types.AttributeValue{N("6"), N("9")}}}, "", false},
		{"BEGINS_WITH", map[string]types.ExpectedAttributeValue{"s": {ComparisonOperator: types.ComparisonOperatorBeginsWith, AttributeValueList: []types.AttributeValue{S("he")}}}, "", true},
		{"NOT_CONTAINS missing", map[string]types.ExpectedAttributeValue{"zz": {ComparisonOperator: types.ComparisonOperatorNotContains, AttributeValueList: []types.AttributeValue{S("x")}}}, "", false},
		{"NULL", map[string]types.ExpectedAttributeValue{"zz": {ComparisonOperator: types.ComparisonOperatorNull}}, "", true},
		{"AND of true and false", map[string]types.ExpectedAttributeValue{"n": {Value: N("5")}, "s": {Value: S("bye")}}, types.ConditionalOperatorAnd, false},
		{"OR of true and false", map[string]types.ExpectedAttributeValue{"n": {Value: N("5")}, "s": {Value: S("bye")}}, types.ConditionalOperatorOr, true},
		{"IN", map[string]types.ExpectedAttributeValue{"n": {ComparisonOperator: types.ComparisonOperatorIn, AttributeValueList: []types.AttributeValue{N("1"), N("5")}}}, "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("leg"), Key: item{"pk": S("a")}, Expected: tc.expected, ConditionalOperator: tc.op})
			if tc.ok && err != nil {
				t.Fatalf("want success, got %v", err)
			}
			if !tc.ok {
				wantErr(t, err, "ConditionalCheckFailedException", "")
			}
		})
	}
	if _, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("leg"), Key: item{"pk": S("a")},
		Expected: map[string]types.ExpectedAttributeValue{"n": {Value: N("5")}}}); err != nil {
		t.Fatal(err)
	}
	if getItem(t, c, "leg", item{"pk": S("a")}) != nil {
		t.Fatal("conditional delete did not delete")
	}
}

func TestLegacyValidation(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "leg")
	put(t, c, "leg", item{"pk": S("a")})
	key := item{"pk": S("a")}
	upd := func(in *dynamodb.UpdateItemInput) error {
		in.TableName, in.Key = aws.String("leg"), key
		_, err := c.UpdateItem(ctx, in)
		return err
	}
	cases := []struct {
		name string
		err  error
		msg  string
	}{
		{"mixing on GetItem", func() error {
			_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("leg"), Key: key, AttributesToGet: []string{"pk"}, ProjectionExpression: aws.String("pk")})
			return err
		}(), "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}"},
		{"mixing on UpdateItem", upd(&dynamodb.UpdateItemInput{UpdateExpression: aws.String("SET a = :a"), ExpressionAttributeValues: item{":a": N("1")},
			Expected: map[string]types.ExpectedAttributeValue{"pk": {Exists: aws.Bool(true), Value: S("a")}}}),
			"Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {Expected} Expression parameters: {UpdateExpression}"},
		{"values without expressions", upd(&dynamodb.UpdateItemInput{ExpressionAttributeValues: item{":a": N("1")},
			AttributeUpdates: map[string]types.AttributeValueUpdate{"a": {Value: N("1")}}}),
			"ExpressionAttributeValues can only be specified when using expressions: UpdateExpression and ConditionExpression are null"},
		{"exists false with value", upd(&dynamodb.UpdateItemInput{Expected: map[string]types.ExpectedAttributeValue{"a": {Exists: aws.Bool(false), Value: N("1")}}}),
			"One or more parameter values were invalid: Value cannot be used when Exists is false for Attribute: a"},
		{"exists true without value", upd(&dynamodb.UpdateItemInput{Expected: map[string]types.ExpectedAttributeValue{"a": {Exists: aws.Bool(true)}}}),
			"One or more parameter values were invalid: Value must be provided when Exists is true for Attribute: a"},
		{"operator without value", upd(&dynamodb.UpdateItemInput{Expected: map[string]types.ExpectedAttributeValue{"a": {ComparisonOperator: types.ComparisonOperatorLt}}}),
			"One or more parameter values were invalid: Value or AttributeValueList must be used with ComparisonOperator: LT for Attribute: a"},
		{"exists with operator", upd(&dynamodb.UpdateItemInput{Expected: map[string]types.ExpectedAttributeValue{"a": {Exists: aws.Bool(true), ComparisonOperator: types.ComparisonOperatorNotNull}}}),
			"One or more parameter values were invalid: Exists and ComparisonOperator cannot be used together for Attribute: a"},
		{"argument count", upd(&dynamodb.UpdateItemInput{Expected: map[string]types.ExpectedAttributeValue{"a": {ComparisonOperator: types.ComparisonOperatorBetween, AttributeValueList: []types.AttributeValue{N("1")}}}}),
			"One or more parameter values were invalid: Invalid number of argument(s) for the BETWEEN ComparisonOperator"},
		{"operand type", upd(&dynamodb.UpdateItemInput{Expected: map[string]types.ExpectedAttributeValue{"a": {ComparisonOperator: types.ComparisonOperatorGt, AttributeValueList: []types.AttributeValue{&types.AttributeValueMemberBOOL{Value: true}}}}}),
			"One or more parameter values were invalid: ComparisonOperator GT is not valid for BOOL AttributeValue type"},
		{"PUT without value", upd(&dynamodb.UpdateItemInput{AttributeUpdates: map[string]types.AttributeValueUpdate{"a": {Action: types.AttributeActionPut}}}),
			"One or more parameter values were invalid: Only DELETE action is allowed when no attribute value is specified"},
		{"BETWEEN bounds", func() error {
			_, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("leg"), ScanFilter: map[string]types.Condition{"n": cond(types.ComparisonOperatorBetween, N("9"), N("1"))}})
			return err
		}(), "The BETWEEN condition was provided a range where the lower bound is greater than the upper bound"},
		{"QueryFilter on a key", func() error {
			_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("leg"), KeyConditions: map[string]types.Condition{"pk": cond(types.ComparisonOperatorEq, S("a"))},
				QueryFilter: map[string]types.Condition{"pk": cond(types.ComparisonOperatorEq, S("a"))}})
			return err
		}(), "QueryFilter can only contain non-primary key attributes: Primary key attribute: pk"},
		{"KeyConditions not indexable", func() error {
			_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("leg"), KeyConditions: map[string]types.Condition{"pk": cond(types.ComparisonOperatorNe, S("a"))}})
			return err
		}(), "Attempted conditional constraint is not an indexable operation"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { wantErr(t, tc.err, "ValidationException", tc.msg) })
	}
}

func TestLegacyAttributeUpdates(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "leg")
	put(t, c, "leg", item{"pk": S("a"), "gone": S("x"), "tags": &types.AttributeValueMemberSS{Value: []string{"a", "b", "c"}},
		"list": &types.AttributeValueMemberL{Value: []types.AttributeValue{N("1")}}, "n": N("10")})
	out, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("leg"), Key: item{"pk": S("a")},
		AttributeUpdates: map[string]types.AttributeValueUpdate{
			"title":   {Value: S("hello")}, // PUT is the default
			"n":       {Action: types.AttributeActionAdd, Value: N("-3")},
			"counter": {Action: types.AttributeActionAdd, Value: N("1")}, // ADD to a missing number starts from 0
			"gone":    {Action: types.AttributeActionDelete},
			"tags":    {Action: types.AttributeActionDelete, Value: &types.AttributeValueMemberSS{Value: []string{"b"}}},
			"more":    {Action: types.AttributeActionAdd, Value: &types.AttributeValueMemberSS{Value: []string{"x"}}},
			"list":    {Action: types.AttributeActionAdd, Value: &types.AttributeValueMemberL{Value: []types.AttributeValue{N("2")}}},
			"newlist": {Action: types.AttributeActionAdd, Value: &types.AttributeValueMemberL{Value: []types.AttributeValue{S("z")}}},
		},
		ReturnValues: types.ReturnValueAllNew})
	if err != nil {
		t.Fatal(err)
	}
	a := out.Attributes
	if sval(a["title"]) != "hello" || sval(a["n"]) != "7" || sval(a["counter"]) != "1" || a["gone"] != nil {
		t.Fatalf("attributes = %v", a)
	}
	tags := a["tags"].(*types.AttributeValueMemberSS).Value
	sort.Strings(tags)
	if strings.Join(tags, ",") != "a,c" || a["more"].(*types.AttributeValueMemberSS).Value[0] != "x" {
		t.Fatalf("sets: tags %v more %v", tags, a["more"])
	}
	if l := a["list"].(*types.AttributeValueMemberL).Value; len(l) != 2 || sval(l[1]) != "2" {
		t.Fatalf("list = %v", l)
	}
	if l := a["newlist"].(*types.AttributeValueMemberL).Value; len(l) != 1 || sval(l[0]) != "z" {
		t.Fatalf("newlist = %v", l)
	}
}

func TestLegacyReads(t *testing.T) {
	srv, c := newServer(t)
	hashRangeTable(t, srv, "leg")
	for _, sk := range []string{"a1", "a2", "a3", "b1"} {
		put(t, c, "leg", item{"pk": S("p"), "sk": S(sk), "n": N(sk[1:]), "x": S("big")})
	}
	q, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("leg"),
		KeyConditions:   map[string]types.Condition{"pk": cond(types.ComparisonOperatorEq, S("p")), "sk": cond(types.ComparisonOperatorBeginsWith, S("a"))},
		QueryFilter:     map[string]types.Condition{"n": cond(types.ComparisonOperatorGe, N("2"))},
		AttributesToGet: []string{"sk", "n"}})
	if err != nil {
		t.Fatal(err)
	}
	if q.Count != 2 || q.ScannedCount != 3 || len(q.Items[0]) != 2 || sval(q.Items[0]["sk"]) != "a2" {
		t.Fatalf("query: count %d scanned %d items %v", q.Count, q.ScannedCount, q.Items)
	}
	// KeyConditions with a FilterExpression is the one mix DynamoDB allows.
	q, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("leg"),
		KeyConditions:    map[string]types.Condition{"pk": cond(types.ComparisonOperatorEq, S("p"))},
		FilterExpression: aws.String("n = :n"), ExpressionAttributeValues: item{":n": N("1")}})
	if err != nil || q.Count != 2 {
		t.Fatalf("KeyConditions + FilterExpression: %v count %d", err, q.Count)
	}
	s, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("leg"),
		ScanFilter:          map[string]types.Condition{"sk": cond(types.ComparisonOperatorIn, S("a1"), S("b1")), "n": cond(types.ComparisonOperatorEq, N("3"))},
		ConditionalOperator: types.ConditionalOperatorOr, Select: types.SelectCount})
	if err != nil || s.Count != 3 {
		t.Fatalf("scan OR: %v count %d", err, s.Count)
	}
	_, err = c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("leg"), AttributesToGet: []string{"n"}, Select: types.SelectAllAttributes})
	wantErr(t, err, "ValidationException", "Cannot specify the AttributesToGet when choosing to get ALL_ATTRIBUTES")
	g, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("leg"), Key: item{"pk": S("p"), "sk": S("a1")}, AttributesToGet: []string{"n", "absent"}})
	if err != nil || len(g.Item) != 1 || sval(g.Item["n"]) != "1" {
		t.Fatalf("GetItem AttributesToGet: %v %v", g.Item, err)
	}
	b, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"leg": {
		Keys: []map[string]types.AttributeValue{{"pk": S("p"), "sk": S("b1")}}, AttributesToGet: []string{"x"}}}})
	if err != nil || len(b.Responses["leg"]) != 1 || len(b.Responses["leg"][0]) != 1 || sval(b.Responses["leg"][0]["x"]) != "big" {
		t.Fatalf("BatchGetItem AttributesToGet: %v %v", b.Responses, err)
	}
}

// FuzzPart2Requests sends arbitrary bodies to the part-2 actions and to
// the legacy parameters of the item actions: every answer is a 200 or a
// 400, never a 500 (a panic or an internal error).
func FuzzPart2Requests(f *testing.F) {
	seeds := []string{
		`{"TableName":"fuzz","Key":{"pk":{"S":"a"}},"AttributeUpdates":{"n":{"Action":"ADD","Value":{"N":"1"}},"l":{"Action":"ADD","Value":{"L":[{"S":"x"}]}}},"Expected":{"n":{"ComparisonOperator":"NULL"}}}`,
		`{"TableName":"fuzz","Item":{"pk":{"S":"a"}},"Expected":{"pk":{"Exists":false}},"ConditionalOperator":"OR"}`,
		`{"TableName":"fuzz","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"a"}]}},"QueryFilter":{"n":{"ComparisonOperator":"BETWEEN","AttributeValueList":[{"N":"1"},{"N":"2"}]}},"AttributesToGet":["n"]}`,
		`{"TableName":"fuzz","ScanFilter":{"n":{"ComparisonOperator":"IN","AttributeValueList":[{"N":"1"}]}},"ConditionalOperator":"AND"}`,
		`{"TransactItems":[{"Put":{"TableName":"fuzz","Item":{"pk":{"S":"t"}}}},{"ConditionCheck":{"TableName":"fuzz","Key":{"pk":{"S":"a"}},"ConditionExpression":"attribute_exists(pk)"}}],"ClientRequestToken":"tok"}`,
		`{"TransactItems":[{"Get":{"TableName":"fuzz","Key":{"pk":{"S":"a"}}}}]}`,
		`{"TableName":"fuzz","TimeToLiveSpecification":{"AttributeName":"exp","Enabled":true}}`,
		`{"ResourceArn":"arn:aws:dynamodb:us-east-1:000000000000:table/fuzz","Tags":[{"Key":"a","Value":"b"}]}`,
		`{"TableName":"fuzz","IndexName":"vix","TopK":2,"SearchVector":[{"N":"1"},{"N":"0"}],"ProjectionExpression":"pk"}`,
	}
	actions := []string{"UpdateItem", "PutItem", "Query", "Scan", "TransactWriteItems", "TransactGetItems", "UpdateTimeToLive", "TagResource", "SearchVectors",
		"DeleteItem", "GetItem", "BatchGetItem", "UntagResource", "ListTagsOfResource", "DescribeTimeToLive"}
	for i, s := range seeds {
		f.Add(uint8(i), s)
	}
	srv, err := local.New()
	if err != nil {
		f.Fatal(err)
	}
	c := newCaller(srv)
	c.call(f, "CreateTable", `{"TableName":"fuzz","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST",`+
		`"VectorIndexes":[{"IndexName":"vix","VectorAttribute":{"AttributeName":"emb"},"Dimensions":2,"DistanceFunction":"EUCLIDEAN","Projection":{"ProjectionType":"ALL"}}]}`)
	fuzzActions(f, c, actions)
}
