package codec

import (
	"bytes"
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Marshaler is implemented by types that encode themselves as an attribute
// value. Returning a nil value means "absent" (the attribute is omitted, or
// written as NULL inside lists and maps).
type Marshaler interface {
	MarshalDynamo() (types.AttributeValue, error)
}

// Unmarshaler is implemented by types that decode themselves from an
// attribute value. Unlike built-in types, an Unmarshaler also sees NULL.
type Unmarshaler interface {
	UnmarshalDynamo(types.AttributeValue) error
}

// awsMarshaler and awsUnmarshaler have the method sets of aws-sdk-go-v2's
// attributevalue.Marshaler and attributevalue.Unmarshaler, so types written
// for that package work here unchanged, without importing it.
type awsMarshaler interface {
	MarshalDynamoDBAttributeValue() (types.AttributeValue, error)
}

type awsUnmarshaler interface {
	UnmarshalDynamoDBAttributeValue(types.AttributeValue) error
}

// Raw carries an already-encoded attribute value through the encoder
// unchanged, anywhere a Go value is accepted (fields, any, lists, maps).
// Decoding into a Raw keeps the attribute value as it came, NULL included.
// It is the only way to pass a pre-encoded value: a map that happens to
// have an "S" key is user data.
type Raw struct {
	Value types.AttributeValue
}

// Number is an exact, string-backed DynamoDB number. It is written as N
// after validation (syntax, at most 38 significant digits, DynamoDB's
// range); the empty Number is absent.
type Number string

// String returns the number's text.
func (n Number) String() string { return string(n) }

// Set is a map-backed set. Sets of string-like types encode as SS, sets of
// numbers (integers, floats, Number) as NS; an empty or nil set is absent
// (DynamoDB rejects empty sets), and loads back as nil. Elements are written
// in sorted order so that encoded bytes are stable.
type Set[T comparable] map[T]struct{}

// NewSet returns a set holding vs.
func NewSet[T comparable](vs ...T) Set[T] {
	s := make(Set[T], len(vs))
	for _, v := range vs {
		s[v] = struct{}{}
	}
	return s
}

// Add inserts vs into s. s must not be nil.
func (s Set[T]) Add(vs ...T) {
	for _, v := range vs {
		s[v] = struct{}{}
	}
}

// Delete removes vs from s.
func (s Set[T]) Delete(vs ...T) {
	for _, v := range vs {
		delete(s, v)
	}
}

// Has reports whether v is in s.
func (s Set[T]) Has(v T) bool {
	_, ok := s[v]
	return ok
}

// Len returns the number of elements.
func (s Set[T]) Len() int { return len(s) }

// Sorted returns the elements in ascending order: numeric order for
// numbers, byte order for strings, fmt.Sprint order for anything else.
func (s Set[T]) Sorted() []T {
	out := make([]T, 0, len(s))
	for v := range s {
		out = append(out, v)
	}
	if len(out) < 2 {
		return out
	}
	switch reflect.TypeFor[T]().Kind() {
	case reflect.String:
		slices.SortFunc(out, func(a, b T) int {
			return strings.Compare(reflect.ValueOf(a).String(), reflect.ValueOf(b).String())
		})
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		slices.SortFunc(out, func(a, b T) int {
			return cmp.Compare(reflect.ValueOf(a).Int(), reflect.ValueOf(b).Int())
		})
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		slices.SortFunc(out, func(a, b T) int {
			return cmp.Compare(reflect.ValueOf(a).Uint(), reflect.ValueOf(b).Uint())
		})
	case reflect.Float32, reflect.Float64:
		slices.SortFunc(out, func(a, b T) int {
			return cmp.Compare(reflect.ValueOf(a).Float(), reflect.ValueOf(b).Float())
		})
	default:
		slices.SortFunc(out, func(a, b T) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
	}
	return out
}

// BinarySet is a set of byte strings, encoded as BS (sorted, so encoded
// bytes are stable). An empty set is absent; duplicate elements are an
// error, as they are for DynamoDB.
type BinarySet [][]byte

// Has reports whether b is in s.
func (s BinarySet) Has(b []byte) bool {
	for _, x := range s {
		if bytes.Equal(x, b) {
			return true
		}
	}
	return false
}

// Len returns the number of elements.
func (s BinarySet) Len() int { return len(s) }
