package local_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/local"
	"github.com/dynamogo/dynamo/local/storage/disk"
)

// account is a client of srv as the access key id in region.
func account(srv *dynamotest.Server, id, region string) *dynamodb.Client {
	return srv.Client(func(o *dynamodb.Options) {
		o.Credentials = credentials.NewStaticCredentialsProvider(id, id+"-secret", "")
		o.Region = region
		o.Retryer = aws.NopRetryer{}
	})
}

func createHashTable(t *testing.T, c *dynamodb.Client, name string) *types.TableDescription {
	t.Helper()
	out, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatalf("CreateTable %s: %v", name, err)
	}
	return out.TableDescription
}

func tableNames(t *testing.T, c *dynamodb.Client) []string {
	t.Helper()
	out, err := c.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatal(err)
	}
	return out.TableNames
}

// getS returns attribute "v" of the item under pk in c's table, "" when
// there is none.
func getS(t *testing.T, c *dynamodb.Client, table, pk string) string {
	t.Helper()
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: item{"pk": S(pk)}})
	if err != nil {
		t.Fatal(err)
	}
	if out.Item == nil {
		return ""
	}
	return sval(out.Item["v"])
}

// Two keys, and one key in two regions, are three accounts: each sees only
// its own tables and items, and its ARNs carry its region.
func TestTenancySeparatesKeysAndRegions(t *testing.T) {
	srv := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithTenancy()))
	alice, bob := account(srv, "alice", "us-east-1"), account(srv, "bob", "us-east-1")
	aliceEU := account(srv, "alice", "eu-west-1")

	d := createHashTable(t, alice, "orders")
	if !strings.HasPrefix(*d.TableArn, "arn:aws:dynamodb:us-east-1:") {
		t.Fatalf("alice's ARN = %s", *d.TableArn)
	}
	createHashTable(t, alice, "only-alice")
	put(t, alice, "orders", item{"pk": S("o1"), "v": S("alice's")})

	if got := tableNames(t, bob); len(got) != 0 {
		t.Fatalf("bob lists %v", got)
	}
	_, err := bob.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("orders")})
	wantErr(t, err, "ResourceNotFoundException", "Requested resource not found: Table: orders not found")
	// The same name is free in another account, with its own items.
	createHashTable(t, bob, "orders")
	if v := getS(t, bob, "orders", "o1"); v != "" {
		t.Fatalf("bob reads alice's item: %q", v)
	}
	put(t, bob, "orders", item{"pk": S("o1"), "v": S("bob's")})

	d = createHashTable(t, aliceEU, "orders")
	if !strings.HasPrefix(*d.TableArn, "arn:aws:dynamodb:eu-west-1:") {
		t.Fatalf("alice's ARN in eu-west-1 = %s", *d.TableArn)
	}
	if got := tableNames(t, aliceEU); !slices.Equal(got, []string{"orders"}) {
		t.Fatalf("alice in eu-west-1 lists %v", got)
	}
	if got := tableNames(t, alice); !slices.Equal(got, []string{"only-alice", "orders"}) {
		t.Fatalf("alice lists %v", got)
	}
	if a, b := getS(t, alice, "orders", "o1"), getS(t, bob, "orders", "o1"); a != "alice's" || b != "bob's" {
		t.Fatalf("items: alice %q, bob %q", a, b)
	}
	// Tags go by ARN, within the account's region.
	_, err = alice.ListTagsOfResource(ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: d.TableArn})
	wantErrContains(t, err, "ResourceNotFoundException", "")
	if _, err := aliceEU.ListTagsOfResource(ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: d.TableArn}); err != nil {
		t.Fatal(err)
	}
	// Deleting bob's table leaves alice's.
	if _, err := bob.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("orders")}); err != nil {
		t.Fatal(err)
	}
	if v := getS(t, alice, "orders", "o1"); v != "alice's" {
		t.Fatalf("after bob's DeleteTable alice reads %q", v)
	}
}

// Without authentication the key id is read unverified, but it must be
// there and be letters and digits (as DynamoDB Local wants).
func TestTenancyNeedsAKeyID(t *testing.T) {
	srv := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithTenancy()))
	anon := srv.Client(func(o *dynamodb.Options) { o.Credentials = aws.AnonymousCredentials{}; o.Retryer = aws.NopRetryer{} })
	_, err := anon.ListTables(ctx, &dynamodb.ListTablesInput{})
	wantErr(t, err, "MissingAuthenticationTokenException", "Request is missing Authentication Token")
	_, err = account(srv, "not-a-key", "us-east-1").ListTables(ctx, &dynamodb.ListTablesInput{})
	wantErr(t, err, "UnrecognizedClientException", "The Access Key ID or security token is invalid.")
	// A region the SDK would refuse to sign for, signed by hand.
	req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader("{}"))
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
	v4.NewSigner().SignHTTP(ctx, aws.Credentials{AccessKeyID: "alice", SecretAccessKey: "x"}, req,
		"44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a", "dynamodb", "us_east_1", time.Now())
	if status, typ, msg := send(t, req); status != 400 || typ != "IncompleteSignatureException" || msg != "Credential should be scoped to a valid region." {
		t.Fatalf("region us_east_1: %d %s %q", status, typ, msg)
	}
	// Any secret will do: signatures are not checked.
	c := srv.Client(func(o *dynamodb.Options) {
		o.Credentials = credentials.NewStaticCredentialsProvider("alice", "whatever", "")
	})
	if _, err := c.ListTables(ctx, &dynamodb.ListTablesInput{}); err != nil {
		t.Fatal(err)
	}
}

// With authentication too, the account is the verified signer's.
func TestTenancyWithAuthentication(t *testing.T) {
	srv := dynamotest.NewServer(t, dynamotest.WithAccessKey("AKIDALICE", "alice-secret", ""),
		dynamotest.WithLocalOptions(local.WithTenancy(), local.WithAccessKeys(local.AccessKey{ID: "AKIDBOB", Secret: "bob-secret"})))
	alice := srv.Client()
	bob := clientAs(srv, "AKIDBOB", "bob-secret", "")
	createHashTable(t, alice, "mine")
	if got := tableNames(t, bob); len(got) != 0 {
		t.Fatalf("bob lists %v", got)
	}
	_, err := clientAs(srv, "AKIDBOB", "alice-secret", "").ListTables(ctx, &dynamodb.ListTablesInput{})
	wantErrContains(t, err, "InvalidSignatureException", "The request signature we calculated does not match")
}

// On the disk engine, two accounts with a table of the same name are
// restored by a restart, each with its own items; the directory refuses to
// open in the other mode.
func TestTenancySurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	openEngine := func() *disk.Engine {
		e, err := disk.Open(dir, disk.WithLogger(slog.New(slog.DiscardHandler)))
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	eng := openEngine()
	clock := local.WithClock(func() time.Time { return time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC) })
	srv := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithTenancy(), local.WithEngine(eng), clock))
	alice, bob, bobEU := account(srv, "alice", "us-east-1"), account(srv, "bob", "us-east-1"), account(srv, "bob", "eu-west-1")
	for _, c := range []*dynamodb.Client{alice, bob, bobEU} {
		createHashTable(t, c, "orders")
	}
	if _, err := bobEU.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("orders"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	put(t, bobEU, "orders", item{"pk": S("expired"), "exp": N("1893455000")}) // before the clock
	createHashTable(t, alice, "gone")
	if _, err := alice.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("gone")}); err != nil {
		t.Fatal(err)
	}
	put(t, alice, "orders", item{"pk": S("o1"), "v": S("alice's")})
	put(t, bob, "orders", item{"pk": S("o1"), "v": S("bob's")})
	put(t, bobEU, "orders", item{"pk": S("o1"), "v": S("bob's in eu")})
	srv.Close()
	if err := eng.Close(); err != nil {
		t.Fatal(err)
	}

	eng = openEngine()
	defer eng.Close()
	if _, err := local.New(local.WithEngine(eng)); err == nil || !strings.Contains(err.Error(), "WithTenancy") {
		t.Fatalf("shared server on separated tables: %v", err)
	}
	srv = dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithTenancy(), local.WithEngine(eng), clock))
	// The accounts are restored at start, before any request: the TTL
	// sweeper reaches their tables.
	if n := srv.Local.SweepExpired(); n != 1 {
		t.Fatalf("SweepExpired after restart = %d, want 1", n)
	}
	alice, bob, bobEU = account(srv, "alice", "us-east-1"), account(srv, "bob", "us-east-1"), account(srv, "bob", "eu-west-1")
	for _, c := range []struct {
		c    *dynamodb.Client
		want string
	}{{alice, "alice's"}, {bob, "bob's"}, {bobEU, "bob's in eu"}} {
		if got := tableNames(t, c.c); !slices.Equal(got, []string{"orders"}) {
			t.Fatalf("after restart: tables %v", got)
		}
		if v := getS(t, c.c, "orders", "o1"); v != c.want {
			t.Fatalf("after restart: item %q, want %q", v, c.want)
		}
	}
	if got := tableNames(t, account(srv, "carol", "us-east-1")); len(got) != 0 {
		t.Fatalf("a new account lists %v", got)
	}
}

func TestTenancyRefusesSharedTables(t *testing.T) {
	eng, err := disk.Open(t.TempDir(), disk.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	srv := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithEngine(eng)))
	createHashTable(t, srv.Client(), "shared")
	srv.Close()
	if _, err := local.New(local.WithEngine(eng), local.WithTenancy()); err == nil || !strings.Contains(err.Error(), "shared by all access keys") {
		t.Fatalf("separated server on shared tables: %v", err)
	}
}

// SweepExpired reaches the accounts' tables.
func TestTenancySweepsExpiredItems(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	srv := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithTenancy(), local.WithClock(func() time.Time { return now })))
	for _, id := range []string{"alice", "bob"} {
		c := account(srv, id, "us-east-1")
		createHashTable(t, c, "sessions")
		if _, err := c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("sessions"),
			TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(true)}}); err != nil {
			t.Fatal(err)
		}
		put(t, c, "sessions", item{"pk": S("old"), "exp": N("1893455000")}) // before now
	}
	if n := srv.Local.SweepExpired(); n != 2 {
		t.Fatalf("SweepExpired = %d, want 2", n)
	}
}

// The first requests of a new account, concurrent, all land in one account.
func TestTenancyConcurrentFirstUse(t *testing.T) {
	srv := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithTenancy()))
	c := account(srv, "dave", "us-east-1")
	errs := make(chan error, 8)
	for i := range 8 {
		go func() {
			_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
				TableName:            aws.String(fmt.Sprintf("table%d", i)),
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
				KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
				BillingMode:          types.BillingModePayPerRequest,
			})
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if got := tableNames(t, c); len(got) != 8 {
		t.Fatalf("dave lists %v", got)
	}
}
