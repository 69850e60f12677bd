package dynamo_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/schema"
)

// Tally has defaults on fields of every kind, both as values (where 0,
// false and "" are what the caller set) and as pointers (where nil is
// "unset" and takes the default).
type Tally struct {
	Tenant string  `dynamo:"tenant,pk"`
	Seq    int     `dynamo:"seq,sk"` // 0 is a key part like any other number
	Qty    int     `dynamo:"qty,default=1"`
	Active bool    `dynamo:"active,default=true"`
	Label  string  `dynamo:"label,default=none"`
	Limit  *int    `dynamo:"limit,default=10"`
	On     *bool   `dynamo:"on,default=true"`
	Note   *string `dynamo:"note,default=n/a"`
}

var Tallies = schema.Must[Tally]("tallies")

// Explicit zeros are stored and read back as zeros, with defaults declared;
// 0 is a valid integer key part for Put, Get and Query.
func TestExplicitZeroValuesAreStored(t *testing.T) {
	ctx := context.Background()
	srv, _ := newTestRepo(t)
	in, err := schema.CreateTableInput(Tallies)
	if err != nil {
		t.Fatal(err)
	}
	srv.CreateTable(t, in)
	tallies := dynamo.Bind(newRepoFor(t, srv), Tallies)

	zero := Tally{Tenant: "t", Seq: 0, Limit: ptr(0), On: ptr(false), Note: ptr("")}
	if err := tallies.Put(ctx, zero); err != nil {
		t.Fatal(err)
	}
	raw, err := srv.Client().GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tallies"),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "tally#t"}, "sk": &types.AttributeValueMemberS{Value: "0"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]types.AttributeValue{
		"_entity": &types.AttributeValueMemberS{Value: "tally"},
		"pk":      &types.AttributeValueMemberS{Value: "tally#t"},
		"sk":      &types.AttributeValueMemberS{Value: "0"},
		"tenant":  &types.AttributeValueMemberS{Value: "t"},
		"seq":     &types.AttributeValueMemberN{Value: "0"},
		"qty":     &types.AttributeValueMemberN{Value: "0"},
		"active":  &types.AttributeValueMemberBOOL{Value: false},
		"label":   &types.AttributeValueMemberS{Value: ""},
		"limit":   &types.AttributeValueMemberN{Value: "0"},
		"on":      &types.AttributeValueMemberBOOL{Value: false},
		"note":    &types.AttributeValueMemberS{Value: ""},
	}
	if !reflect.DeepEqual(raw.Item, want) {
		t.Fatalf("stored item\n got %v\nwant %v", raw.Item, want)
	}
	got, err := tallies.Get(ctx, Tally{Tenant: "t", Seq: 0})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, zero) {
		t.Fatalf("Get = %+v, want %+v", got, zero)
	}

	// The unset form: nil pointers take their defaults.
	if err := tallies.Put(ctx, Tally{Tenant: "t", Seq: 1, Qty: 3, Active: true, Label: "x"}); err != nil {
		t.Fatal(err)
	}
	got, err = tallies.Get(ctx, Tally{Tenant: "t", Seq: 1})
	if err != nil {
		t.Fatal(err)
	}
	if w := (Tally{Tenant: "t", Seq: 1, Qty: 3, Active: true, Label: "x", Limit: ptr(10), On: ptr(true), Note: ptr("n/a")}); !reflect.DeepEqual(got, w) {
		t.Fatalf("Get = %+v, want %+v", got, w)
	}

	// A query whose struct leaves Seq at 0 does not fix it: the whole
	// partition, the item keyed 0 first.
	all, err := tallies.QueryAll(ctx, Tally{Tenant: "t"})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].Seq != 0 || all[1].Seq != 1 {
		t.Fatalf("QueryAll = %+v", all)
	}
}

// Attributes missing from an item (written by another program) load as the
// defaults, for value and pointer fields alike.
func TestMissingAttributesLoadAsDefaults(t *testing.T) {
	ctx := context.Background()
	srv, _ := newTestRepo(t)
	in, err := schema.CreateTableInput(Tallies)
	if err != nil {
		t.Fatal(err)
	}
	srv.CreateTable(t, in)
	tallies := dynamo.Bind(newRepoFor(t, srv), Tallies)
	_, err = srv.Client().PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tallies"), Item: map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: "tally#t"}, "sk": &types.AttributeValueMemberS{Value: "7"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := tallies.Get(ctx, Tally{Tenant: "t", Seq: 7})
	if err != nil {
		t.Fatal(err)
	}
	want := Tally{Tenant: "t", Seq: 7, Qty: 1, Active: true, Label: "none", Limit: ptr(10), On: ptr(true), Note: ptr("n/a")}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Get = %+v, want %+v", got, want)
	}
}
