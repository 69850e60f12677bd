package local_test

import (
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
func streamsClient(srv *dynamotest.Server) *dynamodbstreams.Client {
	return dynamodbstreams.New(dynamodbstreams.Options{
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
	sc := streamsClient(srv)
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
	sc := streamsClient(srv)
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
