package schema_test

import (
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/shopspring/decimal"

	"github.com/dynamogo/dynamo/schema"
)

func s(v types.AttributeValue) string {
	if v, ok := v.(*types.AttributeValueMemberS); ok {
		return v.Value
	}
	return fmt.Sprint(v)
}

func Example() {
	type Order struct {
		UserID   string          `dynamo:"user_id,pk"`
		PlacedAt time.Time       `dynamo:"placed_at,sk,precision=s"`
		OrderID  string          `dynamo:"order_id,sk"`
		Total    decimal.Decimal `dynamo:"total"`
		Status   string          `dynamo:"status,default=pending"`
	}
	orders := schema.Must[Order]("app",
		schema.EntityName("order"),
		schema.GSI("StatusIndex", "status", "placed_at"),
	)

	key, err := orders.PrimaryKey(Order{
		UserID:   "u1",
		PlacedAt: time.Date(2024, 1, 15, 10, 0, 0, 0, time.UTC),
		OrderID:  "o1",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("pk =", s(key.PK))
	fmt.Println("sk =", s(key.SK))

	_, err = orders.PrimaryKey(Order{PlacedAt: time.Now(), OrderID: "o1"})
	fmt.Println(err)
	// Output:
	// pk = order#u1
	// sk = 2024-01-15T10:00:00Z#o1
	// dynamo: schema Order: field user_id: partition-key value is unset
}

func ExampleSchema_SortPrefix() {
	type Event struct {
		Device string    `dynamo:"device,pk"`
		At     time.Time `dynamo:"at,sk,precision=s"`
		Seq    string    `dynamo:"seq,sk"`
	}
	events := schema.Must[Event]("app")

	prefix, complete, _ := events.SortPrefix(Event{Device: "d1", At: time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)})
	fmt.Println(s(prefix), complete)
	prefix, complete, _ = events.SortPrefix(Event{Device: "d1"})
	fmt.Println(prefix, complete)
	// Output:
	// 2024-06-01T00:00:00Z# false
	// <nil> false
}

func ExampleEntityFrom() {
	type User struct {
		UserID string `dynamo:"user_id,pk"`
		Kind   string `dynamo:"kind,sk,default=profile"`
	}
	type UserOrder struct {
		UserID  string `dynamo:"user_id,pk"`
		Kind    string `dynamo:"kind,sk,default=order"`
		OrderID string `dynamo:"order_id,sk"`
	}
	users := schema.Must[User]("app")
	userOrders := schema.Must[UserOrder]("app", schema.EntityFrom(users))

	u, _ := users.PrimaryKey(User{UserID: "u1"})
	o, _ := userOrders.PrimaryKey(UserOrder{UserID: "u1", OrderID: "o1"})
	fmt.Println(s(u.PK), s(u.SK))
	fmt.Println(s(o.PK), s(o.SK))
	// Output:
	// user#u1 profile
	// user#u1 order#o1
}

// Items read through a KEYS_ONLY index carry only the keys; Load recovers
// the key fields from them.
func ExampleSchema_Load() {
	type Score struct {
		Game   string `dynamo:"game,pk"`
		Player string `dynamo:"player,sk"`
		Points int    `dynamo:"points"`
	}
	scores := schema.Must[Score]("app", schema.GSI("TopScores", "game", "points", schema.KeysOnly()))

	fromIndex := map[string]types.AttributeValue{
		"pk":     &types.AttributeValueMemberS{Value: "score#chess"},
		"sk":     &types.AttributeValueMemberS{Value: "ann"},
		"game":   &types.AttributeValueMemberS{Value: "chess"},
		"points": &types.AttributeValueMemberN{Value: "1200"},
	}
	sc, err := scores.Load(fromIndex)
	fmt.Printf("%+v %v\n", sc, err)
	// Output:
	// {Game:chess Player:ann Points:1200} <nil>
}

func ExampleCreateTableInput() {
	type Doc struct {
		Tenant    string    `dynamo:"tenant,pk"`
		DocID     string    `dynamo:"doc_id,sk"`
		Lang      string    `dynamo:"lang"`
		Embedding []float32 `dynamo:"embedding,dim=3"`
	}
	docs := schema.Must[Doc]("docs",
		schema.GSI("ByLang", "lang", ""),
		schema.VectorIndex("Semantic", "embedding", schema.VectorPartition("tenant")),
	)
	in, err := schema.CreateTableInput(docs)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(aws.ToString(in.TableName), in.BillingMode)
	for _, a := range in.AttributeDefinitions {
		fmt.Println(aws.ToString(a.AttributeName), a.AttributeType)
	}
	v := in.VectorIndexes[0]
	fmt.Println(aws.ToString(v.IndexName), aws.ToInt64(v.Dimensions), v.DistanceFunction)
	// Output:
	// docs PAY_PER_REQUEST
	// pk S
	// sk S
	// lang S
	// tenant S
	// Semantic 3 COSINE
}
