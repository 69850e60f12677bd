package local_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Capacity as DynamoDB charges it (CapacityUnitCalculations.html): writes per
// 1 KB of the larger of the old and new item, reads per 4 KB, eventually
// consistent reads half, and index writes reported under INDEXES.
func TestConsumedCapacity(t *testing.T) {
	srv, c := newServer(t)
	numbersTable(t, srv)
	big := strings.Repeat("x", 2500) // ~2.5 KB item: 3 write units, 1 read unit
	out, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("nums"), Item: item{"pk": S("p"), "sk": N("1"), "g": S("G"), "v": S(big)},
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
	if err != nil {
		t.Fatal(err)
	}
	cc := out.ConsumedCapacity
	if aws.ToString(cc.TableName) != "nums" || aws.ToFloat64(cc.Table.CapacityUnits) != 3 || aws.ToFloat64(cc.GlobalSecondaryIndexes["byG"].CapacityUnits) != 3 || aws.ToFloat64(cc.CapacityUnits) != 6 {
		t.Fatalf("put capacity: total %v table %v gsi %v", aws.ToFloat64(cc.CapacityUnits), aws.ToFloat64(cc.Table.CapacityUnits), cc.GlobalSecondaryIndexes)
	}
	if _, ok := cc.LocalSecondaryIndexes["byL"]; ok {
		t.Fatal("an item without the LSI key was charged to the LSI")
	}
	out, _ = c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("nums"), Item: item{"pk": S("p"), "sk": N("2")}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	if cc := out.ConsumedCapacity; aws.ToFloat64(cc.CapacityUnits) != 1 || cc.Table != nil {
		t.Fatalf("TOTAL shape: %+v", cc)
	}
	g, _ := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("nums"), Key: item{"pk": S("p"), "sk": N("1")}, ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	if u := aws.ToFloat64(g.ConsumedCapacity.CapacityUnits); u != 0.5 {
		t.Fatalf("eventually consistent read = %v units, want 0.5", u)
	}
	g, _ = c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("nums"), Key: item{"pk": S("p"), "sk": N("1")}, ConsistentRead: aws.Bool(true), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	if u := aws.ToFloat64(g.ConsumedCapacity.CapacityUnits); u != 1 {
		t.Fatalf("consistent read = %v units, want 1", u)
	}
	q, _ := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("nums"), IndexName: aws.String("byG"), KeyConditionExpression: aws.String("g = :g"),
		ExpressionAttributeValues: item{":g": S("G")}, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
	if cc := q.ConsumedCapacity; aws.ToFloat64(cc.GlobalSecondaryIndexes["byG"].CapacityUnits) != 0.5 {
		t.Fatalf("GSI query capacity: %+v", cc.GlobalSecondaryIndexes)
	}
	d, _ := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("nums")})
	if aws.ToInt64(d.Table.ItemCount) != 2 || aws.ToInt64(d.Table.TableSizeBytes) < 2500 {
		t.Fatalf("count %d size %d", aws.ToInt64(d.Table.ItemCount), aws.ToInt64(d.Table.TableSizeBytes))
	}
}

func TestItemCollectionMetrics(t *testing.T) {
	srv, c := newServer(t)
	numbersTable(t, srv)
	out, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("nums"), Item: item{"pk": S("p"), "sk": N("1"), "l": S("x")},
		ReturnItemCollectionMetrics: types.ReturnItemCollectionMetricsSize})
	if err != nil {
		t.Fatal(err)
	}
	m := out.ItemCollectionMetrics
	if m == nil || sval(m.ItemCollectionKey["pk"]) != "p" || len(m.SizeEstimateRangeGB) != 2 {
		t.Fatalf("metrics %+v", m)
	}
}

// Concurrent conditional increments are linearizable, and the GSI always
// agrees with the table.
func TestConcurrentWritesAndIndexes(t *testing.T) {
	srv, c := newServer(t)
	numbersTable(t, srv)
	put(t, c, "nums", item{"pk": S("ctr"), "sk": N("0"), "n": N("0"), "g": S("g0")})
	var wg sync.WaitGroup
	const workers, per = 4, 25
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < per; i++ {
				for {
					g, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("nums"), Key: item{"pk": S("ctr"), "sk": N("0")}, ConsistentRead: aws.Bool(true)})
					if err != nil {
						t.Error(err)
						return
					}
					cur := sval(g.Item["n"])
					var next int
					fmt.Sscan(cur, &next)
					next++
					_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("nums"), Key: item{"pk": S("ctr"), "sk": N("0")},
						UpdateExpression: aws.String("SET n = :next, g = :g"), ConditionExpression: aws.String("n = :cur"),
						ExpressionAttributeValues: item{":next": N(fmt.Sprint(next)), ":cur": N(cur), ":g": S(fmt.Sprintf("g%d", next))}})
					if err == nil {
						break
					}
					var ccf *types.ConditionalCheckFailedException
					if !asErr(err, &ccf) {
						t.Error(err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	g, _ := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("nums"), Key: item{"pk": S("ctr"), "sk": N("0")}})
	if got := sval(g.Item["n"]); got != fmt.Sprint(workers*per) {
		t.Fatalf("counter = %s, want %d (lost updates)", got, workers*per)
	}
	s, _ := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("nums"), IndexName: aws.String("byG")})
	if s.Count != 1 || sval(s.Items[0]["g"]) != fmt.Sprintf("g%d", workers*per) {
		t.Fatalf("index holds %d entries: %v", s.Count, s.Items)
	}
}
