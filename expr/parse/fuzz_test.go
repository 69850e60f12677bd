package parse

import (
	"reflect"
	"strings"
	"testing"

	"github.com/dynamogo/dynamo/expr"
)

var condSeeds = []string{
	"a = :v",
	"#a.b[1] <> :v AND NOT (c < :w OR d BETWEEN :x AND :y)",
	"attribute_exists(a) AND attribute_not_exists(#b) OR begins_with(c, :p)",
	"contains(tags, :t) AND size(l) > :n AND attribute_type(a, :t)",
	"a IN (:a, :b, :c) AND (b = :v)",
	"((a = :v))",
	"(a) = :v",
	"NOT NOT a = :v",
	"status = :v",
	"a = :v AND",
	"size(a)",
	"foo(a) = :v",
	"a[99999999999] = :v",
	"(((((((((((a = :v)))))))))))",
	"(size((a))) > :v AND a IN ((:v), b) AND NOT (a) BETWEEN (:x) AND (:y)",
	"attribute_exists(a) = :v OR if_not_exists(a, :v) = :v",
}

var updateSeeds = []string{
	"SET a = :v",
	"SET a = a + :n, b = if_not_exists(b, :z) - :n REMOVE c, d[1] ADD e :s DELETE f :s",
	"SET l = list_append(if_not_exists(l, :e), :v)",
	"SET a = (b + :c)",
	"SET a = ((:v))",
	"REMOVE a SET b = :v",
	"SET a = :v SET b = :v",
	"SET book-price = :p",
	"ADD a",
	"SET a = if_not_exists(a, (:v))",
	"SET a = list_append((b), :c)",
	"SET a = ((a) + :n)",
	"SET a = (if_not_exists(a, :z)) - (:n)",
	"SET a = list_append(list_append(:a, :b), :c)",
}

// knownErrors are the messages the parser may give, after "Invalid <kind>: ".
// Anything else is a bug, as is a panic.
var knownErrors = []string{
	`Syntax error; token: "`,
	"The expression can not be empty;",
	"Expression size has exceeded the maximum allowed size; expression size: ",
	"The expression has redundant parentheses;",
	"Attribute name is a reserved keyword; reserved keyword: ",
	"Invalid function name; function: ",
	"The function is not allowed in a condition expression; function: ",
	"The function is not allowed in an update expression; function: ",
	"The function is not allowed to be used this way in an expression; function: ",
	"List index is not within the allowable range; index: [",
	`The "SET" section`, `The "REMOVE" section`, `The "ADD" section`, `The "DELETE" section`,
}

func checkKnown(t *testing.T, kind string, err error) {
	t.Helper()
	se, ok := err.(*SyntaxError)
	if !ok {
		t.Fatalf("error of type %T: %v", err, err)
	}
	msg, ok := strings.CutPrefix(se.Msg, "Invalid "+kind+": ")
	if !ok {
		t.Fatalf("message not about %s: %q", kind, se.Msg)
	}
	for _, k := range knownErrors {
		if strings.HasPrefix(msg, k) {
			return
		}
	}
	t.Fatalf("unexpected message %q", se.Msg)
}

// FuzzCondition: no input panics, and a parsed condition prints to text
// that parses back to the same tree.
func FuzzCondition(f *testing.F) {
	for _, s := range condSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Condition(s)
		if err != nil {
			checkKnown(t, "ConditionExpression", err)
			return
		}
		text := expr.Print(c)
		if len(text) > MaxExpressionSize {
			return // canonical spacing can make it longer than the limit
		}
		again, err := Condition(text)
		if err != nil {
			t.Fatalf("Print(Condition(%q)) = %q does not parse: %v", s, text, err)
		}
		if !reflect.DeepEqual(again, c) {
			t.Fatalf("round trip of %q through %q changed the tree", s, text)
		}
	})
}

// FuzzUpdate: as FuzzCondition, for update expressions.
func FuzzUpdate(f *testing.F) {
	for _, s := range updateSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := Update(s)
		if err != nil {
			checkKnown(t, "UpdateExpression", err)
			return
		}
		text := expr.PrintUpdate(u)
		if len(text) > MaxExpressionSize {
			return
		}
		again, err := Update(text)
		if err != nil {
			t.Fatalf("PrintUpdate(Update(%q)) = %q does not parse: %v", s, text, err)
		}
		if !reflect.DeepEqual(again, u) {
			t.Fatalf("round trip of %q through %q changed the tree", s, text)
		}
	})
}

// FuzzProjection: as FuzzCondition, for projection expressions.
func FuzzProjection(f *testing.F) {
	for _, s := range []string{"a", "a, #b.c[2]", "a,", "!!", "a.abort"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		paths, err := Projection(s)
		if err != nil {
			checkKnown(t, "ProjectionExpression", err)
			return
		}
		text := expr.PrintProjection(paths)
		if len(text) > MaxExpressionSize {
			return
		}
		again, err := Projection(text)
		if err != nil || !reflect.DeepEqual(again, paths) {
			t.Fatalf("round trip of %q through %q: %v", s, text, err)
		}
	})
}
