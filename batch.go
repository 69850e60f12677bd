package dynamo

import (
	"context"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/request"
)

// DynamoDB's per-request batch limits (API reference: BatchWriteItem,
// BatchGetItem).
const (
	MaxBatchWrite = request.MaxBatchWrite // 25
	MaxBatchGet   = request.MaxBatchGet   // 100
)

// WriteOp is one put or delete of a [Repo.BatchWrite], of any schema;
// build it with [Table.PutOp] / [Table.DeleteOp] or [PutOp] / [DeleteOp].
type WriteOp = request.WriteOp

// PutOp is a batch put of v (batch writes take no conditions: use a
// transaction for conditional writes).
func PutOp[T any](s *Schema[T], v T) WriteOp { return request.PutOp(s, v) }

// DeleteOp is a batch delete of the item whose key fields are set on key.
func DeleteOp[T any](s *Schema[T], key T) WriteOp { return request.DeleteOp(s, key) }

// PutOp is a batch put of v.
func (t *Table[T]) PutOp(v T) WriteOp { return request.PutOp(t.schema, v) }

// DeleteOp is a batch delete of the item whose key fields are set on key.
func (t *Table[T]) DeleteOp(key T) WriteOp { return request.DeleteOp(t.schema, key) }

// Unprocessed is a write DynamoDB left unprocessed after every batch retry.
type Unprocessed struct {
	Table   string
	Request types.WriteRequest
}

// BatchWriteResult reports what a [Repo.BatchWrite] could not write.
type BatchWriteResult struct {
	// Unprocessed holds the writes DynamoDB still returned as unprocessed
	// after every batch retry (sustained throttling): back off and resubmit
	// them. Empty on full success.
	Unprocessed []Unprocessed
	// ConsumedCapacity collects what the requests reported (with
	// ConsumedCapacity; empty otherwise).
	ConsumedCapacity []types.ConsumedCapacity
}

// BatchWrite writes any number of puts and deletes, across schemas and
// tables, in BatchWriteItem requests of at most 25, one after the other.
// Every op is built and checked first (a bad item or the same item twice in
// one chunk is a validation error before anything is sent). Unprocessed
// items are re-sent with backoff up to the repo's batch retries
// ([WithBatchRetries]); what is left is returned in the result. A hard
// failure (access denied, missing table, …) stops the batch and is returned,
// with the writes of the failed chunk and of the chunks not sent in
// Unprocessed.
func (r *Repo) BatchWrite(ctx context.Context, ops []WriteOp, opts ...BatchWriteOption) (BatchWriteResult, error) {
	const op = "BatchWriteItem"
	var res BatchWriteResult
	if len(ops) == 0 {
		return res, nil
	}
	inputs := make([]*dynamodb.BatchWriteItemInput, 0, (len(ops)+MaxBatchWrite-1)/MaxBatchWrite)
	for start := 0; start < len(ops); start += MaxBatchWrite {
		in, err := request.BatchWrite(ops[start:min(start+MaxBatchWrite, len(ops))], opts...)
		if err != nil {
			return res, invalid(op, err)
		}
		inputs = append(inputs, in)
	}
	for i, in := range inputs {
		left, caps, err := r.writeChunk(ctx, in)
		res.ConsumedCapacity = append(res.ConsumedCapacity, caps...)
		res.Unprocessed = append(res.Unprocessed, left...)
		if err != nil {
			for _, rest := range inputs[i+1:] {
				res.Unprocessed = append(res.Unprocessed, unprocessedOf(rest.RequestItems)...)
			}
			return res, err
		}
	}
	return res, nil
}

func (r *Repo) writeChunk(ctx context.Context, in *dynamodb.BatchWriteItemInput) (left []Unprocessed, caps []types.ConsumedCapacity, err error) {
	for attempt := 0; ; attempt++ {
		out, err := r.api.BatchWriteItem(ctx, in, r.callOpts...)
		if err != nil {
			return unprocessedOf(in.RequestItems), caps, mapError("BatchWriteItem", joinTables(in.RequestItems), err)
		}
		caps = append(caps, out.ConsumedCapacity...)
		if len(out.UnprocessedItems) == 0 {
			return nil, caps, nil
		}
		next := *in
		next.RequestItems = out.UnprocessedItems
		in = &next
		if attempt >= r.cfg.batchRetries {
			return unprocessedOf(in.RequestItems), caps, nil
		}
		if err := r.sleep(ctx, attempt+1); err != nil {
			return unprocessedOf(in.RequestItems), caps, err
		}
	}
}

func unprocessedOf(m map[string][]types.WriteRequest) []Unprocessed {
	var out []Unprocessed
	for _, table := range slices.Sorted(maps.Keys(m)) {
		for _, req := range m[table] {
			out = append(out, Unprocessed{Table: table, Request: req})
		}
	}
	return out
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
// same key twice in one chunk is a validation error.
func (t *Table[T]) BatchGet(ctx context.Context, keys []T, opts ...BatchGetOption) (BatchGetResult[T], error) {
	const op = "BatchGetItem"
	var res BatchGetResult[T]
	if len(keys) == 0 {
		return res, nil
	}
	inputs := make([]*dynamodb.BatchGetItemInput, 0, (len(keys)+MaxBatchGet-1)/MaxBatchGet)
	for start := 0; start < len(keys); start += MaxBatchGet {
		chunk := keys[start:min(start+MaxBatchGet, len(keys))]
		gk := make([]request.GetKey, len(chunk))
		for i, k := range chunk {
			gk[i] = request.KeyOf(t.schema, k)
		}
		in, err := request.BatchGet(gk, opts...)
		if err != nil {
			return res, invalid(op, err)
		}
		inputs = append(inputs, in)
	}
	table := t.schema.Table()
	for _, in := range inputs {
		for attempt := 0; ; attempt++ {
			out, err := t.repo.api.BatchGetItem(ctx, in, t.repo.callOpts...)
			if err != nil {
				return res, mapError(op, table, err)
			}
			res.ConsumedCapacity = append(res.ConsumedCapacity, out.ConsumedCapacity...)
			for _, item := range out.Responses[table] {
				v, err := t.load(op, item)
				if err != nil {
					return res, err
				}
				res.Items = append(res.Items, v)
			}
			left := out.UnprocessedKeys[table]
			if len(left.Keys) == 0 {
				break
			}
			if attempt >= t.repo.cfg.batchRetries {
				for _, k := range left.Keys {
					v, err := t.load(op, k)
					if err != nil {
						return res, err
					}
					res.Unprocessed = append(res.Unprocessed, v)
				}
				break
			}
			if err := t.repo.sleep(ctx, attempt+1); err != nil {
				return res, err
			}
			next := *in
			next.RequestItems = out.UnprocessedKeys
			in = &next
		}
	}
	return res, nil
}
