package bench

import (
	"reflect"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/codec"
	guregu "github.com/guregu/dynamo/v2"
	"github.com/shopspring/decimal"
)

// ---- the running example: an order ----

// Order is Dynamo for Go's declaration.
type Order struct {
	UserID   string            `dynamo:"user_id,pk"`
	PlacedAt time.Time         `dynamo:"placed_at,sk"`
	OrderID  string            `dynamo:"order_id,sk"`
	Total    decimal.Decimal   `dynamo:"total"`
	Status   string            `dynamo:"status,default=pending"`
	Version  int               `dynamo:"version"`
	Tags     codec.Set[string] `dynamo:"tags"`
}

// money gives the peers an exact N for a decimal, as their users write it:
// neither library knows decimal.Decimal.
type money struct{ decimal.Decimal }

func (m money) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	return &types.AttributeValueMemberN{Value: m.String()}, nil
}

func (m *money) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	n, _ := av.(*types.AttributeValueMemberN)
	d, err := decimal.NewFromString(n.Value)
	m.Decimal = d
	return err
}

func (m money) MarshalDynamo() (types.AttributeValue, error) {
	return m.MarshalDynamoDBAttributeValue()
}
func (m *money) UnmarshalDynamo(av types.AttributeValue) error {
	return m.UnmarshalDynamoDBAttributeValue(av)
}

// awsOrder is the same item for attributevalue.
type awsOrder struct {
	UserID   string    `dynamodbav:"user_id"`
	PlacedAt time.Time `dynamodbav:"placed_at"`
	OrderID  string    `dynamodbav:"order_id"`
	Total    money     `dynamodbav:"total"`
	Status   string    `dynamodbav:"status"`
	Version  int       `dynamodbav:"version"`
	Tags     []string  `dynamodbav:"tags,stringset,omitempty"`
}

// gureguOrder is the same item for guregu/dynamo (map[string]struct{} is
// a string set there).
type gureguOrder struct {
	UserID   string              `dynamo:"user_id"`
	PlacedAt time.Time           `dynamo:"placed_at"`
	OrderID  string              `dynamo:"order_id"`
	Total    money               `dynamo:"total"`
	Status   string              `dynamo:"status"`
	Version  int                 `dynamo:"version"`
	Tags     map[string]struct{} `dynamo:"tags,set"`
}

var (
	placed = time.Date(2024, 6, 1, 12, 30, 45, 123456789, time.UTC)
	total  = decimal.RequireFromString("149.95")
	tags   = []string{"express", "gift", "priority"}

	order       = Order{"user-1234", placed, "ord-5678", total, "paid", 7, codec.NewSet(tags...)}
	awsOrd      = awsOrder{"user-1234", placed, "ord-5678", money{total}, "paid", 7, tags}
	gureguOrd   = gureguOrder{"user-1234", placed, "ord-5678", money{total}, "paid", 7, codec.NewSet(tags...)}
	orderFields = 7
)

// ---- a nested item: lists, maps, sets, a nested struct ----

type Line struct {
	SKU   string  `dynamo:"sku" dynamodbav:"sku"`
	Qty   int     `dynamo:"qty" dynamodbav:"qty"`
	Price float64 `dynamo:"price" dynamodbav:"price"`
}

type Address struct {
	Street string `dynamo:"street" dynamodbav:"street"`
	City   string `dynamo:"city" dynamodbav:"city"`
	Zip    string `dynamo:"zip" dynamodbav:"zip"`
}

type Nested struct {
	ID      string            `dynamo:"id"`
	Lines   []Line            `dynamo:"lines"`
	Attrs   map[string]string `dynamo:"attrs"`
	Scores  codec.Set[int]    `dynamo:"scores"`
	Labels  codec.Set[string] `dynamo:"labels"`
	Ship    Address           `dynamo:"ship"`
	History []int64           `dynamo:"history"`
	Active  bool              `dynamo:"active"`
}

type awsNested struct {
	ID      string            `dynamodbav:"id"`
	Lines   []Line            `dynamodbav:"lines"`
	Attrs   map[string]string `dynamodbav:"attrs"`
	Scores  []int             `dynamodbav:"scores,numberset"`
	Labels  []string          `dynamodbav:"labels,stringset"`
	Ship    Address           `dynamodbav:"ship"`
	History []int64           `dynamodbav:"history"`
	Active  bool              `dynamodbav:"active"`
}

type gureguNested struct {
	ID      string              `dynamo:"id"`
	Lines   []Line              `dynamo:"lines"`
	Attrs   map[string]string   `dynamo:"attrs"`
	Scores  map[int]struct{}    `dynamo:"scores,set"`
	Labels  map[string]struct{} `dynamo:"labels,set"`
	Ship    Address             `dynamo:"ship"`
	History []int64             `dynamo:"history"`
	Active  bool                `dynamo:"active"`
}

var (
	lines     = []Line{{"A-1", 2, 9.99}, {"B-22", 1, 120.5}, {"C-333", 5, 0.25}}
	attrs     = map[string]string{"color": "red", "size": "L", "origin": "PT"}
	ship      = Address{"Rua Augusta 1", "Lisboa", "1100-048"}
	history   = []int64{1, 2, 3, 5, 8, 13}
	nested    = Nested{"n-1", lines, attrs, codec.NewSet(3, 14, 15, 92), codec.NewSet("new", "sale"), ship, history, true}
	awsNest   = awsNested{"n-1", lines, attrs, []int{3, 14, 15, 92}, []string{"new", "sale"}, ship, history, true}
	gureguNst = gureguNested{"n-1", lines, attrs, codec.NewSet(3, 14, 15, 92), codec.NewSet("new", "sale"), ship, history, true}
)

// The three encoders must produce the same attributes, or the comparison
// means nothing.
func TestSameItems(t *testing.T) {
	ours, err := codec.MarshalItem(&order)
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := attributevalue.MarshalMap(&awsOrd)
	if err != nil {
		t.Fatal(err)
	}
	gu, err := guregu.MarshalItem(&gureguOrd)
	if err != nil {
		t.Fatal(err)
	}
	if len(ours) != orderFields || len(theirs) != orderFields || len(gu) != orderFields {
		t.Fatalf("attribute counts: ours %d, attributevalue %d, guregu %d", len(ours), len(theirs), len(gu))
	}
	for k, v := range ours {
		if reflect.TypeOf(theirs[k]) != reflect.TypeOf(v) || reflect.TypeOf(gu[k]) != reflect.TypeOf(v) {
			t.Errorf("%s: ours %T, attributevalue %T, guregu %T", k, v, theirs[k], gu[k])
		}
	}
	n1, _ := codec.MarshalItem(&nested)
	n2, _ := attributevalue.MarshalMap(&awsNest)
	n3, _ := guregu.MarshalItem(&gureguNst)
	for k, v := range n1 {
		if reflect.TypeOf(n2[k]) != reflect.TypeOf(v) || reflect.TypeOf(n3[k]) != reflect.TypeOf(v) {
			t.Errorf("nested %s: ours %T, attributevalue %T, guregu %T", k, v, n2[k], n3[k])
		}
	}
	if len(n1) != len(n2) || len(n1) != len(n3) {
		t.Errorf("nested attribute counts %d %d %d", len(n1), len(n2), len(n3))
	}
}

func BenchmarkMarshalOrder(b *testing.B) {
	b.Run("dynamogo", func(b *testing.B) {
		loop(b, func() {
			if _, err := codec.MarshalItem(&order); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("attributevalue", func(b *testing.B) {
		loop(b, func() {
			if _, err := attributevalue.MarshalMap(&awsOrd); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("guregu", func(b *testing.B) {
		loop(b, func() {
			if _, err := guregu.MarshalItem(&gureguOrd); err != nil {
				b.Fatal(err)
			}
		})
	})
}

func BenchmarkUnmarshalOrder(b *testing.B) {
	item, _ := codec.MarshalItem(&order)
	awsItem, _ := attributevalue.MarshalMap(&awsOrd)
	b.Run("dynamogo", func(b *testing.B) {
		loop(b, func() {
			var o Order
			if err := codec.UnmarshalItem(item, &o); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("attributevalue", func(b *testing.B) {
		loop(b, func() {
			var o awsOrder
			if err := attributevalue.UnmarshalMap(awsItem, &o); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("guregu", func(b *testing.B) {
		loop(b, func() {
			var o gureguOrder
			if err := guregu.UnmarshalItem(item, &o); err != nil {
				b.Fatal(err)
			}
		})
	})
}

func BenchmarkMarshalNested(b *testing.B) {
	b.Run("dynamogo", func(b *testing.B) {
		loop(b, func() {
			if _, err := codec.MarshalItem(&nested); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("attributevalue", func(b *testing.B) {
		loop(b, func() {
			if _, err := attributevalue.MarshalMap(&awsNest); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("guregu", func(b *testing.B) {
		loop(b, func() {
			if _, err := guregu.MarshalItem(&gureguNst); err != nil {
				b.Fatal(err)
			}
		})
	})
}

func BenchmarkUnmarshalNested(b *testing.B) {
	item, _ := codec.MarshalItem(&nested)
	b.Run("dynamogo", func(b *testing.B) {
		loop(b, func() {
			var n Nested
			if err := codec.UnmarshalItem(item, &n); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("attributevalue", func(b *testing.B) {
		loop(b, func() {
			var n awsNested
			if err := attributevalue.UnmarshalMap(item, &n); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("guregu", func(b *testing.B) {
		loop(b, func() {
			var n gureguNested
			if err := guregu.UnmarshalItem(item, &n); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// loop runs f b.N times, reporting allocations and CPU time per operation.
func loop(b *testing.B, f func()) {
	b.ReportAllocs()
	start := cpuNanos()
	for b.Loop() {
		f()
	}
	if cpu := cpuNanos() - start; cpu > 0 {
		b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
	}
}
