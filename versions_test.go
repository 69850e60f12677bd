package dynamo_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/schema"
)

// Article keeps a version (optimistic locking) and both timestamps, in two of
// their encodings.
type Article struct {
	ID      string    `dynamo:"id,pk"`
	Title   string    `dynamo:"title"`
	Rev     int       `dynamo:"rev,version"`
	Created time.Time `dynamo:"created,created,precision=s"`
	Updated int64     `dynamo:"updated,updated"`
}

// Jot has timestamps and no version, so batches may write it.
type Jot struct {
	ID      string    `dynamo:"id,pk"`
	Created time.Time `dynamo:"created_at,created"`
	Updated time.Time `dynamo:"updated_at,updated,unixtime"`
}

var (
	Articles = schema.Must[Article]("articles")
	Jots     = schema.Must[Jot]("articles")
)

var (
	v0 = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	v1 = v0.Add(90 * time.Minute)
)

// lockClock is a clock the test sets.
type lockClock struct{ now atomic.Pointer[time.Time] }

func (c *lockClock) set(t time.Time)        { c.now.Store(&t) }
func (c *lockClock) read() time.Time        { return *c.now.Load() }
func newLockClock(t time.Time) *lockClock   { c := new(lockClock); c.set(t); return c }
func articleKey(id string, rev int) Article { return Article{ID: id, Rev: rev} }
func isConflict(err error) bool             { return errors.Is(err, dynamo.ErrVersionConflict) }
func isCondFailed(err error) bool           { return errors.Is(err, dynamo.ErrConditionalCheckFailed) }

func newArticles(t *testing.T) (*dynamo.Repo, *dynamo.Table[Article], *lockClock, func(id string) map[string]types.AttributeValue) {
	t.Helper()
	srv, _ := newTestRepo(t)
	in, err := schema.CreateTableInput(Articles, Jots)
	if err != nil {
		t.Fatal(err)
	}
	srv.CreateTable(t, in)
	clock := newLockClock(v0)
	repo := newRepoFor(t, srv, dynamo.WithClock(clock.read))
	raw := func(pk string) map[string]types.AttributeValue {
		out, err := srv.Client().GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("articles"),
			Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}}})
		if err != nil {
			t.Fatal(err)
		}
		return out.Item
	}
	return repo, dynamo.Bind(repo, Articles), clock, raw
}

func attrText(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return v.Value
	case *types.AttributeValueMemberN:
		return v.Value
	case nil:
		return "<absent>"
	}
	return "?"
}

func TestVersionedPutAndDelete(t *testing.T) {
	ctx := context.Background()
	_, articles, clock, raw := newArticles(t)

	if err := articles.Put(ctx, Article{ID: "d1", Title: "first"}); err != nil {
		t.Fatal(err)
	}
	item := raw("article#d1")
	if got := attrText(item["rev"]) + " " + attrText(item["created"]) + " " + attrText(item["updated"]) + " " + attrText(item["_entity"]); got != "1 2026-12-01T09:00:00Z 1796115600 article" {
		t.Fatalf("stored rev, created, updated, entity = %s", got)
	}
	// A second writer that believes the item is new conflicts.
	if err := articles.Put(ctx, Article{ID: "d1", Title: "again"}); !isConflict(err) || isCondFailed(err) {
		t.Fatalf("Put of a new item over a stored one = %v, want ErrVersionConflict only", err)
	}

	d, err := articles.Get(ctx, Article{ID: "d1"})
	if err != nil || d.Rev != 1 || !d.Created.Equal(v0) || d.Updated != v0.Unix() {
		t.Fatalf("Get = %+v, %v", d, err)
	}
	clock.set(v1)
	d.Title = "second"
	if err := articles.Put(ctx, d); err != nil {
		t.Fatal(err)
	}
	item = raw("article#d1")
	if got := attrText(item["rev"]) + " " + attrText(item["created"]) + " " + attrText(item["updated"]); got != "2 2026-12-01T09:00:00Z 1796121000" {
		t.Fatalf("after a read-modify-write Put: rev, created, updated = %s (created is kept)", got)
	}
	// The value read before is stale now: Put and Delete refuse it.
	if err := articles.Put(ctx, d); !isConflict(err) {
		t.Fatalf("stale Put = %v, want ErrVersionConflict", err)
	}
	var e *dynamo.Error
	if err := articles.Delete(ctx, articleKey("d1", 1)); !isConflict(err) || !errors.As(err, &e) || e.Op != "DeleteItem" || strings.Contains(e.Error(), "second") {
		t.Fatalf("stale Delete = %v, want ErrVersionConflict without item values", err)
	}
	if err := articles.Delete(ctx, articleKey("d1", 2)); err != nil {
		t.Fatal(err)
	}
	if raw("article#d1") != nil {
		t.Fatal("Delete with the version read left the item")
	}
	// Deleted since read: a Put with the old version conflicts too.
	if err := articles.Put(ctx, Article{ID: "d1", Rev: 2}); !isConflict(err) {
		t.Fatalf("Put of a deleted item's version = %v, want ErrVersionConflict", err)
	}
}

// The caller's condition is ANDed with the lock; when it alone fails the
// error is ErrConditionalCheckFailed, told apart by the item returned.
func TestVersionedCallerCondition(t *testing.T) {
	ctx := context.Background()
	_, articles, _, _ := newArticles(t)
	if err := articles.Put(ctx, Article{ID: "d1", Title: "a"}); err != nil {
		t.Fatal(err)
	}
	err := articles.Put(ctx, Article{ID: "d1", Title: "b", Rev: 1}, dynamo.If(expr.Eq("title", "zzz")))
	if !isCondFailed(err) || isConflict(err) {
		t.Fatalf("caller's condition failing = %v, want ErrConditionalCheckFailed only", err)
	}
	err = articles.Put(ctx, Article{ID: "d1", Title: "b", Rev: 7}, dynamo.If(expr.Eq("title", "a")))
	if !isConflict(err) {
		t.Fatalf("wrong version with a holding condition = %v, want ErrVersionConflict", err)
	}
	if err := articles.Put(ctx, Article{ID: "d1", Title: "b", Rev: 1}, dynamo.If(expr.Eq("title", "a"))); err != nil {
		t.Fatal(err)
	}
	_, err = articles.Update(ctx, articleKey("d1", 2), expr.Set("title", "c"), dynamo.If(expr.Eq("title", "zzz")))
	if !isCondFailed(err) || isConflict(err) {
		t.Fatalf("Update, caller's condition failing = %v", err)
	}
	if err := articles.Delete(ctx, articleKey("d1", 2), dynamo.If(expr.Eq("title", "zzz"))); !isCondFailed(err) || isConflict(err) {
		t.Fatalf("Delete, caller's condition failing = %v", err)
	}
}

func TestVersionedUpdate(t *testing.T) {
	ctx := context.Background()
	_, articles, clock, raw := newArticles(t)

	// An update that creates the item stamps both times and version 1.
	d, err := articles.Update(ctx, articleKey("d1", 0), expr.Set("title", "new"))
	if err != nil || d.Rev != 1 || !d.Created.Equal(v0) || d.Updated != v0.Unix() {
		t.Fatalf("creating Update = %+v, %v", d, err)
	}
	if _, err := articles.Update(ctx, articleKey("d1", 0), expr.Set("title", "dup")); !isConflict(err) {
		t.Fatalf("Update with version 0 of a stored item = %v, want ErrVersionConflict", err)
	}
	clock.set(v1)
	d, err = articles.Update(ctx, articleKey("d1", 1), expr.Set("title", "edited"))
	if err != nil || d.Rev != 2 || !d.Created.Equal(v0) || d.Updated != v1.Unix() || d.Title != "edited" {
		t.Fatalf("Update = %+v, %v (created kept, updated now)", d, err)
	}
	if _, err := articles.Update(ctx, articleKey("d1", 1), expr.Set("title", "stale")); !isConflict(err) {
		t.Fatalf("stale Update = %v, want ErrVersionConflict", err)
	}
	if got := attrText(raw("article#d1")["title"]); got != "edited" {
		t.Fatalf("title = %s after refused updates", got)
	}
	for _, attr := range []string{"rev", "created", "updated"} {
		if _, err := articles.Update(ctx, articleKey("d1", 2), expr.Set(attr, 5)); !errors.Is(err, dynamo.ErrValidation) || !strings.Contains(err.Error(), attr) {
			t.Fatalf("Update of %s = %v, want a validation error naming it", attr, err)
		}
	}
}

func TestVersionedTransaction(t *testing.T) {
	ctx := context.Background()
	repo, articles, clock, raw := newArticles(t)
	jots := dynamo.Bind(repo, Jots)

	if err := repo.Transact(ctx, []dynamo.TxOp{
		articles.TxPut(Article{ID: "d1", Title: "a"}),
		articles.TxUpdate(articleKey("d2", 0), expr.Set("title", "b")),
		jots.TxPut(Jot{ID: "m1"}),
	}); err != nil {
		t.Fatal(err)
	}
	for _, pk := range []string{"article#d1", "article#d2"} {
		if got := attrText(raw(pk)["rev"]) + " " + attrText(raw(pk)["created"]); got != "1 2026-12-01T09:00:00Z" {
			t.Fatalf("%s: rev, created = %s", pk, got)
		}
	}
	if got := attrText(raw("jot#m1")["updated_at"]); got != "1796115600" {
		t.Fatalf("memo updated_at = %s", got)
	}

	clock.set(v1)
	err := repo.Transact(ctx, []dynamo.TxOp{
		articles.TxUpdate(articleKey("d1", 1), expr.Set("title", "a2")),
		articles.TxDelete(articleKey("d2", 5)), // stale
	})
	var e *dynamo.Error
	if !isConflict(err) || !errors.Is(err, dynamo.ErrTransactionCanceled) || !errors.As(err, &e) ||
		len(e.CancellationReasons) != 2 || e.CancellationReasons[1].Code != "ConditionalCheckFailed" {
		t.Fatalf("stale TxDelete = %v, want ErrVersionConflict and ErrTransactionCanceled with reasons", err)
	}
	if got := attrText(raw("article#d1")["title"]); got != "a" {
		t.Fatalf("a canceled transaction changed d1: %s", got)
	}
	// A failed TxCheck is the caller's condition, not a conflict.
	err = repo.Transact(ctx, []dynamo.TxOp{
		articles.TxUpdate(articleKey("d1", 1), expr.Set("title", "a2")),
		articles.TxCheck(Article{ID: "d2"}, expr.Eq("title", "zzz")),
	})
	if !errors.Is(err, dynamo.ErrTransactionCanceled) || isConflict(err) {
		t.Fatalf("failed TxCheck = %v, want ErrTransactionCanceled only", err)
	}
	if err := repo.Transact(ctx, []dynamo.TxOp{
		articles.TxUpdate(articleKey("d1", 1), expr.Set("title", "a2")),
		articles.TxDelete(articleKey("d2", 1)),
	}); err != nil {
		t.Fatal(err)
	}
	if d1 := raw("article#d1"); attrText(d1["rev"]) != "2" || attrText(d1["updated"]) != "1796121000" || raw("article#d2") != nil {
		t.Fatalf("after the transaction: d1 rev %s updated %s, d2 %v", attrText(d1["rev"]), attrText(d1["updated"]), raw("article#d2"))
	}
}

// A batch carries no conditions: a versioned schema's entries are refused
// before sending; timestamps are stamped as Put stamps them.
func TestVersionedBatchWrite(t *testing.T) {
	ctx := context.Background()
	repo, articles, _, raw := newArticles(t)
	jots := dynamo.Bind(repo, Jots)
	for _, op := range []dynamo.WriteOp{articles.PutOp(Article{ID: "d1"}), articles.DeleteOp(articleKey("d1", 1))} {
		_, err := repo.BatchWrite(ctx, []dynamo.WriteOp{jots.PutOp(Jot{ID: "m0"}), op})
		if !errors.Is(err, dynamo.ErrValidation) || !strings.Contains(err.Error(), `entity "article" has a version field`) {
			t.Fatalf("batch entry of a versioned schema = %v", err)
		}
	}
	if raw("jot#m0") != nil {
		t.Fatal("a refused batch wrote an item")
	}
	created := v0.Add(-time.Hour)
	if _, err := repo.BatchWrite(ctx, []dynamo.WriteOp{jots.PutOp(Jot{ID: "m1"}), jots.PutOp(Jot{ID: "m2", Created: created})}); err != nil {
		t.Fatal(err)
	}
	m1, m2 := raw("jot#m1"), raw("jot#m2")
	if got := attrText(m1["created_at"]) + " " + attrText(m1["updated_at"]) + " " + attrText(m2["created_at"]); got != "2026-12-01T09:00:00.000000000Z 1796115600 2026-12-01T08:00:00.000000000Z" {
		t.Fatalf("batch timestamps = %s", got)
	}
}

// Two writers read the same version and race their writes: exactly one
// wins, the other gets ErrVersionConflict, and nothing is lost silently.
func TestVersionedConcurrentWriters(t *testing.T) {
	ctx := context.Background()
	_, articles, _, raw := newArticles(t)
	if err := articles.Put(ctx, Article{ID: "d1", Title: "start"}); err != nil {
		t.Fatal(err)
	}
	a, errA := articles.Get(ctx, Article{ID: "d1"})
	b, errB := articles.Get(ctx, Article{ID: "d1"})
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	a.Title, b.Title = "by a", "by b"
	start := make(chan struct{})
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i, d := range []Article{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = articles.Put(ctx, d)
		}()
	}
	close(start)
	wg.Wait()
	won := -1
	for i, err := range errs {
		switch {
		case err == nil && won < 0:
			won = i
		case isConflict(err):
		default:
			t.Fatalf("writer %d: %v (errors %v)", i, err, errs)
		}
	}
	if won < 0 {
		t.Fatalf("no writer won: %v", errs)
	}
	item := raw("article#d1")
	if want := []string{"by a", "by b"}[won]; attrText(item["title"]) != want || attrText(item["rev"]) != "2" {
		t.Fatalf("stored title %s rev %s, want %q rev 2", attrText(item["title"]), attrText(item["rev"]), want)
	}
}

func TestLifecycleDeclarationErrors(t *testing.T) {
	type badVersion struct {
		ID  string `dynamo:"id,pk"`
		Rev string `dynamo:"rev,version"`
	}
	type twoVersions struct {
		ID string `dynamo:"id,pk"`
		A  int    `dynamo:"a,version"`
		B  int    `dynamo:"b,version"`
	}
	type keyVersion struct {
		ID int `dynamo:"id,pk,version"`
	}
	type badCreated struct {
		ID string `dynamo:"id,pk"`
		At string `dynamo:"at,created"`
	}
	type both struct {
		ID string    `dynamo:"id,pk"`
		At time.Time `dynamo:"at,created,updated"`
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{err2(schema.New[badVersion]("tbl")), "rev: the version flag needs an integer field, not string"},
		{err2(schema.New[twoVersions]("tbl")), "field b: a second version field; a is one"},
		{err2(schema.New[keyVersion]("tbl")), "field id: a key field cannot be the version field"},
		{err2(schema.New[badCreated]("tbl")), "at: the created and updated flags need a time.Time or integer (unix seconds) field, not string"},
		{err2(schema.New[both]("tbl")), "at: the tag flags version, created and updated exclude each other"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("got %v, want %q", c.err, c.want)
		}
	}
}

func err2[T any](_ T, err error) error { return err }

// Shelf and Book share a partition (a collection); each item keeps its own
// version, so the lock of one never refuses a write of its sibling.
type Shelf struct {
	ID   string `dynamo:"id,pk"`
	Kind string `dynamo:"kind,sk,default=shelf"`
	Name string `dynamo:"name"`
	Rev  int    `dynamo:"rev,version"`
}

type Book struct {
	ID    string `dynamo:"id,pk"`
	Kind  string `dynamo:"kind,sk,default=book"`
	Title string `dynamo:"title"`
	Rev   uint32 `dynamo:"rev,version"`
}

var (
	Shelves   = schema.Must[Shelf]("shelves")
	Books     = schema.Must[Book]("shelves", schema.EntityFrom(Shelves))
	ShelfView = schema.MustCollection("shelf", Shelves, Books)
)

func TestVersionedCollection(t *testing.T) {
	ctx := context.Background()
	srv, _ := newTestRepo(t)
	in, err := schema.CreateTableInput(Shelves, Books)
	if err != nil {
		t.Fatal(err)
	}
	srv.CreateTable(t, in)
	repo := newRepoFor(t, srv)
	shelves, books := dynamo.Bind(repo, Shelves), dynamo.Bind(repo, Books)
	if err := shelves.Put(ctx, Shelf{ID: "s1", Name: "a"}); err != nil {
		t.Fatal(err)
	}
	if err := books.Put(ctx, Book{ID: "s1", Title: "b"}); err != nil {
		t.Fatalf("a sibling's first Put = %v", err)
	}
	if _, err := books.Update(ctx, Book{ID: "s1", Rev: 1}, expr.Set("title", "b2")); err != nil {
		t.Fatal(err)
	}
	if err := shelves.Put(ctx, Shelf{ID: "s1", Name: "stale"}); !isConflict(err) {
		t.Fatalf("stale shelf Put = %v, want ErrVersionConflict", err)
	}
	page, err := dynamo.QueryCollection(ctx, repo, ShelfView, Shelf{ID: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	got := dynamo.ItemsOf(page, Shelves)
	gotBooks := dynamo.ItemsOf(page, Books)
	if len(got) != 1 || got[0].Rev != 1 || got[0].Name != "a" || len(gotBooks) != 1 || gotBooks[0].Rev != 2 || gotBooks[0].Title != "b2" {
		t.Fatalf("collection = %+v %+v", got, gotBooks)
	}
}

// A PartiQL insert built from a value writes what a Put of a new item
// writes: the first version and the timestamps at the repo's clock. A value
// that carries a version was read, so inserting it is refused.
func TestVersionedInsertStatement(t *testing.T) {
	ctx := context.Background()
	repo, articles, _, raw := newArticles(t)
	ins, err := articles.InsertStatement(Article{ID: "p1", Title: "inserted"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := repo.ExecuteTransaction(ctx, []dynamo.Statement{ins}); err != nil {
		t.Fatal(err)
	}
	item := raw("article#p1")
	if got := attrText(item["rev"]) + " " + attrText(item["created"]) + " " + attrText(item["updated"]) + " " + attrText(item["_entity"]); got != "1 2026-12-01T09:00:00Z 1796115600 article" {
		t.Fatalf("stored rev, created, updated, entity = %s", got)
	}
	if _, err := articles.InsertStatement(articleKey("p1", 1)); !errors.Is(err, dynamo.ErrValidation) || !strings.Contains(err.Error(), "rev") {
		t.Fatalf("insert of a read value: %v, want a validation error naming rev", err)
	}
}
