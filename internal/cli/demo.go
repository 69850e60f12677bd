package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/shopspring/decimal"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/codec"
	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/local"
	"github.com/dynamogo/dynamo/schema"
)

func init() {
	Register(&Command{
		Name:    "demo",
		Summary: "walk through the library against the embedded local server",
		Example: "dynamo demo\n" +
			"dynamo demo --endpoint http://127.0.0.1:8000 --keep",
		Usage: "[--endpoint URL [--region R] [--profile P]] [--table dynamo-demo] [--keep]",
		Help: `Starts the local server in-process (or uses --endpoint), creates two tables
from example schemas (a single table of orders, users and their notes,
accounts and ledger entries, and a table of documents with a vector index)
and runs the operations cheat sheet: conditional puts, gets, every update
operator, every query form, a GSI query, filters, pagination with cursors,
streams, a parallel scan, batch writes and gets, a collection query (a user
and their notes in one request), transactions (one canceled), a change feed
(an order's writes read back from the table's stream), PartiQL statements (a
typed SELECT, an UPDATE with RETURNING, an INSERT of an existing key), vector
search and a raw request, printing one line per step. The tables are
deleted at the end unless --keep.

The example schemas are declared in the demo (internal/cli/demo.go), not in
the library. A step the endpoint does not implement is reported as skipped.`,
		Flags: func() *flag.FlagSet { fs, _ := demoFlags(); return fs },
		Run:   runDemo,
	})
}

type demoOpts struct {
	aws   awsFlags
	table string
	keep  bool
}

func demoFlags() (*flag.FlagSet, *demoOpts) {
	o := &demoOpts{}
	fs := newFlagSet("demo")
	o.aws.register(fs)
	fs.StringVar(&o.table, "table", "dynamo-demo", "name of the demo's single table (the vector table gets a -docs suffix)")
	fs.BoolVar(&o.keep, "keep", false, "keep the tables at the end")
	return fs, o
}

// The demo's schemas: a single table shared by four entities, and a table
// of documents with a vector index.
type (
	demoOrder struct {
		UserID   string            `dynamo:"user_id,pk"`
		PlacedAt time.Time         `dynamo:"placed_at,sk,precision=s"`
		OrderID  string            `dynamo:"order_id,sk"`
		Total    decimal.Decimal   `dynamo:"total"`
		Status   string            `dynamo:"status,default=pending"`
		Tags     codec.Set[string] `dynamo:"tags"`
		Version  int               `dynamo:"version"`
		Lines    []string          `dynamo:"lines"`
		Note     *string           `dynamo:"note"`
		Coupon   string            `dynamo:"coupon,omitempty"`
	}
	// The other entities of the single table have a fixed sort key: every
	// schema of one table has the same key layout.
	demoUser struct {
		ID   string `dynamo:"id,pk"`
		Kind string `dynamo:"kind,sk,default=profile"`
		Name string `dynamo:"name"`
	}
	// A user's notes live in the user's partition (EntityFrom): the user
	// and the notes are read together as a collection.
	demoNote struct {
		ID     string `dynamo:"id,pk"`
		Kind   string `dynamo:"kind,sk,default=note"`
		NoteID string `dynamo:"note_id,sk"`
		Text   string `dynamo:"text"`
	}
	demoAcct struct {
		ID      string `dynamo:"id,pk"`
		Kind    string `dynamo:"kind,sk,default=balance"`
		Balance int    `dynamo:"balance"`
	}
	demoLedger struct {
		ID     string `dynamo:"id,pk"`
		Kind   string `dynamo:"kind,sk,default=entry"`
		From   string `dynamo:"from"`
		To     string `dynamo:"to"`
		Amount int    `dynamo:"amount"`
	}
	demoHold struct {
		ID   string `dynamo:"id,pk"`
		Kind string `dynamo:"kind,sk,default=hold"`
	}
	demoDoc struct {
		Tenant    string    `dynamo:"tenant,pk"`
		DocID     string    `dynamo:"doc_id,sk"`
		Lang      string    `dynamo:"lang"`
		Title     string    `dynamo:"title"`
		Embedding []float32 `dynamo:"embedding,dim=3"`
	}
)

// demoSchemas are built per run: the table name is a flag.
type demoSchemas struct {
	orders  *schema.Schema[demoOrder]
	users   *schema.Schema[demoUser]
	notes   *schema.Schema[demoNote]
	profile *schema.Collection // a user with their notes
	accts   *schema.Schema[demoAcct]
	ledger  *schema.Schema[demoLedger]
	holds   *schema.Schema[demoHold]
	docs    *schema.Schema[demoDoc]
	app     string
	docsTab string
}

func newDemoSchemas(table string) (*demoSchemas, error) {
	s := &demoSchemas{app: table, docsTab: table + "-docs"}
	var err error
	if s.orders, err = schema.New[demoOrder](table, schema.EntityName("order"),
		schema.GSI("StatusIndex", "status", "placed_at"), schema.Stream(types.StreamViewTypeNewAndOldImages)); err != nil {
		return nil, err
	}
	if s.users, err = schema.New[demoUser](table, schema.EntityName("user")); err != nil {
		return nil, err
	}
	if s.notes, err = schema.New[demoNote](table, schema.EntityFrom(s.users)); err != nil {
		return nil, err
	}
	if s.profile, err = schema.NewCollection("user_profile", s.users, s.notes); err != nil {
		return nil, err
	}
	if s.accts, err = schema.New[demoAcct](table, schema.EntityName("acct")); err != nil {
		return nil, err
	}
	if s.ledger, err = schema.New[demoLedger](table, schema.EntityName("ledger")); err != nil {
		return nil, err
	}
	if s.holds, err = schema.New[demoHold](table, schema.EntityName("hold")); err != nil {
		return nil, err
	}
	if s.docs, err = schema.New[demoDoc](s.docsTab, schema.EntityName("doc"),
		schema.VectorIndex("Semantic", "embedding", schema.VectorPartition("tenant"), schema.InlineFilters("lang"))); err != nil {
		return nil, err
	}
	return s, nil
}

func runDemo(ctx context.Context, env *Env, args []string) error {
	fs, o := demoFlags()
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected argument %q", pos[0])
	}
	if o.aws.endpoint == "" && (o.aws.region != "" || o.aws.profile != "") {
		return usagef("--region and --profile need --endpoint (without it the demo runs on the embedded server)")
	}
	s, err := newDemoSchemas(o.table)
	if err != nil {
		return usagef("--table: %s", errorText(err))
	}
	var repo *dynamo.Repo
	if o.aws.endpoint != "" {
		if repo, err = o.aws.open(ctx); err != nil {
			return err
		}
	} else {
		url, stop, err := startEmbedded()
		if err != nil {
			return err
		}
		defer stop()
		repo, err = dynamo.New(aws.Config{}, dynamo.WithEndpoint(url), dynamo.WithRegion("us-east-1"),
			dynamo.WithCredentials("demo", "demo-secret", ""))
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "%-30s %s\n", "embedded server", "listening on "+url)
	}
	d := &demo{ctx: ctx, w: env.Stdout, repo: repo, s: s}
	return d.run(o.keep)
}

// startEmbedded serves the local server on a free port of 127.0.0.1, with
// dynamo local's Host check and HTTP limits.
func startEmbedded() (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv, err := local.New(local.WithHostCheck(ln.Addr()))
	if err != nil {
		ln.Close()
		return "", nil, err
	}
	hs, hln := local.NewHTTPServer(srv, ln, local.DefaultHTTPLimits())
	go hs.Serve(hln)
	return "http://" + ln.Addr().String(), func() { hs.Close(); srv.Close() }, nil
}

type demo struct {
	ctx  context.Context
	w    io.Writer
	repo *dynamo.Repo
	s    *demoSchemas
	// skipped lists the steps the endpoint does not implement.
	skipped []string
}

// step prints one line: what was done and what came back.
func (d *demo) step(name, format string, args ...any) {
	fmt.Fprintf(d.w, "%-30s %s\n", name, fmt.Sprintf(format, args...))
}

// unsupported reports (and prints) a step the endpoint does not implement.
func (d *demo) unsupported(name string, err error) bool {
	var e *dynamo.Error
	if errors.As(err, &e) && e.AWSCode == "UnknownOperationException" {
		d.step(name, "skipped: the endpoint does not implement %s", e.Op)
		d.skipped = append(d.skipped, name)
		return true
	}
	return false
}

var demoDay = time.Date(2024, 6, 1, 9, 0, 0, 0, time.UTC)

// clearItems deletes the items of the schema's entity (a scan yields only
// those), so that a rerun of the demo on kept tables finds what a new table
// holds.
func clearItems[T any](ctx context.Context, repo *dynamo.Repo, s *schema.Schema[T]) error {
	t := dynamo.Bind(repo, s)
	for item, err := range t.ScanStream(ctx) {
		if err != nil {
			return err
		}
		if err := t.Delete(ctx, item); err != nil {
			return err
		}
	}
	return nil
}

func order(user string, i int) demoOrder {
	return demoOrder{UserID: user, PlacedAt: demoDay.Add(time.Duration(i) * 24 * time.Hour), OrderID: fmt.Sprintf("o%02d", i),
		Total: decimal.NewFromInt(int64(10 * (i + 1))).Add(decimal.RequireFromString("0.99")), Status: "pending"}
}

func orderIDs(os []demoOrder) string {
	ids := make([]string, len(os))
	for i, o := range os {
		ids[i] = o.OrderID
	}
	return strings.Join(ids, " ")
}

func errType(err error) string {
	var e *dynamo.Error
	if errors.As(err, &e) {
		return string(e.Type)
	}
	return err.Error()
}

func (d *demo) run(keep bool) (err error) {
	ctx, s := d.ctx, d.s
	// Tables, from the schemas: SyncTables creates them or checks that the
	// existing ones (a rerun with --keep) match, so the demo runs any number
	// of times. Only the tables this run created are deleted at the end.
	var created []string
	defer func() {
		if keep {
			return
		}
		for _, t := range created {
			if derr := d.repo.DeleteTable(context.WithoutCancel(ctx), t); derr != nil && err == nil {
				err = fmt.Errorf("delete table %s: %s", t, reason(derr))
			}
		}
		if err == nil && len(created) > 0 {
			d.step("delete tables", "%s", strings.Join(created, ", "))
		}
	}()
	sync := func(schemas ...schema.Described) (string, error) {
		wctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
		defer cancel()
		changes, err := d.repo.SyncTables(wctx, schemas...)
		if err != nil {
			return "", err
		}
		name := schemas[0].Describe().Table
		for _, c := range changes {
			if c.Action == "create table" {
				created = append(created, name)
				return "", nil
			}
		}
		return "already there and matching the schema, ", nil
	}
	how, err := sync(s.orders, s.users, s.notes, s.accts, s.ledger, s.holds)
	if err != nil {
		return fmt.Errorf("create table %s: %s", s.app, reason(err))
	}
	if how != "" { // a rerun: start from the demo's own items removed, as a new table
		if err := errors.Join(clearItems(ctx, d.repo, s.orders), clearItems(ctx, d.repo, s.users), clearItems(ctx, d.repo, s.notes), clearItems(ctx, d.repo, s.accts),
			clearItems(ctx, d.repo, s.ledger), clearItems(ctx, d.repo, s.holds)); err != nil {
			return fmt.Errorf("reset table %s: %s", s.app, reason(err))
		}
	}
	d.step("create table", "%s: %skeys pk/sk, index StatusIndex on (status, placed_at), billed on demand", s.app, how)
	vectors := true
	if how, err := sync(s.docs); err != nil {
		d.step("create table", "%s skipped: the endpoint refused the vector index: %s", s.docsTab, reason(err))
		d.skipped = append(d.skipped, "vector search")
		vectors = false
	} else if err := clearItems(ctx, d.repo, s.docs); how != "" && err != nil {
		return fmt.Errorf("reset table %s: %s", s.docsTab, reason(err))
	} else {
		d.step("create table", "%s: %svector index Semantic on embedding (3 dimensions, partitioned by tenant, filterable by lang)", s.docsTab, how)
	}

	orders := dynamo.Bind(d.repo, s.orders)
	if err := d.items(orders); err != nil {
		return err
	}
	if err := d.updates(orders); err != nil {
		return err
	}
	if err := d.queries(orders); err != nil {
		return err
	}
	if err := d.scans(orders); err != nil {
		return err
	}
	if err := d.batches(orders); err != nil {
		return err
	}
	if err := d.collections(); err != nil {
		return err
	}
	if err := d.transactions(); err != nil {
		return err
	}
	if err := d.changes(orders); err != nil {
		return err
	}
	if err := d.partiql(orders); err != nil {
		return err
	}
	if vectors {
		if err := d.vectors(); err != nil {
			return err
		}
	}
	raw, err := d.repo.Request(ctx, "DescribeTable", map[string]any{"TableName": s.app})
	if err != nil {
		return err
	}
	t, _ := raw["Table"].(map[string]any)
	d.step("raw request", "sent DescribeTable %s as a map, no typed API: status %v, %v items", s.app, t["TableStatus"], t["ItemCount"])
	if len(d.skipped) > 0 {
		d.step("not run", "%s (not implemented by the endpoint)", strings.Join(d.skipped, ", "))
	}
	return nil
}

// changes puts, pays and deletes one order, then reads those three changes
// back from the table's stream as typed changes.
func (d *demo) changes(orders *dynamo.Table[demoOrder]) error {
	const name = "change feed"
	ctx := d.ctx
	// An order of this run only: on kept tables the stream also holds the
	// changes of the runs before.
	o := demoOrder{UserID: "feed", PlacedAt: demoDay, OrderID: fmt.Sprint("run", time.Now().UnixNano()), Total: decimal.NewFromInt(5)}
	if err := orders.Put(ctx, o); err != nil {
		return err
	}
	if _, err := orders.Update(ctx, o, expr.Set("status", "paid")); err != nil {
		return err
	}
	if err := orders.Delete(ctx, o); err != nil {
		return err
	}
	var seen []string
	for c, err := range orders.Changes(ctx) { // from the oldest change the stream holds
		if err != nil {
			if d.unsupported(name, err) {
				return nil
			}
			if errors.Is(err, dynamo.ErrValidation) { // a kept table from before the demo had a stream
				d.step(name, "skipped: %s", reason(err))
				d.skipped = append(d.skipped, name)
				return nil
			}
			return err
		}
		if c.Key.UserID != o.UserID || c.Key.OrderID != o.OrderID {
			continue
		}
		switch c.Kind {
		case dynamo.ChangeInsert:
			seen = append(seen, fmt.Sprintf("INSERT (%s)", c.New.Status))
		case dynamo.ChangeModify:
			seen = append(seen, fmt.Sprintf("MODIFY (%s -> %s)", c.Old.Status, c.New.Status))
		case dynamo.ChangeRemove:
			seen = append(seen, fmt.Sprintf("REMOVE (was %s)", c.Old.Status))
		}
		if len(seen) == 3 {
			break
		}
	}
	d.step(name, "order feed/… put, paid, deleted; read back from the stream: %s", strings.Join(seen, ", "))
	return nil
}

func (d *demo) items(orders *dynamo.Table[demoOrder]) error {
	ctx := d.ctx
	o := order("u1", 0)
	o.Tags = codec.NewSet("gift")
	o.Lines = []string{"cart"}
	if err := orders.Put(ctx, o, dynamo.If(expr.RawCond("attribute_not_exists(pk)", nil, nil))); err != nil {
		return err
	}
	d.step("put if absent", "wrote order u1/o00, on condition that no item has its key (raw attribute_not_exists(pk))")
	err := orders.Put(ctx, o, dynamo.If(expr.NotExists("pk")))
	if !errors.Is(err, dynamo.ErrConditionalCheckFailed) {
		return fmt.Errorf("put if absent twice: want a conditional check failure, got %v", err)
	}
	d.step("put if absent again", "refused, the item exists: %s (the same condition as expr.NotExists(\"pk\"))", errType(err))
	for i := 1; i < 6; i++ {
		if err := orders.Put(ctx, order("u1", i)); err != nil {
			return err
		}
	}
	if err := orders.Put(ctx, order("u2", 0)); err != nil {
		return err
	}
	d.step("put", "wrote orders u1/o01…o05 and u2/o00 (without a condition a put replaces)")
	o2 := order("u1", 1)
	err = orders.Put(ctx, o2, dynamo.If(expr.AllOf(expr.Exists("pk"), expr.OneOf("status", "pending", "open"))))
	if err != nil {
		return err
	}
	d.step("put with DSL condition", "replaced u1/o01, as it exists and its status is pending or open")
	o2.Total = decimal.RequireFromString("25.50")
	old, _, err := orders.PutReturningOld(ctx, o2)
	if err != nil {
		return err
	}
	d.step("put returning old", "replaced u1/o01 and got the old item back: total was %s, now %s", old.Total, o2.Total)

	got, err := orders.Get(ctx, demoOrder{UserID: "u1", PlacedAt: o.PlacedAt, OrderID: "o00"})
	if err != nil {
		return err
	}
	d.step("get", "read u1/o00: total %s, status %s (the field's default), tags %v", got.Total, got.Status, got.Tags.Sorted())
	got, err = orders.Get(ctx, demoOrder{UserID: "u1", PlacedAt: o2.PlacedAt, OrderID: "o01"}, dynamo.Consistent(), dynamo.Project("total"))
	if err != nil {
		return err
	}
	d.step("get consistent, projected", "read only the total of u1/o01, strongly consistent: %s", got.Total)
	_, err = orders.Get(ctx, demoOrder{UserID: "u1", PlacedAt: demoDay, OrderID: "nope"})
	if !errors.Is(err, dynamo.ErrNotFound) {
		return fmt.Errorf("get of a missing item: want not found, got %v", err)
	}
	d.step("get missing", "no item u1/nope: %s, an error rather than a zero value", errType(err))
	err = orders.Put(ctx, demoOrder{UserID: "a#b", PlacedAt: demoDay, OrderID: "x"})
	if !errors.Is(err, dynamo.ErrValidation) {
		return fmt.Errorf("separator in a key: want a validation error, got %v", err)
	}
	d.step("put with # in a key", "refused before sending: %s (# separates the parts of a key)", errType(err))
	return nil
}

func (d *demo) updates(orders *dynamo.Table[demoOrder]) error {
	ctx := d.ctx
	key := demoOrder{UserID: "u1", PlacedAt: order("u1", 0).PlacedAt, OrderID: "o00"}
	version := 0 // as put
	now, err := orders.Update(ctx, key,
		expr.Set("status", "paid"),
		expr.Increment("version", 1))
	if err != nil {
		return err
	}
	d.step("update set, increment", "u1/o00: status set to %s; version incremented by 1: %d → %d", now.Status, version, now.Version)
	version = now.Version
	now, err = orders.Update(ctx, key,
		expr.Add("tags", codec.NewSet("vip", "red")),
		expr.Append("lines", []string{"book", "ink"}),
		expr.IfNotExists("coupon", "WELCOME"),
		expr.Decrement("version", 1),
		expr.SetNull("note"))
	if err != nil {
		return err
	}
	d.step("update add, append", "u1/o00: tags red, vip added: %v; book, ink appended: lines %v; coupon set to %s as it had none; version decremented by 1: %d → %d; note set to NULL",
		now.Tags.Sorted(), now.Lines, now.Coupon, version, now.Version)
	version = now.Version
	upd, err := orders.Update(ctx, key,
		expr.Delete("tags", codec.NewSet("gift")),
		expr.Prepend("lines", []string{"pen"}),
		expr.Remove("coupon"),
		expr.Add("version", 5))
	if err != nil {
		return err
	}
	d.step("update delete, prepend, remove", "u1/o00: tag gift deleted: %v; pen prepended: lines %v; coupon removed; 5 added to version: %d → %d",
		upd.Tags.Sorted(), upd.Lines, version, upd.Version)
	_, err = orders.Update(ctx, key, expr.Set("order_id", "o99"))
	if !errors.Is(err, dynamo.ErrValidation) {
		return fmt.Errorf("update of a key field: want a validation error, got %v", err)
	}
	d.step("update a key field", "refused before sending: %s (a key is changed by a put of a new item)", errType(err))
	_, err = orders.Update(ctx, key, expr.Set("status", "shipped"), dynamo.If(expr.Eq("version", 0)))
	if !errors.Is(err, dynamo.ErrConditionalCheckFailed) {
		return fmt.Errorf("guarded update: want a conditional check failure, got %v", err)
	}
	d.step("update with stale version", "refused, the condition version = 0 no longer holds: %s", errType(err))
	old, _, err := orders.DeleteReturningOld(ctx, demoOrder{UserID: "u2", PlacedAt: demoDay, OrderID: "o00"})
	if err != nil {
		return err
	}
	d.step("delete returning old", "deleted u2/o00 and got it back: total was %s", old.Total)
	return nil
}

func (d *demo) queries(orders *dynamo.Table[demoOrder]) error {
	ctx := d.ctx
	u1 := demoOrder{UserID: "u1"}
	// q runs a query and prints what it asked for in words, then the orders.
	q := func(name, what string, key demoOrder, opts ...dynamo.QueryOption) error {
		p, err := orders.Query(ctx, key, opts...)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		d.step(name, "%s: %s", what, orderIDs(p.Items))
		return nil
	}
	if err := q("query partition", "u1's orders, in sort key order", u1); err != nil {
		return err
	}
	if err := q("query begins_with 2024-06-04", "u1's orders placed that day", u1, dynamo.SortBeginsWith("2024-06-04")); err != nil {
		return err
	}
	if err := q("query between, descending", "placed 2024-06-02 to 2024-06-04, newest first", u1, dynamo.SortBetween("2024-06-02", "2024-06-04~"), dynamo.Descending(), dynamo.Limit(50)); err != nil {
		return err
	}
	if err := q("query sort key prefix", "the key's placed_at, 2024-06-03, as a sort key prefix", demoOrder{UserID: "u1", PlacedAt: demoDay.Add(48 * time.Hour)}); err != nil {
		return err
	}
	if err := q("query ignoring struct sk", "the same key with SortNone: the whole partition", demoOrder{UserID: "u1", PlacedAt: demoDay.Add(48 * time.Hour)}, dynamo.SortNone()); err != nil {
		return err
	}
	if err := q("query GSI status=paid", "orders whose status is paid, through StatusIndex", demoOrder{Status: "paid"}, dynamo.Index("StatusIndex"), dynamo.SortGt(demoDay.Add(-time.Hour))); err != nil {
		return err
	}
	if err := q("query GSI status=pending", "status pending, placed from 2024-06-04", demoOrder{Status: "pending"}, dynamo.Index("StatusIndex"), dynamo.SortGe(demoDay.Add(72*time.Hour))); err != nil {
		return err
	}
	if err := q("query raw filter #t > :m", "u1's orders with a total over 40, filtered by the server", u1, dynamo.Filter(expr.RawCond("#t > :m", map[string]string{"#t": "total"}, map[string]any{":m": 40}))); err != nil {
		return err
	}
	if err := q("query filter total > 40", "the same filter written as expr.Gt(\"total\", 40)", u1, dynamo.Filter(expr.Gt("total", 40))); err != nil {
		return err
	}
	if err := q("query filter OR", "status paid or total at least 50", u1, dynamo.Filter(expr.AnyOf(expr.Eq("status", "paid"), expr.Ge("total", 50)))); err != nil {
		return err
	}
	var pages []string
	var cursor string
	for {
		opts := []dynamo.QueryOption{dynamo.Limit(2)}
		if cursor != "" {
			opts = append(opts, dynamo.StartAfter(cursor))
		}
		p, err := orders.Query(ctx, u1, opts...)
		if err != nil {
			return err
		}
		if len(p.Items) > 0 {
			pages = append(pages, "["+orderIDs(p.Items)+"]")
		}
		if !p.HasMore() {
			break
		}
		cursor = p.Cursor
	}
	d.step("query pages of 2 (cursor)", "each page resumed from the last one's cursor: %s", strings.Join(pages, " "))
	all, err := orders.QueryAll(ctx, u1, dynamo.MaxItems(4))
	if err != nil {
		return err
	}
	d.step("query all, at most 4", "pages read until 4 orders were found: %s", orderIDs(all))
	return nil
}

func (d *demo) scans(orders *dynamo.Table[demoOrder]) error {
	ctx := d.ctx
	users := dynamo.Bind(d.repo, d.s.users)
	if err := users.Put(ctx, demoUser{ID: "u1", Name: "Ada"}); err != nil {
		return err
	}
	p, err := orders.Scan(ctx, dynamo.Limit(100))
	if err != nil {
		return err
	}
	d.step("scan", "read %d items of the table, kept the %d orders (the user item is another entity)", p.ScannedCount, len(p.Items))
	var streamed []demoOrder
	for o, err := range orders.QueryStream(ctx, demoOrder{UserID: "u1"}, dynamo.Limit(2)) {
		if err != nil {
			return err
		}
		streamed = append(streamed, o)
		if len(streamed) == 3 {
			break // no further page is fetched
		}
	}
	d.step("stream, page size 2", "streamed %s and stopped: no further page is read", orderIDs(streamed))
	var par []demoOrder
	for o, err := range orders.ScanStream(ctx, dynamo.Parallel(4, 2)) {
		if err != nil {
			return err
		}
		par = append(par, o)
	}
	sort.Slice(par, func(i, j int) bool { return par[i].OrderID < par[j].OrderID })
	d.step("parallel scan, 4 segments", "%d orders, read by 2 workers: %s", len(par), orderIDs(par))
	return nil
}

func (d *demo) batches(orders *dynamo.Table[demoOrder]) error {
	ctx := d.ctx
	var ops []dynamo.WriteOp
	for i := range 30 {
		ops = append(ops, orders.PutOp(order("u3", i)))
	}
	ops = append(ops, orders.DeleteOp(order("u1", 5)), dynamo.Bind(d.repo, d.s.users).PutOp(demoUser{ID: "u3", Name: "Grace"}))
	res, err := d.repo.BatchWrite(ctx, ops)
	if err != nil {
		return err
	}
	d.step("batch write", "%d puts and deletes of 2 entities, sent in requests of at most 25: %d left unprocessed", len(ops), len(res.Unprocessed))
	got, err := orders.BatchGet(ctx, []demoOrder{order("u3", 3), order("u3", 29), order("u1", 5)})
	if err != nil {
		return err
	}
	slices.SortFunc(got.Items, func(a, b demoOrder) int { return strings.Compare(a.OrderID, b.OrderID) })
	d.step("batch get", "%d of 3 keys found: %s (u1/o05 was deleted by the batch); %d left unprocessed", len(got.Items), orderIDs(got.Items), len(got.Unprocessed))
	return nil
}

func (d *demo) collections() error {
	ctx := d.ctx
	notes := dynamo.Bind(d.repo, d.s.notes)
	for _, n := range []demoNote{{ID: "u1", NoteID: "n1", Text: "call back"}, {ID: "u1", NoteID: "n2", Text: "likes ink"}} {
		if err := notes.Put(ctx, n); err != nil {
			return err
		}
	}
	page, err := dynamo.QueryCollection(ctx, d.repo, d.s.profile, demoUser{ID: "u1"})
	if err != nil {
		return err
	}
	name := "?"
	if u := dynamo.ItemsOf(page, d.s.users); len(u) == 1 {
		name = u[0].Name
	}
	d.step("collection query", "u1's partition in one request: user %s and %d notes, each loaded into its own type", name, len(dynamo.ItemsOf(page, d.s.notes)))
	return nil
}

func (d *demo) transactions() error {
	ctx := d.ctx
	accts, ledger, holds := dynamo.Bind(d.repo, d.s.accts), dynamo.Bind(d.repo, d.s.ledger), dynamo.Bind(d.repo, d.s.holds)
	for _, a := range []demoAcct{{ID: "a", Balance: 10}, {ID: "b"}, {ID: "c"}} {
		if err := accts.Put(ctx, a); err != nil {
			return err
		}
	}
	if err := holds.Put(ctx, demoHold{ID: "h"}); err != nil {
		return err
	}
	transfer := func(id string, amount int, token string) error {
		return d.repo.Transact(ctx, []dynamo.TxOp{
			accts.TxUpdate(demoAcct{ID: "a"}, expr.Decrement("balance", amount),
				dynamo.If(expr.RawCond("#b >= :v", map[string]string{"#b": "balance"}, map[string]any{":v": amount})),
				dynamo.ReturnOldOnConditionFail()),
			accts.TxUpdate(demoAcct{ID: "b"}, expr.Increment("balance", amount)),
			ledger.TxPut(demoLedger{ID: id, From: "a", To: "b", Amount: amount}, dynamo.If(expr.NotExists("pk"))),
			accts.TxCheck(demoAcct{ID: "c"}, expr.Exists("pk")),
			holds.TxDelete(demoHold{ID: "h"}),
		}, dynamo.ClientRequestToken(token))
	}
	// Tokens are unique per run: DynamoDB replays a token's first outcome
	// for 10 minutes, which would hide a rerun's transfers.
	run := fmt.Sprint(time.Now().UnixNano())
	err := transfer("l1", 7, "demo-"+run+"-1")
	if d.unsupported("transaction", err) {
		return nil
	}
	if err != nil {
		return err
	}
	a, err := accts.Get(ctx, demoAcct{ID: "a"})
	if err != nil {
		return err
	}
	b, err := accts.Get(ctx, demoAcct{ID: "b"})
	if err != nil {
		return err
	}
	d.step("transaction", "moved 7 from account a to b, all or nothing (2 updates, a put, a check, a delete): a=%d b=%d", a.Balance, b.Balance)
	if err := transfer("l1", 7, "demo-"+run+"-1"); err != nil {
		return fmt.Errorf("replayed transaction: %w", err)
	}
	a, err = accts.Get(ctx, demoAcct{ID: "a"})
	if err != nil {
		return err
	}
	d.step("same token again", "the same request token is not applied twice: a=%d", a.Balance)
	err = transfer("l2", 7, "demo-"+run+"-2")
	var e *dynamo.Error
	if !errors.As(err, &e) || e.Type != dynamo.ErrTransactionCanceled {
		return fmt.Errorf("overdraft: want a canceled transaction, got %v", err)
	}
	codes := make([]string, len(e.CancellationReasons))
	for i, r := range e.CancellationReasons {
		codes[i] = r.Code
	}
	balance := "?"
	if len(e.CancellationReasons) > 0 {
		if old, ok := e.CancellationReasons[0].Value.(demoAcct); ok {
			balance = fmt.Sprint(old.Balance)
		}
	}
	d.step("transaction canceled", "moving 7 more would overdraw a, nothing changed: reasons [%s]; a's balance was %s", strings.Join(codes, " "), balance)
	return nil
}

// partiql runs PartiQL statements through the typed table: a SELECT whose
// rows load into demoOrder, an UPDATE that returns the row it wrote, and an
// INSERT of a key that exists.
func (d *demo) partiql(orders *dynamo.Table[demoOrder]) error {
	ctx, app := d.ctx, strconv.Quote(d.s.app)
	page, err := orders.Execute(ctx, dynamo.PartiQL("SELECT * FROM "+app+" WHERE pk = ? AND total >= ?", "order#u1", 30))
	if d.unsupported("partiql select", err) {
		return nil
	}
	if err != nil {
		return err
	}
	d.step("partiql select", "u1 orders with total >= 30: %s", orderIDs(page.Items))
	key, err := d.s.orders.PrimaryKey(order("u1", 2))
	if err != nil {
		return err
	}
	page, err = orders.Execute(ctx, dynamo.PartiQL("UPDATE "+app+" SET status = ? WHERE pk = ? AND sk = ? RETURNING ALL NEW *",
		"shipped", codec.Raw{Value: key.PK}, codec.Raw{Value: key.SK}))
	if err != nil {
		return err
	}
	if len(page.Items) != 1 {
		return fmt.Errorf("partiql update: %d rows returned, want 1", len(page.Items))
	}
	d.step("partiql update returning", "u1/%s: status %s (the row RETURNING ALL NEW gave back)", page.Items[0].OrderID, page.Items[0].Status)
	_, err = orders.Execute(ctx, dynamo.PartiQL("INSERT INTO "+app+" VALUE {'pk': ?, 'sk': ?}", codec.Raw{Value: key.PK}, codec.Raw{Value: key.SK}))
	var e *dynamo.Error
	if !errors.As(err, &e) || e.AWSCode != "DuplicateItemException" {
		return fmt.Errorf("partiql insert of an existing key: want DuplicateItemException, got %v", err)
	}
	d.step("partiql insert existing key", "refused: %s (%s)", e.Type, e.AWSCode)
	return nil
}

func (d *demo) vectors() error {
	ctx := d.ctx
	docs := dynamo.Bind(d.repo, d.s.docs)
	for _, doc := range []demoDoc{
		{Tenant: "t1", DocID: "d1", Lang: "en", Title: "red apples", Embedding: []float32{1, 0, 0}},
		{Tenant: "t1", DocID: "d2", Lang: "en", Title: "green apples", Embedding: []float32{0.8, 0.6, 0}},
		{Tenant: "t1", DocID: "d3", Lang: "de", Title: "rote Äpfel", Embedding: []float32{1, 0.1, 0}},
		{Tenant: "t1", DocID: "d4", Lang: "en", Title: "blue sky", Embedding: []float32{0, 0, 1}},
		{Tenant: "t2", DocID: "d5", Lang: "en", Title: "other tenant", Embedding: []float32{1, 0, 0}},
	} {
		if err := docs.Put(ctx, doc); err != nil {
			return err
		}
	}
	// Vector indexes are eventually consistent: poll briefly.
	var res dynamo.SearchResults[demoDoc]
	var err error
	deadline := time.Now().Add(10 * time.Second)
	for {
		res, err = docs.SearchVectors(ctx, "Semantic", []float32{1, 0, 0}, dynamo.TopK(2),
			dynamo.Filter(expr.AllOf(expr.Eq("tenant", "t1"), expr.Eq("lang", "en"))))
		if d.unsupported("vector search", err) {
			return nil
		}
		if (err == nil && len(res.Results) == 2) || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		return err
	}
	var hits []string
	for _, r := range res.Results {
		hits = append(hits, fmt.Sprintf("%s at distance %.3f", r.Item.DocID, r.Score))
	}
	d.step("vector search, top 2", "tenant t1, lang en, nearest to [1 0 0]: %s", strings.Join(hits, ", "))
	return nil
}
