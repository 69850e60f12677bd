package dynamo

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/request"
)

// Put writes v: its item with generated keys, defaults and required fields
// checked (a validation error, before any request, otherwise). With
// ReturnValues(types.ReturnValueAllOld) it returns the item it replaced, or
// nil when there was none; otherwise nil.
//
//	_, err := orders.Put(ctx, o, dynamo.If(dynamo.NotExists("pk")))
//	if errors.Is(err, dynamo.ErrConditionalCheckFailed) { … }
func (t *Table[T]) Put(ctx context.Context, v T, opts ...PutOption) (*T, error) {
	const op = "PutItem"
	in, err := request.Put(t.schema, v, opts...)
	if err != nil {
		return nil, invalid(op, err)
	}
	out, err := t.repo.api.PutItem(ctx, in, t.repo.callOpts...)
	if err != nil {
		return nil, mapError(op, t.schema.Table(), err)
	}
	return t.loadOptional(op, out.Attributes)
}

// Get reads the item whose key fields are set on key (the full primary
// key). A missing item is the error ErrNotFound (errors.Is), never a zero
// value silently.
func (t *Table[T]) Get(ctx context.Context, key T, opts ...GetOption) (T, error) {
	const op = "GetItem"
	var zero T
	in, err := request.Get(t.schema, key, opts...)
	if err != nil {
		return zero, invalid(op, err)
	}
	out, err := t.repo.api.GetItem(ctx, in, t.repo.callOpts...)
	if err != nil {
		return zero, mapError(op, t.schema.Table(), err)
	}
	if len(out.Item) == 0 {
		return zero, &Error{Type: TypeNotFound, Op: op, Table: t.schema.Table(), Message: "item not found"}
	}
	return t.load(op, out.Item)
}

// Delete removes the item whose key fields are set on key. With
// ReturnValues(types.ReturnValueAllOld) it returns the deleted item (nil when
// there was none).
func (t *Table[T]) Delete(ctx context.Context, key T, opts ...DeleteOption) (*T, error) {
	const op = "DeleteItem"
	in, err := request.Delete(t.schema, key, opts...)
	if err != nil {
		return nil, invalid(op, err)
	}
	out, err := t.repo.api.DeleteItem(ctx, in, t.repo.callOpts...)
	if err != nil {
		return nil, mapError(op, t.schema.Table(), err)
	}
	return t.loadOptional(op, out.Attributes)
}

// Update applies changes to the item whose key fields are set on key
// (creating it if absent, as DynamoDB does; guard with If(Exists("pk")) to
// refuse that). Changing a key field is a validation error. With
// ReturnValues it returns the attributes DynamoDB sends back loaded into a
// T: ALL_OLD / ALL_NEW give whole items, UPDATED_OLD / UPDATED_NEW only the
// changed attributes (other fields stay zero); without it, nil.
//
//	_, err := orders.Update(ctx, key, []dynamo.Change{
//		dynamo.SetAttr("status", "paid"), dynamo.Increment("version", 1),
//	})
func (t *Table[T]) Update(ctx context.Context, key T, changes []Change, opts ...UpdateOption) (*T, error) {
	const op = "UpdateItem"
	in, err := request.Update(t.schema, key, changes, opts...)
	if err != nil {
		return nil, invalid(op, err)
	}
	out, err := t.repo.api.UpdateItem(ctx, in, t.repo.callOpts...)
	if err != nil {
		return nil, mapError(op, t.schema.Table(), err)
	}
	return t.loadOptional(op, out.Attributes)
}

func (t *Table[T]) loadOptional(op string, item map[string]types.AttributeValue) (*T, error) {
	if len(item) == 0 {
		return nil, nil
	}
	v, err := t.load(op, item)
	if err != nil {
		return nil, err
	}
	return &v, nil
}
