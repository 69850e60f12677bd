package local_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/local"
)

func txPut(table string, it item) types.TransactWriteItem {
	return types.TransactWriteItem{Put: &types.Put{TableName: aws.String(table), Item: it}}
}

func txCheck(table string, key item, cond string, vals item) types.TransactWriteItem {
	return types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{TableName: aws.String(table), Key: key,
		ConditionExpression: aws.String(cond), ExpressionAttributeValues: vals}}
}

func txUpdate(table string, key item, update string, vals item) types.TransactWriteItem {
	return types.TransactWriteItem{Update: &types.Update{TableName: aws.String(table), Key: key,
		UpdateExpression: aws.String(update), ExpressionAttributeValues: vals}}
}

func getItem(t *testing.T, c *dynamodb.Client, table string, key item) item {
	t.Helper()
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: key, ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatalf("GetItem: %v", err)
	}
	return out.Item
}

func cancelReasons(t *testing.T, err error) (string, []types.CancellationReason) {
	t.Helper()
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		t.Fatalf("want TransactionCanceledException, got %v", err)
	}
	return tce.ErrorMessage(), tce.CancellationReasons
}

func TestTransactWriteAppliesEveryActionAtomically(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "accts")
	hashRangeTable(t, srv, "log")
	put(t, c, "accts", item{"pk": S("a"), "bal": N("10")})
	put(t, c, "accts", item{"pk": S("gone"), "bal": N("0")})

	out, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
		TransactItems: []types.TransactWriteItem{
			txCheck("accts", item{"pk": S("a")}, "bal >= :n", item{":n": N("5")}),
			txUpdate("accts", item{"pk": S("b")}, "SET bal = if_not_exists(bal, :z) + :n", item{":n": N("5"), ":z": N("0")}),
			txPut("log", item{"pk": S("t1"), "sk": S("1"), "note": S(strings2KB())}),
			{Delete: &types.Delete{TableName: aws.String("accts"), Key: item{"pk": S("gone")}}},
		},
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	})
	if err != nil {
		t.Fatal(err)
	}
	if sval(getItem(t, c, "accts", item{"pk": S("b")})["bal"]) != "5" {
		t.Fatal("update not applied")
	}
	if getItem(t, c, "accts", item{"pk": S("gone")}) != nil {
		t.Fatal("delete not applied")
	}
	if getItem(t, c, "log", item{"pk": S("t1"), "sk": S("1")}) == nil {
		t.Fatal("put not applied")
	}
	// Transactions cost double: accts = check 2 + update 2 + delete 2; log = 2 KB item → 2×3.
	got := map[string]float64{}
	for _, cc := range out.ConsumedCapacity {
		got[aws.ToString(cc.TableName)] = aws.ToFloat64(cc.CapacityUnits)
	}
	if got["accts"] != 6 || got["log"] != 6 {
		t.Fatalf("consumed capacity = %v, want accts 6, log 6", got)
	}
}

func strings2KB() string {
	b := make([]byte, 2100)
	for i := range b {
		b[i] = 'x'
	}
	return string(b)
}

func TestTransactWriteCancellationReasons(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "accts")
	put(t, c, "accts", item{"pk": S("a"), "bal": N("1")})
	_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{ConditionCheck: &types.ConditionCheck{TableName: aws.String("accts"), Key: item{"pk": S("a")},
			ConditionExpression: aws.String("bal >= :n"), ExpressionAttributeValues: item{":n": N("5")},
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}},
		txPut("accts", item{"pk": S("b"), "bal": N("5")}),
	}})
	msg, reasons := cancelReasons(t, err)
	if want := "Transaction cancelled, please refer cancellation reasons for specific reasons [ConditionalCheckFailed, None]"; msg != want {
		t.Fatalf("message = %q\nwant      %q", msg, want)
	}
	if len(reasons) != 2 || aws.ToString(reasons[0].Code) != "ConditionalCheckFailed" || aws.ToString(reasons[1].Code) != "None" {
		t.Fatalf("reasons = %+v", reasons)
	}
	if aws.ToString(reasons[0].Message) != "The conditional request failed" || sval(reasons[0].Item["bal"]) != "1" {
		t.Fatalf("reason 0 = %q item %v", aws.ToString(reasons[0].Message), reasons[0].Item)
	}
	if reasons[1].Item != nil || reasons[1].Message != nil {
		t.Fatalf("a None reason carries nothing: %+v", reasons[1])
	}
	if getItem(t, c, "accts", item{"pk": S("b")}) != nil {
		t.Fatal("a cancelled transaction applied its put")
	}

	// An update that fails on the item is a ValidationError reason.
	_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		txPut("accts", item{"pk": S("c")}),
		txUpdate("accts", item{"pk": S("a")}, "SET bal = nosuch + :n", item{":n": N("1")}),
	}})
	msg, reasons = cancelReasons(t, err)
	if msg != "Transaction cancelled, please refer cancellation reasons for specific reasons [None, ValidationError]" ||
		aws.ToString(reasons[1].Message) != "The provided expression refers to an attribute that does not exist in the item" {
		t.Fatalf("message %q, reason %q", msg, aws.ToString(reasons[1].Message))
	}
	if reasons[0].Item != nil || getItem(t, c, "accts", item{"pk": S("c")}) != nil {
		t.Fatal("a cancelled transaction applied its put")
	}
}

func TestTransactWriteValidation(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "accts")
	many := make([]types.TransactWriteItem, 101)
	for i := range many {
		many[i] = txPut("accts", item{"pk": S(strconv.Itoa(i))})
	}
	cases := []struct {
		name  string
		items []types.TransactWriteItem
		code  string
		msg   string
	}{
		{"same item twice", []types.TransactWriteItem{txPut("accts", item{"pk": S("a")}), txCheck("accts", item{"pk": S("a")}, "attribute_exists(pk)", nil)},
			"ValidationException", "Transaction request cannot include multiple operations on one item"},
		{"two actions in one element", []types.TransactWriteItem{{Put: &types.Put{TableName: aws.String("accts"), Item: item{"pk": S("a")}},
			Delete: &types.Delete{TableName: aws.String("accts"), Key: item{"pk": S("b")}}}},
			"ValidationException", "TransactItems can only contain one of Check, Put, Update or Delete"},
		{"no table", []types.TransactWriteItem{txPut("nope", item{"pk": S("a")})}, "ResourceNotFoundException", "Requested resource not found"},
		{"bad expression", []types.TransactWriteItem{txCheck("accts", item{"pk": S("a")}, "pk = ", nil)}, "ValidationException", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: tc.items})
			wantErr(t, err, tc.code, tc.msg)
		})
	}
	_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: many})
	wantErrContains(t, err, "ValidationException", "at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to 100")
	_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: many[:100]})
	if err != nil {
		t.Fatalf("100 items: %v", err)
	}
}

func TestTransactWriteIdempotency(t *testing.T) {
	var now atomic.Int64
	now.Store(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano())
	srv := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithClock(func() time.Time { return time.Unix(0, now.Load()) })))
	c := srv.Client(func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} })
	hashTable(t, srv, "ctr")
	incr := func(token, by string) error {
		_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
			ClientRequestToken: aws.String(token),
			TransactItems: []types.TransactWriteItem{
				txUpdate("ctr", item{"pk": S("n")}, "ADD v :by", item{":by": N(by)}),
				txPut("ctr", item{"pk": S("side"), "x": S("y"), "z": S(by)}),
			},
		})
		return err
	}
	value := func() string { return sval(getItem(t, c, "ctr", item{"pk": S("n")})["v"]) }
	for range 3 {
		if err := incr("tok-1", "1"); err != nil {
			t.Fatal(err)
		}
	}
	if v := value(); v != "1" {
		t.Fatalf("after three identical calls v = %s, want 1", v)
	}
	wantErr(t, incr("tok-1", "2"), "IdempotentParameterMismatchException", "")
	if err := incr("tok-2", "1"); err != nil || value() != "2" {
		t.Fatalf("a new token applies again: %v, v = %s", err, value())
	}
	now.Add(int64(11 * time.Minute))
	if err := incr("tok-1", "2"); err != nil || value() != "4" {
		t.Fatalf("after the window the token is new: %v, v = %s", err, value())
	}
}

func TestTransactGetItems(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "accts")
	put(t, c, "accts", item{"pk": S("a"), "bal": N("1"), "x": S("hidden")})
	out, err := c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{
		TransactItems: []types.TransactGetItem{
			{Get: &types.Get{TableName: aws.String("accts"), Key: item{"pk": S("missing")}}},
			{Get: &types.Get{TableName: aws.String("accts"), Key: item{"pk": S("a")}, ProjectionExpression: aws.String("bal")}},
		},
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Responses) != 2 || out.Responses[0].Item != nil || len(out.Responses[1].Item) != 1 || sval(out.Responses[1].Item["bal"]) != "1" {
		t.Fatalf("responses = %+v", out.Responses)
	}
	if u := aws.ToFloat64(out.ConsumedCapacity[0].CapacityUnits); u != 4 {
		t.Fatalf("two transactional reads cost %v, want 4", u)
	}
	_, err = c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{{Get: &types.Get{TableName: aws.String("nope"), Key: item{"pk": S("a")}}}}})
	wantErr(t, err, "ResourceNotFoundException", "")
}

// Transfers between accounts, run concurrently, keep the total: every
// transaction is atomic (both sides or neither) and serializable, also
// against concurrent transactional reads and the GSI.
func TestTransactTransfersKeepTheTotal(t *testing.T) {
	srv := dynamotest.NewServer(t)
	c := srv.Client()
	srv.CreateTable(t, &dynamodb.CreateTableInput{
		TableName: aws.String("bank"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"},
			{AttributeName: aws.String("branch"), AttributeType: "S"}},
		KeySchema:   []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: "HASH"}},
		BillingMode: types.BillingModePayPerRequest,
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byBranch"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("branch"), KeyType: "HASH"}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
	})
	const accounts, start = 6, 100
	var gets []types.TransactGetItem
	for i := range accounts {
		put(t, c, "bank", item{"pk": S(fmt.Sprint("acct", i)), "branch": S("main"), "bal": N(strconv.Itoa(start))})
		gets = append(gets, types.TransactGetItem{Get: &types.Get{TableName: aws.String("bank"), Key: item{"pk": S(fmt.Sprint("acct", i))}}})
	}
	total := func(items []map[string]types.AttributeValue) int {
		sum := 0
		for _, it := range items {
			n, _ := strconv.Atoi(sval(it["bal"]))
			sum += n
		}
		return sum
	}
	workers, transfers := 4, 25
	if testing.Short() {
		transfers = 10
	}
	var wg sync.WaitGroup
	var committed, cancelled atomic.Int64
	errs := make(chan error, workers+1)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 1))
			for range transfers {
				from, to := r.IntN(accounts), r.IntN(accounts-1)
				if to >= from {
					to++
				}
				amt := strconv.Itoa(1 + r.IntN(60))
				_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
					{Update: &types.Update{TableName: aws.String("bank"), Key: item{"pk": S(fmt.Sprint("acct", from))},
						UpdateExpression: aws.String("SET bal = bal - :a"), ConditionExpression: aws.String("bal >= :a"),
						ExpressionAttributeValues: item{":a": N(amt)}}},
					txUpdate("bank", item{"pk": S(fmt.Sprint("acct", to))}, "SET bal = bal + :a", item{":a": N(amt)}),
				}})
				var tce *types.TransactionCanceledException
				switch {
				case err == nil:
					committed.Add(1)
				case errors.As(err, &tce):
					cancelled.Add(1)
				default:
					errs <- err
					return
				}
			}
		}()
	}
	stop := make(chan struct{})
	var readers sync.WaitGroup
	readers.Add(1)
	go func() { // a concurrent reader sees the total at every point in time
		defer readers.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			out, err := c.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: gets})
			if err != nil {
				errs <- err
				return
			}
			var items []map[string]types.AttributeValue
			for _, r := range out.Responses {
				items = append(items, r.Item)
			}
			if got := total(items); got != accounts*start {
				errs <- fmt.Errorf("a transactional read saw total %d, want %d", got, accounts*start)
				return
			}
		}
	}()
	wg.Wait()
	close(stop)
	readers.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if committed.Load() == 0 {
		t.Fatal("no transfer committed")
	}
	scan, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("bank"), ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	q, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("bank"), IndexName: aws.String("byBranch"),
		KeyConditionExpression: aws.String("branch = :b"), ExpressionAttributeValues: item{":b": S("main")}})
	if err != nil {
		t.Fatal(err)
	}
	if total(scan.Items) != accounts*start || total(q.Items) != accounts*start {
		t.Fatalf("total: table %d, index %d, want %d (%d committed, %d cancelled)", total(scan.Items), total(q.Items), accounts*start, committed.Load(), cancelled.Load())
	}
	for _, it := range scan.Items {
		if n, _ := strconv.Atoi(sval(it["bal"])); n < 0 {
			t.Fatalf("an account went negative: %v", it)
		}
	}
}

// Under INDEXES a transaction reports the table and each index it wrote,
// all doubled; ItemCollectionMetrics covers the tables with an LSI.
func TestTransactWriteIndexCapacityAndMetrics(t *testing.T) {
	srv, c := newServer(t)
	numbersTable(t, srv)
	out, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
		TransactItems: []types.TransactWriteItem{
			txPut("nums", item{"pk": S("p"), "sk": N("1"), "g": S("G"), "l": S("L")}),
			txPut("nums", item{"pk": S("p"), "sk": N("2")}),
		},
		ReturnConsumedCapacity:      types.ReturnConsumedCapacityIndexes,
		ReturnItemCollectionMetrics: types.ReturnItemCollectionMetricsSize,
	})
	if err != nil {
		t.Fatal(err)
	}
	cc := out.ConsumedCapacity[0]
	if aws.ToFloat64(cc.Table.CapacityUnits) != 4 || aws.ToFloat64(cc.GlobalSecondaryIndexes["byG"].CapacityUnits) != 2 ||
		aws.ToFloat64(cc.LocalSecondaryIndexes["byL"].CapacityUnits) != 2 || aws.ToFloat64(cc.CapacityUnits) != 8 {
		t.Fatalf("capacity: total %v table %v gsi %v lsi %v", aws.ToFloat64(cc.CapacityUnits), aws.ToFloat64(cc.Table.CapacityUnits),
			cc.GlobalSecondaryIndexes, cc.LocalSecondaryIndexes)
	}
	m := out.ItemCollectionMetrics["nums"]
	if len(m) != 2 || sval(m[0].ItemCollectionKey["pk"]) != "p" || len(m[0].SizeEstimateRangeGB) != 2 {
		t.Fatalf("item collection metrics = %+v", out.ItemCollectionMetrics)
	}
}

// BenchmarkTransactWriteItems is a two-item transfer through the handler.
func BenchmarkTransactWriteItems(b *testing.B) {
	srv, err := local.New()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Close() })
	c := newCaller(srv)
	c.call(b, "CreateTable", `{"TableName":"bank","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`)
	for i := range 100 {
		c.call(b, "PutItem", `{"TableName":"bank","Item":{"pk":{"S":"a`+strconv.Itoa(i)+`"},"bal":{"N":"1000000000"}}}`)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		from, to := strconv.Itoa(i%100), strconv.Itoa((i+1)%100)
		c.call(b, "TransactWriteItems", `{"TransactItems":[`+
			`{"Update":{"TableName":"bank","Key":{"pk":{"S":"a`+from+`"}},"UpdateExpression":"SET bal = bal - :a","ConditionExpression":"bal >= :a","ExpressionAttributeValues":{":a":{"N":"1"}}}},`+
			`{"Update":{"TableName":"bank","Key":{"pk":{"S":"a`+to+`"}},"UpdateExpression":"SET bal = bal + :a","ExpressionAttributeValues":{":a":{"N":"1"}}}}]}`)
	}
}
