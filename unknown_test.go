package dynamo_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/codec/ddbjson"
	"github.com/dynamogo/dynamo/schema"
)

// Jotting declares two attributes; other programs write more, and no entity
// attribute.
type Jotting struct {
	Owner string                          `dynamo:"owner,pk"`
	ID    string                          `dynamo:"id,sk"`
	Text  string                          `dynamo:"text"`
	Rest  map[string]types.AttributeValue `dynamo:",unknown"`
}

var Jottings = schema.Must[Jotting]("memos", schema.EntityName("memo"), schema.EntityAttribute(""))

// Items with attributes the type does not declare keep them through a load
// and a put, byte for byte; the generated keys are not among them.
func TestUnknownAttributesSurviveLoadAndPut(t *testing.T) {
	ctx := context.Background()
	srv, _ := newTestRepo(t)
	in, err := schema.CreateTableInput(Jottings)
	if err != nil {
		t.Fatal(err)
	}
	srv.CreateTable(t, in)
	memos := dynamo.Bind(newRepoFor(t, srv), Jottings)
	client := srv.Client()
	odd := []string{
		`{"pk":{"S":"memo#ada"},"sk":{"S":"n1"},"owner":{"S":"ada"},"id":{"S":"n1"},"text":{"S":"hi"},` +
			`"tags":{"SS":["a","b"]},"scores":{"NS":["1.5","12345678901234567890123456789012345678"]},"blob":{"B":"AAEC/w=="},` +
			`"meta":{"M":{"v":{"N":"2"},"l":{"L":[{"NULL":true},{"BS":["AQ=="]},{"M":{}}]}}},"gone":{"NULL":true},"ok":{"BOOL":false}}`,
	}
	var want []map[string]types.AttributeValue
	for _, line := range odd {
		item, err := ddbjson.UnmarshalItem([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("memos"), Item: item}); err != nil {
			t.Fatal(err)
		}
		want = append(want, item)
	}
	all, err := memos.QueryAll(ctx, Jotting{Owner: "ada"})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 1 || len(all[0].Rest) != 6 || all[0].Rest["pk"] != nil || all[0].Rest["text"] != nil {
		t.Fatalf("QueryAll = %+v", all)
	}
	for _, n := range all {
		if err := memos.Put(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	out, err := client.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("memos")})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out.Items, want) {
		t.Fatalf("after load and put:\n got %v\nwant %v", out.Items, want)
	}

	// The generated keys are the schema's own: the catch-all cannot set them.
	n := all[0]
	n.Rest = map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "x#y"}}
	if err := memos.Put(ctx, n); err == nil || !strings.Contains(err.Error(), `attribute "pk" is the generated key`) {
		t.Fatalf("Put with pk in the catch-all: %v", err)
	}
}
