package codec

import (
	"reflect"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Direct coding: the common types (strings, numbers, bools, times,
// decimals, the usual sets and maps, structs, lists and pointers of them)
// also code straight from and into memory, through encAt and decAt, so
// that struct fields, list elements and pointed-to values are read and
// written without a reflect.Value each. A codec without them is reached
// through valueAt, so every codec works at an address.

// encodeAt encodes the value of c's type stored at p: the commonest
// scalars here, without a call through encAt, every other through encAt
// (a codec without direct coding reaches it through valueAt, in the encAt
// that b.codec gives it).
func (c *codec) encodeAt(p unsafe.Pointer, st *encState) (types.AttributeValue, error) {
	switch c.leaf {
	case leafString:
		return st.S(*(*string)(p)), nil
	case leafInt64:
		return st.N(st.itoa(*(*int64)(p))), nil
	case leafBool:
		return st.BOOL(*(*bool)(p)), nil
	case leafFloat64:
		return st.float(*(*float64)(p), 64)
	}
	return c.encAt(p, st)
}

// leafKind names a codec whose encoding encodeAt writes itself. Each case
// is the body of the codec's own encAt, so both give the same member
// (fastpath_test.go holds them to it).
type leafKind uint8

const (
	leafNone    leafKind = iota
	leafString           // string kinds, as S
	leafInt64            // 64-bit signed integers (int, int64), as N
	leafBool             // bool kinds, as BOOL
	leafFloat64          // float64 kinds, as N
)

// decodeAt decodes av into the value of c's type stored at p. NULL takes
// the reflect path, which zeroes the value (or hands NULL to a codec that
// wants it).
func (c *codec) decodeAt(av types.AttributeValue, p unsafe.Pointer) error {
	if c.decAt != nil {
		if _, null := av.(*types.AttributeValueMemberNULL); !null {
			return c.decAt(av, p)
		}
	}
	return c.decode(av, valueAt(c.ptr, p))
}

// eface is the layout of an empty interface.
type eface struct{ typ, data unsafe.Pointer }

// pointerType returns the type word of *t, which valueAt pairs with an
// address.
func pointerType(t reflect.Type) unsafe.Pointer {
	x := reflect.Zero(reflect.PointerTo(t)).Interface()
	return (*eface)(unsafe.Pointer(&x)).typ
}

// valueAt is reflect.NewAt(t, p).Elem() for the t whose pointer type word
// is ptr (see pointerType), without NewAt's lookup of *t in reflect's
// cache on every call.
func valueAt(ptr, p unsafe.Pointer) reflect.Value {
	var x any
	*(*eface)(unsafe.Pointer(&x)) = eface{ptr, p}
	return reflect.ValueOf(x).Elem()
}

// byValue installs the coders of a type T coded as a whole value (time,
// decimal, civil types): enc and dec on values, adapted to reflect.Values
// and to addresses. A failed decode leaves the target as it was.
func byValue[T any](c *codec, enc func(x T, st *encState) (types.AttributeValue, error), dec func(av types.AttributeValue) (T, error)) {
	c.enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) { return enc(valueAs[T](v), st) }
	c.encAt = func(p unsafe.Pointer, st *encState) (types.AttributeValue, error) { return enc(*(*T)(p), st) }
	c.dec = func(av types.AttributeValue, v reflect.Value) error {
		x, err := dec(av)
		if err == nil {
			setAs(v, x)
		}
		return err
	}
	c.decAt = func(av types.AttributeValue, p unsafe.Pointer) error {
		x, err := dec(av)
		if err == nil {
			*(*T)(p) = x
		}
		return err
	}
}

// decodeByAddress derives a codec's reflect decoder from its decAt: the
// value given to dec is always settable, hence addressable.
func decodeByAddress(c *codec) {
	decAt := c.decAt
	c.dec = func(av types.AttributeValue, v reflect.Value) error { return decAt(av, v.Addr().UnsafePointer()) }
}

// sliceHeader is the layout of a slice value.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

func loadInt(p unsafe.Pointer, k reflect.Kind) int64 {
	switch k {
	case reflect.Int8:
		return int64(*(*int8)(p))
	case reflect.Int16:
		return int64(*(*int16)(p))
	case reflect.Int32:
		return int64(*(*int32)(p))
	case reflect.Int64:
		return *(*int64)(p)
	}
	return int64(*(*int)(p))
}

// storeInt stores n, which fits the kind (parseInt checked its bits).
func storeInt(p unsafe.Pointer, k reflect.Kind, n int64) {
	switch k {
	case reflect.Int8:
		*(*int8)(p) = int8(n)
	case reflect.Int16:
		*(*int16)(p) = int16(n)
	case reflect.Int32:
		*(*int32)(p) = int32(n)
	case reflect.Int64:
		*(*int64)(p) = n
	default:
		*(*int)(p) = int(n)
	}
}

func loadUint(p unsafe.Pointer, k reflect.Kind) uint64 {
	switch k {
	case reflect.Uint8:
		return uint64(*(*uint8)(p))
	case reflect.Uint16:
		return uint64(*(*uint16)(p))
	case reflect.Uint32:
		return uint64(*(*uint32)(p))
	case reflect.Uint64:
		return *(*uint64)(p)
	}
	return uint64(*(*uint)(p))
}

func storeUint(p unsafe.Pointer, k reflect.Kind, n uint64) {
	switch k {
	case reflect.Uint8:
		*(*uint8)(p) = uint8(n)
	case reflect.Uint16:
		*(*uint16)(p) = uint16(n)
	case reflect.Uint32:
		*(*uint32)(p) = uint32(n)
	case reflect.Uint64:
		*(*uint64)(p) = n
	default:
		*(*uint)(p) = uint(n)
	}
}

func loadFloat(p unsafe.Pointer, k reflect.Kind) float64 {
	if k == reflect.Float32 {
		return float64(*(*float32)(p))
	}
	return *(*float64)(p)
}

func storeFloat(p unsafe.Pointer, k reflect.Kind, f float64) {
	if k == reflect.Float32 {
		*(*float32)(p) = float32(f)
		return
	}
	*(*float64)(p) = f
}
