package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

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
		Credentials: credentials.NewStaticCredentialsProvider("x", "y", "")})
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
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		err := runLocal(ctx, &Env{Stdout: pw, Stderr: io.Discard}, append([]string{"--host", "127.0.0.1", "--port", "0"}, args...))
		pw.CloseWithError(err)
		done <- err
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("dynamo local did not start: %v", <-done)
	}
	endpoint, _ := strings.CutPrefix(strings.TrimSpace(line), "dynamo local listening on ")
	c := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(endpoint),
		Credentials: credentials.NewStaticCredentialsProvider("x", "y", "")})
	stop := func() error {
		cancel()
		return <-done
	}
	return c, stop
}

// With --data-dir the table and its items outlive the server: a second
// "dynamo local --data-dir" on the same directory serves them again.
func TestLocalDataDirSurvivesRestart(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	ctx := context.Background()
	c, stop := startLocal(t, "--data-dir", dir)
	_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("kept"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("kept"), Item: map[string]types.AttributeValue{
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
		_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
			TableName:            aws.String("ttl"),
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
			BillingMode:          types.BillingModePayPerRequest,
		})
		if err != nil {
			t.Fatal(err)
		}
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
