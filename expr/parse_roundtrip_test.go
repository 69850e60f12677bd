package expr_test

import (
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/expr/parse"
)

// The printer and the parser are tied together: Parse(Print(ast)) gives
// back ast for every shape the DSL produces, and the Builder's output is
// text the parser reads back to the same text.

func ph(n string) expr.Path    { return expr.Path{{Name: n}} }
func val(p string) *expr.Value { return &expr.Value{Placeholder: p} }

func TestPrintParseRoundTrip(t *testing.T) {
	a, b, c := ph("#a"), ph("#b"), ph("#c")
	nested := expr.Path{{Name: "#m"}, {Index: 2, IsIndex: true}, {Name: "#n"}}
	size := &expr.Func{Name: "size", Args: []expr.Operand{a}}
	conds := []expr.Cond{
		&expr.Compare{Op: expr.EQ, L: a, R: val(":v")},
		&expr.Compare{Op: expr.NE, L: nested, R: val(":v")},
		&expr.Compare{Op: expr.LT, L: a, R: b},
		&expr.Compare{Op: expr.LE, L: size, R: val(":v")},
		&expr.Compare{Op: expr.GT, L: a, R: val(":v")},
		&expr.Compare{Op: expr.GE, L: a, R: val(":v")},
		&expr.Between{X: a, Lo: val(":lo"), Hi: val(":hi")},
		&expr.In{X: a, List: []expr.Operand{val(":x"), val(":y")}},
		&expr.CondFunc{Name: "attribute_exists", Args: []expr.Operand{a}},
		&expr.CondFunc{Name: "attribute_not_exists", Args: []expr.Operand{nested}},
		&expr.CondFunc{Name: "attribute_type", Args: []expr.Operand{a, val(":t")}},
		&expr.CondFunc{Name: "begins_with", Args: []expr.Operand{a, val(":p")}},
		&expr.CondFunc{Name: "contains", Args: []expr.Operand{a, val(":e")}},
		&expr.Not{Cond: &expr.CondFunc{Name: "attribute_exists", Args: []expr.Operand{a}}},
		&expr.And{Conds: []expr.Cond{
			&expr.Compare{Op: expr.EQ, L: a, R: val(":v")},
			&expr.Or{Conds: []expr.Cond{
				&expr.Compare{Op: expr.EQ, L: b, R: val(":w")},
				&expr.Not{Cond: &expr.And{Conds: []expr.Cond{
					&expr.CondFunc{Name: "attribute_exists", Args: []expr.Operand{c}},
					&expr.CondFunc{Name: "attribute_exists", Args: []expr.Operand{a}},
				}}},
			}},
		}},
	}
	for _, want := range conds {
		text := expr.Print(want)
		got, err := parse.Condition(text)
		if err != nil {
			t.Errorf("parse %q: %v", text, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q parsed back as %q (%#v)", text, expr.Print(got), got)
		}
	}

	u := &expr.UpdateAST{
		Set: []expr.SetAction{
			{Path: a, Value: val(":v")},
			{Path: b, Value: &expr.Arith{Op: '+', L: b, R: val(":n")}},
			{Path: c, Value: &expr.Func{Name: "list_append", Args: []expr.Operand{c, val(":l")}}},
			{Path: nested, Value: &expr.Func{Name: "if_not_exists", Args: []expr.Operand{nested, val(":d")}}},
		},
		Remove: []expr.Path{ph("#r")},
		Add:    []expr.PathValue{{Path: ph("#s"), Value: val(":s")}},
		Delete: []expr.PathValue{{Path: ph("#t"), Value: val(":t")}},
	}
	text := expr.PrintUpdate(u)
	got, err := parse.Update(text)
	if err != nil {
		t.Fatalf("parse %q: %v", text, err)
	}
	if !reflect.DeepEqual(got, u) {
		t.Errorf("%q parsed back as %q", text, expr.PrintUpdate(got))
	}
}

// What the Builder emits parses, and prints back unchanged.
func TestBuilderOutputParses(t *testing.T) {
	b := expr.NewBuilder(nil)
	cond, err := b.Condition(expr.AllOf(
		expr.NotExists("pk"),
		expr.OneOf("status", "a", "b"),
		expr.AnyOf(expr.Gt(expr.Size("tags"), 2), expr.Negate(expr.BeginsWith(expr.Attr("m").Index(0).Attr("x"), "p"))),
		expr.InRange("n", 1, 2),
		expr.AttrType("t", "M"),
		expr.Contains("s", "x"),
	), "c")
	if err != nil {
		t.Fatal(err)
	}
	update, err := b.Update([]expr.Change{
		expr.Set("a", 1), expr.SetNull("b"), expr.Increment("c", 1), expr.Decrement("d", 1),
		expr.Append("e", []any{1}), expr.Prepend("f", []any{2}), expr.IfNotExists("g", 0),
		expr.Remove(expr.Attr("h", "i")), expr.Add("j", 1), expr.Delete("k", []any{"x"}),
	})
	if err != nil {
		t.Fatal(err)
	}
	proj, err := b.Projection("a", "b")
	if err != nil {
		t.Fatal(err)
	}
	s := &types.AttributeValueMemberS{Value: "x"}
	key, err := expr.NewBuilder(nil).KeyCondition("pk", s, "sk", expr.KeyBetween, s, s)
	if err != nil {
		t.Fatal(err)
	}
	pk, err := parse.KeyCondition(key)
	if err != nil {
		t.Fatalf("parse %q: %v", key, err)
	}
	if got := expr.Print(pk); got != key {
		t.Errorf("key condition %q, want %q", got, key)
	}

	pc, err := parse.Condition(cond)
	if err != nil {
		t.Fatalf("parse %q: %v", cond, err)
	}
	if got := expr.Print(pc); got != cond {
		t.Errorf("condition\n got %q\nwant %q", got, cond)
	}
	pu, err := parse.Update(update)
	if err != nil {
		t.Fatalf("parse %q: %v", update, err)
	}
	if got := expr.PrintUpdate(pu); got != update {
		t.Errorf("update\n got %q\nwant %q", got, update)
	}
	pp, err := parse.Projection(proj)
	if err != nil {
		t.Fatalf("parse %q: %v", proj, err)
	}
	if got := expr.PrintProjection(pp); got != proj {
		t.Errorf("projection %q, want %q", got, proj)
	}
}
