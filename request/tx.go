package request

import (
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/internal/avtype"
	"github.com/dynamogo/dynamo/internal/limits"
	"github.com/dynamogo/dynamo/schema"
)

// TxOp is one operation of TransactWrite: TxPut, TxUpdate, TxDelete or
// TxCheck, of any schema. The interface is sealed.
type TxOp interface {
	txOp(now time.Time) (item types.TransactWriteItem, id string, err error)
}

type txOp func(now time.Time) (types.TransactWriteItem, string, error)

func (f txOp) txOp(now time.Time) (types.TransactWriteItem, string, error) { return f(now) }

func txConfig(op string, opts []TxOpOption) (*config, error) {
	c := collect(opts)
	return c, checkOnCondFail(op, c)
}

// txKeyed is the start TxUpdate, TxDelete and TxCheck share: the options
// checked (If refused unless allowIf), then the item's key and the id that
// spots a second operation on the same item.
func txKeyed[T any](op string, s *schema.Schema[T], key T, c *config, allowIf bool) (map[string]types.AttributeValue, string, error) {
	if err := checkOnCondFail(op, c); err != nil {
		return nil, "", err
	}
	if !allowIf && c.condSet {
		return nil, "", errorf(op, "the condition is TxCheck's argument; If is not allowed here")
	}
	k, err := s.PrimaryKey(key)
	if err != nil {
		return nil, "", err
	}
	m := k.Map()
	return m, avtype.KeyID(s.Table(), m, k.PKName, k.SKName), nil
}

// TxPut writes v in a transaction; If adds its condition.
func TxPut[T any](s *schema.Schema[T], v T, opts ...TxOpOption) TxOp {
	return txOp(func(now time.Time) (types.TransactWriteItem, string, error) {
		const op = "Put"
		c, err := txConfig(op, opts)
		if err != nil {
			return types.TransactWriteItem{}, "", err
		}
		item, err := s.DumpPut(v, now)
		if err != nil {
			return types.TransactWriteItem{}, "", err
		}
		lock(s, c, s.VersionOf(v))
		p := &types.Put{TableName: aws.String(s.Table()), Item: item, ReturnValuesOnConditionCheckFailure: c.onCondFail}
		if p.ConditionExpression, p.ExpressionAttributeNames, p.ExpressionAttributeValues, err = ifCondition(op, s, c); err != nil {
			return types.TransactWriteItem{}, "", err
		}
		pk, sk := s.KeyNames()
		return types.TransactWriteItem{Put: p}, avtype.KeyID(s.Table(), item, pk, sk), nil
	})
}

// TxUpdate applies the changes among args to the item whose key fields are
// set on key, in a transaction; the other args are options. Key attributes
// cannot be changed, as in Update.
func TxUpdate[T any](s *schema.Schema[T], key T, args ...TxUpdateOption) TxOp {
	return txOp(func(now time.Time) (types.TransactWriteItem, string, error) {
		const op = "Update"
		c, changes := collectUpdate(args)
		m, id, err := txKeyed(op, s, key, c, true)
		if err != nil {
			return types.TransactWriteItem{}, "", err
		}
		x := newExprs(s)
		update, err := updateExpr(op, s, x, changes, lifecycleChanges(s, s.NextVersion(key), now))
		if err != nil {
			return types.TransactWriteItem{}, "", err
		}
		lock(s, c, s.VersionOf(key))
		u := &types.Update{TableName: aws.String(s.Table()), Key: m, UpdateExpression: update, ReturnValuesOnConditionCheckFailure: c.onCondFail}
		if c.condSet {
			if u.ConditionExpression, err = x.cond(op, c.cond, "c"); err != nil {
				return types.TransactWriteItem{}, "", err
			}
		}
		u.ExpressionAttributeNames, u.ExpressionAttributeValues = x.b.Names(), x.b.Values()
		return types.TransactWriteItem{Update: u}, id, nil
	})
}

// TxDelete deletes the item whose key fields are set on key, in a
// transaction.
func TxDelete[T any](s *schema.Schema[T], key T, opts ...TxOpOption) TxOp {
	return txOp(func(time.Time) (types.TransactWriteItem, string, error) {
		const op = "Delete"
		c := collect(opts)
		m, id, err := txKeyed(op, s, key, c, true)
		if err != nil {
			return types.TransactWriteItem{}, "", err
		}
		lock(s, c, s.VersionOf(key))
		d := &types.Delete{TableName: aws.String(s.Table()), Key: m, ReturnValuesOnConditionCheckFailure: c.onCondFail}
		if d.ConditionExpression, d.ExpressionAttributeNames, d.ExpressionAttributeValues, err = ifCondition(op, s, c); err != nil {
			return types.TransactWriteItem{}, "", err
		}
		return types.TransactWriteItem{Delete: d}, id, nil
	})
}

// TxCheck makes the transaction depend on cond holding for the item whose
// key fields are set on key (ConditionCheck), without writing it.
func TxCheck[T any](s *schema.Schema[T], key T, cond expr.Cond, opts ...TxOpOption) TxOp {
	return txOp(func(time.Time) (types.TransactWriteItem, string, error) {
		const op = "ConditionCheck"
		c := collect(opts)
		m, id, err := txKeyed(op, s, key, c, false)
		if err != nil {
			return types.TransactWriteItem{}, "", err
		}
		x := newExprs(s)
		cc := &types.ConditionCheck{TableName: aws.String(s.Table()), Key: m, ReturnValuesOnConditionCheckFailure: c.onCondFail}
		if cc.ConditionExpression, err = x.cond(op, cond, "c"); err != nil {
			return types.TransactWriteItem{}, "", err
		}
		cc.ExpressionAttributeNames, cc.ExpressionAttributeValues = x.b.Names(), x.b.Values()
		return types.TransactWriteItem{ConditionCheck: cc}, id, nil
	})
}

// TransactWrite builds a TransactWriteItems of 1 to 100 operations across
// schemas and tables. Two operations on the same item are an error before
// sending, as DynamoDB would answer ("Transaction request cannot include
// multiple operations on one item"): fold a check into the write's If.
func TransactWrite(ops []TxOp, opts ...TxOption) (*dynamodb.TransactWriteItemsInput, error) {
	const op = "TransactWriteItems"
	c := collect(opts)
	if err := checkCapacity(op, c); err != nil {
		return nil, err
	}
	if len(ops) == 0 {
		return nil, errorf(op, "no operations")
	}
	if len(ops) > MaxTxItems {
		return nil, errorf(op, "%d operations: at most %d per transaction", len(ops), MaxTxItems)
	}
	// API reference, TransactWriteItems: ClientRequestToken 1–36 characters.
	if n := len(c.token); c.token != "" && n > limits.MaxClientTokenLen {
		return nil, errorf(op, "ClientRequestToken of %d characters: at most %d", n, limits.MaxClientTokenLen)
	}
	items := make([]types.TransactWriteItem, len(ops))
	seen := make(map[string]int, len(ops))
	now := c.clock()
	for i, o := range ops {
		if o == nil {
			return nil, errorf(op, "operation %d is nil", i)
		}
		item, id, err := o.txOp(now)
		if err != nil {
			return nil, &Error{Op: op, Msg: "operation " + strconv.Itoa(i), Err: err}
		}
		if j, dup := seen[id]; dup {
			return nil, errorf(op, "operations %d and %d touch the same item; a transaction may include one operation per item", j, i)
		}
		seen[id] = i
		items[i] = item
	}
	in := &dynamodb.TransactWriteItemsInput{TransactItems: items, ReturnConsumedCapacity: c.capacity}
	if c.token != "" {
		in.ClientRequestToken = aws.String(c.token)
	}
	return in, nil
}

// TransactGet builds a TransactGetItems reading 1 to 100 items across
// schemas and tables atomically: all as of one point in time. Project
// applies to every item. The same item twice is an error.
func TransactGet(keys []GetKey, opts ...TxGetOption) (*dynamodb.TransactGetItemsInput, error) {
	const op = "TransactGetItems"
	c := collect(opts)
	switch c.capacity {
	case "", types.ReturnConsumedCapacityNone, types.ReturnConsumedCapacityTotal:
	default:
		// API reference, TransactGetItems: "only TOTAL or NONE".
		return nil, errorf(op, "ConsumedCapacity %q: TransactGetItems accepts TOTAL or NONE", c.capacity)
	}
	if len(keys) == 0 {
		return nil, errorf(op, "no keys")
	}
	if len(keys) > MaxTxItems {
		return nil, errorf(op, "%d keys: at most %d per transaction", len(keys), MaxTxItems)
	}
	items := make([]types.TransactGetItem, len(keys))
	err := eachKey(op, keys, "a transaction may include one operation per item", func(i int, table string, key map[string]types.AttributeValue, enc expr.Encoder) error {
		g := &types.Get{TableName: aws.String(table), Key: key}
		if c.projSet {
			x := newExprs(enc)
			var err error
			if g.ProjectionExpression, err = x.projection(op, enc, c.projection); err != nil {
				return err
			}
			g.ExpressionAttributeNames = x.b.Names()
		}
		items[i] = types.TransactGetItem{Get: g}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &dynamodb.TransactGetItemsInput{TransactItems: items, ReturnConsumedCapacity: c.capacity}, nil
}
