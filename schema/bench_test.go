package schema_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/shopspring/decimal"

	"github.com/dynamogo/dynamo/codec"
)

var benchOrder = Order{
	UserID: "u1", PlacedAt: jan15, OrderID: "o1",
	Total: decimal.RequireFromString("12.50"), Tags: codec.NewSet("a", "b"), Version: 3,
}

func BenchmarkPrimaryKey(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := orders.PrimaryKey(benchOrder); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSortPrefix(b *testing.B) {
	b.ReportAllocs()
	v := Order{UserID: "u1", PlacedAt: jan15}
	for b.Loop() {
		if _, _, err := orders.SortPrefix(v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDump(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := orders.Dump(benchOrder); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoad(b *testing.B) {
	it, _ := orders.Dump(benchOrder)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := orders.Load(it); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoadRecoverKeys(b *testing.B) {
	full, _ := orders.Dump(benchOrder)
	it := map[string]types.AttributeValue{"pk": full["pk"], "sk": full["sk"], "status": full["status"]}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := orders.Load(it); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkOwns(b *testing.B) {
	it, _ := orders.Dump(benchOrder)
	b.ReportAllocs()
	for b.Loop() {
		if !orders.Owns(it) {
			b.Fatal("not owned")
		}
	}
}
