package local_test

import (
	"encoding/binary"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/local"
	"github.com/dynamogo/dynamo/local/storage/disk"
)

// testClock is a server clock a test moves by hand.
type testClock struct{ ns atomic.Int64 }

func newTestClock() *testClock {
	c := &testClock{}
	c.ns.Store(time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC).UnixNano())
	return c
}
func (c *testClock) now() time.Time      { return time.Unix(0, c.ns.Load()) }
func (c *testClock) add(d time.Duration) { c.ns.Add(int64(d)) }
func (c *testClock) option() dynamotest.Option {
	return dynamotest.WithLocalOptions(local.WithClock(c.now))
}

// streamsClient is the real DynamoDB Streams client, pointed at the
// server's endpoint as the SDKs are with a base endpoint set.
func streamsClient(t *testing.T, srv *dynamotest.Server) *dynamodbstreams.Client {
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return dynamodbstreams.New(dynamodbstreams.Options{
		HTTPClient:   &http.Client{Transport: dynamotest.Transport(tr)}, // the SDK's closed-connection race
		Region:       "us-east-1",
		Credentials:  credentials.NewStaticCredentialsProvider("dynamotest", "dynamotest", ""),
		BaseEndpoint: aws.String(srv.URL),
		Retryer:      aws.NopRetryer{},
	})
}

// streamTable creates table name (pk S hash, sk S range) with a stream of
// view type vt and returns the stream's ARN.
func streamTable(t *testing.T, srv *dynamotest.Server, name string, vt types.StreamViewType) string {
	t.Helper()
	d := srv.CreateTable(t, &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"}, {AttributeName: aws.String("sk"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: "HASH"}, {AttributeName: aws.String("sk"), KeyType: "RANGE"}},
		BillingMode:          types.BillingModePayPerRequest,
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: vt},
	})
	if d.LatestStreamArn == nil {
		t.Fatal("no LatestStreamArn")
	}
	return *d.LatestStreamArn
}

// readStream reads every record of a stream the way a consumer does: each
// shard from TRIM_HORIZON, parents before children, until a closed shard
// ends (no NextShardIterator) or an open one has nothing more.
func readStream(t *testing.T, sc *dynamodbstreams.Client, arn string) []stypes.Record {
	t.Helper()
	d, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil {
		t.Fatalf("DescribeStream: %v", err)
	}
	var out []stypes.Record
	for _, sh := range d.StreamDescription.Shards {
		it, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: sh.ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
		if err != nil {
			t.Fatalf("GetShardIterator: %v", err)
		}
		next := it.ShardIterator
		for next != nil {
			r, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: next})
			if err != nil {
				t.Fatalf("GetRecords: %v", err)
			}
			out = append(out, r.Records...)
			if len(r.Records) == 0 && sh.SequenceNumberRange.EndingSequenceNumber == nil {
				break
			}
			next = r.NextShardIterator
		}
	}
	return out
}

func events(rs []stypes.Record) string {
	var b []string
	for _, r := range rs {
		k := r.Dynamodb.Keys["pk"].(*stypes.AttributeValueMemberS).Value
		b = append(b, string(r.EventName)+":"+k)
	}
	return strings.Join(b, " ")
}

func sattr(it map[string]stypes.AttributeValue, name string) string {
	switch v := it[name].(type) {
	case *stypes.AttributeValueMemberS:
		return v.Value
	case *stypes.AttributeValueMemberN:
		return v.Value
	case nil:
		return "<nil>"
	}
	return "?"
}

// Each view type: an insert, a modify, a put that rewrites the same values
// (no record, Streams.html), a delete, a delete of a missing item and a
// failed conditional write (no records). Records carry DynamoDB's fields.
func TestStreamRecordsPerViewType(t *testing.T) {
	clock := newTestClock()
	srv := dynamotest.NewServer(t, clock.option())
	c := srv.Client(func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} })
	sc := streamsClient(t, srv)
	for _, vt := range []types.StreamViewType{"KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES"} {
		t.Run(string(vt), func(t *testing.T) {
			name := "v_" + string(vt)
			arn := streamTable(t, srv, name, vt)
			tn := aws.String(name)
			put(t, c, name, item{"pk": S("a"), "sk": S("1"), "v": S("one")})
			put(t, c, name, item{"pk": S("a"), "sk": S("1"), "v": S("two")})
			put(t, c, name, item{"pk": S("a"), "sk": S("1"), "v": S("two")}) // no change
			if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: tn, Item: item{"pk": S("a"), "sk": S("1")},
				ConditionExpression: aws.String("attribute_not_exists(pk)")}); err == nil {
				t.Fatal("conditional put succeeded")
			}
			if _, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: tn, Key: item{"pk": S("a"), "sk": S("1")}}); err != nil {
				t.Fatal(err)
			}
			if _, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: tn, Key: item{"pk": S("zz"), "sk": S("1")}}); err != nil {
				t.Fatal(err)
			}
			rs := readStream(t, sc, arn)
			if got := events(rs); got != "INSERT:a MODIFY:a REMOVE:a" {
				t.Fatalf("events = %q", got)
			}
			prev := ""
			for i, r := range rs {
				d := r.Dynamodb
				if aws.ToString(r.EventSource) != "aws:dynamodb" || aws.ToString(r.EventVersion) != "1.1" || aws.ToString(r.AwsRegion) != "us-east-1" ||
					len(aws.ToString(r.EventID)) != 32 || r.UserIdentity != nil {
					t.Fatalf("record %d envelope: %+v", i, r)
				}
				if d.StreamViewType != stypes.StreamViewType(vt) || aws.ToInt64(d.SizeBytes) <= 0 || len(d.Keys) != 2 ||
					!d.ApproximateCreationDateTime.Equal(clock.now().Truncate(time.Second)) {
					t.Fatalf("record %d: %+v", i, d)
				}
				seq := aws.ToString(d.SequenceNumber)
				if len(seq) < 21 || seq <= prev {
					t.Fatalf("sequence number %q after %q", seq, prev)
				}
				prev = seq
			}
			newImg := vt == "NEW_IMAGE" || vt == "NEW_AND_OLD_IMAGES"
			oldImg := vt == "OLD_IMAGE" || vt == "NEW_AND_OLD_IMAGES"
			images := func(r stypes.Record) string {
				return sattr(r.Dynamodb.OldImage, "v") + ">" + sattr(r.Dynamodb.NewImage, "v")
			}
			want := [3]string{"<nil>><nil>", "<nil>><nil>", "<nil>><nil>"}
			switch {
			case newImg && oldImg:
				want = [3]string{"<nil>>one", "one>two", "two><nil>"}
			case newImg:
				want = [3]string{"<nil>>one", "<nil>>two", "<nil>><nil>"}
			case oldImg:
				want = [3]string{"<nil>><nil>", "one><nil>", "two><nil>"}
			}
			for i, r := range rs {
				if got := images(r); got != want[i] {
					t.Fatalf("%s record %d images %s, want %s", r.EventName, i, got, want[i])
				}
			}
		})
	}
}

// Every write path records its changes: UpdateItem, BatchWriteItem, each
// write of a TransactWriteItems (not its ConditionCheck), the legacy
// parameters, and time to live, whose deletes name the service.
func TestStreamRecordsEveryWritePath(t *testing.T) {
	clock := newTestClock()
	srv := dynamotest.NewServer(t, clock.option())
	c := srv.Client()
	sc := streamsClient(t, srv)
	arn := streamTable(t, srv, "paths", types.StreamViewTypeNewAndOldImages)
	tn := aws.String("paths")
	key := func(pk string) item { return item{"pk": S(pk), "sk": S("s")} }
	must := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: tn, Key: key("u"), UpdateExpression: aws.String("SET v = :v"),
		ExpressionAttributeValues: item{":v": N("1")}}))
	must(c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"paths": {
		{PutRequest: &types.PutRequest{Item: item{"pk": S("b1"), "sk": S("s")}}},
		{PutRequest: &types.PutRequest{Item: item{"pk": S("b2"), "sk": S("s")}}},
		{DeleteRequest: &types.DeleteRequest{Key: key("u")}},
	}}}))
	must(c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: tn, Item: item{"pk": S("t1"), "sk": S("s")}}},
		{Update: &types.Update{TableName: tn, Key: key("b1"), UpdateExpression: aws.String("SET v = :v"), ExpressionAttributeValues: item{":v": N("2")}}},
		{Delete: &types.Delete{TableName: tn, Key: key("b2")}},
		{ConditionCheck: &types.ConditionCheck{TableName: tn, Key: key("t1x"), ConditionExpression: aws.String("attribute_not_exists(pk)")}},
	}}))
	// A cancelled transaction writes nothing, so records nothing.
	if _, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: tn, Item: item{"pk": S("never"), "sk": S("s")}}},
		{ConditionCheck: &types.ConditionCheck{TableName: tn, Key: key("t1"), ConditionExpression: aws.String("attribute_not_exists(pk)")}},
	}}); err == nil {
		t.Fatal("transaction succeeded")
	}
	must(c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: tn, Key: key("legacy"),
		AttributeUpdates: map[string]types.AttributeValueUpdate{"v": {Action: types.AttributeActionPut, Value: N("3")}}}))
	must(c.PutItem(ctx, &dynamodb.PutItemInput{TableName: tn, Item: item{"pk": S("legacy"), "sk": S("s"), "v": N("4")},
		Expected: map[string]types.ExpectedAttributeValue{"v": {Value: N("3")}}}))
	must(c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: tn,
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(true)}}))
	past := N("1700000000")
	put(t, c, "paths", item{"pk": S("ttl"), "sk": S("s"), "exp": past})
	if n := srv.Local.SweepExpired(); n != 1 {
		t.Fatalf("swept %d items", n)
	}
	rs := readStream(t, sc, arn)
	want := "INSERT:u INSERT:b1 INSERT:b2 REMOVE:u INSERT:t1 MODIFY:b1 REMOVE:b2 INSERT:legacy MODIFY:legacy INSERT:ttl REMOVE:ttl"
	if got := events(rs); got != want {
		t.Fatalf("events\n got %s\nwant %s", got, want)
	}
	for i, r := range rs {
		ttl := i == len(rs)-1
		if id := r.UserIdentity; (id != nil) != ttl || ttl && (aws.ToString(id.Type) != "Service" || aws.ToString(id.PrincipalId) != "dynamodb.amazonaws.com") {
			t.Fatalf("record %d (%s) userIdentity %+v", i, r.EventName, id)
		}
	}
	if last := rs[len(rs)-1]; sattr(last.Dynamodb.OldImage, "exp") != "1700000000" {
		t.Fatalf("TTL delete old image %v", last.Dynamodb.OldImage)
	}
}

func wantStreamErr(t *testing.T, err error, code, msg string) {
	t.Helper()
	if msg == "" {
		wantErr(t, err, code, "")
		return
	}
	wantErrContains(t, err, code, msg)
}

// Enabling makes a new stream with a new label each time; disabling leaves
// the old one readable and DISABLED, with its shards closed; changing the
// view type of an enabled stream is refused; deleting the table leaves its
// stream readable; 24 hours later the disabled streams are gone.
func TestStreamLifecycle(t *testing.T) {
	clock := newTestClock()
	srv := dynamotest.NewServer(t, clock.option())
	c := srv.Client(func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} })
	sc := streamsClient(t, srv)
	tn := aws.String("life")
	first := streamTable(t, srv, "life", types.StreamViewTypeKeysOnly)
	hashTable(t, srv, "other") // no stream
	put(t, c, "life", item{"pk": S("a"), "sk": S("1")})

	_, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: tn,
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage}})
	wantStreamErr(t, err, "ValidationException", "Table already has an enabled stream")

	clock.add(time.Minute)
	if _, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: tn,
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(false)}}); err != nil {
		t.Fatal(err)
	}
	put(t, c, "life", item{"pk": S("b"), "sk": S("1")}) // not recorded: no stream
	d, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(first)})
	if err != nil {
		t.Fatal(err)
	}
	sd := d.StreamDescription
	if sd.StreamStatus != stypes.StreamStatusDisabled || sd.StreamViewType != stypes.StreamViewTypeKeysOnly || aws.ToString(sd.TableName) != "life" ||
		len(sd.KeySchema) != 2 || len(sd.Shards) != 1 || sd.Shards[0].SequenceNumberRange.EndingSequenceNumber == nil {
		t.Fatalf("disabled stream: %+v", sd)
	}
	if got := events(readStream(t, sc, first)); got != "INSERT:a" {
		t.Fatalf("disabled stream events %q", got)
	}
	// DescribeTable still names the disabled stream, without a specification.
	dt, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: tn})
	if err != nil || aws.ToString(dt.Table.LatestStreamArn) != first || dt.Table.StreamSpecification != nil {
		t.Fatalf("DescribeTable after disabling: %v %+v %v", dt.Table.LatestStreamArn, dt.Table.StreamSpecification, err)
	}

	clock.add(time.Minute)
	out, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: tn,
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage}})
	if err != nil {
		t.Fatal(err)
	}
	second := aws.ToString(out.TableDescription.LatestStreamArn)
	if second == first || !strings.HasPrefix(second, "arn:aws:dynamodb:us-east-1:000000000000:table/life/stream/") {
		t.Fatalf("re-enabled stream %q (first %q)", second, first)
	}
	put(t, c, "life", item{"pk": S("c"), "sk": S("1")})
	if got := events(readStream(t, sc, second)); got != "INSERT:c" {
		t.Fatalf("new stream events %q", got)
	}
	ls, err := sc.ListStreams(ctx, &dynamodbstreams.ListStreamsInput{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ls.Streams) != 2 || aws.ToString(ls.Streams[0].StreamArn) != first || aws.ToString(ls.Streams[1].StreamArn) != second ||
		aws.ToString(ls.Streams[0].TableName) != "life" || aws.ToString(ls.Streams[1].StreamLabel) != second[strings.LastIndex(second, "/")+1:] {
		t.Fatalf("ListStreams: %+v", ls.Streams)
	}
	page, err := sc.ListStreams(ctx, &dynamodbstreams.ListStreamsInput{TableName: tn, Limit: aws.Int32(1)})
	if err != nil || len(page.Streams) != 1 || aws.ToString(page.LastEvaluatedStreamArn) != first {
		t.Fatalf("ListStreams page 1: %+v %v", page, err)
	}
	page, err = sc.ListStreams(ctx, &dynamodbstreams.ListStreamsInput{TableName: tn, ExclusiveStartStreamArn: page.LastEvaluatedStreamArn})
	if err != nil || len(page.Streams) != 1 || aws.ToString(page.Streams[0].StreamArn) != second || page.LastEvaluatedStreamArn != nil {
		t.Fatalf("ListStreams page 2: %+v %v", page, err)
	}
	if none, err := sc.ListStreams(ctx, &dynamodbstreams.ListStreamsInput{TableName: aws.String("other")}); err != nil || len(none.Streams) != 0 {
		t.Fatalf("ListStreams other: %+v %v", none, err)
	}

	// Deleting the table disables its stream, which stays readable.
	clock.add(time.Hour)
	if _, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: tn}); err != nil {
		t.Fatal(err)
	}
	d, err = sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(second)})
	if err != nil || d.StreamDescription.StreamStatus != stypes.StreamStatusDisabled {
		t.Fatalf("stream of a deleted table: %+v %v", d, err)
	}
	if got := events(readStream(t, sc, second)); got != "INSERT:c" {
		t.Fatalf("stream of a deleted table: events %q", got)
	}
	// A table created again under the name starts a stream of its own.
	third := streamTable(t, srv, "life", types.StreamViewTypeKeysOnly)
	if third == second || third == first {
		t.Fatalf("third stream %q", third)
	}

	// 24 hours after it was disabled, the first stream is gone; the second
	// (disabled an hour later) is still there for that hour.
	clock.add(23 * time.Hour)
	_, err = sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(first)})
	wantStreamErr(t, err, "ResourceNotFoundException", "Requested resource not found: Stream: "+first+" not found")
	if _, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(second)}); err != nil {
		t.Fatalf("second stream before its 24 hours: %v", err)
	}
	clock.add(time.Hour)
	ls, err = sc.ListStreams(ctx, &dynamodbstreams.ListStreamsInput{})
	if err != nil || len(ls.Streams) != 1 || aws.ToString(ls.Streams[0].StreamArn) != third {
		t.Fatalf("ListStreams after 24 hours: %+v %v", ls, err)
	}
}

// Records older than 24 hours are trimmed: an iterator still pointing
// before them gets TrimmedDataAccessException, a new TRIM_HORIZON one starts
// after them. Iterators expire after 15 minutes; NextShardIterator is a
// fresh one. LATEST and the sequence-number positions start where they say.
func TestStreamIteratorsTrimmingAndExpiry(t *testing.T) {
	clock := newTestClock()
	srv := dynamotest.NewServer(t, clock.option())
	c := srv.Client()
	sc := streamsClient(t, srv)
	arn := streamTable(t, srv, "trim", types.StreamViewTypeKeysOnly)
	put(t, c, "trim", item{"pk": S("old"), "sk": S("1")})
	clock.add(time.Minute)
	d, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	shard := d.StreamDescription.Shards[0].ShardId
	iter := func(typ stypes.ShardIteratorType, seq *string) *string {
		t.Helper()
		out, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: shard, ShardIteratorType: typ, SequenceNumber: seq})
		if err != nil {
			t.Fatalf("GetShardIterator %s: %v", typ, err)
		}
		return out.ShardIterator
	}
	get := func(it *string, limit int32) *dynamodbstreams.GetRecordsOutput {
		t.Helper()
		in := &dynamodbstreams.GetRecordsInput{ShardIterator: it}
		if limit > 0 {
			in.Limit = aws.Int32(limit)
		}
		out, err := sc.GetRecords(ctx, in)
		if err != nil {
			t.Fatalf("GetRecords: %v", err)
		}
		return out
	}
	horizon := iter(stypes.ShardIteratorTypeTrimHorizon, nil)
	latest := iter(stypes.ShardIteratorTypeLatest, nil)
	put(t, c, "trim", item{"pk": S("new1"), "sk": S("1")})
	put(t, c, "trim", item{"pk": S("new2"), "sk": S("1")})
	all := get(horizon, 0)
	if got := events(all.Records); got != "INSERT:old INSERT:new1 INSERT:new2" {
		t.Fatalf("TRIM_HORIZON: %q", got)
	}
	if got := events(get(latest, 0).Records); got != "INSERT:new1 INSERT:new2" {
		t.Fatalf("LATEST: %q", got)
	}
	one := get(horizon, 1)
	if got := events(one.Records); got != "INSERT:old" || one.NextShardIterator == nil {
		t.Fatalf("Limit 1: %q", got)
	}
	if got := events(get(one.NextShardIterator, 0).Records); got != "INSERT:new1 INSERT:new2" {
		t.Fatalf("NextShardIterator: %q", got)
	}
	seq1 := all.Records[1].Dynamodb.SequenceNumber
	if got := events(get(iter(stypes.ShardIteratorTypeAtSequenceNumber, seq1), 0).Records); got != "INSERT:new1 INSERT:new2" {
		t.Fatalf("AT_SEQUENCE_NUMBER: %q", got)
	}
	if got := events(get(iter(stypes.ShardIteratorTypeAfterSequenceNumber, seq1), 0).Records); got != "INSERT:new2" {
		t.Fatalf("AFTER_SEQUENCE_NUMBER: %q", got)
	}
	// AT_TIMESTAMP: "old" was written a minute before the others.
	at, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: shard,
		ShardIteratorType: stypes.ShardIteratorTypeAtTimestamp, Timestamp: aws.Time(clock.now().Add(-time.Second))})
	if err != nil {
		t.Fatal(err)
	}
	if got := events(get(at.ShardIterator, 0).Records); got != "INSERT:new1 INSERT:new2" {
		t.Fatalf("AT_TIMESTAMP: %q", got)
	}
	// An open shard read to its end still has a next iterator, with nothing yet.
	tail := get(all.NextShardIterator, 0)
	if len(tail.Records) != 0 || tail.NextShardIterator == nil {
		t.Fatalf("end of an open shard: %+v", tail)
	}

	clock.add(15*time.Minute + time.Second)
	_, err = sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: horizon})
	wantStreamErr(t, err, "ExpiredIteratorException", "Iterator expired")

	put(t, c, "trim", item{"pk": S("new3"), "sk": S("1")})
	stale := iter(stypes.ShardIteratorTypeTrimHorizon, nil)
	clock.add(24*time.Hour + 30*time.Second - time.Minute - 15*time.Minute - time.Second) // "old" is 24h30s old

	_, err = sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: stale})
	if err == nil { // the clock moved more than 15 minutes: expired first
		t.Fatal("stale iterator worked")
	}
	if got := events(get(iter(stypes.ShardIteratorTypeTrimHorizon, nil), 0).Records); got != "INSERT:new1 INSERT:new2 INSERT:new3" {
		t.Fatalf("TRIM_HORIZON after trimming: %q", got)
	}
	_, err = sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: shard,
		ShardIteratorType: stypes.ShardIteratorTypeAtSequenceNumber, SequenceNumber: all.Records[0].Dynamodb.SequenceNumber})
	wantStreamErr(t, err, "TrimmedDataAccessException", "The operation attempted to read past the oldest stream record in a shard.")
	// An iterator taken before trimming and used (within 15 minutes) after.
	before := iter(stypes.ShardIteratorTypeTrimHorizon, nil)
	clock.add(10 * time.Minute)
	_, err = sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: before})
	wantStreamErr(t, err, "TrimmedDataAccessException", "")
}

// A shard closes and a child opens every 4 hours of server time, and every
// shardMaxRecords records; a consumer following ParentShardId reads every
// record once, in order, and a closed shard ends with no NextShardIterator.
func TestStreamShardLineage(t *testing.T) {
	defer local.SetShardMaxRecords(3)()
	clock := newTestClock()
	srv := dynamotest.NewServer(t, clock.option())
	c := srv.Client()
	sc := streamsClient(t, srv)
	arn := streamTable(t, srv, "lin", types.StreamViewTypeKeysOnly)
	var want []string
	for i := range 5 { // two shards by count: 3 + 2
		k := string(rune('a' + i))
		put(t, c, "lin", item{"pk": S(k), "sk": S("1")})
		want = append(want, "INSERT:"+k)
	}
	clock.add(4 * time.Hour) // a third shard by age
	put(t, c, "lin", item{"pk": S("z"), "sk": S("1")})
	want = append(want, "INSERT:z")
	d, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	shards := d.StreamDescription.Shards
	if len(shards) != 3 || shards[0].ParentShardId != nil || aws.ToString(shards[1].ParentShardId) != aws.ToString(shards[0].ShardId) ||
		aws.ToString(shards[2].ParentShardId) != aws.ToString(shards[1].ShardId) || shards[2].SequenceNumberRange.EndingSequenceNumber != nil {
		t.Fatalf("shards: %+v", shards)
	}
	for i, sh := range shards {
		id := aws.ToString(sh.ShardId)
		if len(id) < 28 || len(id) > 65 || !strings.HasPrefix(id, "shardId-") {
			t.Fatalf("shard %d id %q", i, id)
		}
		if i < 2 && aws.ToString(sh.SequenceNumberRange.EndingSequenceNumber) >= aws.ToString(shards[i+1].SequenceNumberRange.StartingSequenceNumber) {
			t.Fatalf("shard %d range %+v overlaps its child's", i, sh.SequenceNumberRange)
		}
	}
	if got := events(readStream(t, sc, arn)); got != strings.Join(want, " ") {
		t.Fatalf("events through the lineage\n got %s\nwant %s", got, strings.Join(want, " "))
	}
	// A closed shard read to its end: no NextShardIterator.
	it, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: shards[0].ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
	if err != nil {
		t.Fatal(err)
	}
	r, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it.ShardIterator})
	if err != nil || len(r.Records) != 3 || r.NextShardIterator != nil {
		t.Fatalf("closed shard: %d records, next %v, %v", len(r.Records), r.NextShardIterator, err)
	}
	// CHILD_SHARDS, and paging with ExclusiveStartShardId.
	kids, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn),
		ShardFilter: &stypes.ShardFilter{Type: stypes.ShardFilterTypeChildShards, ShardId: shards[0].ShardId}})
	if err != nil || len(kids.StreamDescription.Shards) != 1 || aws.ToString(kids.StreamDescription.Shards[0].ShardId) != aws.ToString(shards[1].ShardId) {
		t.Fatalf("CHILD_SHARDS: %+v %v", kids, err)
	}
	p1, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn), Limit: aws.Int32(2)})
	if err != nil || len(p1.StreamDescription.Shards) != 2 || aws.ToString(p1.StreamDescription.LastEvaluatedShardId) != aws.ToString(shards[1].ShardId) {
		t.Fatalf("page 1: %+v %v", p1, err)
	}
	p2, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn), ExclusiveStartShardId: p1.StreamDescription.LastEvaluatedShardId})
	if err != nil || len(p2.StreamDescription.Shards) != 1 || p2.StreamDescription.LastEvaluatedShardId != nil {
		t.Fatalf("page 2: %+v %v", p2, err)
	}
}

// Garbage and out-of-range input gets DynamoDB's errors.
func TestStreamBadInput(t *testing.T) {
	srv := dynamotest.NewServer(t)
	sc := streamsClient(t, srv)
	arn := streamTable(t, srv, "bad", types.StreamViewTypeKeysOnly)
	d, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	shard := d.StreamDescription.Shards[0].ShardId
	unknown := "arn:aws:dynamodb:us-east-1:000000000000:table/bad/stream/2000-01-01T00:00:00.000"

	_, err = sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String("garbage")})
	wantStreamErr(t, err, "ValidationException", "Value 'garbage' at 'streamArn' failed to satisfy constraint: Member must have length greater than or equal to 37")
	_, err = sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(strings.Repeat("x", 40))})
	wantStreamErr(t, err, "ValidationException", "Invalid StreamArn")
	_, err = sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(unknown)})
	wantStreamErr(t, err, "ResourceNotFoundException", "Requested resource not found: Stream: "+unknown+" not found")
	_, err = sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn), Limit: aws.Int32(101)})
	wantStreamErr(t, err, "ValidationException", "Member must have value less than or equal to 100")
	_, err = sc.ListStreams(ctx, &dynamodbstreams.ListStreamsInput{Limit: aws.Int32(0)})
	wantStreamErr(t, err, "ValidationException", "Member must have value greater than or equal to 1")

	_, err = sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: aws.String("shardId-00000000000000000000-deadbeef"), ShardIteratorType: stypes.ShardIteratorTypeLatest})
	wantStreamErr(t, err, "ResourceNotFoundException", "Shard does not exist")
	_, err = sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: shard, ShardIteratorType: stypes.ShardIteratorTypeAtSequenceNumber})
	wantStreamErr(t, err, "ValidationException", "SequenceNumber")
	_, err = sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: shard, ShardIteratorType: "SOMEWHERE"})
	wantStreamErr(t, err, "ValidationException", "at 'shardIteratorType' failed to satisfy constraint")
	_, err = sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: shard,
		ShardIteratorType: stypes.ShardIteratorTypeAfterSequenceNumber, SequenceNumber: aws.String("999999999999999999999999")})
	wantStreamErr(t, err, "ValidationException", "Invalid SequenceNumber")

	for _, garbage := range []string{"x", "arn:aws:dynamodb:us-east-1:0:table/bad/stream/x|1|!!!", strings.Repeat("a", 100)} {
		_, err = sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: aws.String(garbage)})
		wantStreamErr(t, err, "ValidationException", "Invalid ShardIterator")
	}
	it, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: shard, ShardIteratorType: stypes.ShardIteratorTypeLatest})
	if err != nil {
		t.Fatal(err)
	}
	_, err = sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it.ShardIterator, Limit: aws.Int32(1001)})
	wantStreamErr(t, err, "ValidationException", "Member must have value less than or equal to 1000")
	// The Streams actions are not DynamoDB actions, nor the reverse.
	_, err = srv.Client(func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} }).ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatal(err)
	}
}

// durableServer returns serve, which opens a disk engine in one directory
// and serves it at clock's time: each call after the first is a restart.
func durableServer(t *testing.T, clock *testClock) (serve func() (*dynamotest.Server, *disk.Engine)) {
	dir := t.TempDir()
	quiet := disk.WithLogger(slog.New(slog.DiscardHandler))
	return func() (*dynamotest.Server, *disk.Engine) {
		e, err := disk.Open(dir, quiet)
		if err != nil {
			t.Fatal(err)
		}
		return dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithEngine(e), local.WithClock(clock.now))), e
	}
}

// On a disk engine, streams come back after a restart with their records,
// shards, labels and states, an iterator taken before the restart goes on
// where it was, and new records follow the old ones.
func TestStreamDurableRestart(t *testing.T) {
	clock := newTestClock()
	serve := durableServer(t, clock)
	srv, eng := serve()
	c := srv.Client()
	sc := streamsClient(t, srv)
	old := streamTable(t, srv, "dur", types.StreamViewTypeNewAndOldImages)
	put(t, c, "dur", item{"pk": S("a"), "sk": S("1"), "v": N("1")})
	if _, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("dur"),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(false)}}); err != nil {
		t.Fatal(err)
	}
	clock.add(time.Second)
	out, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("dur"),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages}})
	if err != nil {
		t.Fatal(err)
	}
	arn := aws.ToString(out.TableDescription.LatestStreamArn)
	put(t, c, "dur", item{"pk": S("a"), "sk": S("1"), "v": N("2")})
	d, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	it, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: d.StreamDescription.Shards[0].ShardId, ShardIteratorType: stypes.ShardIteratorTypeLatest})
	if err != nil {
		t.Fatal(err)
	}
	before := readStream(t, sc, arn)
	srv.Close()
	if err := eng.Close(); err != nil {
		t.Fatal(err)
	}

	srv, eng = serve()
	defer eng.Close()
	c = srv.Client()
	sc = streamsClient(t, srv)
	put(t, c, "dur", item{"pk": S("b"), "sk": S("1")})
	r, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it.ShardIterator})
	if err != nil || events(r.Records) != "INSERT:b" {
		t.Fatalf("iterator from before the restart: %v %v", r, err)
	}
	after := readStream(t, sc, arn)
	if got := events(after); got != "MODIFY:a INSERT:b" {
		t.Fatalf("events after restart %q", got)
	}
	if aws.ToString(after[0].Dynamodb.SequenceNumber) != aws.ToString(before[0].Dynamodb.SequenceNumber) ||
		aws.ToString(after[1].Dynamodb.SequenceNumber) <= aws.ToString(after[0].Dynamodb.SequenceNumber) ||
		sattr(after[0].Dynamodb.OldImage, "v") != "1" || sattr(after[0].Dynamodb.NewImage, "v") != "2" {
		t.Fatalf("records after restart: %+v", after)
	}
	if _, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("dur"),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(false)}}); err != nil {
		t.Fatal(err)
	}
	srv.Close()
	eng.Close()
	srv, eng = serve()
	defer eng.Close()
	c = srv.Client()
	sc = streamsClient(t, srv)
	if dt, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("dur")}); err != nil ||
		aws.ToString(dt.Table.LatestStreamArn) != arn || dt.Table.StreamSpecification != nil {
		t.Fatalf("disabled stream after a second restart: %v %v", dt.Table.LatestStreamArn, err)
	}
	ds, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(old)})
	if err != nil || ds.StreamDescription.StreamStatus != stypes.StreamStatusDisabled {
		t.Fatalf("disabled stream after restart: %+v %v", ds, err)
	}
	if got := events(readStream(t, sc, old)); got != "INSERT:a" {
		t.Fatalf("disabled stream events after restart %q", got)
	}
	desc, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("dur")})
	if err != nil || aws.ToString(desc.Table.LatestStreamArn) != arn {
		t.Fatalf("table's stream after restart: %v %v", desc.Table.LatestStreamArn, err)
	}
}

// A PutItem on a table with a stream is one log record on the disk engine,
// item and stream record together: a crash that cuts it anywhere recovers
// neither, the whole record recovers both.
func TestStreamCrashKeepsItemAndRecordTogether(t *testing.T) {
	dir := t.TempDir()
	quiet := disk.WithLogger(slog.New(slog.DiscardHandler))
	eng, err := disk.Open(dir, quiet)
	if err != nil {
		t.Fatal(err)
	}
	srv := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithEngine(eng)))
	arn := streamTable(t, srv, "crash", types.StreamViewTypeNewImage)
	walPath, start := lastLog(t, dir, eng)
	put(t, srv.Client(), "crash", item{"pk": S("a"), "sk": S("1")})
	srv.Close()
	if err := eng.Close(); err != nil {
		t.Fatal(err)
	}
	log := crashMust(os.ReadFile(walPath))
	end := int64(len(log))
	if n := int64(binary.LittleEndian.Uint32(log[start:])); start+8+n != end {
		t.Fatalf("the put's record at %d is %d bytes, but the log goes on to %d: more than one record", start, n, end)
	}
	for _, cut := range []int64{start + 1, start + 9, (start + end) / 2, end - 1, end} {
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
		got, err := s.Client().GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("crash"), Key: item{"pk": S("a"), "sk": S("1")}})
		if err != nil {
			t.Fatal(err)
		}
		recs := events(readStream(t, streamsClient(t, s), arn))
		s.Close()
		e.Close()
		if whole := cut == end; (got.Item != nil) != whole || (recs == "INSERT:a") != whole || !whole && recs != "" {
			t.Fatalf("log cut at %d of [%d, %d): item %v, records %q", cut, start, end, got.Item, recs)
		}
	}
}

// A stream keeps at most streamMaxRecords records: beyond it the oldest are
// trimmed before their 24 hours, as if they had expired.
func TestStreamRecordCap(t *testing.T) {
	defer local.SetStreamMaxRecords(3)()
	defer local.SetShardMaxRecords(10)()
	srv := dynamotest.NewServer(t)
	c := srv.Client()
	sc := streamsClient(t, srv)
	arn := streamTable(t, srv, "cap", types.StreamViewTypeKeysOnly)
	d, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	horizon, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: d.StreamDescription.Shards[0].ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"a", "b", "c", "d", "e"} {
		put(t, c, "cap", item{"pk": S(k), "sk": S("1")})
	}
	if got := events(readStream(t, sc, arn)); got != "INSERT:c INSERT:d INSERT:e" {
		t.Fatalf("events under a cap of 3: %q", got)
	}
	_, err = sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: horizon.ShardIterator})
	wantStreamErr(t, err, "TrimmedDataAccessException", "")
	// The trimmed records leave the engine too, in batches.
	for i := range 300 {
		put(t, c, "cap", item{"pk": S("k"), "sk": S("1"), "n": N(strconv.Itoa(i))})
	}
	// Records, and the shards they emptied: 3 + up to 63 waiting for a
	// batch, in at most 8 shards, and the watermark.
	if n := local.StoredStreamRecords(srv.Local, arn); n > 3+63+8+1 {
		t.Fatalf("%d records and shards stored under a cap of 3", n)
	}
	d, err = sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil || len(d.StreamDescription.Shards) > 8 {
		t.Fatalf("%d shards listed, %v", len(d.StreamDescription.Shards), err)
	}
	if got := events(readStream(t, sc, arn)); got != "MODIFY:k MODIFY:k MODIFY:k" {
		t.Fatalf("events at the end: %q", got)
	}
}

// Trimmed records stay trimmed across a restart: asking for one of them is
// TrimmedDataAccessException, not a read of whatever follows.
func TestStreamTrimSurvivesRestart(t *testing.T) {
	clock := newTestClock()
	serve := durableServer(t, clock)
	srv, eng := serve()
	c := srv.Client()
	arn := streamTable(t, srv, "trimdur", types.StreamViewTypeKeysOnly)
	for i := range 70 { // more than a trim batch
		put(t, c, "trimdur", item{"pk": S("k"), "sk": S("1"), "n": N(strconv.Itoa(i))})
	}
	first := readStream(t, streamsClient(t, srv), arn)[0].Dynamodb.SequenceNumber
	clock.add(25 * time.Hour)
	put(t, c, "trimdur", item{"pk": S("new"), "sk": S("1")}) // trims the 70
	srv.Close()
	eng.Close()

	srv, eng = serve()
	defer eng.Close()
	sc := streamsClient(t, srv)
	d, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: d.StreamDescription.Shards[0].ShardId,
		ShardIteratorType: stypes.ShardIteratorTypeAtSequenceNumber, SequenceNumber: first})
	wantStreamErr(t, err, "TrimmedDataAccessException", "")
	if got := events(readStream(t, sc, arn)); got != "INSERT:new" {
		t.Fatalf("events after restart: %q", got)
	}
}

// Concurrent writers: the records of each item are in the order of its
// writes (an ADD counter's new images count up, one by one, in sequence
// order), and no write is recorded twice or lost.
func TestStreamOrderUnderConcurrentWrites(t *testing.T) {
	srv := dynamotest.NewServer(t)
	c := srv.Client()
	sc := streamsClient(t, srv)
	arn := streamTable(t, srv, "conc", types.StreamViewTypeNewImage)
	const writers, each = 4, 25
	errs := make(chan error, writers)
	for w := range writers {
		go func() {
			var err error
			for i := 0; i < each && err == nil; i++ {
				_, err = c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("conc"),
					Key:              item{"pk": S("p" + strconv.Itoa(i%2)), "sk": S("1")},
					UpdateExpression: aws.String("ADD n :one SET w = :w"), ExpressionAttributeValues: item{":one": N("1"), ":w": N(strconv.Itoa(w))}})
			}
			errs <- err
		}()
	}
	for range writers {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	next := map[string]int{}
	rs := readStream(t, sc, arn)
	for _, r := range rs {
		pk := sattr(r.Dynamodb.Keys, "pk")
		next[pk]++
		if got := sattr(r.Dynamodb.NewImage, "n"); got != strconv.Itoa(next[pk]) {
			t.Fatalf("%s: record %d has n = %s", pk, next[pk], got)
		}
	}
	if len(rs) != writers*each {
		t.Fatalf("%d records for %d writes", len(rs), writers*each)
	}
}

// A record with both images keeps its old image in an entry of its own
// (stream.go): GetRecords returns each record whole whatever its Limit
// cuts, a restart reads them back, and trimming deletes both entries.
func TestStreamBothImagesStoredApart(t *testing.T) {
	clock := newTestClock()
	serve := durableServer(t, clock)
	srv, eng := serve()
	c := srv.Client()
	arn := streamTable(t, srv, "both", types.StreamViewTypeNewAndOldImages)
	const writes = 70 // more than a trim batch
	for i := range writes {
		put(t, c, "both", item{"pk": S("k"), "sk": S("1"), "n": N(strconv.Itoa(i))})
	}
	check := func(sc *dynamodbstreams.Client, limit int32) {
		t.Helper()
		d, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
		if err != nil {
			t.Fatal(err)
		}
		it, err := sc.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn),
			ShardId: d.StreamDescription.Shards[0].ShardId, ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon})
		if err != nil {
			t.Fatal(err)
		}
		next, got := it.ShardIterator, 0
		for got < writes {
			out, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: next, Limit: aws.Int32(limit)})
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Records) == 0 || len(out.Records) > int(limit) {
				t.Fatalf("limit %d: %d records", limit, len(out.Records))
			}
			for _, r := range out.Records {
				newN := sattr(r.Dynamodb.NewImage, "n")
				if newN != strconv.Itoa(got) {
					t.Fatalf("limit %d: record %d has new n %q", limit, got, newN)
				}
				if oldN := sattr(r.Dynamodb.OldImage, "n"); got > 0 && oldN != strconv.Itoa(got-1) || got == 0 && r.Dynamodb.OldImage != nil {
					t.Fatalf("limit %d: record %d has old n %q", limit, got, oldN)
				}
				if got > 0 && r.EventName != stypes.OperationTypeModify {
					t.Fatalf("record %d is %s", got, r.EventName)
				}
				got++
			}
			next = out.NextShardIterator
		}
	}
	check(streamsClient(t, srv), 1)
	check(streamsClient(t, srv), 3)
	srv.Close()
	eng.Close()

	srv, eng = serve()
	defer eng.Close()
	check(streamsClient(t, srv), 7)
	clock.add(25 * time.Hour)
	put(t, srv.Client(), "both", item{"pk": S("k"), "sk": S("1"), "n": N("70")}) // trims the 70, old images too
	d, err := streamsClient(t, srv).DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	if n, want := local.StoredStreamRecords(srv.Local, arn), 3+len(d.StreamDescription.Shards); n != want {
		t.Fatalf("%d entries left after trimming, want %d: the new record, its old image, the watermark and the shards", n, want)
	}
	if got := events(readStream(t, streamsClient(t, srv), arn)); got != "MODIFY:k" {
		t.Fatalf("after trimming: %q", got)
	}
}

// Records beyond one block of the server's bookkeeping (hundreds), of a
// table with binary and number keys: KEYS_ONLY records give back each key
// as written, AT_TIMESTAMP and LATEST find their place among them, and
// trimming by age drops exactly the expired ones, from the engine too.
func TestStreamManyKeysOnlyRecords(t *testing.T) {
	clock := newTestClock()
	srv := dynamotest.NewServer(t, clock.option())
	c := srv.Client()
	sc := streamsClient(t, srv)
	d := srv.CreateTable(t, &dynamodb.CreateTableInput{
		TableName:            aws.String("many"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: "B"}, {AttributeName: aws.String("n"), AttributeType: "N"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: "HASH"}, {AttributeName: aws.String("n"), KeyType: "RANGE"}},
		BillingMode:          types.BillingModePayPerRequest,
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly},
	})
	arn := *d.LatestStreamArn
	const half = 700
	write := func(from int) {
		for i := from; i < from+half; i += 25 {
			var reqs []types.WriteRequest
			for j := i; j < min(i+25, from+half); j++ {
				reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: item{"id": B(byte(j>>8), byte(j)), "n": N(strconv.Itoa(j)), "v": S("payload")}}})
			}
			out, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"many": reqs}})
			if err != nil || len(out.UnprocessedItems) != 0 {
				t.Fatalf("BatchWriteItem: %v, %d unprocessed", err, len(out.UnprocessedItems))
			}
		}
	}
	// check reads every record and wants those of items from, from+1, ….
	check := func(rs []stypes.Record, from, count int) {
		t.Helper()
		if len(rs) != count {
			t.Fatalf("%d records, want %d", len(rs), count)
		}
		for k, r := range rs {
			j := from + k
			id, _ := r.Dynamodb.Keys["id"].(*stypes.AttributeValueMemberB)
			if id == nil || string(id.Value) != string([]byte{byte(j >> 8), byte(j)}) || sattr(r.Dynamodb.Keys, "n") != strconv.Itoa(j) ||
				len(r.Dynamodb.Keys) != 2 || r.Dynamodb.NewImage != nil || r.EventName != stypes.OperationTypeInsert {
				t.Fatalf("record %d: %+v", k, r.Dynamodb)
			}
		}
	}
	write(0)
	clock.add(time.Hour)
	write(half)
	check(readStream(t, sc, arn), 0, 2*half)

	shard := func() *string {
		d, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
		if err != nil {
			t.Fatal(err)
		}
		return d.StreamDescription.Shards[len(d.StreamDescription.Shards)-1].ShardId
	}
	first := func(in *dynamodbstreams.GetShardIteratorInput) []stypes.Record {
		t.Helper()
		in.StreamArn, in.ShardId = aws.String(arn), shard()
		it, err := sc.GetShardIterator(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		out, err := sc.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it.ShardIterator, Limit: aws.Int32(1)})
		if err != nil {
			t.Fatal(err)
		}
		return out.Records
	}
	check(first(&dynamodbstreams.GetShardIteratorInput{ShardIteratorType: stypes.ShardIteratorTypeAtTimestamp, Timestamp: aws.Time(clock.now().Add(-time.Second))}), half, 1)
	check(first(&dynamodbstreams.GetShardIteratorInput{ShardIteratorType: stypes.ShardIteratorTypeLatest}), 0, 0)

	clock.add(23*time.Hour + time.Minute) // the first half is 24h1m old
	check(first(&dynamodbstreams.GetShardIteratorInput{ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon}), half, 1)
	put(t, c, "many", item{"id": B(0xff, 0xff), "n": N("0")}) // trims the first half
	rs := readStream(t, sc, arn)
	if len(rs) != half+1 {
		t.Fatalf("%d records after trimming, want %d", len(rs), half+1)
	}
	check(rs[:half], half, half)
	d2, err := sc.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(arn)})
	if err != nil {
		t.Fatal(err)
	}
	// The records left, the new one, the watermark and the shards.
	if n, want := local.StoredStreamRecords(srv.Local, arn), half+1+1+len(d2.StreamDescription.Shards); n != want {
		t.Fatalf("%d entries stored after trimming, want %d", n, want)
	}
}
