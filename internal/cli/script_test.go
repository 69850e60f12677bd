package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/dynamogo/dynamo/codec/ddbjson"
	"github.com/dynamogo/dynamo/dynamotest"
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
