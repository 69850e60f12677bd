package dynamo

import (
	"context"
	"errors"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/request"
)

// TxOp is one operation of a [Repo.Transact], of any table. Build it with
// the Table methods TxPut, TxUpdate, TxDelete and TxCheck.
type TxOp struct {
	op   request.TxOp
	load func(map[string]types.AttributeValue) (any, error)
	// conflict reports whether the item a failed condition returned
	// carries another version than the one the op read; nil when the op
	// keeps no version.
	conflict func(map[string]types.AttributeValue) bool
}

// txOp binds op to the table; expected is the version the op read.
func (t *Table[T]) txOp(op request.TxOp, expected int64) TxOp {
	o := TxOp{op: op, load: func(item map[string]types.AttributeValue) (any, error) {
		if err := t.schema.CheckEntity(item); err != nil {
			return nil, err
		}
		return t.schema.Load(item)
	}}
	if v, _, _ := t.schema.Lifecycle(); v != "" {
		o.conflict = func(item map[string]types.AttributeValue) bool { return t.schema.StoredVersion(item) != expected }
	}
	return o
}

// TxPut writes v in a transaction; If adds a condition.
func (t *Table[T]) TxPut(v T, opts ...TxOpOption) TxOp {
	return t.txOp(request.TxPut(t.schema, v, opts...), t.schema.VersionOf(v))
}

// TxUpdate applies the changes among args (built by package expr) to the
// item whose key fields are set on key; the other args are options.
func (t *Table[T]) TxUpdate(key T, args ...TxUpdateOption) TxOp {
	return t.txOp(request.TxUpdate(t.schema, key, args...), t.schema.VersionOf(key))
}

// TxDelete deletes the item whose key fields are set on key.
func (t *Table[T]) TxDelete(key T, opts ...TxOpOption) TxOp {
	return t.txOp(request.TxDelete(t.schema, key, opts...), t.schema.VersionOf(key))
}

// TxCheck makes the transaction depend on cond holding for the item whose
// key fields are set on key (ConditionCheck), without writing it.
func (t *Table[T]) TxCheck(key T, cond expr.Cond, opts ...TxOpOption) TxOp {
	return t.txOp(request.TxCheck(t.schema, key, cond, opts...), 0)
}

// Transact runs ops atomically (TransactWriteItems): all or none. Two ops on
// the same item, or more than 100, are a validation error before sending.
// Without ClientRequestToken the SDK generates one per call, so its own
// retries of a timed-out attempt cannot apply the transaction twice; pass
// your own token to make your retries idempotent too (ten minutes).
//
// A canceled transaction is an *Error of type [ErrTransactionCanceled]
// whose CancellationReasons has one entry per op, in order; an op built with
// ReturnOldOnConditionFail that failed its condition carries the stored
// item, raw in Item and loaded through the op's schema in Value.
func (r *Repo) Transact(ctx context.Context, ops []TxOp, opts ...TxOption) error {
	const op = "TransactWriteItems"
	reqOps := make([]request.TxOp, len(ops))
	for i, o := range ops {
		reqOps[i] = o.op
	}
	in, err := request.TransactWrite(reqOps, append([]TxOption{request.At(r.now())}, opts...)...)
	var tables []string
	if err == nil {
		tables = tablesOf(in)
	}
	return r.run(ctx, op, tables, func(ctx context.Context) error {
		if err != nil {
			return invalid(op, err)
		}
		// The caller's token is sent again as it is; without one, each
		// attempt gets its own (the SDK fills in a copy's).
		mapped := r.retryConflicts(ctx, in.ClientRequestToken != nil, func(ctx context.Context) error {
			attempt := *in
			_, err := r.api.TransactWriteItems(ctx, &attempt, r.callOpts...)
			return mapError(op, oneTable(tables), err)
		})
		if mapped == nil {
			return nil
		}
		if e, ok := mapped.(*Error); ok && len(e.CancellationReasons) == len(ops) {
			for i := range e.CancellationReasons {
				reason := &e.CancellationReasons[i]
				if reason.Code == "ConditionalCheckFailed" && ops[i].conflict != nil && ops[i].conflict(reason.Item) {
					e.Type, e.Message = ErrVersionConflict, versionMessage+" (transaction canceled)"
				}
				if len(reason.Item) == 0 {
					continue
				}
				if v, lerr := ops[i].load(reason.Item); lerr == nil {
					reason.Value = v
				}
			}
		}
		return mapped
	})
}

// retryConflicts runs send, and again up to the repo's conflict retries
// with backoff while it fails only because of a conflict with another
// transaction. It returns the last error.
func (r *Repo) retryConflicts(ctx context.Context, sameToken bool, send func(context.Context) error) error {
	for attempt := 1; ; attempt++ {
		err := send(ctx)
		if err == nil || attempt > r.cfg.conflictRetry || !conflicted(err, sameToken) {
			return err
		}
		if err := r.sleep(ctx, attempt); err != nil {
			return err
		}
	}
}

// conflicted reports whether DynamoDB refused a transaction only because
// another transaction held one of its items, so that nothing was applied:
// TransactionConflictException, or a cancellation whose reasons are all
// None or TransactionConflict
// (API_TransactWriteItems.html#API_TransactWriteItems_Errors).
// TransactionInProgressException is the same token still being processed:
// only a retry with that token (sameToken) is safe.
func conflicted(err error, sameToken bool) bool {
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	switch e.Type {
	case ErrTransactionConflict:
		return e.AWSCode != "TransactionInProgressException" || sameToken
	case ErrTransactionCanceled:
		conflict := false
		for _, c := range e.CancellationReasons {
			switch c.Code {
			case "", "None":
			case "TransactionConflict":
				conflict = true
			default:
				return false
			}
		}
		return conflict
	}
	return false
}
