package codec

import (
	"reflect"
	"sync/atomic"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Marshal encodes one Go value. Untyped values (nil, []any, map[string]any,
// values inside them) follow the inference rules of the package doc; typed
// values use their type's codec. An absent value (nil, nil pointer, empty
// set) encodes as NULL.
func Marshal(v any) (types.AttributeValue, error) {
	st := getState()
	av, err := encodeAny(v, st)
	putState(st)
	if err != nil {
		return nil, withinValueType(err, v)
	}
	if av == nil {
		av = &types.AttributeValueMemberNULL{Value: true}
	}
	return av, nil
}

// Unmarshal decodes av into out, which must be a non-nil pointer.
func Unmarshal(av types.AttributeValue, out any) error {
	rv := reflect.ValueOf(out)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return errorf("Unmarshal needs a non-nil pointer, got %T", out)
	}
	if av == nil {
		return errorf("Unmarshal of a nil attribute value")
	}
	e := rv.Elem()
	c, err := codecOf(e.Type(), opts{})
	if err != nil {
		return withinValueType(err, e.Interface())
	}
	if err := c.decode(av, e); err != nil {
		return withinTypeOf(err, e.Type())
	}
	return nil
}

// MarshalItem encodes a struct (by its plan, nil fields omitted) or a
// map[string]T as an item. A map[string]types.AttributeValue is returned
// as it is.
func MarshalItem(v any) (map[string]types.AttributeValue, error) {
	if s, p := pointerPlan(v); s != nil {
		m := make(map[string]types.AttributeValue, len(s.Fields))
		st := getState()
		err := s.encode(m, reflect.Value{}, p, true, st)
		putState(st)
		if err != nil {
			return nil, withinType(err, s.Type)
		}
		return m, nil
	}
	rv := reflect.ValueOf(v)
	t := rv.Type()
	if rv.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct {
		if rv.IsNil() {
			return nil, errorf("MarshalItem of a nil %s", t)
		}
		rv, t = rv.Elem(), t.Elem()
	}
	switch {
	case rv.Kind() == reflect.Struct:
		s, err := StructOf(t)
		if err != nil {
			return nil, err
		}
		return s.Encode(rv, true)
	case rv.Kind() == reflect.Map && t.Key().Kind() == reflect.String && !isSetType(t):
		if m, ok := v.(map[string]types.AttributeValue); ok {
			return m, nil
		}
		c, err := codecOf(t, opts{})
		if err != nil {
			return nil, err
		}
		st := getState()
		av, err := c.enc(rv, st)
		putState(st)
		if err != nil || av == nil {
			return nil, err
		}
		return av.(*types.AttributeValueMemberM).Value, nil
	}
	return nil, errorf("MarshalItem needs a struct or a map[string]T, got %T", v)
}

// UnmarshalItem decodes item into out: a pointer to a struct or to a
// map[string]T.
func UnmarshalItem(item map[string]types.AttributeValue, out any) error {
	if s, p := pointerPlan(out); s != nil {
		if _, err := s.decode(item, reflect.Value{}, p); err != nil {
			return withinType(err, s.Type)
		}
		return nil
	}
	rv := reflect.ValueOf(out)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return errorf("UnmarshalItem needs a non-nil pointer, got %T", out)
	}
	e := rv.Elem()
	switch {
	case e.Kind() == reflect.Struct:
		s, err := StructOf(e.Type())
		if err != nil {
			return err
		}
		return s.Decode(item, e)
	case e.Kind() == reflect.Map && e.Type().Key().Kind() == reflect.String && !isSetType(e.Type()):
		c, err := codecOf(e.Type(), opts{})
		if err != nil {
			return err
		}
		return c.decode(&types.AttributeValueMemberM{Value: item}, e)
	}
	return errorf("UnmarshalItem needs a pointer to a struct or a map[string]T, got %T", out)
}

// pointerPlan returns the plan of T and the address v holds when v is a
// non-nil *T for a struct type T, else nil (the reflect path then handles
// v, and reports its errors). The plans of the pointer types seen last are
// kept by their type word, so that the common call, MarshalItem or
// UnmarshalItem of a pointer to a struct, makes no reflect.Value and no
// lookup in the map of plans.
func pointerPlan(v any) (*Struct, unsafe.Pointer) {
	e := (*eface)(unsafe.Pointer(&v))
	slot := &pointerPlans[(uintptr(e.typ)>>4)%uintptr(len(pointerPlans))]
	if s := slot.Load(); s != nil && s.ptr == e.typ && e.data != nil {
		// A pointer is stored in the interface word itself.
		return s, e.data
	}
	t := reflect.TypeOf(v)
	if t == nil || t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct || e.data == nil {
		return nil, nil
	}
	s, err := StructOf(t.Elem())
	if err != nil || s.ptr != e.typ { // a named pointer type has a type word of its own
		return nil, nil
	}
	slot.Store(s)
	return s, e.data
}

// pointerPlans is pointerPlan's cache: a slot per hash of the type word,
// the last plan stored wins.
var pointerPlans [64]atomic.Pointer[Struct]

func withinValueType(err error, v any) error {
	if v == nil {
		return err
	}
	return withinTypeOf(err, reflect.TypeOf(v))
}

// withinTypeOf prefixes the path with the name of t's struct type (through
// pointers), so errors read "Order.total: …".
func withinTypeOf(err error, t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct && !isLeafStruct(t) {
		return withinType(err, t)
	}
	return err
}
