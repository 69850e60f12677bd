package dynamo

import (
	"context"
	"iter"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/request"
	"github.com/dynamogo/dynamo/schema"
)

// QueryCollection reads one page of a collection's partition: the
// partition named by key, a value of one member's type with its
// partition-key fields set. Page.Items holds every member's items in sort-key
// order, each a value of its own type (ItemsOf picks one member's; a type
// switch reads them all); items of entities outside the collection are
// skipped. Without a Sort option the whole partition is read (the sort-key
// fields of key are ignored); SortEq … SortBeginsWith compare the whole
// sort key as it is stored (a string such as "order#"), since the members lay
// their sort keys out differently. Index reads a GSI the members share,
// keyed by key's fields. Filter applies to every item, and Where to one
// member's items. Limit and StartAfter(page.Cursor) page as in Query.
//
//	page, err := dynamo.QueryCollection(ctx, repo, CustomerView, Customer{ID: "c1"})
//	orders := dynamo.ItemsOf(page, Orders)
func QueryCollection[K any](ctx context.Context, r *Repo, c *schema.Collection, key K, opts ...QueryOption) (Page[any], error) {
	var p Page[any]
	root, err := collectionRoot[K](c)
	if err != nil {
		return p, err
	}
	t := Bind(r, root)
	err = t.run(ctx, "Query", func(ctx context.Context, op string) error {
		in, err := request.Query(root, key, append([]QueryOption{request.SortNone(), request.WholeSortKey()}, opts...)...)
		if err != nil {
			return invalid(op, err)
		}
		out, err := r.api.Query(ctx, in, r.callOpts...)
		if err != nil {
			return mapError(op, c.Table(), err)
		}
		p = Page[any]{Items: make([]any, 0, len(out.Items)), Count: int(out.Count), ScannedCount: int(out.ScannedCount), ConsumedCapacity: out.ConsumedCapacity}
		decode := collectionDecode(op, c)
		for _, item := range out.Items {
			v, ok, err := decode(item)
			if err != nil {
				return err
			}
			if ok {
				p.Items = append(p.Items, v)
			}
		}
		if p.Cursor, err = request.EncodeCursor(out.LastEvaluatedKey); err != nil {
			return &Error{Type: ErrDecode, Op: op, Table: c.Table(), Message: "cursor: " + err.Error(), cause: err}
		}
		return nil
	})
	if err != nil {
		return Page[any]{}, err
	}
	return p, nil
}

// QueryCollectionStream is QueryCollection read lazily, page after page
// (page size Limit, total cap MaxItems), as values the caller type-switches
// on. An error is yielded once and ends the loop.
func QueryCollectionStream[K any](ctx context.Context, r *Repo, c *schema.Collection, key K, opts ...QueryAllOption) iter.Seq2[any, error] {
	const op = "Query"
	root, err := collectionRoot[K](c)
	if err != nil {
		return func(yield func(any, error) bool) { yield(nil, err) }
	}
	t := Bind(r, root)
	return runStream(ctx, r, op, t.tables(), func(ctx context.Context) (iter.Seq2[any, error], error) {
		in, p, err := request.QueryAll(root, key, append([]QueryAllOption{request.SortNone(), request.WholeSortKey()}, opts...)...)
		if err != nil {
			return nil, invalid(op, err)
		}
		return stream(ctx, in.ExclusiveStartKey, p.MaxItems, t.queryFetch(in), collectionDecode(op, c)), nil
	})
}

// ItemsOf returns the items of s's entity among a collection page's items,
// in order.
func ItemsOf[T any](p Page[any], s *schema.Schema[T]) []T {
	var out []T
	for _, v := range p.Items {
		if t, ok := v.(T); ok {
			out = append(out, t)
		}
	}
	return out
}

// Where is a filter condition for a collection read: it holds for every
// item of another entity, and for s's items where cond holds. Combine
// several with expr.AllOf inside one Filter. The entity test is on the
// entity attribute, server-side: items without it (written by other tools)
// pass unfiltered, because only the client can tell whose they are.
//
//	dynamo.Filter(expr.AllOf(dynamo.Where(Orders, expr.Eq("status", "open")), dynamo.Where(Payments, expr.Gt("amount", 100))))
func Where[T any](s *schema.Schema[T], cond expr.Cond) expr.Cond {
	m := s.EntityAttribute()
	return expr.AnyOf(expr.NotExists(m), expr.Ne(m, s.Entity()), cond)
}

// collectionRoot finds the member whose Go type is K: its partition-key
// fields build the collection's partition key.
func collectionRoot[K any](c *schema.Collection) (*schema.Schema[K], error) {
	for _, m := range c.Members() {
		if s, ok := m.(*schema.Schema[K]); ok {
			return s, nil
		}
	}
	var k K
	return nil, invalidf("Query", "collection %s has no member of type %T", c.Name(), k)
}

func collectionDecode(op string, c *schema.Collection) decodeFunc[any] {
	return func(item map[string]types.AttributeValue) (any, bool, error) {
		v, ok, err := c.Load(item)
		if err != nil {
			return nil, false, &Error{Type: ErrDecode, Op: op, Table: c.Table(), Message: trimPrefix(err.Error()), cause: err}
		}
		return v, ok, nil
	}
}

// CollectionChanges reads the changes of the collection's items from the
// table's DynamoDB stream, as Table.Changes does for one schema: one feed,
// each change's Key, Old and New a value of its member's type (switch on
// Key's type). Items of entities outside the collection are skipped.
func CollectionChanges(ctx context.Context, r *Repo, c *schema.Collection, opts ...ChangesOption) iter.Seq2[Change[any], error] {
	const op = "GetRecords"
	decodeErr := func(err error) error {
		return &Error{Type: ErrDecode, Op: op, Table: c.Table(), Message: trimPrefix(err.Error()), cause: err}
	}
	d := changeDecoder[any]{op: op, table: c.Table(), loader: func(ident rawItem) (func(rawItem) (any, error), error) {
		m, err := c.Owner(ident)
		if err != nil {
			return nil, decodeErr(err)
		}
		if m == nil {
			return nil, nil
		}
		return func(item rawItem) (any, error) {
			v, err := m.LoadAny(item)
			if err != nil {
				return nil, decodeErr(err)
			}
			return v, nil
		}, nil
	}}
	return changes(ctx, r, c.Table(), d, opts)
}
