package dynamo_test

import (
	"context"
	"fmt"
	"log"
	"net/http/httptest"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/local"
	"github.com/dynamogo/dynamo/schema"
)

func ExampleTable_Changes() {
	type Task struct {
		ID    string `dynamo:"id,pk"`
		Title string `dynamo:"title"`
	}
	tasks := schema.Must[Task]("tasks", schema.Stream(types.StreamViewTypeNewAndOldImages))

	l, err := local.New()
	if err != nil {
		log.Fatal(err)
	}
	defer l.Close()
	hs := httptest.NewServer(l)
	defer hs.Close()
	ctx := context.Background()
	repo, err := dynamo.New(aws.Config{}, dynamo.WithEndpoint(hs.URL), dynamo.WithCredentials("example", "example-secret", ""))
	if err != nil {
		log.Fatal(err)
	}
	if err := repo.CreateTables(ctx, tasks); err != nil {
		log.Fatal(err)
	}
	t := dynamo.Bind(repo, tasks)
	if err := t.Put(ctx, Task{ID: "t1", Title: "write"}); err != nil {
		log.Fatal(err)
	}
	if _, err := t.Update(ctx, Task{ID: "t1"}, expr.Set("title", "ship")); err != nil {
		log.Fatal(err)
	}

	var position string
	for c, err := range t.Changes(ctx) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(c.Kind, c.Key.ID, c.Old.Title, "->", c.New.Title)
		if position = c.Position; c.Kind == dynamo.ChangeModify {
			break // a service would keep reading, and store the position
		}
	}

	if err := t.Delete(ctx, Task{ID: "t1"}); err != nil {
		log.Fatal(err)
	}
	for c, err := range t.Changes(ctx, dynamo.FromPosition(position)) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(c.Kind, c.Key.ID, c.HasNew)
		break
	}
	// Output:
	// INSERT t1  -> write
	// MODIFY t1 write -> ship
	// REMOVE t1 false
}
