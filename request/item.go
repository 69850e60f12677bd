package request

import (
	"maps"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/expr/parse"
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
	in, table, _ := newInput[dynamodb.GetItemInput](s.Table(), "")
	*in = dynamodb.GetItemInput{
		TableName:              table,
		Key:                    k.Map(),
		ReturnConsumedCapacity: c.capacity,
	}
	if c.consistent {
		in.ConsistentRead = aws.Bool(true)
	}
	if c.projSet {
		x := newExprs(s)
		if in.ProjectionExpression, err = x.projection(op, s, c.projection); err != nil {
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
	item, err := s.DumpPut(v, stampTime(s, c))
	if err != nil {
		return nil, wrap(op, err)
	}
	lock(s, c, s.VersionOf(v))
	in, table, _ := newInput[dynamodb.PutItemInput](s.Table(), "")
	*in = dynamodb.PutItemInput{
		TableName:                           table,
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
	lock(s, c, s.VersionOf(key))
	in, table, _ := newInput[dynamodb.DeleteItemInput](s.Table(), "")
	*in = dynamodb.DeleteItemInput{
		TableName:                           table,
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
	x := newExprs(s)
	update, err := updateExpr(op, s, x, changes, lifecycleChanges(s, s.NextVersion(key), stampTime(s, c)))
	if err != nil {
		return nil, err
	}
	lock(s, c, s.VersionOf(key))
	in, table, _ := newInput[dynamodb.UpdateItemInput](s.Table(), "")
	*in = dynamodb.UpdateItemInput{
		TableName:                           table,
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

// updated is what an update needs of a schema: the key attributes, which
// may not change, and the entity attribute, version and timestamps, which
// the library owns.
type updated interface {
	IsKeyAttr(attr string) bool
	EntityAttribute() string
	lifecycled
}

// updateExpr renders the changes and the library's own (owned: version and
// timestamps), and adds SET m = if_not_exists(m, :entity) for the entity
// attribute m: an update that creates an item (or touches one written
// without the attribute) marks it, and never relabels an item that already
// carries an entity, whose read then refuses it as another entity's.
func updateExpr(op string, s updated, x exprs, changes, owned []expr.Change) (*string, error) {
	marker := s.EntityAttribute()
	version, created, updatedAt := s.Lifecycle()
	check := func(attr string) error {
		switch {
		case s.IsKeyAttr(attr):
			return fieldErr(op, attr, "key attributes cannot be updated; delete the item and put it again (atomically with a transaction)")
		case marker != "" && attr == marker:
			return fieldErr(op, attr, "the entity attribute is written by the library; it cannot be updated")
		case attr != "" && (attr == version || attr == created || attr == updatedAt):
			return fieldErr(op, attr, "the version and timestamp fields are written by the library; they cannot be updated")
		}
		return nil
	}
	if len(changes) == 1 && changes[0].IsRaw() {
		if len(owned) > 0 {
			return nil, errorf(op, "entity %q has version or timestamp fields, which a raw update expression cannot keep; use the expr changes", s.Entity())
		}
		raw, err := markRaw(op, changes[0].Raw(), check, marker, s.Entity())
		if err != nil {
			return nil, err
		}
		changes = []expr.Change{raw}
	} else {
		for _, ch := range changes {
			if ch.IsRaw() {
				continue // the builder refuses a raw update among others
			}
			if p := ch.Path(); len(p) > 0 && !p[0].IsIndex {
				if err := check(p[0].Name); err != nil {
					return nil, err
				}
			}
		}
		if len(changes) > 0 {
			changes = append(changes[:len(changes):len(changes)], owned...)
			if marker != "" {
				changes = append(changes, expr.IfNotExists(marker, s.Entity()))
			}
		}
	}
	text, err := x.b.Update(changes)
	if err != nil {
		return nil, wrap(op, err)
	}
	return aws.String(text), nil
}

// markRaw checks the attributes a raw update expression writes and adds the
// entity attribute's action to its SET clause, under placeholders the raw
// expression does not use.
func markRaw(op string, raw *expr.Raw, check func(string) error, marker, entity string) (expr.Change, error) {
	u, err := parse.Update(raw.Text)
	if err != nil {
		return expr.Change{}, wrap(op, err)
	}
	name := func(p expr.Path) string {
		if len(p) == 0 || p[0].IsIndex {
			return ""
		}
		if !strings.HasPrefix(p[0].Name, "#") {
			return p[0].Name
		}
		if n, ok := raw.Names[p[0].Name]; ok {
			return n
		}
		return raw.Names[p[0].Name[1:]]
	}
	var paths []expr.Path
	for _, a := range u.Set {
		paths = append(paths, a.Path)
	}
	paths = append(paths, u.Remove...)
	for _, a := range u.Add {
		paths = append(paths, a.Path)
	}
	for _, a := range u.Delete {
		paths = append(paths, a.Path)
	}
	for _, p := range paths {
		if err := check(name(p)); err != nil {
			return expr.Change{}, err
		}
	}
	if marker == "" {
		return expr.RawUpdate(raw.Text, raw.Names, raw.Values), nil
	}
	free := func(sigil string, used func(string) bool) string {
		ph := "entity"
		for i := 1; used(sigil+ph) || used(ph); i++ {
			ph = "entity" + strconv.Itoa(i)
		}
		return sigil + ph
	}
	n := free("#", func(k string) bool { _, ok := raw.Names[k]; return ok })
	v := free(":", func(k string) bool { _, ok := raw.Values[k]; return ok })
	m := expr.Path{{Name: n}}
	u.Set = append(u.Set, expr.SetAction{Path: m, Value: &expr.Func{Name: "if_not_exists", Args: []expr.Operand{m, &expr.Value{Placeholder: v}}}})
	names := maps.Clone(raw.Names)
	if names == nil {
		names = map[string]string{}
	}
	names[n] = marker
	values := maps.Clone(raw.Values)
	if values == nil {
		values = map[string]any{}
	}
	values[v] = entity
	return expr.RawUpdate(expr.PrintUpdate(u), names, values), nil
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
