package schema_test

import (
	"encoding/base64"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/shopspring/decimal"

	"github.com/dynamogo/dynamo/codec"
	"github.com/dynamogo/dynamo/schema"
)

// av renders an attribute value compactly for comparisons: "S:x", "N:1".
func av(v types.AttributeValue) string {
	switch v := v.(type) {
	case nil:
		return "<nil>"
	case *types.AttributeValueMemberS:
		return "S:" + v.Value
	case *types.AttributeValueMemberN:
		return "N:" + v.Value
	case *types.AttributeValueMemberB:
		return "B:" + base64.StdEncoding.EncodeToString(v.Value)
	case *types.AttributeValueMemberBOOL:
		return fmt.Sprintf("BOOL:%v", v.Value)
	case *types.AttributeValueMemberNULL:
		return "NULL"
	case *types.AttributeValueMemberSS:
		s := append([]string(nil), v.Value...)
		sort.Strings(s)
		return "SS:" + strings.Join(s, ",")
	case *types.AttributeValueMemberL:
		parts := make([]string, len(v.Value))
		for i, e := range v.Value {
			parts[i] = av(e)
		}
		return "L:[" + strings.Join(parts, " ") + "]"
	}
	return fmt.Sprintf("%T", v)
}

func item(m map[string]types.AttributeValue) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(k + "=" + av(m[k]))
	}
	return b.String()
}

var jan15 = time.Date(2024, 1, 15, 10, 0, 0, 0, time.UTC)

func key(t *testing.T, k schema.Key, err error) string {
	t.Helper()
	if err != nil {
		t.Fatalf("key: %v", err)
	}
	if k.SK == nil {
		return k.PKName + "=" + av(k.PK)
	}
	return k.PKName + "=" + av(k.PK) + " " + k.SKName + "=" + av(k.SK)
}

// K-2, K-3: pk = entity#parts, sk = parts joined, no entity prefix.
func TestPrimaryKeySeedOrder(t *testing.T) {
	k, err := orders.PrimaryKey(Order{UserID: "u1", PlacedAt: jan15, OrderID: "o1"})
	if got, want := key(t, k, err), "pk=S:order#u1 sk=S:2024-01-15T10:00:00Z#o1"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	if got := item(k.Map()); got != "pk=S:order#u1 sk=S:2024-01-15T10:00:00Z#o1" {
		t.Fatalf("Map = %s", got)
	}
}

type Customer struct {
	Name       string `dynamo:"name"`
	Tenant     string `dynamo:"tenant,pk"`
	CustomerID string `dynamo:"customer_id,pk"`
}

// K-2 with several parts; Z-2: flag-declared composite partition keys keep
// declaration order (0.1 reversed it).
func TestCompositePartitionKeyOrder(t *testing.T) {
	flags := schema.Must[Customer]("app")
	k, err := flags.PrimaryKey(Customer{Tenant: "acme", CustomerID: "c1"})
	if got := key(t, k, err); got != "pk=S:customer#acme#c1" {
		t.Fatalf("flag order: %s", got)
	}
	type Account struct {
		Tenant string `dynamo:"tenant"`
		ID     string `dynamo:"id"`
		Region string `dynamo:"region"`
	}
	explicit := schema.Must[Account]("app", schema.PartitionKey("region", "tenant"), schema.SortKey("id"))
	k, err = explicit.PrimaryKey(Account{Tenant: "acme", ID: "a1", Region: "eu"})
	if got := key(t, k, err); got != "pk=S:account#eu#acme sk=S:a1" {
		t.Fatalf("PartitionKey order: %s", got)
	}
}

// K-4: PrefixSortKey labels each part with its field name.
func TestPrefixSortKey(t *testing.T) {
	s := schema.Must[Order]("app", schema.EntityName("order"), schema.PrefixSortKey())
	k, err := s.PrimaryKey(Order{UserID: "u1", PlacedAt: jan15, OrderID: "o1"})
	if got := key(t, k, err); got != "pk=S:order#u1 sk=S:placed_at#2024-01-15T10:00:00Z#order_id#o1" {
		t.Fatal(got)
	}
	p, complete, err := s.SortPrefix(Order{UserID: "u1", PlacedAt: jan15})
	if err != nil || complete || av(p) != "S:placed_at#2024-01-15T10:00:00Z#" {
		t.Fatalf("SortPrefix = %s, %v, %v", av(p), complete, err)
	}
}

type Scalars struct {
	ID   string          `dynamo:"id,pk"`
	I    int             `dynamo:"i,sk"`
	F    float64         `dynamo:"f,sk"`
	D    decimal.Decimal `dynamo:"d,sk"`
	B    *bool           `dynamo:"b,sk"`
	Raw  []byte          `dynamo:"raw,sk"`
	Day  codec.Date      `dynamo:"day,sk"`
	At   time.Time       `dynamo:"at,sk"`
	Note string          `dynamo:"note"`
}

// Each part is the field's encoded value stringified: S
// as is, N as the codec wrote the digits, B as standard base64, BOOL as
// true/false; times are fixed width (nanoseconds by default).
func TestKeyPartStringification(t *testing.T) {
	s := schema.Must[Scalars]("app")
	f := false
	k, err := s.PrimaryKey(Scalars{
		ID: "x", I: -42, F: 1.5, D: decimal.RequireFromString("9.990"), B: &f,
		Raw: []byte{0xfb, 0xff}, Day: codec.Date{Year: 2024, Month: 1, Day: 15},
		At: time.Date(2024, 1, 15, 10, 0, 0, 5, time.UTC),
	})
	got := key(t, k, err)
	dec, _ := codec.Marshal(decimal.RequireFromString("9.990"))
	want := "pk=S:scalars#x sk=S:-42#1.5#" + strings.TrimPrefix(av(dec), "N:") + "#false#+/8=#2024-01-15#2024-01-15T10:00:00.000000005Z"
	if got != want {
		t.Fatalf("\n got %s\nwant %s", got, want)
	}
}

// Fixed-width times sort as strings in time order, so sort keys range
// correctly.
func TestTimeKeysSortAsStrings(t *testing.T) {
	type Ev struct {
		ID string    `dynamo:"id,pk"`
		At time.Time `dynamo:"at,sk"`
	}
	s := schema.Must[Ev]("app")
	times := []time.Time{
		jan15, jan15.Add(time.Nanosecond), jan15.Add(100 * time.Millisecond), jan15.Add(time.Second),
		jan15.Add(-time.Microsecond),
	}
	sort.Slice(times, func(i, j int) bool { return times[i].Before(times[j]) })
	var keys []string
	for _, tm := range times {
		k, err := s.PrimaryKey(Ev{ID: "x", At: tm})
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.SK.(*types.AttributeValueMemberS).Value)
	}
	if !sort.StringsAreSorted(keys) {
		t.Fatalf("sort keys out of time order: %q", keys)
	}
}

// K-6, Z-3: an unset partition-key field is an error, never "empty".
func TestUnsetKeyParts(t *testing.T) {
	_, err := orders.PrimaryKey(Order{PlacedAt: jan15, OrderID: "o1"})
	wantErr(t, err, "dynamo: schema Order: field user_id: partition-key value is unset")
	_, err = orders.PartitionValue(Order{})
	wantErr(t, err, "dynamo: schema Order: field user_id: partition-key value is unset")
	_, err = orders.PrimaryKey(Order{UserID: "u1", PlacedAt: jan15})
	wantErr(t, err, "dynamo: schema Order: field order_id: sort-key value is unset; the full key is required")
	_, err = orders.PrimaryKey(Order{UserID: "u1", OrderID: "o1"})
	wantErr(t, err, "dynamo: schema Order: field placed_at: sort-key value is unset; the full key is required")
	_, err = orders.IndexKey(Order{UserID: "u1"}, "StatusIndex") // status has a default: set
	if err != nil {
		t.Fatalf("status default should count as set: %v", err)
	}
	_, err = orders.Dump(Order{UserID: "u1", PlacedAt: jan15})
	wantErr(t, err, "dynamo: schema Order: field order_id: sort-key value is unset; the full key is required")

	type G struct {
		ID    string `dynamo:"id,pk"`
		Email string `dynamo:"email"`
	}
	g := schema.Must[G]("app", schema.GSI("ByEmail", "email", ""))
	_, err = g.IndexKey(G{ID: "1"}, "ByEmail")
	wantErr(t, err, "dynamo: schema G: field email: partition-key value of index ByEmail is unset")
}

// In an item's key a nil pointer is unset and 0 is a value.
func TestPointerKeyFields(t *testing.T) {
	type P struct {
		N *int    `dynamo:"n,pk"`
		S *string `dynamo:"s,sk"`
	}
	s := schema.Must[P]("app")
	zero, empty := 0, "x"
	k, err := s.PrimaryKey(P{N: &zero, S: &empty})
	if got := key(t, k, err); got != "pk=S:p#0 sk=S:x" {
		t.Fatal(got)
	}
	_, err = s.PrimaryKey(P{S: &empty})
	wantErr(t, err, "dynamo: schema P: field n: partition-key value is unset")

	type Z struct {
		N int `dynamo:"n,pk"`
	}
	k, err = schema.Must[Z]("app").PrimaryKey(Z{N: 0})
	if got := key(t, k, err); got != "pk=S:z#0" {
		t.Fatal(got)
	}
}

// K-7: partial sort keys stop at the first unset field.
func TestSortPrefix(t *testing.T) {
	tests := []struct {
		o        Order
		want     string
		complete bool
	}{
		{Order{UserID: "u1"}, "<nil>", false},
		{Order{UserID: "u1", OrderID: "o1"}, "<nil>", false}, // stops at placed_at
		{Order{UserID: "u1", PlacedAt: jan15}, "S:2024-01-15T10:00:00Z#", false},
		{Order{UserID: "u1", PlacedAt: jan15, OrderID: "o1"}, "S:2024-01-15T10:00:00Z#o1", true},
	}
	for _, tc := range tests {
		p, complete, err := orders.SortPrefix(tc.o)
		if err != nil || av(p) != tc.want || complete != tc.complete {
			t.Errorf("SortPrefix(%+v) = %s, %v, %v; want %s, %v", tc.o, av(p), complete, err, tc.want, tc.complete)
		}
	}
	noSK := schema.Must[NoKey]("app", schema.PartitionKey("id"))
	p, complete, err := noSK.SortPrefix(NoKey{ID: "1"})
	if p != nil || complete || err != nil {
		t.Errorf("no sort key: %s, %v, %v", av(p), complete, err)
	}
}

// QueryKey is PartitionValue and SortPrefix in one call: the same values,
// the same completeness, the same first error.
func TestQueryKeyAgreesWithApart(t *testing.T) {
	long := strings.Repeat("x", 2048)
	check := func(name string, gotPK, gotSK types.AttributeValue, gotComplete bool, gotErr error,
		wantPK, wantSK types.AttributeValue, wantComplete bool, wantErr error) {
		t.Helper()
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("%s: error %v, apart %v", name, gotErr, wantErr)
			return
		}
		if gotErr != nil {
			return
		}
		if av(gotPK) != av(wantPK) || av(gotSK) != av(wantSK) || gotComplete != wantComplete {
			t.Errorf("%s: %s %s %v, apart %s %s %v", name, av(gotPK), av(gotSK), gotComplete, av(wantPK), av(wantSK), wantComplete)
		}
	}
	apart := func(pk types.AttributeValue, pkErr error, sk types.AttributeValue, complete bool, skErr error) (types.AttributeValue, types.AttributeValue, bool, error) {
		if pkErr != nil {
			return nil, nil, false, pkErr
		}
		return pk, sk, complete, skErr
	}
	for _, o := range []Order{
		{UserID: "u1"},
		{UserID: "u1", OrderID: "o1"},
		{UserID: "u1", PlacedAt: jan15},
		{UserID: "u1", PlacedAt: jan15, OrderID: "o1"},
		{},
		{PlacedAt: jan15},
		{UserID: "u#1"},
		{UserID: "u1", PlacedAt: jan15, OrderID: "o#1"},
		{UserID: long},
		{UserID: "u1", PlacedAt: jan15, OrderID: long},
	} {
		pk, sk, complete, err := orders.QueryKey(o)
		pkA, pkErr := orders.PartitionValue(o)
		skA, completeA, skErr := orders.SortPrefix(o)
		wpk, wsk, wc, werr := apart(pkA, pkErr, skA, completeA, skErr)
		check(fmt.Sprintf("Order %+v", o), pk, sk, complete, err, wpk, wsk, wc, werr)
	}
	for _, o := range []UserOrder{{UserID: "u1"}, {UserID: "u1", OrderID: "o1"}, {OrderID: "o1"}} {
		pk, sk, complete, err := userOrders.QueryKey(o)
		pkA, pkErr := userOrders.PartitionValue(o)
		skA, completeA, skErr := userOrders.SortPrefix(o)
		wpk, wsk, wc, werr := apart(pkA, pkErr, skA, completeA, skErr)
		check(fmt.Sprintf("UserOrder %+v", o), pk, sk, complete, err, wpk, wsk, wc, werr)
	}
	raw := schema.Must[RawItem]("legacy", schema.RawKeys())
	for _, o := range []RawItem{{ID: 7}, {ID: 7, Name: "a#b"}, {Name: "n"}} {
		pk, sk, complete, err := raw.QueryKey(o)
		pkA, pkErr := raw.PartitionValue(o)
		skA, completeA, skErr := raw.SortPrefix(o)
		wpk, wsk, wc, werr := apart(pkA, pkErr, skA, completeA, skErr)
		check(fmt.Sprintf("RawItem %+v", o), pk, sk, complete, err, wpk, wsk, wc, werr)
	}
	noSK := schema.Must[NoKey]("app", schema.PartitionKey("id"))
	for _, o := range []NoKey{{ID: "1"}, {}} {
		pk, sk, complete, err := noSK.QueryKey(o)
		pkA, pkErr := noSK.PartitionValue(o)
		skA, completeA, skErr := noSK.SortPrefix(o)
		wpk, wsk, wc, werr := apart(pkA, pkErr, skA, completeA, skErr)
		check(fmt.Sprintf("NoKey %+v", o), pk, sk, complete, err, wpk, wsk, wc, werr)
	}
}

// A key's text is built in room allocated with the value's copy when it
// fits and apart when it does not; either way every key is whole and its
// own, whatever keys are built after it.
func TestKeyTextLengths(t *testing.T) {
	type built struct{ pk, sk, want string }
	var keys []built
	for n := 1; n <= 200; n += 7 {
		id := strings.Repeat("u", n)
		oid := strings.Repeat("o", 200-n)
		k, err := orders.PrimaryKey(Order{UserID: id, PlacedAt: jan15, OrderID: oid})
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, built{av(k.PK), av(k.SK), "S:order#" + id + " S:2024-01-15T10:00:00Z#" + oid})
		it, err := orders.Dump(Order{UserID: id, PlacedAt: jan15, OrderID: oid})
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, built{av(it["pk"]), av(it["sk"]), "S:order#" + id + " S:2024-01-15T10:00:00Z#" + oid})
		pk, sk, _, err := orders.QueryKey(Order{UserID: id, PlacedAt: jan15})
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, built{av(pk), av(sk), "S:order#" + id + " S:2024-01-15T10:00:00Z#"})
		pk, err = orders.PartitionValue(Order{UserID: id})
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, built{av(pk), "", "S:order#" + id + " "})
	}
	for _, k := range keys {
		if got := k.pk + " " + k.sk; got != k.want {
			t.Errorf("key %q, want %q", got, k.want)
		}
	}
}

// K-8, Z-1: a separator inside any key value is rejected, not split.
func TestSeparatorInValue(t *testing.T) {
	_, err := orders.PrimaryKey(Order{UserID: "u#1", PlacedAt: jan15, OrderID: "o1"})
	wantErr(t, err, `dynamo: schema Order: field user_id: value contains the key separator "#"`)
	_, err = orders.PrimaryKey(Order{UserID: "u1", PlacedAt: jan15, OrderID: "o#1"})
	wantErr(t, err, `dynamo: schema Order: field order_id: value contains the key separator "#"`)
	_, _, err = orders.SortPrefix(Order{UserID: "u1", PlacedAt: jan15, OrderID: "o#1"})
	wantErr(t, err, `dynamo: schema Order: field order_id: value contains the key separator "#"`)

	// With "-" as the separator, ISO dates cannot be key parts (K-8's
	// reason for "#"); 0.1 silently produced "2024-15".
	dash := schema.Must[Order]("app", schema.EntityName("order"), schema.Separator("-"))
	_, err = dash.PrimaryKey(Order{UserID: "u1", PlacedAt: jan15, OrderID: "o1"})
	wantErr(t, err, `dynamo: schema Order: field placed_at: value contains the key separator "-"`)

	multi := schema.Must[Order]("app", schema.EntityName("order"), schema.Separator("::"))
	k, err := multi.PrimaryKey(Order{UserID: "u:1", PlacedAt: jan15, OrderID: "o1"})
	if got := key(t, k, err); got != "pk=S:order::u:1 sk=S:2024-01-15T10:00:00Z::o1" {
		t.Fatal(got)
	}
}

// An empty string is unset, so it can never make "user#".
func TestEmptyStringIsUnset(t *testing.T) {
	_, err := orders.PrimaryKey(Order{UserID: "", PlacedAt: jan15, OrderID: "o1"})
	wantErr(t, err, "dynamo: schema Order: field user_id: partition-key value is unset")
}

type RawItem struct {
	ID    int64  `dynamo:"id,pk"`
	Name  string `dynamo:"name,sk"`
	Count int    `dynamo:"count"`
}

// K-1, K-9: raw keys keep their type; names default to the fields'.
func TestRawKeys(t *testing.T) {
	s := schema.Must[RawItem]("legacy", schema.RawKeys())
	k, err := s.PrimaryKey(RawItem{ID: 7, Name: "a#b"})
	if got := key(t, k, err); got != "id=N:7 name=S:a#b" {
		t.Fatal(got)
	}
	if pk, sk := s.KeyNames(); pk != "id" || sk != "name" {
		t.Fatalf("KeyNames = %s, %s", pk, sk)
	}
	it, err := s.Dump(RawItem{ID: 7, Name: "n", Count: 2})
	if err != nil || item(it) != "_entity=S:raw_item count=N:2 id=N:7 name=S:n" {
		t.Fatalf("Dump = %s, %v", item(it), err)
	}
	d := s.Describe()
	if d.PKType != "N" || d.SKType != "S" || !d.RawKeys {
		t.Fatalf("Describe = %+v", d)
	}
	p, complete, err := s.SortPrefix(RawItem{ID: 7})
	if p != nil || complete || err != nil {
		t.Fatalf("SortPrefix = %s %v %v", av(p), complete, err)
	}

	renamed := schema.Must[RawItem]("legacy", schema.RawKeys(), schema.PartitionKeyName("PK"))
	it, err = renamed.Dump(RawItem{ID: 7, Name: "n"})
	if err != nil || item(it) != "PK=N:7 _entity=S:raw_item count=N:0 id=N:7 name=S:n" {
		t.Fatalf("renamed Dump = %s, %v", item(it), err)
	}
	got, err := renamed.Load(map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberN{Value: "9"}, "name": &types.AttributeValueMemberS{Value: "n"},
	})
	if err != nil || got.ID != 9 {
		t.Fatalf("Load from renamed raw key = %+v, %v", got, err)
	}
}

// K-11: GSI keys are the fields' own values and types.
func TestIndexKey(t *testing.T) {
	type Score struct {
		Game   string `dynamo:"game,pk"`
		Player string `dynamo:"player,sk"`
		Points int    `dynamo:"points"`
		Region string `dynamo:"region"`
	}
	s := schema.Must[Score]("app",
		schema.GSI("TopScores", "game", "points"),
		schema.GSI("ByRegion", "region", ""),
		schema.GSI("Inverted", "sk", "pk"),
		schema.LSI("ByPoints", "points"),
	)
	v := Score{Game: "chess", Player: "ann", Points: 1200, Region: "eu"}
	k, err := s.IndexKey(v, "TopScores")
	if got := key(t, k, err); got != "game=S:chess points=N:1200" {
		t.Fatal(got)
	}
	k, err = s.IndexKey(Score{Game: "chess"}, "TopScores")
	if got := key(t, k, err); got != "game=S:chess" {
		t.Fatalf("unset index sort key: %s", got)
	}
	k, err = s.IndexKey(v, "ByRegion")
	if got := key(t, k, err); got != "region=S:eu" {
		t.Fatal(got)
	}
	k, err = s.IndexKey(v, "Inverted")
	if got := key(t, k, err); got != "sk=S:ann pk=S:score#chess" {
		t.Fatal(got)
	}
	k, err = s.IndexKey(v, "ByPoints")
	if got := key(t, k, err); got != "pk=S:score#chess points=N:1200" {
		t.Fatal(got)
	}
	_, err = s.IndexKey(v, "Nope")
	wantErr(t, err, "dynamo: schema Score: no index Nope")
	ix, _ := s.Index("TopScores")
	if ix.PKType != "S" || ix.SKType != "N" {
		t.Fatalf("index types %s %s", ix.PKType, ix.SKType)
	}
}

type User struct {
	UserID string `dynamo:"user_id,pk"`
	Kind   string `dynamo:"kind,sk,default=profile"`
	Name   string `dynamo:"name"`
}

type UserOrder struct {
	UserID  string `dynamo:"user_id,pk"`
	Kind    string `dynamo:"kind,sk,default=order"`
	OrderID string `dynamo:"order_id,sk"`
	Total   int    `dynamo:"total"`
}

var (
	users      = schema.Must[User]("app")
	userOrders = schema.Must[UserOrder]("app", schema.EntityFrom(users))
)

// S-18, Z-6: a child declared with EntityFrom lives in its parent's
// partition, and every key function applies the same keys.
func TestParentChild(t *testing.T) {
	k, err := users.PrimaryKey(User{UserID: "u1"})
	if got := key(t, k, err); got != "pk=S:user#u1 sk=S:profile" {
		t.Fatal(got)
	}
	o := UserOrder{UserID: "u1", OrderID: "o1"}
	k, err = userOrders.PrimaryKey(o)
	if got := key(t, k, err); got != "pk=S:user#u1 sk=S:order#o1" {
		t.Fatal(got)
	}
	pv, err := userOrders.PartitionValue(UserOrder{UserID: "u1"})
	if err != nil || av(pv) != "S:user#u1" {
		t.Fatalf("PartitionValue = %s, %v", av(pv), err)
	}
	p, complete, err := userOrders.SortPrefix(UserOrder{UserID: "u1"})
	if err != nil || complete || av(p) != "S:order#" {
		t.Fatalf("SortPrefix = %s, %v, %v", av(p), complete, err)
	}
	it, err := userOrders.Dump(o)
	if err != nil || item(it) != "_entity=S:user_order kind=S:order order_id=S:o1 pk=S:user#u1 sk=S:order#o1 total=N:0 user_id=S:u1" {
		t.Fatalf("Dump = %s, %v", item(it), err)
	}
	parent, _ := users.Dump(User{UserID: "u1", Name: "Ann"})
	if !userOrders.Owns(it) || userOrders.Owns(parent) {
		t.Error("child Owns")
	}
	if !users.Owns(parent) || users.Owns(it) {
		t.Error("parent Owns")
	}
}

// K-12: default names and a single-word entity give 0.1-compatible keys.
func TestCompatibleWithOneDotOne(t *testing.T) {
	type Widget struct {
		ID string `dynamo:"id,pk"`
	}
	k, err := schema.Must[Widget]("app").PrimaryKey(Widget{ID: "w1"})
	if got := key(t, k, err); got != "pk=S:widget#w1" {
		t.Fatal(got)
	}
}

// K-13: an upper bound of a date range needs "~" to include the keys that
// extend the bound; "#~" is wrong because "#" sorts below "T".
func TestRangeBoundsOnCompositeKeys(t *testing.T) {
	k, err := orders.PrimaryKey(Order{UserID: "u1", PlacedAt: time.Date(2024, 1, 31, 10, 0, 0, 0, time.UTC), OrderID: "o1"})
	if err != nil {
		t.Fatal(err)
	}
	sk := k.SK.(*types.AttributeValueMemberS).Value
	if !("2024-01-31" < sk && sk < "2024-01-31~") {
		t.Fatalf("%q should lie between 2024-01-31 and 2024-01-31~", sk)
	}
	if sk < "2024-01-31#~" {
		t.Fatalf("%q sorts below 2024-01-31#~: the K-13 trap does not hold", sk)
	}
}

func TestEmbeddedHasNoKeys(t *testing.T) {
	s, err := schema.Embedded[Address]()
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.PrimaryKey(Address{Street: "x"})
	wantErr(t, err, "dynamo: schema Address: an embedded schema has no table keys")
	_, err = s.Dump(Address{Street: "x"})
	wantErr(t, err, "dynamo: schema Address: an embedded schema cannot be stored as a top-level item")
	it, err := s.DumpAttributes(Address{Street: "x", City: "y"})
	if err != nil || item(it) != "city=S:y street=S:x" {
		t.Fatalf("DumpAttributes = %s, %v", item(it), err)
	}
	got, err := s.Load(it)
	if err != nil || got != (Address{Street: "x", City: "y"}) {
		t.Fatalf("Load = %+v, %v", got, err)
	}
	if s.Owns(it) {
		t.Fatal("an embedded schema owns no items")
	}
}

func wantErr(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %q", want)
	}
	if err.Error() != want {
		t.Fatalf("error\n got: %s\nwant: %s", err, want)
	}
}

// Key values longer than DynamoDB allows fail before any request.
func TestKeySizeLimits(t *testing.T) {
	long := strings.Repeat("x", 2048)
	_, err := orders.PrimaryKey(Order{UserID: long, PlacedAt: jan15, OrderID: "o1"})
	wantErr(t, err, "dynamo: schema Order: field pk: partition key is 2054 bytes; DynamoDB allows at most 2048")
	_, err = orders.PrimaryKey(Order{UserID: "u1", PlacedAt: jan15, OrderID: long[:1004]})
	wantErr(t, err, "dynamo: schema Order: field sk: sort key is 1025 bytes; DynamoDB allows at most 1024")
	if _, err := orders.PrimaryKey(Order{UserID: long[:2042], PlacedAt: jan15, OrderID: long[:1003]}); err != nil {
		t.Fatalf("keys at the limits: %v", err)
	}
	// The partition key's size is checked before the sort key is looked at.
	_, err = orders.PrimaryKey(Order{UserID: long})
	wantErr(t, err, "dynamo: schema Order: field pk: partition key is 2054 bytes; DynamoDB allows at most 2048")
	_, err = orders.Dump(Order{UserID: long, OrderID: long[:1004]})
	wantErr(t, err, "dynamo: schema Order: field pk: partition key is 2054 bytes; DynamoDB allows at most 2048")
	raw := schema.Must[RawItem]("legacy", schema.RawKeys())
	_, err = raw.PrimaryKey(RawItem{ID: 1, Name: long[:1025]})
	wantErr(t, err, "dynamo: schema RawItem: field name: sort key is 1025 bytes; DynamoDB allows at most 1024")
}

// Defaults of number and bool key fields are used in their encoded form.
func TestKeyDefaultsOfEveryKind(t *testing.T) {
	type Versioned struct {
		ID     string `dynamo:"id,pk"`
		V      *int   `dynamo:"v,sk,default=007"`
		Active *bool  `dynamo:"active,sk,default=true"`
	}
	s := schema.Must[Versioned]("app")
	k, err := s.PrimaryKey(Versioned{ID: "x"})
	if got := key(t, k, err); got != "pk=S:versioned#x sk=S:7#true" {
		t.Fatal(got)
	}
	two, zero, no := 2, 0, false
	k, err = s.PrimaryKey(Versioned{ID: "x", V: &two})
	if got := key(t, k, err); got != "pk=S:versioned#x sk=S:2#true" {
		t.Fatal(got)
	}
	k, err = s.PrimaryKey(Versioned{ID: "x", V: &zero, Active: &no})
	if got := key(t, k, err); got != "pk=S:versioned#x sk=S:0#false" {
		t.Fatal(got)
	}
}

func TestVectorIndexReflection(t *testing.T) {
	s := schema.Must[Doc]("docs",
		schema.VectorIndex("Semantic", "embedding", schema.Euclidean(), schema.VectorPartition("tenant"),
			schema.InlineFilters("year"), schema.ProjectAll()),
	)
	vx, ok := s.VectorIndex("Semantic")
	if !ok || vx.Attribute != "embedding" || vx.Dimensions != 3 || vx.Distance != "EUCLIDEAN" ||
		vx.Partition != "tenant" || vx.PartitionType != "S" || len(vx.Filters) != 1 || vx.FilterTypes[0] != "N" ||
		vx.Projection != "ALL" || vx.NonKeyAttributes != nil {
		t.Fatalf("VectorIndex = %+v, %v", vx, ok)
	}
	if _, ok := s.VectorIndex("Nope"); ok {
		t.Fatal("VectorIndex(Nope) found")
	}
	if _, ok := s.Index("Semantic"); ok {
		t.Fatal("Index finds a vector index")
	}
	_, err := s.IndexKey(Doc{Tenant: "t"}, "Semantic")
	wantErr(t, err, "dynamo: schema Doc: Semantic is a vector index; it has no key")
	if len(s.VectorIndexes()) != 1 || len(s.Describe().VectorIndexes) != 1 {
		t.Fatal("VectorIndexes")
	}
}

// A string key field holding "" is unset (an empty key part cannot be
// stored): Dump writes its default as the attribute too, as in the key; a
// value field holding "" keeps it.
func TestDumpWritesKeyFieldDefaults(t *testing.T) {
	it, err := users.Dump(User{UserID: "u1"})
	if err != nil {
		t.Fatal(err)
	}
	if got := item(it); got != "_entity=S:user kind=S:profile name=S: pk=S:user#u1 sk=S:profile user_id=S:u1" {
		t.Fatal(got)
	}
	back, err := users.Load(it)
	if err != nil || back != (User{UserID: "u1", Kind: "profile"}) {
		t.Fatalf("Load = %+v, %v", back, err)
	}
}

// Dump's generated keys are PrimaryKey's, and each attribute value of the
// item is its own: changing one changes no other (the key values and the
// entity attribute are made together).
func TestDumpKeysAreDistinctValues(t *testing.T) {
	o := Order{UserID: "u1", PlacedAt: jan15, OrderID: "o1"}
	item, err := orders.Dump(o)
	if err != nil {
		t.Fatal(err)
	}
	key, err := orders.PrimaryKey(o)
	if err != nil {
		t.Fatal(err)
	}
	s := func(name string) string { return item[name].(*types.AttributeValueMemberS).Value }
	if s("pk") != "order#u1" || s("sk") != "2024-01-15T10:00:00Z#o1" || s(orders.EntityAttribute()) != "order" {
		t.Fatalf("pk %q, sk %q, entity %q", s("pk"), s("sk"), s(orders.EntityAttribute()))
	}
	if av(item["pk"]) != av(key.PK) || av(item["sk"]) != av(key.SK) {
		t.Fatalf("Dump's key %v %v, PrimaryKey's %v %v", item["pk"], item["sk"], key.PK, key.SK)
	}
	item["pk"].(*types.AttributeValueMemberS).Value = "x"
	item["sk"].(*types.AttributeValueMemberS).Value = "y"
	if s(orders.EntityAttribute()) != "order" || key.PK.(*types.AttributeValueMemberS).Value != "order#u1" {
		t.Fatalf("entity %q, key %v after changing the item's keys", s(orders.EntityAttribute()), key.PK)
	}
	again, _ := orders.Dump(o)
	if again["pk"].(*types.AttributeValueMemberS).Value != "order#u1" || again["sk"].(*types.AttributeValueMemberS).Value != "2024-01-15T10:00:00Z#o1" {
		t.Fatalf("a second Dump: %v %v", again["pk"], again["sk"])
	}
}
