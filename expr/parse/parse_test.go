package parse

import (
	"reflect"
	"strings"
	"testing"

	"github.com/dynamogo/dynamo/expr"
)

func TestConditionCanonical(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a = :v", "a = :v"},
		{"a=:v", "a = :v"},
		{"#n <> :v", "#n <> :v"},
		{"a.b[1].#c >= :v", "a.b[1].#c >= :v"},
		{"a.b [ 2 ] . c < :v", "a.b[2].c < :v"},
		{"a BETWEEN :lo AND :hi", "a BETWEEN :lo AND :hi"},
		{"a between :lo and :hi AND b = :c", "a BETWEEN :lo AND :hi AND b = :c"},
		{"a IN (:x,:y, :z)", "a IN (:x, :y, :z)"},
		{"attribute_exists(a)", "attribute_exists(a)"},
		{"attribute_not_exists(#pk) OR begins_with(sk, :p)", "attribute_not_exists(#pk) OR begins_with(sk, :p)"},
		{"attribute_type(a, :t)", "attribute_type(a, :t)"},
		{"contains(tags, :t)", "contains(tags, :t)"},
		{"size(a) > :n", "size(a) > :n"},
		{":n < size(a.b)", ":n < size(a.b)"},
		{"NOT a = :v", "NOT a = :v"},
		{"not (a = :v or b = :v)", "NOT (a = :v OR b = :v)"},
		{"a = :v AND b = :v OR c = :v", "a = :v AND b = :v OR c = :v"},
		{"a = :v AND (b = :v OR c = :v)", "a = :v AND (b = :v OR c = :v)"},
		{"(a = :v AND b = :v) AND c = :v", "(a = :v AND b = :v) AND c = :v"},
		{"(a = :v)", "a = :v"},
		{"(a) = :v", "a = :v"},
		{"a = (:v)", "a = :v"},
		{"(size(a)) BETWEEN :x AND :y", "size(a) BETWEEN :x AND :y"},
		{"NOT NOT a = :v", "NOT NOT a = :v"},
		{"NOT attribute_exists(a) AND NOT (b IN (:v))", "NOT attribute_exists(a) AND NOT b IN (:v)"},
		{"a_1 = :v_1", "a_1 = :v_1"},
	}
	for _, tt := range tests {
		c, err := Condition(tt.in)
		if err != nil {
			t.Errorf("Condition(%q): %v", tt.in, err)
			continue
		}
		if got := expr.Print(c); got != tt.want {
			t.Errorf("Print(Condition(%q)) = %q, want %q", tt.in, got, tt.want)
		}
		again, err := Condition(expr.Print(c))
		if err != nil || !reflect.DeepEqual(again, c) {
			t.Errorf("round trip of %q: %v, %#v != %#v", tt.in, err, again, c)
		}
	}
}

func TestConditionTree(t *testing.T) {
	c, err := Condition("a.b[3] = :v AND #x IN (:a, :b) AND (c = :v OR d < :w)")
	if err != nil {
		t.Fatal(err)
	}
	want := &expr.And{Conds: []expr.Cond{
		&expr.Compare{Op: expr.EQ,
			L: expr.Path{{Name: "a"}, {Name: "b"}, {Index: 3, IsIndex: true}},
			R: &expr.Value{Placeholder: ":v"}},
		&expr.In{X: expr.Path{{Name: "#x"}}, List: []expr.Operand{&expr.Value{Placeholder: ":a"}, &expr.Value{Placeholder: ":b"}}},
		&expr.Or{Conds: []expr.Cond{
			&expr.Compare{Op: expr.EQ, L: expr.Path{{Name: "c"}}, R: &expr.Value{Placeholder: ":v"}},
			&expr.Compare{Op: expr.LT, L: expr.Path{{Name: "d"}}, R: &expr.Value{Placeholder: ":w"}},
		}},
	}}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got %#v", c)
	}
}

func TestConditionErrors(t *testing.T) {
	const p = "Invalid ConditionExpression: "
	tests := []struct{ in, want string }{
		{"", p + "The expression can not be empty;"},
		{"  \n", p + "The expression can not be empty;"},
		{"a =", p + `Syntax error; token: "<EOF>", near: "="`},
		{"foo", p + `Syntax error; token: "<EOF>", near: "foo"`},
		{"attribute_not_exists(", p + `Syntax error; token: "<EOF>", near: "("`},
		{"contains (themes, :theme", p + `Syntax error; token: "<EOF>", near: ":theme"`},
		{"a = = :v", p + `Syntax error; token: "=", near: "= = :v"`},
		{"INVALID SYNTAX", p + `Syntax error; token: "SYNTAX", near: "INVALID SYNTAX"`},
		{"a != :v", p + `Syntax error; token: "!", near: "a !="`},
		{"a = :v AND", p + `Syntax error; token: "<EOF>", near: "AND"`},
		{"a = :v and or b = :v", p + `Syntax error; token: "or", near: "and or b"`},
		{"and = :v", p + `Syntax error; token: "and", near: "and ="`},
		{"a BETWEEN :x OR :y", p + `Syntax error; token: "OR", near: ":x OR :y"`},
		{"a IN :x", p + `Syntax error; token: ":x", near: "IN :x"`},
		{"a[x] = :v", p + `Syntax error; token: "x", near: "[x]"`},
		{"[1] = :v", p + `Syntax error; token: "[", near: "[1"`},
		{"a = :v)", p + `Syntax error; token: ")", near: ":v)"`},
		{"_a = :v", p + `Syntax error; token: "_", near: "_a"`},
		{"a = :", p + `Syntax error; token: ":", near: "= :"`},
		{"a + :v = :w", p + `Syntax error; token: "+", near: "a + :v"`},
		{"status = :v", p + "Attribute name is a reserved keyword; reserved keyword: status"},
		{"a.Size = :v", p + "Attribute name is a reserved keyword; reserved keyword: Size"},
		{"((a = :v))", p + "The expression has redundant parentheses;"},
		{"a = ((:v))", p + "The expression has redundant parentheses;"},
		{"foo(a)", p + "Invalid function name; function: foo"},
		{"SIZE(a) = :v", p + "Invalid function name; function: SIZE"},
		{"a = if_not_exists(a, :v)", p + "The function is not allowed in a condition expression; function: if_not_exists"},
		{"size(a)", p + "The function is not allowed to be used this way in an expression; function: size"},
		{"attribute_exists(a) = :v", p + "The function is not allowed to be used this way in an expression; function: attribute_exists"},
		{"size(contains(a, :v)) = :n", p + "The function is not allowed to be used this way in an expression; function: contains"},
		{"a[99999999999] = :v", p + "List index is not within the allowable range; index: [99999999999]"},
		// precedence of the noted errors: parentheses, then functions, then
		// misused functions, then reserved words.
		{"status = :v AND ((a = :v))", p + "The expression has redundant parentheses;"},
		{"status = :v AND foo(a)", p + "Invalid function name; function: foo"},
		{"size(status)", p + "The function is not allowed to be used this way in an expression; function: size"},
		// a syntax error wins over all of them
		{"status = :v AND ((a = :v)) AND", p + `Syntax error; token: "<EOF>", near: "AND"`},
	}
	for _, tt := range tests {
		_, err := Condition(tt.in)
		if err == nil {
			t.Errorf("Condition(%q): no error, want %q", tt.in, tt.want)
			continue
		}
		if _, ok := err.(*SyntaxError); !ok || err.Error() != tt.want {
			t.Errorf("Condition(%q):\n got %q\nwant %q", tt.in, err, tt.want)
		}
	}
}

func TestLimits(t *testing.T) {
	long := "a = :v" + strings.Repeat(" ", MaxExpressionSize)
	_, err := Condition(long)
	want := "Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; expression size: 4102"
	if err == nil || err.Error() != want {
		t.Errorf("long: %v", err)
	}
	ok := "a = :v" + strings.Repeat(" ", MaxExpressionSize-6)
	if _, err := Condition(ok); err != nil {
		t.Errorf("4096 bytes: %v", err)
	}
	// Deep nesting within the size limit gets DynamoDB's own answers, fast
	// and without exhausting the stack.
	deep := strings.Repeat("(", 2046) + "a<b" + strings.Repeat(")", 2046)
	if _, err := Condition(deep); err == nil || err.Error() != "Invalid ConditionExpression: The expression has redundant parentheses;" {
		t.Errorf("deep parens: %v", err)
	}
	open := strings.Repeat("(", MaxExpressionSize)
	if _, err := Condition(open); err == nil || !strings.Contains(err.Error(), `Syntax error; token: "<EOF>"`) {
		t.Errorf("unclosed parens: %v", err)
	}
	nots := strings.Repeat("NOT ", 1000) + "a = :v"
	if c, err := Condition(nots); err != nil || expr.Print(c) != nots {
		t.Errorf("deep NOT: %v", err) // eval rejects it: more than 300 operators
	}
	calls := "a < " + strings.Repeat("f(", 1355) + "b" + strings.Repeat(")", 1355)
	if _, err := Condition(calls); err == nil || err.Error() != "Invalid ConditionExpression: Invalid function name; function: f" {
		t.Errorf("deep calls: %v", err)
	}
	sizes := strings.Repeat("size(", 600) + "a" + strings.Repeat(")", 600) + " = :v"
	if _, err := Condition(sizes); err != nil {
		t.Errorf("deep size: %v", err) // eval rejects it: size of a number
	}
	upd := "SET a = " + strings.Repeat("(", 2000) + ":v" + strings.Repeat(")", 2000)
	if _, err := Update(upd); err == nil || err.Error() != "Invalid UpdateExpression: The expression has redundant parentheses;" {
		t.Errorf("deep update parens: %v", err)
	}
	// Nesting within the cap parses, with the redundant-parentheses check.
	nested := "a = :v"
	for range 100 {
		nested = "(" + nested + " AND b = :v)"
	}
	if _, err := Condition(nested); err != nil {
		t.Errorf("100 levels: %v", err)
	}
}

func TestUpdate(t *testing.T) {
	tests := []struct{ in, want string }{
		{"SET a = :v", "SET a = :v"},
		{"set a=:v,b=:w", "SET a = :v, b = :w"},
		{"SET a = a + :n", "SET a = a + :n"},
		{"SET a = :n - a", "SET a = :n - a"},
		{"SET a = (a + :n)", "SET a = a + :n"},
		{"SET a = (a) + (:n)", "SET a = a + :n"},
		{"SET a = ((a) + :n)", "SET a = a + :n"},
		{"SET a = list_append((b), :c)", "SET a = list_append(b, :c)"},
		{"SET #c = if_not_exists(#c, :zero) + :one", "SET #c = if_not_exists(#c, :zero) + :one"},
		{"SET l = list_append(if_not_exists(l, :empty), :v)", "SET l = list_append(if_not_exists(l, :empty), :v)"},
		{"SET a.b[2].c = :v", "SET a.b[2].c = :v"},
		{"REMOVE a, b.c, l[0]", "REMOVE a, b.c, l[0]"},
		{"ADD n :one, s :s", "ADD n :one, s :s"},
		{"DELETE s :s", "DELETE s :s"},
		{"DELETE s :s REMOVE r ADD n :n SET a = :v", "SET a = :v REMOVE r ADD n :n DELETE s :s"},
		{"remove a set b = :v", "SET b = :v REMOVE a"},
	}
	for _, tt := range tests {
		u, err := Update(tt.in)
		if err != nil {
			t.Errorf("Update(%q): %v", tt.in, err)
			continue
		}
		got := expr.PrintUpdate(u)
		if got != tt.want {
			t.Errorf("PrintUpdate(Update(%q)) = %q, want %q", tt.in, got, tt.want)
		}
		again, err := Update(got)
		if err != nil || !reflect.DeepEqual(again, u) {
			t.Errorf("round trip of %q: %v", tt.in, err)
		}
	}
}

func TestUpdateErrors(t *testing.T) {
	const p = "Invalid UpdateExpression: "
	tests := []struct{ in, want string }{
		{"", p + "The expression can not be empty;"},
		{"SET", p + `Syntax error; token: "<EOF>", near: "SET"`},
		{"SET a = :v,", p + `Syntax error; token: "<EOF>", near: ","`},
		{"SET book-price = :p", p + `Syntax error; token: "-", near: "book-price"`},
		{"INVALID SYNTAX", p + `Syntax error; token: "INVALID", near: "INVALID SYNTAX"`},
		{"SET a :v", p + `Syntax error; token: ":v", near: "a :v"`},
		{"ADD a b", p + `Syntax error; token: "b", near: "a b"`},
		{"ADD a", p + `Syntax error; token: "<EOF>", near: "a"`},
		{"SET a = b + c + d", p + `Syntax error; token: "+", near: "c + d"`},
		{"SET a = (b + c) + d", p + `Syntax error; token: "+", near: "b + c"`},
		{"SET a = :v SET b = :v", p + `The "SET" section can only be used once in an update expression;`},
		{"REMOVE a remove b", p + `The "REMOVE" section can only be used once in an update expression;`},
		{"SET status = :v", p + "Attribute name is a reserved keyword; reserved keyword: status"},
		{"SET a = size(b)", p + "The function is not allowed in an update expression; function: size"},
		{"SET a = contains(b, :v)", p + "The function is not allowed in an update expression; function: contains"},
		{"SET a = foo(b)", p + "Invalid function name; function: foo"},
		{"SET a = ((:v))", p + "The expression has redundant parentheses;"},
		{"SET a = list_append(list_append(:a, :b), :c)", p + "The function is not allowed to be used this way in an expression; function: list_append"},
		{"SET a = if_not_exists(a, list_append(:a, :b))", p + "The function is not allowed to be used this way in an expression; function: list_append"},
		{"SET a = list_append(:a, :b) + :n", p + "The function is not allowed to be used this way in an expression; function: list_append"},
		{"SET a = :n - (list_append(:a, :b))", p + "The function is not allowed to be used this way in an expression; function: list_append"},
		{"SET a = if_not_exists(b, :v+:w)", p + `Syntax error; token: "+", near: ":v+:w"`},
		{"SET a = if_not_exists(b, (:v + :w))", p + `Syntax error; token: "+", near: ":v + :w"`},
		{"SET a = list_append((:v + :w), :l)", p + `Syntax error; token: "+", near: ":v + :w"`},
		{"SET :a = :b", p + `Syntax error; token: ":a", near: "SET :a ="`},
		{"SET a[:i] = :b", p + `Syntax error; token: ":i", near: "[:i]"`},
		{"SET a[#i] = :b", p + `Syntax error; token: "#i", near: "[#i]"`},
		{"SET _123 = :v", p + `Syntax error; token: "_", near: "SET _123"`},
		{"SET a = LIST_APPEND(:a, :b)", p + "Invalid function name; function: LIST_APPEND"},
		{"HELLO b = :v", p + `Syntax error; token: "HELLO", near: "HELLO b"`},
	}
	for _, tt := range tests {
		_, err := Update(tt.in)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Update(%q):\n got %v\nwant %q", tt.in, err, tt.want)
		}
	}
}

func TestProjection(t *testing.T) {
	paths, err := Projection("a, #b.c[3], d.e")
	if err != nil {
		t.Fatal(err)
	}
	if got := expr.PrintProjection(paths); got != "a, #b.c[3], d.e" {
		t.Errorf("got %q", got)
	}
	const p = "Invalid ProjectionExpression: "
	for in, want := range map[string]string{
		"a,":          p + `Syntax error; token: "<EOF>", near: ","`,
		"!!":          p + `Syntax error; token: "!", near: "!!"`,
		"a.abORt":     p + "Attribute name is a reserved keyword; reserved keyword: abORt",
		"#a,ABSoLUTE": p + "Attribute name is a reserved keyword; reserved keyword: ABSoLUTE",
		"":            p + "The expression can not be empty;",
		"a b":         p + `Syntax error; token: "b", near: "a b"`,
	} {
		if _, err := Projection(in); err == nil || err.Error() != want {
			t.Errorf("Projection(%q):\n got %v\nwant %q", in, err, want)
		}
	}
}

func TestFilterAndKeyConditionNameTheirExpression(t *testing.T) {
	if _, err := Filter("a ="); err == nil || !strings.HasPrefix(err.Error(), "Invalid FilterExpression: Syntax error") {
		t.Errorf("Filter: %v", err)
	}
	if _, err := SearchCondition("a ="); err == nil || !strings.HasPrefix(err.Error(), "Invalid SearchConditionExpression: Syntax error") {
		t.Errorf("SearchCondition: %v", err)
	}
	if _, err := KeyCondition("a ="); err == nil || !strings.HasPrefix(err.Error(), "Invalid KeyConditionExpression: Syntax error") {
		t.Errorf("KeyCondition: %v", err)
	}
}

func TestIsReserved(t *testing.T) {
	if len(reserved) != 573 {
		t.Errorf("%d reserved words, DynamoDB lists 573", len(reserved))
	}
	for _, w := range []string{"status", "STATUS", "Name", "data", "flattern", "zone", "abort"} {
		if !IsReserved(w) {
			t.Errorf("IsReserved(%q) = false", w)
		}
	}
	for _, w := range []string{"", "pk", "sk", "statuses", "my_status", "a", strings.Repeat("x", 100)} {
		if IsReserved(w) {
			t.Errorf("IsReserved(%q) = true", w)
		}
	}
}

func TestErrorPositions(t *testing.T) {
	tests := []struct {
		in  string
		pos int
		fn  func(string) error
	}{
		{"a = :v AND", 10, condErr},
		{"a != :v", 2, condErr},
		{"a = :v AND status = :s", 11, condErr},
		{"a = :v OR foo(b) = :v", 10, condErr},
		{"a = :v OR ((b = :v))", 10, condErr},
		{"", -1, condErr},
		{"SET a = :v, b = list_append(list_append(:a, :b), :c)", 28, updErr},
		{"SET a = :v SET b = :v", 11, updErr},
	}
	for _, tt := range tests {
		err := tt.fn(tt.in)
		se, ok := err.(*SyntaxError)
		if !ok {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if se.Pos != tt.pos {
			t.Errorf("%q: Pos = %d, want %d (%s)", tt.in, se.Pos, tt.pos, se.Msg)
		}
	}
}

func condErr(s string) error { _, err := Condition(s); return err }
func updErr(s string) error  { _, err := Update(s); return err }
