package eval

import (
	"bytes"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/internal/avtype"
	"github.com/dynamogo/dynamo/internal/numbers"
)

// update is a resolved UpdateExpression.
type update struct {
	set    []setAction
	remove []path
	add    []pathValue
	delete []pathValue
	heads  []string  // top-level attributes the actions touch, in order
	paths  *projNode // every path acted on, for UpdatedAttributes
	flat   bool      // every path is one of heads (docPaths.flat)
}

// updateBlock is an update with room for the actions of most expressions:
// one allocation rather than one per kind of action.
type updateBlock struct {
	u   update
	set [2]setAction
	add [2]pathValue
}

type setAction struct {
	path  path
	value *operand
}

type pathValue struct {
	path  path
	value types.AttributeValue
}

func (r *resolver) updateExpr(parsed *parsed) (*update, error) {
	if parsed.err != nil {
		return nil, exprErr(parsed.err)
	}
	ast := parsed.update
	r.begin("UpdateExpression")
	// First the paths acted on, which may not overlap; then the values.
	d, err := r.docPaths(parsed)
	if err != nil {
		return nil, err
	}
	paths := d.paths
	blk := r.slab.update
	if blk == nil {
		blk = new(updateBlock)
	}
	u := &blk.u
	u.set, u.add = blk.set[:0], blk.add[:0]
	for i, a := range ast.Set {
		v, err := r.operand(a.Value)
		if err != nil {
			return nil, err
		}
		u.set = append(u.set, setAction{paths[i], v})
	}
	u.remove = paths[len(ast.Set) : len(ast.Set)+len(ast.Remove) : len(ast.Set)+len(ast.Remove)]
	rest := paths[len(ast.Set)+len(ast.Remove):]
	for i, a := range ast.Add {
		v, err := r.setOperand("ADD", a)
		if err != nil {
			return nil, err
		}
		u.add = append(u.add, pathValue{rest[i], v})
	}
	for i, a := range ast.Delete {
		v, err := r.setOperand("DELETE", a)
		if err != nil {
			return nil, err
		}
		u.delete = append(u.delete, pathValue{rest[len(ast.Add)+i], v})
	}
	u.heads, u.paths, u.flat = d.heads, d.tree, d.flat
	return u, nil
}

// setOperand resolves the value of an ADD or DELETE action: a set, or a
// number for ADD.
func (r *resolver) setOperand(clause string, a expr.PathValue) (types.AttributeValue, error) {
	v, err := r.value(a.Value)
	if err != nil {
		return nil, err
	}
	if t := avtype.Of(v); !isSetType(t) && (clause == "DELETE" || t != "N") {
		return nil, r.fail("Incorrect operand type for operator or function; operator: " + clause +
			", operand type: " + enumName(t) + ", typeSet: ALLOWED_FOR_" + clause + "_OPERAND")
	}
	return v, nil
}

// UpdatedAttributes returns what ReturnValues UPDATED_OLD (given the item
// before the update) or UPDATED_NEW (given the item after it) returns: only
// the document paths the UpdateExpression acts on, nested paths inside
// their enclosing maps and lists as a projection would return them. It is
// nil without an UpdateExpression or when none of them is in item.
func (c *Compiled) UpdatedAttributes(item Item) Item {
	return c.UpdatedAttributesIn(item, nil)
}

// UpdatedAttributesIn is UpdatedAttributes with the top-level attributes
// of a flat update put in dst, an empty map the caller recycles (nil: a
// new map); the result is dst, nil, or a new map for nested paths.
func (c *Compiled) UpdatedAttributesIn(item, dst Item) Item {
	u := c.update
	if u == nil || item == nil {
		return nil
	}
	var out Item
	if u.flat { // the projection of top-level attributes, without walking its tree
		for _, h := range u.heads {
			if v, ok := item[h]; ok {
				if out == nil {
					if out = dst; out == nil {
						out = make(Item, len(u.heads))
					}
				}
				out[h] = v
			}
		}
		return out
	}
	out = project(u.paths, item)
	if len(out) == 0 {
		return nil
	}
	return out
}

// Update applies the UpdateExpression to item, the current item or, when
// there is none, just its key attributes; item itself is never modified.
// keyAttrs are the table's key attribute names, which no action may touch.
// updated lists the top-level attributes the expression acts on, in the
// order written (SET, REMOVE, ADD, DELETE), for ReturnValues UPDATED_OLD and
// UPDATED_NEW (UpdatedAttributes gives DynamoDB's nested form). Every
// right-hand side is evaluated against item as it was before the update, and
// list indexes name the elements as they were before it, as in DynamoDB.
// newItem shares the values the update did not touch with item: treat both
// as immutable, and updated too (it is the compiled expression's own).
func (c *Compiled) Update(item Item, keyAttrs []string) (newItem Item, updated []string, err error) {
	return c.apply(item, keyAttrs, false, false)
}

// UpdateInPlace is Update writing into item itself rather than into a
// copy: for a caller that owns item (its top-level map; values are never
// modified) and needs it no more as it was. After an error item is left
// partly updated.
func (c *Compiled) UpdateInPlace(item Item, keyAttrs []string) (updated []string, err error) {
	_, updated, err = c.apply(item, keyAttrs, false, true)
	return updated, err
}

// UpdateMissing is Update for an item that does not exist yet: key holds
// just its key attributes, which the new item starts from. It differs from
// Update(key, ...) in one point DynamoDB is lenient about: REMOVE of a
// nested path whose parent is missing is ignored rather than an error,
// since there is nothing to remove it from. newItem is nil when every action
// removes (REMOVE, DELETE): DynamoDB then creates no item at all.
func (c *Compiled) UpdateMissing(key Item, keyAttrs []string) (newItem Item, updated []string, err error) {
	nu, updated, err := c.apply(key, keyAttrs, true, false)
	if err == nil && c.update != nil && len(c.update.set) == 0 && len(c.update.add) == 0 {
		nu = nil
	}
	return nu, updated, err
}

func (c *Compiled) apply(item Item, keyAttrs []string, missing, inPlace bool) (Item, []string, error) {
	u := c.update
	if u == nil {
		return item, nil, nil
	}
	for _, h := range u.heads {
		if slices.Contains(keyAttrs, h) {
			return nil, nil, validation("One or more parameter values were invalid: Cannot update attribute " + h +
				". This attribute is part of the key")
		}
	}
	// A few SET actions, as most updates have, need no allocation here.
	var valuesBuf [4]types.AttributeValue
	var orderBuf [4]int
	values, order := valuesBuf[:0], orderBuf[:0]
	for i, a := range u.set {
		v, err := setValue(item, a.value)
		if err != nil {
			return nil, nil, err
		}
		values, order = append(values, v), append(order, i)
	}
	out := item
	if !inPlace {
		out = make(Item, len(item)+len(u.set)+len(u.add))
		for k, v := range item {
			out[k] = v
		}
	}
	// Elements added to one list are placed in the order of their indexes,
	// and list elements are removed from the highest index down, after every
	// other action, so that each index names the element it named before the
	// update.
	if len(order) > 1 {
		slices.SortStableFunc(order, func(a, b int) int { return comparePaths(u.set[a].path, u.set[b].path) })
	}
	for _, i := range order {
		if err := write(out, u.set[i].path, values[i]); err != nil {
			return nil, nil, err
		}
	}
	for _, a := range u.add {
		if err := add(out, a.path, a.value); err != nil {
			return nil, nil, err
		}
	}
	for _, a := range u.delete {
		if err := deleteFrom(out, a.path, a.value); err != nil {
			return nil, nil, err
		}
	}
	// Removals come last, so that the list indexes of every other action
	// name the elements they named before the update.
	removes := slices.Clone(u.remove)
	slices.SortStableFunc(removes, func(a, b path) int { return comparePaths(b, a) })
	for _, p := range removes {
		if err := remove(out, p); err != nil && !(missing && err == errInvalidPath) {
			return nil, nil, err
		}
	}
	return out, u.heads, nil
}

var (
	errMissing     = validation("The provided expression refers to an attribute that does not exist in the item")
	errType        = validation("An operand in the update expression has an incorrect data type")
	errInvalidPath = validation("The document path provided in the update expression is invalid for update")
)

// IsTypeMismatch reports whether err is an update's operand of the wrong
// type (ADD or DELETE on an attribute of another type, arithmetic on a
// non-number), which the legacy AttributeUpdates words differently.
func IsTypeMismatch(err error) bool { return err == errType }

// setValues is the values of a two-operand SET function's operands
// (list_append, + and -), the first one's error first.
func setValues(item Item, args []*operand) (a, b types.AttributeValue, err error) {
	if a, err = setValue(item, args[0]); err != nil {
		return nil, nil, err
	}
	if b, err = setValue(item, args[1]); err != nil {
		return nil, nil, err
	}
	return a, b, nil
}

// setValue evaluates the right-hand side of a SET action.
func setValue(item Item, o *operand) (types.AttributeValue, error) {
	switch o.kind {
	case opValue:
		return o.val, nil
	case opPath:
		v := lookup(item, o.path)
		if v == nil {
			return nil, errMissing
		}
		return v, nil
	case opIfNotExists:
		if v := lookup(item, o.args[0].path); v != nil {
			return v, nil
		}
		return setValue(item, o.args[1])
	case opListAppend:
		a, b, err := setValues(item, o.args)
		if err != nil {
			return nil, err
		}
		la, ok1 := a.(*types.AttributeValueMemberL)
		lb, ok2 := b.(*types.AttributeValueMemberL)
		if !ok1 || !ok2 {
			return nil, errType
		}
		l := make([]types.AttributeValue, 0, len(la.Value)+len(lb.Value))
		return &types.AttributeValueMemberL{Value: append(append(l, la.Value...), lb.Value...)}, nil
	case opArith:
		a, b, err := setValues(item, o.args)
		if err != nil {
			return nil, err
		}
		x, err := number(a)
		if err != nil {
			return nil, err
		}
		y, err := number(b)
		if err != nil {
			return nil, err
		}
		var z numbers.Dec
		if o.arith == '+' {
			z, err = numbers.Add(x, y)
		} else {
			z, err = numbers.Sub(x, y)
		}
		if err != nil {
			return nil, validation(numMsg(err))
		}
		return &types.AttributeValueMemberN{Value: z.String()}, nil
	}
	return nil, errType
}

func number(av types.AttributeValue) (numbers.Dec, error) {
	n, ok := av.(*types.AttributeValueMemberN)
	if !ok {
		return numbers.Dec{}, errType
	}
	d, err := numbers.Parse(n.Value)
	if err != nil {
		return numbers.Dec{}, validation(numMsg(err))
	}
	return d, nil
}

// comparePaths orders paths element by element, list indexes numerically.
func comparePaths(a, b path) int {
	for i := range min(len(a), len(b)) {
		x, y := a[i], b[i]
		switch {
		case x.isIndex && y.isIndex:
			if x.index != y.index {
				return x.index - y.index
			}
		case x.isIndex != y.isIndex:
			if x.isIndex {
				return -1
			}
			return 1
		case x.name != y.name:
			if x.name < y.name {
				return -1
			}
			return 1
		}
	}
	return len(a) - len(b)
}

// container returns a private copy of the map or list that holds the last
// step of p, copying every container on the way so that values shared with
// the original item are never modified. It fails when a container on the
// way is missing or of the wrong type.
func container(item Item, p path) (setLast func(types.AttributeValue, bool) error, cur types.AttributeValue, err error) {
	if len(p) == 1 {
		name := p[0].name
		return func(v types.AttributeValue, del bool) error {
			if del {
				delete(item, name)
			} else {
				item[name] = v
			}
			return nil
		}, item[name], nil
	}
	// Copy the chain of containers from the top.
	parentSet := func(v types.AttributeValue) { item[p[0].name] = v }
	av := item[p[0].name]
	for i := 1; i < len(p); i++ {
		s := p[i]
		last := i == len(p)-1
		switch v := av.(type) {
		case *types.AttributeValueMemberM:
			if s.isIndex {
				return nil, nil, errInvalidPath
			}
			m := make(map[string]types.AttributeValue, len(v.Value)+1)
			for k, e := range v.Value {
				m[k] = e
			}
			nv := &types.AttributeValueMemberM{Value: m}
			parentSet(nv)
			if last {
				name := s.name
				return func(x types.AttributeValue, del bool) error {
					if del {
						delete(m, name)
					} else {
						m[name] = x
					}
					return nil
				}, m[name], nil
			}
			av = m[s.name]
			name := s.name
			parentSet = func(x types.AttributeValue) { m[name] = x }
		case *types.AttributeValueMemberL:
			if !s.isIndex {
				return nil, nil, errInvalidPath
			}
			nv := &types.AttributeValueMemberL{Value: slices.Clone(v.Value)}
			parentSet(nv)
			if last {
				idx := s.index
				var cur types.AttributeValue
				if idx < len(nv.Value) {
					cur = nv.Value[idx]
				}
				return func(x types.AttributeValue, del bool) error {
					switch {
					case del && idx < len(nv.Value):
						nv.Value = slices.Delete(nv.Value, idx, idx+1)
					case del:
					case idx < len(nv.Value):
						nv.Value[idx] = x
					default: // past the end: appended
						nv.Value = append(nv.Value, x)
					}
					return nil
				}, cur, nil
			}
			if s.index >= len(nv.Value) {
				return nil, nil, errInvalidPath
			}
			av = nv.Value[s.index]
			idx := s.index
			parentSet = func(x types.AttributeValue) { nv.Value[idx] = x }
		default:
			return nil, nil, errInvalidPath
		}
	}
	return nil, nil, errInvalidPath
}

func write(item Item, p path, v types.AttributeValue) error {
	if len(p) == 1 { // a top-level attribute: no container to copy
		item[p[0].name] = v
		return nil
	}
	set, _, err := container(item, p)
	if err != nil {
		return err
	}
	return set(v, false)
}

func remove(item Item, p path) error {
	if len(p) == 1 {
		delete(item, p[0].name)
		return nil
	}
	set, _, err := container(item, p)
	if err != nil {
		return err
	}
	return set(nil, true)
}

// add is ADD: a number is added to (a missing attribute counts as 0), a set
// is merged into a set of the same type; a missing attribute is created.
func add(item Item, p path, v types.AttributeValue) error {
	if len(p) == 1 { // a top-level attribute: no container to copy
		nv, err := added(item[p[0].name], v)
		if err != nil {
			return err
		}
		item[p[0].name] = nv
		return nil
	}
	set, cur, err := container(item, p)
	if err != nil {
		return err
	}
	nv, err := added(cur, v)
	if err != nil {
		return err
	}
	return set(nv, false)
}

// added is the value ADD makes of cur (nil when missing) and v.
func added(cur, v types.AttributeValue) (types.AttributeValue, error) {
	if cur == nil {
		return v, nil
	}
	switch x := cur.(type) {
	case *types.AttributeValueMemberN:
		if _, ok := v.(*types.AttributeValueMemberN); !ok {
			return nil, errType
		}
		a, err := number(x)
		if err != nil {
			return nil, err
		}
		b, err := number(v)
		if err != nil {
			return nil, err
		}
		sum, err := numbers.Add(a, b)
		if err != nil {
			return nil, validation(numMsg(err))
		}
		return &types.AttributeValueMemberN{Value: sum.String()}, nil
	case *types.AttributeValueMemberSS:
		y, ok := v.(*types.AttributeValueMemberSS)
		if !ok {
			return nil, errType
		}
		return &types.AttributeValueMemberSS{Value: union(x.Value, y.Value, func(a, b string) bool { return a == b })}, nil
	case *types.AttributeValueMemberNS:
		y, ok := v.(*types.AttributeValueMemberNS)
		if !ok {
			return nil, errType
		}
		return &types.AttributeValueMemberNS{Value: union(x.Value, y.Value, avtype.NumbersEqual)}, nil
	case *types.AttributeValueMemberBS:
		y, ok := v.(*types.AttributeValueMemberBS)
		if !ok {
			return nil, errType
		}
		return &types.AttributeValueMemberBS{Value: union(x.Value, y.Value, bytes.Equal)}, nil
	}
	return nil, errType
}

// deleteFrom is DELETE: the elements of v are removed from the set at p; a
// set left empty is removed, since DynamoDB has no empty sets.
func deleteFrom(item Item, p path, v types.AttributeValue) error {
	set, cur, err := container(item, p)
	if err != nil {
		return err
	}
	if cur == nil {
		return nil
	}
	var rest int
	var nv types.AttributeValue
	switch x := cur.(type) {
	case *types.AttributeValueMemberSS:
		y, ok := v.(*types.AttributeValueMemberSS)
		if !ok {
			return errType
		}
		d := minus(x.Value, y.Value, func(a, b string) bool { return a == b })
		rest, nv = len(d), &types.AttributeValueMemberSS{Value: d}
	case *types.AttributeValueMemberNS:
		y, ok := v.(*types.AttributeValueMemberNS)
		if !ok {
			return errType
		}
		d := minus(x.Value, y.Value, avtype.NumbersEqual)
		rest, nv = len(d), &types.AttributeValueMemberNS{Value: d}
	case *types.AttributeValueMemberBS:
		y, ok := v.(*types.AttributeValueMemberBS)
		if !ok {
			return errType
		}
		d := minus(x.Value, y.Value, bytes.Equal)
		rest, nv = len(d), &types.AttributeValueMemberBS{Value: d}
	default:
		return errType
	}
	return set(nv, rest == 0)
}

func union[T any](a, b []T, eq func(T, T) bool) []T {
	out := slices.Clone(a)
	for _, x := range b {
		if !setHas(out, x, eq) {
			out = append(out, x)
		}
	}
	return out
}

func minus[T any](a, b []T, eq func(T, T) bool) []T {
	var out []T
	for _, x := range a {
		if !setHas(b, x, eq) {
			out = append(out, x)
		}
	}
	return out
}
