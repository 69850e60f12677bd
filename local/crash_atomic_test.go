package local_test

import (
	"encoding/binary"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/local"
	"github.com/dynamogo/dynamo/local/storage/disk"
)

// A TransactWriteItems of three items on a table with a GSI and an LSI is
// one log record on the disk engine. A crash that cuts the log anywhere
// inside that record recovers the state before the transaction, every item
// and index entry of it; only the complete record recovers the state after
// it. Never a mix: no index out of step with its table, no half transaction.
// The same holds for a PutItem with its index entries and a BatchWriteItem.
func TestCrashInsideAWriteIsAtomic(t *testing.T) {
	str := aws.String
	writes := map[string]func(c *dynamodb.Client) error{
		// Two new items and an update that moves the old one to another GSI
		// partition and LSI position (an index delete and put).
		"TransactWriteItems": func(c *dynamodb.Client) error {
			_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Put: &types.Put{TableName: str("txn"), Item: item{"pk": S("p"), "sk": S("a"), "grp": S("g1"), "rank": N("2")}}},
				{Put: &types.Put{TableName: str("txn"), Item: item{"pk": S("q"), "sk": S("b"), "grp": S("g2"), "rank": N("3")}}},
				{Update: &types.Update{TableName: str("txn"), Key: item{"pk": S("p"), "sk": S("old")},
					UpdateExpression:          str("SET grp = :g, #r = :r"),
					ExpressionAttributeNames:  map[string]string{"#r": "rank"},
					ExpressionAttributeValues: item{":g": S("g2"), ":r": N("9")}}},
			}})
			return err
		},
		"PutItem": func(c *dynamodb.Client) error {
			_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: str("txn"),
				Item: item{"pk": S("p"), "sk": S("old"), "grp": S("g2"), "rank": N("5")}})
			return err
		},
		"BatchWriteItem": func(c *dynamodb.Client) error {
			put := func(it item) types.WriteRequest { return types.WriteRequest{PutRequest: &types.PutRequest{Item: it}} }
			_, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"txn": {
				put(item{"pk": S("p"), "sk": S("a"), "grp": S("g1"), "rank": N("2")}),
				put(item{"pk": S("q"), "sk": S("b"), "grp": S("g2"), "rank": N("3")}),
				{DeleteRequest: &types.DeleteRequest{Key: item{"pk": S("p"), "sk": S("old")}}},
			}}})
			return err
		},
	}
	for name, write := range writes {
		t.Run(name, func(t *testing.T) { testCrashInside(t, write) })
	}
}

func testCrashInside(t *testing.T, write func(c *dynamodb.Client) error) {
	str := aws.String
	dir := t.TempDir()
	quiet := disk.WithLogger(slog.New(slog.DiscardHandler))
	eng, err := disk.Open(dir, quiet)
	if err != nil {
		t.Fatal(err)
	}
	srv := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithEngine(eng)))
	c := srv.Client()
	srv.CreateTable(t, txnTable())
	if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: str("txn"),
		Item: item{"pk": S("p"), "sk": S("old"), "grp": S("g1"), "rank": N("1")}}); err != nil {
		t.Fatal(err)
	}
	before := dump(t, c)
	walPath, start := lastLog(t, dir, eng)

	if err := write(c); err != nil {
		t.Fatal(err)
	}
	after := dump(t, c)
	srv.Close()
	if err := eng.Close(); err != nil {
		t.Fatal(err)
	}
	log, err := os.ReadFile(walPath)
	if err != nil {
		t.Fatal(err)
	}
	end := int64(len(log))
	// The transaction is one record: its length field spans the rest of the log.
	if n := int64(binary.LittleEndian.Uint32(log[start:])); start+8+n != end {
		t.Fatalf("the write's record at %d is %d bytes, but the log goes on to %d: more than one record", start, n, end)
	}
	if before == after {
		t.Fatal("the write changed nothing")
	}

	cuts := []int64{start + 1, start + 4, start + 8, start + 9, end - 1, end}
	for cut := start; cut < end; cut += max(1, (end-start)/16) {
		cuts = append(cuts, cut)
	}
	slices.Sort(cuts)
	for _, cut := range slices.Compact(cuts) {
		crashed := t.TempDir()
		for _, ent := range crashMust(os.ReadDir(dir)) {
			if ent.Name() == "LOCK" {
				continue
			}
			b := crashMust(os.ReadFile(filepath.Join(dir, ent.Name())))
			if filepath.Join(dir, ent.Name()) == walPath {
				b = b[:cut]
			}
			if err := os.WriteFile(filepath.Join(crashed, ent.Name()), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		e, err := disk.Open(crashed, quiet)
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		s := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithEngine(e)))
		got := dump(t, s.Client())
		s.Close()
		e.Close()
		want, name := before, "before"
		if cut == end {
			want, name = after, "after"
		}
		if got != want {
			t.Fatalf("log cut at %d of the write's [%d, %d): recovered\n%s\nwant the state %s it:\n%s", cut, start, end, got, name, want)
		}
	}
}

// dump is table txn, its GSI and its LSI, as sorted lines.
func dump(t *testing.T, c *dynamodb.Client) string {
	t.Helper()
	var lines []string
	for _, ix := range []string{"", "byGroup", "byRank"} {
		in := &dynamodb.ScanInput{TableName: aws.String("txn"), ConsistentRead: aws.Bool(ix != "byGroup")}
		if ix != "" {
			in.IndexName = aws.String(ix)
		}
		out, err := c.Scan(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			var attrs []string
			for k, v := range it {
				switch v := v.(type) {
				case *types.AttributeValueMemberS:
					attrs = append(attrs, k+"="+v.Value)
				case *types.AttributeValueMemberN:
					attrs = append(attrs, k+"="+v.Value)
				}
			}
			slices.Sort(attrs)
			lines = append(lines, fmt.Sprintf("%-8s %s", ix, strings.Join(attrs, " ")))
		}
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// lastLog is the newest log of eng's directory dir and where its records
// end (the file of an open log goes on in zeros written ahead of them).
func lastLog(t *testing.T, dir string, eng *disk.Engine) (string, int64) {
	t.Helper()
	logs, err := filepath.Glob(filepath.Join(dir, "wal.*"))
	if err != nil || len(logs) != 1 {
		t.Fatalf("logs %v, %v: want one", logs, err)
	}
	return logs[0], eng.Stats().LogBytes
}

func crashMust[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// A crash inside DeleteTable (after the catalog entry went, before the
// collections were dropped) leaves the table's items behind; a table
// created later under the same name starts empty, GSI included.
func TestTableCreatedAfterInterruptedDeleteIsEmpty(t *testing.T) {
	str := aws.String
	dir := t.TempDir()
	quiet := disk.WithLogger(slog.New(slog.DiscardHandler))
	create := txnTable()
	serve := func(f func(srv *dynamotest.Server, eng *disk.Engine)) {
		eng, err := disk.Open(dir, quiet)
		if err != nil {
			t.Fatal(err)
		}
		srv := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithEngine(eng)))
		f(srv, eng)
		srv.Close()
		if err := eng.Close(); err != nil {
			t.Fatal(err)
		}
	}
	serve(func(srv *dynamotest.Server, eng *disk.Engine) {
		srv.CreateTable(t, create)
		if _, err := srv.Client().PutItem(ctx, &dynamodb.PutItemInput{TableName: str("txn"),
			Item: item{"pk": S("p"), "sk": S("s"), "grp": S("g"), "rank": N("1")}}); err != nil {
			t.Fatal(err)
		}
		srv.Close()
		// DeleteTable's first step alone: the catalog entry goes ("table/"
		// and the name, meta.go), the collections stay.
		if err := eng.PutMeta("table/txn", nil); err != nil {
			t.Fatal(err)
		}
	})
	serve(func(srv *dynamotest.Server, _ *disk.Engine) {
		srv.CreateTable(t, create)
		if got := dump(t, srv.Client()); got != "" {
			t.Fatalf("the new table holds the deleted one's items:\n%s", got)
		}
	})
}

// txnTable is the table the crash tests write to: a composite key, a GSI
// (ALL) and an LSI (KEYS_ONLY), so that a torn write would show in each.
func txnTable() *dynamodb.CreateTableInput {
	str := aws.String
	return &dynamodb.CreateTableInput{
		TableName:   str("txn"),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: str("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: str("sk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: str("grp"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: str("rank"), AttributeType: types.ScalarAttributeTypeN},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: str("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: str("sk"), KeyType: types.KeyTypeRange},
		},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  str("byGroup"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: str("grp"), KeyType: types.KeyTypeHash}, {AttributeName: str("sk"), KeyType: types.KeyTypeRange}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{
			IndexName:  str("byRank"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: str("pk"), KeyType: types.KeyTypeHash}, {AttributeName: str("rank"), KeyType: types.KeyTypeRange}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		}},
	}
}
