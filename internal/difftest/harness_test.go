package difftest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/dynamogo/dynamo/dynamotest"
)

// endpointEnv names the DynamoDB Local endpoint; the tier is skipped without it.
const endpointEnv = "DYNAMO_DIFF_ENDPOINT"

// req is one DynamoDB request: an action and its raw JSON body (sent as is,
// so malformed bodies can be tested too).
type req struct {
	op   string
	body string
	// setup: compare only the status and error, not the body (the shared
	// tables' CreateTable; the create cases compare the description in full).
	setup bool
}

// dcase is one differential case: a sequence of requests run against a fresh
// database on both servers; every response is compared.
type dcase struct {
	name  string
	steps []req
	// The verdict on a difference, filled in from the marks table
	// (marks_test.go), where each one is argued. A marked case must differ;
	// when it starts to match, the mark has to go.
	known, localDev, unsettled string
	// tableClass: keep TableClassSummary in the comparison. Elsewhere it is
	// dropped: ours reports it where the service does not (marks:
	// create/ok-hash), and that one difference would mask every other in a
	// table description.
	tableClass bool
	// unordered: the order of Items is unspecified (a GSI without a sort key).
	unordered bool
	// typeOnly: compare status and __type but not the message, where the text is
	// the parser's own (JSON syntax errors) and the service's is not documented.
	typeOnly bool
}

func r(op, body string) req { return req{op: op, body: body} }

// reply is a normalised response.
type reply struct {
	Status int
	Type   string
	Msg    string
	Body   any
}

func (p reply) String() string {
	b, _ := json.Marshal(p.Body)
	if p.Type != "" {
		return fmt.Sprintf("%d %s: %s", p.Status, p.Type, p.Msg)
	}
	return fmt.Sprintf("%d %s", p.Status, b)
}

// target is one server under test.
type target struct {
	name     string
	endpoint string
	client   *http.Client
	access   string // DynamoDB Local keeps one database per access key and region
}

func (tg *target) do(t *testing.T, q req) reply {
	t.Helper()
	hreq, err := http.NewRequest(http.MethodPost, tg.endpoint+"/", strings.NewReader(q.body))
	if err != nil {
		t.Fatal(err)
	}
	hreq.Header.Set("Content-Type", "application/x-amz-json-1.0")
	hreq.Header.Set("X-Amz-Target", "DynamoDB_20120810."+q.op)
	sum := sha256.Sum256([]byte(q.body))
	creds := aws.Credentials{AccessKeyID: tg.access, SecretAccessKey: "difftest"}
	if err := v4.NewSigner().SignHTTP(context.Background(), creds, hreq, hex.EncodeToString(sum[:]), "dynamodb", "us-east-1", time.Now()); err != nil {
		t.Fatal(err)
	}
	resp, err := tg.client.Do(hreq)
	if err != nil {
		t.Fatalf("%s %s: %v", tg.name, q.op, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading body: %v", tg.name, q.op, err)
	}
	p := normalise(resp.StatusCode, raw)
	if q.op == "Scan" || q.op == "BatchGetItem" {
		sortItems(p.Body) // scan and batch-get order is unspecified
	}
	return p
}

// sortItems orders every "Items" array, and each table's array under
// "Responses", by their JSON text.
func sortItems(v any) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	if items, ok := m["Items"].([]any); ok {
		sortByJSON(items)
	}
	if resp, ok := m["Responses"].(map[string]any); ok {
		for _, items := range resp {
			if l, ok := items.([]any); ok {
				sortByJSON(l)
			}
		}
	}
}

func sortByJSON(l []any) {
	key := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	sort.SliceStable(l, func(i, j int) bool { return key(l[i]) < key(l[j]) })
}

var (
	arnRE = regexp.MustCompile(`^arn:aws:dynamodb:[^:]*:[^:]*:`)
	// Timestamps and identities that legitimately differ between servers.
	dropKeys = map[string]bool{
		"TableId": true, "CreationDateTime": true, "LastUpdateToDateTime": true,
		"LastIncreaseDateTime": true, "LastDecreaseDateTime": true,
		"LatestStreamLabel": true, "LatestStreamArn": true, "LastUpdateToPayPerRequestDateTime": true,
	}
)

func normalise(status int, raw []byte) reply {
	p := reply{Status: status}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		p.Body = "non-JSON body: " + string(raw)
		return p
	}
	if m, ok := v.(map[string]any); ok && status >= 300 {
		typ, _ := m["__type"].(string)
		msg, _ := m["message"].(string)
		if msg == "" {
			msg, _ = m["Message"].(string)
		}
		p.Type, p.Msg = typ, msg
		delete(m, "__type")
		delete(m, "message")
		delete(m, "Message")
	}
	p.Body = clean(v)
	return p
}

func clean(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for _, set := range []string{"SS", "NS", "BS"} { // set order is unspecified
			if l, ok := x[set].([]any); ok && len(x) == 1 {
				sortByJSON(l)
			}
		}
		for _, idx := range []string{"GlobalSecondaryIndexes", "LocalSecondaryIndexes"} { // order unspecified
			if l, ok := x[idx].([]any); ok {
				sort.SliceStable(l, func(i, j int) bool { return indexName(l[i]) < indexName(l[j]) })
			}
		}
		for k, e := range x {
			if dropKeys[k] {
				delete(x, k)
				continue
			}
			x[k] = clean(e)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = clean(e)
		}
		return x
	case json.Number: // 1.0 and 1 are the same JSON number
		if f, err := x.Float64(); err == nil {
			return f
		}
		return x
	case string:
		return arnRE.ReplaceAllString(x, "arn:aws:dynamodb:REGION:ACCOUNT:")
	}
	return v
}

func dropTableClass(v any) {
	m, _ := v.(map[string]any)
	for _, k := range []string{"Table", "TableDescription"} {
		if d, ok := m[k].(map[string]any); ok {
			delete(d, "TableClassSummary")
		}
	}
}

func indexName(v any) string {
	m, _ := v.(map[string]any)
	s, _ := m["IndexName"].(string)
	return s
}

func equal(a, b reply, typeOnly bool) bool {
	if a.Status != b.Status || a.Type != b.Type {
		return false
	}
	if a.Type != "" && typeOnly {
		return true
	}
	if a.Msg != b.Msg {
		return false
	}
	ja, _ := json.Marshal(a.Body)
	jb, _ := json.Marshal(b.Body)
	return bytes.Equal(ja, jb)
}

// diffText describes where two replies differ, for the test log: the error
// lines, or the JSON paths whose values differ.
func diffText(local, ours reply) string {
	if local.Status != ours.Status || local.Type != ours.Type || local.Msg != ours.Msg {
		return fmt.Sprintf("\n  ddb-local: %s\n  ours:      %s", local, ours)
	}
	fa, fb := map[string]string{}, map[string]string{}
	flatten("", local.Body, fa)
	flatten("", ours.Body, fb)
	var lines []string
	for k, va := range fa {
		if vb, ok := fb[k]; !ok {
			lines = append(lines, fmt.Sprintf("  %s: ddb-local %s, ours absent", k, va))
		} else if va != vb {
			lines = append(lines, fmt.Sprintf("  %s: ddb-local %s, ours %s", k, va, vb))
		}
	}
	for k, vb := range fb {
		if _, ok := fa[k]; !ok {
			lines = append(lines, fmt.Sprintf("  %s: ddb-local absent, ours %s", k, vb))
		}
	}
	sort.Strings(lines)
	return "\n" + strings.Join(lines, "\n")
}

func flatten(path string, v any, out map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			out[path] = "{}"
		}
		for k, e := range x {
			flatten(path+"."+k, e, out)
		}
	case []any:
		if len(x) == 0 {
			out[path] = "[]"
		}
		for i, e := range x {
			flatten(fmt.Sprintf("%s[%d]", path, i), e, out)
		}
	default:
		b, _ := json.Marshal(x)
		out[path] = string(b)
	}
}

// run executes every case against DynamoDB Local and a fresh dynamotest
// server, and checks the known/localDev marks.
func run(t *testing.T, cases []dcase) {
	endpoint := os.Getenv(endpointEnv)
	if endpoint == "" {
		t.Skipf("%s not set: run scripts/difftest.sh", endpointEnv)
	}
	checkLoopback(t, endpoint)
	seen := map[string]bool{}
	for i, c := range cases {
		if seen[c.name] {
			t.Fatalf("duplicate case name %q", c.name)
		}
		seen[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			srv := dynamotest.NewServer(t)
			access := fmt.Sprintf("difftest%d%d", time.Now().UnixNano()%1e9, i)
			local := &target{name: "ddb-local", endpoint: endpoint, client: defaultHTTP, access: access}
			ours := &target{name: "ours", endpoint: srv.URL, client: defaultHTTP, access: access}
			t.Cleanup(func() { dropTables(t, local) })
			var diffs []string
			for si, q := range c.steps {
				a, b := local.do(t, q), ours.do(t, q)
				if !c.tableClass {
					dropTableClass(a.Body)
					dropTableClass(b.Body)
				}
				if c.unordered {
					sortItems(a.Body)
					sortItems(b.Body)
				}
				if q.setup && a.Status == b.Status && a.Type == b.Type && a.Msg == b.Msg {
					continue
				}
				if !equal(a, b, c.typeOnly) {
					diffs = append(diffs, fmt.Sprintf("step %d %s %s%s", si, q.op, clip(q.body), diffText(a, b)))
				}
			}
			if m, ok := marks[c.name]; ok {
				c.known, c.localDev, c.unsettled = m.known, m.localDev, m.unsettled
			}
			mark, kind := c.known, "KNOWN (ours deviates)"
			switch {
			case mark == "" && c.localDev != "":
				mark, kind = c.localDev, "DDB-LOCAL DEVIATION"
			case mark == "" && c.unsettled != "":
				mark, kind = c.unsettled, "UNSETTLED"
			}
			switch {
			case mark == "" && len(diffs) > 0:
				t.Errorf("responses differ:\n%s", strings.Join(diffs, "\n"))
			case mark != "" && len(diffs) == 0:
				t.Errorf("marked as a difference (%s) but both servers now agree: remove the mark", mark)
			case mark != "":
				t.Logf("%s: %s\n%s", kind, mark, strings.Join(diffs, "\n"))
			}
		})
	}
}

// defaultHTTP is the client for raw requests; no proxy, so the request goes
// to the loopback endpoint itself.
var defaultHTTP = &http.Client{Transport: &http.Transport{Proxy: nil}, Timeout: time.Minute}

// checkLoopback refuses any endpoint that is not on the loopback device: the
// tier never sends traffic anywhere else.
func checkLoopback(t *testing.T, endpoint string) {
	t.Helper()
	u, err := url.Parse(endpoint)
	if err != nil || (u.Hostname() != "127.0.0.1" && u.Hostname() != "localhost" && u.Hostname() != "::1") {
		t.Fatalf("%s=%q: only a loopback endpoint is allowed", endpointEnv, endpoint)
	}
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// dropTables frees DynamoDB Local's per-case database.
func dropTables(t *testing.T, tg *target) {
	p := tg.do(t, r("ListTables", `{}`))
	m, _ := p.Body.(map[string]any)
	names, _ := m["TableNames"].([]any)
	var list []string
	for _, n := range names {
		if s, ok := n.(string); ok {
			list = append(list, s)
		}
	}
	sort.Strings(list)
	for _, n := range list {
		b, _ := json.Marshal(map[string]string{"TableName": n})
		tg.do(t, r("DeleteTable", string(b)))
	}
}
