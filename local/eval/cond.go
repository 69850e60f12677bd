package eval

import (
	"slices"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/internal/avtype"
	"github.com/dynamogo/dynamo/internal/numbers"
)

// lookup finds the value at p in item; nil when any step is missing or
// crosses a value of the wrong type.
func lookup(item Item, p path) types.AttributeValue {
	if item == nil || len(p) == 0 || p[0].isIndex {
		return nil
	}
	av := item[p[0].name]
	for _, s := range p[1:] {
		switch v := av.(type) {
		case *types.AttributeValueMemberM:
			if s.isIndex {
				return nil
			}
			av = v.Value[s.name]
		case *types.AttributeValueMemberL:
			if !s.isIndex || s.index >= len(v.Value) {
				return nil
			}
			av = v.Value[s.index]
		default:
			return nil
		}
		if av == nil {
			return nil
		}
	}
	return av
}

// value evaluates an operand of a condition; nil when it has no value (a
// missing attribute, or size() of something without a size).
func (o *operand) value(item Item) types.AttributeValue {
	switch o.kind {
	case opValue:
		return o.val
	case opPath:
		return lookup(item, o.path)
	case opSize:
		v := o.args[0].value(item)
		if v == nil {
			return nil
		}
		n, ok := size(v)
		if !ok {
			return nil
		}
		if n < len(smallSizes) {
			return &smallSizes[n]
		}
		return &types.AttributeValueMemberN{Value: strconv.Itoa(n)}
	}
	return nil
}

// smallSizes are the results of size() up to 1023, made once: a size is
// only ever compared, never stored, so evaluating size() allocates nothing.
var smallSizes = func() (s [1024]types.AttributeValueMemberN) {
	for i := range s {
		s[i].Value = strconv.Itoa(i)
	}
	return s
}()

// eval evaluates the condition. Comparing values of different types is
// false, never an error, as in DynamoDB.
func (c *cond) eval(item Item) bool {
	switch c.kind {
	case cAnd:
		for _, k := range c.kids {
			if !k.eval(item) {
				return false
			}
		}
		return true
	case cOr:
		for _, k := range c.kids {
			if k.eval(item) {
				return true
			}
		}
		return false
	case cNot:
		return !c.kids[0].eval(item)
	case cCompare:
		l, r := c.ops[0].value(item), c.ops[1].value(item)
		if c.op == expr.NE {
			// A missing operand is unequal to anything.
			return l == nil || r == nil || !c.equalAt(0, l, 1, r)
		}
		if l == nil || r == nil {
			return false
		}
		if c.op == expr.EQ {
			return c.equalAt(0, l, 1, r)
		}
		cmp, ok := c.orderAt(0, l, 1, r)
		if !ok {
			return false
		}
		switch c.op {
		case expr.LT:
			return cmp < 0
		case expr.LE:
			return cmp <= 0
		case expr.GT:
			return cmp > 0
		default:
			return cmp >= 0
		}
	case cBetween:
		x, lo, hi := c.ops[0].value(item), c.ops[1].value(item), c.ops[2].value(item)
		if x == nil || lo == nil || hi == nil {
			return false
		}
		a, ok1 := c.orderAt(0, x, 1, lo)
		b, ok2 := c.orderAt(0, x, 2, hi)
		return ok1 && ok2 && a >= 0 && b <= 0
	case cIn:
		x := c.ops[0].value(item)
		if x == nil {
			return false
		}
		for i, o := range c.ops[1:] {
			if v := o.value(item); v != nil && c.equalAt(0, x, i+1, v) {
				return true
			}
		}
		return false
	case cExists:
		return lookup(item, c.ops[0].path) != nil
	case cNotExists:
		return lookup(item, c.ops[0].path) == nil
	case cType:
		v := c.ops[0].value(item)
		return v != nil && avtype.Of(v) == c.typ
	case cBeginsWith:
		a, p := c.ops[0].value(item), c.ops[1].value(item)
		return a != nil && p != nil && beginsWith(a, p)
	case cContains:
		a, x := c.ops[0].value(item), c.ops[1].value(item)
		return a != nil && x != nil && contains(a, x)
	}
	return false
}

// firstHead is the first top-level attribute among names that the
// condition reads, in the order written; "" if none.
func (c *cond) firstHead(names []string) string {
	for _, k := range c.kids {
		if h := k.firstHead(names); h != "" {
			return h
		}
	}
	for _, o := range c.ops {
		if h := o.firstHead(names); h != "" {
			return h
		}
	}
	return ""
}

func (o *operand) firstHead(names []string) string {
	if o.kind == opPath && slices.Contains(names, o.path[0].name) {
		return o.path[0].name
	}
	for _, a := range o.args {
		if h := a.firstHead(names); h != "" {
			return h
		}
	}
	return ""
}

// orderAt is order(a, b) for the values of operands i and j, using the
// numbers parsed at Compile for values of the request.
func (c *cond) orderAt(i int, a types.AttributeValue, j int, b types.AttributeValue) (int, bool) {
	if x, ok := a.(*types.AttributeValueMemberN); ok {
		if y, ok := b.(*types.AttributeValueMemberN); ok {
			dx, ok1 := c.ops[i].dec(x)
			dy, ok2 := c.ops[j].dec(y)
			return numbers.Compare(dx, dy), ok1 && ok2
		}
	}
	return order(a, b)
}

// equalAt is avtype.Equal(a, b) for the values of operands i and j.
func (c *cond) equalAt(i int, a types.AttributeValue, j int, b types.AttributeValue) bool {
	if x, ok := a.(*types.AttributeValueMemberN); ok {
		if y, ok := b.(*types.AttributeValueMemberN); ok {
			if x.Value == y.Value {
				return true
			}
			dx, ok1 := c.ops[i].dec(x)
			dy, ok2 := c.ops[j].dec(y)
			return ok1 && ok2 && numbers.Compare(dx, dy) == 0
		}
	}
	return avtype.Equal(a, b)
}

// dec is the number n, the value of o: parsed at Compile for a value of the
// request, parsed now otherwise.
func (o *operand) dec(n *types.AttributeValueMemberN) (numbers.Dec, bool) {
	if o.hasNum {
		return o.num, true
	}
	d, err := numbers.Parse(n.Value)
	return d, err == nil
}
