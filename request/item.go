package request

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/schema"
)

// Get builds a GetItem for the item whose key fields are set on key. The
// full primary key is required.
func Get[T any](s *schema.Schema[T], key T, opts ...GetOption) (*dynamodb.GetItemInput, error) {
	const op = "GetItem"
	c := collect(opts)
	if err := checkCapacity(op, c); err != nil {
		return nil, err
	}
	k, err := s.PrimaryKey(key)
	if err != nil {
		return nil, wrap(op, err)
	}
	in := &dynamodb.GetItemInput{
		TableName:              aws.String(s.Table()),
		Key:                    k.Map(),
		ReturnConsumedCapacity: c.capacity,
	}
	if c.consistent {
		in.ConsistentRead = aws.Bool(true)
	}
	if c.projSet {
		x := exprs{expr.NewBuilder(s)}
		if in.ProjectionExpression, err = x.projection(op, c.projection); err != nil {
			return nil, err
		}
		in.ExpressionAttributeNames = x.b.Names()
	}
	return in, nil
}

// Put builds a PutItem writing v with its generated keys, defaults and
// required fields checked.
func Put[T any](s *schema.Schema[T], v T, opts ...PutOption) (*dynamodb.PutItemInput, error) {
	const op = "PutItem"
	c := collect(opts)
	if err := checkWrite(op, c, false); err != nil {
		return nil, err
	}
	item, err := s.Dump(v)
	if err != nil {
		return nil, wrap(op, err)
	}
	in := &dynamodb.PutItemInput{
		TableName:                           aws.String(s.Table()),
		Item:                                item,
		ReturnValues:                        c.returnValues,
		ReturnValuesOnConditionCheckFailure: c.onCondFail,
		ReturnConsumedCapacity:              c.capacity,
	}
	if in.ConditionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues, err = ifCondition(op, s, c); err != nil {
		return nil, err
	}
	return in, nil
}

// Delete builds a DeleteItem for the item whose key fields are set on key.
func Delete[T any](s *schema.Schema[T], key T, opts ...DeleteOption) (*dynamodb.DeleteItemInput, error) {
	const op = "DeleteItem"
	c := collect(opts)
	if err := checkWrite(op, c, false); err != nil {
		return nil, err
	}
	k, err := s.PrimaryKey(key)
	if err != nil {
		return nil, wrap(op, err)
	}
	in := &dynamodb.DeleteItemInput{
		TableName:                           aws.String(s.Table()),
		Key:                                 k.Map(),
		ReturnValues:                        c.returnValues,
		ReturnValuesOnConditionCheckFailure: c.onCondFail,
		ReturnConsumedCapacity:              c.capacity,
	}
	if in.ConditionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues, err = ifCondition(op, s, c); err != nil {
		return nil, err
	}
	return in, nil
}

// Update builds an UpdateItem applying the changes among args (expr.Set,
// expr.Increment, …, in order) to the item whose key fields are set on key;
// the other args are options. A change to a key attribute (a field feeding
// the table's partition or sort key, or the key attribute itself) is an
// error: delete the item and put it again, in a transaction if it must be
// atomic.
func Update[T any](s *schema.Schema[T], key T, args ...UpdateOption) (*dynamodb.UpdateItemInput, error) {
	const op = "UpdateItem"
	c, changes := collectUpdate(args)
	if err := checkWrite(op, c, true); err != nil {
		return nil, err
	}
	k, err := s.PrimaryKey(key)
	if err != nil {
		return nil, wrap(op, err)
	}
	x := exprs{expr.NewBuilder(s)}
	update, err := updateExpr(op, s, x, changes)
	if err != nil {
		return nil, err
	}
	in := &dynamodb.UpdateItemInput{
		TableName:                           aws.String(s.Table()),
		Key:                                 k.Map(),
		UpdateExpression:                    update,
		ReturnValues:                        c.returnValues,
		ReturnValuesOnConditionCheckFailure: c.onCondFail,
		ReturnConsumedCapacity:              c.capacity,
	}
	if c.condSet {
		if in.ConditionExpression, err = x.cond(op, c.cond, "c"); err != nil {
			return nil, err
		}
	}
	in.ExpressionAttributeNames, in.ExpressionAttributeValues = x.b.Names(), x.b.Values()
	return in, nil
}

// collectUpdate splits the arguments of Update or TxUpdate into the changes,
// in order, and the options applied to a fresh config.
func collectUpdate[A any](args []A) (*config, []expr.Change) {
	c := new(config)
	var changes []expr.Change
	for _, a := range args {
		switch v := any(a).(type) {
		case expr.Change:
			changes = append(changes, v)
		case option:
			v.apply(c)
		}
	}
	return c, changes
}

// keyAttrs is what Update needs of a schema to refuse key changes.
type keyAttrs interface{ IsKeyAttr(attr string) bool }

func updateExpr(op string, s keyAttrs, x exprs, changes []expr.Change) (*string, error) {
	for _, ch := range changes {
		if ch.IsRaw() {
			continue
		}
		if p := ch.Path(); len(p) > 0 && !p[0].IsIndex && s.IsKeyAttr(p[0].Name) {
			return nil, fieldErr(op, p[0].Name, "key attributes cannot be updated; delete the item and put it again (atomically with a transaction)")
		}
	}
	text, err := x.b.Update(changes)
	if err != nil {
		return nil, wrap(op, err)
	}
	return aws.String(text), nil
}

// checkWrite validates the options of Put, Delete and Update. Put and Delete
// accept only NONE and ALL_OLD return values (API reference, PutItem and
// DeleteItem: "ReturnValues").
func checkWrite(op string, c *config, update bool) error {
	switch c.returnValues {
	case "", types.ReturnValueNone, types.ReturnValueAllOld:
	case types.ReturnValueAllNew, types.ReturnValueUpdatedOld, types.ReturnValueUpdatedNew:
		if !update {
			return errorf(op, "ReturnValues %s: only NONE and ALL_OLD are allowed", c.returnValues)
		}
	default:
		return errorf(op, "ReturnValues %q: want NONE, ALL_OLD, UPDATED_OLD, ALL_NEW or UPDATED_NEW", c.returnValues)
	}
	if err := checkOnCondFail(op, c); err != nil {
		return err
	}
	return checkCapacity(op, c)
}
