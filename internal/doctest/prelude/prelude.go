// Package prelude declares what every Go fragment of the documentation has
// in scope (see CONTRIBUTING.md, "Code in the docs"). The doctest copies
// these declarations next to each fragment, dropping those the fragment
// declares itself and everything built from them.
//
// Statements fragments also run, each in a process of its own against a
// fresh local server (reached through AWS_ENDPOINT_URL_DYNAMODB), after seed
// has created the tables and written the items below, so that every line of
// a fragment executes on data. Complete programs (package main with func
// main) do not get the prelude.
package prelude

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/codec"
	"github.com/dynamogo/dynamo/schema"
)

// Order is the running example: one user's orders, keyed by time and id.
type Order struct {
	UserID   string            `dynamo:"user_id,pk"`
	PlacedAt time.Time         `dynamo:"placed_at,sk,precision=s"`
	OrderID  string            `dynamo:"order_id,sk"`
	Total    decimal.Decimal   `dynamo:"total"`
	Status   string            `dynamo:"status,default=pending"`
	Tags     codec.Set[string] `dynamo:"tags"`
	Items    []string          `dynamo:"items"`
	Version  int               `dynamo:"version"`
}

// Orders is Order's schema in the single table "app".
var Orders = schema.Must[Order]("app",
	schema.EntityName("order"),
	schema.GSI("StatusIndex", "status", "placed_at"),
)

// Account and Ledger are the transaction example, in a table "bank" of
// their own (a table has one key layout: these have no sort key).
type Account struct {
	ID      string `dynamo:"id,pk"`
	Balance int    `dynamo:"balance"`
}

var Accounts = schema.Must[Account]("bank", schema.EntityName("acct"))

type Ledger struct {
	ID     string `dynamo:"id,pk"`
	From   string `dynamo:"from"`
	To     string `dynamo:"to"`
	Amount int    `dynamo:"amount"`
}

var Ledgers = schema.Must[Ledger]("bank", schema.EntityName("ledger"))

// Doc is the vector search example: three-dimensional embeddings per tenant.
type Doc struct {
	Tenant    string    `dynamo:"tenant,pk"`
	ID        string    `dynamo:"id,sk"`
	Lang      string    `dynamo:"lang"`
	Title     string    `dynamo:"title"`
	Embedding []float32 `dynamo:"embedding,dim=3"`
}

var Docs = schema.Must[Doc]("app",
	schema.EntityName("doc"),
	schema.VectorIndex("Semantic", "embedding",
		schema.VectorPartition("tenant"), schema.InlineFilters("lang")),
)

var ctx = context.Background()

// repo is opened from the environment: the doctest's local server when a
// fragment runs (compiling needs no server).
var repo = openRepo()

func openRepo() *dynamo.Repo {
	r, err := dynamo.Open(context.Background())
	if err != nil {
		panic("doctest prelude: " + err.Error())
	}
	return r
}

var err error

var orders = dynamo.Bind(repo, Orders)

var accounts = dynamo.Bind(repo, Accounts)

var ledgers = dynamo.Bind(repo, Ledgers)

var docs = dynamo.Bind(repo, Docs)

// o is an order with every key field set; key is the same order's key; o1
// and o2 are two more of user "u"'s orders. seed writes all three.
var o = Order{UserID: "u", PlacedAt: placed, OrderID: "o", Total: decimal.NewFromInt(120), Status: "open", Tags: codec.NewSet("a")}

var key = Order{UserID: "u", PlacedAt: placed, OrderID: "o"}

var o1 = Order{UserID: "u", PlacedAt: placed.Add(time.Hour), OrderID: "o1", Total: decimal.NewFromInt(80), Status: "paid"}

var o2 = Order{UserID: "u", PlacedAt: placed.Add(2 * time.Hour), OrderID: "o2", Total: decimal.NewFromInt(20), Status: "paid"}

var placed = time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)

var page dynamo.Page[Order]

var embedding = []float32{1, 0, 0}

// seed creates the tables of the schemas above and writes the orders,
// accounts "a" (balance 10), "b" and "c", and documents of tenant "t".
func seed() error {
	if _, err := repo.SyncTables(ctx, Orders, Docs, Accounts, Ledgers); err != nil {
		return err
	}
	for _, x := range []Order{o, o1, o2} {
		if err := orders.Put(ctx, x); err != nil {
			return err
		}
	}
	for _, a := range []Account{{ID: "a", Balance: 10}, {ID: "b"}, {ID: "c"}} {
		if err := accounts.Put(ctx, a); err != nil {
			return err
		}
	}
	for _, d := range []Doc{
		{Tenant: "t", ID: "d1", Lang: "en", Title: "Near", Embedding: embedding},
		{Tenant: "t", ID: "d2", Lang: "en", Title: "Far", Embedding: []float32{0, 1, 0}},
	} {
		if err := docs.Put(ctx, d); err != nil {
			return err
		}
	}
	return nil
}
