package local_test

import (
	"fmt"
	"log/slog"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/local"
	"github.com/dynamogo/dynamo/local/storage/disk"
)

// A TTL sweep deletes the expired items with their GSI entries in batches
// (one log record, one fsync, per 256 items on the disk engine), and the
// deletes are durable.
func TestTimeToLiveSweepWritesBatches(t *testing.T) {
	str := aws.String
	dir := t.TempDir()
	eng, err := disk.Open(dir, disk.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() }) // whichever is open last
	base := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	var now atomic.Int64
	now.Store(base.UnixNano())
	var sweeps sweepWatch
	srv := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithEngine(eng),
		local.WithClock(func() time.Time { return time.Unix(0, now.Load()) }),
		local.WithTTLSweep(time.Millisecond), sweeps.option()))
	c := srv.Client()
	srv.CreateTable(t, &dynamodb.CreateTableInput{
		TableName:   str("sess"),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: str("pk"), AttributeType: "S"},
			{AttributeName: str("user"), AttributeType: "S"}},
		KeySchema: []types.KeySchemaElement{{AttributeName: str("pk"), KeyType: "HASH"}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: str("byUser"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: str("user"), KeyType: "HASH"}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}},
	})
	if err := updateTTL(c, "sess", "exp", true); err != nil {
		t.Fatal(err)
	}
	const n = 600
	exp := strconv.FormatInt(base.Add(time.Hour).Unix(), 10)
	for i := 0; i < n; i += 25 {
		var reqs []types.WriteRequest
		for j := i; j < i+25; j++ {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: item{
				"pk": S(fmt.Sprint("s", j)), "user": S(fmt.Sprint("u", j%7)), "exp": N(exp)}}})
		}
		if _, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"sess": reqs}}); err != nil {
			t.Fatal(err)
		}
	}
	count := func(index string) int32 {
		in := &dynamodb.ScanInput{TableName: str("sess"), Select: types.SelectCount}
		if index != "" {
			in.IndexName = str(index)
		}
		out, err := c.Scan(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		return out.Count
	}
	if a, b := count(""), count("byUser"); a != n || b != n {
		t.Fatalf("before expiry: %d items, %d GSI entries", a, b)
	}
	writes := eng.Stats().Writes
	now.Store(base.Add(2 * time.Hour).UnixNano())
	sweeps.waitNext()
	if got := count(""); got != 0 {
		t.Fatalf("%d items left after the sweep", got)
	}
	if got := count("byUser"); got != 0 {
		t.Fatalf("%d GSI entries outlived their items", got)
	}
	if got, want := eng.Stats().Writes-writes, uint64((n+255)/256); got != want {
		t.Fatalf("the sweep wrote %d log records, want %d (batches of 256 items)", got, want)
	}
	srv.Close()
	if err := eng.Close(); err != nil {
		t.Fatal(err)
	}
	eng, err = disk.Open(dir, disk.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	again := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithEngine(eng)))
	c = again.Client()
	if a, b := count(""), count("byUser"); a != 0 || b != 0 {
		t.Fatalf("after a restart: %d items, %d GSI entries", a, b)
	}
}
