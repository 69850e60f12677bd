package expr

import (
	"strconv"
	"strings"
)

// Print renders a condition as DynamoDB expression text. Names and values are
// printed as they stand in the tree (placeholders after Compile or parsing).
// Parentheses are added only where DynamoDB's precedence (NOT, then AND, then
// OR) needs them, so Print of a parsed expression is its canonical form.
func Print(c Cond) string {
	var b strings.Builder
	b.Grow(64) // most conditions fit: one allocation instead of several
	printCond(&b, c, precOr)
	return b.String()
}

// PrintUpdate renders an update expression, clauses in the order SET,
// REMOVE, ADD, DELETE.
func PrintUpdate(u *UpdateAST) string {
	var b strings.Builder
	b.Grow(64)
	clause := func(kw string, n int, item func(i int)) {
		if n == 0 {
			return
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(kw)
		b.WriteByte(' ')
		for i := range n {
			if i > 0 {
				b.WriteString(", ")
			}
			item(i)
		}
	}
	clause("SET", len(u.Set), func(i int) {
		printPath(&b, u.Set[i].Path)
		b.WriteString(" = ")
		printOperand(&b, u.Set[i].Value)
	})
	clause("REMOVE", len(u.Remove), func(i int) { printPath(&b, u.Remove[i]) })
	clause("ADD", len(u.Add), func(i int) {
		printPath(&b, u.Add[i].Path)
		b.WriteByte(' ')
		printOperand(&b, u.Add[i].Value)
	})
	clause("DELETE", len(u.Delete), func(i int) {
		printPath(&b, u.Delete[i].Path)
		b.WriteByte(' ')
		printOperand(&b, u.Delete[i].Value)
	})
	return b.String()
}

// PrintProjection renders a projection expression: paths joined by ", ".
func PrintProjection(paths []Path) string {
	var b strings.Builder
	for i, p := range paths {
		if i > 0 {
			b.WriteString(", ")
		}
		printPath(&b, p)
	}
	return b.String()
}

// String renders the path, e.g. a.#b[3].c.
func (p Path) String() string {
	var b strings.Builder
	printPath(&b, p)
	return b.String()
}

const (
	precOr = iota
	precAnd
	precNot
)

func printCond(b *strings.Builder, c Cond, outer int) {
	switch c := c.(type) {
	case *Or:
		printJoined(b, c.Conds, " OR ", precOr, outer)
	case *And:
		printJoined(b, c.Conds, " AND ", precAnd, outer)
	case *Not:
		b.WriteString("NOT ")
		printCond(b, c.Cond, precNot)
	case *Compare:
		printOperand(b, c.L)
		b.WriteByte(' ')
		b.WriteString(string(c.Op))
		b.WriteByte(' ')
		printOperand(b, c.R)
	case *Between:
		printOperand(b, c.X)
		b.WriteString(" BETWEEN ")
		printOperand(b, c.Lo)
		b.WriteString(" AND ")
		printOperand(b, c.Hi)
	case *In:
		printOperand(b, c.X)
		b.WriteString(" IN (")
		printOperands(b, c.List)
		b.WriteByte(')')
	case *CondFunc:
		b.WriteString(c.Name)
		b.WriteByte('(')
		printOperands(b, c.Args)
		b.WriteByte(')')
	case *Raw:
		if outer > precOr {
			b.WriteByte('(')
			b.WriteString(c.Text)
			b.WriteByte(')')
		} else {
			b.WriteString(c.Text)
		}
	}
}

func printJoined(b *strings.Builder, cs []Cond, sep string, prec, outer int) {
	paren := outer > prec
	if paren {
		b.WriteByte('(')
	}
	for i, c := range cs {
		if i > 0 {
			b.WriteString(sep)
		}
		// A child of the same kind keeps its grouping: (a AND b) AND c
		// reads back as the same tree only with the parentheses.
		printCond(b, c, prec+1)
	}
	if paren {
		b.WriteByte(')')
	}
}

func printOperands(b *strings.Builder, ops []Operand) {
	for i, o := range ops {
		if i > 0 {
			b.WriteString(", ")
		}
		printOperand(b, o)
	}
}

func printOperand(b *strings.Builder, o Operand) {
	switch o := o.(type) {
	case Path:
		printPath(b, o)
	case *Value:
		b.WriteString(o.Placeholder)
	case *Func:
		b.WriteString(o.Name)
		b.WriteByte('(')
		printOperands(b, o.Args)
		b.WriteByte(')')
	case *Arith:
		printOperand(b, o.L)
		b.WriteByte(' ')
		b.WriteByte(o.Op)
		b.WriteByte(' ')
		printOperand(b, o.R)
	}
}

func printPath(b *strings.Builder, p Path) {
	for i, e := range p {
		if e.IsIndex {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(e.Index))
			b.WriteByte(']')
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(e.Name)
	}
}
