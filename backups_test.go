package dynamo_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/codec/ddbjson"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/local"
)

// tableItems is every item of the table in DynamoDB JSON, sorted: two
// tables with equal results hold the same items.
func tableItems(t *testing.T, srv *dynamotest.Server, table string) []string {
	t.Helper()
	var items []string
	p := dynamodb.NewScanPaginator(srv.Client(), &dynamodb.ScanInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true)})
	for p.HasMorePages() {
		out, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			b, err := ddbjson.MarshalItem(it)
			if err != nil {
				t.Fatal(err)
			}
			items = append(items, string(b))
		}
	}
	slices.Sort(items)
	return items
}

// testClock is the server's clock, moved by the test.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Add(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	return c.now
}

func TestBackups(t *testing.T) {
	clock := &testClock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	srv := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithClock(clock.Now)))
	srv.CreateTables(t, Orders)
	repo := srv.Repo(t)
	ctx := context.Background()
	orders := dynamo.Bind(repo, Orders)
	for i := range 5 {
		if err := orders.Put(ctx, order("u1", i)); err != nil {
			t.Fatal(err)
		}
	}
	before := tableItems(t, srv, "app")

	b, err := repo.CreateBackup(ctx, "app", "nightly")
	if err != nil {
		t.Fatal(err)
	}
	if b.BackupStatus != types.BackupStatusAvailable || aws.ToString(b.BackupName) != "nightly" || aws.ToString(b.BackupArn) == "" {
		t.Fatalf("CreateBackup: %s %q %q", b.BackupStatus, aws.ToString(b.BackupName), aws.ToString(b.BackupArn))
	}
	arn := aws.ToString(b.BackupArn)
	// Writes after the backup are not in it.
	if err := orders.Put(ctx, order("u2", 9)); err != nil {
		t.Fatal(err)
	}
	if err := orders.Delete(ctx, order("u1", 0)); err != nil {
		t.Fatal(err)
	}

	d, err := repo.DescribeBackup(ctx, arn)
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(d.SourceTableDetails.TableName) != "app" || aws.ToInt64(d.SourceTableDetails.ItemCount) != 5 {
		t.Errorf("DescribeBackup: source %+v", d.SourceTableDetails)
	}

	// Restored with its index and billing as they were, and item for item
	// the table at the backup.
	r, err := repo.RestoreTableFromBackup(ctx, arn, "app-copy")
	if err != nil {
		t.Fatal(err)
	}
	if r.RestoreSummary == nil || aws.ToString(r.RestoreSummary.SourceBackupArn) != arn {
		t.Errorf("restore summary %+v", r.RestoreSummary)
	}
	if r, err = repo.WaitForTable(ctx, "app-copy"); err != nil {
		t.Fatal(err)
	}
	if len(r.GlobalSecondaryIndexes) != 1 {
		t.Errorf("restored table has %d GSIs, want the source's 1", len(r.GlobalSecondaryIndexes))
	}
	if got := tableItems(t, srv, "app-copy"); !slices.Equal(got, before) {
		t.Errorf("restored items\n%q\nwant\n%q", got, before)
	}

	// Overrides: no indexes, provisioned capacity.
	r, err = repo.RestoreTableFromBackup(ctx, arn, "app-bare",
		dynamo.RestoreIndexes(nil, nil),
		dynamo.RestoreBilling(types.BillingModeProvisioned, &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(3), WriteCapacityUnits: aws.Int64(4)}))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.GlobalSecondaryIndexes) != 0 || aws.ToInt64(r.ProvisionedThroughput.ReadCapacityUnits) != 3 ||
		r.BillingModeSummary != nil && r.BillingModeSummary.BillingMode != types.BillingModeProvisioned {
		t.Errorf("overridden restore: %d GSIs, throughput %+v, billing %+v", len(r.GlobalSecondaryIndexes), r.ProvisionedThroughput, r.BillingModeSummary)
	}

	// Restoring onto an existing table is DynamoDB's TableAlreadyExists.
	_, err = repo.RestoreTableFromBackup(ctx, arn, "app")
	if !errors.Is(err, dynamo.ErrResourceInUse) {
		t.Errorf("restore onto app: %v, want resource_in_use", err)
	}

	// ListBackups: by table, by time, following pages.
	clock.Add(time.Minute)
	second, err := repo.CreateBackup(ctx, "app-copy", "copy")
	if err != nil {
		t.Fatal(err)
	}
	list := func(f dynamo.BackupFilter) []string {
		t.Helper()
		var names []string
		for s, err := range repo.ListBackups(ctx, f) {
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, aws.ToString(s.BackupName))
		}
		slices.Sort(names)
		return names
	}
	if got := list(dynamo.BackupFilter{}); !slices.Equal(got, []string{"copy", "nightly"}) {
		t.Errorf("all backups: %q", got)
	}
	if got := list(dynamo.BackupFilter{Table: "app-copy"}); !slices.Equal(got, []string{"copy"}) {
		t.Errorf("app-copy's backups: %q", got)
	}
	if got := list(dynamo.BackupFilter{After: aws.ToTime(second.BackupCreationDateTime)}); !slices.Equal(got, []string{"copy"}) {
		t.Errorf("backups from the second's creation: %q", got)
	}
	if got := list(dynamo.BackupFilter{Before: aws.ToTime(second.BackupCreationDateTime)}); !slices.Equal(got, []string{"nightly"}) {
		t.Errorf("backups before the second's creation: %q", got)
	}
	if got := list(dynamo.BackupFilter{Type: types.BackupTypeFilterSystem}); len(got) != 0 {
		t.Errorf("system backups: %q", got)
	}
	for i := range 101 {
		if _, err := repo.CreateBackup(ctx, "app-bare", "many"); err != nil {
			t.Fatalf("backup %d: %v", i, err)
		}
	}
	if got := list(dynamo.BackupFilter{Table: "app-bare"}); len(got) != 101 {
		t.Errorf("listed %d backups of app-bare, want 101 over two pages", len(got))
	}

	// Deleted, the backup is gone: DynamoDB's BackupNotFoundException.
	if err := repo.DeleteBackup(ctx, arn); err != nil {
		t.Fatal(err)
	}
	_, err = repo.DescribeBackup(ctx, arn)
	var de *dynamo.Error
	if !errors.As(err, &de) || de.Type != dynamo.ErrResourceNotFound || de.AWSCode != "BackupNotFoundException" || de.Op != "DescribeBackup" {
		t.Errorf("DescribeBackup of a deleted backup: %v", err)
	}
	if err := repo.DeleteBackup(ctx, arn); !errors.Is(err, dynamo.ErrResourceNotFound) {
		t.Errorf("second DeleteBackup: %v", err)
	}
}

func TestPointInTimeRecovery(t *testing.T) {
	clock := &testClock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	srv := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithClock(clock.Now)))
	srv.CreateTables(t, Orders)
	repo := srv.Repo(t)
	ctx := context.Background()
	orders := dynamo.Bind(repo, Orders)

	d, err := repo.DescribeContinuousBackups(ctx, "app")
	if err != nil {
		t.Fatal(err)
	}
	if d.PointInTimeRecoveryDescription.PointInTimeRecoveryStatus != types.PointInTimeRecoveryStatusDisabled {
		t.Fatalf("PITR of a new table: %s", d.PointInTimeRecoveryDescription.PointInTimeRecoveryStatus)
	}
	_, err = repo.RestoreTableToPointInTime(ctx, "app", "app-then", time.Time{})
	var de *dynamo.Error
	if !errors.As(err, &de) || de.AWSCode != "PointInTimeRecoveryUnavailableException" || de.Type != dynamo.ErrValidation {
		t.Fatalf("restore without PITR: %v", err)
	}

	enabledAt := clock.Now()
	if d, err = repo.SetPointInTimeRecovery(ctx, "app", true); err != nil {
		t.Fatal(err)
	}
	if p := d.PointInTimeRecoveryDescription; p.PointInTimeRecoveryStatus != types.PointInTimeRecoveryStatusEnabled ||
		!aws.ToTime(p.EarliestRestorableDateTime).Equal(enabledAt) {
		t.Fatalf("after enabling: %s from %v", p.PointInTimeRecoveryStatus, aws.ToTime(p.EarliestRestorableDateTime))
	}

	clock.Add(time.Second)
	for i := range 3 {
		if err := orders.Put(ctx, order("u1", i)); err != nil {
			t.Fatal(err)
		}
	}
	then := clock.Add(time.Second)
	want := tableItems(t, srv, "app")
	clock.Add(time.Second)
	if err := orders.Delete(ctx, order("u1", 1)); err != nil {
		t.Fatal(err)
	}
	if err := orders.Put(ctx, order("u2", 7)); err != nil {
		t.Fatal(err)
	}
	now := tableItems(t, srv, "app")

	r, err := repo.RestoreTableToPointInTime(ctx, "app", "app-then", then)
	if err != nil {
		t.Fatal(err)
	}
	if !aws.ToTime(r.RestoreSummary.RestoreDateTime).Equal(then) {
		t.Errorf("restored to %v, asked %v", aws.ToTime(r.RestoreSummary.RestoreDateTime), then)
	}
	if _, err := repo.WaitForTable(ctx, "app-then"); err != nil {
		t.Fatal(err)
	}
	if got := tableItems(t, srv, "app-then"); !slices.Equal(got, want) {
		t.Errorf("items at %v\n%q\nwant\n%q", then, got, want)
	}
	// The zero time is the latest restorable time: the table as it is.
	if _, err := repo.RestoreTableToPointInTime(ctx, "app", "app-now", time.Time{}, dynamo.RestoreIndexes(nil, nil)); err != nil {
		t.Fatal(err)
	}
	if got := tableItems(t, srv, "app-now"); !slices.Equal(got, now) {
		t.Errorf("latest items\n%q\nwant\n%q", got, now)
	}
	// Before recovery was enabled is outside the window.
	_, err = repo.RestoreTableToPointInTime(ctx, "app", "app-early", enabledAt.Add(-time.Hour))
	if !errors.As(err, &de) || de.AWSCode != "InvalidRestoreTimeException" {
		t.Errorf("restore before the window: %v", err)
	}

	if d, err = repo.SetPointInTimeRecovery(ctx, "app", false); err != nil {
		t.Fatal(err)
	}
	if s := d.PointInTimeRecoveryDescription.PointInTimeRecoveryStatus; s != types.PointInTimeRecoveryStatusDisabled {
		t.Errorf("after disabling: %s", s)
	}
	if _, err := repo.DescribeContinuousBackups(ctx, "missing"); !errors.Is(err, dynamo.ErrResourceNotFound) {
		t.Errorf("DescribeContinuousBackups of a missing table: %v", err)
	}
}

// A FromClient repo over a client without the backup actions says so.
func TestBackupsNeedTheirAPI(t *testing.T) {
	repo, err := dynamo.FromClient(&cannedAPI{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = repo.CreateBackup(context.Background(), "app", "b")
	if !errors.Is(err, dynamo.ErrValidation) || !strings.Contains(err.Error(), "does not implement") {
		t.Errorf("CreateBackup over a data-only client: %v", err)
	}
}
