package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/dynamotest"
)

// streamServer starts a server with a table "events" (key pk) whose stream
// holds new and old images, points the AWS environment at it, and returns
// a client.
func streamServer(t *testing.T) *dynamodb.Client {
	t.Helper()
	srv := dynamotest.NewServer(t)
	for k, v := range map[string]string{
		"AWS_ENDPOINT_URL_DYNAMODB": srv.URL, "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
		"AWS_REGION": "us-east-1", "AWS_EC2_METADATA_DISABLED": "true",
		"AWS_CONFIG_FILE": os.DevNull, "AWS_SHARED_CREDENTIALS_FILE": os.DevNull,
	} {
		t.Setenv(k, v)
	}
	c := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(srv.URL),
		Credentials: credentials.NewStaticCredentialsProvider("test", "test", ""), HTTPClient: dynamotest.HTTPClient()})
	_, err := c.CreateTable(context.Background(), &dynamodb.CreateTableInput{
		TableName:            aws.String("events"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
	})
	if err != nil {
		t.Fatal(err)
	}
	createTable(t, c, "plain")
	return c
}

func put(t *testing.T, c *dynamodb.Client, item map[string]types.AttributeValue) {
	t.Helper()
	if _, err := c.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("events"), Item: item}); err != nil {
		t.Fatal(err)
	}
}

func sv(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func nv(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

// startTail runs "dynamo tail" with args and returns its output lines and
// a stop function that interrupts it and returns its error.
func startTail(t *testing.T, args ...string) (<-chan string, func() error) {
	t.Helper()
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		err := runTail(ctx, &Env{Stdout: pw, Stderr: io.Discard}, args)
		pw.CloseWithError(err)
		done <- err
	}()
	lines := make(chan string, 1000)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	stop := func() error {
		cancel()
		return <-done
	}
	t.Cleanup(func() { cancel() })
	return lines, stop
}

func TestTailTrimHorizonJSON(t *testing.T) {
	c := streamServer(t)
	ctx := context.Background()
	put(t, c, map[string]types.AttributeValue{"pk": sv("u1"), "n": nv("1"), "note": sv("<a & b>")})
	put(t, c, map[string]types.AttributeValue{"pk": sv("u1"), "n": nv("2")})
	if _, err := c.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("events"), Key: map[string]types.AttributeValue{"pk": sv("u1")}}); err != nil {
		t.Fatal(err)
	}
	lines, stop := startTail(t, "events", "--from", "trim-horizon", "--output", "json")
	want := []string{
		`{"kind":"INSERT","keys":{"pk":{"S":"u1"}},"new":{"n":{"N":"1"},"note":{"S":"<a & b>"},"pk":{"S":"u1"}}}`,
		`{"kind":"MODIFY","keys":{"pk":{"S":"u1"}},"old":{"n":{"N":"1"},"note":{"S":"<a & b>"},"pk":{"S":"u1"}},"new":{"n":{"N":"2"},"pk":{"S":"u1"}}}`,
		`{"kind":"REMOVE","keys":{"pk":{"S":"u1"}},"old":{"n":{"N":"2"},"pk":{"S":"u1"}}}`,
	}
	prev := ""
	for i, w := range want {
		line := <-lines
		var got map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &got); err != nil {
			t.Fatalf("line %d %q: %v", i, line, err)
		}
		var seq, when string
		json.Unmarshal(got["sequenceNumber"], &seq)
		json.Unmarshal(got["time"], &when)
		if seq <= prev || !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`).MatchString(when) {
			t.Errorf("line %d: sequence number %q after %q, time %q", i, seq, prev, when)
		}
		prev = seq
		delete(got, "sequenceNumber")
		delete(got, "time")
		rest, _ := json.Marshal(got)
		var wantMap map[string]json.RawMessage
		json.Unmarshal([]byte(w), &wantMap)
		wantJSON, _ := json.Marshal(wantMap)
		if string(rest) != string(wantJSON) {
			t.Errorf("line %d = %s\nwant %s", i, rest, wantJSON)
		}
	}
	if err := stop(); err != nil {
		t.Fatalf("interrupted tail: %v, want a clean end", err)
	}
}

// TestTailLatest: the default start prints only the changes made after it
// starts, one text line each.
func TestTailLatest(t *testing.T) {
	c := streamServer(t)
	put(t, c, map[string]types.AttributeValue{"pk": sv("before"), "n": nv("0")})
	lines, stop := startTail(t, "events")
	// The tail is live once a write shows up: write until one does.
	var line string
	for i := 1; line == ""; i++ {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("tail ended: %v", stop())
			}
			line = l
		default:
			put(t, c, map[string]types.AttributeValue{"pk": sv(fmt.Sprint("after-", i)), "n": nv(fmt.Sprint(i)), "tags": &types.AttributeValueMemberSS{Value: []string{"x"}}})
		}
	}
	re := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ INSERT pk="after-(\d+)" new=\{"n":(\d+),"pk":"after-(\d+)","tags":\["x"\]\}$`)
	m := re.FindStringSubmatch(line)
	if m == nil || m[1] != m[2] || m[1] != m[3] {
		t.Fatalf("first line = %q, want the insert of an after- item", line)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	for l := range lines {
		if strings.Contains(l, "before") {
			t.Fatalf("--from latest printed a change made before it started: %q", l)
		}
	}
}

// TestTailInterrupt: Ctrl-C (SIGINT) ends dynamo tail with exit code 0.
func TestTailInterrupt(t *testing.T) {
	c := streamServer(t)
	put(t, c, map[string]types.AttributeValue{"pk": sv("k")})
	pr, pw := io.Pipe()
	code := make(chan int, 1)
	go func() {
		code <- Main([]string{"tail", "events", "--from", "trim-horizon"}, &Env{Stdout: pw, Stderr: io.Discard})
		pw.Close()
	}()
	// Main catches SIGINT from before it runs the command, which printed this.
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil || !strings.Contains(line, ` INSERT pk="k" new={"pk":"k"}`) {
		t.Fatalf("line = %q, %v", line, err)
	}
	go io.Copy(io.Discard, pr)
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if got := <-code; got != ExitOK {
		t.Fatalf("exit code after SIGINT = %d, want 0", got)
	}
}

func TestTailErrors(t *testing.T) {
	streamServer(t)
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"tail"}, ExitUsage, "dynamo tail: missing table name"},
		{[]string{"tail", "a", "b"}, ExitUsage, `unexpected argument "b"`},
		{[]string{"tail", "events", "--from", "now"}, ExitUsage, `--from must be latest or trim-horizon, not "now"`},
		{[]string{"tail", "plain"}, ExitFailure, "table plain has no stream"},
	} {
		var stderr strings.Builder
		if got := Main(tc.args, &Env{Stdout: io.Discard, Stderr: &stderr}); got != tc.code || !strings.Contains(stderr.String(), tc.stderr) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, got, stderr.String(), tc.code, tc.stderr)
		}
	}
}
