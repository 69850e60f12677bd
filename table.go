package dynamo

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/schema"
)

// Table is a typed handle: one schema bound to one repo, the value every
// item operation is called on. It is cheap to create and safe for concurrent
// use.
type Table[T any] struct {
	repo   *Repo
	schema *schema.Schema[T]
}

// Bind returns the typed handle for s on r.
//
//	orders := dynamo.Bind(repo, Orders)
func Bind[T any](r *Repo, s *schema.Schema[T]) *Table[T] {
	return &Table[T]{repo: r, schema: s}
}

// Schema returns the bound schema.
func (t *Table[T]) Schema() *schema.Schema[T] { return t.schema }

// Repo returns the repo the table runs on.
func (t *Table[T]) Repo() *Repo { return t.repo }

// run runs one operation of this table under the repo's operation tracer.
func (t *Table[T]) run(ctx context.Context, op string, fn func(ctx context.Context, op string) error) error {
	if t.repo.opTracer == nil {
		return fn(ctx, op) // the tracer's table list is not built for nothing
	}
	return t.repo.run(ctx, op, t.tables(), func(ctx context.Context) error { return fn(ctx, op) })
}

// load decodes an item of this schema. An item of another entity (see
// schema.Schema.CheckEntity) is ErrEntityMismatch: a single item read or
// returned by a write is never decoded as the wrong type.
func (t *Table[T]) load(op string, item map[string]types.AttributeValue) (T, error) {
	var v T
	err := t.loadInto(op, item, &v)
	return v, err
}

// loadInto is load decoding into *v (the caller's variable, when it is on
// the heap already, as one a closure sets is).
func (t *Table[T]) loadInto(op string, item map[string]types.AttributeValue, v *T) error {
	if err := t.schema.CheckEntity(item); err != nil {
		var zero T
		*v = zero
		return &Error{Type: ErrEntityMismatch, Op: op, Table: t.schema.Table(), Message: trimPrefix(err.Error()), cause: err}
	}
	return loadItemInto(t.schema, op, item, v)
}

// decode decodes item without asking whose it is: for bare keys, which
// carry no entity attribute (unprocessed batch keys, stream record keys).
func (t *Table[T]) decode(op string, item map[string]types.AttributeValue) (T, error) {
	return loadItem(t.schema, op, item)
}

// loadItem decodes an item of s without asking whose it is; a decode
// failure is a decode error naming the table, with the item's primary key
// in Keys.
func loadItem[T any](s *schema.Schema[T], op string, item map[string]types.AttributeValue) (T, error) {
	var v T
	err := loadItemInto(s, op, item, &v)
	return v, err
}

// loadItemInto is loadItem decoding into *v.
func loadItemInto[T any](s *schema.Schema[T], op string, item map[string]types.AttributeValue, v *T) error {
	err := s.LoadInto(item, v)
	if err != nil {
		key := map[string]types.AttributeValue{}
		pk, sk := s.KeyNames()
		for _, name := range []string{pk, sk} {
			if av, ok := item[name]; ok && name != "" {
				key[name] = av
			}
		}
		return &Error{Type: ErrDecode, Op: op, Table: s.Table(), Message: trimPrefix(err.Error()),
			Keys: []map[string]types.AttributeValue{key}, cause: err}
	}
	return nil
}

// decodeErrors gathers the errors of items that did not decode into one
// ErrDecode with every key, its message the first's; nil for none.
func decodeErrors(errs []*Error) error {
	if len(errs) == 0 {
		return nil
	}
	first := *errs[0]
	for _, e := range errs[1:] {
		first.Keys = append(first.Keys, e.Keys...)
	}
	if len(errs) > 1 {
		first.Message = fmt.Sprintf("%d items could not be loaded (keys in Error.Keys); the first: %s", len(errs), errs[0].Message)
	}
	return &first
}

// undecodable returns err as the decode error of one item, which a read of
// many items reports without stopping.
func undecodable(err error) (*Error, bool) {
	e, ok := err.(*Error)
	return e, ok && e.Type == ErrDecode && len(e.Keys) > 0
}

// decodeOwned loads items of this entity and skips the others of a shared
// single table: an item of another entity is not an error.
func (t *Table[T]) decodeOwned(op string) decodeFunc[T] {
	return func(item map[string]types.AttributeValue) (T, bool, error) {
		if !t.schema.Owns(item) {
			var zero T
			return zero, false, nil
		}
		v, err := t.decode(op, item)
		return v, err == nil, err
	}
}
