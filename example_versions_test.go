package dynamo_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http/httptest"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/local"
)

// A version field makes every write check the version it read and store
// the next one; created and updated are stamped by the repo's clock.
func Example_optimisticLocking() {
	l, err := local.New()
	if err != nil {
		log.Fatal(err)
	}
	hs := httptest.NewServer(l)
	defer func() { hs.Close(); l.Close() }()
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	repo, err := dynamo.New(aws.Config{}, dynamo.WithEndpoint(hs.URL), dynamo.WithCredentials("example", "example-secret", ""),
		dynamo.WithClock(func() time.Time { return now }))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	if _, err := repo.SyncTables(ctx, Articles); err != nil {
		log.Fatal(err)
	}
	articles := dynamo.Bind(repo, Articles)

	// Version 0: a new item. The stored version is the one given + 1.
	if err := articles.Put(ctx, Article{ID: "a1", Title: "Draft"}); err != nil {
		log.Fatal(err)
	}
	a, err := articles.Get(ctx, Article{ID: "a1"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(a.Title, a.Rev, a.Created.Format(time.RFC3339))

	// Two writers read version 1; the first update wins.
	now = now.Add(time.Hour)
	a, err = articles.Update(ctx, Article{ID: "a1", Rev: 1}, expr.Set("title", "Final"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(a.Title, a.Rev, time.Unix(a.Updated, 0).UTC().Format(time.RFC3339))
	_, err = articles.Update(ctx, Article{ID: "a1", Rev: 1}, expr.Set("title", "Other"))
	fmt.Println(errors.Is(err, dynamo.ErrVersionConflict))
	// Output:
	// Draft 1 2026-12-01T09:00:00Z
	// Final 2 2026-12-01T10:00:00Z
	// true
}
