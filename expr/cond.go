package expr

// Condition constructors. They build the AST with real attribute names and
// Go values; a Builder later swaps names and values for placeholders and
// encodes the values, so a Cond can be built once and reused in any number
// of requests, from any number of goroutines.

// Eq is s = v. v is a Go value (encoded with the field's type when s is a
// top-level declared field, else inferred), an already encoded
// types.AttributeValue, or another attribute (a Path, or Size of one).
func Eq[S Subject](s S, v any) Cond { return cmp(EQ, s, v) }

// Ne is s <> v.
func Ne[S Subject](s S, v any) Cond { return cmp(NE, s, v) }

// Lt is s < v.
func Lt[S Subject](s S, v any) Cond { return cmp(LT, s, v) }

// Le is s <= v.
func Le[S Subject](s S, v any) Cond { return cmp(LE, s, v) }

// Gt is s > v.
func Gt[S Subject](s S, v any) Cond { return cmp(GT, s, v) }

// Ge is s >= v.
func Ge[S Subject](s S, v any) Cond { return cmp(GE, s, v) }

func cmp[S Subject](op CompareOp, s S, v any) Cond {
	return &Compare{Op: op, L: subjectOf(s), R: operandOf(v)}
}

// InRange is s BETWEEN lo AND hi, both bounds included. (The AST node is
// Between; the constructor needs another name in the same package.)
func InRange[S Subject](s S, lo, hi any) Cond {
	return &Between{X: subjectOf(s), Lo: operandOf(lo), Hi: operandOf(hi)}
}

// OneOf is s IN (v0, v1, …); DynamoDB accepts 1 to 100 values.
func OneOf[S Subject](s S, vs ...any) Cond {
	list := make([]Operand, len(vs))
	for i, v := range vs {
		list[i] = operandOf(v)
	}
	return &In{X: subjectOf(s), List: list}
}

// BeginsWith is begins_with(a, prefix). A string or []byte prefix is sent as
// S or B as given (a prefix of a time or composite value is not a whole
// value of the field's type); other values go through the field's type.
func BeginsWith[A Attribute](a A, prefix any) Cond {
	return &CondFunc{Name: "begins_with", Args: []Operand{pathOf(a), operandOf(prefix)}}
}

// Contains is contains(a, v): a substring of a string, or an element of a set
// or list. For a set field a single element is encoded as the element.
func Contains[A Attribute](a A, v any) Cond {
	return &CondFunc{Name: "contains", Args: []Operand{pathOf(a), operandOf(v)}}
}

// Exists is attribute_exists(a).
func Exists[A Attribute](a A) Cond {
	return &CondFunc{Name: "attribute_exists", Args: []Operand{pathOf(a)}}
}

// NotExists is attribute_not_exists(a).
func NotExists[A Attribute](a A) Cond {
	return &CondFunc{Name: "attribute_not_exists", Args: []Operand{pathOf(a)}}
}

// AttrType is attribute_type(a, :t) where t is one of DynamoDB's type
// descriptors: S, SS, N, NS, B, BS, BOOL, NULL, L, M.
func AttrType[A Attribute](a A, t string) Cond {
	return &CondFunc{Name: "attribute_type", Args: []Operand{pathOf(a), &Value{Go: typeName(t)}}}
}

// typeName marks the attribute_type operand so the Builder validates it and
// sends it as S whatever the field's type.
type typeName string

// AllOf is the conjunction (AND) of cs. Nil conditions are skipped, which
// lets optional parts be written inline; AllOf of a single condition is that
// condition and AllOf of none is nil.
func AllOf(cs ...Cond) Cond {
	cs = compact(cs)
	switch len(cs) {
	case 0:
		return nil
	case 1:
		return cs[0]
	}
	return &And{Conds: cs}
}

// AnyOf is the disjunction (OR) of cs; nil conditions are skipped as in
// AllOf.
func AnyOf(cs ...Cond) Cond {
	cs = compact(cs)
	switch len(cs) {
	case 0:
		return nil
	case 1:
		return cs[0]
	}
	return &Or{Conds: cs}
}

// Negate is NOT c.
func Negate(c Cond) Cond { return &Not{Cond: c} }

// RawCond is condition text written by hand with its own placeholders.
// names maps "#n" to attribute names, values maps ":v" to Go values (or
// encoded types.AttributeValues); the leading '#' or ':' may be left out.
// The Builder merges them with its generated placeholders: the same
// placeholder used by both is an error, never a silent overwrite.
func RawCond(text string, names map[string]string, values map[string]any) Cond {
	return &Raw{Text: text, Names: names, Values: values}
}

// compact drops nil conditions into a fresh slice, so a caller's slice is
// never shared with the tree.
func compact(cs []Cond) []Cond {
	n := 0
	for _, c := range cs {
		if c != nil {
			n++
		}
	}
	out := make([]Cond, 0, n)
	for _, c := range cs {
		if c != nil {
			out = append(out, c)
		}
	}
	return out
}
