package dynamo

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/internal/avtype"
	"github.com/dynamogo/dynamo/request"
)

// ReadOp is one item read of [Repo.TransactGet] or [Repo.BatchGet], of any
// table; build it with [Table.GetOp] and read its result from the *Read[T]
// after the call.
type ReadOp interface {
	readOp() *readOp
}

// readOp is what the repo needs of a read, whatever its item type.
type readOp struct {
	table  string
	pk, sk string // the table's key attribute names
	key    request.GetKey
	// id identifies the item among a batch's answers (avtype.KeyID); "" when
	// the key does not build, which the request builder reports.
	id  string
	set func(op string, item map[string]types.AttributeValue) error
}

// Read is one read of an item of T: build it with [Table.GetOp], pass it to
// [Repo.TransactGet] or [Repo.BatchGet], then call Item.
type Read[T any] struct {
	t     *Table[T]
	key   T
	item  T
	found bool
}

// GetOp is a read of the item whose key fields are set on key, for
// [Repo.TransactGet] and [Repo.BatchGet].
func (t *Table[T]) GetOp(key T) *Read[T] { return &Read[T]{t: t, key: key} }

// Item returns the item read and true, or the zero T and false when there
// was none (or the read has not run).
func (g *Read[T]) Item() (T, bool) { return g.item, g.found }

func (g *Read[T]) readOp() *readOp {
	s := g.t.schema
	op := &readOp{table: s.Table(), key: request.KeyOf(s, g.key)}
	op.pk, op.sk = s.KeyNames()
	if k, err := s.PrimaryKey(g.key); err == nil {
		op.id = avtype.KeyID(op.table, k.Map(), k.PKName, k.SKName)
	}
	op.set = func(name string, item map[string]types.AttributeValue) error {
		var zero T
		g.item, g.found = zero, false
		if item == nil {
			return nil
		}
		v, err := g.t.load(name, item)
		if err != nil {
			return err
		}
		g.item, g.found = v, true
		return nil
	}
	return op
}

func readOps(reads []ReadOp) ([]*readOp, []request.GetKey) {
	ops := make([]*readOp, len(reads))
	keys := make([]request.GetKey, len(reads))
	for i, r := range reads {
		ops[i] = r.readOp()
		keys[i] = ops[i].key
	}
	return ops, keys
}

type txGetAPI interface {
	TransactGetItems(ctx context.Context, in *dynamodb.TransactGetItemsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error)
}

// TransactGet reads 1 to 100 items, of any schemas and tables, atomically
// (TransactGetItems): all as they were at one point in time. Each *Read
// holds its item afterwards. A transaction refused for a conflict with a
// write is sent again as WithConflictRetries allows. Items that do not
// load are one ErrDecode with their keys in Error.Keys; the other reads
// still hold theirs.
//
//	o, u := orders.GetOp(orderKey), users.GetOp(userKey)
//	err := repo.TransactGet(ctx, []dynamo.ReadOp{o, u})
//	order, found := o.Item()
func (r *Repo) TransactGet(ctx context.Context, reads []ReadOp, opts ...TxGetOption) error {
	const op = "TransactGetItems"
	ops, keys := readOps(reads)
	in, err := request.TransactGet(keys, opts...)
	var tables []string
	if err == nil {
		tables = tablesOf(in)
	}
	return r.run(ctx, op, tables, func(ctx context.Context) error {
		if err != nil {
			return invalid(op, err)
		}
		api, ok := r.api.(txGetAPI)
		if !ok {
			return invalidf(op, "the client given to FromClient does not implement %s", op)
		}
		var out *dynamodb.TransactGetItemsOutput
		err := r.retryConflicts(ctx, true, func(ctx context.Context) error {
			var err error
			out, err = api.TransactGetItems(ctx, in, r.callOpts...)
			return mapError(op, oneTable(tables), err)
		})
		if err != nil {
			return err
		}
		var bad []*Error
		for i, o := range ops {
			var item map[string]types.AttributeValue
			if i < len(out.Responses) {
				item = out.Responses[i].Item
			}
			if err := o.set(op, item); err != nil {
				bad = append(bad, err.(*Error))
			}
		}
		return decodeErrors(bad)
	})
}

// BatchGet reads any number of items, of any schemas and tables, in
// BatchGetItem requests of at most 100 keys, one after the other; each
// *Read holds its item afterwards (found false when there is none).
// Unprocessed keys are re-sent with backoff up to the repo's batch retries;
// the reads still unprocessed are returned. Consistent and Project apply to
// every read. Items that do not load are one ErrDecode with their keys in
// Error.Keys; the other reads still hold theirs.
func (r *Repo) BatchGet(ctx context.Context, reads []ReadOp, opts ...BatchGetOption) (unprocessed []ReadOp, err error) {
	const op = "BatchGetItem"
	if len(reads) == 0 {
		return nil, nil
	}
	ops, keys := readOps(reads)
	tables := map[string]bool{}
	for _, o := range ops {
		tables[o.table] = true
	}
	err = r.run(ctx, op, sortedKeys(tables), func(ctx context.Context) error {
		var bad []*Error
		for start := 0; start < len(ops); start += request.MaxBatchGet {
			end := min(start+request.MaxBatchGet, len(ops))
			in, err := request.BatchGet(keys[start:end], opts...)
			if err != nil {
				return invalid(op, err)
			}
			// Answers are matched to reads by table and key.
			byID := map[string]int{}
			names := map[string]*readOp{}
			for i := start; i < end; i++ {
				byID[ops[i].id] = i
				names[ops[i].table] = ops[i]
				ops[i].set(op, nil)
			}
			find := func(table string, item map[string]types.AttributeValue) (int, bool) {
				n := names[table]
				if n == nil {
					return 0, false
				}
				i, ok := byID[avtype.KeyID(table, item, n.pk, n.sk)]
				return i, ok
			}
			left, err := sendBatch(ctx, r, in, func(ctx context.Context, in *dynamodb.BatchGetItemInput) (*dynamodb.BatchGetItemInput, error) {
				out, err := r.api.BatchGetItem(ctx, in, r.callOpts...)
				if err != nil {
					return nil, mapError(op, oneTable(sortedKeys(in.RequestItems)), err)
				}
				for table, items := range out.Responses {
					for _, item := range items {
						i, ok := find(table, item)
						if !ok {
							continue
						}
						if err := ops[i].set(op, item); err != nil {
							bad = append(bad, err.(*Error))
						}
					}
				}
				if len(out.UnprocessedKeys) == 0 {
					return nil, nil
				}
				next := *in
				next.RequestItems = out.UnprocessedKeys
				return &next, nil
			})
			if left != nil {
				for table, ka := range left.RequestItems {
					for _, k := range ka.Keys {
						if i, ok := find(table, k); ok {
							unprocessed = append(unprocessed, reads[i])
						}
					}
				}
			}
			if err != nil {
				unprocessed = append(unprocessed, reads[end:]...)
				return err
			}
		}
		return decodeErrors(bad)
	})
	return unprocessed, err
}
