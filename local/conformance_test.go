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

	// The legacy parameters follow the same rules.
	onGpk := map[string]types.Condition{"gpk": {ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{S("g")}}}
	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("idx"), IndexName: aws.String("gkeys"), KeyConditions: onGpk, AttributesToGet: []string{"a"}})
	wantErr(t, err, "ValidationException", invalid+"Global secondary index gkeys does not project [a]")
	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("idx"), IndexName: aws.String("gkeys"), KeyConditions: onGpk,
		QueryFilter: map[string]types.Condition{"b": {ComparisonOperator: types.ComparisonOperatorNotNull}}})
	wantErr(t, err, "ValidationException", invalid+"Secondary index gkeys does not project one or more filter attributes: [b]")
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

// empty/attribute-name, empty2/map-empty-key, size/attribute-name-long:
// attribute names, map keys at any depth included, are 1 byte to 64 KB.
func TestAttributeNameLength(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "tbl")
	m := func(k string, v types.AttributeValue) types.AttributeValue {
		return &types.AttributeValueMemberM{Value: item{k: v}}
	}
	putErr := func(it item) error {
		_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: it})
		return err
	}
	const long = "1 validation error detected: Attribute name is too large, must be less than 65536 bytes"
	for name, it := range map[string]item{
		"top level": {"pk": S("a"), "": S("x")},
		"map key":   {"pk": S("a"), "m": m("", S("x"))},
		"deeper":    {"pk": S("a"), "l": &types.AttributeValueMemberL{Value: []types.AttributeValue{m("x", m("", S("x")))}}},
	} {
		t.Run(name, func(t *testing.T) { wantErr(t, putErr(it), "ValidationException", "Empty attribute name") })
	}
	wantErr(t, putErr(item{"pk": S("a"), strings.Repeat("n", 65536): S("x")}), "ValidationException", long)
	wantErr(t, putErr(item{"pk": S("a"), "m": m(strings.Repeat("n", 65536), S("x"))}), "ValidationException", long)
	if err := putErr(item{"pk": S("a"), strings.Repeat("n", 65535): m(strings.Repeat("k", 65535), S("x"))}); err != nil {
		t.Fatalf("65,535-byte names rejected: %v", err)
	}
	_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: item{"pk": S("a"), "": S("x")}})
	wantErr(t, err, "ValidationException", "Empty attribute name")
	// An update cannot write one either, and a value placeholder cannot hold one.
	_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: item{"pk": S("a")},
		UpdateExpression: aws.String("SET v = :v"), ExpressionAttributeValues: item{":v": m("", S("x"))}})
	wantErr(t, err, "ValidationException", "ExpressionAttributeValues contains invalid value: Empty attribute name for key :v")
}

// put/duplicate-numbers-in-set, number2/set-equal-forms: a number set whose
// members are equal numbers has its own text, unlike SS and BS.
func TestSetDuplicates(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "tbl")
	putErr := func(v types.AttributeValue) error {
		_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item{"pk": S("a"), "s": v}})
		return err
	}
	condErr := func(v types.AttributeValue) error {
		_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item{"pk": S("a")},
			ConditionExpression: aws.String("s = :v"), ExpressionAttributeValues: item{":v": v}})
		return err
	}
	const eav = "ExpressionAttributeValues contains invalid value: "
	for _, ns := range [][]string{{"1", "1.0"}, {"1E+2", "100"}, {"7", "7"}} {
		v := &types.AttributeValueMemberNS{Value: ns}
		wantErr(t, putErr(v), "ValidationException", "Input collection contains duplicates")
		wantErr(t, condErr(v), "ValidationException", eav+"Input collection contains duplicates for key :v")
	}
	ss := &types.AttributeValueMemberSS{Value: []string{"x", "x"}}
	wantErr(t, putErr(ss), "ValidationException", "One or more parameter values were invalid: Input collection [x, x] contains duplicates.")
	bs := &types.AttributeValueMemberBS{Value: [][]byte{{0}, {0}}}
	wantErr(t, putErr(bs), "ValidationException", "One or more parameter values were invalid: Input collection of type BS contains duplicates.")
	wantErr(t, condErr(bs), "ValidationException", eav+"One or more parameter values were invalid: Input collection of type BS contains duplicates. for key :v")
}

// create/ok-hash: TableClassSummary is reported only once a class was set.
func TestTableClassSummaryOnlyWhenSet(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "plain")
	class := func(name string) *types.TableClassSummary {
		t.Helper()
		d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		if err != nil {
			t.Fatal(err)
		}
		return d.Table.TableClassSummary
	}
	if tc := class("plain"); tc != nil {
		t.Fatalf("table created without TableClass reports %+v", tc)
	}
	srv.CreateTable(t, &dynamodb.CreateTableInput{
		TableName:            aws.String("cold"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: "HASH"}},
		BillingMode:          types.BillingModePayPerRequest,
		TableClass:           types.TableClassStandardInfrequentAccess,
	})
	if tc := class("cold"); tc == nil || tc.TableClass != types.TableClassStandardInfrequentAccess {
		t.Fatalf("TableClassSummary %+v, want STANDARD_INFREQUENT_ACCESS", tc)
	}
	if _, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("plain"), TableClass: types.TableClassStandard}); err != nil {
		t.Fatal(err)
	}
	if tc := class("plain"); tc == nil || tc.TableClass != types.TableClassStandard {
		t.Fatalf("after UpdateTable: TableClassSummary %+v, want STANDARD", tc)
	}
}

// size/update-over-limit: an update whose result is over 400 KB has
// UpdateItem's own text, with an expression, AttributeUpdates or in a
// transaction.
func TestUpdateOverItemSizeLimit(t *testing.T) {
	const tooLarge = "Item size to update has exceeded the maximum allowed size"
	srv, c := newServer(t)
	hashTable(t, srv, "tbl")
	key := item{"pk": S("a")}
	put(t, c, "tbl", item{"pk": S("a"), "v": S(strings.Repeat("x", 400*1024-20))})
	_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: key,
		UpdateExpression: aws.String("SET w = :w"), ExpressionAttributeValues: item{":w": S(strings.Repeat("y", 30))}})
	wantErr(t, err, "ValidationException", tooLarge)
	_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: key,
		AttributeUpdates: map[string]types.AttributeValueUpdate{"w": {Action: types.AttributeActionPut, Value: S(strings.Repeat("y", 30))}}})
	wantErr(t, err, "ValidationException", tooLarge)
	_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{{Update: &types.Update{
		TableName: aws.String("tbl"), Key: key, UpdateExpression: aws.String("SET w = :w"), ExpressionAttributeValues: item{":w": S(strings.Repeat("y", 30))}}}}})
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) || len(tce.CancellationReasons) != 1 || aws.ToString(tce.CancellationReasons[0].Message) != tooLarge {
		t.Fatalf("transaction: %v, want a cancellation with %q", err, tooLarge)
	}
	// PutItem keeps its own text.
	_, err = c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item{"pk": S("b"), "v": S(strings.Repeat("x", 400*1024))}})
	wantErr(t, err, "ValidationException", "Item size has exceeded the maximum allowed size")
}

// update2/set-key-empty-string: an update expression that sets a secondary
// index key to an empty value has the update's wording, without index names;
// AttributeUpdates and PutItem name the index.
func TestUpdateIndexKeyToEmpty(t *testing.T) {
	srv, c := newServer(t)
	srv.CreateTable(t, &dynamodb.CreateTableInput{
		TableName: aws.String("tbl"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"},
			{AttributeName: aws.String("gs"), AttributeType: "S"}, {AttributeName: aws.String("gb"), AttributeType: "B"}},
		KeySchema:   []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: "HASH"}},
		BillingMode: types.BillingModePayPerRequest,
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("gix"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("gs"), KeyType: "HASH"}, {AttributeName: aws.String("gb"), KeyType: "RANGE"}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
	})
	const update = "One or more parameter values are not valid. The update expression attempted to update a secondary index key to a value that is not supported. The AttributeValue for a key attribute cannot contain an empty "
	set := func(attr string, v types.AttributeValue) error {
		_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: item{"pk": S("a")},
			UpdateExpression: aws.String("SET " + attr + " = :v"), ExpressionAttributeValues: item{":v": v}})
		return err
	}
	wantErr(t, set("gs", S("")), "ValidationException", update+"string value.")
	wantErr(t, set("gb", &types.AttributeValueMemberB{Value: []byte{}}), "ValidationException", update+"binary value.")
	_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: item{"pk": S("a")},
		AttributeUpdates: map[string]types.AttributeValueUpdate{"gs": {Action: types.AttributeActionPut, Value: S("")}}})
	wantErr(t, err, "ValidationException", "One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty string value. IndexName: gix, IndexKey: gs")
	// In a transaction it fails the request rather than cancelling it.
	_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{{Update: &types.Update{
		TableName: aws.String("tbl"), Key: item{"pk": S("a")}, UpdateExpression: aws.String("SET gs = :v"), ExpressionAttributeValues: item{":v": S("")}}}}})
	wantErr(t, err, "ValidationException", update+"string value.")
	if err := set("gs", S("x")); err != nil {
		t.Fatal(err)
	}
}

// update2/expression-too-long, proj/too-long, cond/too-long: over 4 KB, the
// update and projection texts stop after the ';', the others give the size.
func TestExpressionTooLong(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "tbl")
	key := item{"pk": S("a")}
	pad := strings.Repeat(" ", 4100)
	const over = "Expression size has exceeded the maximum allowed size;"
	_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: key,
		UpdateExpression: aws.String("SET a = :one" + pad), ExpressionAttributeValues: item{":one": N("1")}})
	wantErr(t, err, "ValidationException", "Invalid UpdateExpression: "+over)
	_, err = c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: key, ProjectionExpression: aws.String("a" + strings.Repeat(", a", 1400))})
	wantErr(t, err, "ValidationException", "Invalid ProjectionExpression: "+over)
	_, err = c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: key, ConditionExpression: aws.String("attribute_exists(a)" + pad)})
	wantErr(t, err, "ValidationException", "Invalid ConditionExpression: "+over+" expression size: 4119")
	_, err = c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), FilterExpression: aws.String("attribute_exists(a)" + pad)})
	wantErr(t, err, "ValidationException", "Invalid FilterExpression: "+over+" expression size: 4119")
	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("tbl"), KeyConditionExpression: aws.String("pk = :p" + pad), ExpressionAttributeValues: item{":p": S("a")}})
	wantErr(t, err, "ValidationException", "Invalid KeyConditionExpression: "+over+" expression size: 4107")
	// 4 KB exactly is within the limit.
	if _, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: key,
		UpdateExpression: aws.String("SET a = :one" + strings.Repeat(" ", 4096-len("SET a = :one"))), ExpressionAttributeValues: item{":one": N("1")}}); err != nil {
		t.Fatalf("4,096-byte UpdateExpression: %v", err)
	}
}

// create/include-duplicate-nonkey: an INCLUDE projection names each
// attribute once, on a GSI, an LSI or a GSI added by UpdateTable, and the
// service names the attribute given twice.
func TestIncludeProjectionDuplicates(t *testing.T) {
	_, c := newServer(t)
	def := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: "S"}
	}
	hash := func(n string) types.KeySchemaElement {
		return types.KeySchemaElement{AttributeName: aws.String(n), KeyType: "HASH"}
	}
	dup := &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"x", "y", "x"}}
	const msg = "One or more parameter values were invalid: Duplicate element in NonKeyAttributes: x"
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("tbl"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{def("pk"), def("g")}, KeySchema: []types.KeySchemaElement{hash("pk")},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byG"), KeySchema: []types.KeySchemaElement{hash("g")}, Projection: dup}}})
	wantErr(t, err, "ValidationException", msg)
	_, err = c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("tbl"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{def("pk"), def("sk"), def("l")},
		KeySchema:            []types.KeySchemaElement{hash("pk"), {AttributeName: aws.String("sk"), KeyType: "RANGE"}},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("byL"), Projection: dup,
			KeySchema: []types.KeySchemaElement{hash("pk"), {AttributeName: aws.String("l"), KeyType: "RANGE"}}}}})
	wantErr(t, err, "ValidationException", msg)
	if _, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("tbl"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{def("pk")}, KeySchema: []types.KeySchemaElement{hash("pk")}}); err != nil {
		t.Fatal(err)
	}
	_, err = c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"), AttributeDefinitions: []types.AttributeDefinition{def("g")},
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName: aws.String("byG"), KeySchema: []types.KeySchemaElement{hash("g")}, Projection: dup}}}})
	wantErr(t, err, "ValidationException", msg)
}

// update/arith-precision-loss: a sum that needs more than 38 significant
// digits is rejected, not rounded, with the service's (odd) overflow text
// (scylladb/scylladb test/alternator/test_number.py,
// test_update_expression_plus_imprecise, measured against DynamoDB).
func TestInexactArithmeticRejected(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "tbl")
	for _, op := range []string{"+", "-"} {
		_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: item{"pk": S("a")},
			UpdateExpression: aws.String("SET n = :a " + op + " :b"), ExpressionAttributeValues: item{":a": N("1E+30"), ":b": N("0.000000001")}})
		wantErr(t, err, "ValidationException", "Number overflow. Attempting to store a number with magnitude larger than supported range")
	}
	out, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: item{"pk": S("a")}, ReturnValues: types.ReturnValueAllNew,
		UpdateExpression: aws.String("SET n = :a + :b"), ExpressionAttributeValues: item{":a": N("1E+30"), ":b": N("1")}})
	if err != nil || sval(out.Attributes["n"]) != "1000000000000000000000000000001" {
		t.Fatalf("exact 31-digit sum: %v %v", out, err)
	}
}
