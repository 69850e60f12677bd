package eval

import (
	"strconv"

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
	if c.keyCondition == nil {
		return validation("Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.")
	}
	var leafBuf [4]*cond // a key condition has one or two leaves
	leaves, err := flattenKeyCond(c.keyCondition, leafBuf[:0])
	if err != nil {
		return err
	}
	var parsedBuf [2]keyLeaf
	parsed := parsedBuf[:0]
	for _, l := range leaves {
		kl, err := keyLeafOf(l)
		if err != nil {
			return err
		}
		for _, p := range parsed {
			if p.name == kl.name {
				return validation("Invalid KeyConditionExpression: KeyConditionExpressions must only contain one condition per key")
			}
		}
		parsed = append(parsed, kl)
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
