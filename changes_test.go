package dynamo_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/local"
	"github.com/dynamogo/dynamo/schema"
)

type Note struct {
	ID   string `dynamo:"id,pk"`
	Text string `dynamo:"text"`
}

// Tag shares the table of a Note schema (single-table design).
type Tag struct {
	Name string `dynamo:"name,pk"`
}

func noteSchema(view types.StreamViewType) *schema.Schema[Note] {
	return schema.Must[Note]("notes", schema.Stream(view))
}

// take reads n changes of seq, failing on an error.
func take[T any](t *testing.T, seq func(func(dynamo.Change[T], error) bool), n int) []dynamo.Change[T] {
	t.Helper()
	var got []dynamo.Change[T]
	for c, err := range seq {
		if err != nil {
			t.Fatalf("after %d changes: %v", len(got), err)
		}
		if got = append(got, c); len(got) == n {
			break
		}
	}
	return got
}

// writeNote puts, updates and deletes note n1.
func writeNote(t *testing.T, notes *dynamo.Table[Note]) {
	t.Helper()
	ctx := context.Background()
	if err := notes.Put(ctx, Note{ID: "n1", Text: "a"}); err != nil {
		t.Fatal(err)
	}
	if _, err := notes.Update(ctx, Note{ID: "n1"}, expr.Set("text", "b")); err != nil {
		t.Fatal(err)
	}
	if err := notes.Delete(ctx, Note{ID: "n1"}); err != nil {
		t.Fatal(err)
	}
}

func TestChangesKinds(t *testing.T) {
	s := noteSchema(types.StreamViewTypeNewAndOldImages)
	repo, _ := dynamotest.NewRepo(t, s)
	notes := dynamo.Bind(repo, s)
	writeNote(t, notes)

	got := take(t, notes.Changes(context.Background()), 3)
	a, b := Note{ID: "n1", Text: "a"}, Note{ID: "n1", Text: "b"}
	want := []struct {
		kind           dynamo.ChangeKind
		old, new       Note
		hasOld, hasNew bool
	}{
		{dynamo.ChangeInsert, Note{}, a, false, true},
		{dynamo.ChangeModify, a, b, true, true},
		{dynamo.ChangeRemove, b, Note{}, true, false},
	}
	for i, w := range want {
		c := got[i]
		if c.Kind != w.kind || c.Old != w.old || c.New != w.new || c.HasOld != w.hasOld || c.HasNew != w.hasNew {
			t.Errorf("change %d = %+v, want %+v", i, c, w)
		}
		if c.Key != (Note{ID: "n1"}) || c.Time.IsZero() || c.Position == "" {
			t.Errorf("change %d: key %+v, time %v, position %q", i, c.Key, c.Time, c.Position)
		}
		if i > 0 && c.SequenceNumber <= got[i-1].SequenceNumber {
			t.Errorf("sequence numbers not increasing: %s after %s", c.SequenceNumber, got[i-1].SequenceNumber)
		}
	}
}

func TestChangesViewTypes(t *testing.T) {
	for _, view := range types.StreamViewType("").Values() {
		t.Run(string(view), func(t *testing.T) {
			s := noteSchema(view)
			repo, _ := dynamotest.NewRepo(t, s)
			notes := dynamo.Bind(repo, s)
			writeNote(t, notes)
			got := take(t, notes.Changes(context.Background()), 3)
			wantOld := view == types.StreamViewTypeOldImage || view == types.StreamViewTypeNewAndOldImages
			wantNew := view == types.StreamViewTypeNewImage || view == types.StreamViewTypeNewAndOldImages
			mod := got[1]
			if mod.Kind != dynamo.ChangeModify || mod.HasOld != wantOld || mod.HasNew != wantNew {
				t.Fatalf("modify = %+v, want HasOld %v HasNew %v", mod, wantOld, wantNew)
			}
			if wantOld && mod.Old.Text != "a" || wantNew && mod.New.Text != "b" {
				t.Fatalf("modify images = %+v / %+v", mod.Old, mod.New)
			}
			if !wantNew && mod.New != (Note{}) || mod.Key.ID != "n1" {
				t.Fatalf("absent image not zero or key missing: %+v", mod)
			}
		})
	}
}

func TestChangesSkipsOtherEntities(t *testing.T) {
	s := noteSchema(types.StreamViewTypeNewImage)
	tags := schema.Must[Tag]("notes")
	repo, _ := dynamotest.NewRepo(t, s, tags)
	ctx := context.Background()
	notes := dynamo.Bind(repo, s)
	if err := dynamo.Bind(repo, tags).Put(ctx, Tag{Name: "go"}); err != nil {
		t.Fatal(err)
	}
	if err := notes.Put(ctx, Note{ID: "n1", Text: "a"}); err != nil {
		t.Fatal(err)
	}
	got := take(t, notes.Changes(ctx), 1)
	if got[0].New != (Note{ID: "n1", Text: "a"}) {
		t.Fatalf("first change = %+v, want the note (the tag skipped)", got[0])
	}
}

func TestChangesResume(t *testing.T) {
	s := noteSchema(types.StreamViewTypeNewImage)
	repo, _ := dynamotest.NewRepo(t, s)
	notes := dynamo.Bind(repo, s)
	writeNote(t, notes)
	ctx := context.Background()
	first := take(t, notes.Changes(ctx), 2)
	rest := take(t, notes.Changes(ctx, dynamo.FromPosition(first[1].Position)), 1)
	if rest[0].Kind != dynamo.ChangeRemove || rest[0].SequenceNumber <= first[1].SequenceNumber {
		t.Fatalf("resumed at %+v, want the remove after %s", rest[0], first[1].SequenceNumber)
	}

	var e *dynamo.Error
	for _, err := range notes.Changes(ctx, dynamo.FromPosition("garbage")) {
		if !errors.As(err, &e) || e.Type != dynamo.ErrValidation || !strings.Contains(e.Message, "FromPosition") {
			t.Fatalf("bad position: err = %v", err)
		}
	}
	if e == nil {
		t.Fatal("bad position yielded nothing")
	}
}

// putOnIterator is a tracer that writes a note as soon as the feed has its
// shard iterator: the write a FromLatest feed must see.
type putOnIterator struct {
	notes *dynamo.Table[Note]
	err   error
	done  bool
}

func (p *putOnIterator) TraceRequestStart(ctx context.Context, _ dynamo.TraceRequestStartData) context.Context {
	return ctx
}

func (p *putOnIterator) TraceRequestEnd(ctx context.Context, d dynamo.TraceRequestEndData) {
	if d.Action == "GetShardIterator" && !p.done {
		p.done = true
		p.err = p.notes.Put(context.Background(), Note{ID: "after", Text: "b"})
	}
}

func TestChangesFromLatest(t *testing.T) {
	s := noteSchema(types.StreamViewTypeNewImage)
	repo, srv := dynamotest.NewRepo(t, s)
	notes := dynamo.Bind(repo, s)
	ctx := context.Background()
	if err := notes.Put(ctx, Note{ID: "before", Text: "a"}); err != nil {
		t.Fatal(err)
	}
	tr := &putOnIterator{notes: notes}
	traced := dynamo.Bind(srv.Repo(t, dynamo.WithTracer(tr)), s)
	got := take(t, traced.Changes(ctx, dynamo.FromLatest()), 1)
	if tr.err != nil {
		t.Fatal(tr.err)
	}
	if got[0].New.ID != "after" {
		t.Fatalf("FromLatest read %+v first, want the note written after it started", got[0].New)
	}
}

// TestChangesExpiredIterator lets the shard iterator expire between two
// changes (the loop body outlived it): the feed reopens it after the last
// change read and loses nothing.
func TestChangesExpiredIterator(t *testing.T) {
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	srv := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithClock(clock)))
	s := noteSchema(types.StreamViewTypeNewImage)
	srv.CreateTables(t, s)
	notes := dynamo.Bind(srv.Repo(t), s)
	ctx := context.Background()
	if err := notes.Put(ctx, Note{ID: "n1", Text: "a"}); err != nil {
		t.Fatal(err)
	}
	var kinds []dynamo.ChangeKind
	for c, err := range notes.Changes(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		if kinds = append(kinds, c.Kind); len(kinds) == 2 {
			break
		}
		mu.Lock()
		now = now.Add(16 * time.Minute)
		mu.Unlock()
		if err := notes.Delete(ctx, Note{ID: "n1"}); err != nil {
			t.Fatal(err)
		}
	}
	if want := []dynamo.ChangeKind{dynamo.ChangeInsert, dynamo.ChangeRemove}; !slices.Equal(kinds, want) {
		t.Fatalf("kinds = %v, want %v", kinds, want)
	}
}

// feedGoroutines counts the goroutines running the change feed's code.
func feedGoroutines() int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	n := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "dynamo.(*feed)") || strings.Contains(g, "dynamo.changes[") {
			n++
		}
	}
	return n
}

func TestChangesEarlyExitAndCancel(t *testing.T) {
	s := noteSchema(types.StreamViewTypeNewImage)
	repo, _ := dynamotest.NewRepo(t, s)
	notes := dynamo.Bind(repo, s)
	writeNote(t, notes)

	take(t, notes.Changes(context.Background()), 1)
	if n := feedGoroutines(); n != 0 {
		t.Fatalf("%d feed goroutines left after break", n)
	}

	// Cancelled while caught up: the loop ends with ErrCanceled.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var last error
	n := 0
	for _, err := range notes.Changes(ctx) {
		if err != nil {
			last = err
			continue
		}
		if n++; n == 3 { // every change read: the feed now polls
			cancel()
		}
	}
	var e *dynamo.Error
	if !errors.As(last, &e) || e.Type != dynamo.ErrCanceled || e.Op != "GetRecords" {
		t.Fatalf("after cancel: err = %v, want ErrCanceled from GetRecords", last)
	}
	if n := feedGoroutines(); n != 0 {
		t.Fatalf("%d feed goroutines left after cancel", n)
	}
}

func TestChangesNoStream(t *testing.T) {
	s := schema.Must[Note]("plain")
	repo, _ := dynamotest.NewRepo(t, s)
	for _, err := range dynamo.Bind(repo, s).Changes(context.Background()) {
		var e *dynamo.Error
		if !errors.As(err, &e) || e.Type != dynamo.ErrValidation || !strings.Contains(e.Message, "schema.Stream") {
			t.Fatalf("err = %v, want a validation error naming schema.Stream", err)
		}
	}
}

// TestChangesShardLineage writes past the local server's 10,000 records per
// shard, so the stream rolls over to a child shard; the feed reads the
// parent to its end and then the child, every change once and in order.
func TestChangesShardLineage(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 10,050 items")
	}
	s := noteSchema(types.StreamViewTypeKeysOnly)
	repo, srv := dynamotest.NewRepo(t, s)
	notes := dynamo.Bind(repo, s)
	ctx := context.Background()
	const total = 10050
	var ops []dynamo.WriteOp
	for i := range total {
		ops = append(ops, notes.PutOp(Note{ID: fmt.Sprintf("n%05d", i)}))
	}
	if res, err := repo.BatchWrite(ctx, ops); err != nil || len(res.Unprocessed) != 0 {
		t.Fatalf("BatchWrite: %v", err)
	}
	tr := &countActions{n: map[string]int{}}
	traced := dynamo.Bind(srv.Repo(t, dynamo.WithTracer(tr)), s)
	got := take(t, traced.Changes(ctx), total)
	if tr.n["GetShardIterator"] != 2 {
		t.Fatalf("%d shard iterators, want 2 (parent and child)", tr.n["GetShardIterator"])
	}
	for i, c := range got {
		if want := fmt.Sprintf("n%05d", i); c.Key.ID != want {
			t.Fatalf("change %d is %s, want %s", i, c.Key.ID, want)
		}
	}
}

// countActions counts the attempts of each action (the feed runs on the
// test's goroutine, so no lock is needed).
type countActions struct{ n map[string]int }

func (c *countActions) TraceRequestStart(ctx context.Context, _ dynamo.TraceRequestStartData) context.Context {
	return ctx
}

func (c *countActions) TraceRequestEnd(_ context.Context, d dynamo.TraceRequestEndData) {
	c.n[d.Action]++
}

// TestChangesFromClient reads a feed through a repo over a client configured
// elsewhere (its tracer installed per call) and refuses a stub politely.
func TestChangesFromClient(t *testing.T) {
	srv := dynamotest.NewServer(t)
	s := noteSchema(types.StreamViewTypeNewImage)
	srv.CreateTables(t, s)
	tr := &countActions{n: map[string]int{}}
	repo, err := dynamo.FromClient(srv.Client(), dynamo.WithTracer(tr))
	if err != nil {
		t.Fatal(err)
	}
	notes := dynamo.Bind(repo, s)
	if err := notes.Put(context.Background(), Note{ID: "n1"}); err != nil {
		t.Fatal(err)
	}
	if got := take(t, notes.Changes(context.Background()), 1); got[0].New.ID != "n1" {
		t.Fatalf("change = %+v", got[0])
	}
	if tr.n["GetRecords"] == 0 {
		t.Fatal("the tracer saw no GetRecords attempt")
	}

	stub, _ := dynamo.FromClient(&cannedAPI{})
	for _, err := range dynamo.Bind(stub, s).Changes(context.Background()) {
		var e *dynamo.Error
		if !errors.As(err, &e) || e.Type != dynamo.ErrValidation || !strings.Contains(e.Message, "FromClient") {
			t.Fatalf("stub: err = %v", err)
		}
	}
}

// TestRepoChangesRaw reads a table's changes without a schema: the same
// feed, every entity's items, as DynamoDB holds them, and resumable.
func TestRepoChangesRaw(t *testing.T) {
	s := noteSchema(types.StreamViewTypeNewAndOldImages)
	tags := schema.Must[Tag]("notes")
	repo, _ := dynamotest.NewRepo(t, s, tags)
	ctx := context.Background()
	if err := dynamo.Bind(repo, tags).Put(ctx, Tag{Name: "go"}); err != nil {
		t.Fatal(err)
	}
	writeNote(t, dynamo.Bind(repo, s))

	got := take(t, repo.Changes(ctx, "notes"), 4)
	kinds := []dynamo.ChangeKind{dynamo.ChangeInsert, dynamo.ChangeInsert, dynamo.ChangeModify, dynamo.ChangeRemove}
	for i, c := range got {
		if c.Kind != kinds[i] || c.Position == "" || len(c.Key) != 1 {
			t.Fatalf("change %d = %+v, want %s with a key and a position", i, c, kinds[i])
		}
	}
	if pk := got[0].Key["pk"].(*types.AttributeValueMemberS).Value; !strings.HasPrefix(pk, "tag#") {
		t.Fatalf("first change's key = %q, want the tag's", pk)
	}
	if text := got[2].New["text"].(*types.AttributeValueMemberS).Value; text != "b" || !got[2].HasOld {
		t.Fatalf("modify = %+v, want new text b and the old image", got[2])
	}
	rest := take(t, repo.Changes(ctx, "notes", dynamo.FromPosition(got[2].Position)), 1)
	if rest[0].Kind != dynamo.ChangeRemove {
		t.Fatalf("resumed change = %+v, want the remove", rest[0])
	}
	for _, err := range repo.Changes(ctx, "missing") {
		if !errors.Is(err, dynamo.ErrValidation) || !strings.Contains(err.Error(), "table missing has no stream") {
			t.Fatalf("missing table: %v, want a validation error naming it", err)
		}
	}
}
