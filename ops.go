package dynamo

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/request"
)

// Put writes v: its item with generated keys, defaults and required fields
// checked (a validation error, before any request, otherwise). It replaces
// an item with the same key.
//
// With a version field, Put requires the stored version to be v's (0: no
// item) and stores v's + 1; v itself is not changed. A stale version is
// [ErrVersionConflict]. Created and updated fields are stamped with the
// repo's clock (created only when v carries none).
//
//	err := orders.Put(ctx, o, dynamo.If(expr.NotExists("pk")))
//	if errors.Is(err, dynamo.ErrConditionalCheckFailed) { … }
func (t *Table[T]) Put(ctx context.Context, v T, opts ...PutOption) error {
	_, _, err := t.put(ctx, v, opts)
	return err
}

// PutReturningOld is Put that also returns the item it replaced, and
// whether there was one (ReturnValues ALL_OLD; no extra capacity).
func (t *Table[T]) PutReturningOld(ctx context.Context, v T, opts ...PutOption) (old T, replaced bool, err error) {
	return t.put(ctx, v, append(opts[:len(opts):len(opts)], request.ReturnValues(types.ReturnValueAllOld)))
}

func (t *Table[T]) put(ctx context.Context, v T, opts []PutOption) (T, bool, error) {
	var old T
	var found bool
	err := t.run(ctx, "PutItem", func(ctx context.Context, op string) error {
		in, err := request.Put(t.schema, v, t.stamped(opts)...)
		if err != nil {
			return invalid(op, err)
		}
		out, err := t.repo.api.PutItem(ctx, in, t.repo.callOpts...)
		if err != nil {
			return versionConflict(t.schema, t.schema.VersionOf(v), mapError(op, t.schema.Table(), err))
		}
		old, found, err = t.loadOptional(op, out.Attributes)
		return err
	})
	return old, found, err
}

// stamped adds the repo's clock to the options of a Put when the schema
// has timestamp fields to stamp (boxing a time costs an allocation).
func (t *Table[T]) stamped(opts []PutOption) []PutOption {
	if _, created, updated := t.schema.Lifecycle(); created == "" && updated == "" {
		return opts
	}
	return append([]PutOption{request.At(t.repo.now())}, opts...)
}

// Get reads the item whose key fields are set on key (the full primary
// key). A missing item is the error [ErrNotFound], never a zero value
// silently.
func (t *Table[T]) Get(ctx context.Context, key T, opts ...GetOption) (T, error) {
	var v T
	err := t.run(ctx, "GetItem", func(ctx context.Context, op string) error {
		in, err := request.Get(t.schema, key, opts...)
		if err != nil {
			return invalid(op, err)
		}
		out, err := t.repo.api.GetItem(ctx, in, t.repo.callOpts...)
		if err != nil {
			return mapError(op, t.schema.Table(), err)
		}
		if len(out.Item) == 0 {
			return &Error{Type: ErrNotFound, Op: op, Table: t.schema.Table(), Message: "item not found"}
		}
		return t.loadInto(op, out.Item, &v)
	})
	return v, err
}

// Delete removes the item whose key fields are set on key. Deleting a
// missing item is not an error (guard with If(expr.Exists("pk")) to make it
// one). With a version field the version on key is required
// ([ErrVersionConflict] otherwise).
func (t *Table[T]) Delete(ctx context.Context, key T, opts ...DeleteOption) error {
	_, _, err := t.delete(ctx, key, opts)
	return err
}

// DeleteReturningOld is Delete that also returns the deleted item, and
// whether there was one (ReturnValues ALL_OLD; no extra capacity).
func (t *Table[T]) DeleteReturningOld(ctx context.Context, key T, opts ...DeleteOption) (old T, deleted bool, err error) {
	return t.delete(ctx, key, append(opts[:len(opts):len(opts)], request.ReturnValues(types.ReturnValueAllOld)))
}

func (t *Table[T]) delete(ctx context.Context, key T, opts []DeleteOption) (T, bool, error) {
	var old T
	var found bool
	err := t.run(ctx, "DeleteItem", func(ctx context.Context, op string) error {
		in, err := request.Delete(t.schema, key, opts...)
		if err != nil {
			return invalid(op, err)
		}
		out, err := t.repo.api.DeleteItem(ctx, in, t.repo.callOpts...)
		if err != nil {
			return versionConflict(t.schema, t.schema.VersionOf(key), mapError(op, t.schema.Table(), err))
		}
		old, found, err = t.loadOptional(op, out.Attributes)
		return err
	})
	return old, found, err
}

// Update applies the changes among args (built by package expr, applied in
// order) to the item whose key fields are set on key, and returns the item
// as it is after the update (ReturnValues ALL_NEW; no extra capacity). The
// other args are options. Like DynamoDB it creates a missing item; guard
// with If(expr.Exists("pk")) to refuse that. Changing a key field is a
// validation error. With a version field the version on key is required
// and the next one stored ([ErrVersionConflict] otherwise); timestamps are
// stamped in the same request.
//
//	o, err := orders.Update(ctx, key,
//		expr.Set("status", "paid"), expr.Increment("version", 1),
//		dynamo.If(expr.Eq("version", 3)))
func (t *Table[T]) Update(ctx context.Context, key T, args ...UpdateOption) (T, error) {
	var v T
	err := t.run(ctx, "UpdateItem", func(ctx context.Context, op string) error {
		in, err := request.Update(t.schema, key, append(append([]UpdateOption{request.At(t.repo.now())}, args...), request.ReturnValues(types.ReturnValueAllNew))...)
		if err != nil {
			return invalid(op, err)
		}
		out, err := t.repo.api.UpdateItem(ctx, in, t.repo.callOpts...)
		if err != nil {
			return versionConflict(t.schema, t.schema.VersionOf(key), mapError(op, t.schema.Table(), err))
		}
		v, err = t.load(op, out.Attributes)
		return err
	})
	return v, err
}

// loadOptional loads the item a write returned, if any.
func (t *Table[T]) loadOptional(op string, item map[string]types.AttributeValue) (T, bool, error) {
	if len(item) == 0 {
		var zero T
		return zero, false, nil
	}
	v, err := t.load(op, item)
	return v, err == nil, err
}
