package disk_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/aws/smithy-go"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/local"
	"github.com/dynamogo/dynamo/local/storage/disk"
)

// These tests run the local server on the durable engine through the real
// SDK client: only this package's tests can hold the log's fsync back.

// syncGate holds every fsync of the log back while closed, until opened;
// an fsync let through fails with fail if set.
type syncGate struct {
	mu      sync.Mutex
	held    bool
	entered chan struct{} // receives once per fsync held back
	release chan struct{}
	passed  atomic.Bool // set once an fsync held back is let through
	fail    atomic.Pointer[error]
	syncs   atomic.Int64 // fsyncs of the log asked for
	// applied is the engine's count of writes applied, which committed
	// keeps and changed announces.
	applied uint64
	changed *sync.Cond
}

func newSyncGate() *syncGate {
	g := &syncGate{entered: make(chan struct{}, 64), release: make(chan struct{})}
	g.changed = sync.NewCond(&g.mu)
	return g
}

// committed is the engine's commit hook.
func (g *syncGate) committed(writes uint64) {
	g.mu.Lock()
	g.applied = writes
	g.changed.Broadcast()
	g.mu.Unlock()
}

func (g *syncGate) hold() { g.mu.Lock(); g.held = true; g.mu.Unlock() }

// open lets every fsync held back, and every later one, through.
func (g *syncGate) open() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.held {
		g.held = false
		close(g.release)
	}
}

func (g *syncGate) faults(op, name string) error {
	if op != "sync" || !strings.HasPrefix(name, "wal.") {
		return nil
	}
	g.syncs.Add(1)
	g.mu.Lock()
	held := g.held
	g.mu.Unlock()
	if held {
		g.entered <- struct{}{}
		<-g.release
		g.passed.Store(true)
	}
	if p := g.fail.Load(); p != nil {
		return *p
	}
	return nil
}

// gatedServer is a server on a durable engine whose log fsyncs g holds,
// with a table "tbl" (key "pk") and a client that does not retry. calls
// receives the action of every call the server starts. opts are the
// server's further options.
func gatedServer(t *testing.T, g *syncGate, opts ...local.Option) (*disk.Engine, *dynamotest.Server, *dynamodb.Client, chan string) {
	t.Helper()
	e := open(t, t.TempDir(), disk.WithFaults(g.faults), disk.WithCommitHook(g.committed))
	t.Cleanup(func() { e.Close() })
	calls := make(chan string, 64)
	srv := dynamotest.NewServer(t, dynamotest.WithLocalOptions(append(opts, local.WithEngine(e))...),
		dynamotest.WithFaultFunc(func(action string) local.Fault {
			select {
			case calls <- action:
			default:
			}
			return local.Fault{}
		}))
	t.Cleanup(g.open) // a failed test's calls finish before the server closes
	c := srv.Client(func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} })
	_, err := c.CreateTable(context.Background(), &dynamodb.CreateTableInput{
		TableName:            aws.String("tbl"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
	})
	must(t, err)
	for len(calls) > 0 {
		<-calls
	}
	return e, srv, c, calls
}

func putInput(pk, v string) *dynamodb.PutItemInput {
	return &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: pk},
		"v":  &types.AttributeValueMemberS{Value: v},
	}}
}

// awaitWrites returns once the engine has applied n writes in all. A
// server that never gets there (one whose writers wait for each other's
// fsync) hangs here until the test binary's timeout reports it.
func awaitWrites(g *syncGate, n uint64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for g.applied < n {
		g.changed.Wait()
	}
}

// heldPut holds the log's fsyncs back and puts v under key "k": it returns
// once the write is applied and its fsync held, with the channel its
// answer's error will come on.
func heldPut(e *disk.Engine, g *syncGate, c *dynamodb.Client, calls chan string, v string) chan error {
	before := e.Stats()
	g.hold()
	werr := make(chan error, 1)
	go func() {
		_, err := c.PutItem(context.Background(), putInput("k", v))
		werr <- err
	}()
	<-calls
	<-g.entered
	awaitWrites(g, before.Writes+1)
	return werr
}

// serverModes are the ways a server keeps its tables on the engine: shared
// by every caller, or one account per access key (WithTenancy), whose
// writers must share the group commit too.
var serverModes = []struct {
	name string
	opts []local.Option
}{
	{"shared", nil},
	{"tenancy", []local.Option{local.WithTenancy()}},
}

// Eight concurrent PutItems to one table while the log's first fsync is
// held back: the table's lock does not wait for the fsync, so all eight
// writes are applied while it is held, and the seven behind the first are
// made durable together by the next one.
func TestServerWritersToOneTableShareFsyncs(t *testing.T) {
	inEveryMode(t, testWritersShareFsyncs)
}

// inEveryMode runs test once for each of serverModes.
func inEveryMode(t *testing.T, test func(*testing.T, []local.Option)) {
	for _, m := range serverModes {
		t.Run(m.name, func(t *testing.T) { test(t, m.opts) })
	}
}

func testWritersShareFsyncs(t *testing.T, opts []local.Option) {
	g := newSyncGate()
	e, _, c, _ := gatedServer(t, g, opts...)
	before, syncsBefore := e.Stats(), g.syncs.Load()
	g.hold()
	const writers = 8
	errs := make(chan error, writers)
	for i := range writers {
		go func() {
			_, err := c.PutItem(context.Background(), putInput(fmt.Sprint("k", i), "v"))
			errs <- err
		}()
	}
	<-g.entered // the first writer's fsync
	awaitWrites(g, before.Writes+writers)
	syncsHeld := g.syncs.Load() - syncsBefore
	g.open()
	for range writers {
		must(t, <-errs)
	}
	st := e.Stats()
	if n := st.Syncs - before.Syncs; n > 2 {
		t.Errorf("%d writers needed %d fsyncs, want at most 2", writers, n)
	}
	if syncsHeld != 1 {
		t.Errorf("%d fsyncs asked for while the first was held back, want 1", syncsHeld)
	}
}

// A GetItem and a Query of an item whose write is applied but whose fsync
// is held back answer only once the fsync is through, with the new value.
func TestServerReadersWaitForTheWriteTheySee(t *testing.T) {
	inEveryMode(t, testReadersWait)
}

func testReadersWait(t *testing.T, opts []local.Option) {
	g := newSyncGate()
	e, _, c, calls := gatedServer(t, g, opts...)
	_, err := c.PutItem(context.Background(), putInput("k", "old"))
	must(t, err)
	<-calls
	werr := heldPut(e, g, c, calls, "new")
	type read struct {
		v       string
		err     error
		durable bool
	}
	reads := make(chan read, 2)
	go func() {
		out, err := c.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("tbl"),
			Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "k"}}})
		r := read{err: err, durable: g.passed.Load()}
		if err == nil {
			r.v = out.Item["v"].(*types.AttributeValueMemberS).Value
		}
		reads <- r
	}()
	go func() {
		out, err := c.Query(context.Background(), &dynamodb.QueryInput{TableName: aws.String("tbl"),
			KeyConditionExpression:    aws.String("pk = :k"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":k": &types.AttributeValueMemberS{Value: "k"}}})
		r := read{err: err, durable: g.passed.Load()}
		if err == nil && len(out.Items) == 1 {
			r.v = out.Items[0]["v"].(*types.AttributeValueMemberS).Value
		}
		reads <- r
	}()
	// Both reads have reached the server: a reader that did not wait for
	// the write it sees would answer while the fsync is still held.
	<-calls
	<-calls
	g.open()
	must(t, <-werr)
	for range 2 {
		r := <-reads
		must(t, r.err)
		if r.v != "new" || !r.durable {
			t.Errorf("read %q (durable %v), want the new value once durable", r.v, r.durable)
		}
	}
}

// An fsync that fails: the writer gets the error a failed write gets, a
// reader of its item gets an error rather than the lost value, and the
// server reports itself unhealthy.
func TestServerFailedFsyncFailsWriterAndReader(t *testing.T) {
	g := newSyncGate()
	e, srv, c, calls := gatedServer(t, g)
	werr := heldPut(e, g, c, calls, "lost")
	rerr := make(chan error, 1)
	go func() {
		out, err := c.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("tbl"),
			Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "k"}}})
		if err == nil {
			err = fmt.Errorf("GetItem answered %v", out.Item)
		}
		rerr <- err
	}()
	<-calls
	eio := error(syscall.EIO)
	g.fail.Store(&eio)
	g.open()
	for _, err := range []error{<-werr, <-rerr} {
		var ae smithy.APIError
		if !errors.As(err, &ae) || ae.ErrorCode() != "InternalServerError" {
			t.Errorf("got %v, want InternalServerError", err)
		}
	}
	resp, err := http.Get(srv.URL + "/")
	must(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("GET / after a failed fsync: %d %q", resp.StatusCode, body)
	}
}

// Every way to write an item is answered only once the write is durable,
// PartiQL's too (which runs its writes as calls of their own).
func TestServerWritesAnswerOnceDurable(t *testing.T) {
	item := func(v string) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "k"}, "v": &types.AttributeValueMemberS{Value: v}}
	}
	writes := map[string]func(c *dynamodb.Client) error{
		"PutItem": func(c *dynamodb.Client) error {
			_, err := c.PutItem(context.Background(), putInput("k", "put"))
			return err
		},
		"BatchWriteItem": func(c *dynamodb.Client) error {
			_, err := c.BatchWriteItem(context.Background(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
				"tbl": {{PutRequest: &types.PutRequest{Item: item("batch")}}}}})
			return err
		},
		"TransactWriteItems": func(c *dynamodb.Client) error {
			_, err := c.TransactWriteItems(context.Background(), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Put: &types.Put{TableName: aws.String("tbl"), Item: item("tx")}}}})
			return err
		},
		"ExecuteStatement": func(c *dynamodb.Client) error {
			_, err := c.ExecuteStatement(context.Background(), &dynamodb.ExecuteStatementInput{
				Statement: aws.String(`UPDATE "tbl" SET v = 'partiql' WHERE pk = 'k'`)})
			return err
		},
	}
	for name, write := range writes {
		t.Run(name, func(t *testing.T) {
			g := newSyncGate()
			e, _, c, _ := gatedServer(t, g)
			_, err := c.PutItem(context.Background(), putInput("k", "old"))
			must(t, err)
			before := e.Stats()
			g.hold()
			type answer struct {
				err     error
				durable bool
			}
			done := make(chan answer, 1)
			go func() {
				err := write(c)
				done <- answer{err, g.passed.Load()}
			}()
			select {
			case <-g.entered: // its fsync
			case a := <-done:
				t.Fatalf("%s answered with no fsync (error %v)", name, a.err)
			}
			awaitWrites(g, before.Writes+1)
			g.open()
			a := <-done
			must(t, a.err)
			if !a.durable {
				t.Errorf("%s answered before its write was durable", name)
			}
		})
	}
}

// A TTL sweep's deletes go to the log in batches of 256, made durable by
// one fsync per 1,024 once the table is unlocked: writers to the table
// never wait for the sweep's fsyncs.
func TestServerTTLSweepSyncsOutsideTheLock(t *testing.T) {
	inEveryMode(t, testTTLSweepSyncsOutsideTheLock)
}

func testTTLSweepSyncsOutsideTheLock(t *testing.T, opts []local.Option) {
	g := newSyncGate()
	_, srv, c, _ := gatedServer(t, g, opts...)
	ctx := context.Background()
	_, err := c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("tbl"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(true)}})
	must(t, err)
	const items = 1100 // five of the sweep's batches, two of its chunks
	expired := strconv.FormatInt(time.Now().Add(-time.Hour).Unix(), 10)
	for i := 0; i < items; i += 25 {
		var reqs []types.WriteRequest
		for j := i; j < i+25; j++ {
			reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{
				"pk":  &types.AttributeValueMemberS{Value: fmt.Sprintf("k%04d", j)},
				"exp": &types.AttributeValueMemberN{Value: expired},
			}}})
		}
		out, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"tbl": reqs}})
		must(t, err)
		if len(out.UnprocessedItems) > 0 {
			t.Fatal("unprocessed items")
		}
	}
	before := g.syncs.Load()
	if n := srv.Local.SweepExpired(); n != items {
		t.Fatalf("swept %d items, want %d", n, items)
	}
	if got := g.syncs.Load() - before; got != 2 {
		t.Errorf("the sweep made %d fsyncs of the log, want 2", got)
	}
	out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), Select: types.SelectCount})
	must(t, err)
	if out.Count != 0 {
		t.Errorf("%d items left after the sweep", out.Count)
	}
}

// A write that also trims its table's stream and point-in-time history and
// rolls the stream to a new shard is answered after one fsync: the
// maintenance goes to the log with the write, not in fsyncs of its own
// under the table's lock.
func TestServerMaintenanceJoinsTheWritersFsync(t *testing.T) {
	inEveryMode(t, testMaintenanceJoinsFsync)
}

func testMaintenanceJoinsFsync(t *testing.T, opts []local.Option) {
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	g := newSyncGate()
	_, srv, c, _ := gatedServer(t, g, append(opts, local.WithClock(clock))...)
	ctx := context.Background()
	_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("tbl"),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage}})
	must(t, err)
	_, err = c.UpdateContinuousBackups(ctx, &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String("tbl"),
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{
			PointInTimeRecoveryEnabled: aws.Bool(true), RecoveryPeriodInDays: aws.Int32(1)}})
	must(t, err)
	for i := range 70 { // more history entries than one trim deletes
		_, err := c.PutItem(ctx, putInput(fmt.Sprintf("k%d", i), "v"))
		must(t, err)
	}
	mu.Lock()
	now = now.Add(50 * time.Hour) // past the stream's and the history's retention
	mu.Unlock()
	before := g.syncs.Load()
	_, err = c.PutItem(ctx, putInput("last", "v"))
	must(t, err)
	if got := g.syncs.Load() - before; got != 1 {
		t.Errorf("the write made %d fsyncs of the log, want 1", got)
	}

	// The stream holds the last write alone, in a shard of its own.
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("tbl")})
	must(t, err)
	sc := dynamodbstreams.New(dynamodbstreams.Options{
		HTTPClient:   &http.Client{Transport: dynamotest.Transport(&http.Transport{})},
		Region:       "us-east-1",
		Credentials:  credentials.NewStaticCredentialsProvider("dynamotest", "dynamotest", ""),
		BaseEndpoint: aws.String(srv.URL),
		Retryer:      aws.NopRetryer{},
	})
	ds, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: d.Table.LatestStreamArn})
	must(t, err)
	var keys []string
	for _, sh := range ds.StreamDescription.Shards {
		it, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: d.Table.LatestStreamArn,
			ShardId: sh.ShardId, ShardIteratorType: streamtypes.ShardIteratorTypeTrimHorizon})
		must(t, err)
		out, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it.ShardIterator})
		must(t, err)
		for _, r := range out.Records {
			keys = append(keys, r.Dynamodb.Keys["pk"].(*streamtypes.AttributeValueMemberS).Value)
		}
	}
	if len(keys) != 1 || keys[0] != "last" {
		t.Errorf("stream records of %q, want the last write's alone", keys)
	}
}
