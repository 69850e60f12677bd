package parse

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/dynamogo/dynamo/expr"
)

// treeGen builds random canonical trees, the kind the expr DSL produces, to
// check the other direction of the round trip: Parse(Print(t)) == t.
type treeGen struct{ r *rand.Rand }

var genNames = []string{"a", "b", "c1", "#n", "#x_y", "price", "tags"}

func (g treeGen) path() expr.Path {
	p := expr.Path{{Name: genNames[g.r.IntN(len(genNames))]}}
	for range g.r.IntN(3) {
		if g.r.IntN(2) == 0 {
			p = append(p, expr.PathElem{Index: g.r.IntN(20), IsIndex: true})
		} else {
			p = append(p, expr.PathElem{Name: genNames[g.r.IntN(len(genNames))]})
		}
	}
	return p
}

func (g treeGen) value() *expr.Value {
	return &expr.Value{Placeholder: []string{":v", ":w", ":v_2", ":0"}[g.r.IntN(4)]}
}

func (g treeGen) operand() expr.Operand {
	switch g.r.IntN(4) {
	case 0:
		return g.value()
	case 1:
		return &expr.Func{Name: "size", Args: []expr.Operand{g.path()}}
	}
	return g.path()
}

func (g treeGen) cond(depth int) expr.Cond {
	if depth <= 0 {
		switch g.r.IntN(6) {
		case 0:
			ops := []expr.CompareOp{expr.EQ, expr.NE, expr.LT, expr.LE, expr.GT, expr.GE}
			return &expr.Compare{Op: ops[g.r.IntN(len(ops))], L: g.operand(), R: g.operand()}
		case 1:
			return &expr.Between{X: g.operand(), Lo: g.operand(), Hi: g.operand()}
		case 2:
			list := []expr.Operand{g.operand()}
			for range g.r.IntN(3) {
				list = append(list, g.operand())
			}
			return &expr.In{X: g.operand(), List: list}
		case 3:
			return &expr.CondFunc{Name: "attribute_exists", Args: []expr.Operand{g.path()}}
		case 4:
			return &expr.CondFunc{Name: "begins_with", Args: []expr.Operand{g.path(), g.value()}}
		default:
			return &expr.CondFunc{Name: "contains", Args: []expr.Operand{g.path(), g.operand()}}
		}
	}
	switch g.r.IntN(4) {
	case 0:
		return &expr.Not{Cond: g.cond(depth - 1)}
	case 1, 2:
		list := []expr.Cond{g.cond(depth - 1), g.cond(depth - 1)}
		for range g.r.IntN(2) {
			list = append(list, g.cond(depth-1))
		}
		if g.r.IntN(2) == 0 {
			return &expr.And{Conds: list}
		}
		return &expr.Or{Conds: list}
	}
	return g.cond(0)
}

func (g treeGen) setValue() expr.Operand {
	leaf := func() expr.Operand {
		switch g.r.IntN(3) {
		case 0:
			return g.value()
		case 1:
			return &expr.Func{Name: "if_not_exists", Args: []expr.Operand{g.path(), g.value()}}
		}
		return g.path()
	}
	switch g.r.IntN(4) {
	case 0:
		return &expr.Arith{Op: "+-"[g.r.IntN(2)], L: leaf(), R: leaf()}
	case 1:
		return &expr.Func{Name: "list_append", Args: []expr.Operand{leaf(), leaf()}}
	}
	return leaf()
}

func (g treeGen) update() *expr.UpdateAST {
	u := &expr.UpdateAST{}
	for range g.r.IntN(3) {
		u.Set = append(u.Set, expr.SetAction{Path: g.path(), Value: g.setValue()})
	}
	for range g.r.IntN(3) {
		u.Remove = append(u.Remove, g.path())
	}
	for range g.r.IntN(2) {
		u.Add = append(u.Add, expr.PathValue{Path: g.path(), Value: g.value()})
	}
	for range g.r.IntN(2) {
		u.Delete = append(u.Delete, expr.PathValue{Path: g.path(), Value: g.value()})
	}
	if len(u.Set)+len(u.Remove)+len(u.Add)+len(u.Delete) == 0 {
		u.Remove = []expr.Path{g.path()}
	}
	return u
}

func TestPrintParseRoundTrip(t *testing.T) {
	g := treeGen{rand.New(rand.NewPCG(1, 2))}
	for range 3000 {
		c := g.cond(g.r.IntN(5))
		text := expr.Print(c)
		got, err := Condition(text)
		if err != nil {
			t.Fatalf("Condition(Print(t)) for %q: %v", text, err)
		}
		if !reflect.DeepEqual(got, c) {
			t.Fatalf("round trip of %q changed the tree: printed back as %q", text, expr.Print(got))
		}
	}
	for range 2000 {
		u := g.update()
		text := expr.PrintUpdate(u)
		got, err := Update(text)
		if err != nil {
			t.Fatalf("Update(PrintUpdate(u)) for %q: %v", text, err)
		}
		if !reflect.DeepEqual(got, u) {
			t.Fatalf("round trip of %q changed the tree", text)
		}
	}
}
