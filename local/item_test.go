package local_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestPutGetDelete(t *testing.T) {
	srv, c := newServer(t)
	hashRangeTable(t, srv, "items")
	put(t, c, "items", item{"pk": S("a"), "sk": S("1"), "n": N("1.50"), "tags": &types.AttributeValueMemberSS{Value: []string{"x", "y"}}})
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("items"), Key: item{"pk": S("a"), "sk": S("1")}})
	if err != nil {
		t.Fatal(err)
	}
	if got := sval(out.Item["n"]); got != "1.5" {
		t.Fatalf("n = %s, want the canonical 1.5", got)
	}
	// Not found is an empty response.
	out, err = c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("items"), Key: item{"pk": S("a"), "sk": S("2")}})
	if err != nil || out.Item != nil {
		t.Fatalf("missing item: %v %v", out.Item, err)
	}
	// Projection.
	out, err = c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("items"), Key: item{"pk": S("a"), "sk": S("1")}, ProjectionExpression: aws.String("n")})
	if err != nil || len(out.Item) != 1 || out.Item["n"] == nil {
		t.Fatalf("projected item: %v %v", out.Item, err)
	}
	// Put returns ALL_OLD.
	pout, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("items"), Item: item{"pk": S("a"), "sk": S("1"), "v": S("new")}, ReturnValues: types.ReturnValueAllOld})
	if err != nil || sval(pout.Attributes["n"]) != "1.5" {
		t.Fatalf("ALL_OLD: %v %v", pout.Attributes, err)
	}
	dout, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("items"), Key: item{"pk": S("a"), "sk": S("1")}, ReturnValues: types.ReturnValueAllOld})
	if err != nil || sval(dout.Attributes["v"]) != "new" {
		t.Fatalf("delete ALL_OLD: %v %v", dout.Attributes, err)
	}
	out, _ = c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("items"), Key: item{"pk": S("a"), "sk": S("1")}, ConsistentRead: aws.Bool(true)})
	if out.Item != nil {
		t.Fatal("item still there after DeleteItem")
	}
}

func TestPutItemValidation(t *testing.T) {
	srv, c := newServer(t)
	hashRangeTable(t, srv, "items")
	cases := []struct {
		name string
		item item
		code string
		msg  string
	}{
		{"missing hash", item{"sk": S("1")}, "ValidationException", "One or more parameter values were invalid: Missing the key pk in the item"},
		{"type mismatch", item{"pk": N("1"), "sk": S("1")}, "ValidationException", "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N"},
		{"empty key", item{"pk": S(""), "sk": S("1")}, "ValidationException", "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: pk"},
		{"empty set", item{"pk": S("a"), "sk": S("1"), "s": &types.AttributeValueMemberSS{Value: []string{}}}, "ValidationException", "One or more parameter values were invalid: An string set  may not be empty"},
		{"dup set", item{"pk": S("a"), "sk": S("1"), "s": &types.AttributeValueMemberSS{Value: []string{"a", "a"}}}, "ValidationException", "One or more parameter values were invalid: Input collection [a, a] contains duplicates."},
		{"bad number", item{"pk": S("a"), "sk": S("1"), "n": N("1e999")}, "ValidationException", "Number overflow. Attempting to store a number with magnitude larger than supported range"},
		{"null false", item{"pk": S("a"), "sk": S("1"), "z": &types.AttributeValueMemberNULL{Value: false}}, "ValidationException", "One or more parameter values were invalid: Null attribute value types must have the value of true"},
		{"big hash", item{"pk": S(string(make([]byte, 2049))), "sk": S("1")}, "ValidationException", "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes"},
		{"big range", item{"pk": S("a"), "sk": S(string(make([]byte, 1025)))}, "ValidationException", "One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes"},
		{"too big", item{"pk": S("a"), "sk": S("1"), "blob": B(make([]byte, 400*1024)...)}, "ValidationException", "Item size has exceeded the maximum allowed size"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("items"), Item: tc.item})
			wantErr(t, err, tc.code, tc.msg)
		})
	}
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("nope"), Item: item{"pk": S("a")}})
	wantErr(t, err, "ResourceNotFoundException", "Requested resource not found")
	_, err = c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("items"), Item: item{"pk": S("a"), "sk": S("1")}, ReturnValues: types.ReturnValueAllNew})
	wantErr(t, err, "ValidationException", "ReturnValues can only be ALL_OLD or NONE")
	_, err = c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("items"), Key: item{"pk": S("a")}})
	wantErr(t, err, "ValidationException", "The provided key element does not match the schema")
}

func TestConditionalWrites(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "tab1")
	in := &dynamodb.PutItemInput{TableName: aws.String("tab1"), Item: item{"pk": S("a"), "v": N("1")}, ConditionExpression: aws.String("attribute_not_exists(pk)")}
	if _, err := c.PutItem(ctx, in); err != nil {
		t.Fatal(err)
	}
	_, err := c.PutItem(ctx, in)
	wantErr(t, err, "ConditionalCheckFailedException", "The conditional request failed")
	in.ReturnValuesOnConditionCheckFailure = types.ReturnValuesOnConditionCheckFailureAllOld
	_, err = c.PutItem(ctx, in)
	var ccf *types.ConditionalCheckFailedException
	if !asErr(err, &ccf) || sval(ccf.Item["v"]) != "1" {
		t.Fatalf("want the old item with the failure, got %v", err)
	}
	// UpdateItem with a condition and every ReturnValues.
	up := func(rv types.ReturnValue) map[string]types.AttributeValue {
		out, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName: aws.String("tab1"), Key: item{"pk": S("a")},
			UpdateExpression:          aws.String("SET v = v + :one, w = :w"),
			ConditionExpression:       aws.String("v >= :one"),
			ExpressionAttributeValues: item{":one": N("1"), ":w": S("x")},
			ReturnValues:              rv,
		})
		if err != nil {
			t.Fatal(err)
		}
		return out.Attributes
	}
	if a := up(types.ReturnValueUpdatedNew); sval(a["v"]) != "2" || sval(a["w"]) != "x" || len(a) != 2 {
		t.Fatalf("UPDATED_NEW = %v", a)
	}
	if a := up(types.ReturnValueUpdatedOld); sval(a["v"]) != "2" || len(a) != 2 {
		t.Fatalf("UPDATED_OLD = %v", a)
	}
	if a := up(types.ReturnValueAllNew); sval(a["v"]) != "4" || sval(a["pk"]) != "a" {
		t.Fatalf("ALL_NEW = %v", a)
	}
	if a := up(types.ReturnValueNone); a != nil {
		t.Fatalf("NONE = %v", a)
	}
	// UpdateItem creates a missing item.
	if _, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tab1"), Key: item{"pk": S("b")},
		UpdateExpression: aws.String("SET c = :c"), ExpressionAttributeValues: item{":c": N("007")}}); err != nil {
		t.Fatal(err)
	}
	out, _ := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tab1"), Key: item{"pk": S("b")}})
	if sval(out.Item["c"]) != "7" || sval(out.Item["pk"]) != "b" {
		t.Fatalf("created item = %v", out.Item)
	}
}

// UPDATED_NEW returns only the paths the update acts on, nested ones inside
// their maps (API_UpdateItem.html, ReturnValues).
func TestUpdatedNewNestedPath(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "nest")
	put(t, c, "nest", item{"pk": S("a"), "m": &types.AttributeValueMemberM{Value: item{"x": N("1"), "y": N("2")}}, "other": S("o")})
	out, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("nest"), Key: item{"pk": S("a")},
		UpdateExpression: aws.String("SET m.x = :v"), ExpressionAttributeValues: item{":v": N("10")}, ReturnValues: types.ReturnValueUpdatedNew})
	if err != nil {
		t.Fatal(err)
	}
	m, ok := out.Attributes["m"].(*types.AttributeValueMemberM)
	if len(out.Attributes) != 1 || !ok || len(m.Value) != 1 || sval(m.Value["x"]) != "10" {
		t.Fatalf("UPDATED_NEW = %#v", out.Attributes)
	}
}
