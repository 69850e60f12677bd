package codec_test

import (
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/codec"
	"github.com/shopspring/decimal"
)

func ExampleMarshalItem() {
	type Order struct {
		UserID   string            `dynamo:"user_id,pk"`
		PlacedAt time.Time         `dynamo:"placed_at,sk,precision=s"`
		Total    decimal.Decimal   `dynamo:"total"`
		Status   *string           `dynamo:"status,default=pending"` // nil: the default
		Tags     codec.Set[string] `dynamo:"tags"`
		Note     *string           `dynamo:"note"` // nil: omitted
	}
	item, err := codec.MarshalItem(Order{
		UserID:   "u1",
		PlacedAt: time.Date(2024, 6, 1, 14, 30, 0, 0, time.FixedZone("CEST", 2*3600)),
		Total:    decimal.RequireFromString("19.90"),
		Tags:     codec.NewSet("gift", "express"),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(jsItem(item))
	// Output:
	// {"placed_at":{"S":"2024-06-01T12:30:00Z"},"status":{"S":"pending"},"tags":{"SS":["express","gift"]},"total":{"N":"19.9"},"user_id":{"S":"u1"}}
}

func ExampleUnmarshalItem() {
	type Line struct {
		SKU string `dynamo:"sku"`
		Qty int    `dynamo:"qty"`
	}
	type Order struct {
		ID    string `dynamo:"id"`
		Lines []Line `dynamo:"lines"`
	}
	item := map[string]types.AttributeValue{
		"id": &types.AttributeValueMemberS{Value: "o1"},
		"lines": &types.AttributeValueMemberL{Value: []types.AttributeValue{
			&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
				"sku": &types.AttributeValueMemberS{Value: "A-1"},
				"qty": &types.AttributeValueMemberN{Value: "2"},
			}},
		}},
		"pk": &types.AttributeValueMemberS{Value: "order#o1"}, // undeclared: ignored
	}
	var o Order
	if err := codec.UnmarshalItem(item, &o); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%+v\n", o)
	// Output:
	// {ID:o1 Lines:[{SKU:A-1 Qty:2}]}
}

func ExampleUnmarshal_any() {
	av := &types.AttributeValueMemberL{Value: []types.AttributeValue{
		&types.AttributeValueMemberN{Value: "42"},
		&types.AttributeValueMemberN{Value: "0.5"},
		&types.AttributeValueMemberN{Value: "3.14159265358979323846264338327950288"},
	}}
	var v any
	_ = codec.Unmarshal(av, &v)
	for _, x := range v.([]any) {
		fmt.Printf("%T %v\n", x, x)
	}
	// Output:
	// int64 42
	// float64 0.5
	// codec.Number 3.14159265358979323846264338327950288
}

func ExampleError() {
	type Line struct {
		SKU string `dynamo:"sku"`
	}
	type Order struct {
		Items []Line `dynamo:"items"`
	}
	item := map[string]types.AttributeValue{"items": &types.AttributeValueMemberL{Value: []types.AttributeValue{
		&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"sku": &types.AttributeValueMemberN{Value: "7"}}},
	}}}
	var o Order
	err := codec.UnmarshalItem(item, &o)
	var e *codec.Error
	fmt.Println(err)
	fmt.Println(errors.As(err, &e), e.Path)
	// Output:
	// dynamo: Order.items[0].sku: cannot load N into string
	// true Order.items[0].sku
}

func ExampleStructOf() {
	type Doc struct {
		Tenant    string    `dynamo:"tenant,pk"`
		ID        string    `dynamo:"id,sk"`
		Embedding []float32 `dynamo:"embedding,dim=3"`
	}
	s, err := codec.StructOf(reflect.TypeFor[Doc]())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range s.Fields {
		fmt.Println(f.Name, f.Kind, f.PK, f.SK, f.Dim)
	}
	_, err = s.Field("embedding").Encode(reflect.ValueOf([]float32{1, 2}))
	fmt.Println(err)
	// Output:
	// tenant S true false 0
	// id S false true 0
	// embedding L false false 3
	// dynamo: embedding: vector has 2 dimensions, field wants 3
}

func ExampleSet() {
	s := codec.NewSet(3, 1, 2)
	s.Add(10)
	fmt.Println(s.Len(), s.Has(2), s.Sorted())
	av, _ := codec.Marshal(s)
	fmt.Println(js(av))
	// Output:
	// 4 true [1 2 3 10]
	// {"NS":["1","2","3","10"]}
}

func ExampleRaw() {
	pre := &types.AttributeValueMemberSS{Value: []string{"a"}}
	av, _ := codec.Marshal(map[string]any{
		"raw":  codec.Raw{Value: pre},            // passed through as it is
		"data": map[string]any{"SS": []any{"a"}}, // user data, not an attribute value
	})
	fmt.Println(js(av))
	// Output:
	// {"M":{"data":{"M":{"SS":{"L":[{"S":"a"}]}}},"raw":{"SS":["a"]}}}
}

func ExampleDate() {
	d, _ := codec.ParseDate("2024-02-29")
	t, _ := codec.ParseTimeOfDay("08:30:00.25")
	dt := codec.DateTime{Date: d, Time: t}
	fmt.Println(d, t, dt)
	fmt.Println(dt.In(time.UTC).Format(time.RFC3339Nano))
	// Output:
	// 2024-02-29 08:30:00.25 2024-02-29T08:30:00.25
	// 2024-02-29T08:30:00.25Z
}

func ExampleField_EncodeAny() {
	type Order struct {
		Tags     codec.Set[string] `dynamo:"tags"`
		Version  int64             `dynamo:"version"`
		PlacedAt time.Time         `dynamo:"placed_at,precision=s"`
	}
	s, _ := codec.StructOf(reflect.TypeFor[Order]())
	for _, c := range []struct {
		attr string
		v    any
	}{
		{"tags", "vip"},                  // one element of a set: contains(tags, :v)
		{"tags", codec.NewSet("a", "b")}, // the whole set: ADD tags :v
		{"version", 1},                   // an untyped constant converts exactly
		{"placed_at", time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)},
		{"placed_at", "2024-06"}, // wire text: begins_with(placed_at, :v)
		{"version", 1.5},
	} {
		av, err := s.Field(c.attr).EncodeAny(c.v)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(js(av))
	}
	// Output:
	// {"S":"vip"}
	// {"SS":["a","b"]}
	// {"N":"1"}
	// {"S":"2024-06-01T00:00:00Z"}
	// {"S":"2024-06"}
	// dynamo: version: cannot encode float64 as int64
}
