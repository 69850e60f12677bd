package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/local/storage/disk"
)

func TestLocalServesUntilCancelled(t *testing.T) {
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- runLocal(ctx, &Env{Stdout: pw, Stderr: io.Discard}, []string{"--host", "127.0.0.1", "--port", "0"})
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	endpoint, ok := strings.CutPrefix(strings.TrimSpace(line), "dynamo local listening on ")
	if !ok || !strings.HasPrefix(endpoint, "http://127.0.0.1:") {
		t.Fatalf("ready line = %q", line)
	}
	c := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(endpoint),
		Credentials: credentials.NewStaticCredentialsProvider("x", "y", ""),
		HTTPClient:  dynamotest.HTTPClient()})
	if _, err := c.ListTables(ctx, &dynamodb.ListTablesInput{}); err != nil {
		t.Fatal(err)
	}
	cancel()
	// A server that ignores cancellation hangs here until go test's -timeout.
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestUnknownCommand(t *testing.T) {
	var stderr bytes.Buffer
	if code := Main([]string{"frobnicate"}, &Env{Stdout: io.Discard, Stderr: &stderr}); code != 2 {
		t.Fatalf("exit code = %d, want 2", code)
	}
	if !strings.Contains(stderr.String(), `unknown command "frobnicate"`) || !strings.Contains(stderr.String(), "local") {
		t.Fatalf("stderr = %q", stderr.String())
	}
}

// startLocal runs "dynamo local" with args on a free port and returns a
// client for it and a stop function that cancels it and returns its error.
func startLocal(t *testing.T, args ...string) (*dynamodb.Client, func() error) {
	t.Helper()
	endpoint, stop := serveLocal(t, io.Discard, args...)
	c := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(endpoint),
		Credentials: credentials.NewStaticCredentialsProvider("x", "y", ""),
		HTTPClient:  dynamotest.HTTPClient()})
	return c, stop
}

// serveLocal runs "dynamo local" with args (on 127.0.0.1 and a free port
// unless args say otherwise), its stderr going to stderr, and returns its
// endpoint and a stop function that cancels it and returns its error. Once it returns, all that was written to stderr
// before the listening line is there.
func serveLocal(t *testing.T, stderr io.Writer, args ...string) (string, func() error) {
	t.Helper()
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		err := runLocal(ctx, &Env{Stdout: pw, Stderr: stderr}, append([]string{"--host", "127.0.0.1", "--port", "0"}, args...))
		pw.CloseWithError(err)
		done <- err
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("dynamo local did not start: %v", <-done)
	}
	endpoint, _ := strings.CutPrefix(strings.TrimSpace(line), "dynamo local listening on ")
	stop := func() error {
		cancel()
		return <-done
	}
	t.Cleanup(func() { cancel() })
	return endpoint, stop
}

// With --data-dir the table and its items outlive the server: a second
// "dynamo local --data-dir" on the same directory serves them again.
func TestLocalDataDirSurvivesRestart(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	ctx := context.Background()
	c, stop := startLocal(t, "--data-dir", dir)
	createTable(t, c, "kept")
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("kept"), Item: map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: "a"}, "n": &types.AttributeValueMemberN{Value: "42"}}})
	if err != nil {
		t.Fatal(err)
	}
	// One server at a time: the directory is locked while this one runs.
	err = runLocal(ctx, &Env{Stdout: io.Discard, Stderr: io.Discard}, []string{"--port", "0", "--data-dir", dir})
	if !errors.Is(err, disk.ErrLocked) {
		t.Fatalf("second server on a directory in use: %v, want disk.ErrLocked", err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}

	c, stop = startLocal(t, "--data-dir", dir)
	defer stop()
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("kept"),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "a"}}})
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := out.Item["n"].(*types.AttributeValueMemberN); !ok || n.Value != "42" {
		t.Fatalf("after a restart: item %v, want n=42", out.Item)
	}

	// Without --data-dir nothing is kept.
	mem, stopMem := startLocal(t)
	defer stopMem()
	if lt, err := mem.ListTables(ctx, &dynamodb.ListTablesInput{}); err != nil || len(lt.TableNames) != 0 {
		t.Fatalf("in-memory server lists %v, %v", lt, err)
	}
}

// --ttl-sweep deletes items whose TTL attribute has passed; with 0 they stay.
func TestLocalTTLSweep(t *testing.T) {
	ctx := context.Background()
	expired := map[string]types.AttributeValue{
		"pk":  &types.AttributeValueMemberS{Value: "old"},
		"exp": &types.AttributeValueMemberN{Value: "1700000000"}, // November 2023
	}
	for _, tc := range []struct {
		sweep   string
		deleted bool
	}{{"20ms", true}, {"0", false}} {
		c, stop := startLocal(t, "--ttl-sweep", tc.sweep)
		createTable(t, c, "ttl")
		if _, err := c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("ttl"),
			TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("exp"), Enabled: aws.Bool(true)}}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("ttl"), Item: expired}); err != nil {
			t.Fatal(err)
		}
		gone := func() bool {
			out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("ttl"), Key: map[string]types.AttributeValue{"pk": expired["pk"]}})
			if err != nil {
				t.Fatal(err)
			}
			return out.Item == nil
		}
		if tc.deleted {
			// The sweeper's goroutine is out of reach here: poll until the
			// item goes (a sweeper that never runs hangs until -timeout).
			for !gone() {
				time.Sleep(time.Millisecond)
			}
		} else if gone() {
			// An absence cannot be awaited: this checks only that the
			// item is still served.
			t.Errorf("--ttl-sweep 0: expired item deleted")
		}
		if err := stop(); err != nil {
			t.Fatal(err)
		}
	}
}

// --credentials FILE: requests must be signed by a key of the file;
// --per-account: each key has its own tables. Both modes are printed at
// start.
func TestLocalCredentialsAndPerAccount(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "keys.txt")
	if err := os.WriteFile(file, []byte("# the team\nAKIDALICE alice-secret\nAKIDBOB bob-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	endpoint, stop := serveLocal(t, &stderr, "--credentials", file, "--per-account")
	defer stop()
	for _, want := range []string{
		"dynamo local: authentication on: requests must be signed by one of the 2 access keys of " + file + "\n",
		"dynamo local: tables separated by access key id and region\n",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr = %q, want %q", stderr.String(), want)
		}
	}
	if strings.Contains(stderr.String(), "secret") {
		t.Errorf("stderr shows a secret: %q", stderr.String())
	}
	client := func(id, secret string) *dynamodb.Client {
		return dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(endpoint), Retryer: aws.NopRetryer{},
			Credentials: credentials.NewStaticCredentialsProvider(id, secret, ""), HTTPClient: dynamotest.HTTPClient()})
	}
	alice := client("AKIDALICE", "alice-secret")
	createTable(t, alice, "mine")
	if lt, err := client("AKIDBOB", "bob-secret").ListTables(ctx, &dynamodb.ListTablesInput{}); err != nil || len(lt.TableNames) != 0 {
		t.Fatalf("bob lists %v, %v", lt, err)
	}
	var ae smithy.APIError
	if _, err := client("AKIDBOB", "alice-secret").ListTables(ctx, &dynamodb.ListTablesInput{}); !errors.As(err, &ae) || ae.ErrorCode() != "InvalidSignatureException" {
		t.Fatalf("wrong secret: %v", err)
	}

	// Without the flags: the modes say so.
	stderr.Reset()
	_, stopOpen := serveLocal(t, &stderr)
	defer stopOpen()
	if want := "dynamo local: authentication off: credentials are not checked (--credentials FILE turns it on)\n" +
		"dynamo local: tables shared by every access key and region (--per-account separates them)\n"; stderr.String() != want {
		t.Errorf("stderr = %q, want %q", stderr.String(), want)
	}
}

// A data directory written with --per-account keeps each account's tables
// across a restart, and does not open without the flag.
func TestLocalPerAccountDataDir(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "data")
	client := func(endpoint, id string) *dynamodb.Client {
		return dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(endpoint),
			Credentials: credentials.NewStaticCredentialsProvider(id, "any", ""), HTTPClient: dynamotest.HTTPClient()})
	}
	endpoint, stop := serveLocal(t, io.Discard, "--data-dir", dir, "--per-account")
	createTable(t, client(endpoint, "alice"), "mine")
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	err := runLocal(ctx, &Env{Stdout: io.Discard, Stderr: io.Discard}, []string{"--port", "0", "--data-dir", dir})
	if err == nil || !strings.Contains(err.Error(), "--per-account") {
		t.Fatalf("without --per-account: %v", err)
	}
	endpoint, stop = serveLocal(t, io.Discard, "--data-dir", dir, "--per-account")
	defer stop()
	for id, want := range map[string]int{"alice": 1, "bob": 0} {
		if lt, err := client(endpoint, id).ListTables(ctx, &dynamodb.ListTablesInput{}); err != nil || len(lt.TableNames) != want {
			t.Fatalf("%s lists %v, %v", id, lt, err)
		}
	}
}

// A log damaged in the middle stops "dynamo local --data-dir" before it
// listens, naming the file, the offset and --truncate-damaged-log; with the
// flag it cuts the log at the damage, keeps a copy and serves the writes
// before it.
func TestLocalDamagedLog(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	ctx := context.Background()
	c, stop := startLocal(t, "--data-dir", dir)
	createTable(t, c, "kept")
	var err error
	const n = 40
	for i := range n {
		_, err = c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("kept"), Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: fmt.Sprintf("item-%02d", i)}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "wal.1")
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(b, []byte("item-30")) // inside the record of the 31st put
	b[at] ^= 0x20
	if err := os.WriteFile(log, b, 0o600); err != nil {
		t.Fatal(err)
	}

	var stderr bytes.Buffer
	code := Main([]string{"local", "--port", "0", "--data-dir", dir}, &Env{Stdout: io.Discard, Stderr: &stderr})
	if code != 1 || !strings.Contains(stderr.String(), "dynamo local: disk: data directory is damaged: log "+log) ||
		!strings.Contains(stderr.String(), "--truncate-damaged-log") {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}

	c, stop = startLocal(t, "--data-dir", dir, "--truncate-damaged-log")
	defer stop()
	out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("kept")})
	if err != nil {
		t.Fatal(err)
	}
	if out.Count != 30 {
		t.Fatalf("served %d items after truncating, want the 30 before the damage", out.Count)
	}
	if saved, _ := filepath.Glob(log + ".damaged-*"); len(saved) != 1 {
		t.Fatalf("copies of the damaged log: %v", saved)
	}
}

// --sync interval:D relaxes durability (and says so); the data still
// outlives the server, whose Close fsyncs. Bad values and --sync without
// --data-dir are usage errors naming the flag.
func TestLocalSyncInterval(t *testing.T) {
	for _, args := range [][]string{
		{"--sync", "never", "--data-dir", t.TempDir()},
		{"--sync", "interval:0s", "--data-dir", t.TempDir()},
		{"--sync", "interval:soon", "--data-dir", t.TempDir()},
		{"--sync", "interval:100ms"},
	} {
		var stderr bytes.Buffer
		if code := Main(append([]string{"local", "--port", "0"}, args...), &Env{Stdout: io.Discard, Stderr: &stderr}); code != 2 || !strings.Contains(stderr.String(), "--sync") {
			t.Errorf("%q: exit %d, stderr %q, want a usage error naming --sync", args, code, stderr.String())
		}
	}

	dir := filepath.Join(t.TempDir(), "data")
	ctx := context.Background()
	var stderr bytes.Buffer
	endpoint, stop := serveLocal(t, &stderr, "--data-dir", dir, "--sync", "interval:50ms")
	if !strings.Contains(stderr.String(), "durability relaxed (--sync interval:50ms)") {
		t.Fatalf("stderr %q does not say durability is relaxed", stderr.String())
	}
	c := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(endpoint),
		Credentials: credentials.NewStaticCredentialsProvider("x", "y", ""),
		HTTPClient:  dynamotest.HTTPClient()})
	createTable(t, c, "kept")
	if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("kept"), Item: map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: "a"}}}); err != nil {
		t.Fatal(err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	c, stop = startLocal(t, "--data-dir", dir)
	defer stop()
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("kept"),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "a"}}})
	if err != nil || out.Item == nil {
		t.Fatalf("after a restart: %v, %v", out, err)
	}
}

// createTable creates an on-demand table keyed by the string pk.
func createTable(t *testing.T, c *dynamodb.Client, name string) {
	t.Helper()
	_, err := c.CreateTable(context.Background(), &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatal(err)
	}
}
