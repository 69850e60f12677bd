package local_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/local"
)

// An update that only removes attributes of an item that does not exist
// creates nothing, and removing a nested path of it is not an error.
func TestUpdateOnlyRemovingMissingItemCreatesNothing(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "tbl")
	key := item{"pk": S("a")}
	for _, u := range []*dynamodb.UpdateItemInput{
		{UpdateExpression: aws.String("REMOVE x")},
		{UpdateExpression: aws.String("REMOVE x.y, z[0]")},
		{UpdateExpression: aws.String("DELETE s :v"), ExpressionAttributeValues: item{":v": &types.AttributeValueMemberSS{Value: []string{"a"}}}},
		{AttributeUpdates: map[string]types.AttributeValueUpdate{"x": {Action: types.AttributeActionDelete}}},
	} {
		u.TableName, u.Key, u.ReturnValues = aws.String("tbl"), key, types.ReturnValueAllNew
		out, err := c.UpdateItem(ctx, u)
		if err != nil {
			t.Fatalf("%v: %v", aws.ToString(u.UpdateExpression), err)
		}
		if out.Attributes != nil {
			t.Errorf("%v: Attributes = %v, want none", aws.ToString(u.UpdateExpression), out.Attributes)
		}
		got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: key})
		if err != nil || got.Item != nil {
			t.Fatalf("%v: item = %v, %v; want none", aws.ToString(u.UpdateExpression), got.Item, err)
		}
	}
	_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Update: &types.Update{TableName: aws.String("tbl"), Key: key, UpdateExpression: aws.String("REMOVE x.y")}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: key})
	if err != nil || got.Item != nil {
		t.Fatalf("after transaction: item = %v, %v; want none", got.Item, err)
	}
	// An update without actions still creates the item with its key.
	if _, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: key}); err != nil {
		t.Fatal(err)
	}
	got, _ = c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: key})
	if len(got.Item) != 1 {
		t.Fatalf("item = %v, want just the key", got.Item)
	}
}

// BatchGetItem charges a key with no item what GetItem charges for it.
func TestBatchGetMissingKeyCapacity(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "tbl")
	for _, consistent := range []bool{false, true} {
		keys := []item{{"pk": S("missing")}}
		out, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{
			RequestItems:           map[string]types.KeysAndAttributes{"tbl": {Keys: keys, ConsistentRead: aws.Bool(consistent)}},
			ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		})
		if err != nil {
			t.Fatal(err)
		}
		get, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: keys[0], ConsistentRead: aws.Bool(consistent), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.ConsumedCapacity) != 1 || aws.ToFloat64(out.ConsumedCapacity[0].CapacityUnits) != aws.ToFloat64(get.ConsumedCapacity.CapacityUnits) {
			t.Errorf("consistent=%v: BatchGetItem consumed %+v, GetItem %v", consistent, out.ConsumedCapacity, aws.ToFloat64(get.ConsumedCapacity.CapacityUnits))
		}
	}
}

// DeleteTable describes the table without its key schema, attribute
// definitions, creation time or indexes, as the service does.
func TestDeleteTableDescription(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "tbl")
	out, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("tbl")})
	if err != nil {
		t.Fatal(err)
	}
	d := out.TableDescription
	if d.TableStatus != types.TableStatusDeleting || aws.ToString(d.TableName) != "tbl" || aws.ToString(d.TableArn) == "" || d.ProvisionedThroughput == nil {
		t.Errorf("description = %+v", d)
	}
	if d.KeySchema != nil || d.AttributeDefinitions != nil || d.CreationDateTime != nil || d.GlobalSecondaryIndexes != nil || d.LocalSecondaryIndexes != nil {
		t.Errorf("description has members the service leaves out: %+v", d)
	}
}

// TagResource and UntagResource answer with an empty body.
func TestTagResourceEmptyBody(t *testing.T) {
	srv, err := local.New()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	res, body := rawCall(t, srv, "DynamoDB_20120810.CreateTable", `{"TableName":"tbl","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`)
	if res.StatusCode != 200 {
		t.Fatal(body)
	}
	arn := `"arn:aws:dynamodb:us-east-1:000000000000:table/tbl"`
	for _, tc := range []struct{ target, body string }{
		{"DynamoDB_20120810.TagResource", `{"ResourceArn":` + arn + `,"Tags":[{"Key":"k","Value":"v"}]}`},
		{"DynamoDB_20120810.UntagResource", `{"ResourceArn":` + arn + `,"TagKeys":["k"]}`},
	} {
		res, body := rawCall(t, srv, tc.target, tc.body)
		if res.StatusCode != 200 || body != "" {
			t.Errorf("%s: %d %q, want 200 and no body", tc.target, res.StatusCode, body)
		}
	}
}

// Legacy EQ and NE compare values of every type, lists, maps and booleans
// included.
func TestLegacyEqualityEveryType(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "tbl")
	l := &types.AttributeValueMemberL{Value: []types.AttributeValue{S("x")}}
	m := &types.AttributeValueMemberM{Value: item{"k": N("1")}}
	b := &types.AttributeValueMemberBOOL{Value: true}
	put(t, c, "tbl", item{"pk": S("a"), "l": l, "m": m, "b": b})
	for _, tc := range []struct {
		attr string
		v    types.AttributeValue
	}{{"l", l}, {"m", m}, {"b", b}} {
		out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), ScanFilter: map[string]types.Condition{
			tc.attr: {ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{tc.v}},
		}})
		if err != nil || out.Count != 1 {
			t.Fatalf("ScanFilter EQ on %s: %v, %v", tc.attr, out, err)
		}
		out, err = c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), ScanFilter: map[string]types.Condition{
			tc.attr: {ComparisonOperator: types.ComparisonOperatorNe, AttributeValueList: []types.AttributeValue{tc.v}},
		}})
		if err != nil || out.Count != 0 {
			t.Fatalf("ScanFilter NE on %s: %v, %v", tc.attr, out, err)
		}
		_, err = c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item{"pk": S("a"), "l": l, "m": m, "b": b},
			Expected: map[string]types.ExpectedAttributeValue{tc.attr: {ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{tc.v}}}})
		if err != nil {
			t.Fatalf("Expected EQ on %s: %v", tc.attr, err)
		}
	}
}

// ConditionalOperator needs two or more conditions to join.
func TestConditionalOperatorNeedsConditions(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "tbl")
	eq := types.Condition{ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{S("x")}}
	exp := types.ExpectedAttributeValue{ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{S("x")}}
	const alone = "ConditionalOperator cannot be used without Filter or Expected"
	const one = "ConditionalOperator can only be used when Filter or Expected has two or more elements"
	_, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), ConditionalOperator: types.ConditionalOperatorAnd})
	wantErr(t, err, "ValidationException", alone)
	_, err = c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), ConditionalOperator: types.ConditionalOperatorOr, ScanFilter: map[string]types.Condition{"a": eq}})
	wantErr(t, err, "ValidationException", one)
	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("tbl"), ConditionalOperator: types.ConditionalOperatorAnd,
		KeyConditions: map[string]types.Condition{"pk": eq}})
	wantErr(t, err, "ValidationException", alone)
	_, err = c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item{"pk": S("a")}, ConditionalOperator: types.ConditionalOperatorAnd})
	wantErr(t, err, "ValidationException", alone)
	_, err = c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item{"pk": S("a")}, ConditionalOperator: types.ConditionalOperatorAnd,
		Expected: map[string]types.ExpectedAttributeValue{}})
	wantErr(t, err, "ValidationException", alone)
	_, err = c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("tbl"), Key: item{"pk": S("a")}, ConditionalOperator: types.ConditionalOperatorAnd,
		Expected: map[string]types.ExpectedAttributeValue{"a": exp}})
	wantErr(t, err, "ValidationException", one)
	_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: item{"pk": S("a")}, ConditionalOperator: types.ConditionalOperatorAnd,
		AttributeUpdates: map[string]types.AttributeValueUpdate{"a": {Action: types.AttributeActionPut, Value: S("v")}}})
	wantErr(t, err, "ValidationException", alone)
	// Two conditions are fine.
	_, err = c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), ConditionalOperator: types.ConditionalOperatorOr, ScanFilter: map[string]types.Condition{"a": eq, "b": eq}})
	if err != nil {
		t.Fatal(err)
	}
}

// An action whose key does not fit its table cancels the transaction with a
// ValidationError reason; an empty key value fails the request; the same
// item twice in TransactGetItems is refused.
func TestTransactionActionValidation(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "tbl")
	ok := txPut("tbl", item{"pk": S("ok")})
	for _, tc := range []struct {
		name string
		bad  types.TransactWriteItem
		msg  string
	}{
		{"key of the wrong type", txCheck("tbl", item{"pk": N("1")}, "attribute_exists(pk)", nil), "The provided key element does not match the schema"},
		{"missing key attribute", txCheck("tbl", item{"id": S("a")}, "attribute_exists(pk)", nil), "The provided key element does not match the schema"},
		{"put without its key", txPut("tbl", item{"x": S("a")}), "One or more parameter values were invalid: Missing the key pk in the item"},
	} {
		_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{ok, tc.bad}})
		msg, reasons := cancelReasons(t, err)
		if msg != "Transaction cancelled, please refer cancellation reasons for specific reasons [None, ValidationError]" ||
			aws.ToString(reasons[1].Message) != tc.msg {
			t.Errorf("%s: message %q, reason %q", tc.name, msg, aws.ToString(reasons[1].Message))
		}
	}
	if getItem(t, c, "tbl", item{"pk": S("ok")}) != nil {
		t.Fatal("a cancelled transaction applied its put")
	}
	_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{ok, txCheck("tbl", item{"pk": S("")}, "attribute_exists(pk)", nil)}})
	wantErrContains(t, err, "ValidationException", "cannot contain an empty string value")

	get := func(k item) types.TransactGetItem {
		return types.TransactGetItem{Get: &types.Get{TableName: aws.String("tbl"), Key: k}}
	}
	_, err = c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{get(item{"pk": S("a")}), get(item{"pk": S("a")})}})
	wantErr(t, err, "ValidationException", "Transaction request cannot include multiple operations on one item")
	_, err = c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{get(item{"pk": S("a")}), get(item{"pk": N("1")})}})
	msg, reasons := cancelReasons(t, err)
	if msg != "Transaction cancelled, please refer cancellation reasons for specific reasons [None, ValidationError]" ||
		aws.ToString(reasons[1].Message) != "The provided key element does not match the schema" {
		t.Errorf("TransactGetItems: message %q, reasons %+v", msg, reasons)
	}
}

// UpdateTable: an empty list of index updates counts as no change alone and
// is refused beside another one; an unknown StreamViewType is refused; a new
// GSI's key must be defined.
func TestUpdateTableValidation(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "tbl")
	empty := []types.GlobalSecondaryIndexUpdate{}
	_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"), GlobalSecondaryIndexUpdates: empty})
	wantErrContains(t, err, "ValidationException", "At least one of ProvisionedThroughput, BillingMode")
	// A member the request holds is left out of the list.
	_, err = c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"), MultiRegionConsistency: types.MultiRegionConsistencyStrong})
	wantErr(t, err, "ValidationException", "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates, SSESpecification, ReplicaUpdates, "+
		"MultiAccountReplicaReady, ReplicaTransitRoleArn, DeletionProtectionEnabled, OnDemandThroughput, WarmThroughput or TableClass is required")
	_, err = c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"), GlobalSecondaryIndexUpdates: empty, DeletionProtectionEnabled: aws.Bool(true)})
	wantErr(t, err, "ValidationException", "One or more parameter values were invalid: List of GlobalSecondaryIndexUpdates is empty")
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("tbl")})
	if err != nil || aws.ToBool(d.Table.DeletionProtectionEnabled) {
		t.Fatalf("the refused update applied: %v", err)
	}
	_, err = c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"), StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: "BAD"}})
	wantErr(t, err, "ValidationException", "1 validation error detected: Value 'BAD' at 'streamSpecification.streamViewType' failed to satisfy constraint: Member must satisfy enum value set: [OLD_IMAGE, KEYS_ONLY, NEW_AND_OLD_IMAGES, NEW_IMAGE]")
	create := []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
		IndexName: aws.String("gsi"), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}}, Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}}
	_, err = c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"), GlobalSecondaryIndexUpdates: create})
	wantErr(t, err, "ValidationException", "One or more parameter values were invalid: AttributeDefinitions is not specified for index: gsi")
	_, err = c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"), GlobalSecondaryIndexUpdates: create,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("x"), AttributeType: "S"}}})
	wantErrContains(t, err, "ValidationException", "Some index key attributes are not defined in AttributeDefinitions")
}

// Tag lengths count Unicode characters, and tags may hold letters, numbers,
// white space and + - = . _ : /.
func TestTagUnicodeCharacters(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "tbl")
	arn := aws.String("arn:aws:dynamodb:us-east-1:000000000000:table/tbl")
	tags := []types.Tag{
		{Key: aws.String(strings.Repeat("é", 128)), Value: aws.String(strings.Repeat("ü", 256))},
		{Key: aws.String("Ünï 1+-=._:/"), Value: aws.String("")},
	}
	if _, err := c.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: arn, Tags: tags}); err != nil {
		t.Fatal(err)
	}
	out, err := c.ListTagsOfResource(ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: arn})
	if err != nil || len(out.Tags) != 2 {
		t.Fatalf("tags = %v, %v", out, err)
	}
}

// Integer members sent as JSON strings, as dynamodb-admin sends capacity
// units, are accepted; a null body is a SerializationException.
func TestProtocolNumericStringsAndNullBody(t *testing.T) {
	srv, err := local.New()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	res, body := rawCall(t, srv, "DynamoDB_20120810.CreateTable", `{"TableName":"tbl","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"}],`+
		`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"ProvisionedThroughput":{"ReadCapacityUnits":"3","WriteCapacityUnits":"4"},`+
		`"GlobalSecondaryIndexes":[{"IndexName":"gsi","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"},"ProvisionedThroughput":{"ReadCapacityUnits":"5","WriteCapacityUnits":"6"}}]}`)
	if res.StatusCode != 200 || !strings.Contains(body, `"ReadCapacityUnits":3,`) || !strings.Contains(body, `"ReadCapacityUnits":5,`) {
		t.Fatalf("CreateTable with capacity units as strings: %d %s", res.StatusCode, body)
	}
	res, body = rawCall(t, srv, "DynamoDB_20120810.ListTables", `{"Limit":"1"}`)
	if res.StatusCode != 200 || !strings.Contains(body, `"TableNames":["tbl"]`) {
		t.Fatalf("ListTables with Limit as a string: %d %s", res.StatusCode, body)
	}
	// A string that is no integer is still refused.
	res, body = rawCall(t, srv, "DynamoDB_20120810.ListTables", `{"Limit":"x"}`)
	if res.StatusCode != 400 || !strings.Contains(body, "SerializationException") {
		t.Fatalf("ListTables with Limit \"x\": %d %s", res.StatusCode, body)
	}
	res, body = rawCall(t, srv, "DynamoDB_20120810.ListTables", `null`)
	if res.StatusCode != 400 || !strings.Contains(body, "SerializationException") {
		t.Fatalf("null body: %d %s", res.StatusCode, body)
	}
}

// A projected attribute name is 1 to 255 characters.
func TestNonKeyAttributeNameLength(t *testing.T) {
	_, c := newServer(t)
	long := strings.Repeat("a", 256)
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String("tbl"),
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema:   []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode: types.BillingModePayPerRequest,
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("gsi"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"x", long}}}},
	})
	wantErr(t, err, "ValidationException", "1 validation error detected: Value '[x, "+long+"]' at 'globalSecondaryIndexes.1.member.projection.nonKeyAttributes' failed to satisfy constraint: "+
		"Member must satisfy constraint: [Member must have length less than or equal to 255, Member must have length greater than or equal to 1]")
}

// The batch actions' constraint messages name the member path as the
// service writes it and never render a collection as a count; BatchWriteItem
// without requests has its own sentence.
func TestBatchConstraintMessages(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "tbl")
	keys := make([]map[string]types.AttributeValue, 101)
	for i := range keys {
		keys[i] = item{"pk": S(fmt.Sprint(i))}
	}
	_, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"tbl": {Keys: keys}}})
	wantErr(t, err, "ValidationException", "1 validation error detected: Value at 'RequestItems.tbl.member.Keys' failed to satisfy constraint: Member must have length less than or equal to 100")
	_, err = c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"tbl": {Keys: []map[string]types.AttributeValue{}}}})
	wantErr(t, err, "ValidationException", "1 validation error detected: Value at 'RequestItems.tbl.member.Keys' failed to satisfy constraint: Member must have length greater than or equal to 1")
	_, err = c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{}})
	wantErr(t, err, "ValidationException", "1 validation error detected: Value at 'RequestItems' failed to satisfy constraint: Member must have length greater than or equal to 1")

	_, err = c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{}})
	wantErr(t, err, "ValidationException", "The requestItems parameter is required for BatchWriteItem")
	_, err = c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"tbl": {}}})
	wantErr(t, err, "ValidationException", "1 validation error detected: Value '{tbl=[]}' at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: [Member must have length less than or equal to 25, Member must have length greater than or equal to 1]")
	writes := make([]types.WriteRequest, 26)
	for i := range writes {
		writes[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: item{"pk": S(fmt.Sprint(i))}}}
	}
	_, err = c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"tbl": writes}})
	wantErr(t, err, "ValidationException", "1 validation error detected: Value at 'RequestItems.tbl.member' failed to satisfy constraint: Member must have length less than or equal to 25")
}

// A table name's length and characters are request constraints on every
// action. The control plane holds names to 3 characters; the data plane's
// TableName may be 1 character (it also takes an ARN), so a shorter name is
// just a table that does not exist. Only a missing control-plane TableName
// has a sentence of its own.
func TestTableNameConstraints(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "tbl")
	const prefix = "1 validation error detected: "
	short := func(name string) string {
		return prefix + "Value '" + name + "' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3"
	}
	long := strings.Repeat("a", 256)
	tooLong := prefix + "Value '" + long + "' at 'tableName' failed to satisfy constraint: Member must have length less than or equal to 255"
	_, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("ab")})
	wantErr(t, err, "ValidationException", short("ab"))
	_, err = c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("")})
	wantErr(t, err, "ValidationException", "2 validation errors detected: Value '' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3; "+
		"Value '' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+")
	_, err = c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(long)})
	wantErr(t, err, "ValidationException", tooLong)
	_, err = c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("ab"), BillingMode: types.BillingModePayPerRequest})
	wantErr(t, err, "ValidationException", short("ab"))
	_, err = c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("x!"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: "HASH"}}})
	wantErr(t, err, "ValidationException", "2 validation errors detected: Value 'x!' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3; "+
		"Value 'x!' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+")
	_, err = c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("a b")})
	wantErr(t, err, "ValidationException", prefix+"Value 'a b' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+")

	key := item{"pk": S("a")}
	_, err = c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("ab"), Key: key})
	wantErr(t, err, "ResourceNotFoundException", "")
	_, err = c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(""), Item: key})
	wantErr(t, err, "ValidationException", prefix+"Value '' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 1")
	_, err = c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(long), Item: key})
	wantErr(t, err, "ValidationException", tooLong)
	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("q"), KeyConditionExpression: aws.String("pk = :v"), ExpressionAttributeValues: item{":v": S("a")}})
	wantErr(t, err, "ResourceNotFoundException", "")
	_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{txPut("t", key)}})
	wantErr(t, err, "ResourceNotFoundException", "")

	h, err := local.New()
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	res, body := rawCall(t, h, "DynamoDB_20120810.UpdateTable", `{"BillingMode":"PAY_PER_REQUEST"}`)
	if res.StatusCode != 400 || !strings.Contains(body, `"The parameter 'TableName' is required but was not present in the request"`) {
		t.Errorf("UpdateTable without TableName: %d %s", res.StatusCode, body)
	}
}

// An attribute name over 64 KB is refused however it arrives, also through
// ExpressionAttributeNames in any expression.
func TestLongNameThroughPlaceholders(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "tbl")
	const msg = "1 validation error detected: Attribute name is too large, must be less than 65536 bytes"
	names := map[string]string{"#n": strings.Repeat("a", 1<<16)}
	key := item{"pk": S("a")}
	vals := map[string]types.AttributeValue{":v": S("x")}
	tbl := aws.String("tbl")
	_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: tbl, Key: key, UpdateExpression: aws.String("SET #n = :v"), ExpressionAttributeNames: names, ExpressionAttributeValues: vals})
	wantErr(t, err, "ValidationException", msg)
	_, err = c.PutItem(ctx, &dynamodb.PutItemInput{TableName: tbl, Item: key, ConditionExpression: aws.String("attribute_not_exists(#n)"), ExpressionAttributeNames: names})
	wantErr(t, err, "ValidationException", msg)
	_, err = c.GetItem(ctx, &dynamodb.GetItemInput{TableName: tbl, Key: key, ProjectionExpression: aws.String("#n"), ExpressionAttributeNames: names})
	wantErr(t, err, "ValidationException", msg)
	_, err = c.Scan(ctx, &dynamodb.ScanInput{TableName: tbl, FilterExpression: aws.String("#n = :v"), ExpressionAttributeNames: names, ExpressionAttributeValues: vals})
	wantErr(t, err, "ValidationException", msg)
	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: tbl, KeyConditionExpression: aws.String("#n = :v"), ExpressionAttributeNames: names, ExpressionAttributeValues: vals})
	wantErr(t, err, "ValidationException", msg)
	// The longest name is fine.
	names["#n"] = strings.Repeat("a", 1<<16-1)
	if _, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: tbl, Key: key, UpdateExpression: aws.String("SET #n = :v"), ExpressionAttributeNames: names, ExpressionAttributeValues: vals}); err != nil {
		t.Fatal(err)
	}
}

// AttributeUpdates ADD and DELETE on an attribute of another type have the
// legacy API's message, not the update expression's.
func TestLegacyUpdateTypeMismatch(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "tbl")
	key := item{"pk": S("a")}
	put(t, c, "tbl", item{"pk": S("a"), "n": N("1"), "ss": &types.AttributeValueMemberSS{Value: []string{"x"}}})
	for name, up := range map[string]map[string]types.AttributeValueUpdate{
		"ADD SS to N":       {"n": {Action: types.AttributeActionAdd, Value: &types.AttributeValueMemberSS{Value: []string{"y"}}}},
		"ADD N to SS":       {"ss": {Action: types.AttributeActionAdd, Value: N("1")}},
		"DELETE NS from SS": {"ss": {Action: types.AttributeActionDelete, Value: &types.AttributeValueMemberNS{Value: []string{"1"}}}},
	} {
		_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: key, AttributeUpdates: up})
		t.Run(name, func(t *testing.T) { wantErr(t, err, "ValidationException", "Type mismatch for attribute to update") })
	}
	// The expression form keeps its own wording.
	_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: key, UpdateExpression: aws.String("ADD n :v"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":v": &types.AttributeValueMemberSS{Value: []string{"y"}}}})
	wantErr(t, err, "ValidationException", "An operand in the update expression has an incorrect data type")
}

// UpdateTable's stream messages: the request's shape, then the table's
// state, each naming the table as the service does.
func TestUpdateTableStreamMessages(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "tbl")
	update := func(enabled bool, view types.StreamViewType) error {
		_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"),
			StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(enabled), StreamViewType: view}})
		return err
	}
	wantErr(t, update(false, ""), "ValidationException", "Table has no stream to disable: TableName: tbl")
	wantErr(t, update(true, ""), "ValidationException", "One or more parameter values were invalid: If stream is being enabled then UpdateViewType is required")
	if err := update(true, types.StreamViewTypeNewImage); err != nil {
		t.Fatal(err)
	}
	wantErr(t, update(true, types.StreamViewTypeNewImage), "ValidationException", "Table already has an enabled stream: TableName: tbl")
	wantErr(t, update(true, types.StreamViewTypeKeysOnly), "ValidationException", "Table already has an enabled stream: TableName: tbl")
	wantErr(t, update(false, types.StreamViewTypeKeysOnly), "ValidationException", "One or more parameter values were invalid: If stream is being disabled, then UpdateViewType must not be specified")
	if err := update(false, ""); err != nil {
		t.Fatal(err)
	}
}

// CreateTable's own wording for a stream specification that contradicts
// itself, the service's order of the view types, an attribute defined
// twice, and a provisioned GSI without throughput.
func TestCreateTableMessages(t *testing.T) {
	_, c := newServer(t)
	create := func(f func(in *dynamodb.CreateTableInput)) error {
		in := &dynamodb.CreateTableInput{TableName: aws.String("tbl"), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: "HASH"}}}
		f(in)
		_, err := c.CreateTable(ctx, in)
		return err
	}
	stream := func(enabled bool, view types.StreamViewType) func(*dynamodb.CreateTableInput) {
		return func(in *dynamodb.CreateTableInput) {
			in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(enabled), StreamViewType: view}
		}
	}
	wantErr(t, create(stream(true, "")), "ValidationException",
		"One or more parameter values were invalid: Table is being created with a stream enabled, UpdateViewType is required")
	wantErr(t, create(stream(false, types.StreamViewTypeNewImage)), "ValidationException",
		"One or more parameter values were invalid: Table is being created with a stream disabled, UpdateViewType should not be specified")
	wantErr(t, create(stream(true, "new_image")), "ValidationException",
		"1 validation error detected: Value 'new_image' at 'streamSpecification.streamViewType' failed to satisfy constraint: Member must satisfy enum value set: [OLD_IMAGE, KEYS_ONLY, NEW_AND_OLD_IMAGES, NEW_IMAGE]")
	wantErr(t, create(func(in *dynamodb.CreateTableInput) {
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String("pk"), AttributeType: "N"})
	}), "ValidationException", "Attribute Name is duplicated: pk")
	wantErr(t, create(func(in *dynamodb.CreateTableInput) {
		in.BillingMode = types.BillingModeProvisioned
		in.ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)}
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String("g"), AttributeType: "S"})
		in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{IndexName: aws.String("gsi"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
			KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: "HASH"}}}}
	}), "ValidationException", "One or more parameter values were invalid: ProvisionedThroughput is not specified for index: gsi")
	// A disabled stream without a view type is no stream.
	if err := create(stream(false, "")); err != nil {
		t.Fatal(err)
	}
}

// UpdateTable's rules for GlobalSecondaryIndexUpdates: one action per entry,
// one entry per index, a new index's keys defined in the request, an index
// that exists not created again, and on an on-demand table no throughput.
func TestUpdateTableIndexUpdateRules(t *testing.T) {
	srv, c := newServer(t)
	hashRangeTable(t, srv, "tbl")
	def := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: "S"}
	}
	create := func(name string, keys ...string) *types.CreateGlobalSecondaryIndexAction {
		ks := []types.KeySchemaElement{{AttributeName: aws.String(keys[0]), KeyType: "HASH"}}
		if len(keys) > 1 {
			ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(keys[1]), KeyType: "RANGE"})
		}
		return &types.CreateGlobalSecondaryIndexAction{IndexName: aws.String(name), KeySchema: ks, Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}
	}
	update := func(defs []types.AttributeDefinition, us ...types.GlobalSecondaryIndexUpdate) error {
		_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"), AttributeDefinitions: defs, GlobalSecondaryIndexUpdates: us})
		return err
	}
	const prefix = "One or more parameter values were invalid: "
	if err := update([]types.AttributeDefinition{def("g"), def("sk")}, types.GlobalSecondaryIndexUpdate{Create: create("gsi", "g", "sk")}); err != nil {
		t.Fatal(err)
	}
	upd := &types.UpdateGlobalSecondaryIndexAction{IndexName: aws.String("gsi")}
	del := &types.DeleteGlobalSecondaryIndexAction{IndexName: aws.String("gsi")}
	wantErr(t, update(nil, types.GlobalSecondaryIndexUpdate{}), "ValidationException",
		prefix+"One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Delete must not be null")
	wantErr(t, update(nil, types.GlobalSecondaryIndexUpdate{Update: upd, Delete: del}), "ValidationException",
		prefix+"Only one global secondary index action is allowed per GlobalSecondaryIndexUpdate object")
	wantErr(t, update([]types.AttributeDefinition{def("g")}, types.GlobalSecondaryIndexUpdate{Delete: del}, types.GlobalSecondaryIndexUpdate{Create: create("gsi", "g")}), "ValidationException",
		prefix+"Only one global secondary index update per index is allowed simultaneously. Index: gsi")
	wantErr(t, update([]types.AttributeDefinition{def("g")}, types.GlobalSecondaryIndexUpdate{Create: create("gsi", "g")}), "ValidationException",
		"Attempting to create an index which already exists")
	// The table's own definition of sk does not count for a new index.
	wantErr(t, update([]types.AttributeDefinition{def("h")}, types.GlobalSecondaryIndexUpdate{Create: create("other", "h", "sk")}), "ValidationException",
		"Invalid KeySchema: Some index key attribute have no definition")
	wantErr(t, update(nil, types.GlobalSecondaryIndexUpdate{Update: upd}), "ValidationException",
		prefix+"The only Updates for index: gsi when TableThroughputMode is PAY_PER_REQUEST can be to OnDemandThroughput, WarmThroughput")
	upd.ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)}
	wantErr(t, update(nil, types.GlobalSecondaryIndexUpdate{Update: upd}), "ValidationException",
		prefix+"Neither ReadCapacityUnits nor WriteCapacityUnits can be specified for index: gsi when BillingMode is PAY_PER_REQUEST")
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("tbl")})
	if err != nil || len(d.Table.GlobalSecondaryIndexes) != 1 || len(d.Table.AttributeDefinitions) != 3 {
		t.Fatalf("after the refused updates: %+v, %v", d.Table, err)
	}
}

// The backup actions name an ARN that is no backup's, and a restore's
// target table name out of length, with sentences of their own.
func TestBackupArnAndRestoreTargetMessages(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "tbl")
	b, err := c.CreateBackup(ctx, &dynamodb.CreateBackupInput{TableName: aws.String("tbl"), BackupName: aws.String("bak")})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.DescribeBackup(ctx, &dynamodb.DescribeBackupInput{BackupArn: aws.String("")})
	wantErr(t, err, "ValidationException", "Invalid Backup ARN")
	_, err = c.DeleteBackup(ctx, &dynamodb.DeleteBackupInput{BackupArn: aws.String("arn:aws:dynamodb:us-east-1:000000000000:table/tbl")})
	wantErr(t, err, "ValidationException", "Invalid Backup ARN")
	_, err = c.RestoreTableFromBackup(ctx, &dynamodb.RestoreTableFromBackupInput{BackupArn: aws.String("x"), TargetTableName: aws.String("copy")})
	wantErr(t, err, "ValidationException", "Invalid Backup ARN")
	const length = "TableName must be at least 3 characters long and at most 255 characters long"
	_, err = c.RestoreTableFromBackup(ctx, &dynamodb.RestoreTableFromBackupInput{BackupArn: b.BackupDetails.BackupArn, TargetTableName: aws.String("")})
	wantErr(t, err, "ValidationException", length)
	_, err = c.RestoreTableToPointInTime(ctx, &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String("tbl"), TargetTableName: aws.String("ab"), UseLatestRestorableTime: aws.Bool(true)})
	wantErr(t, err, "ValidationException", length)
	// A well-formed ARN of no backup is not found.
	_, err = c.DescribeBackup(ctx, &dynamodb.DescribeBackupInput{BackupArn: aws.String("arn:aws:dynamodb:us-east-1:000000000000:table/tbl/backup/01700000000000-00000000")})
	wantErr(t, err, "BackupNotFoundException", "")
}

// UpdateItem reports its member constraints together, in the service's
// order, ConditionalOperator's enum among them. The SDK refuses a request
// without Key before sending it, so these go over raw HTTP.
func TestUpdateItemConstraintOrder(t *testing.T) {
	h, err := local.New()
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	const (
		emptyName = "Value '' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 1"
		noKey     = "Value null at 'key' failed to satisfy constraint: Member must not be null"
		update    = `"UpdateExpression":"SET a = :a","ExpressionAttributeValues":{":a":{"S":"x"}}`
	)
	for _, tc := range []struct{ body, msg string }{
		{`{"TableName":"",` + update + `}`, "2 validation errors detected: " + emptyName + "; " + noKey},
		{`{"TableName":"",` + update + `,"ReturnConsumedCapacity":"INVALID","ReturnValues":"INVALID"}`, "4 validation errors detected: " +
			"Value 'INVALID' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]; " + emptyName + "; " +
			"Value 'INVALID' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]; " + noKey},
		{`{"TableName":"tbl","AttributeUpdates":{"x":{"Action":"PUT","Value":{"S":"1"}}},"Expected":{"a":{"Exists":false},"b":{"Exists":false}},"ConditionalOperator":"XOR"}`,
			"2 validation errors detected: Value 'XOR' at 'conditionalOperator' failed to satisfy constraint: Member must satisfy enum value set: [OR, AND]; " + noKey},
	} {
		res, body := rawCall(t, h, "DynamoDB_20120810.UpdateItem", tc.body)
		if res.StatusCode != 400 || !strings.Contains(body, `"message":"`+tc.msg+`"`) {
			t.Errorf("%s:\n%d %s\nwant %s", tc.body, res.StatusCode, body, tc.msg)
		}
	}
}

// TransactWriteItems lists a ClientRequestToken that is too long before an
// unknown enum, and both before any action is looked at.
func TestTransactConstraintOrder(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "tbl")
	token := strings.Repeat("x", 37)
	_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{txPut("missing", item{"pk": S("a")})},
		ClientRequestToken: aws.String(token), ReturnConsumedCapacity: "BOGUS", ReturnItemCollectionMetrics: "BOGUS2"})
	wantErr(t, err, "ValidationException", "3 validation errors detected: "+
		"Value '"+token+"' at 'clientRequestToken' failed to satisfy constraint: Member must have length less than or equal to 36; "+
		"Value 'BOGUS' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]; "+
		"Value 'BOGUS2' at 'returnItemCollectionMetrics' failed to satisfy constraint: Member must satisfy enum value set: [SIZE, NONE]")
}

// A batch's table names are the keys of RequestItems: one name that breaks
// the constraints fails the map, reported with BatchGetItem's other member
// errors; BatchWriteItem reports an unknown enum alone before it.
func TestBatchTableNameConstraint(t *testing.T) {
	_, c := newServer(t)
	const names = "Value at 'RequestItems' failed to satisfy constraint: Map keys must satisfy constraint: " +
		"[Member must have length less than or equal to 255, Member must have length greater than or equal to 3, Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+]"
	const rcc = "Value 'BOGUS' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]"
	keys := types.KeysAndAttributes{Keys: []map[string]types.AttributeValue{{"pk": S("a")}}}
	_, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"bad!name": keys}, ReturnConsumedCapacity: "BOGUS"})
	wantErr(t, err, "ValidationException", "2 validation errors detected: "+names+"; "+rcc)
	_, err = c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"ab": keys, "tbl": keys}})
	wantErr(t, err, "ValidationException", "1 validation error detected: "+names)
	writes := []types.WriteRequest{{PutRequest: &types.PutRequest{Item: item{"pk": S("a")}}}}
	_, err = c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"bad!name": writes}, ReturnConsumedCapacity: "BOGUS"})
	wantErr(t, err, "ValidationException", "1 validation error detected: "+rcc)
	_, err = c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"bad!name": writes}})
	wantErr(t, err, "ValidationException", "1 validation error detected: "+names)
}

// Query refuses an unknown ConditionalOperator before its other members,
// with a sentence of its own.
func TestQueryConditionalOperatorEnum(t *testing.T) {
	_, c := newServer(t)
	null := types.Condition{ComparisonOperator: types.ComparisonOperatorNull}
	_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("missing"), ConditionalOperator: "XOR", Select: "BOGUS",
		KeyConditions: map[string]types.Condition{"pk": {ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{S("a")}}},
		QueryFilter:   map[string]types.Condition{"b": null, "c": null}})
	wantErr(t, err, "ValidationException", "Failed to satisfy constraint: Member must satisfy enum value set: [ALL, OR]")
}
