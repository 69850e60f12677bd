package dynamo_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/schema"
)

// A single-table partition holding four entities, as the data-modelling
// guide designs it: a member's profile (sort key "profile"), a child of the
// same sort-key shape ("child"), and two siblings of one shape
// ("order#id" and "payment#id").
type Member struct {
	ID   string `dynamo:"id,pk"`
	Kind string `dynamo:"kind,sk,default=profile"`
	Name string `dynamo:"name"`
}

type MemberChild struct {
	ID   string `dynamo:"id,pk"`
	Kind string `dynamo:"kind,sk,default=child"`
	Name string `dynamo:"name"`
}

type MemberOrder struct {
	ID     string `dynamo:"id,pk"`
	Kind   string `dynamo:"kind,sk,default=order"`
	Ref    string `dynamo:"ref,sk"`
	Amount int    `dynamo:"amount"`
}

type MemberPayment struct {
	ID     string `dynamo:"id,pk"`
	Kind   string `dynamo:"kind,sk,default=payment"`
	Ref    string `dynamo:"ref,sk"`
	Amount int    `dynamo:"amount"`
}

var (
	Members        = schema.Must[Member]("members", schema.Stream(types.StreamViewTypeNewAndOldImages))
	MemberChildren = schema.Must[MemberChild]("members", schema.EntityFrom(Members))
	MemberOrders   = schema.Must[MemberOrder]("members", schema.EntityFrom(Members))
	MemberPayments = schema.Must[MemberPayment]("members", schema.EntityFrom(Members))
)

type memberTables struct {
	repo     *dynamo.Repo
	members  *dynamo.Table[Member]
	children *dynamo.Table[MemberChild]
	orders   *dynamo.Table[MemberOrder]
	payments *dynamo.Table[MemberPayment]
}

// seedMembers writes, for m1 and m2, a profile, a child, orders r1 and r2
// and payments r1 and r2 (the payments' refs equal the orders').
func seedMembers(t *testing.T) memberTables {
	t.Helper()
	repo, _ := dynamotest.NewRepo(t, Members, MemberChildren, MemberOrders, MemberPayments)
	m := memberTables{repo, dynamo.Bind(repo, Members), dynamo.Bind(repo, MemberChildren), dynamo.Bind(repo, MemberOrders), dynamo.Bind(repo, MemberPayments)}
	var ops []dynamo.WriteOp
	for _, id := range []string{"m1", "m2"} {
		ops = append(ops, m.members.PutOp(Member{ID: id, Name: "parent"}), m.children.PutOp(MemberChild{ID: id, Name: "child"}))
		for i, ref := range []string{"r1", "r2"} {
			ops = append(ops, m.orders.PutOp(MemberOrder{ID: id, Ref: ref, Amount: 10 + i}), m.payments.PutOp(MemberPayment{ID: id, Ref: ref, Amount: 20 + i}))
		}
	}
	if res, err := repo.BatchWrite(context.Background(), ops); err != nil || len(res.Unprocessed) != 0 {
		t.Fatalf("seed: %v, %d unprocessed", err, len(res.Unprocessed))
	}
	return m
}

func kinds[T any](items []T, kind func(T) string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = kind(it)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func memberKind(m Member) string         { return m.Kind + "/" + m.Name }
func orderKind(o MemberOrder) string     { return o.Kind }
func paymentKind(p MemberPayment) string { return p.Kind }

func collect[T any](t *testing.T, seq func(func(T, error) bool)) []T {
	t.Helper()
	var out []T
	for v, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// The parent and a child of the same key shape in one partition: every list
// read of the parent returns the parent only.
func TestEntityParentAndChild(t *testing.T) {
	m := seedMembers(t)
	ctx := context.Background()
	want := []string{"profile/parent"}

	page, err := m.members.Query(ctx, Member{ID: "m1"}, dynamo.SortNone())
	if err != nil || !slices.Equal(kinds(page.Items, memberKind), want) || len(page.Items) != 1 {
		t.Fatalf("Query = %+v, %v", page.Items, err)
	}
	all, err := m.members.QueryAll(ctx, Member{ID: "m1"}, dynamo.SortNone(), dynamo.Limit(2))
	if err != nil || len(all) != 1 || !slices.Equal(kinds(all, memberKind), want) {
		t.Fatalf("QueryAll = %+v, %v", all, err)
	}
	if got := collect(t, m.members.QueryStream(ctx, Member{ID: "m1"}, dynamo.SortNone())); len(got) != 1 || got[0].Name != "parent" {
		t.Fatalf("QueryStream = %+v", got)
	}
	scan, err := m.members.Scan(ctx)
	if err != nil || len(scan.Items) != 2 || !slices.Equal(kinds(scan.Items, memberKind), want) {
		t.Fatalf("Scan = %+v, %v", scan.Items, err)
	}
	everything, err := m.members.ScanAll(ctx, dynamo.Parallel(3, 2))
	if err != nil || len(everything) != 2 || !slices.Equal(kinds(everything, memberKind), want) {
		t.Fatalf("parallel ScanAll = %+v, %v", everything, err)
	}
	if got := collect(t, m.members.ScanStream(ctx, dynamo.Parallel(2, 1))); len(got) != 2 || !slices.Equal(kinds(got, memberKind), want) {
		t.Fatalf("ScanStream = %+v", got)
	}
	children, err := m.children.ScanAll(ctx)
	if err != nil || len(children) != 2 || children[0].Name != "child" || children[1].Name != "child" {
		t.Fatalf("children ScanAll = %+v, %v", children, err)
	}
}

// Two siblings with the same key shape never leak into each other.
func TestEntitySiblings(t *testing.T) {
	m := seedMembers(t)
	ctx := context.Background()
	orders, err := m.orders.Query(ctx, MemberOrder{ID: "m1"}, dynamo.SortNone())
	if err != nil || len(orders.Items) != 2 || !slices.Equal(kinds(orders.Items, orderKind), []string{"order"}) {
		t.Fatalf("orders = %+v, %v", orders.Items, err)
	}
	payments, err := m.payments.ScanAll(ctx)
	if err != nil || len(payments) != 4 || !slices.Equal(kinds(payments, paymentKind), []string{"payment"}) {
		t.Fatalf("payments = %+v, %v", payments, err)
	}
}

// A single item of another entity is refused with ErrEntityMismatch by every
// read that returns one item; batches and feeds skip it.
func TestEntitySingleItemReads(t *testing.T) {
	m := seedMembers(t)
	ctx := context.Background()
	childKey := Member{ID: "m1", Kind: "child"} // the child's key, read as a Member

	mismatch := func(name string, err error) {
		t.Helper()
		if !errors.Is(err, dynamo.ErrEntityMismatch) {
			t.Fatalf("%s: %v, want %s", name, err, dynamo.ErrEntityMismatch)
		}
		const msg = `the item is a "member_child", not a "member"`
		if got := err.Error(); !contains(got, msg) || contains(got, "child\"}") {
			t.Fatalf("%s: message %q, want it to name both entities", name, got)
		}
	}
	_, err := m.members.Get(ctx, childKey)
	mismatch("Get", err)
	_, err = m.members.Get(ctx, childKey, dynamo.Project("name"))
	mismatch("Get with a projection", err)
	if got, err := m.members.Get(ctx, Member{ID: "m1"}); err != nil || got.Name != "parent" {
		t.Fatalf("Get parent = %+v, %v", got, err)
	}

	found, err := m.members.BatchGet(ctx, []Member{childKey, {ID: "m2"}})
	if err != nil || len(found.Items) != 1 || found.Items[0].ID != "m2" || found.Items[0].Kind != "profile" {
		t.Fatalf("BatchGet = %+v, %v", found.Items, err)
	}

	// An update through the wrong schema keeps the item's entity, and the
	// item it returns is refused.
	_, err = m.members.Update(ctx, childKey, expr.Set("name", "renamed"))
	mismatch("Update", err)
	if c, err := m.children.Get(ctx, MemberChild{ID: "m1"}); err != nil || c.Name != "renamed" {
		t.Fatalf("the child after the update: %+v, %v", c, err)
	}

	_, _, err = m.members.PutReturningOld(ctx, Member{ID: "m2", Kind: "child", Name: "x"})
	mismatch("PutReturningOld", err)

	// A canceled transaction's stored items load only into their own type.
	err = m.repo.Transact(ctx, []dynamo.TxOp{
		m.members.TxUpdate(Member{ID: "m1", Kind: "child"}, expr.Set("name", "y"), dynamo.If(expr.Eq("name", "nobody")), dynamo.ReturnOldOnConditionFail()),
		m.members.TxUpdate(Member{ID: "m1"}, expr.Set("name", "y"), dynamo.If(expr.Eq("name", "nobody")), dynamo.ReturnOldOnConditionFail()),
	})
	var de *dynamo.Error
	if !errors.As(err, &de) || de.Type != dynamo.ErrTransactionCanceled || len(de.CancellationReasons) != 2 {
		t.Fatalf("Transact = %v", err)
	}
	if r := de.CancellationReasons[0]; r.Item == nil || r.Value != nil {
		t.Fatalf("the child's reason: Item %v, Value %+v; want the raw item and no Member", r.Item, r.Value)
	}
	if v, ok := de.CancellationReasons[1].Value.(Member); !ok || v.Name != "parent" {
		t.Fatalf("the parent's reason: Value %+v", de.CancellationReasons[1].Value)
	}
	_, _, err = m.members.DeleteReturningOld(ctx, childKey)
	mismatch("DeleteReturningOld", err)
}

// The change feed of the table holds every entity's changes; each schema's
// feed yields its own.
func TestEntityChanges(t *testing.T) {
	m := seedMembers(t)
	ctx := context.Background()
	if _, err := m.children.Update(ctx, MemberChild{ID: "m1"}, expr.Set("name", "b")); err != nil {
		t.Fatal(err)
	}
	if _, err := m.members.Update(ctx, Member{ID: "m1"}, expr.Set("name", "p")); err != nil {
		t.Fatal(err)
	}
	// 2 members inserted, then the member m1 modified: three changes, and
	// the children's, orders' and payments' changes skipped on the way.
	got := take(t, m.members.Changes(ctx), 3)
	for i, c := range got[:2] {
		if c.Kind != dynamo.ChangeInsert || c.New.Kind != "profile" {
			t.Fatalf("change %d = %+v", i, c)
		}
	}
	if c := got[2]; c.Kind != dynamo.ChangeModify || c.Old.Name != "parent" || c.New.Name != "p" || c.Key.Kind != "profile" {
		t.Fatalf("change 2 = %+v", c)
	}
}

// Updates mark the items they create, and leave an item's entity as it is.
func TestEntityUpdateMarks(t *testing.T) {
	repo, _ := dynamotest.NewRepo(t, Members, MemberChildren, MemberOrders, MemberPayments)
	ctx := context.Background()
	members, children := dynamo.Bind(repo, Members), dynamo.Bind(repo, MemberChildren)
	if _, err := children.Update(ctx, MemberChild{ID: "n"}, expr.Set("name", "created")); err != nil {
		t.Fatal(err)
	}
	if _, err := children.Update(ctx, MemberChild{ID: "raw"}, expr.RawUpdate("SET #n = :n", map[string]string{"#n": "name"}, map[string]any{":n": "raw"})); err != nil {
		t.Fatal(err)
	}
	err := repo.Transact(ctx, []dynamo.TxOp{children.TxUpdate(MemberChild{ID: "tx"}, expr.Set("name", "tx"))})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"n", "raw", "tx"} {
		if entity := rawEntity(t, repo, "member#"+id, "child"); entity != "member_child" {
			t.Fatalf("%s: _entity = %q", id, entity)
		}
	}
	got, err := members.ScanAll(ctx)
	if err != nil || len(got) != 0 {
		t.Fatalf("members = %+v, %v", got, err)
	}

	// Callers may not write the entity attribute or a key.
	for name, ch := range map[string]expr.Change{
		"dsl": expr.Set("_entity", "member"),
		"raw": expr.RawUpdate("SET #e = :e", map[string]string{"#e": "_entity"}, map[string]any{":e": "member"}),
		"key": expr.RawUpdate("REMOVE kind", nil, nil),
	} {
		_, err := children.Update(ctx, MemberChild{ID: "n"}, ch)
		if !errors.Is(err, dynamo.ErrValidation) {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

func rawEntity(t *testing.T, repo *dynamo.Repo, pk, sk string) string {
	t.Helper()
	out, err := repo.Request(context.Background(), "GetItem", map[string]any{
		"TableName": "members",
		"Key":       map[string]any{"pk": map[string]any{"S": pk}, "sk": map[string]any{"S": sk}},
	})
	if err != nil {
		t.Fatal(err)
	}
	item, _ := out["Item"].(map[string]any)
	e, _ := item["_entity"].(map[string]any)
	s, _ := e["S"].(string)
	return s
}

// Items written without the entity attribute (by another tool) keep the key
// rule; a StrictEntity schema refuses them.
func TestEntityUnmarkedItems(t *testing.T) {
	type Legacy struct {
		ID   string `dynamo:"id,pk"`
		Kind string `dynamo:"kind,sk,default=profile"`
		Name string `dynamo:"name"`
	}
	lenient := schema.Must[Legacy]("members", schema.EntityName("member"))
	strict := schema.Must[Legacy]("members", schema.EntityName("member"), schema.StrictEntity())
	repo, _ := dynamotest.NewRepo(t, lenient)
	ctx := context.Background()
	if _, err := repo.Request(ctx, "PutItem", map[string]any{"TableName": "members", "Item": map[string]any{
		"pk": map[string]any{"S": "member#old"}, "sk": map[string]any{"S": "profile"}, "name": map[string]any{"S": "legacy"},
	}}); err != nil {
		t.Fatal(err)
	}
	if got, err := dynamo.Bind(repo, lenient).Get(ctx, Legacy{ID: "old"}); err != nil || got.Name != "legacy" || got.ID != "old" {
		t.Fatalf("default: Get = %+v, %v", got, err)
	}
	if all, err := dynamo.Bind(repo, lenient).ScanAll(ctx); err != nil || len(all) != 1 {
		t.Fatalf("default: ScanAll = %+v, %v", all, err)
	}
	_, err := dynamo.Bind(repo, strict).Get(ctx, Legacy{ID: "old"})
	if !errors.Is(err, dynamo.ErrEntityMismatch) || !contains(err.Error(), "has no _entity attribute") {
		t.Fatalf("strict: Get = %v", err)
	}
	if all, err := dynamo.Bind(repo, strict).ScanAll(ctx); err != nil || len(all) != 0 {
		t.Fatalf("strict: ScanAll = %+v, %v", all, err)
	}
	// An update marks the legacy item; the strict schema reads it then.
	if _, err := dynamo.Bind(repo, lenient).Update(ctx, Legacy{ID: "old"}, expr.Set("name", "marked")); err != nil {
		t.Fatal(err)
	}
	if got, err := dynamo.Bind(repo, strict).Get(ctx, Legacy{ID: "old"}); err != nil || got.Name != "marked" {
		t.Fatalf("strict after update: %+v, %v", got, err)
	}
}

// The library refuses schemas of one table it could not tell apart.
func TestEntityTableChecks(t *testing.T) {
	_, err := schema.CreateTableInput(Members, schema.Must[MemberChild]("members", schema.EntityName("member"), schema.EntityFrom(Members)))
	if err == nil || !contains(err.Error(), `entity name "member" is also schema Member's`) {
		t.Fatalf("same entity: %v", err)
	}
	_, err = schema.CreateTableInput(Members, schema.Must[MemberChild]("members", schema.EntityFrom(Members), schema.EntityAttribute("type")))
	if err == nil || !contains(err.Error(), `entity attribute "type" differs from schema Member's "_entity"`) {
		t.Fatalf("attribute: %v", err)
	}
	repo, _ := dynamotest.NewRepo(t, Members)
	if _, err := repo.SyncTables(context.Background(), Members, schema.Must[MemberChild]("members", schema.EntityName("member"), schema.EntityFrom(Members))); err == nil {
		t.Fatal("SyncTables accepted two schemas of one entity")
	}
}

var MemberView = schema.MustCollection("member", Members, MemberChildren, MemberOrders, MemberPayments)

// A collection reads the whole partition in one call, each item into its
// own type, with paging, streaming, per-entity filters and sort conditions.
func TestCollectionQuery(t *testing.T) {
	m := seedMembers(t)
	ctx := context.Background()

	page, err := dynamo.QueryCollection(ctx, m.repo, MemberView, Member{ID: "m1"})
	if err != nil || len(page.Items) != 6 || page.HasMore() {
		t.Fatalf("QueryCollection = %+v, %v", page, err)
	}
	if got := dynamo.ItemsOf(page, Members); len(got) != 1 || got[0].Name != "parent" {
		t.Fatalf("members = %+v", got)
	}
	if got := dynamo.ItemsOf(page, MemberChildren); len(got) != 1 || got[0].Name != "child" {
		t.Fatalf("children = %+v", got)
	}
	if got := dynamo.ItemsOf(page, MemberOrders); len(got) != 2 || got[0].Amount != 10 || got[1].Amount != 11 {
		t.Fatalf("orders = %+v", got)
	}
	if got := dynamo.ItemsOf(page, MemberPayments); len(got) != 2 || got[0].Amount != 20 {
		t.Fatalf("payments = %+v", got)
	}

	// Paging: two items a page, the cursor continues.
	var seen []string
	cursor := ""
	for range 10 {
		opts := []dynamo.QueryOption{dynamo.Limit(2)}
		if cursor != "" {
			opts = append(opts, dynamo.StartAfter(cursor))
		}
		p, err := dynamo.QueryCollection(ctx, m.repo, MemberView, MemberOrder{ID: "m2"}, opts...)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range p.Items {
			seen = append(seen, typeName(v))
		}
		if cursor = p.Cursor; cursor == "" {
			break
		}
	}
	if want := []string{"child", "order", "order", "payment", "payment", "profile"}; !slices.Equal(seen, want) {
		t.Fatalf("paged = %v, want %v", seen, want)
	}

	// The stream form, with a sort condition on the composed sort key.
	var streamed []string
	for v, err := range dynamo.QueryCollectionStream(ctx, m.repo, MemberView, Member{ID: "m1"}, dynamo.SortGe("order#"), dynamo.Limit(1)) {
		if err != nil {
			t.Fatal(err)
		}
		switch v := v.(type) {
		case MemberOrder:
			streamed = append(streamed, "order "+v.Ref)
		case MemberPayment:
			streamed = append(streamed, "payment "+v.Ref)
		case Member:
			streamed = append(streamed, "profile")
		default:
			t.Fatalf("unexpected %T", v)
		}
	}
	if want := []string{"order r1", "order r2", "payment r1", "payment r2", "profile"}; !slices.Equal(streamed, want) {
		t.Fatalf("streamed = %v", streamed)
	}

	// Per-entity filters: orders over 10 and payments of r1; the others pass.
	page, err = dynamo.QueryCollection(ctx, m.repo, MemberView, Member{ID: "m1"}, dynamo.Filter(expr.AllOf(
		dynamo.Where(MemberOrders, expr.Gt("amount", 10)),
		dynamo.Where(MemberPayments, expr.Eq("ref", "r1")),
	)))
	if err != nil {
		t.Fatal(err)
	}
	if o, p := dynamo.ItemsOf(page, MemberOrders), dynamo.ItemsOf(page, MemberPayments); len(page.Items) != 4 || len(o) != 1 || o[0].Ref != "r2" || len(p) != 1 || p[0].Ref != "r1" {
		t.Fatalf("filtered = %+v", page.Items)
	}
}

func typeName(v any) string {
	switch v := v.(type) {
	case Member:
		return v.Kind
	case MemberChild:
		return v.Kind
	case MemberOrder:
		return v.Kind
	case MemberPayment:
		return v.Kind
	}
	return "?"
}

// A collection is validated once, when it is declared.
func TestCollectionDeclaration(t *testing.T) {
	type Other struct {
		ID string `dynamo:"id,pk"`
	}
	for name, tc := range map[string]struct {
		members []schema.Member
		want    string
	}{
		"one":             {[]schema.Member{Members}, "needs at least two schemas"},
		"other table":     {[]schema.Member{Members, schema.Must[Other]("elsewhere")}, `table "elsewhere" differs`},
		"same entity":     {[]schema.Member{Members, schema.Must[MemberChild]("members", schema.EntityName("member"), schema.EntityFrom(Members))}, `entity name "member" is also schema Member's`},
		"unmarked":        {[]schema.Member{schema.Must[Member]("members", schema.EntityAttribute("")), schema.Must[MemberChild]("members", schema.EntityAttribute(""), schema.EntityFrom(Members))}, "has no entity attribute"},
		"other partition": {[]schema.Member{Members, schema.Must[MemberOrder]("members")}, `schema MemberOrder's partition key (pk = "member_order"#id) differs from schema Member's (pk = "member"#id)`},
	} {
		_, err := schema.NewCollection("c", tc.members...)
		if err == nil || !contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", name, err, tc.want)
		}
	}
}

// Two entities of different partitions share a GSI partition.
type DeskTicket struct {
	ID    string `dynamo:"id,pk"`
	Queue string `dynamo:"queue"`
}

type Alert struct {
	ID    string `dynamo:"id,pk"`
	Queue string `dynamo:"queue"`
	Level int    `dynamo:"level"`
}

var (
	DeskTickets = schema.Must[DeskTicket]("desk", schema.EntityName("work"), schema.GSI("ByQueue", "queue", ""))
	Alerts      = schema.Must[Alert]("desk", schema.EntityName("alert"), schema.EntityFrom(DeskTickets), schema.GSI("ByQueue", "queue", ""))
	QueueView   = schema.MustCollection("queue", DeskTickets, Alerts)
)

func TestCollectionOnIndex(t *testing.T) {
	repo, _ := dynamotest.NewRepo(t, DeskTickets, Alerts)
	ctx := context.Background()
	tickets, alerts := dynamo.Bind(repo, DeskTickets), dynamo.Bind(repo, Alerts)
	for _, err := range []error{
		tickets.Put(ctx, DeskTicket{ID: "t1", Queue: "q"}),
		tickets.Put(ctx, DeskTicket{ID: "t2", Queue: "other"}),
		alerts.Put(ctx, Alert{ID: "a1", Queue: "q", Level: 2}),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	page, err := dynamo.QueryCollection(ctx, repo, QueueView, Alert{Queue: "q"}, dynamo.Index("ByQueue"))
	if err != nil {
		t.Fatal(err)
	}
	ts, as := dynamo.ItemsOf(page, DeskTickets), dynamo.ItemsOf(page, Alerts)
	if len(page.Items) != 2 || len(ts) != 1 || ts[0].ID != "t1" || len(as) != 1 || as[0].Level != 2 {
		t.Fatalf("ByQueue q = %+v", page.Items)
	}
}

// One stream read as several typed entities.
func TestCollectionChanges(t *testing.T) {
	m := seedMembers(t)
	ctx := context.Background()
	counts := map[string]int{}
	n := 0
	for c, err := range dynamo.CollectionChanges(ctx, m.repo, MemberView) {
		if err != nil {
			t.Fatal(err)
		}
		if c.Kind != dynamo.ChangeInsert || !c.HasNew {
			t.Fatalf("change %d = %+v", n, c)
		}
		switch k := c.Key.(type) {
		case Member:
			counts["member"]++
			if c.New.(Member).Name != "parent" {
				t.Fatalf("member %+v", c.New)
			}
		case MemberChild:
			counts["child"]++
		case MemberOrder:
			counts["order"]++
			if c.New.(MemberOrder).Ref != k.Ref {
				t.Fatalf("order %+v", c)
			}
		case MemberPayment:
			counts["payment"]++
		default:
			t.Fatalf("key %T", k)
		}
		if n++; n == 12 {
			break
		}
	}
	if counts["member"] != 2 || counts["child"] != 2 || counts["order"] != 4 || counts["payment"] != 4 {
		t.Fatalf("counts = %v", counts)
	}
}

// A vector index shared by several entities: search results of another
// entity are skipped, not decoded as Docs.
func TestEntitySearchVectorsSkipsOthers(t *testing.T) {
	main := newCanned(t, func(string, int, []byte) reply { return reply{status: 500, body: `{}`} })
	search := newCanned(t, func(string, int, []byte) reply {
		return reply{body: `{"SearchResults":[
			{"Item":{"pk":{"S":"doc#t1"},"sk":{"S":"d1"},"_entity":{"S":"doc_draft"},"title":{"S":"Draft"}},"Score":0.0},
			{"Item":{"pk":{"S":"doc#t1"},"sk":{"S":"d2"},"_entity":{"S":"doc"},"title":{"S":"Guide"}},"Score":0.4}]}`}
	})
	repo := fastRepo(t, main.URL, dynamo.WithSearchEndpoint(search.URL))
	res, err := dynamo.Bind(repo, Docs).SearchVectors(context.Background(), "Semantic", []float32{1, 0, 0}, dynamo.Filter(expr.Eq("tenant", "t1")))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) != 1 || res.Results[0].Item.Title != "Guide" {
		t.Fatalf("results = %+v", res.Results)
	}
}

// A PartiQL INSERT built from a value carries the entity attribute like a
// Put: the parent and the child inserted in one transaction load only as
// themselves, and inserting an existing key is refused.
func TestEntityPartiQLInsert(t *testing.T) {
	repo, _ := dynamotest.NewRepo(t, Members, MemberChildren)
	ctx := context.Background()
	members, children := dynamo.Bind(repo, Members), dynamo.Bind(repo, MemberChildren)
	parent, err := members.InsertStatement(Member{ID: "p1", Name: "parent"})
	if err != nil {
		t.Fatal(err)
	}
	child, err := children.InsertStatement(MemberChild{ID: "p1", Name: "it's a child"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := repo.ExecuteTransaction(ctx, []dynamo.Statement{parent, child}); err != nil {
		t.Fatal(err)
	}
	got, err := members.QueryAll(ctx, Member{ID: "p1"}, dynamo.SortNone())
	if err != nil || len(got) != 1 || got[0] != (Member{ID: "p1", Kind: "profile", Name: "parent"}) {
		t.Fatalf("members = %+v, %v", got, err)
	}
	kid, err := children.Get(ctx, MemberChild{ID: "p1"})
	if err != nil || kid.Name != "it's a child" {
		t.Fatalf("child = %+v, %v", kid, err)
	}
	if _, err := members.Get(ctx, Member{ID: "p1", Kind: "child"}); !errors.Is(err, dynamo.ErrEntityMismatch) {
		t.Fatalf("Get of the child's key as a member: %v, want ErrEntityMismatch", err)
	}
	if _, err := members.Execute(ctx, parent); !errors.Is(err, dynamo.ErrConditionalCheckFailed) {
		t.Fatalf("second insert: %v, want ErrConditionalCheckFailed", err)
	}
	if _, err := members.InsertStatement(Member{}); !errors.Is(err, dynamo.ErrValidation) {
		t.Fatalf("insert without a key: %v, want ErrValidation", err)
	}
}
