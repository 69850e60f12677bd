package local_test

import (
	"bytes"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dynamogo/dynamo/local"
	"github.com/dynamogo/dynamo/local/storage/disk"
)

// ceilingChildEnv makes the test binary one side of BenchmarkCeiling or
// BenchmarkDurablePut, in its own process so that its CPU time is its own:
// a server ("server"), the no-op endpoint ("ceiling"), or a server on a
// durable engine in the directory named after a colon ("durable:DIR").
const ceilingChildEnv = "DYNAMO_BENCH_CEILING_CHILD"

// BenchmarkCeiling measures the server's CPU per request over real HTTP
// against a ceiling: an endpoint on the same net/http server
// (NewHTTPServer, DefaultHTTPLimits) that reads each request and answers
// it with the bytes and headers the server gave the same action, doing no
// other work. Each runs in a child process, loaded in turn, in blocks of
// 1,000 requests, by 8 workers sending hand-built requests (as the SDK
// would, without its CPU), and is charged the CPU time its process used
// during its own blocks (/proc, so Linux only). x-ceiling is the server's
// CPU per request over the ceiling's: what the server's own work costs on
// top of HTTP. Items are ~116 bytes: 10,000 under "pk", and 1,000
// partitions of 10 for the Query.
func BenchmarkCeiling(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("reads the children's CPU time from /proc")
	}
	srv, ceil := startCeilingChild(b, "server"), startCeilingChild(b, "ceiling")
	prefillCeiling(b, srv)
	for _, op := range ceilingOps {
		b.Run(op.name, func(b *testing.B) {
			// The ceiling answers what the server answered this action.
			resp := srv.mustPost(b, op.action, op.body(rand.New(rand.NewPCG(1, 1)), 0))
			ceil.mustPost(b, "Set."+op.action, string(resp))
			cpu, _ := takeTurns(b, [2]*ceilingChild{srv, ceil}, op, nil)
			us := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(b.N) }
			b.ReportMetric(us(cpu[0]), "server-us/op")
			b.ReportMetric(us(cpu[1]), "ceiling-us/op")
			b.ReportMetric(float64(cpu[0])/float64(cpu[1]), "x-ceiling")
		})
	}
}

// takeTurns sends b.N requests of op to each side, in turns of blocks of
// 1,000, calling between (if not nil) after each turn, with the timer
// stopped; it returns the CPU time each side's process used during its
// own blocks, and how long its blocks took.
func takeTurns(b *testing.B, sides [2]*ceilingChild, op ceilingOp, between func()) (cpu, took [2]time.Duration) {
	const block = 1000
	b.ResetTimer()
	for done := 0; done < b.N; done += block {
		n := min(block, b.N-done)
		for i, c := range sides {
			before := c.cpu(b)
			took[i] += c.load(b, op, n, done)
			cpu[i] += c.cpu(b) - before
		}
		if between != nil {
			b.StopTimer()
			between()
			b.StartTimer()
		}
	}
	return cpu, took
}

// TestCeilingChild is the child process of BenchmarkCeiling, and does
// nothing in a test run.
func TestCeilingChild(t *testing.T) {
	role := os.Getenv(ceilingChildEnv)
	if role == "" {
		return
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var h http.Handler = &ceilingHandler{canned: map[string][]byte{}}
	if role != "ceiling" {
		opts := []local.Option{local.WithHostCheck(ln.Addr())}
		if dir, ok := strings.CutPrefix(role, "durable:"); ok {
			eng, err := disk.Open(dir)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(2)
			}
			opts = append(opts, local.WithEngine(eng))
		}
		srv, err := local.New(opts...)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		h = srv
	}
	go func() {
		io.Copy(io.Discard, os.Stdin) // the parent is gone
		os.Exit(3)
	}()
	hs, hln := local.NewHTTPServer(h, ln, local.DefaultHTTPLimits())
	fmt.Printf("listening on http://%s\n", ln.Addr())
	hs.Serve(hln)
	os.Exit(4)
}

// ceilingHandler answers an action with the body set for it by a call to
// the action "Set.<action>", with the headers the server sends.
type ceilingHandler struct {
	mu     sync.RWMutex
	canned map[string][]byte
}

func (h *ceilingHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	action := strings.TrimPrefix(r.Header.Get("X-Amz-Target"), "DynamoDB_20120810.")
	if set, ok := strings.CutPrefix(action, "Set."); ok {
		h.mu.Lock()
		h.canned[set] = body
		h.mu.Unlock()
		body = []byte("{}")
	} else {
		h.mu.RLock()
		body = h.canned[action]
		h.mu.RUnlock()
	}
	hd := w.Header()
	hd["Content-Type"] = []string{"application/x-amz-json-1.0"}
	hd["X-Amzn-Requestid"] = []string{"CEILING0000000000000000000000000000000000000000000000"}
	hd["X-Amz-Crc32"] = []string{strconv.FormatUint(uint64(crc32.ChecksumIEEE(body)), 10)}
	hd["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.Write(body)
}

type ceilingChild struct {
	cmd    *exec.Cmd
	url    string
	client *http.Client
}

func startCeilingChild(b *testing.B, role string) *ceilingChild {
	b.Helper()
	cmd, url, _ := startChild(b, "TestCeilingChild", ceilingChildEnv+"="+role)
	return &ceilingChild{cmd: cmd, url: url,
		client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * ceilingWorkers}}}
}

const ceilingWorkers = 8

// cpu is the child's user and system CPU time so far.
func (c *ceilingChild) cpu(b *testing.B) time.Duration {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", c.cmd.Process.Pid))
	if err != nil {
		b.Fatal(err)
	}
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+2:]))
	user, _ := strconv.ParseInt(f[11], 10, 64)
	sys, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(user+sys) * time.Second / 100 // in clock ticks of 1/100 s
}

// post sends one request and returns the answer's body, or an error for
// any answer but 200.
func (c *ceilingChild) post(action, body string) ([]byte, error) {
	req, _ := http.NewRequest("POST", c.url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+action)
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("%s: status %d: %s", action, resp.StatusCode, out)
	}
	return out, err
}

func (c *ceilingChild) mustPost(b *testing.B, action, body string) []byte {
	out, err := c.post(action, body)
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// load sends n requests of op from ceilingWorkers workers, and returns
// how long they took; seq numbers them, so each block writes new values.
func (c *ceilingChild) load(b *testing.B, op ceilingOp, n, seq int) time.Duration {
	start := time.Now()
	var wg sync.WaitGroup
	for w := range ceilingWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(seq), uint64(w)))
			for i := w; i < n; i += ceilingWorkers {
				if _, err := c.post(op.action, op.body(r, seq+i)); err != nil {
					b.Error(err) // FailNow only on the benchmark's goroutine
					return
				}
			}
		}()
	}
	wg.Wait()
	if b.Failed() {
		b.FailNow()
	}
	return time.Since(start)
}

type ceilingOp struct {
	name, action string
	body         func(r *rand.Rand, seq int) string
}

const ceilingItems = 10000

func ceilingKey(r *rand.Rand) string { return fmt.Sprintf("k%07d", r.IntN(ceilingItems)) }

// distinctKeys is n different keys: a batch may not name one twice.
func distinctKeys(r *rand.Rand, n int) []string {
	keys := make([]string, 0, n)
	for len(keys) < n {
		if k := ceilingKey(r); !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

func ceilingItem(pk string, seq int) string {
	return `{"pk":{"S":"` + pk + `"},"v":{"S":"` + payload + `"},"n":{"N":"` + strconv.Itoa(seq) + `"}}`
}

var ceilingOps = []ceilingOp{
	{"PutItem", "PutItem", func(r *rand.Rand, seq int) string {
		return `{"TableName":"items","Item":` + ceilingItem(ceilingKey(r), seq) + `}`
	}},
	{"GetItem", "GetItem", func(r *rand.Rand, _ int) string {
		return `{"TableName":"items","Key":{"pk":{"S":"` + ceilingKey(r) + `"}}}`
	}},
	{"UpdateItem", "UpdateItem", func(r *rand.Rand, _ int) string {
		return `{"TableName":"items","Key":{"pk":{"S":"` + ceilingKey(r) + `"}},"UpdateExpression":"ADD #n :one","ExpressionAttributeNames":{"#n":"n"},"ExpressionAttributeValues":{":one":{"N":"1"}},"ReturnValues":"UPDATED_NEW"}`
	}},
	{"DeleteItem", "DeleteItem", func(r *rand.Rand, _ int) string {
		return `{"TableName":"items","Key":{"pk":{"S":"` + ceilingKey(r) + `"}}}`
	}},
	{"Query10", "Query", func(r *rand.Rand, _ int) string {
		return `{"TableName":"parts","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"p` + strconv.Itoa(r.IntN(1000)) + `"}}}`
	}},
	{"BatchWriteItem25", "BatchWriteItem", func(r *rand.Rand, seq int) string {
		var s strings.Builder
		s.WriteString(`{"RequestItems":{"items":[`)
		for i, k := range distinctKeys(r, 25) {
			if i > 0 {
				s.WriteByte(',')
			}
			s.WriteString(`{"PutRequest":{"Item":` + ceilingItem(k, seq) + `}}`)
		}
		s.WriteString(`]}}`)
		return s.String()
	}},
	{"BatchGetItem25", "BatchGetItem", func(r *rand.Rand, _ int) string {
		var s strings.Builder
		s.WriteString(`{"RequestItems":{"items":{"Keys":[`)
		for i, k := range distinctKeys(r, 25) {
			if i > 0 {
				s.WriteByte(',')
			}
			s.WriteString(`{"pk":{"S":"` + k + `"}}`)
		}
		s.WriteString(`]}}}`)
		return s.String()
	}},
}

// prefillCeiling makes the server's tables: "items" (pk) with every key
// the requests name, "parts" (pk, sk) with 1,000 partitions of 10.
func prefillCeiling(b *testing.B, c *ceilingChild) {
	c.mustPost(b, "CreateTable", `{"TableName":"items","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`)
	c.mustPost(b, "CreateTable", `{"TableName":"parts","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"BillingMode":"PAY_PER_REQUEST"}`)
	var items, parts []string
	for i := range ceilingItems {
		items = append(items, ceilingItem(fmt.Sprintf("k%07d", i), i))
	}
	for p := range 1000 {
		for i := range 10 {
			parts = append(parts, fmt.Sprintf(`{"pk":{"S":"p%d"},"sk":{"S":"s%02d"},"v":{"S":"%s"},"n":{"N":"%d"}}`, p, i, payload, i))
		}
	}
	for table, all := range map[string][]string{"items": items, "parts": parts} {
		for len(all) > 0 {
			n := min(25, len(all))
			puts := make([]string, n)
			for i, item := range all[:n] {
				puts[i] = `{"PutRequest":{"Item":` + item + `}}`
			}
			c.mustPost(b, "BatchWriteItem", `{"RequestItems":{"`+table+`":[`+strings.Join(puts, ",")+`]}}`)
			all = all[n:]
		}
	}
}
