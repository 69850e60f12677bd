package bench

// Building a Query with a filter: this library's expr/request against
// aws-sdk-go-v2's feature/dynamodb/expression for the same request.
//
//	go test -run XXX -bench Expression -benchmem

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/request"
	"github.com/dynamogo/dynamo/schema"
)

type benchOrder struct {
	UserID   string    `dynamo:"user_id,pk"`
	PlacedAt time.Time `dynamo:"placed_at,sk"`
	OrderID  string    `dynamo:"order_id,sk"`
	Total    int       `dynamo:"total"`
	Status   string    `dynamo:"status"`
}

var benchOrders = schema.Must[benchOrder]("app", schema.EntityName("order"))

// The request both sides build: partition "order#u", sort key beginning
// with "2024-06", filter total > 100 AND status IN ("open", "paid"),
// projection total, status.

// Expressions alone: key condition, filter and projection with their
// names and values.
func BenchmarkExpressionDynamo(b *testing.B) {
	filter := expr.AllOf(expr.Gt("total", 100), expr.OneOf("status", "open", "paid"))
	pk := &types.AttributeValueMemberS{Value: "order#u"}
	sk := &types.AttributeValueMemberS{Value: "2024-06"}
	b.ReportAllocs()
	for b.Loop() {
		eb := expr.NewBuilder(nil)
		k, err := eb.KeyCondition("pk", pk, "sk", expr.KeyBeginsWith, sk)
		if err != nil {
			b.Fatal(err)
		}
		f, err := eb.Condition(filter, "f")
		if err != nil {
			b.Fatal(err)
		}
		p, err := eb.Projection("total", "status")
		if err != nil {
			b.Fatal(err)
		}
		_, _, _, _, _ = k, f, p, eb.Names(), eb.Values()
	}
}

func BenchmarkExpressionAWS(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		e, err := expression.NewBuilder().
			WithKeyCondition(expression.Key("pk").Equal(expression.Value("order#u")).
				And(expression.Key("sk").BeginsWith("2024-06"))).
			WithFilter(expression.Name("total").GreaterThan(expression.Value(100)).
				And(expression.Name("status").In(expression.Value("open"), expression.Value("paid")))).
			WithProjection(expression.NamesList(expression.Name("total"), expression.Name("status"))).
			Build()
		if err != nil {
			b.Fatal(err)
		}
		_, _, _, _, _ = e.KeyCondition(), e.Filter(), e.Projection(), e.Names(), e.Values()
	}
}

// The whole QueryInput: this library from a struct and its schema (key
// generation included), the SDK from the expression package.
func BenchmarkExpressionQueryInputDynamo(b *testing.B) {
	filter := expr.AllOf(expr.Gt("total", 100), expr.OneOf("status", "open", "paid"))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := request.Query(benchOrders, benchOrder{UserID: "u"},
			request.SortBeginsWith("2024-06"), request.Filter(filter), request.Project("total", "status")); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExpressionQueryInputAWS(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		e, err := expression.NewBuilder().
			WithKeyCondition(expression.Key("pk").Equal(expression.Value("order#u")).
				And(expression.Key("sk").BeginsWith("2024-06"))).
			WithFilter(expression.Name("total").GreaterThan(expression.Value(100)).
				And(expression.Name("status").In(expression.Value("open"), expression.Value("paid")))).
			WithProjection(expression.NamesList(expression.Name("total"), expression.Name("status"))).
			Build()
		if err != nil {
			b.Fatal(err)
		}
		_ = &dynamodb.QueryInput{
			TableName:                 aws.String("app"),
			KeyConditionExpression:    e.KeyCondition(),
			FilterExpression:          e.Filter(),
			ProjectionExpression:      e.Projection(),
			ExpressionAttributeNames:  e.Names(),
			ExpressionAttributeValues: e.Values(),
		}
	}
}
