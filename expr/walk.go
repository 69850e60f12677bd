package expr

import "iter"

// Nodes yields every node of c in written order, each before its children:
// the conditions (*Compare, *Between, *In, *CondFunc, *And, *Or, *Not,
// *Raw) and the operands (Path, *Value, *Func, *Arith), including both
// bounds of a BETWEEN, every value of an IN list and the arguments of
// functions and arithmetic. A *Raw has no children: its text is opaque.
// It is the one walk over the tree; every consumer that inspects a tree
// uses it rather than a switch of its own, so none misses a node kind.
func Nodes(c Cond) iter.Seq[any] {
	return func(yield func(any) bool) { walkCond(c, yield) }
}

// OperandNodes yields o and everything inside it, as Nodes does.
func OperandNodes(o Operand) iter.Seq[any] {
	return func(yield func(any) bool) { walkOperand(o, yield) }
}

func walkCond(c Cond, yield func(any) bool) bool {
	if c == nil {
		return true
	}
	if !yield(c) {
		return false
	}
	switch c := c.(type) {
	case *Compare:
		return walkOperand(c.L, yield) && walkOperand(c.R, yield)
	case *Between:
		return walkOperand(c.X, yield) && walkOperand(c.Lo, yield) && walkOperand(c.Hi, yield)
	case *In:
		return walkOperand(c.X, yield) && walkOperands(c.List, yield)
	case *CondFunc:
		return walkOperands(c.Args, yield)
	case *And:
		return walkConds(c.Conds, yield)
	case *Or:
		return walkConds(c.Conds, yield)
	case *Not:
		return walkCond(c.Cond, yield)
	}
	return true
}

func walkConds(cs []Cond, yield func(any) bool) bool {
	for _, c := range cs {
		if !walkCond(c, yield) {
			return false
		}
	}
	return true
}

func walkOperand(o Operand, yield func(any) bool) bool {
	if o == nil {
		return true
	}
	if !yield(o) {
		return false
	}
	switch o := o.(type) {
	case *Func:
		return walkOperands(o.Args, yield)
	case *Arith:
		return walkOperand(o.L, yield) && walkOperand(o.R, yield)
	}
	return true
}

func walkOperands(os []Operand, yield func(any) bool) bool {
	for _, o := range os {
		if !walkOperand(o, yield) {
			return false
		}
	}
	return true
}
