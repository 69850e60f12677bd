package schema

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Member is a schema that can be part of a Collection; every *Schema[T]
// is one.
type Member interface {
	Described
	Entity() string
	CheckEntity(item map[string]types.AttributeValue) error
	LoadAny(item map[string]types.AttributeValue) (any, error)
	goType() reflect.Type
}

// LoadAny is Load with the T returned as any, for code that reads several
// schemas' items (collections).
func (s *Schema[T]) LoadAny(item map[string]types.AttributeValue) (any, error) { return s.Load(item) }

func (s *Schema[T]) goType() reflect.Type { return s.typ }

// Collection is a set of schemas whose items share partitions (single-table
// design: a customer's profile, orders and payments under one partition key)
// and are read together, each item into its own entity's type. Package
// dynamo runs it (QueryCollection); declare it once, like a schema.
type Collection struct {
	name    string
	members []Member
}

// NewCollection validates a collection of members: at least two, all of one
// table, with the same entity attribute (not turned off: reads tell the
// members apart by it), the same partition-key layout (key attribute, entity
// prefix, separator and partition-key fields), distinct entity names and
// distinct Go types. Errors name the schemas.
func NewCollection(name string, members ...Member) (*Collection, error) {
	fail := func(format string, args ...any) (*Collection, error) {
		return nil, &Error{Msg: fmt.Sprintf("collection %s: ", name) + fmt.Sprintf(format, args...)}
	}
	if name == "" {
		return fail("the name is empty")
	}
	if len(members) < 2 {
		return fail("needs at least two schemas, got %d", len(members))
	}
	for i, m := range members {
		if m == nil || isNilPointer(m) {
			return fail("schema %d is nil", i+1)
		}
	}
	descs := make([]*Description, len(members))
	for i, m := range members {
		descs[i] = m.Describe()
	}
	if _, err := describeTable(describedOf(members)); err != nil {
		return fail("%s", strings.TrimPrefix(err.Error(), "dynamo: "))
	}
	first := descs[0]
	for i, d := range descs {
		if d.EntityAttribute == "" {
			return fail("schema %s has no entity attribute (EntityAttribute(\"\")); a collection tells its items apart by it", d.Type)
		}
		if d.KeyEntity != first.KeyEntity || d.Separator != first.Separator || d.RawKeys != first.RawKeys ||
			strings.Join(d.PartitionFields, ",") != strings.Join(first.PartitionFields, ",") {
			return fail("schema %s's partition key (%s) differs from schema %s's (%s)", d.Type, partitionLayout(d), first.Type, partitionLayout(first))
		}
		for _, e := range members[:i] {
			if members[i].goType() == e.goType() && members[i] != e {
				return fail("schemas %s and %s have the same Go type; items are told apart by type", d.Type, e.Describe().Type)
			}
		}
	}
	return &Collection{name: name, members: members}, nil
}

// MustCollection is NewCollection for package-level declarations: it panics
// with NewCollection's error.
func MustCollection(name string, members ...Member) *Collection {
	c, err := NewCollection(name, members...)
	if err != nil {
		panic(err)
	}
	return c
}

func describedOf(ms []Member) []Described {
	out := make([]Described, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return out
}

func partitionLayout(d *Description) string {
	return fmt.Sprintf("%s = %q%s%s", d.PK, d.KeyEntity, d.Separator, strings.Join(d.PartitionFields, d.Separator))
}

// Name returns the collection's name.
func (c *Collection) Name() string { return c.name }

// Members returns the schemas in declaration order. The slice must not be
// modified.
func (c *Collection) Members() []Member { return c.members }

// Table returns the members' table.
func (c *Collection) Table() string { return c.members[0].Describe().Table }

// Load decodes item into the type of the member whose entity it is (see
// Owner), as a value of that type. ok is false when no member owns it.
func (c *Collection) Load(item map[string]types.AttributeValue) (v any, ok bool, err error) {
	owner, err := c.Owner(item)
	if owner == nil || err != nil {
		return nil, false, err
	}
	v, err = owner.LoadAny(item)
	return v, err == nil, err
}

// Owner returns the member whose entity item is (see Schema.CheckEntity),
// nil when none is. An item without the entity attribute that the key rule
// gives to more than one member is an error: it is never guessed.
func (c *Collection) Owner(item map[string]types.AttributeValue) (Member, error) {
	var owner Member
	for _, m := range c.members {
		if m.CheckEntity(item) != nil {
			continue
		}
		if owner != nil {
			return nil, &Error{Msg: fmt.Sprintf("collection %s: an item without the entity attribute fits both %s and %s; mark it (update it through its schema) or declare StrictEntity", c.name, owner.Describe().Type, m.Describe().Type)}
		}
		owner = m
	}
	return owner, nil
}
