package codec

import (
	"bytes"
	"encoding"
	"math/bits"
	"reflect"
	"slices"
	"strconv"
	"time"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/internal/avtype"
	"github.com/dynamogo/dynamo/internal/numbers"
	"github.com/shopspring/decimal"
)

// opts are the tag flags that change how a type is coded. They flow from a
// field to the elements of its pointers, lists and maps (dim and set are
// consumed by the slice they apply to).
type opts struct {
	precision time.Duration
	dim       int
	unixtime  bool
	number    bool
	binary    bool
	set       bool
}

// encFunc encodes v, taking attribute value members and text from st.
type encFunc = func(v reflect.Value, st *encState) (types.AttributeValue, error)

type codecKey struct {
	t reflect.Type
	o opts
}

// codec encodes and decodes one Go type. enc returns a nil attribute value
// for "absent"; dec is never given NULL unless wantsNull (decode handles it).
// v given to dec is settable.
type codec struct {
	kind      Kind
	enc       encFunc
	dec       func(av types.AttributeValue, v reflect.Value) error
	isZero    func(v reflect.Value) bool // unset, for keys, defaults and required
	isEmpty   func(v reflect.Value) bool // omitted by omitempty
	wantsNull bool

	// t is the Go type; encAt and decAt code the value at an address (see
	// direct.go): encAt is always set once the codec is built, decAt only
	// for the common types, and never given NULL.
	t     reflect.Type
	ptr   unsafe.Pointer // type word of *t (see valueAt)
	encAt func(p unsafe.Pointer, st *encState) (types.AttributeValue, error)
	decAt func(av types.AttributeValue, p unsafe.Pointer) error
	// leaf names the commonest scalar codecs, which the hot loops (a
	// struct's plain fields, a list's elements) encode inline instead of
	// calling encAt; leafNone for every other.
	leaf leafKind
}

func (c *codec) decode(av types.AttributeValue, v reflect.Value) error {
	if !c.wantsNull {
		if _, ok := av.(*types.AttributeValueMemberNULL); ok {
			v.SetZero()
			return nil
		}
	}
	return c.dec(av, v)
}

var (
	rawType             = reflect.TypeFor[Raw]()
	timeType            = reflect.TypeFor[time.Time]()
	dateType            = reflect.TypeFor[Date]()
	timeOfDayType       = reflect.TypeFor[TimeOfDay]()
	dateTimeType        = reflect.TypeFor[DateTime]()
	decimalType         = reflect.TypeFor[decimal.Decimal]()
	numberType          = reflect.TypeFor[Number]()
	binarySetType       = reflect.TypeFor[BinarySet]()
	attrValueType       = reflect.TypeFor[types.AttributeValue]()
	marshalerType       = reflect.TypeFor[Marshaler]()
	unmarshalerType     = reflect.TypeFor[Unmarshaler]()
	awsMarshalerType    = reflect.TypeFor[awsMarshaler]()
	awsUnmarshalerType  = reflect.TypeFor[awsUnmarshaler]()
	textMarshalerType   = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// isSetType reports whether t is coded as a set: Set[T], and any other map
// from strings or numbers to struct{} (a type defined from Set[T], or a
// plain map[string]struct{}), for which an M of empty maps would never be
// what was meant.
func isSetType(t reflect.Type) bool {
	return t.Kind() == reflect.Map && t.Elem().Kind() == reflect.Struct && t.Elem().NumField() == 0 &&
		setElemOK(t.Key())
}

// codecOf returns the cached codec of t with o, building it on first use.
func codecOf(t reflect.Type, o opts) (*codec, error) {
	if c, ok := codecs.Load(codecKey{t, o}); ok {
		return c.(*codec), nil
	}
	buildMu.Lock()
	defer buildMu.Unlock()
	b := newBuilder()
	c, err := b.codec(t, o)
	if err != nil {
		return nil, err
	}
	b.publish()
	return c, nil
}

func (b *builder) codec(t reflect.Type, o opts) (*codec, error) {
	k := codecKey{t, o}
	if c, ok := codecs.Load(k); ok {
		return c.(*codec), nil
	}
	if c, ok := b.codecs[k]; ok {
		return c, nil // recursive type: complete once the outer build returns
	}
	c := &codec{t: t, ptr: pointerType(t)}
	b.codecs[k] = c
	if err := b.build(c, t, o); err != nil {
		return nil, err
	}
	if c.isZero == nil {
		c.isZero = reflect.Value.IsZero
	}
	if c.isEmpty == nil {
		c.isEmpty = c.isZero
	}
	if c.encAt == nil {
		// Every codec works at an address, so that encodeAt is one call
		// that inlines into its callers (a field, a list element).
		c.encAt = func(p unsafe.Pointer, st *encState) (types.AttributeValue, error) {
			return c.enc(valueAt(c.ptr, p), st)
		}
	}
	return c, nil
}

func mismatch(av types.AttributeValue, t reflect.Type) error {
	return errorf("cannot load %s into %s", avKind(av), t)
}

func avKind(av types.AttributeValue) string {
	if t := avtype.Of(av); t != "" {
		return t
	}
	if av == nil {
		return "nil"
	}
	return reflect.TypeOf(av).String()
}

// valueAs reads v as a T without boxing when v is addressable.
func valueAs[T any](v reflect.Value) T {
	if v.CanAddr() {
		return *(*T)(v.Addr().UnsafePointer())
	}
	return v.Interface().(T)
}

// setAs stores x into settable v.
func setAs[T any](v reflect.Value, x T) {
	*(*T)(v.Addr().UnsafePointer()) = x
}

func (b *builder) build(c *codec, t reflect.Type, o opts) error {
	switch t {
	case rawType:
		buildRaw(c)
		return nil
	case attrValueType:
		// A types.AttributeValue field holds the value as it is, like Raw.
		c.kind = KindAny
		c.wantsNull = true
		c.enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) {
			av, _ := v.Interface().(types.AttributeValue)
			return av, nil
		}
		c.dec = func(av types.AttributeValue, v reflect.Value) error {
			v.Set(reflect.ValueOf(av))
			return nil
		}
		c.isZero = reflect.Value.IsNil
		return nil
	case timeType:
		buildTime(c, o)
		return nil
	case dateType:
		buildDate(c)
		return nil
	case timeOfDayType, dateTimeType:
		buildClock(c, t, o)
		return nil
	case decimalType:
		buildDecimal(c)
		return nil
	case binarySetType:
		buildBinarySet(c)
		return nil
	case numberType:
		o.number = true
		return b.buildKind(c, t, o)
	}
	if isSetType(t) {
		return buildSet(c, t, o)
	}
	if t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface {
		return b.buildKind(c, t, o)
	}
	enc, dec := userCoders(t, o)
	if enc == nil || dec == nil {
		if err := b.buildKind(c, t, o); err != nil {
			return err
		}
	}
	if enc != nil || dec != nil {
		c.kind = KindAny
		if o.number {
			c.kind = KindN
		} else if implementsText(t) && !t.Implements(marshalerType) && !reflect.PointerTo(t).Implements(marshalerType) &&
			!t.Implements(awsMarshalerType) && !reflect.PointerTo(t).Implements(awsMarshalerType) {
			c.kind = KindS
		}
	}
	if enc != nil {
		c.enc, c.encAt, c.leaf = enc, nil, leafNone
	}
	if dec != nil {
		c.dec, c.decAt = dec, nil
		pt := reflect.PointerTo(t)
		c.wantsNull = pt.Implements(unmarshalerType) || pt.Implements(awsUnmarshalerType)
	}
	return nil
}

// addrOf returns a pointer to v's value: v.Addr() when addressable, else a
// pointer to a copy.
func addrOf(v reflect.Value) reflect.Value {
	if v.CanAddr() {
		return v.Addr()
	}
	p := reflect.New(v.Type())
	p.Elem().Set(v)
	return p
}

func userErr(err error, what string) error {
	if e, ok := err.(*Error); ok {
		c := *e // paths are added in place: never touch the caller's error
		return &c
	}
	return &Error{Msg: what + ": " + err.Error(), Err: err}
}

// userCoders returns the encoder and decoder given by methods of t: our
// Marshaler/Unmarshaler first, then aws-sdk-go-v2's, then
// encoding.TextMarshaler/TextUnmarshaler (S, or N with the number flag).
func userCoders(t reflect.Type, o opts) (enc encFunc, dec func(types.AttributeValue, reflect.Value) error) {
	pt := reflect.PointerTo(t)
	switch {
	case t.Implements(marshalerType):
		enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) {
			av, err := v.Interface().(Marshaler).MarshalDynamo()
			if err != nil {
				return nil, userErr(err, "MarshalDynamo")
			}
			return av, nil
		}
	case pt.Implements(marshalerType):
		enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) {
			av, err := addrOf(v).Interface().(Marshaler).MarshalDynamo()
			if err != nil {
				return nil, userErr(err, "MarshalDynamo")
			}
			return av, nil
		}
	case t.Implements(awsMarshalerType):
		enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) {
			av, err := v.Interface().(awsMarshaler).MarshalDynamoDBAttributeValue()
			if err != nil {
				return nil, userErr(err, "MarshalDynamoDBAttributeValue")
			}
			return av, nil
		}
	case pt.Implements(awsMarshalerType):
		enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) {
			av, err := addrOf(v).Interface().(awsMarshaler).MarshalDynamoDBAttributeValue()
			if err != nil {
				return nil, userErr(err, "MarshalDynamoDBAttributeValue")
			}
			return av, nil
		}
	}
	switch {
	case pt.Implements(unmarshalerType):
		dec = func(av types.AttributeValue, v reflect.Value) error {
			if err := v.Addr().Interface().(Unmarshaler).UnmarshalDynamo(av); err != nil {
				return userErr(err, "UnmarshalDynamo")
			}
			return nil
		}
	case pt.Implements(awsUnmarshalerType):
		dec = func(av types.AttributeValue, v reflect.Value) error {
			if err := v.Addr().Interface().(awsUnmarshaler).UnmarshalDynamoDBAttributeValue(av); err != nil {
				return userErr(err, "UnmarshalDynamoDBAttributeValue")
			}
			return nil
		}
	}
	if implementsText(t) {
		number := o.number
		if enc == nil {
			enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) {
				text, err := addrOf(v).Interface().(encoding.TextMarshaler).MarshalText()
				if err != nil {
					return nil, userErr(err, "MarshalText")
				}
				if number {
					if err := checkNumber(string(text)); err != nil {
						return nil, err
					}
					return st.N(string(text)), nil
				}
				return st.S(string(text)), nil
			}
		}
		if dec == nil {
			dec = func(av types.AttributeValue, v reflect.Value) error {
				var s string
				switch av := av.(type) {
				case *types.AttributeValueMemberS:
					if number {
						return mismatch(av, t)
					}
					s = av.Value
				case *types.AttributeValueMemberN:
					if !number {
						return mismatch(av, t)
					}
					s = av.Value
				default:
					return mismatch(av, t)
				}
				if err := v.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s)); err != nil {
					return userErr(err, "UnmarshalText")
				}
				return nil
			}
		}
	}
	return enc, dec
}

func buildRaw(c *codec) {
	c.kind = KindAny
	c.wantsNull = true
	c.enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) {
		av, _ := v.Field(0).Interface().(types.AttributeValue)
		return av, nil
	}
	c.dec = func(av types.AttributeValue, v reflect.Value) error {
		v.Field(0).Set(reflect.ValueOf(av))
		return nil
	}
	c.isZero = func(v reflect.Value) bool { return v.Field(0).IsNil() }
}

// ---- scalars by kind ----

func (b *builder) buildKind(c *codec, t reflect.Type, o opts) error {
	switch t.Kind() {
	case reflect.Bool:
		c.kind = KindBOOL
		c.enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) {
			return st.BOOL(v.Bool()), nil
		}
		c.encAt = func(p unsafe.Pointer, st *encState) (types.AttributeValue, error) {
			return st.BOOL(*(*bool)(p)), nil
		}
		c.leaf = leafBool
		c.decAt = func(av types.AttributeValue, p unsafe.Pointer) error {
			if x, ok := av.(*types.AttributeValueMemberBOOL); ok {
				*(*bool)(p) = x.Value
				return nil
			}
			return mismatch(av, t)
		}
		decodeByAddress(c)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		c.kind = KindN
		bits, k := t.Bits(), t.Kind()
		c.enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) {
			return st.N(st.itoa(v.Int())), nil
		}
		c.encAt = func(p unsafe.Pointer, st *encState) (types.AttributeValue, error) {
			return st.N(st.itoa(loadInt(p, k))), nil
		}
		if t.Size() == 8 {
			c.leaf = leafInt64
		}
		c.decAt = func(av types.AttributeValue, p unsafe.Pointer) error {
			x, ok := av.(*types.AttributeValueMemberN)
			if !ok {
				return mismatch(av, t)
			}
			n, err := parseInt(x.Value, bits)
			if err != nil {
				return err
			}
			storeInt(p, k, n)
			return nil
		}
		decodeByAddress(c)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		c.kind = KindN
		bits, k := t.Bits(), t.Kind()
		c.enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) {
			return st.N(st.utoa(v.Uint())), nil
		}
		c.encAt = func(p unsafe.Pointer, st *encState) (types.AttributeValue, error) {
			return st.N(st.utoa(loadUint(p, k))), nil
		}
		c.decAt = func(av types.AttributeValue, p unsafe.Pointer) error {
			x, ok := av.(*types.AttributeValueMemberN)
			if !ok {
				return mismatch(av, t)
			}
			n, err := parseUint(x.Value, bits)
			if err != nil {
				return err
			}
			storeUint(p, k, n)
			return nil
		}
		decodeByAddress(c)
	case reflect.Float32, reflect.Float64:
		c.kind = KindN
		bits, k := t.Bits(), t.Kind()
		c.enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) { return st.float(v.Float(), bits) }
		c.encAt = func(p unsafe.Pointer, st *encState) (types.AttributeValue, error) {
			return st.float(loadFloat(p, k), bits)
		}
		if k == reflect.Float64 {
			c.leaf = leafFloat64
		}
		c.decAt = func(av types.AttributeValue, p unsafe.Pointer) error {
			x, ok := av.(*types.AttributeValueMemberN)
			if !ok {
				return mismatch(av, t)
			}
			f, err := parseFloat(x.Value, bits)
			if err != nil {
				return err
			}
			storeFloat(p, k, f)
			return nil
		}
		decodeByAddress(c)
	case reflect.String:
		buildString(c, t, o)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && !o.set {
			buildBytes(c, t)
			return nil
		}
		if o.dim > 0 {
			buildVector(c, t, o.dim)
			return nil
		}
		if o.set {
			return buildSliceSet(c, t, o)
		}
		return b.buildList(c, t, o)
	case reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			buildByteArray(c, t)
			return nil
		}
		return b.buildArray(c, t, o)
	case reflect.Map:
		return b.buildMap(c, t, o)
	case reflect.Struct:
		c.kind = KindM
		s, err := b.plan(t)
		if err != nil {
			return err
		}
		c.enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) {
			m := make(map[string]types.AttributeValue, len(s.Fields))
			if err := s.encode(m, v, nil, true, st); err != nil {
				return nil, err
			}
			return st.M(m), nil
		}
		c.encAt = func(p unsafe.Pointer, st *encState) (types.AttributeValue, error) {
			m := make(map[string]types.AttributeValue, len(s.Fields))
			if err := s.encode(m, reflect.Value{}, p, true, st); err != nil {
				return nil, err
			}
			return st.M(m), nil
		}
		c.decAt = func(av types.AttributeValue, p unsafe.Pointer) error {
			m, ok := av.(*types.AttributeValueMemberM)
			if !ok {
				return mismatch(av, t)
			}
			_, err := s.decode(m.Value, reflect.Value{}, p)
			return err
		}
		decodeByAddress(c)
	case reflect.Pointer:
		elem, err := b.codec(t.Elem(), o)
		if err != nil {
			return err
		}
		c.kind = elem.kind
		et := t.Elem()
		c.enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) {
			if v.IsNil() {
				return nil, nil
			}
			if err := st.enter(); err != nil {
				return nil, err
			}
			defer st.leave()
			return elem.enc(v.Elem(), st)
		}
		c.encAt = func(p unsafe.Pointer, st *encState) (types.AttributeValue, error) {
			e := *(*unsafe.Pointer)(p)
			if e == nil {
				return nil, nil
			}
			if err := st.enter(); err != nil {
				return nil, err
			}
			defer st.leave()
			return elem.encodeAt(e, st)
		}
		c.decAt = func(av types.AttributeValue, p unsafe.Pointer) error {
			e := *(*unsafe.Pointer)(p)
			if e == nil {
				e = reflect.New(et).UnsafePointer()
				*(*unsafe.Pointer)(p) = e
			}
			return elem.decodeAt(av, e)
		}
		decodeByAddress(c)
		c.isZero = reflect.Value.IsNil
	case reflect.Interface:
		buildInterface(c, t)
	default:
		return errorf("unsupported Go type %s", t)
	}
	return nil
}

func buildString(c *codec, t reflect.Type, o opts) {
	switch {
	case o.binary:
		c.kind = KindB
		c.enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) {
			return &types.AttributeValueMemberB{Value: []byte(v.String())}, nil
		}
		c.dec = func(av types.AttributeValue, v reflect.Value) error {
			if x, ok := av.(*types.AttributeValueMemberB); ok {
				v.SetString(string(x.Value))
				return nil
			}
			return mismatch(av, t)
		}
	case o.number:
		c.kind = KindN
		c.enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) {
			s := v.String()
			if s == "" {
				return nil, nil
			}
			if err := checkNumber(s); err != nil {
				return nil, err
			}
			return st.N(s), nil
		}
		c.dec = func(av types.AttributeValue, v reflect.Value) error {
			if x, ok := av.(*types.AttributeValueMemberN); ok {
				v.SetString(x.Value)
				return nil
			}
			return mismatch(av, t)
		}
	default:
		c.kind = KindS
		c.enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) {
			return st.S(v.String()), nil
		}
		c.encAt = func(p unsafe.Pointer, st *encState) (types.AttributeValue, error) {
			return st.S(*(*string)(p)), nil
		}
		c.leaf = leafString
		c.decAt = func(av types.AttributeValue, p unsafe.Pointer) error {
			if x, ok := av.(*types.AttributeValueMemberS); ok {
				*(*string)(p) = x.Value
				return nil
			}
			return mismatch(av, t)
		}
		decodeByAddress(c)
	}
}

func buildBytes(c *codec, t reflect.Type) {
	c.kind = KindB
	c.enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) {
		if v.IsNil() {
			return nil, nil
		}
		return &types.AttributeValueMemberB{Value: v.Bytes()}, nil
	}
	c.dec = func(av types.AttributeValue, v reflect.Value) error {
		if x, ok := av.(*types.AttributeValueMemberB); ok {
			v.SetBytes(append(make([]byte, 0, len(x.Value)), x.Value...))
			return nil
		}
		return mismatch(av, t)
	}
	c.isZero = reflect.Value.IsNil
	c.isEmpty = func(v reflect.Value) bool { return v.Len() == 0 }
}

func buildByteArray(c *codec, t reflect.Type) {
	c.kind = KindB
	n := t.Len()
	c.enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) {
		b := make([]byte, n)
		reflect.Copy(reflect.ValueOf(b), v)
		return &types.AttributeValueMemberB{Value: b}, nil
	}
	c.dec = func(av types.AttributeValue, v reflect.Value) error {
		x, ok := av.(*types.AttributeValueMemberB)
		if !ok {
			return mismatch(av, t)
		}
		if len(x.Value) != n {
			return errorf("cannot load %d bytes into %s", len(x.Value), t)
		}
		reflect.Copy(v, reflect.ValueOf(x.Value))
		return nil
	}
}

// ---- time ----

func precisionDigits(p time.Duration) int {
	switch p {
	case time.Second:
		return 0
	case time.Millisecond:
		return 3
	case time.Microsecond:
		return 6
	}
	return 9
}

func precisionName(p time.Duration) string {
	switch p {
	case time.Second:
		return "s"
	case time.Millisecond:
		return "ms"
	case time.Microsecond:
		return "us"
	}
	return "ns"
}

// appendTime writes t in UTC as "2006-01-02T15:04:05[.fff…]Z" with exactly
// the precision's digits, so that encoded times sort as strings. The date
// comes from the Unix seconds in one computation (time.Time's Date and
// Clock each repeat it), the digits go to fixed places.
func appendTime(b []byte, t time.Time, p time.Duration) ([]byte, error) {
	sec := t.Unix()
	if sec < minTimeUnix || sec >= maxTimeUnix {
		return b, errorf("time is outside years 0000-9999")
	}
	ns := t.Nanosecond()
	if p != time.Nanosecond && ns%int(p) != 0 { // a division saved in the common case
		return b, errorf("time is finer than precision=%s (refusing to truncate)", precisionName(p))
	}
	since := sec - minTimeUnix // seconds since 0000-01-01T00:00:00Z, never negative
	y, m, d := civilDate(since / 86400)
	clock := int(since % 86400)
	// The text goes straight into b's free capacity when it has room (the
	// encoder's text slab always has), else through the stack.
	var tmp [30]byte
	buf := &tmp
	if cap(b)-len(b) >= len(tmp) {
		buf = (*[30]byte)(b[len(b) : len(b)+len(tmp)])
	}
	put4(buf[0:], y)
	buf[4] = '-'
	put2(buf[5:], m)
	buf[7] = '-'
	put2(buf[8:], d)
	buf[10] = 'T'
	put2(buf[11:], clock/3600)
	buf[13] = ':'
	put2(buf[14:], clock/60%60)
	buf[16] = ':'
	put2(buf[17:], clock%60)
	n := 19
	if digits := precisionDigits(p); digits > 0 {
		// Nine digits, written in independent parts rather than by a chain
		// of divisions.
		buf[19] = '.'
		hi, lo := ns/100000, ns%100000
		put4(buf[20:], hi)
		buf[24] = byte('0' + lo/10000)
		put4(buf[25:], lo%10000)
		n = 20 + digits
	}
	buf[n] = 'Z'
	if buf == &tmp {
		return append(b, tmp[:n+1]...), nil
	}
	return b[:len(b)+n+1], nil
}

// The Unix seconds of 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z: the
// years a fixed-width time can hold.
const (
	minTimeUnix = -62167219200
	maxTimeUnix = 253402300800
)

// civilDate returns the date days after 0000-01-01 (proleptic Gregorian;
// days ≥ 0), counting from March so that the leap day ends a year, by
// Neri and Schneider's multiplications (as the time package does) rather
// than a chain of divisions.
func civilDate(days int64) (y, m, d int) {
	// Days since 0000-03-01 (year 0 is a leap year: 60 days before it),
	// plus one 400-year era so that January and February of year 0 are not
	// negative.
	z := uint64(days) - 60 + 146097
	q := 4*z + 3
	century := q / 146097
	// The year of the century and the day of the year from March 1 in one
	// multiplication: (4×day of the century + 3) / 1461 and its remainder
	// / 4.
	year, rem := bits.Mul32(2939745, uint32(q%146097)|3)
	yday := rem / 2939745 / 4
	md := 2141*yday + 197913 // month from March in the high half, day in the low
	m = int(md >> 16)
	d = 1 + int((md&0xFFFF)/2141)
	y = int(100*century) + int(year) - 400
	if yday >= 306 { // January or February: of the next year
		m -= 12
		y++
	}
	return y, m, d
}

// civilDays is civilDate's inverse: the days from 0000-01-01 to y-m-d.
func civilDays(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	y += 400 // the era added in civilDate
	era := y / 400
	yoe := y - era*400
	mp := m - 3
	if mp < 0 {
		mp += 12
	}
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era*146097+doe) + 60 - 146097
}

// put2 writes n, below 100, as two digits.
func put2(b []byte, n int) {
	_ = b[1]
	b[0], b[1] = digitPairs[2*n], digitPairs[2*n+1]
}

func put4(b []byte, n int) {
	put2(b, n/100)
	put2(b[2:], n%100)
}

// digitPairs holds the two digits of 00 to 99 in turn.
const digitPairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839" +
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879" +
	"8081828384858687888990919293949596979899"

func buildTime(c *codec, o opts) {
	p := o.precision
	if p == 0 {
		p = time.Nanosecond
	}
	c.isZero = func(v reflect.Value) bool { return valueAs[time.Time](v).IsZero() }
	if o.unixtime {
		c.kind = KindN
		byValue(c, func(t time.Time, st *encState) (types.AttributeValue, error) {
			if t.Nanosecond() != 0 {
				return nil, errorf("time has fractional seconds; unixtime stores whole seconds (refusing to truncate)")
			}
			return st.N(st.itoa(t.Unix())), nil
		}, func(av types.AttributeValue) (time.Time, error) {
			x, ok := av.(*types.AttributeValueMemberN)
			if !ok {
				return time.Time{}, mismatch(av, timeType)
			}
			n, err := parseInt(x.Value, 64)
			if err != nil {
				return time.Time{}, err
			}
			return time.Unix(n, 0).UTC(), nil
		})
		return
	}
	c.kind = KindS
	byValue(c, func(t time.Time, st *encState) (types.AttributeValue, error) {
		b, err := appendTime(st.buf(), t, p)
		if err != nil {
			return nil, err
		}
		return st.S(st.str(b)), nil
	}, func(av types.AttributeValue) (time.Time, error) {
		x, ok := av.(*types.AttributeValueMemberS)
		if !ok {
			return time.Time{}, mismatch(av, timeType)
		}
		if t, ok := parseTimeUTC(x.Value); ok {
			return t, nil
		}
		t, err := time.Parse(time.RFC3339Nano, x.Value)
		if err != nil {
			return time.Time{}, errorf("cannot parse an RFC 3339 time")
		}
		return t.UTC(), nil
	})
}

func buildDate(c *codec) {
	c.kind = KindS
	c.enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) {
		d := valueAs[Date](v)
		if d == (Date{}) {
			return nil, nil
		}
		if !d.IsValid() {
			return nil, errorf("invalid date: month or day out of range")
		}
		return st.S(st.str(d.appendText(st.buf()))), nil
	}
	c.dec = func(av types.AttributeValue, v reflect.Value) error {
		x, ok := av.(*types.AttributeValueMemberS)
		if !ok {
			return mismatch(av, dateType)
		}
		d, err := ParseDate(x.Value)
		if err != nil {
			return errorf("%s", err)
		}
		setAs(v, d)
		return nil
	}
}

func buildClock(c *codec, t reflect.Type, o opts) {
	p := o.precision
	if p == 0 {
		p = time.Second
	}
	digits := precisionDigits(p)
	c.kind = KindS
	if t == timeOfDayType {
		c.enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) {
			x := valueAs[TimeOfDay](v)
			if !x.IsValid() {
				return nil, errorf("invalid time of day: a part is out of range")
			}
			if x.Nanosecond%int(p) != 0 {
				return nil, errorf("time of day is finer than precision=%s (refusing to truncate)", precisionName(p))
			}
			return st.S(st.str(x.appendText(st.buf(), digits))), nil
		}
		c.dec = func(av types.AttributeValue, v reflect.Value) error {
			x, ok := av.(*types.AttributeValueMemberS)
			if !ok {
				return mismatch(av, t)
			}
			tod, err := ParseTimeOfDay(x.Value)
			if err != nil {
				return errorf("%s", err)
			}
			setAs(v, tod)
			return nil
		}
		return
	}
	c.enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) {
		x := valueAs[DateTime](v)
		if x.Date == (Date{}) {
			return nil, nil
		}
		if !x.IsValid() {
			return nil, errorf("invalid date-time: a part is out of range")
		}
		if x.Time.Nanosecond%int(p) != 0 {
			return nil, errorf("date-time is finer than precision=%s (refusing to truncate)", precisionName(p))
		}
		return st.S(st.str(x.appendText(st.buf(), digits))), nil
	}
	c.dec = func(av types.AttributeValue, v reflect.Value) error {
		x, ok := av.(*types.AttributeValueMemberS)
		if !ok {
			return mismatch(av, t)
		}
		dt, err := ParseDateTime(x.Value)
		if err != nil {
			return errorf("%s", err)
		}
		setAs(v, dt)
		return nil
	}
}

func buildDecimal(c *codec) {
	c.kind = KindN
	byValue(c, func(d decimal.Decimal, st *encState) (types.AttributeValue, error) {
		if b, ok, err := appendDecimal(st.buf(), d); ok {
			if err != nil {
				return nil, err
			}
			return st.N(st.str(b)), nil
		}
		// Check the magnitude before String, which writes every digit of a
		// huge exponent out in full.
		if a := int64(d.NumDigits()) - 1 + int64(d.Exponent()); a > numbers.MaxExponent {
			return nil, rangeError(numbers.Overflow)
		} else if a < numbers.MinExponent {
			return nil, rangeError(numbers.Underflow)
		}
		// Same canonical form as the fast path, whatever the scale.
		text := d.String()
		if err := checkNumber(text); err != nil {
			return nil, err
		}
		pd, _ := parseDec(text)
		return st.N(pd.canonical()), nil
	}, func(av types.AttributeValue) (decimal.Decimal, error) {
		x, ok := av.(*types.AttributeValueMemberN)
		if !ok {
			return decimal.Decimal{}, mismatch(av, decimalType)
		}
		if coef, exp, ok := parseSmallDec(x.Value); ok {
			return decimal.New(coef, exp), nil
		}
		d, err := decimal.NewFromString(x.Value)
		if err != nil {
			return decimal.Decimal{}, errorf("not a number")
		}
		return d, nil
	})
	c.isZero = func(v reflect.Value) bool { return valueAs[decimal.Decimal](v).IsZero() }
}

// appendDecimal formats a decimal whose coefficient fits in 18 digits
// without going through big.Int text; ok=false means use the slow path.
func appendDecimal(b []byte, d decimal.Decimal) ([]byte, bool, error) {
	if d.NumDigits() > 18 {
		return b, false, nil
	}
	c := d.CoefficientInt64()
	if c == 0 {
		return append(b, '0'), true, nil
	}
	exp := int(d.Exponent())
	u := uint64(c)
	if c < 0 {
		u = -u
		b = append(b, '-')
	}
	var db [20]byte
	D := strconv.AppendUint(db[:0], u, 10)
	for D[len(D)-1] == '0' {
		D = D[:len(D)-1]
		exp++
	}
	adj := exp + len(D) - 1
	if err := magnitudeError(adj); err != nil {
		return b, true, err
	}
	return appendDigits(b, D, adj), true, nil
}

// parseSmallDec parses an N whose digits fit an int64 coefficient, keeping
// the digits as written (as decimal.NewFromString does).
func parseSmallDec(s string) (coef int64, exp int32, ok bool) {
	i, neg := 0, false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	var u uint64
	nd, frac, seen, point := 0, 0, false, false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			seen = true
			if point {
				frac++
			}
			if u != 0 || c != '0' {
				nd++
			}
			if nd > 18 {
				return 0, 0, false
			}
			u = u*10 + uint64(c-'0')
		case c == '.' && !point:
			point = true
		default:
			goto exponent
		}
	}
exponent:
	if !seen {
		return 0, 0, false
	}
	e := 0
	if i < len(s) {
		if s[i] != 'e' && s[i] != 'E' {
			return 0, 0, false
		}
		i++
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		if i == len(s) || len(s)-i > 6 {
			return 0, 0, false
		}
		for ; i < len(s); i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return 0, 0, false
			}
			e = e*10 + int(c-'0')
		}
		if eneg {
			e = -e
		}
	}
	coef = int64(u)
	if neg {
		coef = -coef
	}
	return coef, int32(e - frac), true
}

// ---- sets ----

// elemCoder formats and parses set elements as their wire strings.
type elemCoder struct {
	kind   Kind // KindSS, KindNS or KindBS
	format func(v reflect.Value) (string, error)
	parse  func(s string, v reflect.Value) error
}

func setElemOK(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

func elemCoderFor(t reflect.Type, o opts) (elemCoder, error) {
	switch t.Kind() {
	case reflect.String:
		if t == numberType || o.number {
			return elemCoder{KindNS,
				func(v reflect.Value) (string, error) {
					if err := checkNumber(v.String()); err != nil {
						return "", err
					}
					d, _ := parseDec(v.String())
					return d.canonical(), nil
				},
				func(s string, v reflect.Value) error { v.SetString(s); return nil }}, nil
		}
		kind := KindSS
		if o.binary {
			kind = KindBS
		}
		return elemCoder{kind,
			func(v reflect.Value) (string, error) { return v.String(), nil },
			func(s string, v reflect.Value) error { v.SetString(s); return nil }}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := t.Bits()
		return elemCoder{KindNS,
			func(v reflect.Value) (string, error) { return strconv.FormatInt(v.Int(), 10), nil },
			func(s string, v reflect.Value) error {
				n, err := parseInt(s, bits)
				v.SetInt(n)
				return err
			}}, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		bits := t.Bits()
		return elemCoder{KindNS,
			func(v reflect.Value) (string, error) { return strconv.FormatUint(v.Uint(), 10), nil },
			func(s string, v reflect.Value) error {
				n, err := parseUint(s, bits)
				v.SetUint(n)
				return err
			}}, nil
	case reflect.Float32, reflect.Float64:
		bits := t.Bits()
		return elemCoder{KindNS,
			func(v reflect.Value) (string, error) { return formatFloat(v.Float(), bits) },
			func(s string, v reflect.Value) error {
				f, err := parseFloat(s, bits)
				v.SetFloat(f)
				return err
			}}, nil
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return elemCoder{KindBS,
				func(v reflect.Value) (string, error) { return string(v.Bytes()), nil },
				func(s string, v reflect.Value) error { v.SetBytes([]byte(s)); return nil }}, nil
		}
	}
	return elemCoder{}, errorf("set elements must be strings or numbers, not %s", t)
}

// setAV sorts the formatted elements (numerically for NS, bytewise
// otherwise), rejects duplicates and builds the set attribute value.
func setAV(kind Kind, elems []string, st *encState) (types.AttributeValue, error) {
	if kind == KindNS {
		type num struct {
			s string
			d numbers.Dec
		}
		nums := make([]num, len(elems))
		for i, e := range elems {
			d, _ := numbers.Parse(e) // the element coder has validated e
			nums[i] = num{e, d}
		}
		slices.SortFunc(nums, func(a, b num) int { return numbers.Compare(a.d, b.d) })
		for i := range nums {
			elems[i] = nums[i].s
		}
	} else {
		slices.Sort(elems)
	}
	for i := 1; i < len(elems); i++ {
		if elems[i] == elems[i-1] {
			return nil, errorf("set holds an element twice")
		}
	}
	switch kind {
	case KindNS:
		return st.NS(elems), nil
	case KindBS:
		bs := make([][]byte, len(elems))
		for i, e := range elems {
			bs[i] = []byte(e)
		}
		return &types.AttributeValueMemberBS{Value: bs}, nil
	}
	return st.SS(elems), nil
}

// setElems returns the wire strings of set attribute av of the given kind.
func setElems(av types.AttributeValue, kind Kind, t reflect.Type) ([]string, error) {
	switch x := av.(type) {
	case *types.AttributeValueMemberSS:
		if kind == KindSS {
			return x.Value, nil
		}
	case *types.AttributeValueMemberNS:
		if kind == KindNS {
			return x.Value, nil
		}
	case *types.AttributeValueMemberBS:
		if kind == KindBS {
			out := make([]string, len(x.Value))
			for i, b := range x.Value {
				out[i] = string(b)
			}
			return out, nil
		}
	}
	return nil, mismatch(av, t)
}

func buildSet(c *codec, t reflect.Type, o opts) error {
	kt := t.Key()
	ec, err := elemCoderFor(kt, o)
	if err != nil {
		return err
	}
	c.kind = ec.kind
	empty := reflect.New(t.Elem()).Elem()
	stringSet := t == reflect.TypeFor[Set[string]]() && ec.kind == KindSS
	intSet := t == reflect.TypeFor[Set[int]]()
	numeric := kt != numberType && !o.number && setElemOK(kt) && kt.Kind() != reflect.String
	switch {
	case stringSet:
		c.encAt = func(p unsafe.Pointer, st *encState) (types.AttributeValue, error) {
			return encodeStringSet(*(*Set[string])(p), st), nil
		}
		c.decAt = func(av types.AttributeValue, p unsafe.Pointer) error {
			elems, err := setElems(av, ec.kind, t)
			if err != nil {
				return err
			}
			*(*Set[string])(p) = decodeStringSet(elems)
			return nil
		}
	case intSet:
		c.encAt = func(p unsafe.Pointer, st *encState) (types.AttributeValue, error) {
			return encodeIntSet(*(*Set[int])(p), st), nil
		}
		c.decAt = func(av types.AttributeValue, p unsafe.Pointer) error {
			elems, err := setElems(av, ec.kind, t)
			if err != nil {
				return err
			}
			s, err := decodeIntSet(elems)
			if err != nil {
				return err
			}
			*(*Set[int])(p) = s
			return nil
		}
	}
	c.enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) {
		n := v.Len()
		if n == 0 {
			return nil, nil
		}
		switch {
		case stringSet:
			return encodeStringSet(v.Interface().(Set[string]), st), nil
		case intSet:
			return encodeIntSet(v.Interface().(Set[int]), st), nil
		case numeric:
			return encodeNumericSet(v, kt, st)
		}
		elems := st.strings(n)
		it := v.MapRange()
		k := reflect.New(kt).Elem()
		for it.Next() {
			k.SetIterKey(it)
			s, err := ec.format(k)
			if err != nil {
				return nil, err
			}
			elems = append(elems, s)
		}
		return setAV(ec.kind, elems, st)
	}
	c.dec = func(av types.AttributeValue, v reflect.Value) error {
		elems, err := setElems(av, ec.kind, t)
		if err != nil {
			return err
		}
		m := reflect.MakeMapWithSize(t, len(elems))
		k := reflect.New(kt).Elem()
		for _, e := range elems {
			if err := ec.parse(e, k); err != nil {
				return err
			}
			m.SetMapIndex(k, empty)
		}
		v.Set(m)
		return nil
	}
	if c.decAt != nil {
		decodeByAddress(c)
	}
	c.isZero = func(v reflect.Value) bool { return v.Len() == 0 }
	return nil
}

func encodeStringSet(s Set[string], st *encState) types.AttributeValue {
	if len(s) == 0 {
		return nil
	}
	elems := st.strings(len(s))
	if len(s) > smallSet {
		for k := range s {
			elems = append(elems, k)
		}
		slices.Sort(elems)
		return st.SS(elems)
	}
	// A small set is sorted on the stack, by an index of its strings, so
	// that each string is stored into the slab once: every store there is
	// a write barrier while the collector marks, and a sort in place moves
	// each string several times.
	var keys [smallSet]string
	var order [smallSet]uint8
	n := 0
	for k := range s {
		keys[n] = k
		order[n] = uint8(n)
		n++
	}
	for i := 1; i < n; i++ {
		for j := i; j > 0 && keys[order[j]] < keys[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	elems = elems[:n]
	for i, x := range order[:n] {
		elems[i] = keys[x]
	}
	return st.SS(elems)
}

// smallSet is the most elements a set is sorted on the stack with.
const smallSet = 16

func encodeIntSet(s Set[int], st *encState) types.AttributeValue {
	if len(s) == 0 {
		return nil
	}
	var buf [smallSet]int
	vals := buf[:0]
	for k := range s {
		vals = append(vals, k)
	}
	if len(vals) > smallSet {
		slices.Sort(vals)
	} else {
		// Insertion sort: for a few elements cheaper than slices.Sort's
		// setup, and it stays on the stack.
		for i := 1; i < len(vals); i++ {
			for j := i; j > 0 && vals[j] < vals[j-1]; j-- {
				vals[j], vals[j-1] = vals[j-1], vals[j]
			}
		}
	}
	elems := st.strings(len(vals))[:len(vals)]
	for i, x := range vals {
		elems[i] = st.itoa(int64(x))
	}
	return st.NS(elems)
}

func decodeStringSet(elems []string) Set[string] {
	s := make(Set[string], len(elems))
	for _, e := range elems {
		s[e] = struct{}{}
	}
	return s
}

func decodeIntSet(elems []string) (Set[int], error) {
	s := make(Set[int], len(elems))
	for _, e := range elems {
		n, err := parseInt(e, strconv.IntSize)
		if err != nil {
			return nil, err
		}
		s[int(n)] = struct{}{}
	}
	return s, nil
}

// encodeNumericSet writes a set of Go numbers as NS in numeric order.
func encodeNumericSet(v reflect.Value, kt reflect.Type, st *encState) (types.AttributeValue, error) {
	n := v.Len()
	it := v.MapRange()
	k := reflect.New(kt).Elem()
	elems := st.strings(n)
	switch kt.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		vals := make([]int64, 0, n)
		for it.Next() {
			k.SetIterKey(it)
			vals = append(vals, k.Int())
		}
		slices.Sort(vals)
		for _, x := range vals {
			elems = append(elems, st.itoa(x))
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		vals := make([]uint64, 0, n)
		for it.Next() {
			k.SetIterKey(it)
			vals = append(vals, k.Uint())
		}
		slices.Sort(vals)
		for _, x := range vals {
			elems = append(elems, st.utoa(x))
		}
	default:
		bits := kt.Bits()
		vals := make([]float64, 0, n)
		for it.Next() {
			k.SetIterKey(it)
			vals = append(vals, k.Float())
		}
		slices.Sort(vals)
		for _, x := range vals {
			b, err := appendFloat(st.buf(), x, bits)
			if err != nil {
				return nil, err
			}
			elems = append(elems, st.str(b))
		}
	}
	return st.NS(elems), nil
}

func buildBinarySet(c *codec) {
	c.kind = KindBS
	c.enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) {
		s := valueAs[BinarySet](v)
		if len(s) == 0 {
			return nil, nil
		}
		bs := slices.Clone([][]byte(s))
		slices.SortFunc(bs, bytes.Compare)
		for i := 1; i < len(bs); i++ {
			if bytes.Equal(bs[i], bs[i-1]) {
				return nil, errorf("binary set holds an element twice")
			}
		}
		return &types.AttributeValueMemberBS{Value: bs}, nil
	}
	c.dec = func(av types.AttributeValue, v reflect.Value) error {
		x, ok := av.(*types.AttributeValueMemberBS)
		if !ok {
			return mismatch(av, binarySetType)
		}
		out := make(BinarySet, len(x.Value))
		for i, b := range x.Value {
			out[i] = slices.Clone(b)
		}
		setAs(v, out)
		return nil
	}
	c.isZero = func(v reflect.Value) bool { return v.Len() == 0 }
}

// buildSliceSet codes a slice tagged `set` as SS/NS/BS.
func buildSliceSet(c *codec, t reflect.Type, o opts) error {
	o.set = false
	ec, err := elemCoderFor(t.Elem(), o)
	if err != nil {
		return err
	}
	c.kind = ec.kind
	c.enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) {
		n := v.Len()
		if n == 0 {
			return nil, nil
		}
		elems := st.strings(n)[:n]
		for i := range n {
			s, err := ec.format(v.Index(i))
			if err != nil {
				return nil, withinIndex(err, i)
			}
			elems[i] = s
		}
		return setAV(ec.kind, elems, st)
	}
	c.dec = func(av types.AttributeValue, v reflect.Value) error {
		elems, err := setElems(av, ec.kind, t)
		if err != nil {
			return err
		}
		newSlice(v, len(elems))
		for i, e := range elems {
			if err := ec.parse(e, v.Index(i)); err != nil {
				return withinIndex(err, i)
			}
		}
		return nil
	}
	c.isZero = func(v reflect.Value) bool { return v.Len() == 0 }
	return nil
}

// ---- lists, vectors, maps ----

func (b *builder) buildList(c *codec, t reflect.Type, o opts) error {
	o.dim, o.set = 0, false
	c.kind = KindL
	elem, err := b.codec(t.Elem(), o)
	if err != nil {
		return err
	}
	et := t.Elem()
	size := et.Size()
	c.enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) {
		if v.IsNil() {
			return nil, nil
		}
		if v.CanAddr() {
			return c.encAt(v.Addr().UnsafePointer(), st)
		}
		return encodeList(elem, v, st)
	}
	c.encAt = func(p unsafe.Pointer, st *encState) (types.AttributeValue, error) {
		h := (*sliceHeader)(p)
		if h.data == nil {
			return nil, nil
		}
		if err := st.enter(); err != nil {
			return nil, err
		}
		defer st.leave()
		l := st.values(h.len)
		for i := range l {
			av, err := elem.encodeAt(unsafe.Add(h.data, uintptr(i)*size), st)
			if err != nil {
				return nil, withinIndex(err, i)
			}
			if av == nil {
				av = st.NULL()
			}
			l[i] = av
		}
		return st.L(l), nil
	}
	c.decAt = func(av types.AttributeValue, p unsafe.Pointer) error {
		x, ok := av.(*types.AttributeValueMemberL)
		if !ok {
			return decodeSetIntoList(av, valueAt(c.ptr, p), t, et, o)
		}
		newSlice(valueAt(c.ptr, p), len(x.Value))
		data := (*sliceHeader)(p).data
		for i, e := range x.Value {
			if e == nil {
				continue
			}
			if err := elem.decodeAt(e, unsafe.Add(data, uintptr(i)*size)); err != nil {
				return withinIndex(err, i)
			}
		}
		return nil
	}
	decodeByAddress(c)
	c.isZero = reflect.Value.IsNil
	c.isEmpty = func(v reflect.Value) bool { return v.Len() == 0 }
	return nil
}

// newSlice sets settable slice v to a new zeroed slice of length n,
// allocating only the backing array (an empty list loads as an empty,
// non-nil slice).
func newSlice(v reflect.Value, n int) {
	v.SetZero()
	if n == 0 {
		v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		return
	}
	v.Grow(n)
	v.SetLen(n)
}

func encodeList(elem *codec, v reflect.Value, st *encState) (types.AttributeValue, error) {
	if err := st.enter(); err != nil {
		return nil, err
	}
	defer st.leave()
	n := v.Len()
	l := st.values(n)
	for i := range n {
		av, err := elem.enc(v.Index(i), st)
		if err != nil {
			return nil, withinIndex(err, i)
		}
		if av == nil {
			av = st.NULL()
		}
		l[i] = av
	}
	return st.L(l), nil
}

// decodeSetIntoList lets a []T load a set attribute whose elements T can
// hold (SS into []string, NS into []int, BS into [][]byte).
func decodeSetIntoList(av types.AttributeValue, v reflect.Value, t, et reflect.Type, o opts) error {
	switch av.(type) {
	case *types.AttributeValueMemberSS, *types.AttributeValueMemberNS, *types.AttributeValueMemberBS:
	default:
		return mismatch(av, t)
	}
	ec, err := elemCoderFor(et, o)
	if err != nil {
		return mismatch(av, t)
	}
	elems, err := setElems(av, ec.kind, t)
	if err != nil {
		return err
	}
	newSlice(v, len(elems))
	for i, e := range elems {
		if err := ec.parse(e, v.Index(i)); err != nil {
			return withinIndex(err, i)
		}
	}
	return nil
}

func (b *builder) buildArray(c *codec, t reflect.Type, o opts) error {
	o.dim, o.set = 0, false
	c.kind = KindL
	elem, err := b.codec(t.Elem(), o)
	if err != nil {
		return err
	}
	n := t.Len()
	c.enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) { return encodeList(elem, v, st) }
	c.dec = func(av types.AttributeValue, v reflect.Value) error {
		x, ok := av.(*types.AttributeValueMemberL)
		if !ok {
			return mismatch(av, t)
		}
		if len(x.Value) != n {
			return errorf("cannot load a list of %d into %s", len(x.Value), t)
		}
		for i, e := range x.Value {
			if err := elem.decode(e, v.Index(i)); err != nil {
				return withinIndex(err, i)
			}
		}
		return nil
	}
	return nil
}

func buildVector(c *codec, t reflect.Type, dim int) {
	c.kind = KindL
	bits := t.Elem().Bits()
	c.enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) {
		if v.IsNil() {
			return nil, nil
		}
		n := v.Len()
		if n != dim {
			return nil, errorf("vector has %d dimensions, field wants %d", n, dim)
		}
		l := st.values(n)
		for i := range n {
			b, err := appendFloat(st.buf(), v.Index(i).Float(), bits)
			if err != nil {
				return nil, withinIndex(err, i)
			}
			l[i] = st.N(st.str(b))
		}
		return st.L(l), nil
	}
	c.dec = func(av types.AttributeValue, v reflect.Value) error {
		x, ok := av.(*types.AttributeValueMemberL)
		if !ok {
			return mismatch(av, t)
		}
		if len(x.Value) != dim {
			return errorf("vector has %d dimensions, field wants %d", len(x.Value), dim)
		}
		newSlice(v, dim)
		s := v
		for i, e := range x.Value {
			n, ok := e.(*types.AttributeValueMemberN)
			if !ok {
				return withinIndex(mismatch(e, t.Elem()), i)
			}
			f, err := parseFloat(n.Value, bits)
			if err != nil {
				return withinIndex(err, i)
			}
			s.Index(i).SetFloat(f)
		}
		return nil
	}
	c.isZero = reflect.Value.IsNil
	c.isEmpty = func(v reflect.Value) bool { return v.Len() == 0 }
}

// mapKey formats and parses map keys: string kinds as they are, integers
// in decimal, encoding.TextMarshaler keys as their text.
type mapKey struct {
	format func(k reflect.Value) (string, error)
	parse  func(s string, k reflect.Value) error
}

func mapKeyFor(t reflect.Type) (mapKey, error) {
	if implementsText(t) {
		return mapKey{
			func(k reflect.Value) (string, error) {
				b, err := addrOf(k).Interface().(encoding.TextMarshaler).MarshalText()
				if err != nil {
					return "", userErr(err, "MarshalText")
				}
				return string(b), nil
			},
			func(s string, k reflect.Value) error {
				return k.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s))
			}}, nil
	}
	switch t.Kind() {
	case reflect.String:
		return mapKey{
			func(k reflect.Value) (string, error) { return k.String(), nil },
			func(s string, k reflect.Value) error { k.SetString(s); return nil }}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := t.Bits()
		return mapKey{
			func(k reflect.Value) (string, error) { return strconv.FormatInt(k.Int(), 10), nil },
			func(s string, k reflect.Value) error {
				n, err := strconv.ParseInt(s, 10, bits)
				if err != nil {
					return errorf("map key is not an int%d", bits)
				}
				k.SetInt(n)
				return nil
			}}, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		bits := t.Bits()
		return mapKey{
			func(k reflect.Value) (string, error) { return strconv.FormatUint(k.Uint(), 10), nil },
			func(s string, k reflect.Value) error {
				n, err := strconv.ParseUint(s, 10, bits)
				if err != nil {
					return errorf("map key is not a uint%d", bits)
				}
				k.SetUint(n)
				return nil
			}}, nil
	}
	return mapKey{}, errorf("unsupported map key type %s (want strings, integers or encoding.TextMarshaler)", t)
}

func (b *builder) buildMap(c *codec, t reflect.Type, o opts) error {
	o.dim, o.set = 0, false
	c.kind = KindM
	mk, err := mapKeyFor(t.Key())
	if err != nil {
		return err
	}
	elem, err := b.codec(t.Elem(), o)
	if err != nil {
		return err
	}
	et, kt := t.Elem(), t.Key()
	anyMap := t == reflect.TypeFor[map[string]any]()
	stringMap := t == reflect.TypeFor[map[string]string]() && !o.binary && !o.number
	c.enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) {
		if v.IsNil() {
			return nil, nil
		}
		if err := st.enter(); err != nil {
			return nil, err
		}
		defer st.leave()
		if anyMap {
			return encodeAnyMap(v.Interface().(map[string]any), st)
		}
		if stringMap {
			return encodeStringMap(v.Interface().(map[string]string), st), nil
		}
		m := make(map[string]types.AttributeValue, v.Len())
		it := v.MapRange()
		for it.Next() {
			k, err := mk.format(it.Key())
			if err != nil {
				return nil, err
			}
			av, err := elem.enc(it.Value(), st)
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
	c.dec = func(av types.AttributeValue, v reflect.Value) error {
		x, ok := av.(*types.AttributeValueMemberM)
		if !ok {
			return mismatch(av, t)
		}
		if anyMap {
			m, err := decodeAnyMap(x.Value)
			if err != nil {
				return err
			}
			v.Set(reflect.ValueOf(m))
			return nil
		}
		if v.IsNil() {
			v.Set(reflect.MakeMapWithSize(t, len(x.Value)))
		}
		ev := reflect.New(et).Elem()
		kv := reflect.New(kt).Elem()
		for k, e := range x.Value {
			if err := mk.parse(k, kv); err != nil {
				return err // the key is the bad value: not in the path
			}
			ev.SetZero()
			if e != nil {
				if err := elem.decode(e, ev); err != nil {
					return within(err, mapSeg(k))
				}
			}
			v.SetMapIndex(kv, ev)
		}
		return nil
	}
	if stringMap {
		c.encAt = func(p unsafe.Pointer, st *encState) (types.AttributeValue, error) {
			sm := *(*map[string]string)(p)
			if sm == nil {
				return nil, nil
			}
			return encodeStringMap(sm, st), nil
		}
		c.decAt = func(av types.AttributeValue, p unsafe.Pointer) error {
			x, ok := av.(*types.AttributeValueMemberM)
			if !ok {
				return mismatch(av, t)
			}
			sm, err := decodeStringMap(x.Value, et)
			if err != nil {
				return err
			}
			*(*map[string]string)(p) = sm
			return nil
		}
		decodeByAddress(c)
	}
	c.isZero = reflect.Value.IsNil
	c.isEmpty = func(v reflect.Value) bool { return v.Len() == 0 }
	return nil
}

// decodeStringMap decodes an M of strings (NULL loads as "") into a new
// map[string]string.
func decodeStringMap(m map[string]types.AttributeValue, et reflect.Type) (map[string]string, error) {
	sm := make(map[string]string, len(m))
	for k, e := range m {
		switch e := e.(type) {
		case *types.AttributeValueMemberS:
			sm[k] = e.Value
		case *types.AttributeValueMemberNULL, nil:
			sm[k] = ""
		default:
			return nil, within(mismatch(e, et), mapSeg(k))
		}
	}
	return sm, nil
}

func encodeStringMap(sm map[string]string, st *encState) types.AttributeValue {
	m := make(map[string]types.AttributeValue, len(sm))
	for k, e := range sm {
		m[k] = st.S(e)
	}
	return st.M(m)
}

func buildInterface(c *codec, t reflect.Type) {
	c.kind = KindAny
	empty := t.NumMethod() == 0
	c.enc = func(v reflect.Value, st *encState) (types.AttributeValue, error) {
		if v.IsNil() {
			return nil, nil
		}
		return encodeAny(v.Interface(), st)
	}
	c.dec = func(av types.AttributeValue, v reflect.Value) error {
		if empty {
			x, err := decodeAny(av)
			if err != nil {
				return err
			}
			if x == nil {
				v.SetZero()
			} else {
				v.Set(reflect.ValueOf(x))
			}
			return nil
		}
		// A non-empty interface holding a non-nil pointer decodes into the
		// pointed-to value, as encoding/json does.
		if !v.IsNil() && v.Elem().Kind() == reflect.Pointer && !v.Elem().IsNil() {
			p := v.Elem()
			ec, err := codecOf(p.Type().Elem(), opts{})
			if err != nil {
				return err
			}
			return ec.decode(av, p.Elem())
		}
		return errorf("cannot load %s into interface %s", avKind(av), t)
	}
	c.isZero = reflect.Value.IsNil
}
