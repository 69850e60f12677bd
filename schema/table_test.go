package schema_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/schema"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares the JSON of in (nulls and empty members dropped, for
// readable files) with testdata/name.json.
func golden(t *testing.T, name string, in *dynamodb.CreateTableInput) {
	t.Helper()
	raw, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	got, err := json.MarshalIndent(prune(v), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", name+".json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs (go test -update rewrites it)\n got:\n%s\nwant:\n%s", path, got, want)
	}
}

func prune(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			e = prune(e)
			switch e := e.(type) {
			case nil:
				continue
			case string:
				if e == "" {
					continue
				}
			case map[string]any:
				if len(e) == 0 {
					continue
				}
			case []any:
				if len(e) == 0 {
					continue
				}
			}
			out[k] = e
		}
		return out
	case []any:
		for i, e := range v {
			v[i] = prune(e)
		}
	}
	return v
}

type Doc struct {
	Tenant    string    `dynamo:"tenant,pk"`
	DocID     string    `dynamo:"doc_id,sk"`
	Title     string    `dynamo:"title"`
	Lang      string    `dynamo:"lang"`
	Year      int       `dynamo:"year"`
	Embedding []float32 `dynamo:"embedding,dim=3"`
}

type Invoice struct {
	UserID    string `dynamo:"user_id,pk"`
	Kind      string `dynamo:"kind,sk,default=invoice"`
	InvoiceID string `dynamo:"invoice_id,sk"`
	Status    string `dynamo:"status"`
	PlacedAt  string `dynamo:"placed_at"`
	Amount    int    `dynamo:"amount"`
}

func TestCreateTableInputGoldens(t *testing.T) {
	tests := []struct {
		name    string
		schemas []schema.Described
	}{
		{"order", []schema.Described{orders}},
		{"no_sort_key", []schema.Described{schema.Must[NoKey]("things", schema.PartitionKey("id"))}},
		{"raw_keys", []schema.Described{schema.Must[RawItem]("legacy", schema.RawKeys(),
			schema.GSI("ByCount", "count", "", schema.KeysOnly()))}},
		{"single_table", []schema.Described{
			users,
			userOrders,
			schema.Must[Invoice]("app", schema.EntityFrom(users),
				schema.GSI("StatusIndex", "status", "placed_at"),
				schema.GSI("ByAmount", "status", "amount", schema.Include("invoice_id", "user_id")),
				schema.LSI("ByStatus", "status", schema.KeysOnly())),
			schema.Must[Order]("app", schema.EntityName("order"), schema.SortKeyName("sk"),
				schema.GSI("StatusIndex", "status", "placed_at"),
				schema.GSI("Inverted", "sk", "pk", schema.KeysOnly())),
		}},
		{"vector", []schema.Described{schema.Must[Doc]("docs",
			schema.VectorIndex("Semantic", "embedding",
				schema.DotProduct(), schema.VectorPartition("tenant"), schema.InlineFilters("lang", "year"),
				schema.Include("title")),
			schema.VectorIndex("Plain", "embedding", schema.Dimensions(3), schema.KeysOnly()),
		)}},
		{"provisioned", []schema.Described{schema.Must[Invoice]("billing",
			schema.Provisioned(10, 5),
			schema.GSI("StatusIndex", "status", "placed_at"),
			schema.GSI("ByAmount", "status", "amount", schema.Throughput(2, 1)),
			schema.LSI("ByStatus", "status"),
		)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in, err := schema.CreateTableInput(tc.schemas...)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name, in)
		})
	}
}

func TestProvision(t *testing.T) {
	in, err := schema.CreateTableInput(orders)
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Provision(in, 7, 3); err != nil {
		t.Fatal(err)
	}
	golden(t, "order_provisioned", in)

	vec, _ := schema.CreateTableInput(schema.Must[Doc]("docs", schema.VectorIndex("Semantic", "embedding")))
	wantErr(t, schema.Provision(vec, 1, 1), "dynamo: schema: table docs has vector indexes, which need PAY_PER_REQUEST billing")
	wantErr(t, schema.Provision(in, 0, 1), "dynamo: schema: Provision(0, 1): capacity units must be at least 1")
}

type Emb struct {
	ID        string `dynamo:"id,pk"`
	Seq       string `dynamo:"seq,sk"`
	Embedding string `dynamo:"embedding"`
}

type Doc4 struct {
	Tenant    string    `dynamo:"tenant,pk"`
	DocID     string    `dynamo:"doc_id,sk"`
	Embedding []float32 `dynamo:"embedding,dim=4"`
}

func TestCreateTableInputErrors(t *testing.T) {
	type Other struct {
		ID     string `dynamo:"id,pk"`
		Seq    int    `dynamo:"seq,sk"`
		Status int    `dynamo:"status"`
	}
	type Short struct {
		ID string `dynamo:"id,pk"`
	}
	embedded, _ := schema.Embedded[Address]()
	var nilSchema *schema.Schema[Order]
	tests := []struct {
		name    string
		schemas []schema.Described
		want    string
	}{
		{"none", nil, "dynamo: schema: CreateTableInput needs at least one schema"},
		{"nil", []schema.Described{nilSchema}, "dynamo: schema: CreateTableInput: schema 1 is nil"},
		{"embedded", []schema.Described{embedded}, "dynamo: schema Address: an embedded schema has no table"},
		{"other table", []schema.Described{orders, schema.Must[Other]("other")},
			`dynamo: schema Other: table "other" differs from schema Order's table "app"`},
		{"key layout", []schema.Described{orders, schema.Must[Short]("app")},
			"dynamo: schema Short: key layout (pk S) differs from schema Order's (pk S, sk S)"},
		{"raw key layout", []schema.Described{orders, schema.Must[Other]("app", schema.RawKeys(), schema.PartitionKeyName("pk"), schema.SortKeyName("sk"))},
			"dynamo: schema Other: key layout (pk S, sk N) differs from schema Order's (pk S, sk S)"},
		{"conflicting index", []schema.Described{orders, schema.Must[Invoice]("app", schema.GSI("StatusIndex", "status", "amount"))},
			"dynamo: schema Invoice: index StatusIndex conflicts with the definition in schema Order"},
		{"attribute type", []schema.Described{orders, schema.Must[Other]("app", schema.GSI("ByStatus", "status", ""))},
			"dynamo: schema Other: field status: key attribute is N here but S in schema Order"},
		{"billing", []schema.Described{orders, schema.Must[Invoice]("app", schema.Provisioned(1, 1))},
			"dynamo: schema Order: on-demand, but schema Invoice is Provisioned; declare the same billing on every schema of a table"},
		{"throughput", []schema.Described{schema.Must[Invoice]("app", schema.Provisioned(1, 1)), schema.Must[UserOrder]("app", schema.Provisioned(2, 1))},
			"dynamo: schema UserOrder: Provisioned(2, 1) differs from schema Invoice's Provisioned(1, 1)"},
		{"vector attribute is a key elsewhere", []schema.Described{
			schema.Must[Emb]("docs", schema.GSI("ByEmbedding", "embedding", "")),
			schema.Must[Doc]("docs", schema.VectorIndex("Semantic", "embedding")),
		}, "dynamo: schema Emb: field embedding: the vector attribute of index Semantic is also a key or search attribute; DynamoDB rejects that"},
		{"dimensions disagree", []schema.Described{
			schema.Must[Doc]("docs", schema.VectorIndex("Semantic", "embedding")),
			schema.Must[Doc4]("docs", schema.EntityName("doc4"), schema.VectorIndex("Other", "embedding")),
		}, "dynamo: schema Doc4: field embedding: vector index Other has 4 dimensions, but schema Doc indexes the attribute with 3; DynamoDB needs them to agree"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := schema.CreateTableInput(tc.schemas...)
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			if err.Error() != tc.want {
				t.Fatalf("error\n got: %s\nwant: %s", err, tc.want)
			}
		})
	}
}

func TestCreateTableInputStream(t *testing.T) {
	type Other struct {
		ID string `dynamo:"id,pk"`
	}
	in, err := schema.CreateTableInput(
		schema.Must[Order]("app", schema.Stream(types.StreamViewTypeNewAndOldImages)),
		schema.Must[Invoice]("app"),
	)
	if err != nil {
		t.Fatal(err)
	}
	spec := in.StreamSpecification
	if spec == nil || !aws.ToBool(spec.StreamEnabled) || spec.StreamViewType != types.StreamViewTypeNewAndOldImages {
		t.Fatalf("StreamSpecification = %+v, want enabled NEW_AND_OLD_IMAGES", spec)
	}
	if in, _ := schema.CreateTableInput(schema.Must[Order]("app")); in.StreamSpecification != nil {
		t.Fatalf("no Stream option: StreamSpecification = %+v, want nil", in.StreamSpecification)
	}
	_, err = schema.CreateTableInput(
		schema.Must[Order]("app", schema.Stream(types.StreamViewTypeNewImage)),
		schema.Must[Invoice]("app", schema.Stream(types.StreamViewTypeKeysOnly)),
	)
	if want := "dynamo: schema Invoice: Stream(KEYS_ONLY) differs from schema Order's Stream(NEW_IMAGE)"; err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %s", err, want)
	}
	if _, err := schema.New[Other]("things", schema.Stream("NEW")); err == nil || !strings.Contains(err.Error(), `Stream("NEW"): the view type must be one of`) {
		t.Fatalf("bad view type: err = %v", err)
	}
	if _, err := schema.Embedded[Other](schema.Stream(types.StreamViewTypeNewImage)); err == nil {
		t.Fatal("Embedded accepted Stream")
	}
}

func TestCreateTableInputSettings(t *testing.T) {
	type Session struct {
		ID      string    `dynamo:"id,pk"`
		Expires time.Time `dynamo:"expires,unixtime"`
		Seen    time.Time `dynamo:"seen"`
		Hits    int       `dynamo:"hits"`
	}
	a := schema.Must[Session]("sessions", schema.TTL("expires"), schema.Tag("team", "auth"), schema.Tag("env", "prod"),
		schema.TableClass(types.TableClassStandardInfrequentAccess))
	b := schema.Must[Session]("sessions", schema.EntityName("other"), schema.TTL("expires"), schema.Tag("team", "auth"),
		schema.DeletionProtection())
	in, err := schema.CreateTableInput(a, b)
	if err != nil {
		t.Fatal(err)
	}
	var tags []string
	for _, tg := range in.Tags {
		tags = append(tags, aws.ToString(tg.Key)+"="+aws.ToString(tg.Value))
	}
	if got := strings.Join(tags, ","); got != "env=prod,team=auth" {
		t.Errorf("Tags = %s", got)
	}
	if !aws.ToBool(in.DeletionProtectionEnabled) || in.TableClass != types.TableClassStandardInfrequentAccess {
		t.Errorf("DeletionProtectionEnabled %v, TableClass %q", in.DeletionProtectionEnabled, in.TableClass)
	}
	if d := a.Describe(); d.TTL != "expires" || d.Tags["env"] != "prod" || d.DeletionProtection {
		t.Errorf("Describe: %+v", d)
	}
	if in, _ := schema.CreateTableInput(schema.Must[Session]("sessions")); in.Tags != nil || in.DeletionProtectionEnabled != nil || in.TableClass != "" {
		t.Errorf("no settings: %+v", in)
	}

	for _, tc := range []struct {
		opts []schema.Option
		want string
	}{
		{[]schema.Option{schema.TTL("nope")}, "field nope: TTL names no field"},
		{[]schema.Option{schema.TTL("seen")}, "field seen: TTL field is stored as S"},
		{[]schema.Option{schema.TTL("hits"), schema.TTL("expires")}, "TTL"},
		{[]schema.Option{schema.Tag("", "x")}, `Tag(""): the key must have 1 to 128 characters`},
		{[]schema.Option{schema.Tag("aws:x", "x")}, `Tag("aws:x"): the prefix aws: is reserved`},
		{[]schema.Option{schema.Tag("k", strings.Repeat("v", 257))}, `Tag("k"): the value has more than 256 characters`},
		{[]schema.Option{schema.Tag("k", "1"), schema.Tag("k", "2")}, `Tag("k") given twice`},
		{[]schema.Option{schema.TableClass("COLD")}, `TableClass("COLD"): must be one of`},
	} {
		if _, err := schema.New[Session]("sessions", tc.opts...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v", tc.want, err)
		}
	}
	if _, err := schema.New[Session]("sessions", schema.TTL("hits")); err != nil {
		t.Errorf("TTL on an int field: %v", err)
	}

	for _, tc := range []struct {
		other schema.Option
		want  string
	}{
		{schema.TTL("hits"), "dynamo: schema Session: TTL(hits) differs from schema Session's TTL(expires); a table has one TTL attribute"},
		{schema.Tag("team", "billing"), `dynamo: schema Session: Tag("team") differs from schema Session's`},
		{schema.TableClass(types.TableClassStandard), "dynamo: schema Session: TableClass(STANDARD) differs from schema Session's TableClass(STANDARD_INFREQUENT_ACCESS)"},
	} {
		_, err := schema.CreateTableInput(a, schema.Must[Session]("sessions", schema.EntityName("b"), tc.other))
		if err == nil || err.Error() != tc.want {
			t.Errorf("err = %v\nwant %s", err, tc.want)
		}
	}
	if _, err := schema.Embedded[Session](schema.Tag("k", "v")); err == nil {
		t.Error("Embedded accepted Tag")
	}
}
