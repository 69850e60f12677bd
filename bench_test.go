package dynamo_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/codec"
)

// The benchmarks compare one call through the Repo with the same call made
// directly with the SDK client the repo built (same server, same HTTP
// client, same retryer), so the difference is what the library adds:
// building the request from the schema, decoding the result, error mapping.
//
//	go test -run '^$' -bench 'Repo|SDK' -benchmem .

func benchSetup(b *testing.B) (*dynamo.Table[Order], *dynamodb.Client, Order) {
	_, repo := newTestRepo(b)
	orders := dynamo.Bind(repo, Orders)
	o := order("u1", 1)
	o.Tags = codec.NewSet("a", "b")
	if err := orders.Put(context.Background(), o); err != nil {
		b.Fatal(err)
	}
	for i := 2; i < 12; i++ {
		if err := orders.Put(context.Background(), order("u1", i)); err != nil {
			b.Fatal(err)
		}
	}
	return orders, repo.Client().(*dynamodb.Client), o
}

func BenchmarkRepoPut(b *testing.B) {
	orders, _, o := benchSetup(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if err := orders.Put(ctx, o); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSDKPut(b *testing.B) {
	_, client, o := benchSetup(b)
	item, _ := Orders.Dump(o)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("app"), Item: item}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRepoGet(b *testing.B) {
	orders, _, o := benchSetup(b)
	ctx := context.Background()
	key := Order{UserID: o.UserID, PlacedAt: o.PlacedAt, OrderID: o.OrderID}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := orders.Get(ctx, key); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSDKGet(b *testing.B) {
	_, client, o := benchSetup(b)
	k, _ := Orders.PrimaryKey(o)
	key := k.Map()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		out, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("app"), Key: key})
		if err != nil || len(out.Item) == 0 {
			b.Fatal(err)
		}
	}
}

func BenchmarkRepoQuery(b *testing.B) {
	orders, _, _ := benchSetup(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		p, err := orders.Query(ctx, Order{UserID: "u1"})
		if err != nil || len(p.Items) != 11 {
			b.Fatal(err)
		}
	}
}

func BenchmarkSDKQuery(b *testing.B) {
	_, client, _ := benchSetup(b)
	ctx := context.Background()
	in := &dynamodb.QueryInput{
		TableName:                 aws.String("app"),
		KeyConditionExpression:    aws.String("#pk = :pk"),
		ExpressionAttributeNames:  map[string]string{"#pk": "pk"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: "order#u1"}},
	}
	b.ReportAllocs()
	for b.Loop() {
		out, err := client.Query(ctx, in)
		if err != nil || len(out.Items) != 11 {
			b.Fatal(err)
		}
	}
}

// cannedAPI answers from memory, to measure what the library itself costs
// per call (request building, decoding) without HTTP or a server.
type cannedAPI struct {
	dynamo.API
	item  map[string]types.AttributeValue
	items []map[string]types.AttributeValue
}

func (c *cannedAPI) PutItem(context.Context, *dynamodb.PutItemInput, ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	return &dynamodb.PutItemOutput{}, nil
}

func (c *cannedAPI) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return &dynamodb.GetItemOutput{Item: c.item}, nil
}

func (c *cannedAPI) Query(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return &dynamodb.QueryOutput{Items: c.items, Count: int32(len(c.items))}, nil
}

func BenchmarkLayer(b *testing.B) {
	o := order("u1", 1)
	o.Tags = codec.NewSet("a", "b")
	item, _ := Orders.Dump(o)
	items := make([]map[string]types.AttributeValue, 11)
	for i := range items {
		items[i], _ = Orders.Dump(order("u1", i))
	}
	repo, _ := dynamo.FromClient(&cannedAPI{item: item, items: items})
	orders := dynamo.Bind(repo, Orders)
	ctx := context.Background()
	b.Run("Put", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := orders.Put(ctx, o); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Get", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := orders.Get(ctx, o); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Query", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := orders.Query(ctx, Order{UserID: "u1"}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
