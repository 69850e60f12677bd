package dynamo

import (
	"context"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/request"
)

// WriteOp is one put or delete of a [Repo.BatchWrite], of any table; build
// it with [Table.PutOp] or [Table.DeleteOp].
type WriteOp = request.WriteOp

// PutOp is a batch put of v (batch writes take no conditions: use a
// transaction for conditional writes).
func (t *Table[T]) PutOp(v T) WriteOp { return request.PutOp(t.schema, v) }

// DeleteOp is a batch delete of the item whose key fields are set on key.
func (t *Table[T]) DeleteOp(key T) WriteOp { return request.DeleteOp(t.schema, key) }

// BatchWriteResult reports what a [Repo.BatchWrite] could not write.
type BatchWriteResult struct {
	// Unprocessed holds the writes, per table, that DynamoDB still returned
	// as unprocessed after every batch retry (sustained throttling), or that
	// were not sent because the batch stopped: back off and resubmit them.
	// Empty on full success.
	Unprocessed map[string][]types.WriteRequest
	// ConsumedCapacity collects what the requests reported (with
	// ConsumedCapacity; empty otherwise).
	ConsumedCapacity []types.ConsumedCapacity
}

// BatchWrite writes any number of puts and deletes, across schemas and
// tables, in BatchWriteItem requests of at most 25, one after the other.
// Every op is built and checked first (a bad item or the same item twice in
// one request is a validation error before anything is sent). Unprocessed
// items are re-sent with backoff up to the repo's batch retries
// ([WithBatchRetries]); what is left is returned in the result. A hard
// failure (access denied, missing table, …) stops the batch and is returned,
// with the writes of the failed request and of those not sent in
// Unprocessed.
func (r *Repo) BatchWrite(ctx context.Context, ops []WriteOp, opts ...BatchWriteOption) (BatchWriteResult, error) {
	const op = "BatchWriteItem"
	var res BatchWriteResult
	if len(ops) == 0 {
		return res, nil
	}
	var inputs []*dynamodb.BatchWriteItemInput
	var buildErr error
	tables := map[string]bool{}
	opts = append([]BatchWriteOption{request.At(r.now())}, opts...) // one time for the whole batch
	for start := 0; start < len(ops); start += request.MaxBatchWrite {
		in, err := request.BatchWrite(ops[start:min(start+request.MaxBatchWrite, len(ops))], opts...)
		if err != nil {
			buildErr = err
			break
		}
		for table := range in.RequestItems {
			tables[table] = true
		}
		inputs = append(inputs, in)
	}
	err := r.run(ctx, op, sortedKeys(tables), func(ctx context.Context) error {
		if buildErr != nil {
			return invalid(op, buildErr)
		}
		for i, in := range inputs {
			left, err := sendBatch(ctx, r, in, func(ctx context.Context, in *dynamodb.BatchWriteItemInput) (*dynamodb.BatchWriteItemInput, error) {
				out, err := r.api.BatchWriteItem(ctx, in, r.callOpts...)
				if err != nil {
					return nil, mapError(op, oneTable(sortedKeys(in.RequestItems)), err)
				}
				res.ConsumedCapacity = append(res.ConsumedCapacity, out.ConsumedCapacity...)
				if len(out.UnprocessedItems) == 0 {
					return nil, nil
				}
				next := *in
				next.RequestItems = out.UnprocessedItems
				return &next, nil
			})
			if left != nil {
				res.addUnprocessed(left.RequestItems)
			}
			if err != nil {
				for _, rest := range inputs[i+1:] {
					res.addUnprocessed(rest.RequestItems)
				}
				return err
			}
		}
		return nil
	})
	return res, err
}

func (res *BatchWriteResult) addUnprocessed(items map[string][]types.WriteRequest) {
	if res.Unprocessed == nil {
		res.Unprocessed = map[string][]types.WriteRequest{}
	}
	for table, reqs := range items {
		res.Unprocessed[table] = append(res.Unprocessed[table], reqs...)
	}
}

// sendBatch is the one unprocessed-items loop of BatchWrite and BatchGet:
// send returns the input of what DynamoDB left unprocessed (nil when
// nothing was), which is re-sent with backoff up to the repo's batch
// retries. It returns what is still left: the last unprocessed part, or the
// whole input of a request that failed.
func sendBatch[I any](ctx context.Context, r *Repo, in *I, send func(context.Context, *I) (*I, error)) (left *I, err error) {
	for attempt := 1; ; attempt++ {
		next, err := send(ctx, in)
		if err != nil {
			return in, err
		}
		if next == nil {
			return nil, nil
		}
		if attempt > r.cfg.batchRetries {
			return next, nil
		}
		if err := r.sleep(ctx, attempt); err != nil {
			return next, err
		}
		in = next
	}
}

// sleep waits the batch backoff before retry n (1-based).
func (r *Repo) sleep(ctx context.Context, n int) error {
	d := fullJitter{base: r.cfg.baseBackoff, max: r.cfg.maxBackoff}.delay(n)
	if err := sleepCtx(ctx, d); err != nil {
		return mapError("", "", err)
	}
	return nil
}

// BatchGetResult is what [Table.BatchGet] read.
type BatchGetResult[T any] struct {
	// Items are the items found, in no particular order; keys without an
	// item are simply absent.
	Items []T
	// Unprocessed are the keys DynamoDB still left unprocessed after every
	// batch retry, as values with only their key fields set.
	Unprocessed []T
	// ConsumedCapacity collects what the requests reported.
	ConsumedCapacity []types.ConsumedCapacity
}

// BatchGet reads the items whose key fields are set on keys, in
// BatchGetItem requests of at most 100, one after the other. Unprocessed keys
// are re-sent with backoff up to the repo's batch retries; what is left is
// returned in Unprocessed. Consistent and Project apply to every key. The
// same key twice in one request is a validation error.
func (t *Table[T]) BatchGet(ctx context.Context, keys []T, opts ...BatchGetOption) (BatchGetResult[T], error) {
	var res BatchGetResult[T]
	if len(keys) == 0 {
		return res, nil
	}
	table := t.schema.Table()
	err := t.run(ctx, "BatchGetItem", func(ctx context.Context, op string) error {
		for start := 0; start < len(keys); start += request.MaxBatchGet {
			chunk := keys[start:min(start+request.MaxBatchGet, len(keys))]
			gk := make([]request.GetKey, len(chunk))
			for i, k := range chunk {
				gk[i] = request.KeyOf(t.schema, k)
			}
			in, err := request.BatchGet(gk, opts...)
			if err != nil {
				return invalid(op, err)
			}
			left, err := sendBatch(ctx, t.repo, in, func(ctx context.Context, in *dynamodb.BatchGetItemInput) (*dynamodb.BatchGetItemInput, error) {
				out, err := t.repo.api.BatchGetItem(ctx, in, t.repo.callOpts...)
				if err != nil {
					return nil, mapError(op, table, err)
				}
				res.ConsumedCapacity = append(res.ConsumedCapacity, out.ConsumedCapacity...)
				for _, item := range out.Responses[table] {
					if !t.schema.Owns(item) {
						continue // another entity's item at one of the keys: not this entity's to return
					}
					v, err := t.decode(op, item)
					if err != nil {
						return nil, err
					}
					res.Items = append(res.Items, v)
				}
				if len(out.UnprocessedKeys[table].Keys) == 0 {
					return nil, nil
				}
				next := *in
				next.RequestItems = out.UnprocessedKeys
				return &next, nil
			})
			if err != nil {
				return err
			}
			if left != nil {
				for _, k := range left.RequestItems[table].Keys {
					v, err := t.decode(op, k)
					if err != nil {
						return err
					}
					res.Unprocessed = append(res.Unprocessed, v)
				}
			}
		}
		return nil
	})
	return res, err
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
