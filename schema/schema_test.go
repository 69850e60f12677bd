package schema_test

import (
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/dynamogo/dynamo/codec"
	"github.com/dynamogo/dynamo/schema"
)

// Order is the running example: one user's orders.
type Order struct {
	UserID   string            `dynamo:"user_id,pk"`
	PlacedAt time.Time         `dynamo:"placed_at,sk,precision=s"`
	OrderID  string            `dynamo:"order_id,sk"`
	Total    decimal.Decimal   `dynamo:"total"`
	Status   string            `dynamo:"status,default=pending"`
	Tags     codec.Set[string] `dynamo:"tags"`
	Version  int               `dynamo:"version"`
}

var orders = schema.Must[Order]("app",
	schema.EntityName("order"),
	schema.GSI("StatusIndex", "status", "placed_at"),
)

// Plain has no key flags: tests give the keys as options.
type Plain struct {
	ID    string            `dynamo:"id"`
	Name  string            `dynamo:"name"`
	N     int               `dynamo:"n"`
	Flag  bool              `dynamo:"flag"`
	Blob  []byte            `dynamo:"blob"`
	Tags  codec.Set[string] `dynamo:"tags"`
	Nums  codec.Set[int]    `dynamo:"nums"`
	Meta  map[string]string `dynamo:"meta"`
	List  []string          `dynamo:"list"`
	Vec   []float32         `dynamo:"vec,dim=3"`
	Other []float64         `dynamo:"other"`
}

type NoKey struct {
	ID string `dynamo:"id"`
}

type TwoPK struct {
	A string `dynamo:"a,pk"`
	B string `dynamo:"b,pk"`
	C string `dynamo:"c,sk"`
	D string `dynamo:"d,sk"`
}

type PKNamed struct {
	ID string `dynamo:"id,pk"`
	PK string `dynamo:"pk"`
}

type BothFlags struct {
	ID string `dynamo:"id,pk,sk"`
}

type Address struct {
	Street string `dynamo:"street"`
	City   string `dynamo:"city"`
}

type KeyedAddress struct {
	Street string `dynamo:"street,pk"`
}

type SepDefault struct {
	ID   string `dynamo:"id,pk"`
	Kind string `dynamo:"kind,sk,default=a#b"`
}

type HTTPLog struct {
	ID string `dynamo:"id,pk"`
}

type UserProfile struct {
	ID string `dynamo:"id,pk"`
}

func plain(opts ...schema.Option) error {
	_, err := schema.New[Plain]("app", append([]schema.Option{schema.PartitionKey("id")}, opts...)...)
	return err
}

func TestDefinitionErrors(t *testing.T) {
	tests := []struct {
		name string
		err  func() error
		want string
	}{
		{"missing table", func() error { _, err := schema.New[Order](""); return err },
			"dynamo: schema Order: table name is empty"},
		{"invalid table", func() error { _, err := schema.New[Order]("a b"); return err },
			`dynamo: schema Order: table name "a b" is invalid: DynamoDB needs 3 to 255 characters of a-z, A-Z, 0-9, '_', '-' and '.'`},
		{"no partition key", func() error { _, err := schema.New[NoKey]("app"); return err },
			"dynamo: schema NoKey: no partition key: tag a field with pk or use the PartitionKey option"},
		{"empty PartitionKey", func() error { _, err := schema.New[Plain]("app", schema.PartitionKey()); return err },
			"dynamo: schema Plain: PartitionKey needs at least one field"},
		{"unknown pk field", func() error { _, err := schema.New[Plain]("app", schema.PartitionKey("nope")); return err },
			"dynamo: schema Plain: field nope: PartitionKey names an undefined field"},
		{"duplicate pk field", func() error { _, err := schema.New[Plain]("app", schema.PartitionKey("id", "id")); return err },
			"dynamo: schema Plain: field id: listed twice in PartitionKey"},
		{"unknown sk field", func() error { return plain(schema.SortKey("name", "nope")) },
			"dynamo: schema Plain: field nope: SortKey names an undefined field"},
		{"duplicate sk field", func() error { return plain(schema.SortKey("name", "name")) },
			"dynamo: schema Plain: field name: listed twice in SortKey"},
		{"field in pk and sk", func() error { return plain(schema.SortKey("id")) },
			"dynamo: schema Plain: field id: in both the partition key and the sort key"},
		{"pk flag with PartitionKey", func() error { _, err := schema.New[Order]("app", schema.PartitionKey("order_id")); return err },
			"dynamo: schema Order: field user_id: tag flag pk cannot be combined with the PartitionKey option; use one or the other"},
		{"sk flag with SortKey", func() error { _, err := schema.New[Order]("app", schema.SortKey("order_id")); return err },
			"dynamo: schema Order: field placed_at: tag flag sk cannot be combined with the SortKey option; use one or the other"},
		{"pk and sk flags on one field", func() error { _, err := schema.New[BothFlags]("app"); return err },
			"dynamo: schema BothFlags: field id: tag flags pk and sk on one field"},
		{"raw keys two pk", func() error { _, err := schema.New[TwoPK]("app", schema.RawKeys()); return err },
			"dynamo: schema TwoPK: field b: RawKeys allows one partition-key field, got 2 (a, b)"},
		{"raw keys two sk", func() error { return plain(schema.RawKeys(), schema.SortKey("name", "n")) },
			"dynamo: schema Plain: field n: RawKeys allows one sort-key field, got 2 (name, n)"},
		{"raw keys bool", func() error {
			_, err := schema.New[Plain]("app", schema.RawKeys(), schema.PartitionKey("flag"))
			return err
		},
			"dynamo: schema Plain: field flag: a raw partition-key field must be of type S, N or B, not BOOL"},
		{"raw keys prefix sk", func() error { return plain(schema.RawKeys(), schema.SortKey("name"), schema.PrefixSortKey()) },
			"dynamo: schema Plain: PrefixSortKey has no effect with RawKeys"},
		{"pk of string set", func() error { _, err := schema.New[Plain]("app", schema.PartitionKey("tags")); return err },
			"dynamo: schema Plain: field tags: a partition-key field must be a scalar (S, N, B or BOOL), not SS (string set)"},
		{"sk of map", func() error { return plain(schema.SortKey("meta")) },
			"dynamo: schema Plain: field meta: a sort-key field must be a scalar (S, N, B or BOOL), not M (map)"},
		{"sk of list", func() error { return plain(schema.SortKey("list")) },
			"dynamo: schema Plain: field list: a sort-key field must be a scalar (S, N, B or BOOL), not L (list)"},
		{"sk of number set", func() error { return plain(schema.SortKey("nums")) },
			"dynamo: schema Plain: field nums: a sort-key field must be a scalar (S, N, B or BOOL), not NS (number set)"},
		{"GSI undefined pk", func() error { return plain(schema.GSI("ByName", "nope", "")) },
			"dynamo: schema Plain: field nope: GSI ByName partition key names an undefined field"},
		{"GSI undefined sk", func() error { return plain(schema.GSI("ByName", "name", "nope")) },
			"dynamo: schema Plain: field nope: GSI ByName sort key names an undefined field"},
		{"GSI empty pk", func() error { return plain(schema.GSI("ByName", "", "name")) },
			"dynamo: schema Plain: GSI ByName needs a partition key"},
		{"GSI bool key", func() error { return plain(schema.GSI("ByFlag", "flag", "")) },
			"dynamo: schema Plain: field flag: GSI ByFlag partition key must be of type S, N or B, not BOOL"},
		{"GSI set key", func() error { return plain(schema.GSI("ByTags", "name", "tags")) },
			"dynamo: schema Plain: field tags: GSI ByTags sort key must be of type S, N or B, not SS (string set)"},
		{"GSI same pk and sk", func() error { return plain(schema.GSI("ByName", "name", "name")) },
			"dynamo: schema Plain: field name: GSI ByName uses the field as both partition and sort key"},
		{"GSI bad name", func() error { return plain(schema.GSI("x", "name", "")) },
			`dynamo: schema Plain: GSI name "x" is invalid: DynamoDB needs 3 to 255 characters of a-z, A-Z, 0-9, '_', '-' and '.'`},
		{"duplicate index", func() error { return plain(schema.GSI("ByName", "name", ""), schema.GSI("ByName", "n", "")) },
			"dynamo: schema Plain: index ByName declared twice"},
		{"index and vector index share names", func() error { return plain(schema.GSI("ByName", "name", ""), schema.VectorIndex("ByName", "vec")) },
			"dynamo: schema Plain: index ByName declared twice"},
		{"GSI include undefined", func() error { return plain(schema.GSI("ByName", "name", "", schema.Include("n", "nope"))) },
			"dynamo: schema Plain: field nope: GSI ByName projects an undefined field"},
		{"GSI include empty", func() error { return plain(schema.GSI("ByName", "name", "", schema.Include())) },
			"dynamo: schema Plain: GSI ByName: Include needs at least one attribute"},
		{"GSI two projections", func() error { return plain(schema.GSI("ByName", "name", "", schema.KeysOnly(), schema.ProjectAll())) },
			"dynamo: schema Plain: GSI ByName: KeysOnly and ProjectAll both given"},
		{"GSI throughput on demand", func() error { return plain(schema.GSI("ByName", "name", "", schema.Throughput(5, 5))) },
			"dynamo: schema Plain: GSI ByName: Throughput needs a Provisioned table (the default is PAY_PER_REQUEST)"},
		{"LSI without table sk", func() error { return plain(schema.LSI("ByName", "name")) },
			"dynamo: schema Plain: LSI ByName needs a table with a sort key"},
		{"LSI undefined sk", func() error { return plain(schema.SortKey("name"), schema.LSI("ByN", "nope")) },
			"dynamo: schema Plain: field nope: LSI ByN sort key names an undefined field"},
		{"LSI throughput", func() error {
			return plain(schema.SortKey("name"), schema.Provisioned(1, 1), schema.LSI("ByN", "n", schema.Throughput(1, 1)))
		}, "dynamo: schema Plain: LSI ByN: Throughput is not allowed; a local index uses the table's capacity"},
		{"vector on non-vector field", func() error { return plain(schema.VectorIndex("Semantic", "other")) },
			"dynamo: schema Plain: field other: vector index Semantic needs a vector field ([]float32 or []float64 with a dim=N tag)"},
		{"vector undefined field", func() error { return plain(schema.VectorIndex("Semantic", "nope")) },
			"dynamo: schema Plain: field nope: vector index Semantic names an undefined field"},
		{"vector dimensions disagree", func() error { return plain(schema.VectorIndex("Semantic", "vec", schema.Dimensions(4))) },
			"dynamo: schema Plain: field vec: vector index Semantic: Dimensions(4) disagrees with the field's dim=3"},
		{"vector partition undefined", func() error { return plain(schema.VectorIndex("Semantic", "vec", schema.VectorPartition("nope"))) },
			"dynamo: schema Plain: field nope: vector index Semantic partition names an undefined field"},
		{"vector partition bool", func() error { return plain(schema.VectorIndex("Semantic", "vec", schema.VectorPartition("flag"))) },
			"dynamo: schema Plain: field flag: vector index Semantic partition must be of type S, N or B, not BOOL"},
		{"vector filter undefined", func() error {
			return plain(schema.VectorIndex("Semantic", "vec", schema.InlineFilters("name", "nope")))
		},
			"dynamo: schema Plain: field nope: vector index Semantic inline filter names an undefined field"},
		{"vector filter twice", func() error {
			return plain(schema.VectorIndex("Semantic", "vec", schema.VectorPartition("name"), schema.InlineFilters("name")))
		}, "dynamo: schema Plain: field name: vector index Semantic uses the field twice"},
		{"vector include undefined", func() error { return plain(schema.VectorIndex("Semantic", "vec", schema.Include("nope"))) },
			"dynamo: schema Plain: field nope: vector index Semantic projects an undefined field"},
		{"vector two distances", func() error { return plain(schema.VectorIndex("Semantic", "vec", schema.Cosine(), schema.Euclidean())) },
			"dynamo: schema Plain: vector index Semantic: more than one distance function given"},
		{"vector provisioned", func() error { return plain(schema.Provisioned(5, 5), schema.VectorIndex("Semantic", "vec")) },
			"dynamo: schema Plain: vector indexes need PAY_PER_REQUEST billing; remove Provisioned"},
		{"empty separator", func() error { return plain(schema.Separator("")) },
			"dynamo: schema Plain: Separator must not be empty"},
		{"separator in entity", func() error { return plain(schema.EntityName("my#plain")) },
			`dynamo: schema Plain: entity name "my#plain" contains the key separator "#"`},
		{"custom separator in entity", func() error { return plain(schema.EntityName("my_plain"), schema.Separator("_")) },
			`dynamo: schema Plain: entity name "my_plain" contains the key separator "_"`},
		{"separator in default", func() error { _, err := schema.New[SepDefault]("app"); return err },
			`dynamo: schema SepDefault: field kind: default contains the key separator "#"`},
		{"separator in prefixed sk name", func() error {
			return plain(schema.Separator("a"), schema.EntityName("x"), schema.SortKey("name"), schema.PrefixSortKey())
		}, `dynamo: schema Plain: field name: attribute name contains the key separator "a", which PrefixSortKey writes into the sort key`},
		{"empty entity name", func() error { return plain(schema.EntityName("")) },
			"dynamo: schema Plain: EntityName must not be empty"},
		{"strict without attribute", func() error { return plain(schema.StrictEntity(), schema.EntityAttribute("")) },
			"dynamo: schema Plain: StrictEntity needs the entity attribute; EntityAttribute(\"\") turns it off"},
		{"entity attribute is a field", func() error { return plain(schema.EntityAttribute("id")) },
			"dynamo: schema Plain: field id: the field has the name of the entity attribute; rename one (EntityAttribute)"},
		{"entity attribute is a key", func() error { return plain(schema.EntityAttribute("pk")) },
			"dynamo: schema Plain: the entity attribute and a key attribute are both named \"pk\""},
		{"entity from nil", func() error { return plain(schema.EntityFrom(nil)) },
			"dynamo: schema Plain: EntityFrom(nil)"},
		{"entity from nil schema", func() error { var parent *schema.Schema[Order]; return plain(schema.EntityFrom(parent)) },
			"dynamo: schema Plain: EntityFrom(nil)"},
		{"option twice", func() error { return plain(schema.Separator("|"), schema.Separator("/")) },
			"dynamo: schema Plain: option Separator given 2 times"},
		{"nil option", func() error { return plain(nil) },
			"dynamo: schema Plain: nil Option"},
		{"field named pk", func() error { _, err := schema.New[PKNamed]("app"); return err },
			"dynamo: schema PKNamed: field pk: field has the name of the generated key attribute; rename it or set PartitionKeyName/SortKeyName"},
		{"same key names", func() error { return plain(schema.SortKey("name"), schema.SortKeyName("pk")) },
			`dynamo: schema Plain: the partition key and the sort key are both named "pk"`},
		{"sort key name without sort key", func() error { return plain(schema.SortKeyName("s")) },
			"dynamo: schema Plain: SortKeyName given but the schema has no sort key"},
		{"provisioned zero", func() error { return plain(schema.Provisioned(0, 5)) },
			"dynamo: schema Plain: Provisioned(0, 5): capacity units must be at least 1"},
		{"empty partition key name", func() error { return plain(schema.PartitionKeyName("")) },
			"dynamo: schema Plain: PartitionKeyName: the attribute name is empty"},
		{"LSI on the table sort key", func() error {
			return plain(schema.SortKey("name"), schema.SortKeyName("name2"), schema.LSI("ByName", "name2"))
		},
			"dynamo: schema Plain: field name2: LSI ByName sort key is the table's sort key"},
		{"too many LSIs", func() error {
			opts := []schema.Option{schema.SortKey("name")}
			for _, n := range []string{"L01", "L02", "L03", "L04", "L05", "L06"} {
				opts = append(opts, schema.LSI(n, "n"))
			}
			return plain(opts...)
		}, "dynamo: schema Plain: more than 5 local secondary indexes (DynamoDB's limit)"},
		{"too many vector indexes", func() error {
			var opts []schema.Option
			for _, n := range []string{"V01", "V02", "V03", "V04", "V05", "V06"} {
				opts = append(opts, schema.VectorIndex(n, "vec"))
			}
			return plain(opts...)
		}, "dynamo: schema Plain: more than 5 vector indexes (DynamoDB's limit)"},
		{"too many projected attributes in one index", func() error {
			attrs := []string{"name", "n", "flag", "blob", "tags", "nums", "meta", "list", "vec", "other",
				"name", "n", "flag", "blob", "tags", "nums", "meta", "list", "vec", "other", "name"}
			return plain(schema.GSI("ByName", "name", "", schema.Include(attrs...)))
		}, "dynamo: schema Plain: GSI ByName: 21 projected attributes; DynamoDB allows 20 per index"},
		{"projected twice", func() error { return plain(schema.GSI("ByName", "name", "", schema.Include("n", "n"))) },
			"dynamo: schema Plain: field n: GSI ByName projects the field twice"},
		{"too many projected attributes in all", func() error {
			var opts []schema.Option
			for _, n := range []string{"G01", "G02", "G03", "G04", "G05", "G06", "G07", "G08", "G09", "G10", "G11"} {
				opts = append(opts, schema.GSI(n, "name", "", schema.Include("n", "flag", "blob", "tags", "nums", "meta", "list", "vec", "other", "id")))
			}
			return plain(opts...)
		}, "dynamo: schema Plain: the indexes project 110 non-key attributes; DynamoDB allows 100 in total"},
		{"throughput twice", func() error {
			return plain(schema.Provisioned(1, 1), schema.GSI("ByName", "name", "", schema.Throughput(1, 1), schema.Throughput(2, 2)))
		}, "dynamo: schema Plain: GSI ByName: Throughput given 2 times"},
		{"throughput zero", func() error {
			return plain(schema.Provisioned(1, 1), schema.GSI("ByName", "name", "", schema.Throughput(0, 1)))
		}, "dynamo: schema Plain: GSI ByName: Throughput(0, 1): capacity units must be at least 1"},
		{"vector partition twice", func() error {
			return plain(schema.VectorIndex("Semantic", "vec", schema.VectorPartition("name"), schema.VectorPartition("n")))
		}, "dynamo: schema Plain: vector index Semantic: VectorPartition given 2 times; a vector index has at most one partition attribute"},
		{"vector empty filters", func() error { return plain(schema.VectorIndex("Semantic", "vec", schema.InlineFilters())) },
			"dynamo: schema Plain: vector index Semantic: InlineFilters needs at least one field"},
		{"vector two projections", func() error {
			return plain(schema.VectorIndex("Semantic", "vec", schema.KeysOnly(), schema.Include("name")))
		}, "dynamo: schema Plain: vector index Semantic: KeysOnly and Include both given"},
		{"vector key field", func() error { _, err := schema.New[Plain]("app", schema.PartitionKey("vec")); return err },
			"dynamo: schema Plain: field vec: a partition-key field must be a scalar (S, N, B or BOOL), not L (list)"},
		{"prefix sort key without sort key", func() error { return plain(schema.PrefixSortKey()) },
			"dynamo: schema Plain: PrefixSortKey given but the schema has no sort key"},
		{"raw keys with separator", func() error { return plain(schema.RawKeys(), schema.Separator("|")) },
			"dynamo: schema Plain: Separator has no effect with RawKeys"},
		{"nil index option", func() error { return plain(schema.GSI("ByName", "name", "", nil)) },
			"dynamo: schema Plain: GSI ByName: nil IndexOption"},
		{"embedded with table option", func() error { _, err := schema.Embedded[Address](schema.EntityName("a")); return err },
			"dynamo: schema Address: option EntityName is not allowed on an embedded schema"},
		{"embedded with key flag", func() error { _, err := schema.Embedded[KeyedAddress](); return err },
			"dynamo: schema KeyedAddress: field street: tag flag pk is not allowed on an embedded schema"},
		{"not a struct", func() error { _, err := schema.New[string]("app"); return err },
			"dynamo: schema string: a schema type must be a struct, not string"},
		{"unnamed struct", func() error {
			_, err := schema.New[struct {
				A string `dynamo:"a,pk"`
			}]("app")
			return err
		},
			"dynamo: schema struct { A string \"dynamo:\\\"a,pk\\\"\" }: an unnamed struct type needs EntityName"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.err()
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			if err.Error() != tc.want {
				t.Fatalf("error\n got: %s\nwant: %s", err, tc.want)
			}
			var se *schema.Error
			if !errors.As(err, &se) {
				t.Fatalf("error is %T, want *schema.Error", err)
			}
		})
	}
}

func TestCodecErrorPassesThrough(t *testing.T) {
	type BadTag struct {
		ID string `dynamo:"id,pk,nosuchflag"`
	}
	_, err := schema.New[BadTag]("app")
	if err == nil {
		t.Fatal("no error for an unknown tag flag")
	}
	var ce *codec.Error
	if !errors.As(err, &ce) {
		t.Fatalf("error %v is %T, want the codec's *codec.Error", err, err)
	}
}

func TestMustPanicsWithNewsError(t *testing.T) {
	_, want := schema.New[NoKey]("app")
	defer func() {
		r := recover()
		err, ok := r.(error)
		if !ok {
			t.Fatalf("panic value %v is not an error", r)
		}
		if err.Error() != want.Error() {
			t.Fatalf("panic %q, want %q", err, want)
		}
	}()
	schema.Must[NoKey]("app")
}

func TestEntityNameDefault(t *testing.T) {
	if got := schema.Must[HTTPLog]("app").Entity(); got != "http_log" {
		t.Errorf("HTTPLog entity = %q, want http_log", got)
	}
	if got := schema.Must[UserProfile]("app").Entity(); got != "user_profile" {
		t.Errorf("UserProfile entity = %q, want user_profile", got)
	}
	if got := orders.Entity(); got != "order" {
		t.Errorf("EntityName option: %q", got)
	}
	// A child takes its parent's key prefix and keeps its own entity name.
	child := schema.Must[NoKey]("app", schema.EntityFrom(orders), schema.PartitionKey("id"))
	if got, key := child.Entity(), child.KeyEntity(); got != "no_key" || key != "order" {
		t.Errorf("EntityFrom: entity %q, key entity %q", got, key)
	}
	named := schema.Must[NoKey]("app", schema.EntityName("line"), schema.EntityFrom(orders), schema.PartitionKey("id"))
	if got, key := named.Entity(), named.KeyEntity(); got != "line" || key != "order" {
		t.Errorf("EntityFrom with EntityName: entity %q, key entity %q", got, key)
	}
	// A grandchild lives in the grandparent's partitions.
	grand := schema.Must[NoKey]("app", schema.EntityName("grand"), schema.EntityFrom(child), schema.PartitionKey("id"))
	if key := grand.KeyEntity(); key != "order" {
		t.Errorf("EntityFrom a child: key entity %q", key)
	}
}

func TestReflection(t *testing.T) {
	if orders.Table() != "app" {
		t.Errorf("Table = %q", orders.Table())
	}
	pk, sk := orders.KeyNames()
	if pk != "pk" || sk != "sk" {
		t.Errorf("KeyNames = %q, %q", pk, sk)
	}
	noSK := schema.Must[NoKey]("app", schema.PartitionKey("id"))
	if pk, sk := noSK.KeyNames(); pk != "pk" || sk != "" {
		t.Errorf("KeyNames without sort key = %q, %q", pk, sk)
	}
	if f := orders.Field("placed_at"); f == nil || f.GoName != "PlacedAt" {
		t.Errorf("Field(placed_at) = %+v", f)
	}
	if orders.Field("pk") != nil {
		t.Error("Field(pk) is not nil: generated keys are not fields")
	}
	if got := names(orders.PartitionFields()); got != "user_id" {
		t.Errorf("PartitionFields = %s", got)
	}
	if got := names(orders.SortFields()); got != "placed_at,order_id" {
		t.Errorf("SortFields = %s", got)
	}
	if got := names(orders.Fields()); got != "user_id,placed_at,order_id,total,status,tags,version" {
		t.Errorf("Fields = %s", got)
	}
	if orders.Struct() == nil || orders.Struct().Type.Name() != "Order" {
		t.Error("Struct")
	}
	ix, ok := orders.Index("StatusIndex")
	if !ok || ix.PK != "status" || ix.SK != "placed_at" || ix.PKType != "S" || ix.Projection != "ALL" || ix.Local {
		t.Errorf("Index(StatusIndex) = %+v, %v", ix, ok)
	}
	if _, ok := orders.Index("nope"); ok {
		t.Error("Index(nope) found")
	}
	if len(orders.Indexes()) != 1 || len(orders.VectorIndexes()) != 0 {
		t.Error("Indexes / VectorIndexes")
	}
	d := orders.Describe()
	if d.Type != "Order" || d.Table != "app" || d.Entity != "order" || d.PK != "pk" || d.SK != "sk" ||
		d.PKType != "S" || d.SKType != "S" || d.Separator != "#" || d.RawKeys || !d.OmitNil ||
		len(d.Indexes) != 1 || d.PartitionFields[0] != "user_id" || len(d.SortFields) != 2 {
		t.Errorf("Describe = %+v", d)
	}
	var _ schema.Described = orders
	var _ schema.Entity = orders
}

func TestIsKeyAttr(t *testing.T) {
	for attr, want := range map[string]bool{
		"pk": true, "sk": true, "user_id": true, "placed_at": true, "order_id": true,
		"status": false, "total": false, "nope": false,
	} {
		if got := orders.IsKeyAttr(attr); got != want {
			t.Errorf("IsKeyAttr(%s) = %v, want %v", attr, got, want)
		}
	}
}

func names(fs []*codec.Field) string {
	s := ""
	for i, f := range fs {
		if i > 0 {
			s += ","
		}
		s += f.Name
	}
	return s
}

// An INCLUDE projection may list the entity attribute, so that reads
// through the index can tell entities apart exactly.
func TestIncludeEntityAttribute(t *testing.T) {
	s, err := schema.New[Plain]("app", schema.PartitionKey("id"), schema.GSI("ByName", "name", "", schema.Include("_entity", "n")))
	if err != nil {
		t.Fatal(err)
	}
	if ix, _ := s.Index("ByName"); len(ix.NonKeyAttributes) != 2 || ix.NonKeyAttributes[0] != "_entity" {
		t.Fatalf("NonKeyAttributes = %v", ix.NonKeyAttributes)
	}
	if _, err := schema.New[Plain]("app", schema.PartitionKey("id"), schema.EntityAttribute(""), schema.GSI("ByName", "name", "", schema.Include("_entity"))); err == nil {
		t.Fatal("Include of _entity accepted with the attribute off")
	}
}
