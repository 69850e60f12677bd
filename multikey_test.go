package dynamo_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/schema"
)

// Multi-attribute GSI keys: declared over typed fields, created with the
// exact key schema, and queried in the struct-as-key style.

type Ticket struct {
	ID        string    `dynamo:"id,pk"`
	Tenant    string    `dynamo:"tenant"`
	Region    string    `dynamo:"region"`
	CreatedAt time.Time `dynamo:"created_at,precision=s"`
	Priority  int       `dynamo:"priority"`
	Blob      []byte    `dynamo:"blob"`
	Title     string    `dynamo:"title"`
	Note      string    `dynamo:"note"`
}

var Tickets = schema.Must[Ticket]("tickets",
	schema.MultiKeyGSI("ByTenant", []string{"tenant", "region"}, []string{"created_at", "priority"}),
	// Four attributes on each side, every key type.
	schema.MultiKeyGSI("Four", []string{"tenant", "region", "priority", "blob"},
		[]string{"created_at", "title"}, schema.KeysOnly()),
	schema.MultiKeyGSI("NoSort", []string{"tenant", "region"}, nil, schema.Include("title")),
	schema.GSI("ByTitle", "title", "created_at"),
)

// Wide uses the limits: four partition and four sort attributes, S, N and B.
type Wide struct {
	ID   string  `dynamo:"id,pk"`
	P1   string  `dynamo:"p1"`
	P2   int     `dynamo:"p2"`
	P3   []byte  `dynamo:"p3"`
	P4   float64 `dynamo:"p4"`
	S1   []byte  `dynamo:"s1"`
	S2   int     `dynamo:"s2"`
	S3   string  `dynamo:"s3"`
	S4   int64   `dynamo:"s4"`
	Data string  `dynamo:"data"`
}

var Wides = schema.Must[Wide]("wides",
	schema.MultiKeyGSI("Wide", []string{"p1", "p2", "p3", "p4"}, []string{"s1", "s2", "s3", "s4"}),
)

var mk = func(h int) time.Time { return time.Date(2025, 3, 1, h, 0, 0, 0, time.UTC) }

func TestMultiKeyGSICreateTable(t *testing.T) {
	in, err := schema.CreateTableInput(Tickets)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, g := range in.GlobalSecondaryIndexes {
		var ks []string
		for _, k := range g.KeySchema {
			ks = append(ks, aws.ToString(k.AttributeName)+" "+string(k.KeyType))
		}
		got[aws.ToString(g.IndexName)] = strings.Join(ks, ", ")
	}
	want := map[string]string{
		"ByTenant": "tenant HASH, region HASH, created_at RANGE, priority RANGE",
		"Four":     "tenant HASH, region HASH, priority HASH, blob HASH, created_at RANGE, title RANGE",
		"NoSort":   "tenant HASH, region HASH",
		"ByTitle":  "title HASH, created_at RANGE",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: key schema %q, want %q", k, got[k], w)
		}
	}
	var defs []string
	for _, d := range in.AttributeDefinitions {
		defs = append(defs, aws.ToString(d.AttributeName)+" "+string(d.AttributeType))
	}
	slices.Sort(defs)
	if w := "blob B, created_at S, pk S, priority N, region S, tenant S, title S"; strings.Join(defs, ", ") != w {
		t.Errorf("attribute definitions %q, want %q", strings.Join(defs, ", "), w)
	}

	// Through the repo: the server keeps the key schema in order.
	repo, _ := dynamotest.NewRepo(t, Wides)
	desc, err := repo.DescribeTable(context.Background(), "wides")
	if err != nil {
		t.Fatal(err)
	}
	var ks []string
	for _, k := range desc.GlobalSecondaryIndexes[0].KeySchema {
		ks = append(ks, aws.ToString(k.AttributeName)+" "+string(k.KeyType))
	}
	if w := "p1 HASH, p2 HASH, p3 HASH, p4 HASH, s1 RANGE, s2 RANGE, s3 RANGE, s4 RANGE"; strings.Join(ks, ", ") != w {
		t.Errorf("described key schema %q, want %q", strings.Join(ks, ", "), w)
	}
	// SyncTables finds nothing to change.
	changes, err := repo.SyncTables(context.Background(), Wides)
	if err != nil || len(changes) != 0 {
		t.Fatalf("SyncTables: %v, %v", changes, err)
	}
}

func TestMultiKeyGSIDeclarationErrors(t *testing.T) {
	type M struct {
		ID   string         `dynamo:"id,pk"`
		A    string         `dynamo:"a"`
		B    int            `dynamo:"b"`
		C    []byte         `dynamo:"c"`
		D    string         `dynamo:"d"`
		E    string         `dynamo:"e"`
		Tags map[string]int `dynamo:"tags"`
		OK   bool           `dynamo:"ok"`
	}
	cases := []struct {
		name   string
		pk, sk []string
		want   string
	}{
		{"no partition", nil, []string{"a"}, "GSI Idx needs a partition key"},
		{"five partition", []string{"a", "b", "c", "d", "e"}, nil, "GSI Idx has 5 partition-key attributes; DynamoDB allows 1 to 4"},
		{"five sort", []string{"id"}, []string{"a", "b", "c", "d", "e"}, "GSI Idx has 5 sort-key attributes; DynamoDB allows at most 4"},
		{"duplicate partition", []string{"a", "a"}, nil, "field a: GSI Idx lists the field twice in its partition key"},
		{"duplicate sort", []string{"id"}, []string{"b", "c", "b"}, "field b: GSI Idx lists the field twice in its sort key"},
		{"both sides", []string{"a", "b"}, []string{"c", "a"}, "field a: GSI Idx uses the field as both partition and sort key"},
		{"undefined", []string{"a", "zz"}, nil, "field zz: GSI Idx partition key names an undefined field"},
		{"map", []string{"a"}, []string{"b", "tags"}, "field tags: GSI Idx sort key must be of type S, N or B, not M (map)"},
		{"bool", []string{"a", "ok"}, nil, "field ok: GSI Idx partition key must be of type S, N or B, not BOOL"},
		{"empty name", []string{"a", ""}, nil, "GSI Idx: a partition key attribute name is empty"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := schema.New[M]("mmm", schema.MultiKeyGSI("Idx", tc.pk, tc.sk))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
	if _, err := schema.New[M]("mmm", schema.MultiKeyGSI("Idx", []string{"a", "b", "c", "d"}, []string{"e", "id"})); err != nil {
		t.Fatal(err)
	}
}

func TestMultiKeyGSIIndexingAndQueries(t *testing.T) {
	repo, _ := dynamotest.NewRepo(t, Tickets)
	ctx := context.Background()
	tickets := dynamo.Bind(repo, Tickets)

	// Every write path indexes the item.
	put := func(id, tenant, region string, h, prio int) Ticket {
		return Ticket{ID: id, Tenant: tenant, Region: region, CreatedAt: mk(h), Priority: prio, Blob: []byte{byte(prio)}, Title: "t-" + id}
	}
	if err := tickets.Put(ctx, put("a", "t1", "eu", 1, 2)); err != nil {
		t.Fatal(err)
	}
	if _, err := repo.BatchWrite(ctx, []dynamo.WriteOp{
		tickets.PutOp(put("b", "t1", "eu", 2, 1)),
		tickets.PutOp(put("c", "t1", "eu", 2, 3)),
		tickets.PutOp(put("d", "t1", "us", 2, 3)),
		tickets.PutOp(put("gone", "t1", "eu", 5, 0)),
	}); err != nil {
		t.Fatal(err)
	}
	if err := repo.Transact(ctx, []dynamo.TxOp{tickets.TxPut(put("e", "t1", "eu", 3, 0))}); err != nil {
		t.Fatal(err)
	}
	// An update moves an item between index partitions.
	if _, err := tickets.Update(ctx, Ticket{ID: "d"}, expr.Set("region", "eu")); err != nil {
		t.Fatal(err)
	}
	if _, err := tickets.Update(ctx, Ticket{ID: "c"}, expr.Set("region", "us")); err != nil {
		t.Fatal(err)
	}
	if err := tickets.Delete(ctx, Ticket{ID: "gone"}); err != nil {
		t.Fatal(err)
	}
	// Without a tenant the item is in no multi-attribute index.
	if err := tickets.Put(ctx, Ticket{ID: "solo", Region: "eu", CreatedAt: mk(1)}); err != nil {
		t.Fatal(err)
	}

	idsOf := func(ts []Ticket) string {
		var out []string
		for _, x := range ts {
			out = append(out, x.ID)
		}
		return strings.Join(out, " ")
	}
	eu := Ticket{Tenant: "t1", Region: "eu"}
	byTenant := dynamo.Index("ByTenant")
	cases := []struct {
		name string
		key  Ticket
		opts []dynamo.QueryAllOption
		want string
	}{
		{"partition", eu, nil, "a b d e"},
		{"descending", eu, []dynamo.QueryAllOption{dynamo.Descending()}, "e d b a"},
		{"first sort set", Ticket{Tenant: "t1", Region: "eu", CreatedAt: mk(2)}, nil, "b d"},
		{"both sort set", Ticket{Tenant: "t1", Region: "eu", CreatedAt: mk(2), Priority: 3}, nil, "d"},
		{"range on the first sort attribute", eu, []dynamo.QueryAllOption{dynamo.SortGt(mk(1))}, "b d e"},
		{"between times", eu, []dynamo.QueryAllOption{dynamo.SortBetween(mk(1), mk(2))}, "a b d"},
		{"begins_with on a time", eu, []dynamo.QueryAllOption{dynamo.SortBeginsWith("2025-03-01T02")}, "b d"},
		{"range on the next attribute, a number", Ticket{Tenant: "t1", Region: "eu", CreatedAt: mk(2)}, []dynamo.QueryAllOption{dynamo.SortGe(2)}, "d"},
		{"range on the last attribute when all are set", Ticket{Tenant: "t1", Region: "eu", CreatedAt: mk(2), Priority: 3}, []dynamo.QueryAllOption{dynamo.SortLt(3)}, "b"},
		{"sort none", Ticket{Tenant: "t1", Region: "eu", CreatedAt: mk(2)}, []dynamo.QueryAllOption{dynamo.SortNone()}, "a b d e"},
		{"filter", eu, []dynamo.QueryAllOption{dynamo.Filter(expr.Eq("title", "t-b"))}, "b"},
		{"other partition", Ticket{Tenant: "t1", Region: "us"}, nil, "c"},
		{"page of one", eu, []dynamo.QueryAllOption{dynamo.Limit(1)}, "a b d e"},
		{"no sort key", eu, []dynamo.QueryAllOption{dynamo.Index("NoSort")}, "a b d e"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := append([]dynamo.QueryAllOption{byTenant}, tc.opts...)
			got, err := tickets.QueryAll(ctx, tc.key, opts...)
			if err != nil {
				t.Fatal(err)
			}
			if tc.name == "no sort key" {
				slices.SortFunc(got, func(a, b Ticket) int { return strings.Compare(a.ID, b.ID) })
			}
			if g := idsOf(got); g != tc.want {
				t.Fatalf("got %q, want %q", g, tc.want)
			}
		})
	}

	// Pagination by hand: every cursor carries every key attribute.
	var pages []string
	var cursor string
	for {
		page, err := tickets.Query(ctx, eu, byTenant, dynamo.Limit(2), dynamo.StartAfter(cursor))
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, idsOf(page.Items))
		if cursor = page.Cursor; cursor == "" {
			break
		}
	}
	if got := strings.Join(pages, " | "); got != "a b | d e | " && got != "a b | d e" {
		t.Fatalf("pages %q", got)
	}

	// Keys-only and include projections load the key fields and what they hold.
	four, err := tickets.QueryAll(ctx, Ticket{Tenant: "t1", Region: "eu", Priority: 3, Blob: []byte{3}}, dynamo.Index("Four"))
	if err != nil {
		t.Fatal(err)
	}
	if len(four) != 1 || four[0].ID != "d" || four[0].Title != "t-d" || !four[0].CreatedAt.Equal(mk(2)) || four[0].Note != "" {
		t.Fatalf("Four: %+v", four)
	}
	inc, err := tickets.QueryAll(ctx, eu, dynamo.Index("NoSort"))
	if err != nil || len(inc) != 4 || inc[0].Title == "" || inc[0].ID == "" || inc[0].Tenant != "t1" || inc[0].Priority != 0 {
		t.Fatalf("NoSort: %+v %v", inc, err)
	}
	// A classic GSI next to them keeps working.
	if got, err := tickets.QueryAll(ctx, Ticket{Title: "t-a"}, dynamo.Index("ByTitle")); err != nil || idsOf(got) != "a" {
		t.Fatalf("ByTitle: %v %v", idsOf(got), err)
	}
}

func TestMultiKeyGSIQueryRefused(t *testing.T) {
	repo, _ := dynamotest.NewRepo(t, Tickets)
	ctx := context.Background()
	tickets := dynamo.Bind(repo, Tickets)
	byTenant := dynamo.Index("ByTenant")
	cases := []struct {
		name string
		key  Ticket
		opts []dynamo.QueryOption
		want string
	}{
		{"missing partition field", Ticket{Tenant: "t1"}, nil, "field region: partition-key value of index ByTenant is unset"},
		{"missing first partition field", Ticket{Region: "eu"}, nil, "field tenant: partition-key value of index ByTenant is unset"},
		{"gap", Ticket{Tenant: "t1", Region: "eu", Priority: 2}, nil, "field priority: sort-key attribute of index ByTenant is set but created_at before it is not"},
		{"gap with a condition", Ticket{Tenant: "t1", Region: "eu", Priority: 2}, []dynamo.QueryOption{dynamo.SortGt(mk(1))}, "field priority"},
		{"begins_with on a number", Ticket{Tenant: "t1", Region: "eu", CreatedAt: mk(1)}, []dynamo.QueryOption{dynamo.SortBeginsWith("1")}, "field priority: begins_with needs a string or binary"},
		{"wrong type for the next attribute", Ticket{Tenant: "t1", Region: "eu", CreatedAt: mk(1)}, []dynamo.QueryOption{dynamo.SortGt(mk(1))}, "priority"},
		{"filter on a key attribute", Ticket{Tenant: "t1", Region: "eu"}, []dynamo.QueryOption{dynamo.Filter(expr.Eq("priority", 1))}, "field priority: a Query filter cannot use the key attributes"},
		{"no sort key", Ticket{Tenant: "t1", Region: "eu"}, []dynamo.QueryOption{dynamo.Index("NoSort"), dynamo.SortGt(1)}, "without a sort key"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := append([]dynamo.QueryOption{byTenant}, tc.opts...)
			if tc.name == "no sort key" {
				opts = tc.opts
			}
			_, err := tickets.Query(ctx, tc.key, opts...)
			if !errors.Is(err, dynamo.ErrValidation) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want a validation error with %q", err, tc.want)
			}
			var e *dynamo.Error
			if errors.As(err, &e) && e.AWSCode != "" {
				t.Fatalf("the request was sent: %v", err)
			}
		})
	}
}

func TestMultiKeyGSIFourEachSide(t *testing.T) {
	repo, _ := dynamotest.NewRepo(t, Wides)
	ctx := context.Background()
	wides := dynamo.Bind(repo, Wides)
	var ops []dynamo.WriteOp
	for i := range 6 {
		ops = append(ops, wides.PutOp(Wide{ID: fmt.Sprint(i), P1: "a", P2: 7, P3: []byte{1, 2}, P4: 1.5,
			S1: []byte{0xff}, S2: 10 - i/2, S3: fmt.Sprint("s", i%2), S4: int64(i), Data: "d"}))
	}
	// Another partition: one attribute differs.
	ops = append(ops, wides.PutOp(Wide{ID: "x", P1: "a", P2: 8, P3: []byte{1, 2}, P4: 1.5, S1: []byte{0xff}, S2: 1, S3: "s", S4: 1}))
	if _, err := repo.BatchWrite(ctx, ops); err != nil {
		t.Fatal(err)
	}
	part := Wide{P1: "a", P2: 7, P3: []byte{1, 2}, P4: 1.5}
	all, err := wides.QueryAll(ctx, part, dynamo.Index("Wide"))
	if err != nil {
		t.Fatal(err)
	}
	// Sorted by s1, then s2 as a number (8 < 9 < 10), then s3, then s4.
	var got []string
	for _, w := range all {
		got = append(got, w.ID)
	}
	if g := strings.Join(got, " "); g != "4 5 2 3 0 1" {
		t.Fatalf("order %q", g)
	}
	// Three sort attributes set, a range on the fourth, paged one by one.
	key := part
	key.S1, key.S2, key.S3 = []byte{0xff}, 9, "s0"
	var ids []string
	for w, err := range wides.QueryStream(ctx, key, dynamo.Index("Wide"), dynamo.SortGe(int64(2)), dynamo.Limit(1)) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, w.ID)
	}
	if strings.Join(ids, " ") != "2" {
		t.Fatalf("range on s4: %v", ids)
	}
	// Count through Select.
	page, err := wides.Query(ctx, part, dynamo.Index("Wide"), dynamo.Select(types.SelectCount))
	if err != nil || page.Count != 6 {
		t.Fatalf("count %d, %v", page.Count, err)
	}
}

func TestMultiKeyGSISyncTablesAddsIndex(t *testing.T) {
	before := schema.Must[Ticket]("tickets", schema.GSI("ByTitle", "title", "created_at"))
	repo, _ := dynamotest.NewRepo(t, before)
	ctx := context.Background()
	changes, err := repo.SyncTables(ctx, Tickets)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range changes {
		got = append(got, c.String())
	}
	if w := "tickets: create index ByTenant, tickets: create index Four, tickets: create index NoSort"; strings.Join(got, ", ") != w {
		t.Fatalf("changes %q, want %q", strings.Join(got, ", "), w)
	}
	tickets := dynamo.Bind(repo, Tickets)
	if err := tickets.Put(ctx, Ticket{ID: "a", Tenant: "t1", Region: "eu", CreatedAt: mk(1), Priority: 1, Blob: []byte{1}, Title: "x"}); err != nil {
		t.Fatal(err)
	}
	found, err := tickets.QueryAll(ctx, Ticket{Tenant: "t1", Region: "eu", CreatedAt: mk(1)}, dynamo.Index("ByTenant"))
	if err != nil || len(found) != 1 {
		t.Fatalf("after SyncTables: %v, %v", found, err)
	}
	// A second run finds everything in place.
	if changes, err := repo.SyncTables(ctx, Tickets); err != nil || len(changes) != 0 {
		t.Fatalf("second SyncTables: %v, %v", changes, err)
	}
}
