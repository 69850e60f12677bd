package local_test

import (
	"fmt"
	"log/slog"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/local"
	"github.com/dynamogo/dynamo/local/storage"
	"github.com/dynamogo/dynamo/local/storage/disk"
)

// indexedTable creates name with pk/sk keys, a GSI byStatus (status, sk)
// and an LSI byRank (pk, rank).
func indexedTable(t *testing.T, c *dynamodb.Client, name string) {
	t.Helper()
	str := aws.String
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:   str(name),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: str("pk"), AttributeType: "S"}, {AttributeName: str("sk"), AttributeType: "S"},
			{AttributeName: str("status"), AttributeType: "S"}, {AttributeName: str("rank"), AttributeType: "N"},
		},
		KeySchema: []types.KeySchemaElement{{AttributeName: str("pk"), KeyType: "HASH"}, {AttributeName: str("sk"), KeyType: "RANGE"}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  str("byStatus"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: str("status"), KeyType: "HASH"}, {AttributeName: str("sk"), KeyType: "RANGE"}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{
			IndexName:  str("byRank"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: str("pk"), KeyType: "HASH"}, {AttributeName: str("rank"), KeyType: "RANGE"}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
}

// scanItems returns every item of a table (or of one of its indexes),
// keyed by pk/sk.
func scanItems(t *testing.T, c *dynamodb.Client, table, index string) map[string]item {
	t.Helper()
	out := map[string]item{}
	p := dynamodb.NewScanPaginator(c, &dynamodb.ScanInput{TableName: aws.String(table), IndexName: indexName(index), ConsistentRead: aws.Bool(index == "")})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			out[it["pk"].(*types.AttributeValueMemberS).Value+"/"+it["sk"].(*types.AttributeValueMemberS).Value] = it
		}
	}
	return out
}

func indexName(n string) *string {
	if n == "" {
		return nil
	}
	return aws.String(n)
}

func wantSameItems(t *testing.T, what string, got, want map[string]item) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d items, want %d", what, len(got), len(want))
	}
	for k, w := range want {
		if g, ok := got[k]; !ok || !reflect.DeepEqual(g, w) {
			t.Fatalf("%s: item %s = %v, want %v", what, k, g, w)
		}
	}
}

var backupArnRE = regexp.MustCompile(`^arn:aws:dynamodb:us-east-1:000000000000:table/orders/backup/\d{14}-[a-z0-9]{8}$`)

// A backup's whole life through the SDK: create, describe, list with every
// filter and paging, restore (items and indexes item by item, the restore
// summary), the errors of each action, and delete.
func TestBackupLifecycle(t *testing.T) {
	clock := newTestClock()
	srv := dynamotest.NewServer(t, clock.option())
	c := srv.Client(func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} })
	indexedTable(t, c, "orders")
	for i := range 10 {
		put(t, c, "orders", item{"pk": S("u" + strconv.Itoa(i%3)), "sk": S(fmt.Sprintf("o%02d", i)),
			"status": S([]string{"new", "paid"}[i%2]), "rank": N(strconv.Itoa(i)), "note": S("x")})
	}
	before := scanItems(t, c, "orders", "")

	out, err := c.CreateBackup(ctx, &dynamodb.CreateBackupInput{TableName: aws.String("orders"), BackupName: aws.String("nightly")})
	if err != nil {
		t.Fatal(err)
	}
	d := out.BackupDetails
	if !backupArnRE.MatchString(*d.BackupArn) || d.BackupStatus != types.BackupStatusAvailable ||
		d.BackupType != types.BackupTypeUser || *d.BackupName != "nightly" || !d.BackupCreationDateTime.Equal(clock.now()) || *d.BackupSizeBytes == 0 {
		t.Fatalf("backup details = %+v (arn %s)", d, *d.BackupArn)
	}
	arn := d.BackupArn

	// Writes after the backup are not in it.
	put(t, c, "orders", item{"pk": S("u9"), "sk": S("late"), "status": S("new"), "rank": N("99")})
	if _, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("orders"), Key: item{"pk": S("u0"), "sk": S("o00")}}); err != nil {
		t.Fatal(err)
	}

	desc, err := c.DescribeBackup(ctx, &dynamodb.DescribeBackupInput{BackupArn: arn})
	if err != nil {
		t.Fatal(err)
	}
	bd := desc.BackupDescription
	if *bd.SourceTableDetails.ItemCount != 10 || *bd.SourceTableDetails.TableName != "orders" ||
		len(bd.SourceTableFeatureDetails.GlobalSecondaryIndexes) != 1 || len(bd.SourceTableFeatureDetails.LocalSecondaryIndexes) != 1 {
		t.Fatalf("backup description = %+v", bd)
	}

	// A second backup, a second later, and one of another table.
	clock.add(time.Second)
	hashTable(t, srv, "other")
	for _, b := range []struct{ table, name string }{{"orders", "second"}, {"other", "third"}} {
		if _, err := c.CreateBackup(ctx, &dynamodb.CreateBackupInput{TableName: aws.String(b.table), BackupName: aws.String(b.name)}); err != nil {
			t.Fatal(err)
		}
	}
	list := func(in *dynamodb.ListBackupsInput) []string {
		t.Helper()
		var names []string
		for {
			out, err := c.ListBackups(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range out.BackupSummaries {
				names = append(names, *s.BackupName)
			}
			if out.LastEvaluatedBackupArn == nil {
				return names
			}
			in.ExclusiveStartBackupArn = out.LastEvaluatedBackupArn
		}
	}
	t0 := clock.now().Add(-time.Second)
	for _, tc := range []struct {
		in   dynamodb.ListBackupsInput
		want string
	}{
		{dynamodb.ListBackupsInput{}, "[nightly second third]"},
		{dynamodb.ListBackupsInput{Limit: aws.Int32(1)}, "[nightly second third]"},
		{dynamodb.ListBackupsInput{TableName: aws.String("orders")}, "[nightly second]"},
		{dynamodb.ListBackupsInput{TimeRangeLowerBound: aws.Time(t0.Add(time.Second))}, "[second third]"},
		{dynamodb.ListBackupsInput{TimeRangeUpperBound: aws.Time(t0.Add(time.Second))}, "[nightly]"},
		{dynamodb.ListBackupsInput{BackupType: types.BackupTypeFilterSystem}, "[]"},
		{dynamodb.ListBackupsInput{BackupType: types.BackupTypeFilterAll, TableName: aws.String("other")}, "[third]"},
	} {
		if got := fmt.Sprint(list(&tc.in)); got != tc.want {
			t.Errorf("ListBackups(%+v) = %s, want %s", tc.in, got, tc.want)
		}
	}

	// Restore: the items of the instant, with both indexes.
	clock.add(time.Second)
	r, err := c.RestoreTableFromBackup(ctx, &dynamodb.RestoreTableFromBackupInput{BackupArn: arn, TargetTableName: aws.String("restored")})
	if err != nil {
		t.Fatal(err)
	}
	td := r.TableDescription
	if td.TableStatus != types.TableStatusActive || td.RestoreSummary == nil || *td.RestoreSummary.SourceBackupArn != *arn ||
		*td.RestoreSummary.SourceTableArn != "arn:aws:dynamodb:us-east-1:000000000000:table/orders" || *td.RestoreSummary.RestoreInProgress {
		t.Fatalf("restored table = %+v", td)
	}
	wantSameItems(t, "restored table", scanItems(t, c, "restored", ""), before)
	wantSameItems(t, "restored GSI", scanItems(t, c, "restored", "byStatus"), before)
	q, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("restored"), IndexName: aws.String("byRank"),
		KeyConditionExpression: aws.String("pk = :p AND #r > :r"), ExpressionAttributeNames: map[string]string{"#r": "rank"},
		ExpressionAttributeValues: item{":p": S("u0"), ":r": N("2")}})
	if err != nil || q.Count != 3 { // u0's items have ranks 0, 3, 6 and 9
		t.Fatalf("LSI query on the restored table: %+v, %v", q, err)
	}
	dt, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("restored")})
	if err != nil || dt.Table.RestoreSummary == nil || *dt.Table.ItemCount != 10 {
		t.Fatalf("DescribeTable(restored) = %+v, %v", dt, err)
	}

	// Errors.
	_, err = c.RestoreTableFromBackup(ctx, &dynamodb.RestoreTableFromBackupInput{BackupArn: arn, TargetTableName: aws.String("orders")})
	wantErr(t, err, "TableAlreadyExistsException", "Table already exists: orders")
	_, err = c.CreateBackup(ctx, &dynamodb.CreateBackupInput{TableName: aws.String("nope"), BackupName: aws.String("bk1")})
	wantErr(t, err, "TableNotFoundException", "Table not found: nope")
	_, err = c.CreateBackup(ctx, &dynamodb.CreateBackupInput{TableName: aws.String("orders"), BackupName: aws.String("b")})
	wantErr(t, err, "ValidationException", "1 validation error detected: Value 'b' at 'backupName' failed to satisfy constraint: Member must have length greater than or equal to 3")
	missing := *arn + "x"
	_, err = c.DescribeBackup(ctx, &dynamodb.DescribeBackupInput{BackupArn: &missing})
	wantErr(t, err, "BackupNotFoundException", "Backup not found: "+missing)
	_, err = c.RestoreTableFromBackup(ctx, &dynamodb.RestoreTableFromBackupInput{BackupArn: &missing, TargetTableName: aws.String("tt2")})
	wantErr(t, err, "BackupNotFoundException", "Backup not found: "+missing)

	// Delete: DELETED, then gone; the restored table stays.
	del, err := c.DeleteBackup(ctx, &dynamodb.DeleteBackupInput{BackupArn: arn})
	if err != nil || del.BackupDescription.BackupDetails.BackupStatus != types.BackupStatusDeleted {
		t.Fatalf("DeleteBackup = %+v, %v", del, err)
	}
	_, err = c.DescribeBackup(ctx, &dynamodb.DescribeBackupInput{BackupArn: arn})
	wantErr(t, err, "BackupNotFoundException", "Backup not found: "+*arn)
	_, err = c.DeleteBackup(ctx, &dynamodb.DeleteBackupInput{BackupArn: arn})
	wantErr(t, err, "BackupNotFoundException", "Backup not found: "+*arn)
	if got := fmt.Sprint(list(&dynamodb.ListBackupsInput{})); got != "[second third]" {
		t.Fatalf("after delete: %s", got)
	}
	wantSameItems(t, "restored table after the backup's deletion", scanItems(t, c, "restored", ""), before)
}

// The overrides of a restore: no GSIs, provisioned billing.
func TestRestoreOverrides(t *testing.T) {
	_, c := newServer(t)
	indexedTable(t, c, "orders")
	put(t, c, "orders", item{"pk": S("a"), "sk": S("1"), "status": S("new"), "rank": N("1")})
	b, err := c.CreateBackup(ctx, &dynamodb.CreateBackupInput{TableName: aws.String("orders"), BackupName: aws.String("bk1")})
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.RestoreTableFromBackup(ctx, &dynamodb.RestoreTableFromBackupInput{
		BackupArn: b.BackupDetails.BackupArn, TargetTableName: aws.String("copy"),
		GlobalSecondaryIndexOverride:  []types.GlobalSecondaryIndex{},
		BillingModeOverride:           types.BillingModeProvisioned,
		ProvisionedThroughputOverride: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(7), WriteCapacityUnits: aws.Int64(3)},
		SSESpecificationOverride:      &types.SSESpecification{Enabled: aws.Bool(true)},
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.RestoreTableFromBackup(ctx, &dynamodb.RestoreTableFromBackupInput{BackupArn: b.BackupDetails.BackupArn,
		TargetTableName: aws.String("copy2"), BillingModeOverride: types.BillingModeProvisioned})
	wantErr(t, err, "ValidationException", "One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED")
	td := r.TableDescription
	if len(td.GlobalSecondaryIndexes) != 0 || len(td.LocalSecondaryIndexes) != 1 || td.BillingModeSummary.BillingMode != types.BillingModeProvisioned ||
		*td.ProvisionedThroughput.ReadCapacityUnits != 7 || *td.ProvisionedThroughput.WriteCapacityUnits != 3 || *td.ItemCount != 1 {
		t.Fatalf("restored with overrides: %+v", td)
	}
	_, err = c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("copy"), IndexName: aws.String("byStatus"),
		KeyConditionExpression: aws.String("#s = :s"), ExpressionAttributeNames: map[string]string{"#s": "status"}, ExpressionAttributeValues: item{":s": S("new")}})
	wantErrContains(t, err, "ValidationException", "index")
}

// A backup is one instant although writes go on: a writer moves units
// between two items in transactions, and every backup's total is the same.
func TestBackupIsOneInstantUnderWrites(t *testing.T) {
	srv := dynamotest.NewServer(t)
	c := srv.Client()
	hashRangeTable(t, srv, "bank")
	put(t, c, "bank", item{"pk": S("acct"), "sk": S("a"), "n": N("1000")})
	put(t, c, "bank", item{"pk": S("acct"), "sk": S("b"), "n": N("0")})
	for i := range 200 { // enough items that copying them takes a while
		put(t, c, "bank", item{"pk": S("fill"), "sk": S(strconv.Itoa(i)), "pad": S("0123456789")})
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	moved := make(chan struct{}, 1)
	wg.Add(1)
	defer func() { close(stop); wg.Wait() }()
	go func() {
		defer wg.Done()
		add := func(sk, d string) types.TransactWriteItem {
			return types.TransactWriteItem{Update: &types.Update{TableName: aws.String("bank"), Key: item{"pk": S("acct"), "sk": S(sk)},
				UpdateExpression: aws.String("ADD n :d"), ExpressionAttributeValues: item{":d": N(d)}}}
		}
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			from, to := "a", "b"
			if i%3 == 2 {
				from, to = "b", "a"
			}
			items := []types.TransactWriteItem{add(from, "-7"), add(to, "7")}
			if _, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items}); err != nil {
				t.Error(err)
				return
			}
			select {
			case moved <- struct{}{}:
			default:
			}
		}
	}()
	for i := range 5 {
		<-moved // at least one move between backups
		b, err := c.CreateBackup(ctx, &dynamodb.CreateBackupInput{TableName: aws.String("bank"), BackupName: aws.String("bak" + strconv.Itoa(i))})
		if err != nil {
			t.Fatal(err)
		}
		target := "copy" + strconv.Itoa(i)
		if _, err := c.RestoreTableFromBackup(ctx, &dynamodb.RestoreTableFromBackupInput{BackupArn: b.BackupDetails.BackupArn, TargetTableName: &target}); err != nil {
			t.Fatal(err)
		}
		items := scanItems(t, c, target, "")
		x, _ := strconv.Atoi(items["acct/a"]["n"].(*types.AttributeValueMemberN).Value)
		y, _ := strconv.Atoi(items["acct/b"]["n"].(*types.AttributeValueMemberN).Value)
		if x+y != 1000 || len(items) != 202 {
			t.Fatalf("backup %d: a+b = %d+%d, %d items", i, x, y, len(items))
		}
	}
}

// Point-in-time recovery with a moved clock: each restore is the table at
// that second, item by item; the window and the errors.
func TestPointInTimeRestore(t *testing.T) {
	clock := newTestClock()
	srv := dynamotest.NewServer(t, clock.option())
	c := srv.Client(func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} })
	indexedTable(t, c, "orders")
	put(t, c, "orders", item{"pk": S("a"), "sk": S("1"), "status": S("old"), "rank": N("0")}) // before recovery is on

	pitr := func(enable bool, days *int32) (*dynamodb.UpdateContinuousBackupsOutput, error) {
		return c.UpdateContinuousBackups(ctx, &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String("orders"),
			PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(enable), RecoveryPeriodInDays: days}})
	}
	_, err := c.RestoreTableToPointInTime(ctx, &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String("orders"), TargetTableName: aws.String("xxx"), UseLatestRestorableTime: aws.Bool(true)})
	wantErr(t, err, "PointInTimeRecoveryUnavailableException", "Point in time recovery is not enabled for table 'orders'")
	_, err = pitr(true, aws.Int32(36))
	wantErr(t, err, "ValidationException", "1 validation error detected: Value '36' at 'pointInTimeRecoverySpecification.recoveryPeriodInDays' failed to satisfy constraint: Member must have value less than or equal to 35")
	dc, err := c.DescribeContinuousBackups(ctx, &dynamodb.DescribeContinuousBackupsInput{TableName: aws.String("orders")})
	if err != nil || dc.ContinuousBackupsDescription.ContinuousBackupsStatus != types.ContinuousBackupsStatusEnabled ||
		dc.ContinuousBackupsDescription.PointInTimeRecoveryDescription.PointInTimeRecoveryStatus != types.PointInTimeRecoveryStatusDisabled {
		t.Fatalf("DescribeContinuousBackups = %+v, %v", dc, err)
	}
	_, err = c.DescribeContinuousBackups(ctx, &dynamodb.DescribeContinuousBackupsInput{TableName: aws.String("nope")})
	wantErr(t, err, "TableNotFoundException", "Table not found: nope")

	t0 := clock.now()
	up, err := pitr(true, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := up.ContinuousBackupsDescription.PointInTimeRecoveryDescription
	if p.PointInTimeRecoveryStatus != types.PointInTimeRecoveryStatusEnabled || *p.RecoveryPeriodInDays != 35 ||
		!p.EarliestRestorableDateTime.Equal(t0) || !p.LatestRestorableDateTime.Equal(t0) {
		t.Fatalf("enabled: %+v", p)
	}

	// History: a changes at +10s and +20s, is deleted at +30s; b appears at +40s.
	states := map[int]map[string]item{0: scanItems(t, c, "orders", "")}
	step := func(sec int, f func()) {
		clock.ns.Store(t0.Add(time.Duration(sec) * time.Second).UnixNano())
		f()
		states[sec] = scanItems(t, c, "orders", "")
	}
	step(10, func() { put(t, c, "orders", item{"pk": S("a"), "sk": S("1"), "status": S("v1"), "rank": N("1")}) })
	step(20, func() { put(t, c, "orders", item{"pk": S("a"), "sk": S("1"), "status": S("v2"), "rank": N("2")}) })
	step(30, func() {
		if _, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("orders"), Key: item{"pk": S("a"), "sk": S("1")}}); err != nil {
			t.Fatal(err)
		}
	})
	step(40, func() { put(t, c, "orders", item{"pk": S("b"), "sk": S("2"), "status": S("v1"), "rank": N("5")}) })
	clock.add(10 * time.Second)

	for _, at := range []struct{ restore, state int }{{0, 0}, {5, 0}, {10, 10}, {15, 10}, {25, 20}, {35, 30}, {45, 40}} {
		target := "at" + strconv.Itoa(at.restore)
		r, err := c.RestoreTableToPointInTime(ctx, &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String("orders"),
			TargetTableName: &target, RestoreDateTime: aws.Time(t0.Add(time.Duration(at.restore) * time.Second))})
		if err != nil {
			t.Fatal(err)
		}
		if rs := r.TableDescription.RestoreSummary; rs == nil || !rs.RestoreDateTime.Equal(t0.Add(time.Duration(at.restore)*time.Second)) || rs.SourceBackupArn != nil {
			t.Fatalf("restore summary at +%ds: %+v", at.restore, rs)
		}
		wantSameItems(t, target, scanItems(t, c, target, ""), states[at.state])
		wantSameItems(t, target+" GSI", scanItems(t, c, target, "byStatus"), states[at.state])
	}
	// The latest time, by the source's ARN.
	if _, err := c.RestoreTableToPointInTime(ctx, &dynamodb.RestoreTableToPointInTimeInput{
		SourceTableArn: aws.String("arn:aws:dynamodb:us-east-1:000000000000:table/orders"), TargetTableName: aws.String("latest"), UseLatestRestorableTime: aws.Bool(true)}); err != nil {
		t.Fatal(err)
	}
	wantSameItems(t, "latest", scanItems(t, c, "latest", ""), states[40])

	for _, bad := range []time.Time{t0.Add(-time.Second), clock.now().Add(time.Second)} {
		_, err = c.RestoreTableToPointInTime(ctx, &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String("orders"), TargetTableName: aws.String("bad"), RestoreDateTime: aws.Time(bad)})
		wantErr(t, err, "InvalidRestoreTimeException", "RestoreDateTime must be between EarliestRestorableDateTime and LatestRestorableDateTime")
	}
	_, err = c.RestoreTableToPointInTime(ctx, &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String("orders"), TargetTableName: aws.String("at0"), UseLatestRestorableTime: aws.Bool(true)})
	wantErr(t, err, "TableAlreadyExistsException", "Table already exists: at0")
	_, err = c.RestoreTableToPointInTime(ctx, &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String("nope"), TargetTableName: aws.String("yyy"), UseLatestRestorableTime: aws.Bool(true)})
	wantErr(t, err, "TableNotFoundException", "Table not found: nope")

	// Disabling drops the history.
	if _, err := pitr(false, nil); err != nil {
		t.Fatal(err)
	}
	_, err = c.RestoreTableToPointInTime(ctx, &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String("orders"), TargetTableName: aws.String("zzz"), UseLatestRestorableTime: aws.Bool(true)})
	wantErr(t, err, "PointInTimeRecoveryUnavailableException", "")
}

// The history is bounded by the recovery period: past it, entries are
// deleted and the earliest restorable time moves with the clock.
func TestPointInTimeHistoryIsTrimmed(t *testing.T) {
	clock := newTestClock()
	srv := dynamotest.NewServer(t, clock.option())
	c := srv.Client()
	hashTable(t, srv, "tbl")
	if _, err := c.UpdateContinuousBackups(ctx, &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String("tbl"),
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true), RecoveryPeriodInDays: aws.Int32(1)}}); err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		put(t, c, "tbl", item{"pk": S("k"), "v": N(strconv.Itoa(i))})
	}
	if n := local.StoredHistory(srv.Local, "tbl"); n != 100 {
		t.Fatalf("history holds %d entries, want 100", n)
	}
	clock.add(25 * time.Hour)
	put(t, c, "tbl", item{"pk": S("k"), "v": N("100")})
	if n := local.StoredHistory(srv.Local, "tbl"); n != 100-64+1 {
		t.Fatalf("after the period: history holds %d entries, want %d", n, 100-64+1)
	}
	dc, err := c.DescribeContinuousBackups(ctx, &dynamodb.DescribeContinuousBackupsInput{TableName: aws.String("tbl")})
	if err != nil {
		t.Fatal(err)
	}
	if e := dc.ContinuousBackupsDescription.PointInTimeRecoveryDescription.EarliestRestorableDateTime; !e.Equal(clock.now().Add(-24 * time.Hour)) {
		t.Fatalf("earliest = %v, want %v", e, clock.now().Add(-24*time.Hour))
	}
}

// On a disk engine, backups and the point-in-time history survive a
// restart: both restore after it, item by item.
func TestBackupsSurviveRestart(t *testing.T) {
	dir := t.TempDir()
	clock := newTestClock()
	openEngine := func() *disk.Engine {
		e, err := disk.Open(dir, disk.WithLogger(slog.New(slog.DiscardHandler)))
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	eng := openEngine()
	first := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithEngine(eng), local.WithClock(clock.now)))
	c := first.Client()
	indexedTable(t, c, "orders")
	t0 := clock.now()
	if _, err := c.UpdateContinuousBackups(ctx, &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String("orders"),
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		clock.add(time.Second)
		put(t, c, "orders", item{"pk": S("a"), "sk": S(strconv.Itoa(i)), "status": S("s"), "rank": N(strconv.Itoa(i))})
	}
	at3 := scanItems(t, c, "orders", "") // the state at t0+5s
	b, err := c.CreateBackup(ctx, &dynamodb.CreateBackupInput{TableName: aws.String("orders"), BackupName: aws.String("keep")})
	if err != nil {
		t.Fatal(err)
	}
	clock.add(time.Second)
	if _, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("orders"), Key: item{"pk": S("a"), "sk": S("0")}}); err != nil {
		t.Fatal(err)
	}
	first.Close()
	if err := eng.Close(); err != nil {
		t.Fatal(err)
	}

	eng = openEngine()
	t.Cleanup(func() { eng.Close() })
	second := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithEngine(eng), local.WithClock(clock.now)))
	c = second.Client()
	l, err := c.ListBackups(ctx, &dynamodb.ListBackupsInput{TableName: aws.String("arn:aws:dynamodb:us-east-1:000000000000:table/orders")})
	if err != nil || len(l.BackupSummaries) != 1 || *l.BackupSummaries[0].BackupArn != *b.BackupDetails.BackupArn {
		t.Fatalf("ListBackups after restart = %+v, %v", l, err)
	}
	if _, err := c.RestoreTableFromBackup(ctx, &dynamodb.RestoreTableFromBackupInput{BackupArn: b.BackupDetails.BackupArn, TargetTableName: aws.String("fromBackup")}); err != nil {
		t.Fatal(err)
	}
	wantSameItems(t, "from the backup", scanItems(t, c, "fromBackup", ""), at3)
	dc, err := c.DescribeContinuousBackups(ctx, &dynamodb.DescribeContinuousBackupsInput{TableName: aws.String("arn:aws:dynamodb:us-east-1:000000000000:table/orders")})
	if err != nil || !dc.ContinuousBackupsDescription.PointInTimeRecoveryDescription.EarliestRestorableDateTime.Equal(t0) {
		t.Fatalf("DescribeContinuousBackups after restart = %+v, %v", dc, err)
	}
	if _, err := c.RestoreTableToPointInTime(ctx, &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String("orders"),
		TargetTableName: aws.String("fromHistory"), RestoreDateTime: aws.Time(t0.Add(5 * time.Second))}); err != nil {
		t.Fatal(err)
	}
	wantSameItems(t, "from the history", scanItems(t, c, "fromHistory", ""), at3)
	wantSameItems(t, "from the history, GSI", scanItems(t, c, "fromHistory", "byStatus"), at3)
	// New writes continue the history after the restart.
	clock.add(time.Second)
	put(t, c, "orders", item{"pk": S("z"), "sk": S("z"), "status": S("s"), "rank": N("9")})
	if _, err := c.RestoreTableToPointInTime(ctx, &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String("orders"),
		TargetTableName: aws.String("again"), RestoreDateTime: aws.Time(t0.Add(5 * time.Second))}); err != nil {
		t.Fatal(err)
	}
	wantSameItems(t, "from the history after new writes", scanItems(t, c, "again", ""), at3)
}

// gatedEngine holds the first backup's copy (its collection is opened just
// before the items are written) until the test releases it.
type gatedEngine struct {
	storage.Engine
	once             sync.Once
	entered, release chan struct{}
}

func (e *gatedEngine) Collection(name string) (storage.Collection, error) {
	if strings.HasPrefix(name, "b/") {
		e.once.Do(func() { close(e.entered); <-e.release })
	}
	return e.Engine.Collection(name)
}

// While a backup is being made it is CREATING and in use (no delete, no
// restore, no second backup of the table), and writes to the table go on
// without waiting for it — and are not in it.
func TestBackupInUseWhileCreating(t *testing.T) {
	eng := &gatedEngine{Engine: storage.NewMemory(), entered: make(chan struct{}), release: make(chan struct{})}
	t.Cleanup(func() { eng.Engine.Close() })
	srv := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithEngine(eng)))
	c := srv.Client(func(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} })
	hashRangeTable(t, srv, "orders")
	put(t, c, "orders", item{"pk": S("a"), "sk": S("1")})

	type result struct {
		out *dynamodb.CreateBackupOutput
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := c.CreateBackup(ctx, &dynamodb.CreateBackupInput{TableName: aws.String("orders"), BackupName: aws.String("slow")})
		done <- result{out, err}
	}()
	<-eng.entered
	l, err := c.ListBackups(ctx, &dynamodb.ListBackupsInput{})
	if err != nil || len(l.BackupSummaries) != 1 || l.BackupSummaries[0].BackupStatus != types.BackupStatusCreating {
		t.Fatalf("ListBackups while creating = %+v, %v", l, err)
	}
	arn := l.BackupSummaries[0].BackupArn
	_, err = c.DeleteBackup(ctx, &dynamodb.DeleteBackupInput{BackupArn: arn})
	wantErr(t, err, "BackupInUseException", "Backup is being used: "+*arn)
	_, err = c.RestoreTableFromBackup(ctx, &dynamodb.RestoreTableFromBackupInput{BackupArn: arn, TargetTableName: aws.String("copy")})
	wantErr(t, err, "BackupInUseException", "Backup is being used: "+*arn)
	_, err = c.CreateBackup(ctx, &dynamodb.CreateBackupInput{TableName: aws.String("orders"), BackupName: aws.String("second")})
	wantErrContains(t, err, "BackupInUseException", "another ongoing conflicting backup")
	put(t, c, "orders", item{"pk": S("b"), "sk": S("2")}) // does not wait for the copy
	close(eng.release)

	r := <-done
	if r.err != nil || r.out.BackupDetails.BackupStatus != types.BackupStatusAvailable {
		t.Fatalf("CreateBackup = %+v, %v", r.out, r.err)
	}
	if _, err := c.RestoreTableFromBackup(ctx, &dynamodb.RestoreTableFromBackupInput{BackupArn: arn, TargetTableName: aws.String("copy")}); err != nil {
		t.Fatal(err)
	}
	if got := scanItems(t, c, "copy", ""); len(got) != 1 || got["a/1"] == nil {
		t.Fatalf("the backup holds %v, want only a/1", got)
	}
}

// A backup a crash left CREATING (its catalog entry says so) is incomplete:
// the server deletes it, with its items, when it starts.
func TestIncompleteBackupIsDeletedAtStart(t *testing.T) {
	eng := storage.NewMemory()
	t.Cleanup(func() { eng.Close() })
	coll, err := eng.Collection("b/01234567890123-abcdefgh")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := coll.Put([]byte("k"), storage.MustEncode(item{"pk": S("a")})); err != nil {
		t.Fatal(err)
	}
	entry := `{"id":"01234567890123-abcdefgh","name":"half","table":{"name":"orders","id":"x","hash":{"name":"pk","type":"S"}},"status":"CREATING"}`
	if err := eng.PutMeta("backup/01234567890123-abcdefgh", []byte(entry)); err != nil {
		t.Fatal(err)
	}
	srv := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithEngine(eng)))
	l, err := srv.Client().ListBackups(ctx, &dynamodb.ListBackupsInput{})
	if err != nil || len(l.BackupSummaries) != 0 {
		t.Fatalf("ListBackups = %+v, %v", l, err)
	}
	meta, err := eng.Meta()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := meta["backup/01234567890123-abcdefgh"]; ok {
		t.Fatal("the incomplete backup's catalog entry is still there")
	}
	if coll, _ := eng.Collection("b/01234567890123-abcdefgh"); coll.Len() != 0 {
		t.Fatalf("the incomplete backup's items are still there: %d", coll.Len())
	}
}

// Deleting a table deletes its history from the engine, and a new table of
// the name starts without point-in-time recovery.
func TestDeleteTableDropsHistory(t *testing.T) {
	eng := storage.NewMemory()
	t.Cleanup(func() { eng.Close() })
	srv := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithEngine(eng)))
	c := srv.Client()
	id := *hashTableID(t, srv, "tbl")
	if _, err := c.UpdateContinuousBackups(ctx, &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String("tbl"),
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	put(t, c, "tbl", item{"pk": S("k")})
	if n := local.StoredHistory(srv.Local, "tbl"); n != 1 {
		t.Fatalf("history holds %d entries, want 1", n)
	}
	if _, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("tbl")}); err != nil {
		t.Fatal(err)
	}
	if coll, _ := eng.Collection("h/" + id); coll.Len() != 0 {
		t.Fatalf("the deleted table's history holds %d entries", coll.Len())
	}
	hashTable(t, srv, "tbl")
	dc, err := c.DescribeContinuousBackups(ctx, &dynamodb.DescribeContinuousBackupsInput{TableName: aws.String("tbl")})
	if err != nil || dc.ContinuousBackupsDescription.PointInTimeRecoveryDescription.PointInTimeRecoveryStatus != types.PointInTimeRecoveryStatusDisabled {
		t.Fatalf("DescribeContinuousBackups = %+v, %v", dc, err)
	}
}

func hashTableID(t *testing.T, srv *dynamotest.Server, name string) *string {
	t.Helper()
	return srv.CreateTable(t, &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: "HASH"}},
		BillingMode:          types.BillingModePayPerRequest,
	}).TableId
}
