package local_test

// Regression tests for deviations from DynamoDB that the differential tier
// (internal/difftest) found; each names the difftest case it pins.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/dynamotest"
)

// indexTable creates "idx" (pk, sk) with a GSI of each projection type (gall
// ALL, gkeys KEYS_ONLY, ginc INCLUDE [a]), all on gpk, and a KEYS_ONLY LSI on
// lsk, holding one item with every attribute.
func indexTable(t *testing.T, srv *dynamotest.Server, c *dynamodb.Client) {
	t.Helper()
	def := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: "S"}
	}
	ks := func(h, r string) []types.KeySchemaElement {
		k := []types.KeySchemaElement{{AttributeName: aws.String(h), KeyType: "HASH"}}
		if r != "" {
			k = append(k, types.KeySchemaElement{AttributeName: aws.String(r), KeyType: "RANGE"})
		}
		return k
	}
	gsi := func(name string, p types.Projection) types.GlobalSecondaryIndex {
		return types.GlobalSecondaryIndex{IndexName: aws.String(name), KeySchema: ks("gpk", ""), Projection: &p}
	}
	srv.CreateTable(t, &dynamodb.CreateTableInput{
		TableName:            aws.String("idx"),
		AttributeDefinitions: []types.AttributeDefinition{def("pk"), def("sk"), def("gpk"), def("lsk")},
		KeySchema:            ks("pk", "sk"),
		BillingMode:          types.BillingModePayPerRequest,
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			gsi("gall", types.Projection{ProjectionType: types.ProjectionTypeAll}),
			gsi("gkeys", types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}),
			gsi("ginc", types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"a"}}),
		},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("lsi"), KeySchema: ks("pk", "lsk"),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}},
	})
	put(t, c, "idx", item{"pk": S("p"), "sk": S("s"), "gpk": S("g"), "lsk": S("l"), "a": N("1"), "b": S("x"), "m": &types.AttributeValueMemberM{Value: item{"x": N("2")}}})
}

// query/gsi-include-project-other, query3/gsi-filter-non-projected: a read
// of a secondary index may not need attributes the index does not hold.
func TestIndexReadNeedsProjectedAttributes(t *testing.T) {
	srv, c := newServer(t)
	indexTable(t, srv, c)
	onG := map[string]types.AttributeValue{":g": S("g")}
	onP := map[string]types.AttributeValue{":p": S("p")}
	query := func(index, proj, filter string, vals map[string]types.AttributeValue) (*dynamodb.QueryOutput, error) {
		in := &dynamodb.QueryInput{TableName: aws.String("idx"), IndexName: aws.String(index), ExpressionAttributeValues: vals}
		if index == "lsi" {
			in.KeyConditionExpression = aws.String("pk = :p")
		} else {
			in.KeyConditionExpression = aws.String("gpk = :g")
		}
		if proj != "" {
			in.ProjectionExpression = aws.String(proj)
		}
		if filter != "" {
			in.FilterExpression = aws.String(filter)
		}
		return c.Query(ctx, in)
	}
	const invalid = "One or more parameter values were invalid: "

	// ProjectionExpression on a global index: the top-level names it does not
	// project, sorted.
	_, err := query("ginc", "a, b", "", onG)
	wantErr(t, err, "ValidationException", invalid+"Global secondary index ginc does not project [b]")
	_, err = query("gkeys", "m.x, b, a, pk", "", onG)
	wantErr(t, err, "ValidationException", invalid+"Global secondary index gkeys does not project [a, b, m]")
	_, err = c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("idx"), IndexName: aws.String("ginc"), ProjectionExpression: aws.String("b")})
	wantErr(t, err, "ValidationException", invalid+"Global secondary index ginc does not project [b]")
	// Keys and included attributes are projected; an ALL index projects all.
	for _, ix := range []string{"ginc", "gall"} {
		out, err := query(ix, "pk, sk, gpk, a", "", onG)
		if err != nil || out.Count != 1 || len(out.Items[0]) != 4 {
			t.Fatalf("%s: projected attributes: %v %v", ix, out, err)
		}
	}
	// A local index fetches what it does not project from the table.
	out, err := query("lsi", "a, b", "", onP)
	if err != nil || out.Count != 1 || sval(out.Items[0]["b"]) != "x" {
		t.Fatalf("LSI projection of table attributes: %v %v", out, err)
	}

	// A Query's FilterExpression, on a global or a local index, every
	// top-level attribute it reads (function arguments too), sorted; the
	// filter is checked before the projection.
	gt0 := map[string]types.AttributeValue{":g": S("g"), ":z": N("0")}
	_, err = query("gkeys", "b", "a > :z", gt0)
	wantErr(t, err, "ValidationException", invalid+"Secondary index gkeys does not project one or more filter attributes: [a]")
	_, err = query("ginc", "", "a > :z AND (size(m.x) > :z OR b > :z OR pk > :z)", gt0)
	wantErr(t, err, "ValidationException", invalid+"Secondary index ginc does not project one or more filter attributes: [b, m]")
	_, err = query("lsi", "", "a > :z", map[string]types.AttributeValue{":p": S("p"), ":z": N("0")})
	wantErr(t, err, "ValidationException", invalid+"Secondary index lsi does not project one or more filter attributes: [a]")
	for _, ix := range []string{"ginc", "gall"} {
		out, err := query(ix, "", "a > :z", gt0)
		if err != nil || out.Count != 1 {
			t.Fatalf("%s: filter on a projected attribute: %v %v", ix, out, err)
		}
	}
}

// cond/in-100, cond/in-too-many: IN's list takes up to 100 operands.
func TestInOperandLimit(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "tbl")
	in := func(n int) error {
		vals := map[string]types.AttributeValue{}
		list := make([]string, n)
		for i := range list {
			list[i] = fmt.Sprintf(":v%d", i)
			vals[list[i]] = N(strconv.Itoa(i + 1))
		}
		_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item{"pk": S("a")},
			ConditionExpression: aws.String("n IN (" + strings.Join(list, ", ") + ")"), ExpressionAttributeValues: vals})
		return err
	}
	// 100 operands are evaluated: n is missing, so the condition is false.
	var ccf *types.ConditionalCheckFailedException
	if err := in(100); !errors.As(err, &ccf) {
		t.Fatalf("IN with 100 operands: %v, want ConditionalCheckFailedException", err)
	}
	wantErr(t, in(101), "ValidationException", "Invalid ConditionExpression: The IN operator is provided with too many operands; number of operands: 101")
}
