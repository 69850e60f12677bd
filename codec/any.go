package codec

import (
	"reflect"
	"slices"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/internal/numbers"
)

// encodeAny encodes a value found in an untyped slot (an any field, a
// []any element, a map[string]any value, Marshal's argument) by its dynamic
// type. nil is absent.
func encodeAny(x any, st *encState) (types.AttributeValue, error) {
	switch x := x.(type) {
	case nil:
		return nil, nil
	case string:
		return st.S(x), nil
	case bool:
		return st.BOOL(x), nil
	case int:
		return st.N(st.itoa(int64(x))), nil
	case int64:
		return st.N(st.itoa(x)), nil
	case float64:
		b, err := appendFloat(st.buf(), x, 64)
		if err != nil {
			return nil, err
		}
		return st.N(st.str(b)), nil
	case map[string]any:
		if x == nil {
			return nil, nil
		}
		return encodeAnyMap(x, st)
	case []any:
		if x == nil {
			return nil, nil
		}
		if err := st.enter(); err != nil {
			return nil, err
		}
		defer st.leave()
		l := st.values(len(x))
		for i, e := range x {
			av, err := encodeAny(e, st)
			if err != nil {
				return nil, withinIndex(err, i)
			}
			if av == nil {
				av = st.NULL()
			}
			l[i] = av
		}
		return st.L(l), nil
	case Raw:
		return x.Value, nil
	case types.AttributeValue:
		// An attribute value is unambiguous in Go: pass it through, as Raw.
		return x, nil
	}
	t := reflect.TypeOf(x)
	c, err := codecOf(t, opts{})
	if err != nil {
		return nil, err
	}
	return c.enc(reflect.ValueOf(x), st)
}

func encodeAnyMap(x map[string]any, st *encState) (types.AttributeValue, error) {
	if err := st.enter(); err != nil {
		return nil, err
	}
	defer st.leave()
	m := make(map[string]types.AttributeValue, len(x))
	for k, e := range x {
		av, err := encodeAny(e, st)
		if err != nil {
			return nil, within(err, mapSeg(k))
		}
		if av == nil {
			av = st.NULL()
		}
		m[k] = av
	}
	return st.M(m), nil
}

// decodeAny decodes av into the natural Go value: S string, N int64 /
// float64 / Number (see anyNumber), B []byte, BOOL bool, NULL nil,
// M map[string]any, L []any, SS Set[string], NS Set[int64] / Set[float64] /
// Set[Number], BS BinarySet.
func decodeAny(av types.AttributeValue) (any, error) { return decodeAnyDepth(av, 0) }

func decodeAnyDepth(av types.AttributeValue, depth int) (any, error) {
	if depth > maxNesting {
		return nil, errorf("attribute value nests deeper than %d levels (a cycle?)", maxNesting)
	}
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		return x.Value, nil
	case *types.AttributeValueMemberN:
		return anyNumber(x.Value)
	case *types.AttributeValueMemberB:
		return slices.Clone(x.Value), nil
	case *types.AttributeValueMemberBOOL:
		return x.Value, nil
	case *types.AttributeValueMemberNULL:
		return nil, nil
	case *types.AttributeValueMemberM:
		return decodeAnyMapDepth(x.Value, depth+1)
	case *types.AttributeValueMemberL:
		l := make([]any, len(x.Value))
		for i, e := range x.Value {
			v, err := decodeAnyDepth(e, depth+1)
			if err != nil {
				return nil, withinIndex(err, i)
			}
			l[i] = v
		}
		return l, nil
	case *types.AttributeValueMemberSS:
		return NewSet(x.Value...), nil
	case *types.AttributeValueMemberNS:
		return anyNumberSet(x.Value)
	case *types.AttributeValueMemberBS:
		out := make(BinarySet, len(x.Value))
		for i, b := range x.Value {
			out[i] = slices.Clone(b)
		}
		return out, nil
	case nil:
		return nil, errorf("nil attribute value")
	}
	return nil, errorf("unknown attribute value type %T", av)
}

func decodeAnyMap(in map[string]types.AttributeValue) (map[string]any, error) {
	return decodeAnyMapDepth(in, 0)
}

func decodeAnyMapDepth(in map[string]types.AttributeValue, depth int) (map[string]any, error) {
	m := make(map[string]any, len(in))
	for k, e := range in {
		v, err := decodeAnyDepth(e, depth)
		if err != nil {
			return nil, within(err, mapSeg(k))
		}
		m[k] = v
	}
	return m, nil
}

// anyNumber picks the Go type for an N in an untyped slot: int64 when the
// number is an integer that fits, else float64 when the float's shortest
// text is the same number (so nothing is lost), else the exact Number.
func anyNumber(s string) (any, error) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, nil
	}
	d, err := numbers.Parse(s)
	if err != nil {
		if !isNumberSyntax(s) {
			return nil, errorf("not a number")
		}
		return Number(s), nil // beyond DynamoDB's range: only the exact text holds it
	}
	if n, ok := d.Int64(); ok {
		return n, nil
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if fs, err := formatFloat(f, 64); err == nil {
			if fd, _ := numbers.Parse(fs); numbers.Compare(fd, d) == 0 {
				return f, nil
			}
		}
	}
	return Number(s), nil
}

func anyNumberSet(elems []string) (any, error) {
	vals := make([]any, len(elems))
	allInt, allNum := true, true
	for i, e := range elems {
		v, err := anyNumber(e)
		if err != nil {
			return nil, withinIndex(err, i)
		}
		vals[i] = v
		switch v.(type) {
		case int64:
		case float64:
			allInt = false
		default:
			allInt, allNum = false, false
		}
	}
	switch {
	case allInt:
		s := make(Set[int64], len(vals))
		for _, v := range vals {
			s[v.(int64)] = struct{}{}
		}
		return s, nil
	case allNum:
		s := make(Set[float64], len(vals))
		for _, v := range vals {
			switch v := v.(type) {
			case int64:
				s[float64(v)] = struct{}{}
			case float64:
				s[v] = struct{}{}
			}
		}
		return s, nil
	}
	return NewSet(func() []Number {
		out := make([]Number, len(elems))
		for i, e := range elems {
			out[i] = Number(e)
		}
		return out
	}()...), nil
}
