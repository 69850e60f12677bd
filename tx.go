package dynamo

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/request"
)

// TxOp is one operation of a [Repo.Transact], of any schema. Build it with
// [TxPut], [TxUpdate], [TxDelete], [TxCheck] or the Table methods of the same
// names.
type TxOp struct {
	op   request.TxOp
	load func(map[string]types.AttributeValue) (any, error)
}

func txOp[T any](s *Schema[T], op request.TxOp) TxOp {
	return TxOp{op: op, load: func(item map[string]types.AttributeValue) (any, error) {
		v, err := s.Load(item)
		return v, err
	}}
}

// TxPut writes v in a transaction; If adds a condition.
func TxPut[T any](s *Schema[T], v T, opts ...TxOpOption) TxOp {
	return txOp(s, request.TxPut(s, v, opts...))
}

// TxUpdate applies changes to the item whose key fields are set on key.
func TxUpdate[T any](s *Schema[T], key T, changes []Change, opts ...TxOpOption) TxOp {
	return txOp(s, request.TxUpdate(s, key, changes, opts...))
}

// TxDelete deletes the item whose key fields are set on key.
func TxDelete[T any](s *Schema[T], key T, opts ...TxOpOption) TxOp {
	return txOp(s, request.TxDelete(s, key, opts...))
}

// TxCheck makes the transaction depend on cond holding for the item whose
// key fields are set on key (ConditionCheck).
func TxCheck[T any](s *Schema[T], key T, cond Cond, opts ...TxOpOption) TxOp {
	return txOp(s, request.TxCheck(s, key, cond, opts...))
}

// TxPut writes v in a transaction.
func (t *Table[T]) TxPut(v T, opts ...TxOpOption) TxOp { return TxPut(t.schema, v, opts...) }

// TxUpdate applies changes to the item whose key fields are set on key.
func (t *Table[T]) TxUpdate(key T, changes []Change, opts ...TxOpOption) TxOp {
	return TxUpdate(t.schema, key, changes, opts...)
}

// TxDelete deletes the item whose key fields are set on key.
func (t *Table[T]) TxDelete(key T, opts ...TxOpOption) TxOp { return TxDelete(t.schema, key, opts...) }

// TxCheck requires cond to hold for the item whose key fields are set on key.
func (t *Table[T]) TxCheck(key T, cond Cond, opts ...TxOpOption) TxOp {
	return TxCheck(t.schema, key, cond, opts...)
}

// Transact runs ops atomically (TransactWriteItems): all or none. Two ops on
// the same item, or more than 100, are a validation error before sending.
// Without ClientRequestToken the SDK generates one per call, so its own
// retries of a timed-out attempt cannot apply the transaction twice; pass
// your own token to make your retries idempotent too (ten minutes).
//
// A canceled transaction is an *Error of TypeTransactionCanceled whose
// CancellationReasons has one entry per op, in order; an op built with
// ReturnOldOnConditionFail that failed its condition carries the stored
// item, raw in Item and loaded through the op's schema in Value.
func (r *Repo) Transact(ctx context.Context, ops []TxOp, opts ...TxOption) error {
	const op = "TransactWriteItems"
	reqOps := make([]request.TxOp, len(ops))
	for i, o := range ops {
		if o.op == nil {
			return invalidf(op, "operation %d is empty (build it with TxPut, TxUpdate, TxDelete or TxCheck)", i)
		}
		reqOps[i] = o.op
	}
	in, err := request.TransactWrite(reqOps, opts...)
	if err != nil {
		return invalid(op, err)
	}
	_, err = r.api.TransactWriteItems(ctx, in, r.callOpts...)
	if err == nil {
		return nil
	}
	mapped := mapError(op, tableOf(in), err)
	if e, ok := mapped.(*Error); ok && len(e.CancellationReasons) == len(ops) {
		for i := range e.CancellationReasons {
			reason := &e.CancellationReasons[i]
			if len(reason.Item) == 0 {
				continue
			}
			if v, lerr := ops[i].load(reason.Item); lerr == nil {
				reason.Value = v
			}
		}
	}
	return mapped
}
