package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/schema"
)

func init() {
	Register(&Command{
		Name:    "create-table",
		Summary: "create a table from schemas in your module, or from flags",
		Example: "dynamo create-table --schema ./store.Orders --endpoint http://127.0.0.1:8000\n" +
			"dynamo create-table sessions --partition-key id --no-sort-key --dry-run > sessions.json\n" +
			"aws dynamodb create-table --cli-input-json file://sessions.json --region us-east-1",
		Usage: "--schema ./path/to/pkg.Type [--schema …] [flags]\n" +
			"       dynamo create-table NAME [--partition-key pk] [--sort-key sk | --no-sort-key] [--key-type S|N|B] [flags]",
		Help: `With --schema, the table is derived exactly as schema.CreateTableInput derives
it: key schema, typed attribute definitions, every GSI, LSI and vector index.
The value is ./dir.Name or import/path.Name, where Name is a package-level
variable of type *schema.Schema[T] (or *schema.Schema[T]), or a type T for
which the package declares exactly one such variable. The command runs inside
your module: it writes a small program into a temporary directory of the
module, runs it with the go command and removes it. Several --schema flags
describe one single table; they must agree on the table and its keys, and
their indexes are merged.

Without --schema, NAME and the key flags describe the table: partition key
"pk" and sort key "sk" of type S by default, on-demand billing.

The command waits until the table and its indexes are ACTIVE (progress on a
terminal) unless --no-wait, and prints "created table NAME (STATUS)".`,
		Flags: func() *flag.FlagSet { fs, _ := createTableFlags(); return fs },
		Run:   runCreateTable,
	})
}

type createTableOpts struct {
	aws         awsFlags
	output      outputFlag
	schemas     stringList
	pk, sk      string
	noSK        bool
	keyType     string
	billing     string
	read, write int64
	noWait      bool
	dryRun      bool
	timeout     time.Duration
	fs          *flag.FlagSet
}

type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

func createTableFlags() (*flag.FlagSet, *createTableOpts) {
	o := &createTableOpts{}
	fs := newFlagSet("create-table")
	o.fs = fs
	o.aws.register(fs)
	o.output.register(fs)
	fs.Var(&o.schemas, "schema", "schema to create the table from: ./dir.Name or import/path.Name (repeatable)")
	fs.StringVar(&o.pk, "partition-key", "pk", "partition key attribute name (without --schema)")
	fs.StringVar(&o.sk, "sort-key", "sk", "sort key attribute name (without --schema)")
	fs.BoolVar(&o.noSK, "no-sort-key", false, "create the table without a sort key (without --schema)")
	fs.StringVar(&o.keyType, "key-type", "S", "type of the key attributes: S, N or B (without --schema)")
	fs.StringVar(&o.billing, "billing-mode", "PAY_PER_REQUEST", "PAY_PER_REQUEST or PROVISIONED")
	fs.Int64Var(&o.read, "read-capacity", 5, "read capacity units with PROVISIONED (table and every GSI without its own)")
	fs.Int64Var(&o.write, "write-capacity", 5, "write capacity units with PROVISIONED (table and every GSI without its own)")
	fs.BoolVar(&o.noWait, "no-wait", false, "return once CreateTable is accepted, without waiting for ACTIVE")
	fs.BoolVar(&o.dryRun, "dry-run", false, "print the CreateTable request as JSON instead of sending it")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Minute, "how long to wait for ACTIVE")
	return fs, o
}

func runCreateTable(ctx context.Context, env *Env, args []string) error {
	fs, o := createTableFlags()
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	in, err := o.input(ctx, env, pos)
	if err != nil {
		return err
	}
	if o.dryRun {
		b, err := requestJSON(ctx, func(c *dynamodb.Client) error { _, err := c.CreateTable(ctx, in); return err })
		if err != nil {
			return err
		}
		_, err = env.Stdout.Write(b)
		return err
	}
	repo, err := o.aws.open(ctx)
	if err != nil {
		return err
	}
	desc, err := repo.CreateTable(ctx, in)
	if err != nil {
		return err
	}
	if !o.noWait {
		p := env.progress()
		desc, err = waitActive(ctx, repo, aws.ToString(in.TableName), o.timeout, p)
		p.done()
		if err != nil {
			return err
		}
	}
	if o.output == "json" {
		return writeJSON(env.Stdout, tableSummary(desc))
	}
	fmt.Fprintf(env.Stdout, "created table %s (%s)\n", aws.ToString(desc.TableName), desc.TableStatus)
	return nil
}

// tableJSON is the --output json view of a table.
type tableJSON struct {
	TableName   string
	TableStatus string
	TableArn    string `json:",omitempty"`
	ItemCount   *int64 `json:",omitempty"`
}

func tableSummary(t *types.TableDescription) tableJSON {
	return tableJSON{TableName: aws.ToString(t.TableName), TableStatus: string(t.TableStatus), TableArn: aws.ToString(t.TableArn), ItemCount: t.ItemCount}
}

// input builds the CreateTable request from the flags, checking them all
// before anything is loaded or sent.
func (o *createTableOpts) input(ctx context.Context, env *Env, pos []string) (*dynamodb.CreateTableInput, error) {
	billing := types.BillingMode(o.billing)
	switch billing {
	case types.BillingModePayPerRequest, types.BillingModeProvisioned:
	default:
		return nil, usagef("--billing-mode must be PAY_PER_REQUEST or PROVISIONED, not %q", o.billing)
	}
	for _, f := range []string{"read-capacity", "write-capacity"} {
		if isSet(o.fs, f) && billing != types.BillingModeProvisioned {
			return nil, usagef("--%s needs --billing-mode PROVISIONED", f)
		}
	}
	if o.read < 1 || o.write < 1 {
		return nil, usagef("--read-capacity and --write-capacity must be at least 1")
	}
	if o.timeout <= 0 {
		return nil, usagef("--timeout must be positive")
	}
	if len(o.schemas) > 0 {
		if len(pos) > 0 {
			return nil, usagef("give either NAME or --schema, not both (the schemas name the table)")
		}
		for _, f := range []string{"partition-key", "sort-key", "no-sort-key", "key-type"} {
			if isSet(o.fs, f) {
				return nil, usagef("--%s cannot be combined with --schema (the schemas define the keys)", f)
			}
		}
		p := env.progress()
		p.update("loading %s (go run in your module)…", strings.Join(o.schemas, ", "))
		in, err := loadSchemas(ctx, env, o.schemas)
		p.done()
		if err != nil {
			return nil, err
		}
		if billing == types.BillingModeProvisioned {
			if err := schema.Provision(in, o.read, o.write); err != nil {
				return nil, err
			}
		}
		return in, nil
	}
	switch {
	case len(pos) == 0:
		return nil, usagef("missing table NAME (or --schema)")
	case len(pos) > 1:
		return nil, usagef("unexpected argument %q", pos[1])
	}
	name := pos[0]
	keyType := types.ScalarAttributeType(o.keyType)
	switch keyType {
	case types.ScalarAttributeTypeS, types.ScalarAttributeTypeN, types.ScalarAttributeTypeB:
	default:
		return nil, usagef("--key-type must be S, N or B, not %q", o.keyType)
	}
	if o.noSK && isSet(o.fs, "sort-key") {
		return nil, usagef("--sort-key and --no-sort-key exclude each other")
	}
	if o.pk == "" || (!o.noSK && o.sk == "") {
		return nil, usagef("key attribute names must not be empty")
	}
	if !o.noSK && o.sk == o.pk {
		return nil, usagef("the partition key and the sort key must be different attributes (both %q)", o.pk)
	}
	in := &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		BillingMode:          billing,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String(o.pk), AttributeType: keyType}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String(o.pk), KeyType: types.KeyTypeHash}},
	}
	if !o.noSK {
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String(o.sk), AttributeType: keyType})
		in.KeySchema = append(in.KeySchema, types.KeySchemaElement{AttributeName: aws.String(o.sk), KeyType: types.KeyTypeRange})
	}
	if billing == types.BillingModeProvisioned {
		in.ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(o.read), WriteCapacityUnits: aws.Int64(o.write)}
	}
	return in, nil
}

// requestJSON returns the JSON body the SDK sends for the request that call
// makes, indented: the API's member names and nothing unset, which is what
// `aws dynamodb <operation> --cli-input-json` accepts. The SDK's serializer
// owns the format; nothing is sent.
func requestJSON(ctx context.Context, call func(*dynamodb.Client) error) ([]byte, error) {
	capture := &captureClient{}
	c := dynamodb.New(dynamodb.Options{
		Region:           localRegion,
		Credentials:      aws.AnonymousCredentials{},
		BaseEndpoint:     aws.String("http://dry-run.invalid"),
		HTTPClient:       capture,
		RetryMaxAttempts: 1,
	})
	err := call(c)
	if capture.body == nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, capture.body, "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// captureClient keeps the body of the request it is given and fails it.
type captureClient struct{ body []byte }

var errCaptured = errors.New("request captured, not sent")

func (c *captureClient) Do(r *http.Request) (*http.Response, error) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	c.body = b
	return nil, errCaptured
}
