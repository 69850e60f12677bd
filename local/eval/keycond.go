package eval

import (
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/expr"
)

// KeyCond is a KeyConditionExpression matched to a key schema: an equality
// on the partition key and at most one condition on the sort key.
type KeyCond struct {
	PartitionName string
	Partition     types.AttributeValue
	SortName      string                 // "" without a sort key condition
	SortOp        string                 // "", EQ, LT, LE, GT, GE, BETWEEN, BEGINS_WITH
	Sort          []types.AttributeValue // one value; two for BETWEEN
}

// KeyCondBuf is the memory of a KeyCond with the array behind its Sort:
// one allocation for both, or none when the caller recycles it.
type KeyCondBuf struct {
	kc      KeyCond
	sortBuf [2]types.AttributeValue
}

// Matches reports whether a sort key value satisfies the sort key condition
// (always true without one). Values of another type never match.
func (k *KeyCond) Matches(sort types.AttributeValue) bool {
	if k.SortOp == "" {
		return true
	}
	if sort == nil {
		return false
	}
	if k.SortOp == "BEGINS_WITH" {
		return beginsWith(sort, k.Sort[0])
	}
	c, ok := order(sort, k.Sort[0])
	if !ok {
		return false
	}
	switch k.SortOp {
	case "EQ":
		return c == 0
	case "LT":
		return c < 0
	case "LE":
		return c <= 0
	case "GT":
		return c > 0
	case "GE":
		return c >= 0
	case "BETWEEN":
		hi, ok := order(sort, k.Sort[1])
		return ok && c >= 0 && hi <= 0
	}
	return false
}

var keyOps = map[expr.CompareOp]string{expr.EQ: "EQ", expr.LT: "LT", expr.LE: "LE", expr.GT: "GT", expr.GE: "GE"}

// flipped is the comparator with its operands swapped: :v < sk is sk > :v.
var flipped = map[expr.CompareOp]expr.CompareOp{expr.EQ: expr.EQ, expr.LT: expr.GT, expr.LE: expr.GE, expr.GT: expr.LT, expr.GE: expr.LE}

type keyLeaf struct {
	name  string
	op    string
	nvals int
	vals  [3]types.AttributeValue // BETWEEN has the most operands
}

// KeyCondition matches the KeyConditionExpression to the key schema of the
// table or index queried: hashKey and rangeKey ("" when it has none). It
// fails with DynamoDB's messages for anything but an equality on the
// partition key and one optional sort key condition (=, <, <=, >, >=,
// BETWEEN, begins_with): first the shape of each condition in the order
// written (operator, nested paths), then repeated keys, then the number of
// conditions, then the key schema. Whether the values' types match the key
// attributes' types is for the caller, who knows them ("One or more
// parameter values were invalid: Condition parameter type does not match
// schema type").
func (c *Compiled) KeyCondition(hashKey, rangeKey string) (*KeyCond, error) {
	return c.KeyConditionIn(new(KeyCondBuf), hashKey, rangeKey)
}

// KeyConditionIn is KeyCondition in the caller's memory (a request's
// recycled state), which it overwrites.
func (c *Compiled) KeyConditionIn(buf *KeyCondBuf, hashKey, rangeKey string) (*KeyCond, error) {
	*buf = KeyCondBuf{}
	if err := c.keyConditionTo(buf, hashKey, rangeKey); err != nil {
		return nil, err
	}
	return &buf.kc, nil
}

func (c *Compiled) keyConditionTo(buf *KeyCondBuf, hashKey, rangeKey string) error {
	var parsedBuf [2]keyLeaf
	parsed, err := c.keyLeaves(parsedBuf[:0])
	if err != nil {
		return err
	}
	if keys := 1 + min(len(rangeKey), 1); len(parsed) > keys {
		return validation("The number of query conditions (" + strconv.Itoa(len(parsed)) +
			") exceeds the number of key attributes defined in the schema (" + strconv.Itoa(keys) + ")")
	}
	kc := &buf.kc
	kc.PartitionName = hashKey
	found := false
	for _, l := range parsed {
		if l.name == hashKey {
			found = true
			if l.op != "EQ" {
				return validation("Query key condition not supported")
			}
			kc.Partition = l.vals[0]
		}
	}
	if !found {
		return validation("Query condition missed key schema element: " + hashKey)
	}
	for _, l := range parsed {
		if l.name == hashKey {
			continue
		}
		if rangeKey == "" {
			return validation("Query key condition not supported")
		}
		if l.name != rangeKey {
			return validation("Query condition missed key schema element: " + rangeKey)
		}
		kc.SortName, kc.SortOp = l.name, l.op
		kc.Sort = append(buf.sortBuf[:0:len(buf.sortBuf)], l.vals[:l.nvals]...)
	}
	return nil
}

const msgNoKeyCondition = "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request."

// keyLeaves appends to dst the conditions of the key condition, each on
// one key attribute, in the order written: first the shape of each in that
// order (operator, nested paths), then repeated keys, as KeyCondition and
// MultiKeyCondition check them.
func (c *Compiled) keyLeaves(dst []keyLeaf) ([]keyLeaf, error) {
	if kp := c.keyPlan; kp != nil {
		if kp.shape != "" {
			return nil, validation(kp.shape)
		}
		for i, kl := range kp.keys {
			n := 0
			for _, o := range kp.leaves[i].ops {
				if o.value != nil {
					kl.vals[n] = c.values[o.value.Placeholder]
					n++
				}
			}
			dst = append(dst, kl)
		}
		return dst, nil
	}
	if c.keyCondition == nil {
		return nil, validation(msgNoKeyCondition)
	}
	var leafBuf [4]*cond // a key condition has one or two leaves
	leaves, err := flattenKeyCond(c.keyCondition, leafBuf[:0])
	if err != nil {
		return nil, err
	}
	first := len(dst)
	for _, l := range leaves {
		kl, err := keyLeafOf(l)
		if err != nil {
			return nil, err
		}
		for _, p := range dst[first:] {
			if p.name == kl.name {
				return nil, validation("Invalid KeyConditionExpression: KeyConditionExpressions must only contain one condition per key")
			}
		}
		dst = append(dst, kl)
	}
	return dst, nil
}

// keyPlan is the resolution of a KeyConditionExpression's text and names,
// kept with its parse (parsed.keyPlan) like an update's document paths
// (docPaths) and reused while the request's names resolve its "#name"
// placeholders the same way. It holds each condition with its paths
// resolved, and what keyLeaves makes of them: the leaves without their
// values, or the message for their shape. Only the resolution of a key
// condition that resolved without error is kept, and only of the shapes a
// key condition can have (ANDs of comparisons, BETWEEN and begins_with over
// paths and placeholders). The checks that depend on the values run on
// every request (planFits); when one fails, Compile resolves the
// expression in full, so that its error is the one the full resolution
// gives, in the same order. It is immutable.
type keyPlan struct {
	uses   docPaths // the placeholders used (names, reals); no paths
	leaves []planLeaf
	shape  string    // keyLeaves' message; "" when it has keys
	keys   []keyLeaf // no vals
}

// planLeaf is one condition of a keyPlan, as checkLeaf sees it.
type planLeaf struct {
	kind condKind
	op   expr.CompareOp
	name string // the operator as messages name it
	ops  []planOperand
}

// planOperand is a resolved path, or a value placeholder of the parse.
type planOperand struct {
	path  path
	value *expr.Value
}

// newKeyPlan makes the plan of the key condition parsed as p, resolved
// into c (a Compiled whose key condition resolved without error) with
// names; nil for a shape a plan does not keep.
func newKeyPlan(p expr.Cond, c *Compiled, names map[string]string) *keyPlan {
	kp := &keyPlan{}
	if !kp.add(p, c.keyCondition, names) {
		return nil
	}
	leaves, err := c.keyLeaves(nil)
	if err != nil {
		kp.shape = err.(*Error).Message
		return kp
	}
	for _, kl := range leaves {
		kl.vals = [3]types.AttributeValue{}
		kp.keys = append(kp.keys, kl)
	}
	return kp
}

// add adds the conditions of e, resolved as n, to kp; false for a shape
// kp does not keep.
func (kp *keyPlan) add(e expr.Cond, n *cond, names map[string]string) bool {
	var ops []expr.Operand
	l := planLeaf{kind: n.kind}
	switch e := e.(type) {
	case *expr.And:
		for i, k := range e.Conds {
			if !kp.add(k, n.kids[i], names) {
				return false
			}
		}
		return true
	case *expr.Compare:
		l.op, l.name, ops = e.Op, string(e.Op), []expr.Operand{e.L, e.R}
	case *expr.Between:
		l.name, ops = "BETWEEN", []expr.Operand{e.X, e.Lo, e.Hi}
	case *expr.CondFunc:
		if e.Name != "begins_with" {
			return false
		}
		l.name, ops = e.Name, e.Args
	default:
		return false
	}
	for i, o := range ops {
		switch o := o.(type) {
		case expr.Path:
			// What the names stand for may alias memory the caller
			// reuses (a request buffer): the kept path gets a copy.
			q := slices.Clone(n.ops[i].path)
			for j, e := range o {
				if e.IsIndex || !strings.HasPrefix(e.Name, "#") {
					continue
				}
				k := slices.Index(kp.uses.names, e.Name)
				if k < 0 {
					k = len(kp.uses.names)
					kp.uses.names = append(kp.uses.names, e.Name)
					kp.uses.reals = append(kp.uses.reals, strings.Clone(names[e.Name]))
				}
				q[j].name = kp.uses.reals[k]
			}
			l.ops = append(l.ops, planOperand{path: q})
		case *expr.Value:
			if o.Placeholder == "" {
				return false
			}
			l.ops = append(l.ops, planOperand{value: o})
		default:
			return false
		}
	}
	kp.leaves = append(kp.leaves, l)
	return true
}

// planFits runs on the request's values the checks of the key condition
// that depend on them, in the resolver's order, and records the
// placeholders kp uses; false when one fails. The names were found to fit.
func (r *resolver) planFits(kp *keyPlan) bool {
	r.begin("KeyConditionExpression")
	for _, l := range kp.leaves {
		var ops [3]operand
		var ptrs [3]*operand
		c := cond{kind: l.kind, op: l.op, ops: ptrs[:len(l.ops)]}
		for i, o := range l.ops {
			ptrs[i] = &ops[i]
			if o.value == nil {
				ops[i].kind, ops[i].path = opPath, o.path
				continue
			}
			av, err := r.value(o.value)
			if err != nil {
				return false
			}
			ops[i].kind, ops[i].val = opValue, av
		}
		if r.checkLeaf(&c, l.name) != nil {
			return false
		}
	}
	for _, n := range kp.uses.names {
		if !slices.Contains(r.usedNames, n) {
			r.usedNames = append(r.usedNames, n)
		}
	}
	return true
}

// flattenKeyCond appends the leaves under the ANDs of n to leaves, in
// order; OR and NOT are refused.
func flattenKeyCond(n *cond, leaves []*cond) ([]*cond, error) {
	switch n.kind {
	case cAnd:
		for _, k := range n.kids {
			var err error
			if leaves, err = flattenKeyCond(k, leaves); err != nil {
				return nil, err
			}
		}
		return leaves, nil
	case cOr:
		return nil, validation("Invalid operator used in KeyConditionExpression: OR")
	case cNot:
		return nil, validation("Invalid operator used in KeyConditionExpression: NOT")
	}
	return append(leaves, n), nil
}

func keyLeafOf(l *cond) (keyLeaf, error) {
	invalidOp := func(op string) error {
		return validation("Invalid operator used in KeyConditionExpression: " + op)
	}
	var kl keyLeaf
	var pathOp *operand
	switch l.kind {
	case cCompare:
		op, ok := keyOps[l.op]
		if !ok {
			return kl, invalidOp(string(l.op))
		}
		kl.op = op
		if l.ops[0].kind != opPath && l.ops[1].kind == opPath {
			kl.op = keyOps[flipped[l.op]]
		}
	case cBetween:
		kl.op = "BETWEEN"
	case cBeginsWith:
		kl.op = "BEGINS_WITH"
	case cIn:
		return kl, invalidOp("IN")
	case cExists:
		return kl, invalidOp("attribute_exists")
	case cNotExists:
		return kl, invalidOp("attribute_not_exists")
	case cType:
		return kl, invalidOp("attribute_type")
	case cContains:
		return kl, invalidOp("contains")
	}
	for _, o := range l.ops {
		switch o.kind {
		case opPath:
			if pathOp != nil {
				return kl, validation("Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition")
			}
			pathOp = o
		case opValue:
			kl.vals[kl.nvals] = o.val
			kl.nvals++
		default:
			return kl, validation("Invalid KeyConditionExpression: KeyConditionExpressions cannot contain nested operations")
		}
	}
	if pathOp == nil {
		return kl, validation("Invalid condition in KeyConditionExpression: No key attribute specified")
	}
	if len(pathOp.path) != 1 {
		return kl, validation("Invalid KeyConditionExpression: KeyConditionExpressions cannot have conditions on nested attributes")
	}
	if (l.kind == cBetween || l.kind == cBeginsWith) && l.ops[0] != pathOp {
		return kl, validation("Invalid condition in KeyConditionExpression: No key attribute specified")
	}
	kl.name = pathOp.path[0].name
	return kl, nil
}
