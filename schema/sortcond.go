package schema

import (
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/codec"
)

// SortOp is the comparison of a sort-key condition (SortCondition).
type SortOp uint8

// The comparisons a Query's key condition makes on a sort key.
const (
	SortEQ SortOp = iota + 1
	SortLT
	SortLE
	SortGT
	SortGE
	SortBetween    // two values, both inclusive
	SortBeginsWith // a prefix of the field's text
)

// SortRange is a condition on a table's sort key, as a Query's key
// condition says it: Op on the sort key attribute with Values (two for
// SortBetween, else one). Exclude, when not nil, is the one value of Field
// that the range includes and the condition does not: the query keeps it
// out with a filter "Field <> Exclude" (it costs at most one item read).
type SortRange struct {
	Field   string // the sort-key field the condition is about
	Op      SortOp
	Values  []types.AttributeValue
	Exclude types.AttributeValue
}

// SortCondition turns a condition on one sort-key field into a condition on
// the table's sort key. The field is the first sort-key field v does not
// fix (set, or unset with a default); the fields before it are the fixed
// prefix the library composes. Each value is a value of that field's type
// (a string is taken as the field's text, which allows partial times such
// as "2024-07"); SortBeginsWith takes a string. The rule, derived in the
// package documentation ("Sort-key conditions"), is exact on the composed
// key: no item of another value of a fixed field, and no item of a value
// outside the range, matches.
//
// Errors, each naming the field: every sort-key field fixed by v, a value
// that is empty, contains the separator or cannot be encoded, and a range
// or prefix on a part that does not sort as its values (a number, binary or
// boolean field: only SortEQ applies). With RawKeys the condition is on the
// sort-key field itself, with its own type.
func (s *Schema[T]) SortCondition(v T, op SortOp, vals ...any) (SortRange, error) {
	if s.embedded {
		return SortRange{}, s.noKeys()
	}
	if len(s.sk) == 0 {
		return SortRange{}, s.errf("", "the table has no sort key")
	}
	want := 1
	switch op {
	case SortBetween:
		want = 2
	case SortEQ, SortLT, SortLE, SortGT, SortGE, SortBeginsWith:
	default:
		return SortRange{}, s.errf("", "unknown sort-key operator %d", op)
	}
	if len(vals) != want {
		return SortRange{}, s.errf("", "the sort-key condition takes %d values, got %d", want, len(vals))
	}
	if s.raw {
		return s.rawSortCondition(op, vals)
	}
	rv := reflect.ValueOf(&v).Elem()
	var q strings.Builder // the fixed prefix, then the field's label
	k := 0
	for ; k < len(s.sk); k++ {
		p, ok, err := s.part(&s.sk[k], rv, false, nil)
		if err != nil {
			return SortRange{}, err
		}
		if !ok {
			break
		}
		q.WriteString(s.sk[k].label + p + s.sep)
	}
	if k == len(s.sk) {
		last := s.sk[k-1].f.Name
		return SortRange{}, s.errf(last, "every sort-key field is set, so no field is left for the sort-key condition; leave %s unset or drop the condition", last)
	}
	kf := &s.sk[k]
	last := k == len(s.sk)-1
	q.WriteString(kf.label)
	pre := q.String()
	texts := make([]string, len(vals))
	for i, val := range vals {
		t, err := s.condPart(kf, op, val)
		if err != nil {
			return SortRange{}, err
		}
		texts[i] = t
	}
	r := SortRange{Field: kf.f.Name}
	S := func(text string) types.AttributeValue { return &types.AttributeValueMemberS{Value: text} }
	// through(t) is the greatest bound of the keys whose field is at most t:
	// the last part ends the key; an earlier one is followed by the
	// separator, so every key of field value t sorts below t+after(sep),
	// which is never a key itself (it has too few parts).
	through := func(t string) string {
		if last {
			return pre + t
		}
		return pre + t + after(s.sep)
	}
	var lo, hi string // inclusive bounds on the composed key; "" = open
	switch op {
	case SortEQ:
		if last {
			r.Op, r.Values = SortEQ, []types.AttributeValue{S(pre + texts[0])}
		} else {
			r.Op, r.Values = SortBeginsWith, []types.AttributeValue{S(pre + texts[0] + s.sep)}
		}
		return r, s.checkCond(r)
	case SortBeginsWith:
		r.Op, r.Values = SortBeginsWith, []types.AttributeValue{S(pre + texts[0])}
		return r, s.checkCond(r)
	case SortGT:
		lo = through(texts[0])
		if last {
			r.Exclude = S(texts[0])
		}
	case SortGE:
		lo = pre + texts[0]
	case SortLT:
		hi = pre + texts[0]
		if last {
			r.Exclude = S(texts[0])
		}
	case SortLE:
		hi = through(texts[0])
	case SortBetween:
		lo, hi = pre+texts[0], through(texts[1])
		if lo > hi {
			return SortRange{}, s.errf(kf.f.Name, "SortBetween: the lower bound is above the upper bound")
		}
	}
	if pre == "" {
		// The field is the first part of the key: a one-sided range needs
		// no second bound, and an open side needs no exclusion.
		r.Exclude = nil
		switch {
		case lo != "" && hi != "":
			r.Op, r.Values = SortBetween, []types.AttributeValue{S(lo), S(hi)}
		case op == SortGT && last:
			r.Op, r.Values = SortGT, []types.AttributeValue{S(texts[0])}
		case lo != "":
			r.Op, r.Values = SortGE, []types.AttributeValue{S(lo)}
		case op == SortLE && last:
			r.Op, r.Values = SortLE, []types.AttributeValue{S(hi)}
		default:
			r.Op, r.Values = SortLT, []types.AttributeValue{S(hi)}
		}
		return r, s.checkCond(r)
	}
	// Behind a prefix both bounds are needed, or the range would run into
	// the keys of other values of the fixed fields. pre itself and
	// after(pre) are never keys of this schema (too few parts).
	if lo == "" {
		lo = pre
	}
	if hi == "" {
		hi = after(pre)
	}
	r.Op, r.Values = SortBetween, []types.AttributeValue{S(lo), S(hi)}
	return r, s.checkCond(r)
}

// condPart is the key-part text of a condition value on field k.
func (s *Schema[T]) condPart(k *keyField, op SortOp, val any) (string, error) {
	name := k.f.Name
	if op != SortEQ && k.f.Kind != codec.KindS {
		return "", s.errf(name, "a %s field compares as text in the generated sort key, so a range or prefix on it would not follow its values; use SortEq, or a GSI keyed on the field", kindName(k.f.Kind))
	}
	var text string
	switch x := val.(type) {
	case nil:
		return "", s.errf(name, "nil sort-key condition value")
	case string:
		if k.f.Kind != codec.KindS {
			return "", s.errf(name, "the condition value is a string; want a value of the field's type")
		}
		text = x
	default:
		if op == SortBeginsWith {
			return "", s.errf(name, "begins_with takes a string; got %T", val)
		}
		av, err := k.f.EncodeAny(val)
		if err != nil {
			return "", s.errf(name, "sort-key condition value: %v", err)
		}
		if text, err = partString(av); err != nil {
			return "", s.errf(name, "%s", err)
		}
	}
	if text == "" {
		return "", s.errf(name, "the sort-key condition value is empty")
	}
	if strings.Contains(text, s.sep) {
		return "", s.errf(name, "the condition value contains the key separator %q: give the value of %s alone (the library composes the key), or the whole composed sort key as a types.AttributeValue", s.sep, name)
	}
	return text, nil
}

// checkCond checks the size of the composed values.
func (s *Schema[T]) checkCond(r SortRange) error {
	for _, av := range r.Values {
		if err := s.checkSize(av, false); err != nil {
			return err
		}
	}
	return nil
}

// rawSortCondition is SortCondition on a RawKeys table: the values of the
// sort-key field with its own type; a begins_with prefix is a string (S)
// or []byte (B).
func (s *Schema[T]) rawSortCondition(op SortOp, vals []any) (SortRange, error) {
	k := &s.sk[0]
	r := SortRange{Field: k.f.Name, Op: op}
	for _, val := range vals {
		var av types.AttributeValue
		switch x := val.(type) {
		case nil:
			return SortRange{}, s.errf(k.f.Name, "nil sort-key condition value")
		case string:
			if op == SortBeginsWith {
				av = &types.AttributeValueMemberS{Value: x}
			}
		case []byte:
			if op == SortBeginsWith {
				av = &types.AttributeValueMemberB{Value: x}
			}
		}
		if av == nil {
			if op == SortBeginsWith {
				return SortRange{}, s.errf(k.f.Name, "begins_with takes a string or []byte; got %T", val)
			}
			var err error
			if av, err = k.f.EncodeAny(val); err != nil {
				return SortRange{}, s.errf(k.f.Name, "sort-key condition value: %v", err)
			}
			if av == nil {
				return SortRange{}, s.errf(k.f.Name, "sort-key condition value %T cannot be encoded", val)
			}
		}
		r.Values = append(r.Values, av)
	}
	return r, nil
}

// after returns the least string above every string that starts with p:
// p with its last character replaced by the next one. p is not empty (a
// separator or a prefix ending with one).
func after(p string) string {
	r, n := utf8.DecodeLastRuneInString(p)
	r++
	if r >= 0xD800 && r <= 0xDFFF { // skip the surrogates, which UTF-8 cannot hold
		r = 0xE000
	}
	return p[:len(p)-n] + string(r)
}
