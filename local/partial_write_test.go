package local_test

import (
	"bytes"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/internal/avtest"
)

// A write to a table without indexes, stream or history decodes only the
// attributes its expressions name, and an update keeps the bytes of the
// others; a table with a global index decodes and encodes whole items. The
// same writes to both answer with the same bytes, fail with the same
// messages, and leave the same items, whatever the expressions, the
// ReturnValues and what the #name placeholders stand for.
func TestPartialWritesAnswerAsWhole(t *testing.T) {
	srv := dynamotest.NewServer(t)
	rec := &bodyRecorder{}
	c := srv.Client(func(o *dynamodb.Options) {
		o.Retryer = aws.NopRetryer{}
		o.HTTPClient = &http.Client{Transport: rec}
	})
	hashRangeTable(t, srv, "plain")
	srv.CreateTable(t, &dynamodb.CreateTableInput{
		TableName: aws.String("indexed"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"},
			{AttributeName: aws.String("sk"), AttributeType: "S"}, {AttributeName: aws.String("g"), AttributeType: "S"}},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: "HASH"}, {AttributeName: aws.String("sk"), KeyType: "RANGE"}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byG"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: "HASH"}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}},
		BillingMode: types.BillingModePayPerRequest,
	})
	key := item{"pk": S("p"), "sk": S("s")}
	other := item{"pk": S("p"), "sk": S("missing")}
	full := item{
		"pk": S("p"), "sk": S("s"), "g": S("g"),
		"s": S("tab\there \"quoted\" é\u2028"), "n": N("5"), "b": B(0, 255), "t": avtest.BOOL(true), "z": avtest.NULL(),
		"ss": avtest.SS("x", "y"), "ns": avtest.NS("1", "2.5"), "bs": &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2, 3}}},
		"l": avtest.L(S("l0"), N("7"), avtest.M("k", S("v"))),
		"m": avtest.M("b", S("1"), "a", avtest.M("y", N("0"), "x", avtest.BOOL(false))),
		"x": S("to remove"), "zz": S("last"),
	}
	type write struct {
		name string
		do   func(table string) error
	}
	upd := func(k item, text, cond string, names map[string]string, values item, rv types.ReturnValue) func(string) error {
		return func(table string) error {
			in := &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: k, UpdateExpression: aws.String(text),
				ExpressionAttributeNames: names, ExpressionAttributeValues: values, ReturnValues: rv,
				ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}
			if cond != "" {
				in.ConditionExpression = aws.String(cond)
			}
			_, err := c.UpdateItem(ctx, in)
			return err
		}
	}
	writes := []write{
		{"put", func(table string) error {
			_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: full})
			return err
		}},
		{"set, nested set, add, remove, delete", upd(key, "SET a = :v, m.b = :v2 ADD n :one, ns :ns REMOVE x DELETE ss :del", "", nil,
			item{":v": S("new"), ":v2": N("2"), ":one": N("1"), ":ns": avtest.NS("3"), ":del": avtest.SS("x")}, types.ReturnValueUpdatedNew)},
		{"copy an attribute, set a list element", upd(key, "SET c = s, l[1] = :v", "", nil, item{":v": S("el")}, types.ReturnValueUpdatedOld)},
		{"if_not_exists and arithmetic", upd(key, "SET d = if_not_exists(d, :z) + :one", "", nil, item{":z": N("10"), ":one": N("1")}, types.ReturnValueAllNew)},
		{"list_append", upd(key, "SET l = list_append(l, :l)", "", nil, item{":l": avtest.L(S("more"))}, types.ReturnValueAllOld)},
		{"condition, #name", upd(key, "SET #x = :v", "attribute_exists(a) AND n > :z", map[string]string{"#x": "e"},
			item{":v": N("010.50"), ":z": N("0")}, types.ReturnValueNone)},
		{"same text, #name for another attribute", upd(key, "SET #x = :v", "attribute_exists(a) AND n > :z", map[string]string{"#x": "f"},
			item{":v": S("f"), ":z": N("0")}, types.ReturnValueUpdatedNew)},
		{"same text, #name for an attribute read", upd(key, "SET #x = :v", "attribute_exists(#x) AND n > :z", map[string]string{"#x": "a"},
			item{":v": S("a2"), ":z": N("0")}, types.ReturnValueUpdatedOld)},
		{"condition fails", upd(key, "SET a = :v", "n < :z", nil, item{":v": S("no"), ":z": N("0")}, types.ReturnValueAllNew)},
		{"add to a string", upd(key, "ADD s :one", "", nil, item{":one": N("1")}, types.ReturnValueNone)},
		{"set from a missing attribute", upd(key, "SET q = nope", "", nil, nil, types.ReturnValueNone)},
		{"set a key attribute", upd(key, "SET pk = :v", "", nil, item{":v": S("x")}, types.ReturnValueNone)},
		{"nested path under a scalar", upd(key, "SET s.inner = :v", "", nil, item{":v": S("x")}, types.ReturnValueNone)},
		{"too large", upd(key, "SET big = :v", "", nil, item{":v": S(strings.Repeat("x", 400<<10))}, types.ReturnValueNone)},
		{"remove nested and list element", upd(key, "REMOVE m.a.y, l[0], zz", "", nil, nil, types.ReturnValueUpdatedOld)},
		{"add to a set", upd(key, "ADD ss :s, nn :ns", "", nil, item{":s": avtest.SS("w", "x"), ":ns": avtest.NS("4")}, types.ReturnValueAllNew)},
		{"missing item", upd(other, "SET a = :v", "", nil, item{":v": S("v")}, types.ReturnValueAllNew)},
		{"missing item, only removal", upd(item{"pk": S("p"), "sk": S("none")}, "REMOVE a", "", nil, nil, types.ReturnValueAllNew)},
		{"put with condition", func(table string) error {
			it := item{"pk": S("p"), "sk": S("missing"), "v": N("1")}
			_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: it,
				ConditionExpression: aws.String("attribute_exists(a)"), ReturnValues: types.ReturnValueAllOld})
			return err
		}},
		{"put with failing condition", func(table string) error {
			_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: other,
				ConditionExpression: aws.String("attribute_not_exists(pk)"), ReturnValues: types.ReturnValueAllOld,
				ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
			return err
		}},
		{"delete with failing condition", func(table string) error {
			_, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: key,
				ConditionExpression: aws.String("n < :z"), ExpressionAttributeValues: item{":z": N("0")},
				ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
			return err
		}},
		{"remove all but the key", upd(key, "REMOVE a, b, bs, c, d, e, f, g, l, m, n, nn, ns, s, ss, t, z", "", nil, nil, types.ReturnValueAllNew)},
		{"delete", func(table string) error {
			_, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: key,
				ConditionExpression: aws.String("attribute_exists(sk)"), ReturnValues: types.ReturnValueAllOld})
			return err
		}},
	}
	answer := func(w write, table string) string {
		err := w.do(table)
		var ae smithy.APIError
		if err != nil && !errors.As(err, &ae) {
			t.Fatalf("%s on %s: %v", w.name, table, err)
		}
		rec.mu.Lock()
		defer rec.mu.Unlock()
		return string(bytes.Clone(rec.last))
	}
	stored := func(table string, k item) string {
		_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: k})
		must(t, err)
		rec.mu.Lock()
		defer rec.mu.Unlock()
		return string(bytes.Clone(rec.last))
	}
	failures := 0
	for _, w := range writes {
		got, want := answer(w, "plain"), answer(w, "indexed")
		if got != want {
			t.Errorf("%s: answer\n got %.300s\nwant %.300s", w.name, got, want)
		}
		if strings.Contains(want, "__type") {
			failures++
		}
		for _, k := range []item{key, other} {
			if got, want := stored("plain", k), stored("indexed", k); got != want {
				t.Errorf("%s: stored item\n got %.300s\nwant %.300s", w.name, got, want)
			}
		}
	}
	if failures != 8 { // the writes above that must fail, failing on both tables alike
		t.Errorf("%d writes failed, want 8", failures)
	}
}
