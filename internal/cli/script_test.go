package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/shopspring/decimal"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/codec"
	"github.com/dynamogo/dynamo/codec/ddbjson"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/internal/testdir"
	"github.com/dynamogo/dynamo/schema"
)

func TestMain(m *testing.M) {
	os.Exit(testscript.RunMain(m, map[string]func() int{
		"dynamo": func() int {
			return Main(os.Args[1:], &Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
				// Scripts play a user at a terminal with DYNAMO_TEST_TERMINAL=1.
				IsTerminal: func() bool { return os.Getenv("DYNAMO_TEST_TERMINAL") == "1" }})
		},
	}))
}

// TestScripts runs testdata/script/*.txtar: each script gets its own
// dynamotest server, reached through AWS_ENDPOINT_URL_DYNAMODB with dummy
// credentials, and the Go toolchain settings the scripts that compile Go
// code need (they are skipped with -short).
func TestScripts(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	goEnv := map[string]string{}
	if !testing.Short() {
		out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
		if err != nil {
			t.Fatal(err)
		}
		v := strings.Split(strings.TrimSpace(string(out)), "\n")
		goEnv = map[string]string{"GOCACHE": v[0], "GOMODCACHE": v[1], "GOPATH": v[2]}
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		// The same work directories on every run: the modules the scripts
		// compile stay in the go build cache (their work is kept until the
		// next run).
		WorkdirRoot: testdir.Stable(t, "dynamo-cli-scripts"),
		Setup: func(env *testscript.Env) error {
			srv := dynamotest.NewServer(env.T().(testing.TB))
			env.Values["server"] = srv
			for k, v := range map[string]string{
				"AWS_ENDPOINT_URL_DYNAMODB":   srv.URL,
				"URL":                         srv.URL,
				"AWS_ACCESS_KEY_ID":           "test",
				"AWS_SECRET_ACCESS_KEY":       "test",
				"AWS_REGION":                  "us-east-1",
				"AWS_EC2_METADATA_DISABLED":   "true",
				"AWS_CONFIG_FILE":             filepath.Join(env.WorkDir, ".aws-config"),
				"AWS_SHARED_CREDENTIALS_FILE": filepath.Join(env.WorkDir, ".aws-credentials"),
				"REPO":                        root,
				"GOFLAGS":                     "-mod=mod",
				"GOPROXY":                     "off",
				"GOSUMDB":                     "off",
				"GOTOOLCHAIN":                 "local",
			} {
				env.Setenv(k, v)
			}
			for k, v := range goEnv {
				env.Setenv(k, v)
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"putitems":  cmdPutItems,
			"tableinfo": cmdTableInfo,
			"mktables":  cmdMkTables,
			"gosum":     cmdGoSum,
			"expand":    cmdExpand,
			"seedshop":  cmdSeedShop,
			"setenv":    cmdSetenv,
			"pitr":      cmdPITR,
			"awsjson":   cmdAWSJSON,
		},
	})
}

func server(ts *testscript.TestScript) *dynamotest.Server {
	return ts.Value("server").(*dynamotest.Server)
}

// putitems TABLE FILE: writes the items of FILE, one DynamoDB JSON item per
// line, as another program (or this library) would have written them.
func cmdPutItems(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: putitems TABLE FILE")
	}
	c := server(ts).Client()
	for i, line := range strings.Split(ts.ReadFile(args[1]), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		item, err := ddbjson.UnmarshalItem([]byte(line))
		if err != nil {
			ts.Fatalf("%s:%d: %v", args[1], i+1, err)
		}
		_, err = c.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(args[0]), Item: item})
		ts.Check(err)
	}
}

// tableinfo TABLE: prints the table's key schema, attribute types, billing
// and indexes, one fact per line, sorted.
func cmdTableInfo(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: tableinfo TABLE")
	}
	out, err := server(ts).Client().DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(args[0])})
	if neg {
		if err == nil {
			ts.Fatalf("table %s exists", args[0])
		}
		return
	}
	ts.Check(err)
	t := out.Table
	var lines []string
	add := func(format string, a ...any) { lines = append(lines, fmt.Sprintf(format, a...)) }
	add("status %s", t.TableStatus)
	for _, k := range t.KeySchema {
		add("key %s %s", *k.AttributeName, k.KeyType)
	}
	for _, d := range t.AttributeDefinitions {
		add("attr %s %s", *d.AttributeName, d.AttributeType)
	}
	billing := types.BillingModeProvisioned
	if t.BillingModeSummary != nil {
		billing = t.BillingModeSummary.BillingMode
	}
	add("billing %s", billing)
	if p := t.ProvisionedThroughput; p != nil && aws.ToInt64(p.ReadCapacityUnits) > 0 {
		add("capacity %d %d", *p.ReadCapacityUnits, *p.WriteCapacityUnits)
	}
	keys := func(ks []types.KeySchemaElement) string {
		var s []string
		for _, k := range ks {
			s = append(s, *k.AttributeName+"/"+string(k.KeyType))
		}
		return strings.Join(s, " ")
	}
	for _, g := range t.GlobalSecondaryIndexes {
		add("gsi %s %s %s", *g.IndexName, keys(g.KeySchema), g.Projection.ProjectionType)
	}
	for _, l := range t.LocalSecondaryIndexes {
		add("lsi %s %s %s", *l.IndexName, keys(l.KeySchema), l.Projection.ProjectionType)
	}
	for _, v := range t.VectorIndexes {
		add("vector %s %s %d %s", *v.IndexName, *v.VectorAttribute.AttributeName, aws.ToInt64(v.Dimensions), v.DistanceFunction)
	}
	sort.Strings(lines)
	ts.Stdout().Write([]byte(strings.Join(lines, "\n") + "\n"))
}

// mktables PREFIX N: creates N small tables (pagination tests).
func cmdMkTables(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: mktables PREFIX N")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	c := server(ts).Client()
	for i := range n {
		_, err := c.CreateTable(context.Background(), &dynamodb.CreateTableInput{
			TableName:            aws.String(fmt.Sprintf("%s%03d", args[0], i)),
			BillingMode:          types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		})
		ts.Check(err)
	}
}

// gosum DIR: copies this module's go.sum into DIR, so that a test module
// that replaces github.com/dynamogo/dynamo with this checkout resolves its
// dependencies from the module cache without a network.
func cmdGoSum(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: gosum DIR")
	}
	b, err := os.ReadFile(filepath.Join(ts.Getenv("REPO"), "go.sum"))
	ts.Check(err)
	ts.Check(os.WriteFile(filepath.Join(ts.MkAbs(args[0]), "go.sum"), bytes.Clone(b), 0o644))
}

// expand SRC DST: writes SRC with $VARs of the script's environment
// expanded (txtar files are written verbatim).
func cmdExpand(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: expand SRC DST")
	}
	s := os.Expand(ts.ReadFile(args[0]), ts.Getenv)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(s), 0o644))
}

// awsjson OPERATION FILE: sends FILE as the JSON body of OPERATION, as
// `aws dynamodb <operation> --cli-input-json file://FILE` would after
// checking its member names, and fails unless the server accepts it.
func cmdAWSJSON(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: awsjson OPERATION FILE")
	}
	req, err := http.NewRequest(http.MethodPost, server(ts).URL, strings.NewReader(ts.ReadFile(args[1])))
	ts.Check(err)
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+args[0])
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	resp, err := http.DefaultClient.Do(req)
	ts.Check(err)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if (resp.StatusCode == http.StatusOK) == neg {
		ts.Fatalf("%s: HTTP %d: %s", args[0], resp.StatusCode, body)
	}
}

// The items of seedshop: a single table holding three entities, one of
// them in two shapes, written by this library as an application would.
type (
	shopOrder struct {
		UserID   string            `dynamo:"user_id,pk"`
		PlacedAt time.Time         `dynamo:"placed_at,sk,precision=s"`
		OrderID  string            `dynamo:"order_id,sk"`
		Total    decimal.Decimal   `dynamo:"total"`
		Status   string            `dynamo:"status,default=pending"`
		Tags     codec.Set[string] `dynamo:"tags"`
		Version  int               `dynamo:"version"`
		Note     *string           `dynamo:"note"`
	}
	shopUser struct {
		UserID string         `dynamo:"user_id,pk"`
		Kind   string         `dynamo:"kind,sk,default=profile"`
		Name   string         `dynamo:"name"`
		Prefs  map[string]any `dynamo:"prefs"`
		Active bool           `dynamo:"active"`
	}
	shopAddress struct {
		UserID    string `dynamo:"user_id,pk"`
		Kind      string `dynamo:"kind,sk,default=address"`
		AddressID string `dynamo:"address_id,sk"`
		Lines     []any  `dynamo:"lines"`
		Avatar    []byte `dynamo:"avatar"`
	}
	shopEvent struct {
		DeviceID string             `dynamo:"device_id,pk"`
		At       time.Time          `dynamo:"at,sk,precision=ms"`
		Seq      int64              `dynamo:"seq,sk"`
		Readings codec.Set[float64] `dynamo:"readings"`
		Counts   codec.Set[int]     `dynamo:"counts"`
	}
)

var (
	shopOrders    = schema.Must[shopOrder]("shop", schema.EntityName("order"), schema.GSI("StatusIndex", "status", "placed_at", schema.KeysOnly()))
	shopUsers     = schema.Must[shopUser]("shop", schema.EntityName("user"))
	shopAddresses = schema.Must[shopAddress]("shop", schema.EntityFrom(shopUsers))
	shopEvents    = schema.Must[shopEvent]("shop", schema.EntityName("event"), schema.PrefixSortKey())
)

// seedshop TABLE: creates the single table "shop" and writes its items.
func cmdSeedShop(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: seedshop")
	}
	ctx := context.Background()
	srv := server(ts)
	in, err := schema.CreateTableInput(shopOrders, shopUsers, shopAddresses, shopEvents)
	ts.Check(err)
	_, err = srv.Client().CreateTable(ctx, in)
	ts.Check(err)
	repo, err := dynamo.FromClient(srv.Client())
	ts.Check(err)
	day := time.Date(2024, 6, 1, 10, 0, 0, 0, time.UTC)
	note := "leave at the door"
	var ops []dynamo.WriteOp
	for i, o := range []shopOrder{
		{UserID: "u1", PlacedAt: day, OrderID: "o1", Total: decimal.RequireFromString("19.99"), Tags: codec.NewSet("gift", "red"), Version: 2},
		{UserID: "u1", PlacedAt: day.Add(time.Hour), OrderID: "o2", Total: decimal.RequireFromString("5"), Status: "paid", Note: &note},
		{UserID: "u2", PlacedAt: day.Add(2 * time.Hour), OrderID: "o3", Total: decimal.RequireFromString("0.5"), Version: 1},
	} {
		_ = i
		ops = append(ops, dynamo.Bind(repo, shopOrders).PutOp(o))
	}
	ops = append(ops,
		dynamo.Bind(repo, shopUsers).PutOp(shopUser{UserID: "u1", Name: "Ada", Prefs: map[string]any{"lang": "en", "n": 3}, Active: true}),
		dynamo.Bind(repo, shopUsers).PutOp(shopUser{UserID: "u2", Name: "Grace"}),
		dynamo.Bind(repo, shopAddresses).PutOp(shopAddress{UserID: "u1", AddressID: "home", Lines: []any{"1 Main St", "Springfield"}, Avatar: []byte{1, 2, 3}}),
		dynamo.Bind(repo, shopAddresses).PutOp(shopAddress{UserID: "u1", AddressID: "work", Lines: []any{"2 Side St"}}),
		dynamo.Bind(repo, shopEvents).PutOp(shopEvent{DeviceID: "d1", At: day.Add(1500 * time.Millisecond), Seq: 7, Readings: codec.NewSet(1.5, 2.25), Counts: codec.NewSet(1, 2)}),
		dynamo.Bind(repo, shopEvents).PutOp(shopEvent{DeviceID: "d1", At: day.Add(2 * time.Second), Seq: 8}),
	)
	res, err := repo.BatchWrite(ctx, ops)
	ts.Check(err)
	if len(res.Unprocessed) > 0 {
		ts.Fatalf("unprocessed writes: %v", res.Unprocessed)
	}
}

// setenv VAR: sets VAR to the previous command's stdout, trimmed (a backup
// ARN for the next command).
func cmdSetenv(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: setenv VAR")
	}
	ts.Setenv(args[0], strings.TrimSpace(ts.ReadFile("stdout")))
}

// pitr TABLE: enables point-in-time recovery of the table.
func cmdPITR(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: pitr TABLE")
	}
	_, err := server(ts).Client().UpdateContinuousBackups(context.Background(), &dynamodb.UpdateContinuousBackupsInput{
		TableName:                        aws.String(args[0]),
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)},
	})
	ts.Check(err)
}
