package schema_test

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/shopspring/decimal"

	"github.com/dynamogo/dynamo/codec"
	"github.com/dynamogo/dynamo/schema"
)

// S-15: the item holds the generated keys and every declared field,
// including the key source fields; nil fields are omitted; defaults apply.
func TestDump(t *testing.T) {
	it, err := orders.Dump(Order{
		UserID: "u1", PlacedAt: jan15, OrderID: "o1",
		Total: decimal.RequireFromString("12.50"), Tags: codec.NewSet("a", "b"),
	})
	if err != nil {
		t.Fatal(err)
	}
	// status is "" (a value the caller holds, not replaced by its default)
	// and an index key, so it is left out.
	want := "_entity=S:order order_id=S:o1 pk=S:order#u1 placed_at=S:2024-01-15T10:00:00Z sk=S:2024-01-15T10:00:00Z#o1 " +
		"tags=SS:a,b total=N:12.5 user_id=S:u1 version=N:0"
	if got := item(it); got != want {
		t.Fatalf("\n got %s\nwant %s", got, want)
	}
	attrs, err := orders.DumpAttributes(Order{UserID: "u1", PlacedAt: jan15, OrderID: "o1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := attrs["pk"]; ok {
		t.Fatal("DumpAttributes wrote pk")
	}
	if _, ok := attrs["_entity"]; ok {
		t.Fatal("DumpAttributes wrote the entity attribute")
	}
	if got := item(attrs); got != "order_id=S:o1 placed_at=S:2024-01-15T10:00:00Z total=N:0 user_id=S:u1 version=N:0" {
		t.Fatal(got)
	}
}

type Profile struct {
	ID    string  `dynamo:"id,pk"`
	Email string  `dynamo:"email,required"`
	Plan  *string `dynamo:"plan,required,default=free"`
	Bio   *string `dynamo:"bio"`
}

func TestDumpRequiredAndOmitNil(t *testing.T) {
	s := schema.Must[Profile]("app")
	_, err := s.Dump(Profile{ID: "p1"})
	wantErr(t, err, "dynamo: schema Profile: field email: required field is unset")
	_, err = s.DumpAttributes(Profile{ID: "p1"})
	wantErr(t, err, "dynamo: schema Profile: field email: required field is unset")
	it, err := s.Dump(Profile{ID: "p1", Email: "a@b"})
	if err != nil || item(it) != "_entity=S:profile email=S:a@b id=S:p1 pk=S:profile#p1 plan=S:free" {
		t.Fatalf("Dump = %s, %v", item(it), err)
	}
	empty := "" // an explicit empty plan: set, and not replaced by the default
	it, err = s.Dump(Profile{ID: "p1", Email: "a@b", Plan: &empty})
	if err != nil || item(it) != "_entity=S:profile email=S:a@b id=S:p1 pk=S:profile#p1 plan=S:" {
		t.Fatalf("Dump = %s, %v", item(it), err)
	}
	nulls := schema.Must[Profile]("app", schema.OmitNil(false))
	it, err = nulls.Dump(Profile{ID: "p1", Email: "a@b"})
	if err != nil || item(it) != "_entity=S:profile bio=NULL email=S:a@b id=S:p1 pk=S:profile#p1 plan=S:free" {
		t.Fatalf("OmitNil(false) Dump = %s, %v", item(it), err)
	}
}

// S-16: Load ignores undeclared attributes and the generated keys, applies
// defaults to missing attributes and loads NULL as the zero value.
func TestLoad(t *testing.T) {
	got, err := orders.Load(map[string]types.AttributeValue{
		"pk":        &types.AttributeValueMemberS{Value: "order#u1"},
		"sk":        &types.AttributeValueMemberS{Value: "2024-01-15T10:00:00Z#o1"},
		"user_id":   &types.AttributeValueMemberS{Value: "u1"},
		"placed_at": &types.AttributeValueMemberS{Value: "2024-01-15T10:00:00Z"},
		"order_id":  &types.AttributeValueMemberS{Value: "o1"},
		"version":   &types.AttributeValueMemberNULL{Value: true},
		"unknown":   &types.AttributeValueMemberS{Value: "ignored"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := Order{UserID: "u1", PlacedAt: jan15, OrderID: "o1", Status: "pending"}
	if !got.PlacedAt.Equal(want.PlacedAt) || got.UserID != want.UserID || got.OrderID != want.OrderID ||
		got.Status != "pending" || got.Version != 0 || got.Tags != nil {
		t.Fatalf("Load = %+v", got)
	}
	_, err = orders.Load(map[string]types.AttributeValue{"version": &types.AttributeValueMemberS{Value: "x"}})
	if err == nil {
		t.Fatal("no error for a value the field type cannot load")
	}
}

// keysOnly keeps only the generated key attributes of an item, as a
// KEYS_ONLY index returns it.
func keysOnly[T any](t *testing.T, s *schema.Schema[T], v T) map[string]types.AttributeValue {
	t.Helper()
	full, err := s.Dump(v)
	if err != nil {
		t.Fatalf("Dump(%+v): %v", v, err)
	}
	pk, sk := s.KeyNames()
	out := map[string]types.AttributeValue{pk: full[pk]}
	if sk != "" {
		out[sk] = full[sk]
	}
	return out
}

// roundTrip checks that the key fields of v survive a projection that kept
// only the generated keys: Load recovers them by splitting pk and sk.
func roundTrip[T any](t *testing.T, s *schema.Schema[T], v T) T {
	t.Helper()
	got, err := s.Load(keysOnly(t, s, v))
	if err != nil {
		t.Fatalf("Load(keys of %+v): %v", v, err)
	}
	a, _ := s.PrimaryKey(v)
	b, err := s.PrimaryKey(got)
	if err != nil || item(a.Map()) != item(b.Map()) {
		t.Fatalf("recovered %+v: key %s, want %s (%v)", got, item(b.Map()), item(a.Map()), err)
	}
	return got
}

type KStrings struct {
	A string       `dynamo:"a,pk"`
	B codec.Number `dynamo:"b,pk"`
	C string       `dynamo:"c,sk"`
	D string       `dynamo:"d,sk"`
}

type KInts struct {
	A int     `dynamo:"a,pk"`
	B int64   `dynamo:"b,sk"`
	C uint8   `dynamo:"c,sk"`
	D int32   `dynamo:"d,sk"`
	E uint64  `dynamo:"e,sk"`
	F float64 `dynamo:"f,sk"`
	G float32 `dynamo:"g,sk"`
}

type KExact struct {
	A decimal.Decimal `dynamo:"a,pk"`
	B codec.Number    `dynamo:"b,sk"`
}

type KBool struct {
	A bool  `dynamo:"a,pk"`
	B *bool `dynamo:"b,sk"`
}

type KBytes struct {
	A []byte `dynamo:"a,pk"`
	B []byte `dynamo:"b,sk"`
}

type KTimes struct {
	A time.Time       `dynamo:"a,pk"`
	B time.Time       `dynamo:"b,sk,precision=ms"`
	C time.Time       `dynamo:"c,sk,precision=s"`
	D codec.Date      `dynamo:"d,sk"`
	E codec.TimeOfDay `dynamo:"e,sk"`
	F codec.DateTime  `dynamo:"f,sk"`
}

func TestKeyRecoveryEveryScalarKind(t *testing.T) {
	t.Run("strings", func(t *testing.T) {
		s := schema.Must[KStrings]("app")
		v := KStrings{A: "tenant-1", B: "12.5", C: "with space", D: "ünïcode"}
		if got := roundTrip(t, s, v); got != v {
			t.Fatalf("got %+v, want %+v", got, v)
		}
	})
	t.Run("numbers", func(t *testing.T) {
		s := schema.Must[KInts]("app")
		v := KInts{A: -42, B: 1 << 62, C: 255, D: -7, E: 1<<64 - 1, F: -1.25e-7, G: 3.5}
		if got := roundTrip(t, s, v); got != v {
			t.Fatalf("got %+v, want %+v", got, v)
		}
	})
	t.Run("exact numbers", func(t *testing.T) {
		s := schema.Must[KExact]("app")
		v := KExact{A: decimal.RequireFromString("-123.456"), B: "1E+3"}
		got := roundTrip(t, s, v)
		if !got.A.Equal(v.A) {
			t.Fatalf("decimal %s, want %s", got.A, v.A)
		}
	})
	t.Run("bool", func(t *testing.T) {
		s := schema.Must[KBool]("app")
		f := false
		got := roundTrip(t, s, KBool{A: true, B: &f})
		if !got.A || got.B == nil || *got.B {
			t.Fatalf("got %+v", got)
		}
	})
	t.Run("binary", func(t *testing.T) {
		s := schema.Must[KBytes]("app")
		v := KBytes{A: []byte{0, 1, 2, 0xff}, B: []byte("hi")}
		got := roundTrip(t, s, v)
		if !bytes.Equal(got.A, v.A) || !bytes.Equal(got.B, v.B) {
			t.Fatalf("got %+v", got)
		}
	})
	t.Run("times", func(t *testing.T) {
		s := schema.Must[KTimes]("app")
		v := KTimes{
			A: time.Date(2024, 1, 15, 10, 0, 0, 123456789, time.UTC),
			B: time.Date(2024, 1, 15, 10, 0, 0, 5e6, time.UTC),
			C: time.Date(1999, 12, 31, 23, 59, 59, 0, time.UTC),
			D: codec.Date{Year: 2024, Month: 2, Day: 29},
			E: codec.TimeOfDay{Hour: 7, Minute: 5, Second: 3},
			F: codec.DateTime{Date: codec.Date{Year: 2024, Month: 1, Day: 1}, Time: codec.TimeOfDay{Hour: 1}},
		}
		got := roundTrip(t, s, v)
		if !got.A.Equal(v.A) || !got.B.Equal(v.B) || !got.C.Equal(v.C) || got.D != v.D || got.E != v.E || got.F != v.F {
			t.Fatalf("got %+v\nwant %+v", got, v)
		}
	})
	t.Run("prefix sort key and custom separator", func(t *testing.T) {
		s := schema.Must[KStrings]("app", schema.PrefixSortKey(), schema.Separator("|"))
		v := KStrings{A: "a#1", B: "2", C: "c", D: "d#"}
		if got := roundTrip(t, s, v); got != v {
			t.Fatalf("got %+v", got)
		}
		k, _ := s.PrimaryKey(v)
		if av(k.SK) != "S:c|c|d|d#" || av(k.PK) != "S:k_strings|a#1|2" {
			t.Fatalf("keys %s %s", av(k.PK), av(k.SK))
		}
	})
	t.Run("parent child defaults", func(t *testing.T) {
		got := roundTrip(t, userOrders, UserOrder{UserID: "u1", OrderID: "o1"})
		if got.Kind != "order" || got.OrderID != "o1" || got.UserID != "u1" {
			t.Fatalf("got %+v", got)
		}
	})
}

// An INCLUDE projection keeps some fields: present attributes win over
// the keys, missing key fields come from the keys.
func TestKeyRecoveryPartialProjection(t *testing.T) {
	it := keysOnly(t, orders, Order{UserID: "u1", PlacedAt: jan15, OrderID: "o1"})
	it["status"] = &types.AttributeValueMemberS{Value: "paid"}
	it["order_id"] = &types.AttributeValueMemberS{Value: "o1"}
	got, err := orders.Load(it)
	if err != nil {
		t.Fatal(err)
	}
	if got.UserID != "u1" || !got.PlacedAt.Equal(jan15) || got.OrderID != "o1" || got.Status != "paid" {
		t.Fatalf("got %+v", got)
	}
}

func TestKeyRecoveryErrors(t *testing.T) {
	tests := []struct {
		name string
		item map[string]types.AttributeValue
		want string
	}{
		{"foreign entity", map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: "user#u1"}, "sk": &types.AttributeValueMemberS{Value: "a#b"},
		}, `dynamo: schema Order: field pk: partition key does not start with "order#"; the item belongs to another entity`},
		{"pk not a string", map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberN{Value: "1"},
		}, "dynamo: schema Order: field pk: generated key attribute is N, not S"},
		{"too many sk parts", map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: "order#u1"}, "sk": &types.AttributeValueMemberS{Value: "a#b#c"},
		}, "dynamo: schema Order: field sk: generated key has 3 parts, the schema 2"},
		{"bad time", map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: "order#u1"}, "sk": &types.AttributeValueMemberS{Value: "yesterday#o1"},
		}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := orders.Load(tc.item)
			if err == nil {
				t.Fatal("no error")
			}
			if tc.want != "" && err.Error() != tc.want {
				t.Fatalf("error\n got: %s\nwant: %s", err, tc.want)
			}
		})
	}
	_, err := schema.Must[KBool]("app").Load(map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: "k_bool#yes"}, "sk": &types.AttributeValueMemberS{Value: "true"},
	})
	wantErr(t, err, `dynamo: schema KBool: field a: recovering from pk: part is not true or false`)
	_, err = schema.Must[KBytes]("app").Load(map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: "k_bytes#!!"}, "sk": &types.AttributeValueMemberS{Value: "aGk="},
	})
	if err == nil {
		t.Fatal("no error for bad base64 in a key")
	}
}

func TestOwns(t *testing.T) {
	mine, _ := orders.Dump(Order{UserID: "u1", PlacedAt: jan15, OrderID: "o1"})
	if !orders.Owns(mine) {
		t.Fatal("Owns(own item) = false")
	}
	for name, it := range map[string]map[string]types.AttributeValue{
		"other entity":       {"pk": &types.AttributeValueMemberS{Value: "user#u1"}, "sk": &types.AttributeValueMemberS{Value: "a#b"}},
		"entity prefix only": {"pk": &types.AttributeValueMemberS{Value: "orders#u1"}, "sk": &types.AttributeValueMemberS{Value: "a#b"}},
		"no pk":              {"sk": &types.AttributeValueMemberS{Value: "a#b"}},
		"pk not S":           {"pk": &types.AttributeValueMemberN{Value: "1"}, "sk": &types.AttributeValueMemberS{Value: "a#b"}},
		"no sk":              {"pk": &types.AttributeValueMemberS{Value: "order#u1"}},
		"sk parts":           {"pk": &types.AttributeValueMemberS{Value: "order#u1"}, "sk": &types.AttributeValueMemberS{Value: "a"}},
		"pk parts":           {"pk": &types.AttributeValueMemberS{Value: "order#u1#x"}, "sk": &types.AttributeValueMemberS{Value: "a#b"}},
	} {
		if orders.Owns(it) {
			t.Errorf("%s: Owns = true", name)
		}
	}
	prefixed := schema.Must[Order]("app", schema.EntityName("order"), schema.PrefixSortKey())
	own, _ := prefixed.Dump(Order{UserID: "u1", PlacedAt: jan15, OrderID: "o1"})
	if !prefixed.Owns(own) {
		t.Error("PrefixSortKey: Owns(own) = false")
	}
	own["sk"] = &types.AttributeValueMemberS{Value: "placed_at#x#other#y"}
	if !prefixed.Owns(own) {
		t.Error("PrefixSortKey: the entity attribute decides, not the labels")
	}
	delete(own, "_entity")
	if prefixed.Owns(own) {
		t.Error("PrefixSortKey: Owns with a wrong label = true")
	}
	raw := schema.Must[RawItem]("legacy", schema.RawKeys())
	if !raw.Owns(map[string]types.AttributeValue{}) {
		t.Error("raw keys: Owns = false")
	}
}

func TestEncodeField(t *testing.T) {
	v, ok, err := orders.EncodeField("status", "paid")
	if err != nil || !ok || av(v) != "S:paid" {
		t.Fatalf("status: %s %v %v", av(v), ok, err)
	}
	v, ok, err = orders.EncodeField("placed_at", jan15)
	if err != nil || !ok || av(v) != "S:2024-01-15T10:00:00Z" {
		t.Fatalf("placed_at: %s %v %v", av(v), ok, err)
	}
	v, ok, err = orders.EncodeField("undeclared", "x")
	if v != nil || ok || err != nil {
		t.Fatalf("undeclared: %s %v %v", av(v), ok, err)
	}
	_, ok, err = orders.EncodeField("version", "not a number")
	if !ok || err == nil {
		t.Fatalf("wrong type: ok=%v err=%v", ok, err)
	}
}

// Load allocates nil embedded pointers to recover a key field inside one.
func TestKeyRecoveryThroughEmbeddedPointer(t *testing.T) {
	type Base struct {
		Tenant string `dynamo:"tenant,pk"`
	}
	type Doc struct {
		*Base
		ID string `dynamo:"id,sk"`
	}
	s := schema.Must[Doc]("app")
	got, err := s.Load(keysOnly(t, s, Doc{Base: &Base{Tenant: "t1"}, ID: "d1"}))
	if err != nil {
		t.Fatal(err)
	}
	if got.Base == nil || got.Tenant != "t1" || got.ID != "d1" {
		t.Fatalf("got %+v", got)
	}
	_, err = s.PrimaryKey(Doc{ID: "d1"})
	wantErr(t, err, "dynamo: schema Doc: field tenant: partition-key value is unset")
}

func TestDescribeIsStable(t *testing.T) {
	if !reflect.DeepEqual(orders.Describe(), orders.Describe()) {
		t.Fatal("Describe differs between calls")
	}
}

func TestEncodeFieldSetElement(t *testing.T) {
	v, ok, err := orders.EncodeField("tags", "vip")
	if err != nil || !ok || av(v) != "S:vip" {
		t.Fatalf("tags element: %s %v %v", av(v), ok, err)
	}
	v, ok, err = orders.EncodeField("tags", codec.NewSet("a"))
	if err != nil || !ok || av(v) != "SS:a" {
		t.Fatalf("tags set: %s %v %v", av(v), ok, err)
	}
}

func TestLoadAll(t *testing.T) {
	a, _ := orders.Dump(Order{UserID: "u1", PlacedAt: jan15, OrderID: "o1"})
	b, _ := orders.Dump(Order{UserID: "u2", PlacedAt: jan15, OrderID: "o2"})
	bad := map[string]types.AttributeValue{"version": &types.AttributeValueMemberS{Value: "x"}}
	got, err := orders.LoadAll([]map[string]types.AttributeValue{a, b})
	if err != nil || len(got) != 2 || got[1].OrderID != "o2" {
		t.Fatalf("LoadAll = %+v, %v", got, err)
	}
	got, err = orders.LoadAll([]map[string]types.AttributeValue{a, bad, b})
	if err == nil || len(got) != 1 {
		t.Fatalf("LoadAll with a bad item = %d items, %v", len(got), err)
	}
}

// UserRef encodes itself; as a key part it must encode to a scalar.
type UserRef struct{ ID string }

func (u UserRef) MarshalDynamo() (types.AttributeValue, error) {
	if u.ID == "" {
		return &types.AttributeValueMemberNULL{Value: true}, nil
	}
	return &types.AttributeValueMemberS{Value: "ref:" + u.ID}, nil
}

func (u *UserRef) UnmarshalDynamo(av types.AttributeValue) error {
	if s, ok := av.(*types.AttributeValueMemberS); ok && len(s.Value) > 4 {
		u.ID = s.Value[4:]
	}
	return nil
}

func TestMarshalerKeyField(t *testing.T) {
	type Note struct {
		Owner UserRef `dynamo:"owner,pk"`
		Text  string  `dynamo:"text"`
	}
	s := schema.Must[Note]("app")
	k, err := s.PrimaryKey(Note{Owner: UserRef{ID: "u1"}})
	if got := key(t, k, err); got != "pk=S:note#ref:u1" {
		t.Fatal(got)
	}
	got := roundTrip(t, s, Note{Owner: UserRef{ID: "u1"}})
	if got.Owner.ID != "u1" {
		t.Fatalf("recovered %+v", got)
	}
	_, err = schema.New[Note]("app", schema.GSI("ByOwner", "owner", ""))
	wantErr(t, err, "dynamo: schema Note: field owner: GSI ByOwner partition key must be of type S, N or B, not any")
}

// An empty string cannot be a GSI key in DynamoDB; Dump leaves it out so
// the item is just not in the index (a sparse index), instead of writing an
// item DynamoDB would reject.
func TestDumpSparseIndexKeys(t *testing.T) {
	type Ticket struct {
		ID       string `dynamo:"id,pk"`
		Assignee string `dynamo:"assignee"`
		Rank     int    `dynamo:"rank"`
		Note     string `dynamo:"note"`
	}
	s := schema.Must[Ticket]("app", schema.GSI("ByAssignee", "assignee", "rank"))
	it, err := s.Dump(Ticket{ID: "t1"})
	if err != nil || item(it) != "_entity=S:ticket id=S:t1 note=S: pk=S:ticket#t1 rank=N:0" {
		t.Fatalf("Dump = %s, %v", item(it), err)
	}
	it, err = s.Dump(Ticket{ID: "t1", Assignee: "ann"})
	if err != nil || item(it) != "_entity=S:ticket assignee=S:ann id=S:t1 note=S: pk=S:ticket#t1 rank=N:0" {
		t.Fatalf("Dump = %s, %v", item(it), err)
	}
	got, err := s.Load(map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: "t1"}})
	if err != nil || got != (Ticket{ID: "t1"}) {
		t.Fatalf("Load = %+v, %v", got, err)
	}
}

// LoadInto decodes as Load does, into a value it zeroes first: nothing of
// what the variable held before survives.
func TestLoadIntoZeroesFirst(t *testing.T) {
	o := Order{UserID: "u1", PlacedAt: jan15, OrderID: "o1", Total: decimal.RequireFromString("1.5")}
	it, err := orders.Dump(o)
	if err != nil {
		t.Fatal(err)
	}
	delete(it, "total")
	want, err := orders.Load(it)
	if err != nil {
		t.Fatal(err)
	}
	got := o // Total set: must not survive
	got.Status = "stale"
	if err := orders.LoadInto(it, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("LoadInto = %+v, want %+v (as Load)", got, want)
	}
}
