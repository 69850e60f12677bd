// Package prelude declares what every Go fragment of the documentation has
// in scope (see CONTRIBUTING.md, "Code in the docs"). The doctest copies
// these declarations next to each fragment, dropping those the fragment
// declares itself and everything built from them.
//
// The values are never used at run time: fragments are only compiled.
// Complete programs (package main with func main) do not get the prelude.
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

var repo *dynamo.Repo

var err error

var orders = dynamo.Bind(repo, Orders)

var accounts = dynamo.Bind(repo, Accounts)

var ledgers = dynamo.Bind(repo, Ledgers)

var docs = dynamo.Bind(repo, Docs)

// o is an order with every key field set; key is the same order's key.
var o Order

var key Order

var o1 Order

var o2 Order

var placed time.Time

var page dynamo.Page[Order]

var embedding []float32
