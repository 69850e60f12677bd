package parse

import (
	"math/rand/v2"
	"reflect"
	"strings"
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

// textGen writes random expression text the way people do: keywords in any
// case, optional parentheses around operands and conditions, spacing
// varied; then sometimes breaks one token. Whatever parses must print to
// text that parses back to the same tree.
type textGen struct{ r *rand.Rand }

func (g textGen) pick(s ...string) string { return s[g.r.IntN(len(s))] }

func (g textGen) kw(k string) string {
	switch g.r.IntN(3) {
	case 0:
		return strings.ToLower(k)
	case 1:
		return k
	}
	return k[:1] + strings.ToLower(k[1:])
}

func (g textGen) path() string {
	p := g.pick("a", "b", "#n", "c_1")
	for range g.r.IntN(3) {
		p += g.pick(".x", "[0]", "[12]", ".#m")
	}
	return p
}

func (g textGen) paren(s string) string {
	if g.r.IntN(6) == 0 {
		return "(" + s + ")"
	}
	return s
}

func (g textGen) operand(update bool, depth int) string {
	switch g.r.IntN(5) {
	case 0:
		return g.paren(g.pick(":v", ":w", ":v_1"))
	case 1:
		if depth > 0 {
			if update {
				return g.paren("if_not_exists(" + g.path() + ", " + g.operand(true, depth-1) + ")")
			}
			return g.paren("size(" + g.operand(false, depth-1) + ")")
		}
	case 2:
		if depth > 0 && update {
			// never valid inside a function argument, but parsed there once
			return "(" + g.operand(true, depth-1) + " + " + g.operand(true, depth-1) + ")"
		}
	}
	return g.paren(g.path())
}

func (g textGen) cond(depth int) string {
	if depth > 0 {
		switch g.r.IntN(5) {
		case 0:
			return g.kw("NOT") + " " + g.cond(depth-1)
		case 1:
			return "(" + g.cond(depth-1) + " " + g.kw("AND") + " " + g.cond(depth-1) + ")"
		case 2:
			return g.cond(depth-1) + " " + g.kw("OR") + " " + g.cond(depth-1)
		}
	}
	switch g.r.IntN(5) {
	case 0:
		return g.operand(false, 2) + " " + g.kw("BETWEEN") + " " + g.operand(false, 1) + " " + g.kw("AND") + " " + g.operand(false, 1)
	case 1:
		return g.operand(false, 2) + " " + g.kw("IN") + " (" + g.operand(false, 1) + ", " + g.operand(false, 1) + ")"
	case 2:
		return g.pick("attribute_exists", "attribute_not_exists") + "(" + g.path() + ")"
	case 3:
		return g.pick("begins_with", "contains") + "(" + g.operand(false, 1) + ", " + g.operand(false, 1) + ")"
	}
	return g.operand(false, 2) + g.pick(" = ", "<>", " < ", "<=", " >", ">= ") + g.operand(false, 2)
}

func (g textGen) update() string {
	var clauses []string
	for _, kw := range []string{"SET", "REMOVE", "ADD", "DELETE"} {
		if g.r.IntN(2) == 0 {
			continue
		}
		var actions []string
		for range 1 + g.r.IntN(3) {
			switch kw {
			case "SET":
				v := g.operand(true, 2)
				switch g.r.IntN(4) {
				case 0:
					v = g.paren(g.operand(true, 1) + g.pick(" + ", "-", " - ") + g.operand(true, 1))
				case 1:
					v = g.paren("list_append(" + g.operand(true, 2) + ", " + g.operand(true, 2) + ")")
				}
				actions = append(actions, g.path()+" = "+v)
			case "REMOVE":
				actions = append(actions, g.path())
			default:
				actions = append(actions, g.path()+" "+g.pick(":v", ":w"))
			}
		}
		clauses = append(clauses, g.kw(kw)+" "+strings.Join(actions, ", "))
	}
	g.r.Shuffle(len(clauses), func(i, j int) { clauses[i], clauses[j] = clauses[j], clauses[i] })
	return strings.Join(clauses, " ")
}

// mutate sometimes breaks the text: drops, doubles or swaps a byte.
func (g textGen) mutate(s string) string {
	if len(s) == 0 || g.r.IntN(3) != 0 {
		return s
	}
	i := g.r.IntN(len(s))
	switch g.r.IntN(3) {
	case 0:
		return s[:i] + s[i+1:]
	case 1:
		return s[:i] + s[i:i+1] + s[i:]
	}
	return s[:i] + g.pick("(", ")", ",", " AND ", "+", ":", "#", ".") + s[i:]
}

func TestGeneratedTextRoundTrip(t *testing.T) {
	g := textGen{rand.New(rand.NewPCG(3, 4))}
	n := 10000
	if testing.Short() {
		n = 1000
	}
	var conds, updates int
	for range n {
		s := g.mutate(g.cond(g.r.IntN(4)))
		if c, err := Condition(s); err == nil {
			conds++
			text := expr.Print(c)
			if again, err := Condition(text); err != nil || !reflect.DeepEqual(again, c) {
				t.Fatalf("condition %q printed as %q: %v", s, text, err)
			}
		}
		s = g.mutate(g.update())
		if s == "" {
			continue
		}
		if u, err := Update(s); err == nil {
			updates++
			text := expr.PrintUpdate(u)
			if again, err := Update(text); err != nil || !reflect.DeepEqual(again, u) {
				t.Fatalf("update %q printed as %q: %v", s, text, err)
			}
		}
	}
	t.Logf("%d conditions and %d updates parsed", conds, updates)
	if conds < n/4 || updates < n/4 {
		t.Fatalf("too few samples parsed (%d conditions, %d updates)", conds, updates)
	}
}
