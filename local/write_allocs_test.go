package local_test

import (
	"fmt"
	"testing"
)

// TestWriteAllocations guards the allocations of a PutItem and an
// UpdateItem through the handler (the same requests as BenchmarkPutItem and
// BenchmarkUpdateItem): a write decodes its request, encodes its item once
// (which also gives its size), takes the old item's size from the stored
// encoding and builds its key in one allocation; an update reuses the
// resolved paths of its expression, decodes only the attributes it names
// and writes its item by replacing those in the stored encoding; its key
// and values, its string members, its storage key, the stored attributes
// it reads and its meter live in recycled memory (batchScratch). A copy
// of the item, a second walk for its size or paths resolved again show up
// here first.
func TestWriteAllocations(t *testing.T) {
	if raceEnabled || testing.CoverMode() != "" {
		t.Skip("allocation counts differ under the race detector and coverage")
	}
	_, c := benchServer(t)
	put := putBody("k0000001", "s", 1)
	update := `{"TableName":"bench","Key":{"pk":{"S":"k0000001"},"sk":{"S":"s"}},"UpdateExpression":"ADD n :one SET v = :v","ExpressionAttributeValues":{":one":{"N":"1"},":v":{"S":"x"}}}`
	for _, tt := range []struct {
		action, body string
		max          float64
	}{
		// Today 18 and 9; one to spare for the runtime's own variation
		// (a full CI run once read one more than a lone run). A write that
		// decodes the whole stored item again, or an update that encodes
		// the attributes it did not change, needs more.
		{"PutItem", put, 19},
		{"UpdateItem", update, 10},
	} {
		checkAllocs(t, c, tt.action, tt.body, tt.max)
	}
}

// checkAllocs fails t if a request of action with body makes more than max
// allocations. AllocsPerRun counts the whole process's allocations, so
// goroutines other tests left behind (sweepers, idle connections) can only
// add to it: the fewest of a few trials is the request's own count.
func checkAllocs(t *testing.T, c *caller, action, body string, max float64) {
	t.Helper()
	got := max + 1e9
	for range 5 {
		got = min(got, testing.AllocsPerRun(100, func() { c.call(t, action, body) }))
	}
	t.Logf("%s: %.1f allocs", action, got)
	if got > max {
		t.Errorf("%s: %.1f allocs, want at most %.0f", action, got, max)
	}
}

// TestBatchAllocations guards the allocations of a BatchWriteItem of 25 puts
// and a BatchGetItem of 25 keys through the handler (the requests of
// BenchmarkBatchWriteItem25 and BenchmarkBatchGetItem25): the items of a
// batch are decoded into recycled maps by a recycled decoder (its strings
// and values), their keys go into one buffer, and the lists a batch works
// with are pooled, so what is left per item is a put's encoding and the
// engine's copy of it. A per-item allocation coming back shows up here as
// 25 more.
func TestBatchAllocations(t *testing.T) {
	if raceEnabled || testing.CoverMode() != "" {
		t.Skip("allocation counts differ under the race detector and coverage")
	}
	_, c := benchServer(t)
	write, get := batchWriteBody(0), batchGetBody(0)
	c.call(t, "BatchWriteItem", write) // the items BatchGetItem reads, which the next writes replace
	for _, tt := range []struct {
		action, body string
		max          float64
	}{
		// Today 83 and 20 (428 and 241 before); a few to spare for the
		// runtime's own variation.
		{"BatchWriteItem", write, 86},
		{"BatchGetItem", get, 23},
	} {
		checkAllocs(t, c, tt.action, tt.body, tt.max)
	}
}

// TestQueryAllocations guards the allocations of the Queries of
// BenchmarkQuery10 (10 items, a filter) and BenchmarkQuery10Plain (no
// filter) through the handler: their values are decoded into recycled
// memory (batchScratch), their source, walk, key condition and bounds are
// recycled (readState) with the filter's memory, and the answer goes to a
// pooled buffer.
func TestQueryAllocations(t *testing.T) {
	if raceEnabled || testing.CoverMode() != "" {
		t.Skip("allocation counts differ under the race detector and coverage")
	}
	_, c := benchServer(t)
	for s := range 10 {
		c.call(t, "PutItem", putBody("p001", fmt.Sprintf("s%02d", s), s))
	}
	query := `{"TableName":"bench","KeyConditionExpression":"pk = :p","FilterExpression":"n >= :z","ExpressionAttributeValues":{":p":{"S":"p001"},":z":{"N":"0"}}}`
	// Today 8 and 6 (31 and 23 before the read state was recycled, 20
	// and 16 before the string members were interned, the compiled
	// expressions recycled and the answer's buffer and headers stopped
	// allocating); one to spare for the runtime's own variation.
	checkAllocs(t, c, "Query", query, 9)
	plain := `{"TableName":"bench","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"p001"}}}`
	checkAllocs(t, c, "Query", plain, 7)
}
