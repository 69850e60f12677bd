package dynamo

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/request"
)

// SearchResult is one nearest neighbour: the item (only projected attributes
// set; key fields recovered from the table keys) and its score.
type SearchResult[T any] struct {
	Item  T
	Score float64
}

// SearchResults is what [Table.SearchVectors] found, best match first.
type SearchResults[T any] struct {
	Results []SearchResult[T]
	// ConsumedCapacity is set when asked for with ConsumedCapacity.
	ConsumedCapacity *types.VectorCapacity
}

// SearchVectors finds the TopK items of the vector index nearest to vector
// (SearchVectors). The vector must have the index's dimensions; when the
// index has a partition attribute, Filter must fix it by equality. Scores:
// lower is nearer for COSINE and EUCLIDEAN, higher for DOT_PRODUCT; the list
// is best first either way. Vector indexes are eventually consistent.
func (t *Table[T]) SearchVectors(ctx context.Context, index string, vector []float32, opts ...SearchOption) (SearchResults[T], error) {
	var res SearchResults[T]
	err := t.run(ctx, "SearchVectors", func(ctx context.Context, op string) error {
		in, err := request.SearchVectors(t.schema, index, vector, opts...)
		if err != nil {
			return invalid(op, err)
		}
		out, err := t.repo.api.SearchVectors(ctx, in, t.repo.searchOpts...)
		if err != nil {
			return mapError(op, t.schema.Table(), err)
		}
		res.ConsumedCapacity = out.ConsumedCapacity
		res.Results = make([]SearchResult[T], 0, len(out.SearchResults))
		for _, r := range out.SearchResults {
			if !t.schema.Owns(r.Item) {
				continue // another entity's item in a shared vector index
			}
			v, err := t.decode(op, r.Item)
			if err != nil {
				return err
			}
			res.Results = append(res.Results, SearchResult[T]{Item: v, Score: r.Score})
		}
		return nil
	})
	if err != nil {
		return SearchResults[T]{}, err
	}
	return res, nil
}
