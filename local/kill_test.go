package local_test

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/local"
	"github.com/dynamogo/dynamo/local/storage/disk"
)

// killChildEnv makes the test binary a durable server on the directory it
// names: the child process TestKillNineKeepsAcknowledgedWrites kills.
const killChildEnv = "DYNAMO_TEST_KILL_CHILD_DIR"

// A server on a data directory runs in a child process; writers drive it
// through the aws-sdk-go-v2 client over HTTP (puts onto a table with a
// GSI, and transactions updating a pair of items and putting a third),
// and the child is killed with SIGKILL after a random number of
// acknowledged writes, mid-request and often mid-compaction (the log is
// compacted every few kilobytes). A new child on the same directory must
// serve every acknowledged write, every transaction whole or not at all,
// and an index that agrees with its table. DYNAMO_KILL_ROUNDS (default 3)
// sets the number of kills; DYNAMO_KILL_SEED replays a run.
func TestKillNineKeepsAcknowledgedWrites(t *testing.T) {
	if dir := os.Getenv(killChildEnv); dir != "" {
		serveKillChild(dir)
		return
	}
	rounds, seed := 3, uint64(time.Now().UnixNano())
	if v := os.Getenv("DYNAMO_KILL_ROUNDS"); v != "" {
		rounds, _ = strconv.Atoi(v)
	}
	if v := os.Getenv("DYNAMO_KILL_SEED"); v != "" {
		seed, _ = strconv.ParseUint(v, 10, 64)
	}
	t.Logf("DYNAMO_KILL_SEED=%d", seed)
	r := rand.New(rand.NewPCG(seed, 0))
	dir := t.TempDir()
	m := newKillModel(4)
	for round := 0; ; round++ {
		child := startKillChild(t, dir)
		c := child.client()
		if round == 0 {
			if _, err := c.CreateTable(ctx, killTable()); err != nil {
				t.Fatal(err)
			}
		}
		m.verify(t, c, round)
		if round == rounds {
			child.kill(t)
			return
		}
		m.writeUntilKilled(t, c, child, 20+r.IntN(300))
	}
}

func killTable() *dynamodb.CreateTableInput {
	str := aws.String
	return &dynamodb.CreateTableInput{
		TableName: str("kill"),
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: str("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: str("grp"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{{AttributeName: str("pk"), KeyType: types.KeyTypeHash}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  str("byGroup"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: str("grp"), KeyType: types.KeyTypeHash}, {AttributeName: str("pk"), KeyType: types.KeyTypeRange}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		}},
		BillingMode: types.BillingModePayPerRequest,
	}
}

// serveKillChild serves a durable server on dir until it is killed (or
// its parent goes away: stdin closes).
func serveKillChild(dir string) {
	eng, err := disk.Open(dir, disk.WithCompactThreshold(8<<10), disk.WithLogger(slog.New(slog.NewTextHandler(os.Stderr, nil))))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	srv, err := local.New(local.WithEngine(eng))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	go func() {
		io.Copy(io.Discard, os.Stdin)
		os.Exit(3)
	}()
	fmt.Printf("listening on http://%s\n", ln.Addr())
	http.Serve(ln, srv)
	os.Exit(4)
}

type killChild struct {
	cmd    *exec.Cmd
	url    string
	stderr *strings.Builder
	killed atomic.Bool
}

func startKillChild(t *testing.T, dir string) *killChild {
	t.Helper()
	cmd, url, stderr := startChild(t, "TestKillNineKeepsAcknowledgedWrites", killChildEnv+"="+dir)
	return &killChild{cmd: cmd, url: url, stderr: stderr}
}

// startChild starts the test binary running only test, with env added to
// its environment: a child whose test serves HTTP and prints "listening on
// URL" first. It returns once that line is read; the child is killed when
// tb ends, and exits by itself when this process does (its stdin closes).
func startChild(tb testing.TB, test, env string) (cmd *exec.Cmd, url string, stderr *strings.Builder) {
	tb.Helper()
	stderr = &strings.Builder{}
	cmd = exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), env)
	cmd.Stderr = stderr
	if _, err := cmd.StdinPipe(); err != nil {
		tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	if err != nil || !ok {
		cmd.Process.Kill()
		cmd.Wait()
		tb.Fatalf("%s did not start (%v): %s", test, err, stderr)
	}
	return cmd, url, stderr
}

func (k *killChild) client() *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		Credentials:  credentials.NewStaticCredentialsProvider("x", "y", ""),
		BaseEndpoint: aws.String(k.url),
		Retryer:      aws.NopRetryer{}, // a write is acknowledged by its one answer
		HTTPClient:   &http.Client{Transport: dynamotest.Transport(&http.Transport{})},
	})
}

// kill sends SIGKILL and waits for the process to be gone (its lock is
// released by the kernel).
func (k *killChild) kill(t *testing.T) {
	t.Helper()
	k.killed.Store(true)
	if err := k.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	k.cmd.Wait()
	if strings.Contains(k.stderr.String(), "level=ERROR") {
		t.Fatalf("the server logged an error: %s", k.stderr)
	}
}

// killModel is what the writers know was acknowledged.
type killModel struct {
	mu     sync.Mutex
	puts   map[string]bool // acknowledged puts, by key
	writer []killWriter
}

type killWriter struct {
	next     int // the next write's number
	txDone   int // the number of the last transaction found applied (0: none)
	txAcked  int // the last acknowledged transaction
	inFlight int // the transaction sent and not answered when the server died
}

func newKillModel(writers int) *killModel {
	return &killModel{puts: map[string]bool{}, writer: make([]killWriter, writers)}
}

// writeUntilKilled runs the writers until acks writes are acknowledged in
// all, then kills the child while they are mid-request.
func (m *killModel) writeUntilKilled(t *testing.T, c *dynamodb.Client, child *killChild, acks int) {
	t.Helper()
	var acked atomic.Int64
	enough := make(chan struct{})
	var wg sync.WaitGroup
	for w := range m.writer {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				m.mu.Lock()
				i := m.writer[w].next + 1
				m.writer[w].next = i
				if i%2 == 0 {
					m.writer[w].inFlight = i
				}
				m.mu.Unlock()
				err := killWrite(c, w, i)
				if err != nil {
					if !child.killed.Load() {
						t.Errorf("writer %d, write %d, before the kill: %v", w, i, err)
					}
					return
				}
				m.mu.Lock()
				if i%2 == 0 {
					m.writer[w].txAcked = i
				} else {
					m.puts[fmt.Sprintf("p/%d/%d", w, i)] = true
				}
				m.mu.Unlock()
				if acked.Add(1) == int64(acks) {
					close(enough)
				}
			}
		}()
	}
	select {
	case <-enough:
	case <-killFailed(&wg):
		t.Fatal("every writer stopped before the kill")
	}
	child.kill(t)
	wg.Wait()
}

// killFailed is closed once wg is done.
func killFailed(wg *sync.WaitGroup) <-chan struct{} {
	ch := make(chan struct{})
	go func() { wg.Wait(); close(ch) }()
	return ch
}

// killWrite makes writer w's write number i: odd numbers put p/w/i (and its
// GSI entry), even numbers are a transaction setting n = i on a/w and b/w
// and putting t/w/i.
func killWrite(c *dynamodb.Client, w, i int) error {
	str := aws.String
	num := strconv.Itoa(i)
	if i%2 == 1 {
		_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: str("kill"), Item: item{
			"pk": S(fmt.Sprintf("p/%d/%d", w, i)), "grp": S(fmt.Sprintf("g/%d", w)), "pad": S(strings.Repeat("x", 100))}})
		return err
	}
	set := func(pk string) types.TransactWriteItem {
		return types.TransactWriteItem{Update: &types.Update{TableName: str("kill"), Key: item{"pk": S(pk)},
			UpdateExpression: str("SET n = :n"), ExpressionAttributeValues: item{":n": N(num)}}}
	}
	_, err := c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		set(fmt.Sprintf("a/%d", w)),
		set(fmt.Sprintf("b/%d", w)),
		{Put: &types.Put{TableName: str("kill"), Item: item{"pk": S(fmt.Sprintf("t/%d/%d", w, i))}}},
	}})
	return err
}

// verify checks what a freshly started server serves against the model.
func (m *killModel) verify(t *testing.T, c *dynamodb.Client, round int) {
	t.Helper()
	table := map[string]item{}
	var start item
	for {
		out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("kill"), ExclusiveStartKey: start, ConsistentRead: aws.Bool(true)})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			table[it["pk"].(*types.AttributeValueMemberS).Value] = it
		}
		if start = out.LastEvaluatedKey; start == nil {
			break
		}
	}
	for k := range m.puts {
		if table[k] == nil {
			t.Fatalf("round %d: acknowledged put %s is lost", round, k)
		}
	}
	n := func(pk string) int {
		it := table[pk]
		if it == nil {
			return 0
		}
		v, _ := strconv.Atoi(it["n"].(*types.AttributeValueMemberN).Value)
		return v
	}
	for w := range m.writer {
		mw := &m.writer[w]
		a, b := n(fmt.Sprintf("a/%d", w)), n(fmt.Sprintf("b/%d", w))
		if a != b || (a != 0 && table[fmt.Sprintf("t/%d/%d", w, a)] == nil) {
			t.Fatalf("round %d: writer %d's transaction applied in part: a.n=%d b.n=%d", round, w, a, b)
		}
		if a != mw.txAcked && a != mw.inFlight && a != mw.txDone {
			t.Fatalf("round %d: writer %d: n=%d, but the last transaction acknowledged is %d (in flight: %d)", round, w, a, mw.txAcked, mw.inFlight)
		}
		if a < mw.txAcked {
			t.Fatalf("round %d: writer %d: acknowledged transaction %d is lost (n=%d)", round, w, mw.txAcked, a)
		}
		mw.txDone = a
		// The GSI holds exactly the writer's puts that the table holds.
		var inTable int
		for k := range table {
			if strings.HasPrefix(k, fmt.Sprintf("p/%d/", w)) {
				inTable++
			}
		}
		out, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("kill"), IndexName: aws.String("byGroup"), Select: types.SelectCount,
			KeyConditionExpression: aws.String("grp = :g"), ExpressionAttributeValues: item{":g": S(fmt.Sprintf("g/%d", w))}})
		if err != nil {
			t.Fatal(err)
		}
		if int(out.Count) != inTable || out.LastEvaluatedKey != nil {
			t.Fatalf("round %d: writer %d: the GSI holds %d items, the table %d", round, w, out.Count, inTable)
		}
	}
	t.Logf("round %d: %d items, %d acknowledged puts, all present", round, len(table), len(m.puts))
}
