package schema

import (
	"reflect"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/codec"
)

// setLifecycle finds the fields the library writes itself (tag flags
// version, created, updated): at most one of each, none of them a key field,
// and none in an embedded schema, which is never an item of its own.
func (s *Schema[T]) setLifecycle(embedded bool) error {
	for _, f := range s.st.Fields {
		var slot **codec.Field
		var flag string
		switch {
		case f.Version:
			slot, flag = &s.version, "version"
		case f.Created:
			slot, flag = &s.created, "created"
		case f.Updated:
			slot, flag = &s.updated, "updated"
		default:
			continue
		}
		switch {
		case embedded:
			return s.errf(f.Name, "the %s flag belongs on a top-level item's field, not in an embedded schema", flag)
		case *slot != nil:
			return s.errf(f.Name, "a second %s field; %s is one", flag, (*slot).Name)
		case s.keyAttrs[f.Name]:
			return s.errf(f.Name, "a key field cannot be the %s field", flag)
		}
		*slot = f
	}
	return nil
}

// Lifecycle returns the attributes the library writes on every write: the
// version field (optimistic locking) and the created and updated
// timestamps, each "" when the schema declares none.
func (s *Schema[T]) Lifecycle() (version, created, updated string) {
	name := func(f *codec.Field) string {
		if f == nil {
			return ""
		}
		return f.Name
	}
	return name(s.version), name(s.created), name(s.updated)
}

// VersionOf returns the version v carries: its version field, which holds
// the version read (0: none, for an item not stored yet). It is 0 when the
// schema has no version field.
func (s *Schema[T]) VersionOf(v T) int64 {
	if s.version == nil {
		return 0
	}
	return intOf(s.version.Value(reflect.ValueOf(&v).Elem()))
}

// StoredVersion returns the version of a stored item: its version
// attribute, 0 when the item or the attribute is absent.
func (s *Schema[T]) StoredVersion(item map[string]types.AttributeValue) int64 {
	if s.version == nil || item[s.version.Name] == nil {
		return 0
	}
	var n int64
	if err := codec.Unmarshal(item[s.version.Name], &n); err != nil {
		return -1 // not a version this library wrote: never the one expected
	}
	return n
}

// NextVersion returns the version a write of v stores: one above the
// version v carries, of the version field's type (nil without one).
func (s *Schema[T]) NextVersion(v T) any {
	if s.version == nil {
		return nil
	}
	next := reflect.New(s.version.Type).Elem()
	if next.CanInt() {
		next.SetInt(s.VersionOf(v) + 1)
	} else {
		next.SetUint(uint64(s.VersionOf(v)) + 1)
	}
	return next.Interface()
}

func intOf(v reflect.Value) int64 {
	if v.CanInt() {
		return v.Int()
	}
	return int64(v.Uint())
}

// Stamp returns now as the timestamp field attr stores it: a time.Time at
// the field's precision (whole seconds with unixtime), or the unix seconds
// for an integer field. It is the value of expr.Set on that field.
func (s *Schema[T]) Stamp(attr string, now time.Time) any {
	f := s.st.Field(attr)
	if f.Type.Kind() != reflect.Struct {
		return reflect.ValueOf(now.Unix()).Convert(f.Type).Interface()
	}
	now = now.UTC()
	switch {
	case f.UnixTime:
		return now.Truncate(time.Second)
	case f.Precision > 0:
		return now.Truncate(f.Precision)
	}
	return now
}

// DumpPut is Dump with the attributes the library owns set as a Put writes
// them at now: the version one above the version v carries, updated = now,
// and created = now unless v carries a created time of its own (a value read
// from the table does, so a read-modify-write keeps it).
func (s *Schema[T]) DumpPut(v T, now time.Time) (map[string]types.AttributeValue, error) {
	item, err := s.Dump(v)
	if err != nil {
		return nil, err
	}
	rv := reflect.ValueOf(&v).Elem()
	set := func(f *codec.Field, val any) error {
		av, err := f.EncodeAny(val)
		if err != nil {
			return s.errf(f.Name, "%v", err)
		}
		item[f.Name] = av
		return nil
	}
	if f := s.version; f != nil {
		if err := set(f, s.NextVersion(v)); err != nil {
			return nil, err
		}
	}
	if f := s.updated; f != nil {
		if err := set(f, s.Stamp(f.Name, now)); err != nil {
			return nil, err
		}
	}
	if f := s.created; f != nil && f.Value(rv).IsZero() {
		if err := set(f, s.Stamp(f.Name, now)); err != nil {
			return nil, err
		}
	}
	return item, nil
}
