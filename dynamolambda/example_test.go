package dynamolambda_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/dynamolambda"
	"github.com/dynamogo/dynamo/schema"
)

type Post struct {
	ID    string `dynamo:"id,pk"`
	Title string `dynamo:"title"`
}

var Posts = schema.Must[Post]("posts", schema.RawKeys())

// A Lambda function's handler: the runtime decodes the payload into an
// Event, and the Response tells Lambda which record to retry from.
func ExampleHandle() {
	payload := `{"Records":[
	  {"eventID":"c4ca4238a0b923820dcc509a6f75849b","eventName":"INSERT","eventVersion":"1.1",
	   "eventSource":"aws:dynamodb","awsRegion":"us-east-1",
	   "dynamodb":{"ApproximateCreationDateTime":1733140800,"Keys":{"id":{"S":"p1"}},
	     "NewImage":{"id":{"S":"p1"},"title":{"S":"Hello"}},
	     "SequenceNumber":"4421584500000000017450439091","SizeBytes":26,"StreamViewType":"NEW_AND_OLD_IMAGES"},
	   "eventSourceARN":"arn:aws:dynamodb:us-east-1:123456789012:table/posts/stream/2026-12-02T00:00:00.000"},
	  {"eventID":"c81e728d9d4c2f636f067f89cc14862c","eventName":"MODIFY","eventVersion":"1.1",
	   "eventSource":"aws:dynamodb","awsRegion":"us-east-1",
	   "dynamodb":{"ApproximateCreationDateTime":1733140801,"Keys":{"id":{"S":"p1"}},
	     "NewImage":{"id":{"S":"p1"},"title":{"S":"Hello, world"}},
	     "OldImage":{"id":{"S":"p1"},"title":{"S":"Hello"}},
	     "SequenceNumber":"4421584600000000017450439092","SizeBytes":51,"StreamViewType":"NEW_AND_OLD_IMAGES"},
	   "eventSourceARN":"arn:aws:dynamodb:us-east-1:123456789012:table/posts/stream/2026-12-02T00:00:00.000"}
	]}`
	var e dynamolambda.Event
	if err := json.Unmarshal([]byte(payload), &e); err != nil {
		log.Fatal(err)
	}

	resp := dynamolambda.Handle(context.Background(), Posts, e, func(ctx context.Context, c dynamo.Change[Post]) error {
		if c.Kind == dynamo.ChangeModify {
			return fmt.Errorf("search index unavailable")
		}
		fmt.Println(c.Kind, c.New.Title, c.Time.UTC().Format("15:04:05"))
		return nil
	})
	out, _ := json.Marshal(resp)
	fmt.Println(string(out), resp.Err)
	// Output:
	// INSERT Hello 12:00:00
	// {"batchItemFailures":[{"itemIdentifier":"4421584600000000017450439092"}]} search index unavailable
}
