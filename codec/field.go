package codec

import (
	"reflect"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// EncodeAny encodes a Go value as this field's type, for condition and
// update values: v of the field's type or a pointer to it; for set and list
// fields also a single element (so contains(tags, "x") works); numbers of
// another Go type when the conversion is exact; strings into named string
// types, and as wire text into other S fields (time.Time, Date, …: a
// prefix like "2024-06" for begins_with or ranges); a Number into N
// fields; Raw and types.AttributeValue as they are. nil and absent values
// encode as NULL. Anything else is an error naming the field.
func (f *Field) EncodeAny(v any) (types.AttributeValue, error) {
	null := &types.AttributeValueMemberNULL{Value: true}
	switch x := v.(type) {
	case nil:
		return null, nil
	case Raw:
		if x.Value == nil {
			return null, nil
		}
		return x.Value, nil
	case types.AttributeValue:
		return x, nil
	}
	st := getState()
	av, err := f.encodeAny(reflect.ValueOf(v), st)
	putState(st)
	if err != nil {
		return nil, within(err, f.Name)
	}
	if av == nil {
		return null, nil
	}
	return av, nil
}

func (f *Field) encodeAny(rv reflect.Value, st *encState) (types.AttributeValue, error) {
	t := rv.Type()
	switch {
	case t == f.Type:
		return f.c.enc(rv, st)
	case t.Kind() == reflect.Pointer && t.Elem() == f.Type:
		if rv.IsNil() {
			return nil, nil
		}
		return f.c.enc(rv.Elem(), st)
	}
	base := f.Type
	for base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	if t == base {
		return f.encodeBase(rv, st) // pointer field given a value
	}
	// One element of a set or list field.
	var elemT reflect.Type
	eo := f.o
	eo.dim, eo.set = 0, false
	switch {
	case isSetType(base):
		elemT = base.Key()
	case base == binarySetType:
		elemT = base.Elem()
	case base.Kind() == reflect.Slice && base.Elem().Kind() != reflect.Uint8:
		elemT = base.Elem()
	}
	if elemT != nil {
		if ev, ok := convertExact(rv, elemT); ok {
			c, err := codecOf(elemT, eo)
			if err != nil {
				return nil, err
			}
			return c.enc(ev, st)
		}
	}
	if base == numberType || base == decimalType {
		if isNumeric(t) || t == numberType || t == decimalType {
			return encodeAny(rv.Interface(), st)
		}
	}
	if cv, ok := convertExact(rv, base); ok {
		return f.encodeBase(cv, st)
	}
	// Wire text for fields whose Go type is not a string: a time, date or
	// text-marshalled S field compared with a prefix such as "2024-06", an
	// N field given an exact Number.
	switch {
	case f.Kind == KindS && t.Kind() == reflect.String:
		return st.S(rv.String()), nil
	case f.Kind == KindN && t == numberType:
		return encodeAny(rv.Interface(), st)
	}
	return nil, errorf("cannot encode %s as %s", t, f.Type)
}

func isNumeric(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// convertExact converts rv to t when both are numbers and the value
// survives the round trip, or both are strings, or the types are equal.
func convertExact(rv reflect.Value, t reflect.Type) (reflect.Value, bool) {
	from := rv.Type()
	if from == t {
		return rv, true
	}
	switch {
	case isNumeric(from) && isNumeric(t):
		cv := rv.Convert(t)
		if !cv.Convert(from).Equal(rv) {
			return rv, false
		}
		return cv, true
	case from.Kind() == reflect.String && t.Kind() == reflect.String:
		return rv.Convert(t), true
	case from.Kind() == reflect.Bool && t.Kind() == reflect.Bool:
		return rv.Convert(t), true
	}
	return rv, false
}

// encodeBase encodes v, of the field's type with pointers removed.
func (f *Field) encodeBase(v reflect.Value, st *encState) (types.AttributeValue, error) {
	for v.Type() != f.Type {
		p := reflect.New(v.Type())
		p.Elem().Set(v)
		v = p
	}
	return f.c.enc(v, st)
}
