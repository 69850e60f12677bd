package expr_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/internal/avtest"
)

// show renders an attribute value compactly for assertions: S:x, N:1, …
func show(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return "S:" + v.Value
	case *types.AttributeValueMemberN:
		return "N:" + v.Value
	case *types.AttributeValueMemberB:
		return fmt.Sprintf("B:%x", v.Value)
	case *types.AttributeValueMemberBOOL:
		return fmt.Sprintf("BOOL:%v", v.Value)
	case *types.AttributeValueMemberNULL:
		return fmt.Sprintf("NULL:%v", v.Value)
	case *types.AttributeValueMemberSS:
		s := slices.Clone(v.Value)
		slices.Sort(s)
		return "SS:" + strings.Join(s, ",")
	case *types.AttributeValueMemberBS:
		return fmt.Sprintf("BS:%x", v.Value)
	case *types.AttributeValueMemberNS:
		s := slices.Clone(v.Value)
		slices.Sort(s)
		return "NS:" + strings.Join(s, ",")
	case *types.AttributeValueMemberL:
		parts := make([]string, len(v.Value))
		for i, e := range v.Value {
			parts[i] = show(e)
		}
		return "L:[" + strings.Join(parts, " ") + "]"
	case *types.AttributeValueMemberM:
		keys := make([]string, 0, len(v.Value))
		for k := range v.Value {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + "=" + show(v.Value[k])
		}
		return "M:{" + strings.Join(parts, " ") + "}"
	}
	return fmt.Sprintf("?%T", av)
}

// dump renders names and values as one sorted line: "#c0=status :c1=S:paid".
func dump(b *expr.Builder) string {
	var parts []string
	for k, v := range b.Names() {
		parts = append(parts, k+"="+v)
	}
	for k, v := range b.Values() {
		parts = append(parts, k+"="+show(v))
	}
	slices.Sort(parts)
	return strings.Join(parts, " ")
}

// fieldEncoder stands in for a schema: "total" is a number field that
// encodes floats with two decimals, "tags" a string-set field whose single
// elements encode as S, everything else is undeclared.
type fieldEncoder struct{}

func (fieldEncoder) EncodeField(attr string, v any) (types.AttributeValue, bool, error) {
	switch attr {
	case "total":
		switch x := v.(type) {
		case float64:
			return &types.AttributeValueMemberN{Value: fmt.Sprintf("%.2f", x)}, true, nil
		case int:
			return &types.AttributeValueMemberN{Value: fmt.Sprintf("%d.00", x)}, true, nil
		}
		return nil, true, fmt.Errorf("dynamo: Order.total: cannot encode %T", v)
	case "tags":
		if s, ok := v.(string); ok {
			return &types.AttributeValueMemberS{Value: s}, true, nil
		}
		return nil, true, fmt.Errorf("dynamo: Order.tags: cannot encode %T", v)
	}
	return nil, false, nil
}

func TestConditionOperators(t *testing.T) {
	tests := []struct {
		name string
		cond expr.Cond
		text string
		vals string
	}{
		{"eq", expr.Eq("version", 3), "#c0 = :c1", "#c0=version :c1=N:3"},
		{"ne", expr.Ne("status", "x"), "#c0 <> :c1", "#c0=status :c1=S:x"},
		{"lt", expr.Lt("n", 1), "#c0 < :c1", "#c0=n :c1=N:1"},
		{"le", expr.Le("n", 1), "#c0 <= :c1", "#c0=n :c1=N:1"},
		{"gt", expr.Gt("n", 1), "#c0 > :c1", "#c0=n :c1=N:1"},
		{"ge", expr.Ge("n", 1), "#c0 >= :c1", "#c0=n :c1=N:1"},
		{"between", expr.InRange("n", 1, 9), "#c0 BETWEEN :c1 AND :c2", "#c0=n :c1=N:1 :c2=N:9"},
		{"in", expr.OneOf("status", "a", "b"), "#c0 IN (:c1, :c2)", "#c0=status :c1=S:a :c2=S:b"},
		{"begins_with", expr.BeginsWith("sk", "2024-06"), "begins_with(#c0, :c1)", "#c0=sk :c1=S:2024-06"},
		{"begins_with bytes", expr.BeginsWith("b", []byte{1, 2}), "begins_with(#c0, :c1)", "#c0=b :c1=B:0102"},
		{"contains", expr.Contains("title", "go"), "contains(#c0, :c1)", "#c0=title :c1=S:go"},
		{"exists", expr.Exists("pk"), "attribute_exists(#c0)", "#c0=pk"},
		{"not_exists", expr.NotExists("pk"), "attribute_not_exists(#c0)", "#c0=pk"},
		{"attribute_type", expr.AttrType("x", "SS"), "attribute_type(#c0, :c1)", "#c0=x :c1=S:SS"},
		{"size eq", expr.Eq(expr.Size("tags"), 3), "size(#c0) = :c1", "#c0=tags :c1=N:3"},
		{"size ne", expr.Ne(expr.Size("tags"), 3), "size(#c0) <> :c1", "#c0=tags :c1=N:3"},
		{"size lt", expr.Lt(expr.Size("tags"), 3), "size(#c0) < :c1", "#c0=tags :c1=N:3"},
		{"size le", expr.Le(expr.Size("tags"), 3), "size(#c0) <= :c1", "#c0=tags :c1=N:3"},
		{"size gt", expr.Gt(expr.Size("tags"), 3), "size(#c0) > :c1", "#c0=tags :c1=N:3"},
		{"size ge", expr.Ge(expr.Size("tags"), 3), "size(#c0) >= :c1", "#c0=tags :c1=N:3"},
		{"size between", expr.InRange(expr.Size("s"), 1, 2), "size(#c0) BETWEEN :c1 AND :c2", "#c0=s :c1=N:1 :c2=N:2"},
		{"nested", expr.Eq(expr.Attr("address", "city"), "Paris"), "#c0.#c1 = :c2", "#c0=address #c1=city :c2=S:Paris"},
		{"index", expr.Eq(expr.Attr("items").Index(2).Attr("sku"), "x"), "#c0[2].#c1 = :c2", "#c0=items #c1=sku :c2=S:x"},
		{"dots are literal", expr.Eq("a.b", 1), "#c0 = :c1", "#c0=a.b :c1=N:1"},
		{"reserved word", expr.Eq("comment", "x"), "#c0 = :c1", "#c0=comment :c1=S:x"},
		{"attr vs attr", expr.Lt("low", expr.Attr("high")), "#c0 < #c1", "#c0=low #c1=high"},
		{"nil is NULL", expr.Eq("x", nil), "#c0 = :c1", "#c0=x :c1=NULL:true"},
		{"encoded value", expr.Eq("x", &types.AttributeValueMemberN{Value: "1.5"}), "#c0 = :c1", "#c0=x :c1=N:1.5"},
		{"and", expr.AllOf(expr.NotExists("pk"), expr.OneOf("status", "a", "b")),
			"attribute_not_exists(#c0) AND #c1 IN (:c2, :c3)", "#c0=pk #c1=status :c2=S:a :c3=S:b"},
		{"or", expr.AnyOf(expr.Eq("status", "open"), expr.Ge("total", 100)),
			"#c0 = :c1 OR #c2 >= :c3", "#c0=status #c2=total :c1=S:open :c3=N:100"},
		{"not", expr.Negate(expr.Exists("x")), "NOT attribute_exists(#c0)", "#c0=x"},
		{"or inside and", expr.AllOf(expr.Exists("a"), expr.AnyOf(expr.Exists("b"), expr.Exists("c"))),
			"attribute_exists(#c0) AND (attribute_exists(#c1) OR attribute_exists(#c2))", "#c0=a #c1=b #c2=c"},
		{"not of and", expr.Negate(expr.AllOf(expr.Exists("a"), expr.Exists("b"))),
			"NOT (attribute_exists(#c0) AND attribute_exists(#c1))", "#c0=a #c1=b"},
		{"name reused", expr.AnyOf(expr.Eq("s", "a"), expr.Eq("s", "b")), "#c0 = :c1 OR #c0 = :c2", "#c0=s :c1=S:a :c2=S:b"},
		{"and skips nil", expr.AllOf(nil, expr.Exists("a"), nil), "attribute_exists(#c0)", "#c0=a"},
		{"raw", expr.RawCond("attribute_not_exists(pk)", nil, nil), "attribute_not_exists(pk)", ""},
		{"raw merged", expr.AllOf(expr.Exists("a"), expr.RawCond("#t > :m", map[string]string{"#t": "total"}, map[string]any{"m": 100})),
			"attribute_exists(#c0) AND (#t > :m)", "#c0=a #t=total :m=N:100"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := expr.NewBuilder(nil)
			got, err := b.Condition(tt.cond, "c")
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.text {
				t.Errorf("text = %q, want %q", got, tt.text)
			}
			if d := dump(b); d != tt.vals {
				t.Errorf("names/values = %q, want %q", d, tt.vals)
			}
		})
	}
}

func TestConditionEncoder(t *testing.T) {
	b := expr.NewBuilder(fieldEncoder{})
	c := expr.AllOf(
		expr.Gt("total", 1.5),                 // declared field: its encoder
		expr.Contains("tags", "vip"),          // set field: element encoding
		expr.Gt(expr.Attr("m", "total"), 1.5), // nested: inferred
		expr.Eq("other", 1.5),                 // undeclared: inferred
		expr.Gt(expr.Size("total"), 2),        // size: a number, inferred
		expr.BeginsWith("total", "1"),         // prefix: sent as S
		expr.OneOf("total", 1, 2),             // each element through the field
	)
	got, err := b.Condition(c, "f")
	if err != nil {
		t.Fatal(err)
	}
	want := "#f0 > :f1 AND contains(#f2, :f3) AND #f4.#f0 > :f5 AND #f6 = :f7 AND size(#f0) > :f8 AND begins_with(#f0, :f9) AND #f0 IN (:f10, :f11)"
	if got != want {
		t.Errorf("text = %q\nwant   %q", got, want)
	}
	wantVals := "#f0=total #f2=tags #f4=m #f6=other :f10=N:1.00 :f11=N:2.00 :f1=N:1.50 :f3=S:vip :f5=N:1.5 :f7=N:1.5 :f8=N:2 :f9=S:1"
	if d := dump(b); d != wantVals {
		t.Errorf("names/values = %q\nwant            %q", d, wantVals)
	}

	// The encoder's error comes back untouched, naming the field.
	_, err = expr.NewBuilder(fieldEncoder{}).Condition(expr.Eq("total", "x"), "c")
	if err == nil || !strings.Contains(err.Error(), "Order.total") {
		t.Errorf("err = %v, want the encoder's error", err)
	}
}

func TestConditionErrors(t *testing.T) {
	tests := []struct {
		name   string
		cond   expr.Cond
		prefix string
		want   string
	}{
		{"nil", nil, "c", "empty condition"},
		{"empty and", expr.AllOf(), "c", "empty condition"},
		{"bad prefix", expr.Exists("a"), "c-1", "condition prefix"},
		{"empty prefix", expr.Exists("a"), "", "condition prefix"},
		{"prefix ending in a digit", expr.Exists("a"), "c1", "not ending in a digit"},
		{"reserved prefix", expr.Exists("a"), "v", "reserved"},
		{"empty name", expr.Eq("", 1), "c", "empty attribute name"},
		{"empty in", expr.OneOf("a"), "c", "IN takes 1 to 100 values, got 0"},
		{"in over 100", expr.OneOf("a", make([]any, 101)...), "c", "got 101"},
		{"bad type", expr.AttrType("a", "STRING"), "c", `unknown type "STRING"`},
		{"negative index", expr.Eq(expr.Attr("a").Index(-1), 1), "c", "negative list index"},
		{"path from index", expr.Exists(expr.Path{{IsIndex: true}}), "c", "must start with an attribute name"},
		{"not nil", expr.Negate(nil), "c", "NOT of an empty condition"},
		{"empty raw", expr.RawCond("  ", nil, nil), "c", "empty raw expression"},
		{"raw bad name", expr.RawCond("#a-b = :x", map[string]string{"#a-b": "x"}, nil), "c", "raw name placeholder"},
		{"raw collides", expr.AllOf(expr.Exists("a"), expr.RawCond("#c0 = :x", map[string]string{"#c0": "b"}, map[string]any{"x": 1})), "c", "collides with a generated one"},
		{"generated collides", expr.AllOf(expr.RawCond("#c0 = :x", map[string]string{"#c0": "b"}, map[string]any{"x": 1}), expr.Exists("a")), "c", "collides with a generated one"},
		{"value collides", expr.AllOf(expr.RawCond("#x = :c1", map[string]string{"#x": "b"}, map[string]any{":c1": 1}), expr.Eq("a", 1)), "c", ":c1 of the raw expression collides"},
		{"raw name twice", expr.AllOf(expr.RawCond("#x = :y", map[string]string{"#x": "a"}, map[string]any{":y": 1}), expr.RawCond("#x = :z", map[string]string{"#x": "b"}, map[string]any{":z": 1})), "c", `#x stands for both "a" and "b"`},
		{"raw value twice", expr.AllOf(expr.RawCond(":y = :y", nil, map[string]any{":y": 1}), expr.RawCond(":y = :y", nil, map[string]any{":y": 2})), "c", ":y is given two different values"},
		{"function operand", &expr.Compare{Op: expr.EQ, L: &expr.Func{Name: "list_append"}, R: &expr.Value{Go: 1}}, "c", "not allowed in a condition"},
		{"bad comparator", &expr.Compare{Op: "==", L: expr.Attr("a"), R: &expr.Value{Go: 1}}, "c", "unknown comparator"},
		{"unknown func", &expr.CondFunc{Name: "exists", Args: []expr.Operand{expr.Attr("a")}}, "c", "unknown function"},
		{"arity", &expr.CondFunc{Name: "contains", Args: []expr.Operand{expr.Attr("a")}}, "c", "takes 2 operands"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := expr.NewBuilder(nil).Condition(tt.cond, tt.prefix)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.want)
			}
			var e *expr.Error
			if !errors.As(err, &e) {
				t.Errorf("err %T is not an *expr.Error", err)
			}
		})
	}
}

func TestRawSamePlaceholderSameMeaning(t *testing.T) {
	b := expr.NewBuilder(nil)
	raw := expr.RawCond("#b >= :v", map[string]string{"b": "balance"}, map[string]any{"v": 5})
	if _, err := b.Condition(raw, "c"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Update([]expr.Change{expr.RawUpdate("SET #b = #b - :v", map[string]string{"#b": "balance"}, map[string]any{":v": 5})}); err != nil {
		t.Fatal(err)
	}
	if d := dump(b); d != "#b=balance :v=N:5" {
		t.Errorf("names/values = %q", d)
	}
}

func TestUpdate(t *testing.T) {
	tests := []struct {
		name    string
		changes []expr.Change
		text    string
		vals    string
	}{
		{"seed U-3", []expr.Change{expr.Set("status", "paid"), expr.Increment("version", 1), expr.Remove("tmp")},
			"SET #a0 = :v0, #a1 = #a1 + :v1 REMOVE #a2", "#a0=status #a1=version #a2=tmp :v0=S:paid :v1=N:1"},
		{"set null", []expr.Change{expr.SetNull("x")}, "SET #a0 = :v0", "#a0=x :v0=NULL:true"},
		{"set nil", []expr.Change{expr.Set("x", nil)}, "SET #a0 = :v0", "#a0=x :v0=NULL:true"},
		{"decrement", []expr.Change{expr.Decrement("n", 2)}, "SET #a0 = #a0 - :v0", "#a0=n :v0=N:2"},
		{"add number", []expr.Change{expr.Add("n", 1)}, "ADD #a0 :v0", "#a0=n :v0=N:1"},
		{"add set", []expr.Change{expr.Add("tags", &types.AttributeValueMemberSS{Value: []string{"x"}})}, "ADD #a0 :v0", "#a0=tags :v0=SS:x"},
		{"delete set", []expr.Change{expr.Delete("tags", &types.AttributeValueMemberSS{Value: []string{"x"}})}, "DELETE #a0 :v0", "#a0=tags :v0=SS:x"},
		{"add element", []expr.Change{expr.Add("tags", "x")}, "ADD #a0 :v0", "#a0=tags :v0=SS:x"},
		{"delete elements", []expr.Change{expr.Delete("tags", "x"), expr.Delete("nums", 2), expr.Delete("bin", []byte{1})},
			"DELETE #a0 :v0, #a1 :v1, #a2 :v2", "#a0=tags #a1=nums #a2=bin :v0=SS:x :v1=NS:2 :v2=BS:[01]"},
		{"append", []expr.Change{expr.Append("l", []any{1})}, "SET #a0 = list_append(#a0, :v0)", "#a0=l :v0=L:[N:1]"},
		{"prepend", []expr.Change{expr.Prepend("l", []any{1})}, "SET #a0 = list_append(:v0, #a0)", "#a0=l :v0=L:[N:1]"},
		{"if_not_exists", []expr.Change{expr.IfNotExists("n", 0)}, "SET #a0 = if_not_exists(#a0, :v0)", "#a0=n :v0=N:0"},
		{"copy attribute", []expr.Change{expr.Set("a", expr.Attr("b"))}, "SET #a0 = #a1", "#a0=a #a1=b"},
		{"nested", []expr.Change{expr.Set(expr.Attr("address", "city"), "Paris"), expr.Remove(expr.Attr("items").Index(0))},
			"SET #a0.#a1 = :v0 REMOVE #a2[0]", "#a0=address #a1=city #a2=items :v0=S:Paris"},
		{"clause order", []expr.Change{
			expr.Delete("d", &types.AttributeValueMemberSS{Value: []string{"x"}}),
			expr.Add("c", 1), expr.Remove("b"), expr.Set("a", 1), expr.IfNotExists("e", 2)},
			"SET #a3 = :v3, #a4 = if_not_exists(#a4, :v4) REMOVE #a2 ADD #a1 :v1 DELETE #a0 :v0",
			"#a0=d #a1=c #a2=b #a3=a #a4=e :v0=SS:x :v1=N:1 :v3=N:1 :v4=N:2"},
		{"raw", []expr.Change{expr.RawUpdate("SET #t = :t", map[string]string{"#t": "total"}, map[string]any{"t": 5})},
			"SET #t = :t", "#t=total :t=N:5"},
		{"encoder", []expr.Change{expr.Set("total", 2.5), expr.Add("tags", &types.AttributeValueMemberSS{Value: []string{"x"}})},
			"SET #a0 = :v0 ADD #a1 :v1", "#a0=total #a1=tags :v0=N:2.50 :v1=SS:x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := expr.NewBuilder(fieldEncoder{})
			got, err := b.Update(tt.changes)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.text {
				t.Errorf("text = %q, want %q", got, tt.text)
			}
			if d := dump(b); d != tt.vals {
				t.Errorf("names/values = %q, want %q", d, tt.vals)
			}
		})
	}
}

func TestUpdateErrors(t *testing.T) {
	tests := []struct {
		name    string
		changes []expr.Change
		want    string
	}{
		{"none", nil, "update without changes"},
		{"zero", []expr.Change{{}}, "zero Change"},
		{"twice", []expr.Change{expr.Set("a", 1), expr.Remove("a")}, "a is changed twice"},
		{"overlap", []expr.Change{expr.Set("a", 1), expr.Set(expr.Attr("a", "b"), 2)}, "paths a and a.b overlap"},
		{"raw mixed", []expr.Change{expr.Set("a", 1), expr.RawUpdate("SET b = :b", nil, map[string]any{"b": 1})}, "cannot be combined"},
		{"raw empty", []expr.Change{expr.RawUpdate("", nil, nil)}, "empty raw expression"},
		{"path in add", []expr.Change{expr.Add("a", expr.Attr("b"))}, "allowed only in Set"},
		{"encoder error", []expr.Change{expr.Set("total", "x")}, "expr: value of total: Order.total: cannot encode"},
		{"empty name", []expr.Change{expr.Remove("")}, "empty attribute name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := expr.NewBuilder(fieldEncoder{}).Update(tt.changes)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestChangePath(t *testing.T) {
	if p := expr.Set("status", 1).Path(); p.String() != "status" {
		t.Errorf("Path = %v", p)
	}
	if c := expr.RawUpdate("SET a = :a", nil, nil); !c.IsRaw() || c.Path() != nil {
		t.Errorf("raw change: IsRaw %v Path %v", c.IsRaw(), c.Path())
	}
}

func TestProjection(t *testing.T) {
	b := expr.NewBuilder(nil)
	got, err := b.Projection("total", "comment", "a.b")
	if err != nil {
		t.Fatal(err)
	}
	if got != "#p0, #p1, #p2" {
		t.Errorf("text = %q", got)
	}
	if d := dump(b); d != "#p0=total #p1=comment #p2=a.b" {
		t.Errorf("names = %q", d)
	}
	got, err = expr.NewBuilder(nil).ProjectPaths(expr.Attr("m", "x"), expr.Attr("l").Index(1))
	if err != nil || got != "#p0.#p1, #p2[1]" {
		t.Errorf("ProjectPaths = %q, %v", got, err)
	}
	for _, attrs := range [][]string{nil, {"a", "a"}, {""}} {
		if _, err := expr.NewBuilder(nil).Projection(attrs...); err == nil {
			t.Errorf("Projection(%q) gave no error", attrs)
		}
	}
}

func TestKeyCondition(t *testing.T) {
	pk := &types.AttributeValueMemberS{Value: "order#u"}
	s := avtest.S
	tests := []struct {
		op   expr.KeyOp
		sk   []types.AttributeValue
		text string
		vals string
	}{
		{expr.KeyNone, nil, "#pk = :pk", "#pk=pk :pk=S:order#u"},
		{expr.KeyEQ, []types.AttributeValue{s("x")}, "#pk = :pk AND #sk = :sk", "#pk=pk #sk=sk :pk=S:order#u :sk=S:x"},
		{expr.KeyLT, []types.AttributeValue{s("x")}, "#pk = :pk AND #sk < :sk", "#pk=pk #sk=sk :pk=S:order#u :sk=S:x"},
		{expr.KeyLE, []types.AttributeValue{s("x")}, "#pk = :pk AND #sk <= :sk", "#pk=pk #sk=sk :pk=S:order#u :sk=S:x"},
		{expr.KeyGT, []types.AttributeValue{s("x")}, "#pk = :pk AND #sk > :sk", "#pk=pk #sk=sk :pk=S:order#u :sk=S:x"},
		{expr.KeyGE, []types.AttributeValue{s("x")}, "#pk = :pk AND #sk >= :sk", "#pk=pk #sk=sk :pk=S:order#u :sk=S:x"},
		{expr.KeyBeginsWith, []types.AttributeValue{s("2024")}, "#pk = :pk AND begins_with(#sk, :sk)", "#pk=pk #sk=sk :pk=S:order#u :sk=S:2024"},
		{expr.KeyBetween, []types.AttributeValue{s("a"), s("b")}, "#pk = :pk AND #sk BETWEEN :sk0 AND :sk1", "#pk=pk #sk=sk :pk=S:order#u :sk0=S:a :sk1=S:b"},
	}
	for _, tt := range tests {
		b := expr.NewBuilder(nil)
		got, err := b.KeyCondition("pk", pk, "sk", tt.op, tt.sk...)
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.text || dump(b) != tt.vals {
			t.Errorf("op %d: %q %q, want %q %q", tt.op, got, dump(b), tt.text, tt.vals)
		}
	}
	if _, err := expr.NewBuilder(nil).KeyCondition("pk", pk, "sk", expr.KeyBetween, s("a")); err == nil {
		t.Error("BETWEEN with one value gave no error")
	}
	if _, err := expr.NewBuilder(nil).KeyCondition("pk", nil, "", expr.KeyNone); err == nil {
		t.Error("nil partition value gave no error")
	}
	// A raw filter using #pk after the key condition collides.
	b := expr.NewBuilder(nil)
	if _, err := b.KeyCondition("pk", pk, "", expr.KeyNone); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Condition(expr.RawCond("attribute_exists(#pk)", map[string]string{"#pk": "pk"}, nil), "f"); err == nil {
		t.Error("raw #pk after the key condition gave no error")
	}
}

// One request: key condition, filter and projection share the maps, and
// the same input always gives the same text.
func TestBuilderDeterministic(t *testing.T) {
	build := func() string {
		b := expr.NewBuilder(nil)
		k, _ := b.KeyCondition("pk", &types.AttributeValueMemberS{Value: "u"}, "", expr.KeyNone)
		f, _ := b.Condition(expr.AllOf(expr.Gt("total", 100), expr.OneOf("status", "a", "b", "c")), "f")
		p, _ := b.Projection("total", "status")
		return k + "|" + f + "|" + p + "|" + dump(b)
	}
	first := build()
	for range 20 {
		if got := build(); got != first {
			t.Fatalf("run differs:\n%s\n%s", got, first)
		}
	}
	want := "#pk = :pk|#f0 > :f1 AND #f2 IN (:f3, :f4, :f5)|#p0, #p1|#f0=total #f2=status #p0=total #p1=status #pk=pk :f1=N:100 :f3=S:a :f4=S:b :f5=S:c :pk=S:u"
	if first != want {
		t.Errorf("got  %s\nwant %s", first, want)
	}
}

func TestNamesValuesNilWhenEmpty(t *testing.T) {
	b := expr.NewBuilder(nil)
	if b.Names() != nil || b.Values() != nil {
		t.Error("fresh builder has maps")
	}
	if _, err := b.Condition(expr.RawCond("attribute_exists(pk)", nil, nil), "c"); err != nil {
		t.Fatal(err)
	}
	if b.Names() != nil || b.Values() != nil {
		t.Error("raw condition without placeholders gave maps")
	}
	if _, err := b.Condition(expr.Exists("pk"), "c"); err != nil {
		t.Fatal(err)
	}
	if b.Names() == nil || b.Values() != nil {
		t.Errorf("names %v values %v", b.Names(), b.Values())
	}
}

// A Cond is never modified by building it, so it can be shared.
func TestCondReusable(t *testing.T) {
	c := expr.AllOf(expr.Eq("a", 1), expr.Exists(expr.Attr("m", "x")))
	before := expr.Print(c)
	for range 2 {
		if _, err := expr.NewBuilder(nil).Condition(c, "c"); err != nil {
			t.Fatal(err)
		}
	}
	if after := expr.Print(c); after != before {
		t.Errorf("tree changed: %q → %q", before, after)
	}
}

type status string

func TestNamedStringDesignator(t *testing.T) {
	b := expr.NewBuilder(nil)
	got, err := b.Condition(expr.Eq(status("state"), "x"), "c")
	if err != nil || got != "#c0 = :c1" || b.Names()["#c0"] != "state" {
		t.Errorf("%q %v %v", got, b.Names(), err)
	}
}
