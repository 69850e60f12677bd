package request_test

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/codec"
	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/request"
	"github.com/dynamogo/dynamo/schema"
)

var at = time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)

// Ticket has a multi-attribute GSI key.
type Ticket struct {
	ID        string    `dynamo:"id,pk"`
	Tenant    string    `dynamo:"tenant"`
	Region    string    `dynamo:"region"`
	CreatedAt time.Time `dynamo:"created_at,precision=s"`
	Priority  int       `dynamo:"priority"`
}

var Tickets = schema.Must[Ticket]("tickets",
	schema.MultiKeyGSI("ByTenant", []string{"tenant", "region"}, []string{"created_at", "priority"}, schema.KeysOnly()),
)

// More shapes than the cheat sheet shows: every sort-key form, raw keys,
// LSIs, and every option of each builder at least once.
func moreBuilders() []sheetLine {
	ev := Event{Tenant: "t1"}
	return []sheetLine{
		{"query_complete_sort_key_eq", "table query with every sort-key field set",
			wrapBuild("Query", func() (any, error) { return request.Query(Orders, key) })},
		{"query_explicit_eq", "the composed sort key, given as an attribute value, is used as is", wrapBuild("Query", func() (any, error) {
			return request.Query(Orders, Order{UserID: "u"}, request.SortEq(&types.AttributeValueMemberS{Value: "2024-06-15T10:30:00.000000000Z#o"}))
		})},
		{"query_field_eq", "equality on the first free sort field: a prefix of whole parts", wrapBuild("Query", func() (any, error) {
			return request.Query(Orders, Order{UserID: "u"}, request.SortEq(at))
		})},
		{"query_field_gt_last", "a strict range on the last sort field behind a fixed prefix: both bounds and one excluded value", wrapBuild("Query", func() (any, error) {
			return request.Query(Orders, Order{UserID: "u", PlacedAt: at}, request.SortGt("o1"), request.Filter(expr.Ne("status", "void")))
		})},
		{"query_field_le_first", "a range on the first sort field, which is not the last", wrapBuild("Query", func() (any, error) {
			return request.Query(Orders, Order{UserID: "u"}, request.SortLe(at))
		})},
		{"query_raw_keys_derived_eq", "raw keys: typed equality on the sort field", wrapBuild("Query", func() (any, error) {
			return request.Query(Events, Event{Tenant: "t1", At: at})
		})},
		{"query_raw_keys_lt", "", wrapBuild("Query", func() (any, error) { return request.Query(Events, ev, request.SortLt(at)) })},
		{"query_raw_keys_le", "", wrapBuild("Query", func() (any, error) { return request.Query(Events, ev, request.SortLe(at)) })},
		{"query_raw_keys_ge", "", wrapBuild("Query", func() (any, error) { return request.Query(Events, ev, request.SortGe(at)) })},
		{"query_raw_keys_between", "", wrapBuild("Query", func() (any, error) {
			return request.Query(Events, ev, request.SortBetween(at, at.Add(time.Hour)))
		})},
		{"query_raw_keys_begins_with", "", wrapBuild("Query", func() (any, error) {
			return request.Query(Events, ev, request.SortBeginsWith("2024-03"))
		})},
		{"query_gsi_derived_eq", "GSI with its sort field set", wrapBuild("Query", func() (any, error) {
			return request.Query(Orders, Order{Status: "paid", PlacedAt: at}, request.Index("StatusIndex"))
		})},
		{"query_gsi_no_sort_key", "", wrapBuild("Query", func() (any, error) {
			return request.Query(Events, Event{Kind: "click"}, request.Index("ByKind"), request.Select(types.SelectCount))
		})},
		{"query_lsi_consistent", "LSI: table partition, typed sort key, consistent reads allowed", wrapBuild("Query", func() (any, error) {
			return request.Query(Events, ev, request.Index("ByScore"), request.SortGe(10), request.Consistent(),
				request.Select(types.SelectAllProjectedAttributes))
		})},
		{"query_every_option", "", wrapBuild("Query", func() (any, error) {
			return request.Query(Orders, Order{UserID: "u"},
				request.SortBeginsWith("2024"),
				request.Filter(expr.AllOf(expr.Exists("total"), expr.Ne("status", "void"))),
				request.Project("total", "status", "order_id"),
				request.Limit(10), request.StartKey(page), request.Descending(), request.Consistent(),
				request.ConsumedCapacity(types.ReturnConsumedCapacityIndexes))
		})},
		{"query_multikey_partition", "multi-attribute GSI key: equality on every partition attribute", wrapBuild("Query", func() (any, error) {
			return request.Query(Tickets, Ticket{Tenant: "t1", Region: "eu"}, request.Index("ByTenant"))
		})},
		{"query_multikey_sort_eq_and_range", "leading sort attributes set, a typed range on the next one", wrapBuild("Query", func() (any, error) {
			return request.Query(Tickets, Ticket{Tenant: "t1", Region: "eu", CreatedAt: at}, request.Index("ByTenant"), request.SortGe(2))
		})},
		{"query_multikey_range_first_sort", "", wrapBuild("Query", func() (any, error) {
			return request.Query(Tickets, Ticket{Tenant: "t1", Region: "eu"}, request.Index("ByTenant"), request.SortBetween(at, at.Add(time.Hour)), request.Descending())
		})},
		{"create_table_multikey", "CreateTableInput: HASH elements, then RANGE elements, in order", wrapBuild("CreateTable", func() (any, error) {
			return schema.CreateTableInput(Tickets)
		})},
		{"scan_every_option", "", wrapBuild("Scan", func() (any, error) {
			return request.Scan(Orders, request.Index("StatusIndex"),
				request.Filter(expr.Eq("status", "paid")), request.Project("total"),
				request.Limit(5), request.StartKey(page), request.Segment(1, 4),
				request.ConsumedCapacity(types.ReturnConsumedCapacityTotal))
		})},
		{"get_nested_projection", "", wrapBuild("GetItem", func() (any, error) {
			return request.Get(Orders, key, request.Project(expr.Attr("address", "city"), expr.Attr("items").Index(0)))
		})},
		{"get_capacity", "", wrapBuild("GetItem", func() (any, error) {
			return request.Get(Orders, key, request.ConsumedCapacity(types.ReturnConsumedCapacityTotal))
		})},
		{"put_condition_fail_old", "", wrapBuild("PutItem", func() (any, error) {
			return request.Put(Accts, Acct{ID: "a", Balance: 3},
				request.If(expr.Lt("balance", 3)), request.ReturnOldOnConditionFail(),
				request.ConsumedCapacity(types.ReturnConsumedCapacityTotal))
		})},
		{"delete_condition", "", wrapBuild("DeleteItem", func() (any, error) {
			return request.Delete(Orders, key, request.If(expr.Eq("status", "void")), request.ReturnOldOnConditionFail())
		})},
		{"update_every_operator", "", wrapBuild("UpdateItem", func() (any, error) {
			return request.Update(Orders, key,
				expr.Set("status", "paid"), expr.SetNull("note"), expr.Remove("tmp"),
				expr.Increment("version", 1), expr.Decrement("stock", 2),
				expr.Add("visits", 1), expr.Delete("tags", codec.NewSet("old")),
				expr.Append("history", []any{"paid"}), expr.Prepend("recent", []any{"paid"}),
				expr.IfNotExists("created", "2024-01-01"),
				expr.Set(expr.Attr("address", "city"), "Paris"),
				request.If(expr.Eq("version", 3)), request.ReturnValues(types.ReturnValueUpdatedNew))
		})},
		{"update_raw", "", wrapBuild("UpdateItem", func() (any, error) {
			return request.Update(Accts, Acct{ID: "a"},
				expr.RawUpdate("SET #b = #b + :d", map[string]string{"b": "balance"}, map[string]any{"d": 5}),
				request.If(expr.Exists("pk")))
		})},
		{"batch_get_projection_two_tables", "", wrapBuild("BatchGetItem", func() (any, error) {
			return request.BatchGet([]request.GetKey{
				request.KeyOf(Orders, key), request.KeyOf(Events, Event{Tenant: "t", At: at}),
			}, request.Consistent(), request.Project("total"), request.ConsumedCapacity(types.ReturnConsumedCapacityTotal))
		})},
		{"transaction_on_condition_fail", "", wrapBuild("TransactWriteItems", func() (any, error) {
			return request.TransactWrite([]request.TxOp{
				request.TxPut(Accts, Acct{ID: "a"}, request.If(expr.NotExists("pk")), request.ReturnOldOnConditionFail()),
				request.TxCheck(Orders, key, expr.Eq("status", "paid"), request.ReturnOldOnConditionFail()),
				request.TxDelete(Holds, Hold{ID: "h"}, request.If(expr.Exists("pk"))),
			}, request.ConsumedCapacity(types.ReturnConsumedCapacityIndexes))
		})},
		{"transact_get", "", wrapBuild("TransactGetItems", func() (any, error) {
			return request.TransactGet([]request.GetKey{
				request.KeyOf(Accts, Acct{ID: "a"}), request.KeyOf(Orders, key),
			}, request.Project("balance", "total"), request.ConsumedCapacity(types.ReturnConsumedCapacityTotal))
		})},
		{"search_vectors_projection", "", wrapBuild("SearchVectors", func() (any, error) {
			return request.SearchVectors(Docs, "Semantic", []float32{1, -0.5, 3.25},
				request.Filter(expr.RawCond("#t = :t", map[string]string{"#t": "tenant"}, map[string]any{"t": "acme"})),
				request.Project("title", "embedding"),
				request.ConsumedCapacity(types.ReturnConsumedCapacityTotal))
		})},
		{"search_vectors_default_topk", "", wrapBuild("SearchVectors", func() (any, error) {
			return request.SearchVectors(Docs, "Semantic", []float32{0, 0, 1}, request.Filter(expr.Eq("tenant", "t")))
		})},
	}
}

func TestBuilders(t *testing.T) {
	for _, line := range moreBuilders() {
		t.Run(line.name, func(t *testing.T) {
			action, in, err := line.build()
			if err != nil {
				t.Fatal(err)
			}
			golden(t, line.name, render(t, action, in))
		})
	}
}
