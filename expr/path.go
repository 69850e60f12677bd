package expr

import (
	"reflect"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Attribute designates an attribute in a condition or an update: either a
// top-level attribute name, taken literally (dots and brackets are not
// parsed, so "a.b" is one attribute whose name contains a dot), or a Path
// built with Attr for nested maps and list elements.
//
//	expr.Eq("status", "paid")                               // #c0 = :c1
//	expr.Eq(expr.Attr("address", "city"), "Paris")          // #c0.#c1 = :c2
//	expr.Eq(expr.Attr("items").Index(2).Attr("sku"), "x")   // #c0[2].#c1 = :c2
type Attribute interface{ ~string | Path }

// Subject is what the comparisons, Between and In accept on their left-hand
// side: an Attribute, or the size of one (Size).
type Subject interface{ ~string | Path | *Func }

// Attr returns the path of nested map keys names[0].names[1]…; every name is
// taken literally. Attr("a") is the same attribute as "a".
func Attr(names ...string) Path {
	p := make(Path, len(names))
	for i, n := range names {
		p[i] = PathElem{Name: n}
	}
	return p
}

// Attr returns p extended by the map key name: Attr("a").Attr("b") is a.b.
func (p Path) Attr(name string) Path {
	return append(p[:len(p):len(p)], PathElem{Name: name})
}

// Index returns p extended by the list index i: Attr("items").Index(0) is
// items[0].
func (p Path) Index(i int) Path {
	return append(p[:len(p):len(p)], PathElem{Index: i, IsIndex: true})
}

// TopLevel reports the attribute name when p is a single top-level name
// (the case in which values are encoded with the schema's field type).
func (p Path) TopLevel() (string, bool) {
	if len(p) == 1 && !p[0].IsIndex {
		return p[0].Name, true
	}
	return "", false
}

// Size is the size(path) function, for comparisons such as
// expr.Gt(expr.Size("tags"), 3) → size(#c0) > :c1.
func Size[A Attribute](a A) *Func {
	return &Func{Name: "size", Args: []Operand{pathOf(a)}}
}

func pathOf[A Attribute](a A) Path {
	switch v := any(a).(type) {
	case string:
		return Path{{Name: v}}
	case Path:
		return v
	}
	// A named string type: ~string admits it, the switch above cannot.
	return Path{{Name: reflect.ValueOf(a).String()}}
}

func subjectOf[S Subject](s S) Operand {
	switch v := any(s).(type) {
	case string:
		return Path{{Name: v}}
	case Path:
		return v
	case *Func:
		return v
	}
	return Path{{Name: reflect.ValueOf(s).String()}}
}

// operandOf turns the value side of a constructor into an operand: another
// attribute (a Path) or function compares against that, an encoded
// types.AttributeValue is used as is, anything else is a Go value encoded
// when the expression is built.
func operandOf(v any) Operand {
	switch v := v.(type) {
	case Operand:
		return v
	case types.AttributeValue:
		return &Value{AV: v}
	}
	return &Value{Go: v}
}
