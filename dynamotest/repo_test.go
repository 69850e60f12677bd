package dynamotest_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/schema"
)

type account struct {
	ID      string `dynamo:"id,pk"`
	Balance int    `dynamo:"balance"`
}

type note struct {
	ID   string `dynamo:"id,pk"`
	Kind string `dynamo:"kind,sk,default=note"`
	Text string `dynamo:"text"`
}

type limit struct {
	ID  string `dynamo:"id,pk"`
	Max int    `dynamo:"max"`
}

var (
	limits   = schema.Must[limit]("bank", schema.EntityName("limit"))
	accounts = schema.Must[account]("bank")
	notes    = schema.Must[note]("bank", schema.EntityFrom(accounts))
	audit    = schema.Must[note]("audit")
)

func TestNewRepoCreatesMergedTables(t *testing.T) {
	repo, srv := dynamotest.NewRepo(t, accounts, limits, audit)
	ctx := context.Background()

	// accounts and limits share "bank": one table for both.
	if calls := srv.Calls("CreateTable"); calls != 2 {
		t.Fatalf("CreateTable calls = %d, want 2", calls)
	}
	accts := dynamo.Bind(repo, accounts)
	if err := accts.Put(ctx, account{ID: "a", Balance: 5}); err != nil {
		t.Fatal(err)
	}
	got, err := accts.Get(ctx, account{ID: "a"})
	if err != nil || got.Balance != 5 {
		t.Fatalf("Get = %+v, %v", got, err)
	}
	if err := dynamo.Bind(repo, limits).Put(ctx, limit{ID: "a", Max: 9}); err != nil {
		t.Fatal(err)
	}
	if got, err := accts.Get(ctx, account{ID: "a"}); err != nil || got.Balance != 5 {
		t.Fatalf("Get after the limit put = %+v, %v (entities must not collide)", got, err)
	}
	if err := dynamo.Bind(repo, audit).Put(ctx, note{ID: "n", Text: "x"}); err != nil {
		t.Fatal(err)
	}
	if _, err := accts.Get(ctx, account{ID: "missing"}); !errors.Is(err, dynamo.ErrNotFound) {
		t.Fatalf("Get(missing) error = %v, want ErrNotFound", err)
	}
}

func TestCreateTablesRejectsConflictingSchemas(t *testing.T) {
	srv := dynamotest.NewServer(t)
	ft := &fatalRecorder{TB: t}
	func() {
		defer func() { recover() }()
		srv.CreateTables(ft, accounts, notes) // notes has a sort key, accounts none
	}()
	if ft.msg == "" {
		t.Fatal("CreateTables accepted two schemas with different key layouts for one table")
	}
}

// fatalRecorder records the first Fatalf and stops the goroutine's work the
// way testing does, by panicking (recovered by the caller).
type fatalRecorder struct {
	testing.TB
	msg string
}

func (f *fatalRecorder) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	panic(f.msg)
}

func (f *fatalRecorder) Helper() {}

// WithAccessKey: the server verifies signatures, the repo and client of the
// server sign with the key, and a repo with another secret is refused with
// an authentication error.
func TestWithAccessKey(t *testing.T) {
	srv := dynamotest.NewServer(t, dynamotest.WithAccessKey("AKIDTEST", "test-secret", ""))
	srv.CreateTables(t, accounts)
	ctx := context.Background()
	bank := dynamo.Bind(srv.Repo(t), accounts)
	if err := bank.Put(ctx, account{ID: "a", Balance: 5}); err != nil {
		t.Fatal(err)
	}
	wrong := dynamo.Bind(srv.Repo(t, dynamo.WithCredentials("AKIDTEST", "guessed", "")), accounts)
	_, err := wrong.Get(ctx, account{ID: "a"})
	var e *dynamo.Error
	if !errors.Is(err, dynamo.ErrAuthentication) || !errors.As(err, &e) || e.AWSCode != "InvalidSignatureException" || e.Status != 400 {
		t.Fatalf("wrong secret: %v", err)
	}
	stranger := dynamo.Bind(srv.Repo(t, dynamo.WithCredentials("AKIDOTHER", "test-secret", "")), accounts)
	if _, err := stranger.Get(ctx, account{ID: "a"}); !errors.As(err, &e) || e.AWSCode != "UnrecognizedClientException" {
		t.Fatalf("unknown key: %v", err)
	}
}
