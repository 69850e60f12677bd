package codec

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Kind is the wire type a field encodes to.
type Kind uint8

const (
	KindS Kind = iota + 1
	KindN
	KindB
	KindBOOL
	KindNULL
	KindM
	KindL
	KindSS
	KindNS
	KindBS
	KindAny // decided by the value at run time (any, Marshaler, Raw, …)
)

var kindNames = [...]string{"", "S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS", "any"}

// String returns the DynamoDB type tag ("S", "N", …), or "any".
func (k Kind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Struct is the cached plan of one struct type: its attributes and the
// encoder and decoder of each, built once by StructOf. Only a plan
// StructOf returns encodes and decodes (its tables are filled there).
type Struct struct {
	Type   reflect.Type
	Fields []*Field // declaration order; embedded structs flattened as encoding/json does
	// Unknown is the catch-all field (tag flag unknown), or nil: it is not
	// an attribute and not among Fields.
	Unknown *Field

	byName map[string]*Field
	ptr    unsafe.Pointer // type word of *Type (see valueAt)
	dec    []decField     // Fields as the decoder reads them
	enc    []encField     // Fields as the encoder reads them
}

// encField is what encoding's short path reads of a field, in one dense
// table, as decField is for decoding: a few words per field instead of a
// whole Field, whose members the loop needs lie on different cache lines.
type encField struct {
	name   string
	offset uintptr
	c      *codec
	field  *Field
	plain  bool // field.plain
}

// decField is what decoding reads of a field, in one dense table: the loop
// over a plan's fields then touches one small entry per field instead of
// a whole Field through its pointer.
type decField struct {
	name string
	// decAt is c.decAt, read here rather than through c: decoding a
	// common field then touches its entry and the coder, not the codec.
	decAt  func(av types.AttributeValue, p unsafe.Pointer) error
	offset uintptr
	def    types.AttributeValue // the default's value, or nil
	field  *Field               // nil when the field is coded at offset
	c      *codec
}

// Field is one attribute of a struct plan.
type Field struct {
	Name       string // attribute name (tag name, else the Go field name)
	GoName     string
	Index      []int // reflect index path from the outer struct
	Type       reflect.Type
	PK, SK     bool   // tag flags pk, sk
	Required   bool   // tag flag required: encoding a zero value is an error
	OmitEmpty  bool   // tag flag omitempty: zero value omitted too
	Default    string // default=... text as written
	HasDefault bool
	Dim        int  // dim=N: vector dimension ([]float32 / []float64 fields)
	Kind       Kind // wire kind this field encodes to

	// Precision is the precision= flag (time.Second, time.Millisecond, …),
	// or 0 when the field uses its type's default.
	Precision time.Duration
	UnixTime  bool // tag flag unixtime
	Number    bool // tag flag number
	Binary    bool // tag flag binary
	AsSet     bool // tag flag set

	// Version, Created and Updated are the tag flags version, created and
	// updated: fields the library writes on every write (see package schema).
	Version, Created, Updated bool

	o         opts
	c         *codec
	defaultAV types.AttributeValue
	// direct: the field lies offset bytes into the outer struct, through
	// no embedded pointer, so it is coded at its address.
	direct bool
	offset uintptr
	// plain: direct, and neither omitempty nor required, so that encoding
	// needs no reflect.Value: the common field, which Struct.encode takes
	// on its short path.
	plain bool
}

var (
	plans   sync.Map // reflect.Type → *Struct
	codecs  sync.Map // codecKey → *codec
	buildMu sync.Mutex
)

// StructOf returns the plan of struct type t (or pointer to struct),
// building and caching it on first use. The error names the type and field
// of a bad tag, an unsupported type or a bad default.
func StructOf(t reflect.Type) (*Struct, error) {
	if t == nil {
		return nil, errorf("StructOf(nil)")
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s, ok := plans.Load(t); ok {
		return s.(*Struct), nil
	}
	if t.Kind() != reflect.Struct {
		return nil, errorf("%s is not a struct type", t)
	}
	buildMu.Lock()
	defer buildMu.Unlock()
	b := newBuilder()
	s, err := b.plan(t)
	if err != nil {
		return nil, withinType(err, t)
	}
	b.publish()
	return s, nil
}

// Field returns the field stored under attribute name attr, or nil.
func (s *Struct) Field(attr string) *Field { return s.byName[attr] }

// Encode encodes struct value v (or a pointer to it) as an item. Absent
// fields (nil pointers, slices, maps, empty sets) get their default, else
// are omitted when omitNil, else written as NULL; every other value, the
// zero value included, is written as it is; a required field that is zero
// and has no default is an error.
func (s *Struct) Encode(v reflect.Value, omitNil bool) (map[string]types.AttributeValue, error) {
	m := make(map[string]types.AttributeValue, len(s.Fields))
	if err := s.EncodeInto(v, omitNil, m); err != nil {
		return nil, err
	}
	return m, nil
}

// EncodeInto is Encode writing the attributes into m, which a caller that
// adds attributes of its own (a schema's generated keys) makes with room
// for them, so that the map is not grown on the way. After an error m holds
// part of the item.
func (s *Struct) EncodeInto(v reflect.Value, omitNil bool, m map[string]types.AttributeValue) error {
	v, err := s.structValue(v)
	if err != nil {
		return err
	}
	if !v.CanAddr() {
		// Work on an addressable copy so that field codecs read time.Time,
		// decimal.Decimal and pointer-receiver marshalers without boxing.
		p := reflect.New(s.Type).Elem()
		p.Set(v)
		v = p
	}
	st := getState()
	err = s.encode(m, v, nil, omitNil, st)
	putState(st)
	if err != nil {
		return withinType(err, s.Type)
	}
	return nil
}

// Decode fills v (an addressable struct, or a pointer to one) from item.
// Undeclared attributes are ignored; missing ones get the field's default
// or are left as they are; NULL loads as the zero value.
func (s *Struct) Decode(item map[string]types.AttributeValue, v reflect.Value) error {
	_, err := s.DecodeFound(item, v)
	return err
}

// DecodeFound is Decode, also reporting which fields the item held: bit i
// is set when the attribute of Fields[i] is in item with a non-nil value.
// Only the first 64 fields have a bit; a field filled from its default,
// or past the 64th, is not marked, so a caller that must know about such a
// field looks it up in item itself.
func (s *Struct) DecodeFound(item map[string]types.AttributeValue, v reflect.Value) (found uint64, err error) {
	var p unsafe.Pointer // the struct's address, when v points to it
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return 0, errorf("cannot decode %s into a nil pointer", s.Type)
		}
		// Taking the address of v.Elem() again would look *T up in
		// reflect's type cache.
		p = v.UnsafePointer()
		v = v.Elem()
	}
	if v.Type() != s.Type {
		return 0, errorf("cannot decode a %s item into %s", s.Type, v.Type())
	}
	if !v.CanSet() {
		return 0, errorf("cannot decode into an unaddressable %s", s.Type)
	}
	found, err = s.decode(item, v, p)
	if err != nil {
		return found, withinType(err, s.Type)
	}
	return found, nil
}

// unknownType is the type of a catch-all field.
var unknownType = reflect.TypeFor[map[string]types.AttributeValue]()

// encodeUnknown writes the entries of the catch-all field into m. An entry
// named like a declared field is an error, not silently dropped or
// overwritten: which of the two was meant cannot be known.
func (s *Struct) encodeUnknown(v reflect.Value, m map[string]types.AttributeValue) error {
	fv := s.Unknown.Value(v)
	if !fv.IsValid() || fv.IsNil() {
		return nil
	}
	for attr, av := range fv.Interface().(map[string]types.AttributeValue) {
		if _, declared := s.byName[attr]; declared {
			return &Error{Path: s.Unknown.GoName, Msg: "attribute " + strconv.Quote(attr) + " is a declared field; set the field instead"}
		}
		if av == nil {
			return &Error{Path: s.Unknown.GoName, Msg: "attribute " + strconv.Quote(attr) + " has a nil value"}
		}
		m[attr] = av
	}
	return nil
}

// decodeUnknown sets the catch-all field to the item's undeclared
// attributes (nil when there are none).
func (s *Struct) decodeUnknown(item map[string]types.AttributeValue, v reflect.Value) error {
	var rest map[string]types.AttributeValue
	for attr, av := range item {
		if _, declared := s.byName[attr]; !declared {
			if rest == nil {
				rest = make(map[string]types.AttributeValue, len(item)-len(s.byName))
			}
			rest[attr] = av
		}
	}
	fv, err := s.Unknown.settable(v)
	if err != nil {
		return within(err, s.Unknown.GoName)
	}
	fv.Set(reflect.ValueOf(rest))
	return nil
}

func (s *Struct) structValue(v reflect.Value) (reflect.Value, error) {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return v, errorf("cannot encode a nil *%s", s.Type)
		}
		v = v.Elem()
	}
	if !v.IsValid() || v.Type() != s.Type {
		return v, errorf("cannot encode %v with the plan of %s", v.Type(), s.Type)
	}
	return v, nil
}

// encode encodes the struct in v, or at p when v is the zero Value, into
// m. p is the address of an addressable v; without one every field goes
// through reflect. The Value of a struct given by p is made only for a
// field that needs it.
func (s *Struct) encode(m map[string]types.AttributeValue, v reflect.Value, p unsafe.Pointer, omitNil bool, st *encState) error {
	if len(s.enc) != len(s.Fields) {
		return errorf("%s: encoding needs the plan StructOf returns", s.Type)
	}
	if p == nil && v.CanAddr() {
		p = v.Addr().UnsafePointer()
	}
	for i := range s.enc {
		e := &s.enc[i]
		if p != nil && e.plain {
			// The short path: the field's value at its address, then only
			// what an absent value needs.
			av, err := e.c.encodeAt(unsafe.Add(p, e.offset), st)
			if err != nil {
				return within(err, e.name)
			}
			if av == nil {
				switch {
				case e.field.HasDefault:
					av = e.field.defaultAV
				case omitNil:
					continue
				default:
					av = st.NULL()
				}
			}
			m[e.name] = av
			continue
		}
		f := e.field
		var av types.AttributeValue
		if !v.IsValid() {
			v = valueAt(s.ptr, p)
		}
		fv := f.Value(v)
		switch {
		case !fv.IsValid():
		case f.OmitEmpty && !f.Required && f.c.isEmpty(fv):
			continue
		default:
			var err error
			if av, err = f.c.enc(fv, st); err != nil {
				return within(err, f.Name)
			}
		}
		if av == nil && f.HasDefault {
			// Only an absent value takes the default: 0, false and "" in a
			// non-pointer field are values the caller set.
			av = f.defaultAV
		} else if f.Required && av != nil && f.c.isZero(fv) {
			return &Error{Path: f.Name, Msg: "required field is not set"}
		}
		if av == nil {
			if f.Required {
				return &Error{Path: f.Name, Msg: "required field is not set"}
			}
			if omitNil || f.OmitEmpty {
				continue
			}
			av = st.NULL()
		}
		m[f.Name] = av
	}
	if s.Unknown != nil {
		if !v.IsValid() {
			v = valueAt(s.ptr, p)
		}
		if err := s.encodeUnknown(v, m); err != nil {
			return err
		}
	}
	return nil
}

// decode fills the settable struct v, or the one at p when v is the zero
// Value (p, when given, is v's address), and returns the bits of
// DecodeFound.
func (s *Struct) decode(item map[string]types.AttributeValue, v reflect.Value, p unsafe.Pointer) (uint64, error) {
	if len(s.dec) != len(s.Fields) {
		// Only StructOf's plans have their table: decoding with another
		// would silently fill nothing.
		return 0, errorf("%s: decoding needs the plan StructOf returns", s.Type)
	}
	if p == nil {
		p = v.Addr().UnsafePointer()
	}
	var found uint64
	for i := range s.dec {
		d := &s.dec[i]
		av := item[d.name]
		if av == nil {
			if d.def == nil {
				continue
			}
			av = d.def
		} else {
			found |= 1 << i // 0 past the 64th field
		}
		if d.field == nil {
			var err error
			if _, null := av.(*types.AttributeValueMemberNULL); d.decAt != nil && !null {
				err = d.decAt(av, unsafe.Add(p, d.offset))
			} else {
				err = d.c.decodeAt(av, unsafe.Add(p, d.offset))
			}
			if err != nil {
				return found, within(err, d.name)
			}
			continue
		}
		if !v.IsValid() {
			v = valueAt(s.ptr, p)
		}
		fv, err := d.field.settable(v)
		if err != nil {
			return found, within(err, d.name)
		}
		if err := d.c.decode(av, fv); err != nil {
			return found, within(err, d.name)
		}
	}
	if s.Unknown != nil {
		if !v.IsValid() {
			v = valueAt(s.ptr, p)
		}
		return found, s.decodeUnknown(item, v)
	}
	return found, nil
}

// Value returns the field's value in struct value structV (or a pointer to
// it): the zero Value when the path runs through a nil embedded pointer.
func (f *Field) Value(structV reflect.Value) reflect.Value {
	v := structV
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return reflect.Value{}
		}
		v = v.Elem()
	}
	if len(f.Index) == 1 {
		return v.Field(f.Index[0])
	}
	for i, x := range f.Index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v
}

// settable returns the field in addressable struct v, allocating nil
// embedded pointers on the way.
func (f *Field) settable(v reflect.Value) (reflect.Value, error) {
	if len(f.Index) == 1 {
		return v.Field(f.Index[0]), nil
	}
	for i, x := range f.Index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				if !v.CanSet() {
					return v, errorf("cannot set embedded pointer to unexported struct %s", v.Type().Elem())
				}
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, nil
}

// IsZero reports whether fv is the field's zero value: a nil pointer, an
// empty set, 0, "", false, the zero time.
func (f *Field) IsZero(fv reflect.Value) bool {
	return !fv.IsValid() || f.c.isZero(fv)
}

// IsAbsent reports whether fv holds no value at all, the values Encode
// leaves out and a default replaces: a nil pointer, slice, map or
// interface, an empty set, the zero Date. 0, "" and false are not absent.
func (f *Field) IsAbsent(fv reflect.Value) bool {
	if !fv.IsValid() {
		return true
	}
	if !f.c.isZero(fv) {
		return false // cheap: only zero values can be absent
	}
	av, err := f.Encode(fv)
	return err == nil && av == nil
}

// Encode encodes the field's value fv. It returns a nil attribute value
// for an absent value: nil pointer, slice or map, empty set. Defaults and
// required are applied by Struct.Encode, not here.
func (f *Field) Encode(fv reflect.Value) (types.AttributeValue, error) {
	if !fv.IsValid() {
		return nil, nil
	}
	if fv.Type() != f.Type {
		return nil, &Error{Path: f.Name, Msg: "cannot encode " + fv.Type().String() + " as " + f.Type.String()}
	}
	st := getState()
	var av types.AttributeValue
	var err error
	if fv.CanAddr() {
		av, err = f.c.encodeAt(fv.Addr().UnsafePointer(), st)
	} else {
		av, err = f.c.enc(fv, st)
	}
	putState(st)
	if err != nil {
		return nil, within(err, f.Name)
	}
	return av, nil
}

// Decode decodes av into fv, which must be settable and of the field's
// type. NULL loads as the zero value.
func (f *Field) Decode(av types.AttributeValue, fv reflect.Value) error {
	if fv.Type() != f.Type || !fv.CanSet() {
		return &Error{Path: f.Name, Msg: "cannot decode into " + fv.Type().String()}
	}
	if av == nil {
		return &Error{Path: f.Name, Msg: "nil attribute value"}
	}
	if err := f.c.decode(av, fv); err != nil {
		return within(err, f.Name)
	}
	return nil
}

// withinType prefixes an error's path with the name of struct type t.
func withinType(err error, t reflect.Type) error {
	if name := t.Name(); name != "" {
		return within(err, name)
	}
	return err
}

// ---- building ----

type builder struct {
	codecs map[codecKey]*codec
	plans  map[reflect.Type]*Struct
}

func newBuilder() *builder {
	return &builder{codecs: map[codecKey]*codec{}, plans: map[reflect.Type]*Struct{}}
}

func (b *builder) publish() {
	// The codecs of a recursive type are complete only now.
	for _, s := range b.plans {
		s.setTables()
	}
	for k, c := range b.codecs {
		codecs.Store(k, c)
	}
	for t, s := range b.plans {
		plans.Store(t, s)
	}
}

type tagInfo struct {
	name                                             string
	o                                                opts
	pk, sk, required, omitEmpty, hasDefault, unknown bool
	version, created, updated                        bool
	def                                              string
}

func parseTag(tag string) (tagInfo, error) {
	var ti tagInfo
	parts := strings.Split(tag, ",")
	ti.name = parts[0]
	seen := map[string]bool{}
	for _, p := range parts[1:] {
		key, val, hasVal := strings.Cut(p, "=")
		if seen[key] {
			return ti, errorf("tag flag %q given twice", key)
		}
		seen[key] = true
		noVal := func() error {
			if hasVal {
				return errorf("tag flag %q takes no value", key)
			}
			return nil
		}
		var err error
		switch key {
		case "pk":
			ti.pk, err = true, noVal()
		case "sk":
			ti.sk, err = true, noVal()
		case "required":
			ti.required, err = true, noVal()
		case "omitempty":
			ti.omitEmpty, err = true, noVal()
		case "unknown":
			ti.unknown, err = true, noVal()
		case "version":
			ti.version, err = true, noVal()
		case "created":
			ti.created, err = true, noVal()
		case "updated":
			ti.updated, err = true, noVal()
		case "number":
			ti.o.number, err = true, noVal()
		case "binary":
			ti.o.binary, err = true, noVal()
		case "set":
			ti.o.set, err = true, noVal()
		case "unixtime":
			ti.o.unixtime, err = true, noVal()
		case "default":
			if !hasVal {
				return ti, errorf("tag flag default needs a value (default=V)")
			}
			ti.def, ti.hasDefault = val, true
		case "dim":
			n, e := strconv.Atoi(val)
			if e != nil || n <= 0 {
				return ti, errorf("tag flag dim needs a positive integer (dim=768), got %q", val)
			}
			ti.o.dim = n
		case "precision":
			switch val {
			case "s":
				ti.o.precision = time.Second
			case "ms":
				ti.o.precision = time.Millisecond
			case "us":
				ti.o.precision = time.Microsecond
			case "ns":
				ti.o.precision = time.Nanosecond
			default:
				return ti, errorf("tag flag precision must be s, ms, us or ns, got %q", val)
			}
		case "":
			return ti, errorf("empty tag flag in %q", tag)
		default:
			return ti, errorf("unknown tag flag %q", key)
		}
		if err != nil {
			return ti, err
		}
	}
	return ti, nil
}

type fieldCand struct {
	sf     reflect.StructField
	index  []int
	tagged bool
	ti     tagInfo
}

// collectFields walks t and its embedded structs breadth first, as
// encoding/json does: a shallower field hides deeper ones of the same name;
// two of the same name at the same depth are an error (encoding/json drops
// both silently; we fail loud).
func collectFields(t reflect.Type) ([]fieldCand, error) {
	type queued struct {
		t     reflect.Type
		index []int
	}
	var out []fieldCand
	next := []queued{{t: t}}
	visited := map[reflect.Type]bool{}
	for len(next) > 0 {
		current := next
		next = nil
		for _, q := range current {
			if visited[q.t] {
				continue
			}
			visited[q.t] = true
			for i := range q.t.NumField() {
				sf := q.t.Field(i)
				ft := sf.Type
				if ft.Kind() == reflect.Pointer && ft.Name() == "" {
					ft = ft.Elem()
				}
				if sf.Anonymous {
					if !sf.IsExported() && ft.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag, hasTag := sf.Tag.Lookup("dynamo")
				if tag == "-" {
					continue
				}
				ti, err := parseTag(tag)
				if err != nil {
					return nil, within(err, sf.Name)
				}
				index := append(slices.Clone(q.index), i)
				if sf.Anonymous && ti.name == "" && ft.Kind() == reflect.Struct && !isLeafStruct(ft) {
					if hasTag && tag != "" {
						return nil, &Error{Path: sf.Name, Msg: "tag flags on an embedded struct need a name (the struct would be flattened)"}
					}
					next = append(next, queued{t: ft, index: index})
					continue
				}
				if !sf.IsExported() {
					continue // unexported embedded leaf struct
				}
				c := fieldCand{sf: sf, index: index, tagged: ti.name != "", ti: ti}
				if c.ti.name == "" {
					c.ti.name = sf.Name
				}
				out = append(out, c)
			}
		}
	}
	// Resolve names: the shallowest wins, ties are an error.
	best := map[string]int{}
	var keep []fieldCand
	for _, c := range out {
		if c.ti.unknown {
			keep = append(keep, c) // not an attribute: no name to resolve
			continue
		}
		j, ok := best[c.ti.name]
		if !ok {
			best[c.ti.name] = len(keep)
			keep = append(keep, c)
			continue
		}
		o := keep[j]
		switch {
		case len(c.index) > len(o.index):
			// hidden by a shallower field
		case len(c.index) == len(o.index) && c.tagged != o.tagged:
			if c.tagged {
				keep[j] = c
			}
		default:
			return nil, errorf("attribute %q is declared by both %s and %s", c.ti.name, o.sf.Name, c.sf.Name)
		}
	}
	slices.SortStableFunc(keep, func(a, b fieldCand) int { return slices.Compare(a.index, b.index) })
	return keep, nil
}

// isLeafStruct reports whether struct type t encodes as one value rather
// than being flattened when embedded.
func isLeafStruct(t reflect.Type) bool {
	switch t {
	case timeType, dateType, timeOfDayType, dateTimeType, rawType, decimalType:
		return true
	}
	pt := reflect.PointerTo(t)
	for _, it := range []reflect.Type{marshalerType, unmarshalerType, awsMarshalerType, awsUnmarshalerType, textMarshalerType} {
		if t.Implements(it) || pt.Implements(it) {
			return true
		}
	}
	return false
}

func (b *builder) plan(t reflect.Type) (*Struct, error) {
	if s, ok := plans.Load(t); ok {
		return s.(*Struct), nil
	}
	if s, ok := b.plans[t]; ok {
		return s, nil // recursive type: filled in by the outer call
	}
	s := &Struct{Type: t, byName: map[string]*Field{}, ptr: pointerType(t)}
	b.plans[t] = s
	cands, err := collectFields(t)
	if err != nil {
		return nil, err
	}
	fields := make([]*Field, 0, len(cands))
	for _, c := range cands {
		if c.ti.unknown {
			if err := s.setUnknown(c); err != nil {
				return nil, err
			}
			continue
		}
		f := &Field{
			Name: c.ti.name, GoName: c.sf.Name, Index: c.index, Type: c.sf.Type,
			PK: c.ti.pk, SK: c.ti.sk, Required: c.ti.required, OmitEmpty: c.ti.omitEmpty,
			Default: c.ti.def, HasDefault: c.ti.hasDefault, Dim: c.ti.o.dim,
			Precision: c.ti.o.precision, UnixTime: c.ti.o.unixtime, Number: c.ti.o.number,
			Binary: c.ti.o.binary, AsSet: c.ti.o.set, o: c.ti.o,
			Version: c.ti.version, Created: c.ti.created, Updated: c.ti.updated,
		}
		if err := checkFlags(c.sf.Type, c.ti.o); err != nil {
			return nil, within(err, f.Name)
		}
		if err := checkLifecycle(f); err != nil {
			return nil, within(err, f.Name)
		}
		if f.c, err = b.codec(c.sf.Type, c.ti.o); err != nil {
			return nil, within(err, f.Name)
		}
		f.Kind = f.c.kind
		f.offset, f.direct = fieldOffset(t, f.Index)
		f.plain = f.direct && !f.OmitEmpty && !f.Required
		if f.HasDefault {
			if err := f.setDefault(); err != nil {
				return nil, within(err, f.Name)
			}
		}
		fields = append(fields, f)
		s.byName[f.Name] = f
	}
	s.Fields = fields
	return s, nil
}

// setTables fills s.enc and s.dec from s.Fields and their finished
// codecs.
func (s *Struct) setTables() {
	s.enc = make([]encField, len(s.Fields))
	s.dec = make([]decField, len(s.Fields))
	for i, f := range s.Fields {
		s.enc[i] = encField{name: f.Name, offset: f.offset, c: f.c, field: f, plain: f.plain}
		d := decField{name: f.Name, c: f.c, offset: f.offset, field: f}
		if f.direct {
			d.field, d.decAt = nil, f.c.decAt
		}
		if f.HasDefault {
			d.def = f.defaultAV
		}
		s.dec[i] = d
	}
}

// fieldOffset returns the offset of the field at index in struct type t,
// and whether the path to it runs through no embedded pointer.
func fieldOffset(t reflect.Type, index []int) (uintptr, bool) {
	var off uintptr
	for _, x := range index {
		if t.Kind() != reflect.Struct {
			return 0, false
		}
		sf := t.Field(x)
		off += sf.Offset
		t = sf.Type
	}
	return off, true
}

// setUnknown declares c as the catch-all field of s.
func (s *Struct) setUnknown(c fieldCand) error {
	if c.sf.Type != unknownType {
		return &Error{Path: c.sf.Name, Msg: "the unknown flag needs a map[string]types.AttributeValue field, not " + c.sf.Type.String()}
	}
	if c.tagged || c.ti != (tagInfo{name: c.ti.name, unknown: true}) {
		return &Error{Path: c.sf.Name, Msg: `a catch-all field takes no attribute name or other flags: tag it dynamo:",unknown"`}
	}
	if s.Unknown != nil {
		return &Error{Path: c.sf.Name, Msg: "a second catch-all field; " + s.Unknown.GoName + " is one"}
	}
	s.Unknown = &Field{GoName: c.sf.Name, Index: c.index, Type: c.sf.Type}
	return nil
}

// setDefault parses the default= text as a value of the field's type.
func (f *Field) setDefault() error {
	var av types.AttributeValue
	switch f.Kind {
	case KindS:
		av = &types.AttributeValueMemberS{Value: f.Default}
	case KindN:
		av = &types.AttributeValueMemberN{Value: f.Default}
	case KindBOOL:
		v, err := strconv.ParseBool(f.Default)
		if err != nil {
			return errorf("bad default %q: want true or false", f.Default)
		}
		av = &types.AttributeValueMemberBOOL{Value: v}
	default:
		return errorf("default= is not supported for %s fields", f.Kind)
	}
	msg := func(err error) string {
		if e, ok := err.(*Error); ok {
			return e.Msg
		}
		return err.Error()
	}
	v := reflect.New(f.Type).Elem()
	if err := f.c.decode(av, v); err != nil {
		return errorf("bad default %q: %s", f.Default, msg(err))
	}
	enc, err := f.c.enc(v, new(encState))
	if err != nil {
		return errorf("bad default %q: %s", f.Default, msg(err))
	}
	f.defaultAV = enc
	return nil
}

// checkFlags reports tag flags that do not apply to type t.
func checkFlags(t reflect.Type, o opts) error {
	base := t
	for base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	leaf := base
	for {
		if leaf.Kind() == reflect.Pointer {
			leaf = leaf.Elem()
			continue
		}
		if isSetType(leaf) {
			leaf = leaf.Key()
			continue
		}
		if (leaf.Kind() == reflect.Slice || leaf.Kind() == reflect.Array) && leaf.Elem().Kind() != reflect.Uint8 {
			leaf = leaf.Elem()
			continue
		}
		if leaf.Kind() == reflect.Map && !isSetType(leaf) {
			leaf = leaf.Elem()
			continue
		}
		break
	}
	if o.precision != 0 && leaf != timeType && leaf != timeOfDayType && leaf != dateTimeType {
		return errorf("precision= applies to time.Time, TimeOfDay and DateTime, not %s", t)
	}
	if o.unixtime && leaf != timeType {
		return errorf("unixtime applies to time.Time, not %s", t)
	}
	if o.unixtime && o.precision != 0 && o.precision != time.Second {
		return errorf("unixtime stores whole seconds; precision=%s does not apply", o.precision)
	}
	if o.binary && leaf.Kind() != reflect.String {
		return errorf("binary applies to string types, not %s", t)
	}
	if o.number && leaf.Kind() != reflect.String && !implementsText(leaf) {
		return errorf("number applies to string types and encoding.TextMarshaler types, not %s", t)
	}
	if o.number && o.binary {
		return errorf("number and binary exclude each other")
	}
	if o.dim != 0 && !(base.Kind() == reflect.Slice && (base.Elem().Kind() == reflect.Float32 || base.Elem().Kind() == reflect.Float64)) {
		return errorf("dim= applies to []float32 and []float64 vectors, not %s", t)
	}
	if o.set && !isSetType(base) && base != binarySetType {
		if base.Kind() != reflect.Slice || !(setElemOK(base.Elem()) || base.Elem().Kind() == reflect.Slice && base.Elem().Elem().Kind() == reflect.Uint8) {
			return errorf("set applies to sets and to slices of strings, numbers or []byte, not %s", t)
		}
	}
	return nil
}

func implementsText(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return (t.Implements(textMarshalerType) || pt.Implements(textMarshalerType)) && pt.Implements(textUnmarshalerType)
}

// checkLifecycle checks the fields the library writes itself: a version is
// an integer; a created or updated timestamp a time.Time (any of its
// encodings) or an integer of unix seconds.
func checkLifecycle(f *Field) error {
	integer := false
	switch f.Type.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		integer = !f.Number
	}
	n := 0
	for _, b := range []bool{f.Version, f.Created, f.Updated} {
		if b {
			n++
		}
	}
	switch {
	case n > 1:
		return errorf("the tag flags version, created and updated exclude each other")
	case f.Version && !integer:
		return errorf("the version flag needs an integer field, not %s", f.Type)
	case (f.Created || f.Updated) && !integer && f.Type != timeType:
		return errorf("the created and updated flags need a time.Time or integer (unix seconds) field, not %s", f.Type)
	}
	return nil
}
