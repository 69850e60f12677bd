package dynamo_test

import (
	"context"
	"testing"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/schema"
)

type profile struct {
	ID      string            `dynamo:"id,pk"`
	Name    string            `dynamo:"name"`
	Address map[string]string `dynamo:"address"`
	Tags    []string          `dynamo:"tags"`
}

var profiles = schema.Must[profile]("profiles")

func TestProjectPaths(t *testing.T) {
	repo, _ := dynamotest.NewRepo(t, profiles)
	ctx := context.Background()
	p := dynamo.Bind(repo, profiles)
	in := profile{ID: "p", Name: "Ada", Address: map[string]string{"city": "London", "zip": "N1"}, Tags: []string{"a", "b", "c"}}
	if err := p.Put(ctx, in); err != nil {
		t.Fatal(err)
	}
	got, err := p.Get(ctx, profile{ID: "p"}, dynamo.Project(expr.Attr("address", "city"), expr.Attr("tags").Index(1)))
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "" || len(got.Address) != 1 || got.Address["city"] != "London" || len(got.Tags) != 1 || got.Tags[0] != "b" {
		t.Errorf("projected = %+v", got)
	}
}
