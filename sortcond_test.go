package dynamo_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/schema"
)

// Sort-key conditions on generated composite keys apply to the first sort
// field the query does not fix, with that field's type. These tests put
// neighbours on every side of each range (other kinds that sort right
// before and after the fixed prefix, equal values, values that are
// prefixes of others) and check the exact result of every operator.

type kindOrder struct {
	User     string    `dynamo:"user,pk"`
	Kind     string    `dynamo:"kind,sk,default=order"`
	PlacedAt time.Time `dynamo:"placed_at,sk,precision=s"`
}

type kindItem struct {
	Bin  string `dynamo:"bin,pk"`
	Kind string `dynamo:"kind,sk,default=item"`
	Name string `dynamo:"name,sk"`
	Seq  int    `dynamo:"seq,sk"`
}

type firstField struct {
	Stream string    `dynamo:"stream,pk"`
	At     time.Time `dynamo:"at,sk,precision=s"`
}

var (
	kindOrders = schema.Must[kindOrder]("keys", schema.EntityName("user"))
	kindItems  = schema.Must[kindItem]("keys", schema.EntityName("bin"))
	labelItems = schema.Must[kindItem]("keys", schema.EntityName("lbin"), schema.PrefixSortKey())
	firsts     = schema.Must[firstField]("keys", schema.EntityName("stream"))
)

func sortCondRepo(t *testing.T) *dynamo.Repo {
	t.Helper()
	srv := dynamotest.NewServer(t)
	in, err := schema.CreateTableInput(kindOrders, kindItems, labelItems, firsts)
	if err != nil {
		t.Fatal(err)
	}
	srv.CreateTable(t, in)
	return newRepoFor(t, srv)
}

var kt = func(h int) time.Time { return time.Date(2024, 7, 1, h, 0, 0, 0, time.UTC) }

func TestSortConditionLastFieldBehindDefault(t *testing.T) {
	repo := sortCondRepo(t)
	ctx := context.Background()
	orders := dynamo.Bind(repo, kindOrders)
	var ops []dynamo.WriteOp
	for _, h := range []int{1, 2, 3} {
		ops = append(ops, orders.PutOp(kindOrder{User: "u", PlacedAt: kt(h)}))
		// Same partition, same times, kinds that sort right before
		// ("orde" < "order#") and right after ("orders" > "order$").
		ops = append(ops, orders.PutOp(kindOrder{User: "u", Kind: "orde", PlacedAt: kt(h)}))
		ops = append(ops, orders.PutOp(kindOrder{User: "u", Kind: "orders", PlacedAt: kt(h)}))
	}
	ops = append(ops, orders.PutOp(kindOrder{User: "u", PlacedAt: time.Date(2024, 6, 30, 23, 0, 0, 0, time.UTC)}))
	if res, err := repo.BatchWrite(ctx, ops); err != nil || len(res.Unprocessed) > 0 {
		t.Fatal(err, res.Unprocessed)
	}
	hours := func(t *testing.T, os []kindOrder) []int {
		var out []int
		for _, o := range os {
			if o.Kind != "order" {
				t.Fatalf("item of kind %q in the result", o.Kind)
			}
			if o.PlacedAt.Month() == time.June {
				out = append(out, 0)
				continue
			}
			out = append(out, o.PlacedAt.Hour())
		}
		return out
	}
	u := kindOrder{User: "u"}
	cases := []struct {
		name string
		opts []dynamo.QueryOption
		want []int
	}{
		{"none", nil, []int{0, 1, 2, 3}},
		{"eq", []dynamo.QueryOption{dynamo.SortEq(kt(2))}, []int{2}},
		{"gt", []dynamo.QueryOption{dynamo.SortGt(kt(2))}, []int{3}},
		{"gt last", []dynamo.QueryOption{dynamo.SortGt(kt(3))}, nil},
		{"ge", []dynamo.QueryOption{dynamo.SortGe(kt(2))}, []int{2, 3}},
		{"lt", []dynamo.QueryOption{dynamo.SortLt(kt(2))}, []int{0, 1}},
		{"lt first", []dynamo.QueryOption{dynamo.SortLt(time.Date(2024, 6, 30, 23, 0, 0, 0, time.UTC))}, nil},
		{"le", []dynamo.QueryOption{dynamo.SortLe(kt(2))}, []int{0, 1, 2}},
		{"between", []dynamo.QueryOption{dynamo.SortBetween(kt(1), kt(2))}, []int{1, 2}},
		{"between one", []dynamo.QueryOption{dynamo.SortBetween(kt(2), kt(2))}, []int{2}},
		{"begins with month", []dynamo.QueryOption{dynamo.SortBeginsWith("2024-07")}, []int{1, 2, 3}},
		{"gt text", []dynamo.QueryOption{dynamo.SortGt("2024-07-01T02")}, []int{2, 3}},
		{"gt descending", []dynamo.QueryOption{dynamo.SortGt(kt(1)), dynamo.Descending()}, []int{3, 2}},
		{"lt with filter", []dynamo.QueryOption{dynamo.SortLt(kt(3)), dynamo.Filter(expr.Exists("user"))}, []int{0, 1, 2}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := orders.QueryAll(ctx, u, slicesOf(tc.opts)...)
			if err != nil {
				t.Fatal(err)
			}
			if h := hours(t, got); !slices.Equal(h, tc.want) {
				t.Fatalf("got hours %v, want %v", h, tc.want)
			}
		})
	}
	// Paging through an excluded value: one item per page.
	var got []kindOrder
	for o, err := range orders.QueryStream(ctx, u, dynamo.SortLt(kt(3)), dynamo.Limit(1)) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, o)
	}
	if h := hours(t, got); !slices.Equal(h, []int{0, 1, 2}) {
		t.Fatalf("paged: got %v", h)
	}
}

// slicesOf turns query options into QueryAll options.
func slicesOf(opts []dynamo.QueryOption) []dynamo.QueryAllOption {
	out := make([]dynamo.QueryAllOption, len(opts))
	for i, o := range opts {
		out[i] = o.(dynamo.QueryAllOption)
	}
	return out
}

func TestSortConditionMiddleField(t *testing.T) {
	repo := sortCondRepo(t)
	ctx := context.Background()
	for _, s := range []*schema.Schema[kindItem]{kindItems, labelItems} {
		t.Run(s.Entity(), func(t *testing.T) {
			items := dynamo.Bind(repo, s)
			var ops []dynamo.WriteOp
			for _, kind := range []string{"item", "ite", "items"} {
				for _, name := range []string{"ab", "abc", "abd", "b"} {
					for seq := 1; seq <= 2; seq++ {
						ops = append(ops, items.PutOp(kindItem{Bin: "x", Kind: kind, Name: name, Seq: seq}))
					}
				}
			}
			if res, err := repo.BatchWrite(ctx, ops); err != nil || len(res.Unprocessed) > 0 {
				t.Fatal(err, res.Unprocessed)
			}
			names := func(t *testing.T, is []kindItem) string {
				var out []string
				for _, it := range is {
					if it.Kind != "item" {
						t.Fatalf("item of kind %q in the result", it.Kind)
					}
					out = append(out, fmt.Sprint(it.Name, it.Seq))
				}
				return strings.Join(out, " ")
			}
			x := kindItem{Bin: "x"}
			cases := []struct {
				name string
				key  kindItem
				opt  dynamo.QueryOption
				want string
			}{
				{"eq is not a prefix match", x, dynamo.SortEq("ab"), "ab1 ab2"},
				{"gt skips every part of the equal value", x, dynamo.SortGt("ab"), "abc1 abc2 abd1 abd2 b1 b2"},
				{"ge", x, dynamo.SortGe("abc"), "abc1 abc2 abd1 abd2 b1 b2"},
				{"lt", x, dynamo.SortLt("abc"), "ab1 ab2"},
				{"le keeps every part of the equal value", x, dynamo.SortLe("abc"), "ab1 ab2 abc1 abc2"},
				{"between", x, dynamo.SortBetween("ab", "abc"), "ab1 ab2 abc1 abc2"},
				{"begins with", x, dynamo.SortBeginsWith("ab"), "ab1 ab2 abc1 abc2 abd1 abd2"},
				{"gt above everything", x, dynamo.SortGt("b"), ""},
				{"next field: number equality", kindItem{Bin: "x", Name: "abc"}, dynamo.SortEq(2), "abc2"},
				{"set fields only", kindItem{Bin: "x", Name: "abc"}, nil, "abc1 abc2"},
			}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					var opts []dynamo.QueryAllOption
					if tc.opt != nil {
						opts = append(opts, tc.opt.(dynamo.QueryAllOption))
					}
					got, err := items.QueryAll(ctx, tc.key, opts...)
					if err != nil {
						t.Fatal(err)
					}
					if n := names(t, got); n != tc.want {
						t.Fatalf("got %q, want %q", n, tc.want)
					}
				})
			}
		})
	}
}

func TestSortConditionFirstField(t *testing.T) {
	repo := sortCondRepo(t)
	ctx := context.Background()
	st := dynamo.Bind(repo, firsts)
	for h := 1; h <= 3; h++ {
		if err := st.Put(ctx, firstField{Stream: "s", At: kt(h)}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		opt  dynamo.QueryOption
		want int
	}{
		{dynamo.SortGt(kt(2)), 1}, {dynamo.SortGe(kt(2)), 2}, {dynamo.SortLt(kt(2)), 1},
		{dynamo.SortLe(kt(2)), 2}, {dynamo.SortEq(kt(2)), 1}, {dynamo.SortBetween(kt(1), kt(3)), 3},
	} {
		page, err := st.Query(ctx, firstField{Stream: "s"}, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) != tc.want {
			t.Errorf("%T: got %d items, want %d", tc.opt, len(page.Items), tc.want)
		}
	}
}

func TestSortConditionRefused(t *testing.T) {
	repo := sortCondRepo(t)
	ctx := context.Background()
	items := dynamo.Bind(repo, kindItems)
	orders := dynamo.Bind(repo, kindOrders)
	cases := []struct {
		name string
		run  func() error
		want string
	}{
		{"range on a number part", func() error {
			_, err := items.Query(ctx, kindItem{Bin: "x", Name: "ab"}, dynamo.SortGt(1))
			return err
		}, "field seq: a N field compares as text"},
		{"prefix on a number part", func() error {
			_, err := items.Query(ctx, kindItem{Bin: "x", Name: "ab"}, dynamo.SortBeginsWith("1"))
			return err
		}, "field seq"},
		{"composed string", func() error {
			_, err := orders.Query(ctx, kindOrder{User: "u"}, dynamo.SortBeginsWith("order#2024-07"))
			return err
		}, "field placed_at: the condition value contains the key separator"},
		{"every field set", func() error {
			_, err := orders.Query(ctx, kindOrder{User: "u", PlacedAt: kt(1)}, dynamo.SortGt(kt(0)))
			return err
		}, "field placed_at: every sort-key field is set"},
		{"wrong type", func() error {
			_, err := orders.Query(ctx, kindOrder{User: "u"}, dynamo.SortGt(42))
			return err
		}, "field placed_at"},
		{"empty value", func() error {
			_, err := items.Query(ctx, kindItem{Bin: "x"}, dynamo.SortGe(""))
			return err
		}, "field name: the sort-key condition value is empty"},
		{"between upside down", func() error {
			_, err := items.Query(ctx, kindItem{Bin: "x"}, dynamo.SortBetween("b", "a"))
			return err
		}, "field name: SortBetween"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run()
			if !errors.Is(err, dynamo.ErrValidation) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want a validation error with %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "2024-07") {
				t.Fatalf("the message quotes the value: %v", err)
			}
		})
	}
	// The composed key as an attribute value is used as it is.
	page, err := orders.Query(ctx, kindOrder{User: "u"}, dynamo.SortBeginsWith(&types.AttributeValueMemberS{Value: "order#2024-07"}))
	if err != nil || len(page.Items) != 0 {
		t.Fatalf("raw composed key: %v, %d items", err, len(page.Items))
	}
}
