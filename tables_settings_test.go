package dynamo_test

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/schema"
)

type Session struct {
	ID      string    `dynamo:"id,pk"`
	Expires time.Time `dynamo:"expires,unixtime"`
	Until   int64     `dynamo:"until"`
}

var Sessions = schema.Must[Session]("sessions")

// SyncTables sets the stream, TTL, tags, deletion protection and table
// class the schema declares, on a new table and on an existing one, reports
// each, changes nothing the second time, and turns nothing off.
func TestSyncTablesSettings(t *testing.T) {
	srv := dynamotest.NewServer(t)
	repo := srv.Repo(t)
	ctx := context.Background()
	sync := func(schemas ...schema.Described) []string {
		t.Helper()
		changes, err := repo.SyncTables(ctx, schemas...)
		if err != nil {
			t.Fatal(err)
		}
		var s []string
		for _, c := range changes {
			s = append(s, c.String())
		}
		return s
	}
	full := func(table string) *schema.Schema[Session] {
		return schema.Must[Session](table,
			schema.Stream(types.StreamViewTypeNewAndOldImages), schema.TTL("expires"),
			schema.Tag("team", "auth"), schema.Tag("env", "prod"),
			schema.DeletionProtection(), schema.TableClass(types.TableClassStandardInfrequentAccess))
	}
	check := func(table string) {
		t.Helper()
		d, err := repo.DescribeTable(ctx, table)
		if err != nil {
			t.Fatal(err)
		}
		if s := d.StreamSpecification; s == nil || !aws.ToBool(s.StreamEnabled) || s.StreamViewType != types.StreamViewTypeNewAndOldImages {
			t.Errorf("%s: stream %+v", table, s)
		}
		if !aws.ToBool(d.DeletionProtectionEnabled) {
			t.Errorf("%s: no deletion protection", table)
		}
		if c := d.TableClassSummary; c == nil || c.TableClass != types.TableClassStandardInfrequentAccess {
			t.Errorf("%s: table class %+v", table, c)
		}
		ttl, err := repo.DescribeTTL(ctx, table)
		if err != nil || ttl.TimeToLiveStatus != types.TimeToLiveStatusEnabled || aws.ToString(ttl.AttributeName) != "expires" {
			t.Errorf("%s: TTL %+v, %v", table, ttl, err)
		}
		tags, err := repo.TableTags(ctx, table)
		if err != nil || !maps.Equal(tags, map[string]string{"team": "auth", "env": "prod"}) {
			t.Errorf("%s: tags %v, %v", table, tags, err)
		}
	}

	// A new table gets everything; TTL is a second request.
	if got := sync(full("fresh")); !slices.Equal(got, []string{"fresh: create table", "fresh: enable ttl expires"}) {
		t.Fatalf("first sync: %q", got)
	}
	check("fresh")
	if got := sync(full("fresh")); got != nil {
		t.Fatalf("second sync changed %q", got)
	}

	// An existing bare table gets each setting, reported one by one.
	if got := sync(schema.Must[Session]("old")); !slices.Equal(got, []string{"old: create table"}) {
		t.Fatalf("bare table: %q", got)
	}
	if err := repo.TagTable(ctx, "old", map[string]string{"env": "dev", "owner": "ops"}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"old: enable stream NEW_AND_OLD_IMAGES", "old: enable deletion protection",
		"old: set table class STANDARD_INFREQUENT_ACCESS", "old: enable ttl expires", "old: set tag env", "old: set tag team",
	}
	if got := sync(full("old")); !slices.Equal(got, want) {
		t.Fatalf("sync of a bare table:\n got %q\nwant %q", got, want)
	}
	if got := sync(full("old")); got != nil {
		t.Fatalf("second sync changed %q", got)
	}
	// Nothing declared is nothing turned off: the tag no schema names stays.
	if got := sync(schema.Must[Session]("old")); got != nil {
		t.Fatalf("sync of the bare schema changed %q", got)
	}
	tags, err := repo.TableTags(ctx, "old")
	if err != nil || !maps.Equal(tags, map[string]string{"team": "auth", "env": "prod", "owner": "ops"}) {
		t.Fatalf("tags after syncs: %v, %v", tags, err)
	}

	// What SyncTables would have to turn off first is an error naming it.
	for _, tc := range []struct {
		s    *schema.Schema[Session]
		want string
	}{
		{schema.Must[Session]("old", schema.Stream(types.StreamViewTypeKeysOnly)), "table old has a NEW_AND_OLD_IMAGES stream, the schema declares KEYS_ONLY"},
		{schema.Must[Session]("old", schema.TTL("until")), "table old has TTL on attribute expires, the schema declares until"},
	} {
		_, err := repo.SyncTables(ctx, tc.s)
		if !errors.Is(err, dynamo.ErrValidation) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err = %v, want %q", err, tc.want)
		}
	}

	// Deletion protection holds until UpdateTable turns it off.
	if err := repo.DeleteTable(ctx, "old"); !errors.Is(err, dynamo.ErrValidation) {
		t.Fatalf("DeleteTable of a protected table: %v", err)
	}
	if _, err := repo.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("old"), DeletionProtectionEnabled: aws.Bool(false)}); err != nil {
		t.Fatal(err)
	}
	if err := repo.UpdateTTL(ctx, "old", "expires", false); err != nil {
		t.Fatal(err)
	}
	if ttl, err := repo.DescribeTTL(ctx, "old"); err != nil || ttl.TimeToLiveStatus == types.TimeToLiveStatusEnabled {
		t.Fatalf("TTL after turning it off: %+v, %v", ttl, err)
	}
	if err := repo.UntagTable(ctx, "old", "owner", "env"); err != nil {
		t.Fatal(err)
	}
	if tags, err := repo.TableTags(ctx, "old"); err != nil || !maps.Equal(tags, map[string]string{"team": "auth"}) {
		t.Fatalf("tags after UntagTable: %v, %v", tags, err)
	}
	if err := repo.DeleteTable(ctx, "old"); err != nil {
		t.Fatal(err)
	}
	if _, err := repo.TableTags(ctx, "old"); !errors.Is(err, dynamo.ErrResourceNotFound) {
		t.Fatalf("TableTags of a deleted table: %v", err)
	}
}

// creatingClient answers DescribeTable with CREATING the first times, as
// DynamoDB does while it builds a table.
type creatingClient struct {
	*dynamodb.Client
	pending int
}

func (c *creatingClient) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	out, err := c.Client.DescribeTable(ctx, in, optFns...)
	if err == nil && c.pending > 0 {
		c.pending--
		out.Table.TableStatus = types.TableStatusCreating
	}
	return out, err
}

// OnProgress sees each description a wait reads, ending with ACTIVE.
func TestWaitProgress(t *testing.T) {
	srv := dynamotest.NewServer(t)
	client := &creatingClient{Client: srv.Client()}
	repo, err := dynamo.FromClient(client)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var seen []types.TableStatus
	progress := dynamo.OnProgress(func(d *types.TableDescription) { seen = append(seen, d.TableStatus) })

	// SyncTablesWith: one DescribeTable finds no table, then the wait polls.
	client.pending = 0
	changes, err := repo.SyncTablesWith(ctx, []schema.Described{schema.Must[Session]("sessions")}, progress)
	if err != nil || len(changes) != 1 {
		t.Fatalf("SyncTablesWith: %v, %v", changes, err)
	}
	if !slices.Equal(seen, []types.TableStatus{types.TableStatusActive}) {
		t.Fatalf("sync progress: %q", seen)
	}

	seen, client.pending = nil, 2
	d, err := repo.WaitForTable(ctx, "sessions", progress)
	if err != nil || d.TableStatus != types.TableStatusActive {
		t.Fatalf("WaitForTable: %v", err)
	}
	want := []types.TableStatus{types.TableStatusCreating, types.TableStatusCreating, types.TableStatusActive}
	if !slices.Equal(seen, want) {
		t.Fatalf("wait progress: %q, want %q", seen, want)
	}
}

// A FromClient stub without the control-plane actions gets a validation
// error from each, never a panic.
func TestSettingsNeedTheirAPI(t *testing.T) {
	repo, err := dynamo.FromClient(dataOnly{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for name, err := range map[string]error{
		"UpdateTTL":   repo.UpdateTTL(ctx, "app", "expires", true),
		"TagTable":    repo.TagTable(ctx, "app", map[string]string{"k": "v"}),
		"TransactGet": repo.TransactGet(ctx, []dynamo.ReadOp{dynamo.Bind(repo, Sessions).GetOp(Session{ID: "s"})}),
	} {
		if !errors.Is(err, dynamo.ErrValidation) {
			t.Errorf("%s on a data-only stub: %v", name, err)
		}
	}
	if _, err := repo.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("app")}); !errors.Is(err, dynamo.ErrValidation) {
		t.Errorf("UpdateTable on a data-only stub: %v", err)
	}
}
