package eval

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// knownMessages are the texts Compile and Update may fail with (after any
// "Invalid <kind>: " prefix); anything else is a bug.
var knownMessages = []string{
	`Syntax error; token: "`, "The expression can not be empty;", "Expression size has exceeded",
	"The expression is nested too deeply", "The expression has redundant parentheses;",
	"Attribute name is a reserved keyword", "Invalid function name", "The function is not allowed",
	"List index is not within the allowable range", `The "`,
	"An expression attribute name used in the document path is not defined",
	"An expression attribute value used in expression is not defined",
	"Incorrect number of operands", "Incorrect operand type", "Operator or function requires a document path",
	"The first operand must be distinct", "The BETWEEN operator requires", "The IN operator is provided with too many operands",
	"Invalid attribute type name found", "Two document paths overlap", "Two document paths conflict",
	"The expression contains too many operators", "The document path has too many nesting levels",
	"Value provided in ExpressionAttribute", "ExpressionAttribute",
	"The provided expression refers to an attribute that does not exist in the item",
	"An operand in the update expression has an incorrect data type",
	"The document path provided in the update expression is invalid for update",
	"One or more parameter values were invalid: Cannot update attribute",
	"Number overflow", "Number underflow", "Attempting to store more than 38 significant digits",
}

func checkKnown(t *testing.T, err error) {
	t.Helper()
	e, ok := err.(*Error)
	if !ok || e.Type != "ValidationException" {
		t.Fatalf("error of type %T: %v", err, err)
	}
	msg := e.Message
	if strings.HasPrefix(msg, "Invalid ") {
		if _, rest, ok := strings.Cut(msg, "Expression: "); ok {
			msg = rest
		}
	}
	for _, k := range knownMessages {
		if strings.HasPrefix(msg, k) {
			return
		}
	}
	t.Fatalf("unexpected message %q", e.Message)
}

var placeholderRE = regexp.MustCompile(`[#:][A-Za-z0-9_]+`)

// fuzzValues of every type, handed out to the placeholders in turn.
var fuzzValues = []AV{sv("x"), nv("1"), bv(1), boolv(true), nullv(), ssv("a"), nsv("2"), bsv([]byte{3}),
	lv(sv("x")), mv(map[string]AV{"k": nv("1")}), nv("-1.5E3"), sv("")}

var fuzzNames = []string{"n", "s", "l", "m", "tags", "nope", "pk", "a.b"}

// inputFor defines every placeholder the texts use, so that random
// expressions get past the placeholder checks to evaluation.
func inputFor(texts ...string) (names, vals) {
	ns, vs := names{}, vals{}
	for _, text := range texts {
		for _, p := range placeholderRE.FindAllString(text, -1) {
			if p[0] == '#' {
				ns[p] = fuzzNames[len(ns)%len(fuzzNames)]
			} else {
				vs[p] = fuzzValues[len(vs)%len(fuzzValues)]
			}
		}
	}
	if len(ns) == 0 {
		ns = nil
	}
	if len(vs) == 0 {
		vs = nil
	}
	return ns, vs
}

// FuzzEval: any condition and update expression compiles or fails with a
// *Error, and evaluating them never panics nor modifies the item given.
func FuzzEval(f *testing.F) {
	f.Add("n = :v AND size(l) > :w", "SET n = n + :one")
	f.Add("contains(tags, :t) OR NOT s BETWEEN :a AND :b", "SET l[5] = :x, m.k = list_append(if_not_exists(l, :e), :v)")
	f.Add("attribute_type(#a, :t)", "REMOVE l[0], m.k ADD tags :t DELETE tags :u")
	f.Add("begins_with(s, :p) AND m.k IN (:a, :b)", "SET #x.#y = :v")
	f.Fuzz(func(t *testing.T, condText, updateText string) {
		ns, vs := inputFor(condText, updateText)
		c, err := Compile(Input{Condition: &condText, Update: &updateText, Names: ns, Values: vs})
		if err != nil {
			checkKnown(t, err)
			return
		}
		for _, item := range []Item{nil, sampleItem()} {
			before := deepCopy(item)
			c.Condition(item)
			if item == nil {
				item = Item{}
			}
			out, _, err := c.Update(item, []string{"pk"})
			if err != nil {
				checkKnown(t, err)
			} else if out == nil {
				t.Fatal("nil item from a successful update")
			}
			if before != nil && !reflect.DeepEqual(item, before) {
				t.Fatal("the update modified its input")
			}
		}
	})
}
