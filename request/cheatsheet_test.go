package request_test

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/shopspring/decimal"

	"github.com/dynamogo/dynamo/codec"
	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/request"
	"github.com/dynamogo/dynamo/schema"
)

// The schemas of the Elixir guide's examples.

type Order struct {
	UserID   string            `dynamo:"user_id,pk"`
	PlacedAt time.Time         `dynamo:"placed_at,sk"`
	OrderID  string            `dynamo:"order_id,sk"`
	Total    decimal.Decimal   `dynamo:"total"`
	Status   string            `dynamo:"status,default=pending"`
	Version  int               `dynamo:"version"`
	Tags     codec.Set[string] `dynamo:"tags"`
}

var Orders = schema.Must[Order]("app",
	schema.EntityName("order"),
	schema.GSI("StatusIndex", "status", "placed_at"),
)

type Acct struct {
	ID      string `dynamo:"id,pk"`
	Balance int    `dynamo:"balance"`
}

type Ledger struct {
	ID string `dynamo:"id,pk"`
}

type Hold struct {
	ID string `dynamo:"id,pk"`
}

var (
	Accts   = schema.Must[Acct]("app", schema.EntityName("acct"))
	Ledgers = schema.Must[Ledger]("app", schema.EntityName("ledger"))
	Holds   = schema.Must[Hold]("app", schema.EntityName("hold"))
)

type Doc struct {
	ID        string    `dynamo:"id,pk"`
	Tenant    string    `dynamo:"tenant"`
	Lang      string    `dynamo:"lang"`
	Title     string    `dynamo:"title"`
	Embedding []float32 `dynamo:"embedding,dim=3"`
}

var Docs = schema.Must[Doc]("docs",
	schema.EntityName("doc"),
	schema.VectorIndex("Semantic", "embedding", schema.VectorPartition("tenant"), schema.InlineFilters("lang")),
)

var (
	dt = time.Date(2024, 6, 15, 10, 30, 0, 0, time.UTC)
	// Status as the Elixir struct's default sets it: in Go a default fills
	// only a missing value, never a "" the struct holds.
	order = Order{UserID: "u", PlacedAt: dt, OrderID: "o", Total: decimal.RequireFromString("99.90"), Tags: codec.NewSet("new"), Status: "pending"}
	key   = Order{UserID: "u", PlacedAt: dt, OrderID: "o"}
	page  = map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: "order#u"},
		"sk": &types.AttributeValueMemberS{Value: "2024-06-15T10:30:00.000000000Z#o"},
	}
)

type sheetLine struct {
	name   string // golden file name
	elixir string // the Elixir guide's line, for the reader
	build  func() (string, any, error)
}

func wrapBuild[In any](action string, f func() (In, error)) func() (string, any, error) {
	return func() (string, any, error) {
		in, err := f()
		return action, in, err
	}
}

// cheatSheet is the Elixir guide's "Operations cheat sheet", line by line, as
// request builders. Lines about the repo alone (query_all's paging loop,
// streams, the raw escape hatch) are represented by the request they send
// first.
func cheatSheet() []sheetLine {
	return []sheetLine{
		{"put_condition_raw", `Repo.put(struct, condition: "attribute_not_exists(pk)")`,
			wrapBuild("PutItem", func() (any, error) {
				return request.Put(Orders, order, request.If(expr.RawCond("attribute_not_exists(pk)", nil, nil)))
			})},
		{"put_condition_dsl", `Repo.put(struct, condition: [pk: :not_exists, status: {:in, ["a", "b"]}])`,
			wrapBuild("PutItem", func() (any, error) {
				return request.Put(Orders, order, request.If(expr.AllOf(expr.NotExists("pk"), expr.OneOf("status", "a", "b"))))
			})},
		{"put_return_all_old", `Repo.put(struct, return_values: :all_old)`,
			wrapBuild("PutItem", func() (any, error) {
				return request.Put(Orders, order, request.ReturnValues(types.ReturnValueAllOld))
			})},
		{"get_full_key", `Repo.get(%Order{user_id: "u", placed_at: dt, order_id: "o"})`,
			wrapBuild("GetItem", func() (any, error) { return request.Get(Orders, key) })},
		{"get_consistent_projection", `Repo.get(key, consistent: true, projection: [:total])`,
			wrapBuild("GetItem", func() (any, error) {
				return request.Get(Orders, key, request.Consistent(), request.Project("total"))
			})},
		{"delete_key", `Repo.delete(key)`,
			wrapBuild("DeleteItem", func() (any, error) { return request.Delete(Orders, key) })},
		{"delete_return_all_old", `Repo.delete(key, return_values: :all_old)`,
			wrapBuild("DeleteItem", func() (any, error) {
				return request.Delete(Orders, key, request.ReturnValues(types.ReturnValueAllOld))
			})},
		{"update_set_increment", `Repo.update(key, status: "paid", version: {:increment, 1})`,
			wrapBuild("UpdateItem", func() (any, error) {
				return request.Update(Orders, key, expr.Set("status", "paid"), expr.Increment("version", 1))
			})},
		{"update_add_remove_all_new", `Repo.update(key, [tags: {:add, MapSet.new(["x"])}, tmp: :remove], return_values: :all_new)`,
			wrapBuild("UpdateItem", func() (any, error) {
				return request.Update(Orders, key, expr.Add("tags", codec.NewSet("x")), expr.Remove("tmp"),
					request.ReturnValues(types.ReturnValueAllNew))
			})},
		{"query_partition", `Repo.query(%Order{user_id: "u"})`,
			wrapBuild("Query", func() (any, error) { return request.Query(Orders, Order{UserID: "u"}) })},
		{"query_begins_with", `Repo.query(%Order{user_id: "u"}, sort_key: {:begins_with, "2024-06"})`,
			wrapBuild("Query", func() (any, error) {
				return request.Query(Orders, Order{UserID: "u"}, request.SortBeginsWith("2024-06"))
			})},
		{"query_between_descending_limit", `Repo.query(%Order{user_id: "u"}, sort_key: {:between, "2024-01-01", "2024-12-31~"}, descending: true, limit: 50)`,
			wrapBuild("Query", func() (any, error) {
				return request.Query(Orders, Order{UserID: "u"}, request.SortBetween("2024-01-01", "2024-12-31~"), request.Descending(), request.Limit(50))
			})},
		{"query_partial_sort_key", `Repo.query(%Order{user_id: "u", placed_at: dt})`,
			wrapBuild("Query", func() (any, error) {
				return request.Query(Orders, Order{UserID: "u", PlacedAt: dt})
			})},
		{"query_sort_none", `Repo.query(%Order{user_id: "u", placed_at: dt}, sort_key: :none)`,
			wrapBuild("Query", func() (any, error) {
				return request.Query(Orders, Order{UserID: "u", PlacedAt: dt}, request.SortNone())
			})},
		{"query_index_gt", `Repo.query(%Order{status: "paid"}, index: "StatusIndex", sort_key: {:gt, ~U[2024-01-01 00:00:00Z]})`,
			wrapBuild("Query", func() (any, error) {
				return request.Query(Orders, Order{Status: "paid"}, request.Index("StatusIndex"),
					request.SortGt(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)))
			})},
		{"query_filter_raw", `Repo.query(%Order{user_id: "u"}, filter: "#t > :m", names: %{"#t" => "total"}, values: %{m: 100})`,
			wrapBuild("Query", func() (any, error) {
				return request.Query(Orders, Order{UserID: "u"},
					request.Filter(expr.RawCond("#t > :m", map[string]string{"#t": "total"}, map[string]any{"m": 100})))
			})},
		{"query_filter_dsl", `Repo.query(%Order{user_id: "u"}, filter: [total: {:gt, 100}])`,
			wrapBuild("Query", func() (any, error) {
				return request.Query(Orders, Order{UserID: "u"}, request.Filter(expr.Gt("total", 100)))
			})},
		{"query_filter_or", `Repo.query(%Order{user_id: "u"}, filter: {:or, [status: "open"], [total: {:gte, 100}]})`,
			wrapBuild("Query", func() (any, error) {
				return request.Query(Orders, Order{UserID: "u"}, request.Filter(expr.AnyOf(
					expr.Eq("status", "open"), expr.Ge("total", 100))))
			})},
		{"query_start_key", `Repo.query(%Order{user_id: "u"}, limit: 50, start_key: page.last_evaluated_key)`,
			wrapBuild("Query", func() (any, error) {
				return request.Query(Orders, Order{UserID: "u"}, request.Limit(50), request.StartKey(page))
			})},
		{"query_all_limit", `Repo.query_all(%Order{user_id: "u"}, limit: 1_000)`,
			wrapBuild("Query", func() (any, error) {
				return request.Query(Orders, Order{UserID: "u"}, request.Limit(1000))
			})},
		{"scan_limit", `Repo.scan(Order, limit: 100)`,
			wrapBuild("Scan", func() (any, error) { return request.Scan(Orders, request.Limit(100)) })},
		{"stream_page_size", `Repo.stream(%Order{user_id: "u"}, page_size: 100)`,
			wrapBuild("Query", func() (any, error) {
				return request.Query(Orders, Order{UserID: "u"}, request.Limit(100))
			})},
		{"stream_parallel_scan_segment", `Repo.stream(Order, segments: 8, max_concurrency: 4)`,
			wrapBuild("Scan", func() (any, error) { return request.Scan(Orders, request.Segment(3, 8)) })},
		{"batch_write", `Repo.batch_write(structs ++ [{:delete, s}])`,
			wrapBuild("BatchWriteItem", func() (any, error) {
				return request.BatchWrite([]request.WriteOp{
					request.PutOp(Orders, order),
					request.PutOp(Accts, Acct{ID: "a", Balance: 10}),
					request.DeleteOp(Orders, Order{UserID: "u", PlacedAt: dt, OrderID: "old"}),
				})
			})},
		{"batch_get", `Repo.batch_get([key1, key2])`,
			wrapBuild("BatchGetItem", func() (any, error) {
				return request.BatchGet([]request.GetKey{
					request.KeyOf(Orders, key),
					request.KeyOf(Orders, Order{UserID: "u", PlacedAt: dt, OrderID: "o2"}),
				})
			})},
		{"transaction", `Repo.transaction([{:update, …decrement…, condition: "#b >= :v"}, {:update, …increment…}, {:put, …}, {:check, …}, {:delete, …}], client_request_token: "idem-1")`,
			wrapBuild("TransactWriteItems", func() (any, error) {
				return request.TransactWrite([]request.TxOp{
					request.TxUpdate(Accts, Acct{ID: "a"}, expr.Decrement("balance", 5),
						request.If(expr.RawCond("#b >= :v", map[string]string{"#b": "balance"}, map[string]any{"v": 5}))),
					request.TxUpdate(Accts, Acct{ID: "b"}, expr.Increment("balance", 5)),
					request.TxPut(Ledgers, Ledger{ID: "l1"}, request.If(expr.RawCond("attribute_not_exists(pk)", nil, nil))),
					request.TxCheck(Accts, Acct{ID: "c"}, expr.RawCond("attribute_exists(pk)", nil, nil)),
					request.TxDelete(Holds, Hold{ID: "h"}),
				}, request.ClientRequestToken("idem-1"))
			})},
		{"search_vectors", `Repo.search_vectors(Doc, "Semantic", embedding, top_k: 5, filter: [tenant: "t", lang: "en"])`,
			wrapBuild("SearchVectors", func() (any, error) {
				return request.SearchVectors(Docs, "Semantic", []float32{0.1, 0.2, 0.3}, request.TopK(5),
					request.Filter(expr.AllOf(expr.Eq("tenant", "t"), expr.Eq("lang", "en"))))
			})},
	}
}

func TestCheatSheet(t *testing.T) {
	for _, line := range cheatSheet() {
		t.Run(line.name, func(t *testing.T) {
			action, in, err := line.build()
			if err != nil {
				t.Fatalf("%s\n%v", line.elixir, err)
			}
			golden(t, line.name, render(t, action, in))
		})
	}
}
