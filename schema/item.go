package schema

import (
	"encoding/base64"
	"fmt"
	"reflect"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/codec"
)

// Table returns the table name ("" for an embedded schema).
func (s *Schema[T]) Table() string { return s.table }

// Entity returns the entity name: the value of the entity attribute, and
// (without EntityFrom) the first part of generated partition keys.
func (s *Schema[T]) Entity() string { return s.entity }

// KeyEntity returns the entity name generated partition keys start with:
// Entity, or with EntityFrom the parent's.
func (s *Schema[T]) KeyEntity() string { return s.keyEntity }

// EntityAttribute returns the attribute holding the entity name in every
// item written through the schema; "" when items are not marked.
func (s *Schema[T]) EntityAttribute() string { return s.marker }

// IdentityAttributes returns the attributes a read needs to tell this
// entity's items from others': the table keys and the entity attribute.
// Request builders add them to every projection.
func (s *Schema[T]) IdentityAttributes() []string { return s.identity }

// KeyNames returns the attribute names of the table keys; sk is "" when the
// table has no sort key.
func (s *Schema[T]) KeyNames() (pk, sk string) { return s.pkName, s.skName }

// Struct returns the codec plan of T.
func (s *Schema[T]) Struct() *codec.Struct { return s.st }

// Fields returns the declared fields in declaration order.
func (s *Schema[T]) Fields() []*codec.Field { return s.st.Fields }

// Field returns the field stored under attr, or nil.
func (s *Schema[T]) Field(attr string) *codec.Field { return s.st.Field(attr) }

// PartitionFields returns the fields the partition key is built from, in
// key order. The slice must not be modified.
func (s *Schema[T]) PartitionFields() []*codec.Field { return s.pkFields }

// SortFields returns the fields the sort key is built from, in key order
// (none when the table has no sort key). The slice must not be modified.
func (s *Schema[T]) SortFields() []*codec.Field { return s.skFields }

func fieldsOf(ks []keyField) []*codec.Field {
	out := make([]*codec.Field, len(ks))
	for i := range ks {
		out[i] = ks[i].f
	}
	return out
}

// Index returns the GSI or LSI called name.
func (s *Schema[T]) Index(name string) (*Index, bool) {
	for _, ix := range s.indexes {
		if ix.Name == name {
			return ix, true
		}
	}
	return nil, false
}

// Indexes returns the secondary indexes in declaration order.
func (s *Schema[T]) Indexes() []*Index { return s.indexes }

// VectorIndex returns the vector index called name.
func (s *Schema[T]) VectorIndex(name string) (*VectorIndexSpec, bool) {
	for _, vx := range s.vectors {
		if vx.Name == name {
			return vx, true
		}
	}
	return nil, false
}

// VectorIndexes returns the vector indexes in declaration order.
func (s *Schema[T]) VectorIndexes() []*VectorIndexSpec { return s.vectors }

// Describe returns the non-generic description of the schema.
func (s *Schema[T]) Describe() *Description { return s.desc }

// IsKeyAttr reports whether attr feeds the table's primary key: a generated
// key attribute or a field a key is built from. DynamoDB cannot update a key
// in place, so such attributes may not be updated.
func (s *Schema[T]) IsKeyAttr(attr string) bool { return s.keyAttrs[attr] }

// Dump encodes v as a complete item: every declared field (nil ones omitted,
// or written as NULL with OmitNil(false); defaults applied) plus the
// generated key attributes and the entity attribute. A required field that is unset and has no
// default, and an incomplete key, are errors. A secondary-index key field
// holding an empty string or binary is left out (DynamoDB rejects empty
// index keys), so the item is not in that index.
func (s *Schema[T]) Dump(v T) (map[string]types.AttributeValue, error) {
	if s.embedded {
		return nil, s.errf("", "an embedded schema cannot be stored as a top-level item")
	}
	// The generated keys and the entity attribute are allocated with the
	// copy of v.
	x := &keyed[T]{v: v}
	avs := x.avs[:]
	rv := x.value()
	// The item first, so that the key parts come from its attributes
	// instead of being encoded twice; a key error still comes first.
	item, encErr := s.encode(rv)
	key, err := s.primaryKey(rv, item, avs, x.text[:])
	if err != nil {
		return nil, err
	}
	if encErr != nil {
		return nil, encErr
	}
	if err := s.checkUnknown(item); err != nil {
		return nil, err
	}
	item[key.PKName] = key.PK
	if key.SK != nil {
		item[key.SKName] = key.SK
	}
	if s.marker != "" {
		avs[2].Value = s.entity
		item[s.marker] = &avs[2]
	}
	return item, nil
}

// DumpAttributes encodes the declared fields of v, without the generated
// keys and without the entity attribute: it is the value of a nested map or
// a set of attributes to write into an item, not an item of its own.
// Required fields are checked as in Dump.
func (s *Schema[T]) DumpAttributes(v T) (map[string]types.AttributeValue, error) {
	return s.encode(reflect.ValueOf(&v).Elem())
}

func (s *Schema[T]) encode(rv reflect.Value) (map[string]types.AttributeValue, error) {
	for _, f := range s.required {
		fv := f.Value(rv)
		if f.HasDefault && f.IsAbsent(fv) {
			continue // the default fills it
		}
		if f.IsZero(fv) {
			return nil, s.errf(f.Name, "required field is unset")
		}
	}
	// Room for the generated keys and the entity attribute that Dump adds:
	// a map grown past its first eight slots is rebuilt.
	item := make(map[string]types.AttributeValue, len(s.st.Fields)+3)
	if err := s.st.EncodeInto(rv, s.omitNil, item); err != nil {
		return nil, err
	}
	s.keyFieldDefaults(rv, item)
	// DynamoDB rejects an empty string or binary as the value of an index
	// key attribute (API reference, PutItem: S and B key attributes of a
	// table or index need a length greater than zero), and an empty key
	// value means "unset" here: leave the attribute out, so that the item is
	// simply not in that index (a sparse index).
	for _, f := range s.sparse {
		switch v := item[f.Name].(type) {
		case *types.AttributeValueMemberS:
			if v.Value == "" {
				delete(item, f.Name)
			}
		case *types.AttributeValueMemberB:
			if len(v.Value) == 0 {
				delete(item, f.Name)
			}
		}
	}
	return item, nil
}

// keyFieldDefaults writes the default of every key field that is unset in
// rv as its attribute, as the generated key holds it: an empty string cannot
// be a key part, so there (unlike other fields) the default fills it.
func (s *Schema[T]) keyFieldDefaults(rv reflect.Value, item map[string]types.AttributeValue) {
	for _, ks := range [][]keyField{s.pk, s.sk} {
		for i := range ks {
			if k := &ks[i]; k.def != nil && k.unset(k.f.Value(rv), true) {
				item[k.f.Name] = k.def
			}
		}
	}
}

// Load decodes an item into a T. Attributes that are not declared fields
// (the generated pk and sk among them) are ignored, missing ones get the
// field's default, NULL loads as the zero value. When the item lacks the
// attributes of key fields, as items read through a KEYS_ONLY or INCLUDE
// index do, Load recovers them from the generated keys by splitting them
// at the separator and decoding each part with its field's type.
func (s *Schema[T]) Load(item map[string]types.AttributeValue) (T, error) {
	var v T
	err := s.LoadInto(item, &v)
	return v, err
}

// LoadInto is Load writing into *v, which it sets to the zero T first: a
// caller loading many items can decode each into its place in a slice
// instead of copying it out of a T that Load allocated.
func (s *Schema[T]) LoadInto(item map[string]types.AttributeValue, v *T) error {
	var zero T
	*v = zero
	pv := reflect.ValueOf(v)
	found, err := s.st.DecodeFound(item, pv)
	if err != nil {
		return err
	}
	rv := pv.Elem()
	if !s.embedded {
		// An item that held every key field, as most do, has nothing to
		// recover. Key fields without a bit (past the 64th) and attributes
		// with a nil value are left to recoverKeys, which looks them up.
		if s.keyBits == 0 || found&s.keyBits != s.keyBits {
			if err := s.recoverKeys(item, rv); err != nil {
				*v = zero
				return err
			}
		}
		s.dropGenerated(rv)
	}
	return nil
}

// generated returns the attributes the schema writes itself rather than
// from a field: the generated table keys.
func (s *Schema[T]) generated() []string {
	if s.raw {
		return nil // the key attributes are the key fields'
	}
	return []string{s.pkName, s.skName}
}

// dropGenerated removes the generated attributes from the catch-all field
// (codec.Struct.Unknown) that Load filled: they belong to the schema, not to
// the item's unknown attributes.
func (s *Schema[T]) dropGenerated(rv reflect.Value) {
	u := s.st.Unknown
	if u == nil {
		return
	}
	fv := u.Value(rv)
	if !fv.IsValid() || fv.IsNil() {
		return
	}
	rest := fv.Interface().(map[string]types.AttributeValue)
	for _, a := range s.generated() {
		delete(rest, a)
	}
	if len(rest) == 0 {
		fv.SetZero()
	}
}

// checkUnknown refuses a catch-all entry that names a generated attribute:
// Dump writes those itself.
func (s *Schema[T]) checkUnknown(item map[string]types.AttributeValue) error {
	if s.st.Unknown == nil || s.raw {
		return nil
	}
	for _, a := range s.generated() {
		if _, ok := item[a]; ok && a != "" {
			return s.errf(s.st.Unknown.GoName, "attribute %q is the generated key; it cannot be set through the catch-all field", a)
		}
	}
	return nil
}

// LoadAll loads items in order, stopping at the first error.
func (s *Schema[T]) LoadAll(items []map[string]types.AttributeValue) ([]T, error) {
	out := make([]T, 0, len(items))
	for _, it := range items {
		v, err := s.Load(it)
		if err != nil {
			return out, err
		}
		out = append(out, v)
	}
	return out, nil
}

// recoverKeys fills the key fields whose attributes are missing from item
// from the item's table keys.
func (s *Schema[T]) recoverKeys(item map[string]types.AttributeValue, rv reflect.Value) error {
	missing := func(ks []keyField) bool {
		for i := range ks {
			if _, ok := item[ks[i].f.Name]; !ok {
				return true
			}
		}
		return false
	}
	if missing(s.pk) {
		if err := s.recoverFrom(item[s.pkName], s.pk, true, item, rv); err != nil {
			return err
		}
	}
	if len(s.sk) > 0 && missing(s.sk) {
		if err := s.recoverFrom(item[s.skName], s.sk, false, item, rv); err != nil {
			return err
		}
	}
	return nil
}

func (s *Schema[T]) recoverFrom(key types.AttributeValue, ks []keyField, pk bool, item map[string]types.AttributeValue, rv reflect.Value) error {
	name := s.skName
	if pk {
		name = s.pkName
	}
	if key == nil {
		return nil // nothing to recover from; the fields keep their defaults
	}
	if s.raw {
		k := &ks[0]
		if _, ok := item[k.f.Name]; ok {
			return nil
		}
		return s.decodeInto(k, key, rv)
	}
	sv, ok := key.(*types.AttributeValueMemberS)
	if !ok {
		return s.errf(name, "generated key attribute is %s, not S", avType(key))
	}
	text := sv.Value
	if pk {
		if !strings.HasPrefix(text, s.prefix) {
			return s.errf(name, "partition key does not start with %q; the item belongs to another entity", s.prefix)
		}
		text = text[len(s.prefix):]
	}
	parts := strings.Split(text, s.sep)
	want := len(ks)
	if s.prefixSK && !pk {
		want *= 2
	}
	if len(parts) != want {
		return s.errf(name, "generated key has %d parts, the schema %d", len(parts), want)
	}
	for i := range ks {
		k := &ks[i]
		p := parts[i]
		if s.prefixSK && !pk {
			if parts[2*i] != k.f.Name {
				return s.errf(name, "sort-key part %d is not labelled %q", i+1, k.f.Name)
			}
			p = parts[2*i+1]
		}
		if _, ok := item[k.f.Name]; ok {
			continue
		}
		av, err := partValue(k.f.Kind, p)
		if err != nil {
			return s.errf(k.f.Name, "recovering from %s: %s", name, err)
		}
		if err := s.decodeInto(k, av, rv); err != nil {
			return err
		}
	}
	return nil
}

// partValue is the inverse of partString for a field of kind k.
func partValue(k codec.Kind, p string) (types.AttributeValue, error) {
	switch k {
	case codec.KindN:
		return &types.AttributeValueMemberN{Value: p}, nil
	case codec.KindB:
		b, err := base64.StdEncoding.DecodeString(p)
		if err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberB{Value: b}, nil
	case codec.KindBOOL:
		if p != "true" && p != "false" {
			return nil, fmt.Errorf("part is not true or false")
		}
		return &types.AttributeValueMemberBOOL{Value: p == "true"}, nil
	}
	return &types.AttributeValueMemberS{Value: p}, nil
}

// decodeInto decodes av into the key field k of rv, allocating nil embedded
// struct pointers on the way.
func (s *Schema[T]) decodeInto(k *keyField, av types.AttributeValue, rv reflect.Value) error {
	fv := rv
	for i, x := range k.f.Index {
		if i > 0 && fv.Kind() == reflect.Pointer {
			if fv.IsNil() {
				fv.Set(reflect.New(fv.Type().Elem()))
			}
			fv = fv.Elem()
		}
		fv = fv.Field(x)
	}
	return k.f.Decode(av, fv)
}

// Owns reports whether item is an item of this schema's entity; see
// CheckEntity.
func (s *Schema[T]) Owns(item map[string]types.AttributeValue) bool {
	return s.CheckEntity(item) == nil
}

// CheckEntity returns nil when item is an item of this schema's entity, and
// otherwise an error saying why not, naming the entities (never a value).
// It is the one rule every read applies:
//
//   - an item with the entity attribute is this entity's exactly when the
//     attribute holds this schema's entity name;
//   - an item without it (written by another tool or an older version) is
//     refused under StrictEntity, and otherwise judged by its keys: the
//     partition key starts with the key entity name and the separator, and
//     both generated keys have as many parts as the schema's keys (with
//     PrefixSortKey, labelled as the schema's). With RawKeys every unmarked
//     item passes.
func (s *Schema[T]) CheckEntity(item map[string]types.AttributeValue) error {
	if s.embedded {
		return s.errf("", "an embedded schema has no items of its own")
	}
	if s.marker != "" {
		switch m := item[s.marker].(type) {
		case *types.AttributeValueMemberS:
			if m.Value != s.entity {
				return s.errf("", "the item is a %q, not a %q (attribute %s)", m.Value, s.entity, s.marker)
			}
			return nil
		case nil:
			if s.strict {
				return s.errf("", "the item has no %s attribute, and the schema is StrictEntity", s.marker)
			}
		default:
			return s.errf(s.marker, "entity attribute is %s, not S", avType(m))
		}
	}
	if !s.fitsKeys(item) {
		return s.errf("", "the item is not a %q: it has no %s attribute and its keys do not have the schema's layout", s.entity, s.markerName())
	}
	return nil
}

func (s *Schema[T]) markerName() string {
	if s.marker == "" {
		return "entity"
	}
	return s.marker
}

// fitsKeys is the rule for unmarked items: the key layout.
func (s *Schema[T]) fitsKeys(item map[string]types.AttributeValue) bool {
	if s.raw {
		return true
	}
	pk, ok := item[s.pkName].(*types.AttributeValueMemberS)
	if !ok || !strings.HasPrefix(pk.Value, s.prefix) {
		return false
	}
	if strings.Count(pk.Value[len(s.prefix):], s.sep)+1 != len(s.pk) {
		return false
	}
	if len(s.sk) == 0 {
		return true
	}
	sk, ok := item[s.skName].(*types.AttributeValueMemberS)
	if !ok {
		return false
	}
	want := len(s.sk)
	if s.prefixSK {
		want *= 2
	}
	if strings.Count(sk.Value, s.sep)+1 != want {
		return false
	}
	if s.prefixSK {
		rest := sk.Value
		for i := range s.sk {
			label := s.sk[i].label
			if !strings.HasPrefix(rest, label) {
				return false
			}
			rest = rest[len(label):]
			if j := strings.Index(rest, s.sep); j >= 0 {
				rest = rest[j+len(s.sep):]
			}
		}
	}
	return true
}

// EncodeField encodes v as the declared field attr would be encoded (v of
// the field's type, or for a set field a single element). ok is false when
// attr is not a declared field, so the caller can fall back to inference.
// It implements expr.Encoder.
func (s *Schema[T]) EncodeField(attr string, v any) (types.AttributeValue, bool, error) {
	f := s.st.Field(attr)
	if f == nil {
		return nil, false, nil
	}
	av, err := f.EncodeAny(v)
	return av, true, err
}
