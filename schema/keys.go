package schema

import (
	"encoding/base64"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/codec"
	"github.com/dynamogo/dynamo/internal/avtype"
	"github.com/dynamogo/dynamo/internal/limits"
)

// checkSize rejects a key value DynamoDB would reject for its length.
func (s *Schema[T]) checkSize(av types.AttributeValue, pk bool) error {
	n := 0
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		n = len(v.Value)
	case *types.AttributeValueMemberB:
		n = len(v.Value)
	default:
		return nil
	}
	return s.checkLen(n, pk)
}

// checkLen rejects a key value of n bytes DynamoDB would reject.
func (s *Schema[T]) checkLen(n int, pk bool) error {
	name, what, limit := s.skName, "sort key", limits.MaxSortKeyBytes
	if pk {
		name, what, limit = s.pkName, "partition key", limits.MaxPartitionKeyBytes
	}
	if n > limit {
		return s.errf(name, "%s is %d bytes; DynamoDB allows at most %d", what, n, limit)
	}
	return nil
}

// partString renders an encoded scalar as a key part: S as is, N as the
// codec wrote the digits, B as standard base64 (with padding), BOOL as
// "true" or "false".
func partString(av types.AttributeValue) (string, error) {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return v.Value, nil
	case *types.AttributeValueMemberN:
		return v.Value, nil
	case *types.AttributeValueMemberB:
		return base64.StdEncoding.EncodeToString(v.Value), nil
	case *types.AttributeValueMemberBOOL:
		return strconv.FormatBool(v.Value), nil
	}
	return "", fmt.Errorf("a key part must encode to S, N, B or BOOL, not %s", avType(av))
}

func avType(av types.AttributeValue) string {
	if t := avtype.Of(av); t != "" {
		return t
	}
	if av == nil {
		return "nothing"
	}
	return fmt.Sprintf("%T", av)
}

// unset reports whether key field k holds no key value in rv. In a whole
// key (an item's own key: Put, Get, Delete, Dump) 0 and false are values;
// in a query's key prefix every zero value is unset, so that a struct with
// only its leading key fields set selects a range. An absent value (nil
// pointer), empty text and the zero time are never key values.
func (k *keyField) unset(fv reflect.Value, whole bool) bool {
	if !fv.IsValid() {
		return true
	}
	if whole && (k.f.Kind == codec.KindN || k.f.Kind == codec.KindBOOL) {
		return false // a nil pointer or an empty Number still encodes as absent
	}
	return k.f.IsZero(fv)
}

// encoded returns the field's encoded value in rv, or its default when the
// field is unset. ok is false when the field is unset and has no default.
func (s *Schema[T]) encoded(k *keyField, rv reflect.Value, whole bool) (types.AttributeValue, bool, error) {
	fv := k.f.Value(rv)
	if k.unset(fv, whole) {
		return k.def, k.def != nil, nil
	}
	av, err := k.f.Encode(fv)
	if err != nil {
		return nil, false, err
	}
	if av == nil {
		return k.def, k.def != nil, nil
	}
	return av, true, nil
}

// part returns the key part of k in rv; ok is false when the field is unset.
// item, when not nil, is rv's item as encoded by encode (see keyField.encode).
func (s *Schema[T]) part(k *keyField, rv reflect.Value, whole bool, item map[string]types.AttributeValue) (p string, ok bool, err error) {
	fv := k.f.Value(rv)
	if k.unset(fv, whole) {
		return k.defPart, k.def != nil, nil
	}
	if k.text {
		p = fv.String() // what Encode puts in its S
	} else {
		av, err := k.encode(fv, item)
		if err != nil {
			return "", false, err
		}
		if av == nil {
			return k.defPart, k.def != nil, nil
		}
		if p, err = partString(av); err != nil {
			return "", false, s.errf(k.f.Name, "%s", err)
		}
	}
	if p == "" {
		return "", false, s.errf(k.f.Name, "key part is empty")
	}
	if strings.Contains(p, s.sep) {
		return "", false, s.errf(k.f.Name, "value contains the key separator %q", s.sep)
	}
	return p, true, nil
}

// encode encodes k's field value fv, or takes it from item, the item encode
// made of the same value: a field without a default is there exactly as
// Encode returns it when that is an S, N or B (a default, NULL, an omitted
// or sparse attribute: encoded here).
func (k *keyField) encode(fv reflect.Value, item map[string]types.AttributeValue) (types.AttributeValue, error) {
	if !k.f.HasDefault {
		switch av := item[k.f.Name].(type) {
		case *types.AttributeValueMemberS, *types.AttributeValueMemberN, *types.AttributeValueMemberB:
			return av, nil
		}
	}
	return k.f.Encode(fv)
}

func (s *Schema[T]) noKeys() error {
	return s.errf("", "an embedded schema has no table keys")
}

// pkValue builds the table partition key of rv. It returns the first unset
// partition-key field (and a nil value) when one is unset. A generated key
// is written to into when it is not nil.
func (s *Schema[T]) pkValue(rv reflect.Value, item map[string]types.AttributeValue, into *types.AttributeValueMemberS, buf []byte) (types.AttributeValue, *keyField, error) {
	if s.embedded {
		return nil, nil, s.noKeys()
	}
	if s.raw {
		k := &s.pk[0]
		av, ok, err := s.encoded(k, rv, true)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			return nil, k, nil
		}
		return av, nil, s.checkSize(av, true)
	}
	b := keyBuilder{buf: buf[:0]}
	b.reserve(len(s.prefix) + 16*len(s.pk))
	if unset, err := s.writePK(&b, rv, item); err != nil || unset != nil {
		return nil, unset, err
	}
	if into == nil {
		into = new(types.AttributeValueMemberS)
	}
	into.Value = b.String()
	return into, nil, s.checkSize(into, true)
}

// writePK writes the generated partition key of rv to b; it returns the
// first unset partition-key field when one is unset.
func (s *Schema[T]) writePK(b *keyBuilder, rv reflect.Value, item map[string]types.AttributeValue) (*keyField, error) {
	b.WriteString(s.prefix)
	for i := range s.pk {
		k := &s.pk[i]
		p, ok, err := s.part(k, rv, true, item)
		if err != nil {
			return nil, err
		}
		if !ok {
			return k, nil
		}
		if i > 0 {
			b.WriteString(s.sep)
		}
		b.WriteString(p)
	}
	return nil, nil
}

// requirePK is pkValue with an unset field as an error.
func (s *Schema[T]) requirePK(rv reflect.Value, item map[string]types.AttributeValue, into *types.AttributeValueMemberS, buf []byte) (types.AttributeValue, error) {
	av, unset, err := s.pkValue(rv, item, into, buf)
	if err == nil && unset != nil {
		err = s.errf(unset.f.Name, "partition-key value is unset")
	}
	return av, err
}

// skValue builds the sort key of rv from the sort-key fields up to the
// first unset one (whole: as an item's key, else as a query's prefix; see
// keyField.unset). It returns nil when the schema has no sort key or its
// first field is unset, and the first unset field when incomplete. A
// generated key is written to into when it is not nil.
func (s *Schema[T]) skValue(rv reflect.Value, whole bool, item map[string]types.AttributeValue, into *types.AttributeValueMemberS, buf []byte) (av types.AttributeValue, unset *keyField, err error) {
	if s.embedded {
		return nil, nil, s.noKeys()
	}
	if len(s.sk) == 0 {
		return nil, nil, nil
	}
	if s.raw {
		k := &s.sk[0]
		av, ok, err := s.encoded(k, rv, whole)
		if err != nil || !ok {
			return nil, k, err
		}
		return av, nil, s.checkSize(av, false)
	}
	b := keyBuilder{buf: buf[:0]}
	n, unset, err := s.writeSK(&b, rv, whole, item)
	if err != nil || n == 0 {
		return nil, unset, err
	}
	if unset != nil {
		// A prefix ends with the separator so that begins_with matches
		// whole parts only: "u1#" never matches the key of "u10".
		b.WriteString(s.sep)
	}
	if into == nil {
		into = new(types.AttributeValueMemberS)
	}
	into.Value = b.String()
	if err := s.checkSize(into, false); err != nil {
		return nil, nil, err
	}
	return into, unset, nil
}

// writeSK writes the generated sort key of rv to b, up to the first unset
// sort-key field, which it returns; n is the number of parts written.
func (s *Schema[T]) writeSK(b *keyBuilder, rv reflect.Value, whole bool, item map[string]types.AttributeValue) (n int, unset *keyField, err error) {
	for i := range s.sk {
		k := &s.sk[i]
		p, ok, err := s.part(k, rv, whole, item)
		if err != nil {
			return 0, nil, err
		}
		if !ok {
			return n, k, nil
		}
		if n > 0 {
			b.WriteString(s.sep)
		} else {
			// Reserved once the key has a part (a query's key often has
			// none): a time part is 20 to 30 bytes, one allocation, not three.
			b.reserve(32 * len(s.sk))
		}
		b.WriteString(k.label)
		b.WriteString(p)
		n++
	}
	return n, nil, nil
}

// PrimaryKey returns the full table key of v. Every partition-key field must
// be set, and with a sort key every sort-key field too (a field's default
// counts as set); a key value containing the separator is an error.
func (s *Schema[T]) PrimaryKey(v T) (Key, error) {
	x := &keyed[T]{v: v}
	return s.primaryKey(x.value(), nil, x.avs[:2], x.text[:])
}

// keyed is a copy of a value, which has to be on the heap (the codec's
// coders take its fields' addresses), allocated together with the members
// of the keys built from it and their text: one allocation, where the copy,
// the members and the text apart are three. The members and the text keep
// the copy alive as long as they live.
type keyed[T any] struct {
	v    T
	avs  [3]types.AttributeValueMemberS // the partition and sort key, the entity attribute
	text [keyText]byte                  // their text, when it fits (see keyBuilder)
}

// keyText is the room for a generated key's text in keyed: most keys (an
// entity prefix, an ID, a time) fit, and a longer one is allocated apart.
const keyText = 96

// keyBuilder builds the text of generated keys into the buffer it starts
// with, keyed's, which saves allocating the text apart; appending past its
// room moves it to a buffer of its own. Like strings.Builder, String returns
// the bytes as they are, which is sound because nothing writes to them
// afterwards: a keyed's buffer is written by one key building only.
type keyBuilder struct{ buf []byte }

func (b *keyBuilder) WriteString(s string) { b.buf = append(b.buf, s...) }

func (b *keyBuilder) Len() int { return len(b.buf) }

// reserve makes room for n bytes when the builder has no buffer yet: one
// allocation for the whole key instead of one per append.
func (b *keyBuilder) reserve(n int) {
	if cap(b.buf) == 0 {
		b.buf = make([]byte, 0, n)
	}
}

func (b *keyBuilder) String() string { return unsafe.String(unsafe.SliceData(b.buf), len(b.buf)) }

func (x *keyed[T]) value() reflect.Value { return reflect.ValueOf(&x.v).Elem() }

// primaryKey builds the full key of rv; item, when not nil, is rv's item as
// encode made it, whose key fields are not encoded again. The generated key
// values are members of avs when it has room for two (Dump passes the entity
// attribute's too), and their text is one string, in buf when it fits:
// building them apart costs two allocations more.
func (s *Schema[T]) primaryKey(rv reflect.Value, item map[string]types.AttributeValue, avs []types.AttributeValueMemberS, buf []byte) (Key, error) {
	if s.raw || s.embedded || len(s.sk) == 0 {
		return s.primaryKeyApart(rv, item, avs, buf)
	}
	if len(avs) < 2 {
		avs = make([]types.AttributeValueMemberS, 2)
	}
	b := keyBuilder{buf: buf[:0]}
	b.reserve(len(s.prefix) + 16*len(s.pk) + 32*len(s.sk))
	unset, err := s.writePK(&b, rv, item)
	if err == nil && unset != nil {
		err = s.errf(unset.f.Name, "partition-key value is unset")
	}
	if err != nil {
		return Key{}, err
	}
	pkLen := b.Len()
	// The partition key's size before the sort key's errors, as apart.
	if err := s.checkLen(pkLen, true); err != nil {
		return Key{}, err
	}
	_, unset, err = s.writeSK(&b, rv, true, item)
	if err != nil {
		return Key{}, err
	}
	if unset != nil {
		return Key{}, s.errf(unset.f.Name, "sort-key value is unset; the full key is required")
	}
	text := b.String()
	pk, sk := &avs[0], &avs[1]
	pk.Value, sk.Value = text[:pkLen], text[pkLen:]
	if err := s.checkSize(sk, false); err != nil {
		return Key{}, err
	}
	return Key{PKName: s.pkName, PK: pk, SKName: s.skName, SK: sk}, nil
}

// primaryKeyApart is primaryKey built from pkValue and skValue: raw keys
// (the fields' own values), a partition key alone, an embedded schema.
func (s *Schema[T]) primaryKeyApart(rv reflect.Value, item map[string]types.AttributeValue, avs []types.AttributeValueMemberS, buf []byte) (Key, error) {
	var pkInto, skInto *types.AttributeValueMemberS
	if len(avs) >= 2 {
		pkInto, skInto = &avs[0], &avs[1]
	}
	pk, err := s.requirePK(rv, item, pkInto, buf)
	if err != nil {
		return Key{}, err
	}
	key := Key{PKName: s.pkName, PK: pk}
	if len(s.sk) == 0 {
		return key, nil
	}
	sk, unset, err := s.skValue(rv, true, item, skInto, nil)
	if err != nil {
		return Key{}, err
	}
	if unset != nil {
		return Key{}, s.errf(unset.f.Name, "sort-key value is unset; the full key is required")
	}
	key.SKName, key.SK = s.skName, sk
	return key, nil
}

// PartitionValue returns the table partition key value of v.
func (s *Schema[T]) PartitionValue(v T) (types.AttributeValue, error) {
	x := &keyed[T]{v: v}
	return s.requirePK(x.value(), nil, &x.avs[0], x.text[:])
}

// SortPrefix returns the sort key of v as far as its sort-key fields are set,
// in order, stopping at the first unset one. complete reports whether every
// sort-key field was set; then prefix is the full sort key. Otherwise a
// composite prefix ends with the separator ("2024-01-15T10:00:00Z#"), so that
// a begins_with query on it matches whole key parts only. prefix is nil (and
// complete false) when the schema has no sort key or its first sort-key field
// is unset.
func (s *Schema[T]) SortPrefix(v T) (prefix types.AttributeValue, complete bool, err error) {
	x := &keyed[T]{v: v}
	sk, unset, err := s.skValue(x.value(), false, nil, &x.avs[1], x.text[:])
	if err != nil || sk == nil {
		return nil, false, err
	}
	return sk, unset == nil, nil
}

// QueryKey returns what a Query of v on the table fixes of its key: the
// partition key value, as PartitionValue returns it, and the sort key
// prefix, complete and nil as SortPrefix returns them. Both are built from
// one copy of v, and generated keys share one text: a Query needs both, and
// the two calls apart copy v twice.
func (s *Schema[T]) QueryKey(v T) (pk, prefix types.AttributeValue, complete bool, err error) {
	x := &keyed[T]{v: v}
	rv := x.value()
	if s.raw || s.embedded || len(s.sk) == 0 {
		if pk, err = s.requirePK(rv, nil, &x.avs[0], x.text[:]); err != nil {
			return nil, nil, false, err
		}
		// The partition key's text, if any, is in x.text.
		sk, unset, err := s.skValue(rv, false, nil, &x.avs[1], nil)
		if err != nil {
			return nil, nil, false, err
		}
		return pk, sk, sk != nil && unset == nil, nil
	}
	b := keyBuilder{buf: x.text[:0]}
	unset, err := s.writePK(&b, rv, nil)
	if err == nil && unset != nil {
		err = s.errf(unset.f.Name, "partition-key value is unset")
	}
	if err != nil {
		return nil, nil, false, err
	}
	pkLen := b.Len()
	if err := s.checkLen(pkLen, true); err != nil {
		return nil, nil, false, err
	}
	n, unset, err := s.writeSK(&b, rv, false, nil)
	if err != nil {
		return nil, nil, false, err
	}
	if n > 0 && unset != nil {
		b.WriteString(s.sep) // as skValue: whole parts only
	}
	text := b.String()
	pkv := &x.avs[0]
	pkv.Value = text[:pkLen]
	if n == 0 {
		return pkv, nil, false, nil
	}
	skv := &x.avs[1]
	skv.Value = text[pkLen:]
	if err := s.checkSize(skv, false); err != nil {
		return nil, nil, false, err
	}
	return pkv, skv, unset == nil, nil
}

// IndexKey returns the key of v in a secondary index: the fields' own typed
// values (no entity prefix, no joining), or the generated table key where the
// index is keyed on it. The partition key must be set; SK is nil when the
// index has no sort key or its field is unset. A multi-attribute key has no
// Key form: IndexValues gives its values.
func (s *Schema[T]) IndexKey(v T, index string) (Key, error) {
	iv, err := s.IndexValues(v, index)
	if err != nil {
		return Key{}, err
	}
	ix, _ := s.Index(index)
	if ix.MultiKey() {
		return Key{}, s.errf("", "index %s has a multi-attribute key; use IndexValues", index)
	}
	key := Key{PKName: ix.PK, PK: iv.Partition[0].Value}
	if ix.SK != "" {
		key.SKName = ix.SK
		if len(iv.Sort) > 0 {
			key.SK = iv.Sort[0].Value
		}
	}
	return key, nil
}

// IndexValues is what a value fixes of a secondary index's key.
type IndexValues struct {
	Partition []KeyValue // every partition attribute, in key order
	Sort      []KeyValue // the leading sort attributes that are set, in key order
	// Next is the sort attribute after the set ones, which a sort-key
	// condition compares; "" when every one is set or there is none.
	Next string
}

// KeyValue is a key attribute and its value.
type KeyValue struct {
	Name  string
	Value types.AttributeValue
}

// IndexValues returns the key values v gives a secondary index: every
// partition attribute (each must be set), and the sort attributes that are
// set, from the first on. A set sort attribute after an unset one is an
// error naming it: DynamoDB compares sort attributes left to right, so a
// query cannot skip one.
func (s *Schema[T]) IndexValues(v T, index string) (IndexValues, error) {
	keys, ok := s.indexKeys[index]
	if !ok {
		if _, vec := s.VectorIndex(index); vec {
			return IndexValues{}, s.errf("", "%s is a vector index; it has no key", index)
		}
		return IndexValues{}, s.errf("", "no index %s", index)
	}
	ix, _ := s.Index(index)
	rv := reflect.ValueOf(&v).Elem()
	var out IndexValues
	for i, src := range keys.pks {
		av, err := s.indexValue(src, rv)
		if err != nil {
			return IndexValues{}, err
		}
		name := ix.Partition[i].Name
		if av == nil {
			return IndexValues{}, s.errf(name, "partition-key value of index %s is unset", index)
		}
		out.Partition = append(out.Partition, KeyValue{name, av})
	}
	for i, src := range keys.sks {
		av, err := s.indexValue(src, rv)
		if err != nil {
			return IndexValues{}, err
		}
		name := ix.Sort[i].Name
		switch {
		case av != nil && out.Next == "":
			out.Sort = append(out.Sort, KeyValue{name, av})
		case av != nil:
			return IndexValues{}, s.errf(name, "sort-key attribute of index %s is set but %s before it is not; the sort attributes are compared left to right", index, out.Next)
		case out.Next == "":
			out.Next = name
		}
	}
	return out, nil
}

// indexValue is the value of one index key attribute; nil when unset.
func (s *Schema[T]) indexValue(src keySource, rv reflect.Value) (types.AttributeValue, error) {
	switch src.gen {
	case 'p':
		av, _, err := s.pkValue(rv, nil, nil, nil)
		return av, err
	case 's':
		av, unset, err := s.skValue(rv, false, nil, nil, nil)
		if err != nil || unset != nil {
			return nil, err
		}
		return av, nil
	}
	av, ok, err := s.encoded(src.field, rv, false)
	if err != nil || !ok {
		return nil, err
	}
	return av, nil
}
