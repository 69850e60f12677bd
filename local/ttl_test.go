package local_test

import (
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

func updateTTL(c *dynamodb.Client, table, attr string, on bool) error {
	_, err := c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(table),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String(attr), Enabled: aws.Bool(on)}})
	return err
}

func TestTimeToLiveSpecification(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "sess")
	d, err := c.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String("sess")})
	if err != nil || d.TimeToLiveDescription.TimeToLiveStatus != types.TimeToLiveStatusDisabled || d.TimeToLiveDescription.AttributeName != nil {
		t.Fatalf("new table: %+v %v", d, err)
	}
	wantErr(t, updateTTL(c, "sess", "exp", false), "ValidationException", "TimeToLive is already disabled")
	out, err := c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("sess"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(true)}})
	if err != nil || aws.ToString(out.TimeToLiveSpecification.AttributeName) != "exp" || !aws.ToBool(out.TimeToLiveSpecification.Enabled) {
		t.Fatalf("enable: %+v %v", out, err)
	}
	d, _ = c.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String("sess")})
	if d.TimeToLiveDescription.TimeToLiveStatus != types.TimeToLiveStatusEnabled || aws.ToString(d.TimeToLiveDescription.AttributeName) != "exp" {
		t.Fatalf("enabled: %+v", d.TimeToLiveDescription)
	}
	wantErr(t, updateTTL(c, "sess", "exp", true), "ValidationException", "TimeToLive is already enabled")
	wantErr(t, updateTTL(c, "sess", "other", true), "ValidationException", "TimeToLive is already enabled")
	wantErr(t, updateTTL(c, "sess", "other", false), "ValidationException", "TimeToLive is active on a different AttributeName: current AttributeName is exp")
	wantErr(t, updateTTL(c, "nope", "exp", true), "ResourceNotFoundException", "Requested resource not found: Table: nope not found")
	_, err = c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("sess"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String(""), Enabled: aws.Bool(false)}})
	wantErr(t, err, "ValidationException", "1 validation error detected: Value '' at 'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must have length greater than or equal to 1")
	if err := updateTTL(c, "sess", "exp", false); err != nil {
		t.Fatal(err)
	}
	d, _ = c.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String("sess")})
	if d.TimeToLiveDescription.TimeToLiveStatus != types.TimeToLiveStatusDisabled {
		t.Fatalf("disabled: %+v", d.TimeToLiveDescription)
	}
}

// The sweeper deletes exactly the items whose TTL attribute is a number of
// epoch seconds in the past (and not more than five years past), through
// the write path, so the GSI follows.
func TestTimeToLiveSweeperDeletesExpiredItems(t *testing.T) {
	base := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	var now atomic.Int64
	now.Store(base.UnixNano())
	var sweeps sweepWatch
	srv := dynamotest.NewServer(t, dynamotest.WithLocalOptions(
		local.WithClock(func() time.Time { return time.Unix(0, now.Load()) }),
		local.WithTTLSweep(time.Millisecond), sweeps.option()))
	c := srv.Client()
	srv.CreateTable(t, &dynamodb.CreateTableInput{
		TableName: aws.String("sess"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"},
			{AttributeName: aws.String("user"), AttributeType: "S"}},
		KeySchema:   []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: "HASH"}},
		BillingMode: types.BillingModePayPerRequest,
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byUser"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("user"), KeyType: "HASH"}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}},
	})
	epoch := func(d time.Duration) string { return strconv.FormatInt(base.Add(d).Unix(), 10) }
	items := map[string]types.AttributeValue{
		"soon":     N(epoch(30 * time.Second)),
		"later":    N(epoch(time.Hour)),
		"past":     N(epoch(-time.Minute)),
		"fraction": N(epoch(-time.Minute) + ".5"),
		"ancient":  N(epoch(-6 * 365 * 24 * time.Hour)), // more than five years old: ignored
		"future":   N("99999999999999"),
		"string":   S(epoch(-time.Minute)),
		"none":     nil,
	}
	for pk, exp := range items {
		it := item{"pk": S(pk), "user": S("u")}
		if exp != nil {
			it["exp"] = exp
		}
		put(t, c, "sess", it)
	}
	remaining := func() map[string]bool {
		out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("sess")})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, it := range out.Items {
			got[sval(it["pk"])] = true
		}
		return got
	}
	waitFor := func() map[string]bool {
		sweeps.waitNext()
		return remaining()
	}
	// TTL not enabled yet: nothing goes.
	srv.Local.SweepExpired()
	if got := remaining(); len(got) != len(items) {
		t.Fatalf("deleted before TTL was enabled: %v", got)
	}
	if err := updateTTL(c, "sess", "exp", true); err != nil {
		t.Fatal(err)
	}
	got := waitFor()
	if got["past"] || got["fraction"] || !got["soon"] || !got["ancient"] || !got["future"] || !got["string"] || !got["none"] || !got["later"] {
		t.Fatalf("after the first sweep: %v", got)
	}
	now.Add(int64(time.Minute))
	got = waitFor()
	if got["soon"] || !got["later"] {
		t.Fatalf("after a minute: %v", got)
	}
	q, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("sess"), IndexName: aws.String("byUser"),
		KeyConditionExpression: aws.String("#u = :u"), ExpressionAttributeNames: map[string]string{"#u": "user"},
		ExpressionAttributeValues: item{":u": S("u")}, Select: types.SelectCount})
	if err != nil || q.Count != int32(len(got)) {
		t.Fatalf("GSI has %d entries, table %d (%v)", q.Count, len(got), err)
	}
	d, _ := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("sess")})
	if aws.ToInt64(d.Table.ItemCount) != int64(len(got)) {
		t.Fatalf("ItemCount %d, want %d", aws.ToInt64(d.Table.ItemCount), len(got))
	}
	// Disabled again: expired items stay.
	if err := updateTTL(c, "sess", "exp", false); err != nil {
		t.Fatal(err)
	}
	now.Add(int64(2 * time.Hour))
	if n := srv.Local.SweepExpired(); n != 0 {
		t.Fatalf("swept %d items with TTL disabled", n)
	}
}

// sweepWatch lets a test wait for the server's periodic TTL sweeper.
type sweepWatch struct {
	mu   sync.Mutex
	done chan struct{} // closed when the running sweep finishes
}

// option installs the watch on a server.
func (w *sweepWatch) option() local.Option {
	w.done = make(chan struct{})
	return local.WithSweepHook(func(int) {
		w.mu.Lock()
		defer w.mu.Unlock()
		close(w.done)
		w.done = make(chan struct{})
	})
}

// waitNext returns once a sweep that began after the call has finished:
// the first sweep to finish may have begun before, the second cannot.
func (w *sweepWatch) waitNext() {
	for range 2 {
		w.mu.Lock()
		done := w.done
		w.mu.Unlock()
		<-done
	}
}
