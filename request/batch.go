package request

import (
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/internal/avtype"
	"github.com/dynamogo/dynamo/schema"
)

// WriteOp is one entry of a BatchWrite: PutOp or DeleteOp, of any schema.
type WriteOp interface {
	writeOp(now time.Time) (table string, req types.WriteRequest, id string, err error)
}

type writeOp func(now time.Time) (string, types.WriteRequest, string, error)

func (f writeOp) writeOp(now time.Time) (string, types.WriteRequest, string, error) { return f(now) }

// PutOp is a BatchWrite entry writing v (PutRequest), its timestamps set
// as Put sets them. Batch writes take no conditions; use a transaction for
// conditional writes. A schema with a version field is refused, as the
// batch could not keep its lock.
func PutOp[T any](s *schema.Schema[T], v T) WriteOp {
	return writeOp(func(now time.Time) (string, types.WriteRequest, string, error) {
		if err := unbatchable(s, "PutRequest"); err != nil {
			return "", types.WriteRequest{}, "", err
		}
		item, err := s.DumpPut(v, now)
		if err != nil {
			return "", types.WriteRequest{}, "", err
		}
		pk, sk := s.KeyNames()
		return s.Table(), types.WriteRequest{PutRequest: &types.PutRequest{Item: item}}, avtype.KeyID(s.Table(), item, pk, sk), nil
	})
}

// DeleteOp is a BatchWrite entry deleting the item whose key fields are set
// on key (DeleteRequest). A schema with a version field is refused, as the
// batch could not keep its lock.
func DeleteOp[T any](s *schema.Schema[T], key T) WriteOp {
	return writeOp(func(time.Time) (string, types.WriteRequest, string, error) {
		if err := unbatchable(s, "DeleteRequest"); err != nil {
			return "", types.WriteRequest{}, "", err
		}
		k, err := s.PrimaryKey(key)
		if err != nil {
			return "", types.WriteRequest{}, "", err
		}
		m := k.Map()
		return s.Table(), types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: m}}, avtype.KeyID(s.Table(), m, k.PKName, k.SKName), nil
	})
}

// BatchWrite builds one BatchWriteItem of at most 25 entries, grouped per
// table in RequestItems, each table's entries in the order given. The same
// item twice in one request is an error, as DynamoDB answers ("Provided list
// of item keys contains duplicates"). Chunking longer lists is the repo's
// job.
func BatchWrite(ops []WriteOp, opts ...BatchWriteOption) (*dynamodb.BatchWriteItemInput, error) {
	const op = "BatchWriteItem"
	c := collect(opts)
	if err := checkCapacity(op, c); err != nil {
		return nil, err
	}
	if len(ops) == 0 {
		return nil, errorf(op, "no items")
	}
	if len(ops) > MaxBatchWrite {
		return nil, errorf(op, "%d items: at most %d per request", len(ops), MaxBatchWrite)
	}
	items := make(map[string][]types.WriteRequest)
	seen := make(map[string]int, len(ops))
	now := c.clock()
	for i, o := range ops {
		if o == nil {
			return nil, errorf(op, "item %d is nil", i)
		}
		table, req, id, err := o.writeOp(now)
		if err != nil {
			return nil, &Error{Op: op, Msg: "item " + strconv.Itoa(i), Err: err}
		}
		if j, dup := seen[id]; dup {
			return nil, errorf(op, "items %d and %d are the same item; one request may touch an item once", j, i)
		}
		seen[id] = i
		items[table] = append(items[table], req)
	}
	return &dynamodb.BatchWriteItemInput{RequestItems: items, ReturnConsumedCapacity: c.capacity}, nil
}

// GetKey is one entry of a BatchGet: KeyOf, of any schema.
type GetKey interface {
	getKey() (table string, key map[string]types.AttributeValue, id string, enc expr.Encoder, err error)
}

type getKey func() (string, map[string]types.AttributeValue, string, expr.Encoder, error)

func (f getKey) getKey() (string, map[string]types.AttributeValue, string, expr.Encoder, error) {
	return f()
}

// KeyOf is a BatchGet entry for the item whose key fields are set on key.
func KeyOf[T any](s *schema.Schema[T], key T) GetKey {
	return getKey(func() (string, map[string]types.AttributeValue, string, expr.Encoder, error) {
		k, err := s.PrimaryKey(key)
		if err != nil {
			return "", nil, "", nil, err
		}
		m := k.Map()
		return s.Table(), m, avtype.KeyID(s.Table(), m, k.PKName, k.SKName), s, nil
	})
}

// BatchGet builds one BatchGetItem of at most 100 keys, grouped per table.
// Consistent and Project apply to every table. The same key twice is an
// error, as DynamoDB answers.
func BatchGet(keys []GetKey, opts ...BatchGetOption) (*dynamodb.BatchGetItemInput, error) {
	const op = "BatchGetItem"
	c := collect(opts)
	if err := checkCapacity(op, c); err != nil {
		return nil, err
	}
	if len(keys) == 0 {
		return nil, errorf(op, "no keys")
	}
	if len(keys) > MaxBatchGet {
		return nil, errorf(op, "%d keys: at most %d per request", len(keys), MaxBatchGet)
	}
	if c.projSet && len(c.projection) == 0 {
		return nil, errorf(op, "projection names no attributes")
	}
	items := make(map[string]types.KeysAndAttributes)
	err := eachKey(op, keys, "DynamoDB rejects duplicate keys", func(_ int, table string, key map[string]types.AttributeValue, enc expr.Encoder) error {
		ka, ok := items[table]
		if !ok {
			if c.consistent {
				ka.ConsistentRead = aws.Bool(true)
			}
			if c.projSet {
				x := newExprs(enc)
				var err error
				if ka.ProjectionExpression, err = x.projection(op, enc, c.projection); err != nil {
					return err
				}
				ka.ExpressionAttributeNames = x.b.Names()
			}
		}
		ka.Keys = append(ka.Keys, key)
		items[table] = ka
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &dynamodb.BatchGetItemInput{RequestItems: items, ReturnConsumedCapacity: c.capacity}, nil
}

// eachKey builds keys in order and calls f with each, rejecting a nil key, a
// key that cannot be built and two keys for one item (why says why DynamoDB
// refuses those): the rules BatchGet and TransactGet share.
func eachKey(op string, keys []GetKey, why string, f func(i int, table string, key map[string]types.AttributeValue, enc expr.Encoder) error) error {
	seen := make(map[string]int, len(keys))
	for i, k := range keys {
		if k == nil {
			return errorf(op, "key %d is nil", i)
		}
		table, key, id, enc, err := k.getKey()
		if err != nil {
			return &Error{Op: op, Msg: "key " + strconv.Itoa(i), Err: err}
		}
		if j, dup := seen[id]; dup {
			return errorf(op, "keys %d and %d are the same item; %s", j, i, why)
		}
		seen[id] = i
		if err := f(i, table, key, enc); err != nil {
			return err
		}
	}
	return nil
}
