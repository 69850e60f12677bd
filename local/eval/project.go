package eval

import (
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// projNode is one level of a ProjectionExpression's paths, as a tree: a
// node is either taken whole or narrowed by map keys or list indexes.
type projNode struct {
	whole bool
	names map[string]*projNode
	idx   []int // sorted
	elems map[int]*projNode
}

func (r *resolver) projectionExpr(parsed *parsed) (*projNode, error) {
	if parsed.err != nil {
		return nil, exprErr(parsed.err)
	}
	r.begin("ProjectionExpression")
	d, err := r.docPaths(parsed)
	if err != nil {
		return nil, err
	}
	return d.tree, nil
}

// add marks path p as taken whole.
func (n *projNode) add(p path) {
	for _, s := range p {
		n = n.child(s)
	}
	n.whole = true
}

func (n *projNode) child(s step) *projNode {
	if s.isIndex {
		if c, ok := n.elems[s.index]; ok {
			return c
		}
		if n.elems == nil {
			n.elems = map[int]*projNode{}
		}
		c := &projNode{}
		n.elems[s.index] = c
		i, _ := slices.BinarySearch(n.idx, s.index)
		n.idx = slices.Insert(n.idx, i, s.index)
		return c
	}
	if c, ok := n.names[s.name]; ok {
		return c
	}
	if n.names == nil {
		n.names = map[string]*projNode{}
	}
	c := &projNode{}
	n.names[s.name] = c
	return c
}

// Project keeps only the attributes the ProjectionExpression names. A
// nested path keeps its enclosing maps with just the named keys; list
// indexes keep just the named elements, in index order, as DynamoDB returns
// them. Without a ProjectionExpression it returns item itself.
func (c *Compiled) Project(item Item) Item {
	if c.projection == nil || item == nil {
		return item
	}
	return project(c.projection, item)
}

func project(root *projNode, item Item) Item {
	out := make(Item, len(root.names))
	for name, n := range root.names {
		if v, ok := item[name]; ok {
			if pv := n.apply(v); pv != nil {
				out[name] = pv
			}
		}
	}
	return out
}

func (n *projNode) apply(v types.AttributeValue) types.AttributeValue {
	if n.whole {
		return v
	}
	switch x := v.(type) {
	case *types.AttributeValueMemberM:
		if n.names == nil {
			return nil
		}
		m := make(map[string]types.AttributeValue, len(n.names))
		for name, c := range n.names {
			if e, ok := x.Value[name]; ok {
				if pe := c.apply(e); pe != nil {
					m[name] = pe
				}
			}
		}
		if len(m) == 0 {
			return nil
		}
		return &types.AttributeValueMemberM{Value: m}
	case *types.AttributeValueMemberL:
		var l []types.AttributeValue
		for _, i := range n.idx {
			if i < len(x.Value) {
				if pe := n.elems[i].apply(x.Value[i]); pe != nil {
					l = append(l, pe)
				}
			}
		}
		if len(l) == 0 {
			return nil
		}
		return &types.AttributeValueMemberL{Value: l}
	}
	return nil
}
