package eval

import (
	"reflect"
	"regexp"
	"testing"
)

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
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
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
				if _, ok := err.(*Error); !ok {
					t.Fatalf("update error of type %T: %v", err, err)
				}
			} else if out == nil {
				t.Fatal("nil item from a successful update")
			}
			if before != nil && !reflect.DeepEqual(item, before) {
				t.Fatal("the update modified its input")
			}
		}
	})
}
