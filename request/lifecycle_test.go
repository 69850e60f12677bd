package request_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/request"
	"github.com/dynamogo/dynamo/schema"
)

// Post keeps a version and both timestamps.
type Post struct {
	ID      string    `dynamo:"id,pk"`
	Title   string    `dynamo:"title"`
	Rev     int64     `dynamo:"rev,version"`
	Created time.Time `dynamo:"created,created,precision=ms"`
	Updated int64     `dynamo:"updated,updated"`
}

var Posts = schema.Must[Post]("app")

var stamp = time.Date(2026, 12, 2, 3, 4, 5, 678901234, time.UTC)

// The requests that keep versions and timestamps: the lock is ANDed after
// the caller's condition and asks for the stored item on failure; updates
// set the next version and updated, and created only if absent.
func TestLifecycleRequests(t *testing.T) {
	at := request.At(stamp)
	for _, c := range []struct {
		name  string
		build func() (string, any, error)
	}{
		{"version_put_new", wrapBuild("PutItem", func() (any, error) {
			return request.Put(Posts, Post{ID: "p1", Title: "t"}, at)
		})},
		{"version_put_read_with_condition", wrapBuild("PutItem", func() (any, error) {
			return request.Put(Posts, Post{ID: "p1", Title: "t", Rev: 3, Created: stamp.Truncate(time.Second).Add(-time.Hour)}, at, request.If(expr.Eq("title", "old")))
		})},
		{"version_update", wrapBuild("UpdateItem", func() (any, error) {
			return request.Update(Posts, Post{ID: "p1", Rev: 3}, expr.Set("title", "t"), at)
		})},
		{"version_delete", wrapBuild("DeleteItem", func() (any, error) {
			return request.Delete(Posts, Post{ID: "p1", Rev: 3})
		})},
		{"version_transaction", wrapBuild("TransactWriteItems", func() (any, error) {
			return request.TransactWrite([]request.TxOp{
				request.TxPut(Posts, Post{ID: "p1"}),
				request.TxUpdate(Posts, Post{ID: "p2", Rev: 1}, expr.Set("title", "t")),
				request.TxDelete(Posts, Post{ID: "p3", Rev: 2}),
			}, at)
		})},
	} {
		t.Run(c.name, func(t *testing.T) {
			action, in, err := c.build()
			if err != nil {
				t.Fatal(err)
			}
			golden(t, c.name, render(t, action, in))
		})
	}
}

func TestLifecycleRequestErrors(t *testing.T) {
	_, err := request.BatchWrite([]request.WriteOp{request.PutOp(Posts, Post{ID: "p1"})})
	if err == nil || !strings.Contains(err.Error(), `PutRequest: entity "post" has a version field (rev): a batch cannot carry its condition`) {
		t.Errorf("batch put = %v", err)
	}
	_, err = request.BatchWrite([]request.WriteOp{request.DeleteOp(Posts, Post{ID: "p1"})})
	if err == nil || !strings.Contains(err.Error(), `DeleteRequest: entity "post" has a version field`) {
		t.Errorf("batch delete = %v", err)
	}
	_, err = request.Update(Posts, Post{ID: "p1"}, expr.RawUpdate("SET title = :t", nil, map[string]any{"t": "x"}))
	if err == nil || !strings.Contains(err.Error(), "a raw update expression cannot keep") {
		t.Errorf("raw update = %v", err)
	}
}
