package codec_test

import (
	"testing"
	"time"

	"github.com/dynamogo/dynamo/codec"
	"github.com/shopspring/decimal"
)

var benchOrder = Order{
	UserID:   "user-1234",
	PlacedAt: time.Date(2024, 6, 1, 12, 30, 45, 123456789, time.UTC),
	OrderID:  "ord-5678",
	Total:    decimal.RequireFromString("149.95"),
	Status:   "paid",
	Version:  7,
	Tags:     codec.NewSet("gift", "express", "priority"),
}

type benchAddress struct {
	Street string `dynamo:"street"`
	City   string `dynamo:"city"`
	Zip    string `dynamo:"zip"`
}

type benchLine struct {
	SKU   string  `dynamo:"sku"`
	Qty   int     `dynamo:"qty"`
	Price float64 `dynamo:"price"`
}

type benchNested struct {
	ID      string            `dynamo:"id"`
	Lines   []benchLine       `dynamo:"lines"`
	Attrs   map[string]string `dynamo:"attrs"`
	Scores  codec.Set[int]    `dynamo:"scores"`
	Labels  codec.Set[string] `dynamo:"labels"`
	Ship    benchAddress      `dynamo:"ship"`
	History []int64           `dynamo:"history"`
	Active  bool              `dynamo:"active"`
}

var benchNestedItem = benchNested{
	ID: "n-1",
	Lines: []benchLine{
		{"A-1", 2, 9.99}, {"B-22", 1, 120.5}, {"C-333", 5, 0.25},
	},
	Attrs:   map[string]string{"color": "red", "size": "L", "origin": "PT"},
	Scores:  codec.NewSet(3, 14, 15, 92),
	Labels:  codec.NewSet("new", "sale"),
	Ship:    benchAddress{"Rua Augusta 1", "Lisboa", "1100-048"},
	History: []int64{1, 2, 3, 5, 8, 13},
	Active:  true,
}

func BenchmarkMarshalOrder(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := codec.MarshalItem(&benchOrder); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUnmarshalOrder(b *testing.B) {
	item, _ := codec.MarshalItem(&benchOrder)
	b.ReportAllocs()
	for b.Loop() {
		var o Order
		if err := codec.UnmarshalItem(item, &o); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshalNested(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := codec.MarshalItem(&benchNestedItem); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUnmarshalNested(b *testing.B) {
	item, _ := codec.MarshalItem(&benchNestedItem)
	b.ReportAllocs()
	for b.Loop() {
		var n benchNested
		if err := codec.UnmarshalItem(item, &n); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshalAny(b *testing.B) {
	v := map[string]any{"a": "x", "b": 1, "c": []any{1.5, true, nil}, "d": map[string]any{"e": "f"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := codec.Marshal(v); err != nil {
			b.Fatal(err)
		}
	}
}

// Allocation counts are part of the codec's contract with its callers;
// this guards them against regressions (the race detector changes them).
func TestAllocations(t *testing.T) {
	if raceEnabled || testing.CoverMode() != "" {
		t.Skip("allocation counts differ under the race detector and coverage")
	}
	item, _ := codec.MarshalItem(&benchOrder)
	nested, _ := codec.MarshalItem(&benchNestedItem)
	var o Order
	var n benchNested
	for _, tt := range []struct {
		name string
		max  float64
		f    func()
	}{
		// An item map of up to eight entries is two allocations (the map and
		// its group of slots); the members and text come from slabs, less
		// than one allocation per item.
		{"marshal Order", 2, func() { _, _ = codec.MarshalItem(&benchOrder) }},
		// decimal.New makes two allocations (Decimal and big.Int digits); we do
		// not reach into shopspring's unexported layout to save one.
		{"unmarshal Order", 4, func() { _ = codec.UnmarshalItem(item, &o) }},
		// Six maps (the item, three lines, the address, the attributes).
		{"marshal nested", 13, func() { _, _ = codec.MarshalItem(&benchNestedItem) }},
		{"unmarshal nested", 8, func() { _ = codec.UnmarshalItem(nested, &n) }},
	} {
		if got := testing.AllocsPerRun(200, tt.f); got > tt.max {
			t.Errorf("%s: %.1f allocs, want at most %.0f", tt.name, got, tt.max)
		}
	}
}
