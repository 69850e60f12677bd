package request_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/request"
	"github.com/dynamogo/dynamo/schema"
)

type Event struct {
	Tenant string    `dynamo:"tenant,pk"`
	At     time.Time `dynamo:"at,sk"`
	Kind   string    `dynamo:"kind"`
	Score  int       `dynamo:"score"`
}

// Events has raw keys (typed, not generated), a GSI without sort key and
// an LSI.
var Events = schema.Must[Event]("events",
	schema.RawKeys(),
	schema.GSI("ByKind", "kind", ""),
	schema.LSI("ByScore", "score"),
)

func TestValidationErrors(t *testing.T) {
	tests := []struct {
		name string
		err  func() error
		want string
	}{
		{"consistent on GSI", func() error {
			_, err := request.Query(Orders, Order{Status: "x"}, request.Index("StatusIndex"), request.Consistent())
			return err
		}, "consistent reads are not supported on global secondary index StatusIndex"},
		{"consistent scan on GSI", func() error {
			_, err := request.Scan(Orders, request.Index("StatusIndex"), request.Consistent())
			return err
		}, "consistent reads are not supported"},
		{"unknown index", func() error {
			_, err := request.Query(Orders, Order{UserID: "u"}, request.Index("Nope"))
			return err
		}, `no index "Nope"`},
		{"vector index in query", func() error {
			_, err := request.Query(Docs, Doc{ID: "d"}, request.Index("Semantic"))
			return err
		}, "is a vector index; use SearchVectors"},
		{"limit 0", func() error {
			_, err := request.Query(Orders, Order{UserID: "u"}, request.Limit(0))
			return err
		}, "Limit 0: must be at least 1"},
		{"scan limit negative", func() error {
			_, err := request.Scan(Orders, request.Limit(-1))
			return err
		}, "Limit -1"},
		{"empty projection", func() error {
			_, err := request.Get(Orders, key, request.Project[string]())
			return err
		}, "projection names no attributes"},
		{"select count with projection", func() error {
			_, err := request.Query(Orders, Order{UserID: "u"}, request.Select(types.SelectCount), request.Project("total"))
			return err
		}, "cannot be combined with a projection"},
		{"specific attributes without projection", func() error {
			_, err := request.Query(Orders, Order{UserID: "u"}, request.Select(types.SelectSpecificAttributes))
			return err
		}, "needs a projection"},
		{"overlapping projection", func() error {
			_, err := request.Get(Orders, key, request.Project(expr.Attr("a"), expr.Attr("a", "b")))
			return err
		}, "paths a and a.b overlap"},
		{"all projected without index", func() error {
			_, err := request.Scan(Orders, request.Select(types.SelectAllProjectedAttributes))
			return err
		}, "needs an index"},
		{"segment out of range", func() error {
			_, err := request.Scan(Orders, request.Segment(8, 8))
			return err
		}, "Segment(8, 8)"},
		{"put ALL_NEW", func() error {
			_, err := request.Put(Orders, order, request.ReturnValues(types.ReturnValueAllNew))
			return err
		}, "only NONE and ALL_OLD"},
		{"bad capacity", func() error {
			_, err := request.Get(Orders, key, request.ConsumedCapacity("ALL"))
			return err
		}, `ConsumedCapacity "ALL"`},
		{"partial key get", func() error {
			_, err := request.Get(Orders, Order{UserID: "u", PlacedAt: dt})
			return err
		}, "order_id"},
		{"nil partition query", func() error {
			_, err := request.Query(Orders, Order{})
			return err
		}, "user_id"},
		{"update key field", func() error {
			_, err := request.Update(Orders, key, expr.Set("order_id", "x"))
			return err
		}, "field order_id: key attributes cannot be updated"},
		{"update key attribute", func() error {
			_, err := request.Update(Orders, key, expr.Set("pk", "x"))
			return err
		}, "field pk: key attributes cannot be updated"},
		{"update nested key path", func() error {
			_, err := request.Update(Orders, key, expr.Set(expr.Attr("user_id", "x"), "x"))
			return err
		}, "field user_id"},
		{"tx update key field", func() error {
			_, err := request.TransactWrite([]request.TxOp{request.TxUpdate(Accts, Acct{ID: "a"}, expr.Set("id", "b"))})
			return err
		}, "operation 0: Update: field id: key attributes cannot be updated"},
		{"sort key condition value with the separator", func() error {
			_, err := request.Query(Orders, Order{UserID: "u"}, request.SortBeginsWith("2024-06#o"))
			return err
		}, "field placed_at: the condition value contains the key separator"},
		{"sort key condition with every sort field set", func() error {
			_, err := request.Query(Orders, key, request.SortGt(dt))
			return err
		}, "field order_id: every sort-key field is set"},
		{"sort key on index without one", func() error {
			_, err := request.Query(Events, Event{Kind: "k"}, request.Index("ByKind"), request.SortEq("x"))
			return err
		}, "without a sort key"},
		{"index partition unset", func() error {
			_, err := request.Query(Events, Event{Tenant: "t"}, request.Index("ByKind"))
			return err
		}, "field kind: partition-key value of index ByKind is unset"},
		{"batch write over 25", func() error {
			ops := make([]request.WriteOp, 26)
			for i := range ops {
				ops[i] = request.PutOp(Accts, Acct{ID: fmt.Sprint(i)})
			}
			_, err := request.BatchWrite(ops)
			return err
		}, "26 items: at most 25 per request"},
		{"batch write duplicate", func() error {
			_, err := request.BatchWrite([]request.WriteOp{request.PutOp(Orders, order), request.DeleteOp(Orders, key)})
			return err
		}, "items 0 and 1 are the same item"},
		{"batch write empty", func() error {
			_, err := request.BatchWrite(nil)
			return err
		}, "no items"},
		{"batch write bad item", func() error {
			_, err := request.BatchWrite([]request.WriteOp{request.DeleteOp(Orders, Order{UserID: "u"})})
			return err
		}, "item 0: schema Order"},
		{"batch get over 100", func() error {
			keys := make([]request.GetKey, 101)
			for i := range keys {
				keys[i] = request.KeyOf(Accts, Acct{ID: fmt.Sprint(i)})
			}
			_, err := request.BatchGet(keys)
			return err
		}, "101 keys: at most 100"},
		{"batch get duplicate", func() error {
			_, err := request.BatchGet([]request.GetKey{request.KeyOf(Accts, Acct{ID: "a"}), request.KeyOf(Accts, Acct{ID: "a"})})
			return err
		}, "keys 0 and 1 are the same item"},
		{"tx over 100", func() error {
			ops := make([]request.TxOp, 101)
			for i := range ops {
				ops[i] = request.TxDelete(Accts, Acct{ID: fmt.Sprint(i)})
			}
			_, err := request.TransactWrite(ops)
			return err
		}, "101 operations: at most 100"},
		{"tx same item twice", func() error {
			_, err := request.TransactWrite([]request.TxOp{
				request.TxUpdate(Accts, Acct{ID: "a"}, expr.Increment("balance", 1)),
				request.TxCheck(Accts, Acct{ID: "a"}, expr.Exists("pk")),
			})
			return err
		}, "operations 0 and 1 touch the same item"},
		{"tx token too long", func() error {
			_, err := request.TransactWrite([]request.TxOp{request.TxDelete(Accts, Acct{ID: "a"})}, request.ClientRequestToken(strings.Repeat("x", 37)))
			return err
		}, "at most 36"},
		{"transact get duplicate", func() error {
			_, err := request.TransactGet([]request.GetKey{request.KeyOf(Accts, Acct{ID: "a"}), request.KeyOf(Accts, Acct{ID: "a"})})
			return err
		}, "keys 0 and 1 are the same item"},
		{"transact get indexes capacity", func() error {
			_, err := request.TransactGet([]request.GetKey{request.KeyOf(Accts, Acct{ID: "a"})}, request.ConsumedCapacity(types.ReturnConsumedCapacityIndexes))
			return err
		}, "accepts TOTAL or NONE"},
		{"tx check with If", func() error {
			_, err := request.TransactWrite([]request.TxOp{request.TxCheck(Accts, Acct{ID: "a"}, expr.Exists("pk"), request.If(expr.Exists("x")))})
			return err
		}, "If is not allowed"},
		{"tx check nil cond", func() error {
			_, err := request.TransactWrite([]request.TxOp{request.TxCheck(Accts, Acct{ID: "a"}, nil)})
			return err
		}, "condition is empty"},
		{"search wrong dimension", func() error {
			_, err := request.SearchVectors(Docs, "Semantic", []float32{1, 2}, request.Filter(expr.Eq("tenant", "t")))
			return err
		}, "vector of 2 dimensions; index Semantic has 3"},
		{"search topk 0", func() error {
			_, err := request.SearchVectors(Docs, "Semantic", []float32{1, 2, 3}, request.TopK(0), request.Filter(expr.Eq("tenant", "t")))
			return err
		}, "TopK 0: must be between 1 and 100"},
		{"search topk 101", func() error {
			_, err := request.SearchVectors(Docs, "Semantic", []float32{1, 2, 3}, request.TopK(101), request.Filter(expr.Eq("tenant", "t")))
			return err
		}, "TopK 101"},
		{"search without partition", func() error {
			_, err := request.SearchVectors(Docs, "Semantic", []float32{1, 2, 3}, request.Filter(expr.Eq("lang", "en")))
			return err
		}, "field tenant: index Semantic is partitioned by tenant"},
		{"search partition in OR", func() error {
			_, err := request.SearchVectors(Docs, "Semantic", []float32{1, 2, 3}, request.Filter(expr.AnyOf(expr.Eq("tenant", "t"), expr.Eq("lang", "en"))))
			return err
		}, "partitioned by tenant"},
		{"search no filter", func() error {
			_, err := request.SearchVectors(Docs, "Semantic", []float32{1, 2, 3})
			return err
		}, "partitioned by tenant"},
		{"search filter outside the search schema", func() error {
			_, err := request.SearchVectors(Docs, "Semantic", []float32{1, 2, 3}, request.Filter(expr.AllOf(expr.Eq("tenant", "t"), expr.Eq("title", "x"))))
			return err
		}, "field title: index Semantic can filter only on its partition attribute and inline filters"},
		{"search filter nested", func() error {
			_, err := request.SearchVectors(Docs, "Semantic", []float32{1, 2, 3}, request.Filter(expr.AllOf(expr.Eq("tenant", "t"), expr.Eq(expr.Attr("lang", "x"), "y"))))
			return err
		}, "cannot use nested attributes (lang.x)"},
		{"search filter outside the search schema in BETWEEN bounds", func() error {
			_, err := request.SearchVectors(Docs, "Semantic", []float32{1, 2, 3}, request.Filter(expr.AllOf(expr.Eq("tenant", "t"), expr.InRange("lang", expr.Attr("title"), "z"))))
			return err
		}, "field title: index Semantic can filter only on its partition attribute and inline filters"},
		{"search filter nested in an IN list", func() error {
			_, err := request.SearchVectors(Docs, "Semantic", []float32{1, 2, 3}, request.Filter(expr.AllOf(expr.Eq("tenant", "t"), expr.OneOf("lang", "en", expr.Attr("lang", "x")))))
			return err
		}, "cannot use nested attributes (lang.x)"},
		{"search unknown index", func() error {
			_, err := request.SearchVectors(Docs, "Nope", []float32{1, 2, 3})
			return err
		}, `no vector index "Nope"`},
		{"filter on the partition key", func() error {
			_, err := request.Query(Orders, Order{UserID: "u"}, request.Filter(expr.AllOf(expr.Gt("total", 1), expr.BeginsWith("sk", "2024"))))
			return err
		}, "field sk: a Query filter cannot use the key attributes"},
		{"raw filter on an index key", func() error {
			_, err := request.Query(Orders, Order{Status: "paid"}, request.Index("StatusIndex"),
				request.Filter(expr.RawCond("#s <> :s", map[string]string{"#s": "status"}, map[string]any{"s": "x"})))
			return err
		}, "field status: a Query filter cannot use the key attributes"},
		{"filter error", func() error {
			_, err := request.Query(Orders, Order{UserID: "u"}, request.Filter(expr.OneOf("status")))
			return err
		}, "Query: expr: IN takes 1 to 100 values"},
		{"nil filter", func() error {
			_, err := request.Scan(Orders, request.Filter(nil))
			return err
		}, "condition is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.err()
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v\nwant it to contain %q", err, tt.want)
			}
			var re *request.Error
			if !errors.As(err, &re) {
				t.Errorf("err %T is not a *request.Error", err)
			}
		})
	}
}

func TestCursorRoundTrip(t *testing.T) {
	key := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "order#u"}, "sk": &types.AttributeValueMemberN{Value: "12"}}
	c, err := request.EncodeCursor(key)
	if err != nil || c == "" {
		t.Fatalf("EncodeCursor = %q, %v", c, err)
	}
	in, err := request.Query(Orders, Order{UserID: "u"}, request.StartAfter(c))
	if err != nil || len(in.ExclusiveStartKey) != 2 {
		t.Fatalf("StartAfter: %v, %v", in, err)
	}
	if c, err := request.EncodeCursor(nil); err != nil || c != "" {
		t.Errorf("EncodeCursor(nil) = %q, %v", c, err)
	}
	for _, bad := range []string{"%%%", "e30"} { // not base64url; {} (no key)
		if _, err := request.Query(Orders, Order{UserID: "u"}, request.StartAfter(bad)); err == nil || !strings.Contains(err.Error(), "invalid cursor") {
			t.Errorf("StartAfter(%q): %v", bad, err)
		}
	}
}
