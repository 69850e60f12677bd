package schema

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/codec"
	"github.com/dynamogo/dynamo/internal/limits"
)

// Schema is the validated description of one item type T stored in one
// table: its fields (a codec plan), its key layout and its indexes. It is
// immutable and safe for concurrent use; declare it once, typically as a
// package-level var with Must.
type Schema[T any] struct {
	typ      reflect.Type
	name     string // Go type name, for errors
	st       *codec.Struct
	embedded bool

	table, entity, sep string
	keyEntity          string // the entity name partition keys start with: entity, or the parent's
	prefix             string // keyEntity + sep: every generated partition key starts with it
	marker             string // the entity attribute; "" when items are not marked
	strict             bool   // unmarked items are refused
	pkName, skName     string
	raw, prefixSK      bool
	omitNil            bool

	pk, sk             []keyField
	pkFields, skFields []*codec.Field
	keyAttrs           map[string]bool // attributes feeding the table key
	identity           []string        // key attributes and the entity attribute
	required           []*codec.Field
	sparse             []*codec.Field // S and B index key fields: empty values are left out
	version            *codec.Field   // the version field (optimistic locking), or nil
	created, updated   *codec.Field   // the timestamp fields, or nil

	indexes   []*Index
	indexKeys map[string]indexKeys
	vectors   []*VectorIndexSpec

	desc *Description

	// keyBits are the bits of the key fields in codec.Struct.DecodeFound's
	// answer; zero when a key field is past the 64th, which has none.
	keyBits uint64
}

// keyField is a field that is a part of a key, with its encoded default.
var stringType = reflect.TypeFor[string]()

type keyField struct {
	f       *codec.Field
	def     types.AttributeValue // encoded default; nil when the field has none
	defPart string               // def as a key part (composite keys)
	label   string               // "attr"+sep with PrefixSortKey, else ""
	// text is set for a field of type string encoded as S: its key part is
	// its value, which need not be encoded into an attribute value first.
	text bool
}

// indexKeys says where the key values of a secondary index come from, in
// key order.
type indexKeys struct {
	pks, sks []keySource
}

type keySource struct {
	field *keyField // a field's own typed value
	gen   byte      // or a generated table key: 'p' or 's'
}

// Index is a global or local secondary index as declared.
type Index struct {
	Name           string
	Local          bool   // LSI: the partition key is the table's
	PK, SK         string // attribute names; SK "" when the index has no sort key
	PKType, SKType types.ScalarAttributeType
	// Every key attribute in key order: one partition attribute and at most
	// one sort attribute, or up to four of each for a multi-attribute GSI
	// key (MultiKeyGSI). PK and SK are the first of each.
	Partition, Sort  []KeyAttr
	Projection       types.ProjectionType
	NonKeyAttributes []string // INCLUDE only
	Read, Write      int64    // provisioned capacity; 0 = the table's (or on demand)
}

// KeyAttr is a key attribute of an index: its name and type.
type KeyAttr struct {
	Name string
	Type types.ScalarAttributeType
}

// MultiKey reports whether either side of the index key has several
// attributes.
func (ix *Index) MultiKey() bool { return len(ix.Partition) > 1 || len(ix.Sort) > 1 }

// VectorIndexSpec is a vector index as declared (the option that declares one
// is VectorIndex).
type VectorIndexSpec struct {
	Name             string
	Attribute        string // the vector field's attribute
	Dimensions       int
	Distance         types.VectorDistanceFunction
	Partition        string // HASH search-schema attribute; "" when none
	PartitionType    types.ScalarAttributeType
	Filters          []string // INLINE_FILTER search-schema attributes
	FilterTypes      []types.ScalarAttributeType
	Projection       types.ProjectionType
	NonKeyAttributes []string // Include only
}

// Description is the non-generic view of a schema: what a table, a command
// or a request needs to know without knowing T. It must not be modified.
type Description struct {
	Type          string // Go type name, e.g. "Order"
	Table, Entity string
	// KeyEntity is the entity name partition keys start with: Entity, or
	// the parent's with EntityFrom.
	KeyEntity string
	// EntityAttribute holds the entity name in every item; "" when items
	// are not marked. StrictEntity: unmarked items are refused.
	EntityAttribute string
	StrictEntity    bool
	PK, SK          string // key attribute names; SK "" when the table has no sort key
	PKType, SKType  types.ScalarAttributeType
	Separator       string
	PrefixSortKey   bool
	RawKeys         bool
	OmitNil         bool
	Embedded        bool
	// Attribute names of the fields the keys are built from, in key order.
	PartitionFields, SortFields []string
	Indexes                     []*Index
	VectorIndexes               []*VectorIndexSpec
	// Provisioned capacity of the table (Provisioned); 0 means on demand.
	Read, Write int64
	// StreamView is the view type of the table's stream (Stream); "" when
	// the schema declares none.
	StreamView types.StreamViewType
	// TTL is the attribute holding the expiry time (TTL); "" for none.
	TTL string
	// Tags are the table's tags (Tag); nil for none.
	Tags map[string]string
	// DeletionProtection and TableClass are the table's settings of the
	// options of the same names; false and "" when not declared.
	DeletionProtection bool
	TableClass         types.TableClass
}

// Described is implemented by every *Schema[T].
type Described interface{ Describe() *Description }

// Key is a primary key (or a secondary index key): attribute names and
// values. SK is nil when there is no sort key.
type Key struct {
	PKName string
	PK     types.AttributeValue
	SKName string
	SK     types.AttributeValue
}

// Map renders the key as the Key map of a DynamoDB request.
func (k Key) Map() map[string]types.AttributeValue {
	m := make(map[string]types.AttributeValue, 2)
	if k.PK != nil {
		m[k.PKName] = k.PK
	}
	if k.SK != nil {
		m[k.SKName] = k.SK
	}
	return m
}

// New validates the declaration of T as an item of table and returns its
// schema. Fields and key flags come from T's dynamo struct tags (see
// package codec); table-level facts come from opts. Every mistake is an
// *Error naming the type and the field; an invalid struct tag is the codec's
// error, which names them too.
func New[T any](table string, opts ...Option) (*Schema[T], error) {
	return build[T](table, false, opts)
}

// Must is New for package-level declarations: it panics with New's error.
func Must[T any](table string, opts ...Option) *Schema[T] {
	s, err := New[T](table, opts...)
	if err != nil {
		panic(err)
	}
	return s
}

// Embedded validates T as a schema without a table or keys: a value stored
// as a nested map inside other items. DumpAttributes and Load work on it;
// key, Dump and table functions answer an error. Only OmitNil is accepted.
func Embedded[T any](opts ...Option) (*Schema[T], error) {
	return build[T]("", true, opts)
}

func build[T any](table string, embedded bool, opts []Option) (*Schema[T], error) {
	t := reflect.TypeFor[T]()
	s := &Schema[T]{typ: t, name: typeName(t), embedded: embedded, table: table}
	if t.Kind() != reflect.Struct {
		return nil, s.errf("", "a schema type must be a struct, not %s", t.Kind())
	}
	st, err := codec.StructOf(t)
	if err != nil {
		return nil, err
	}
	s.st = st

	c := config{omitNil: true}
	for _, o := range opts {
		if o == nil {
			return nil, s.errf("", "nil Option")
		}
		o(&c)
	}
	for _, name := range c.order {
		if c.seen[name] > 1 && !repeatable[name] {
			return nil, s.errf("", "option %s given %d times", name, c.seen[name])
		}
	}
	s.omitNil = c.omitNil
	if embedded {
		if err := s.validateEmbedded(&c); err != nil {
			return nil, err
		}
	} else {
		if err := s.validate(&c); err != nil {
			return nil, err
		}
	}
	for _, f := range st.Fields {
		if f.Required {
			s.required = append(s.required, f)
		}
	}
	if err := s.setLifecycle(embedded); err != nil {
		return nil, err
	}
	s.pkFields, s.skFields = fieldsOf(s.pk), fieldsOf(s.sk)
	s.keyBits = keyBits(st.Fields, append(slices.Clip(s.pkFields), s.skFields...))
	if !embedded {
		s.identity = []string{s.pkName}
		if s.skName != "" {
			s.identity = append(s.identity, s.skName)
		}
		if s.marker != "" {
			s.identity = append(s.identity, s.marker)
		}
	}
	s.describe(&c)
	return s, nil
}

// keyBits returns the DecodeFound bits of keys among fields, or 0 when one
// of them has no bit.
func keyBits(fields, keys []*codec.Field) uint64 {
	var bits uint64
	for _, k := range keys {
		i := slices.Index(fields, k)
		if i < 0 || i >= 64 {
			return 0
		}
		bits |= 1 << i
	}
	return bits
}

func (s *Schema[T]) errf(field, format string, args ...any) *Error {
	return &Error{Type: s.name, Field: field, Msg: fmt.Sprintf(format, args...)}
}

func (s *Schema[T]) validateEmbedded(c *config) error {
	for _, name := range tableOptions {
		if c.has(name) {
			return s.errf("", "option %s is not allowed on an embedded schema", name)
		}
	}
	for _, f := range s.st.Fields {
		if f.PK || f.SK {
			flag := "pk"
			if !f.PK {
				flag = "sk"
			}
			return s.errf(f.Name, "tag flag %s is not allowed on an embedded schema", flag)
		}
	}
	return nil
}

// validate checks a declaration and fills in the schema, phase by phase:
// the table name, the separator and entity name, the key fields, the key
// attribute names, the key builders, then throughput and indexes.
func (s *Schema[T]) validate(c *config) error {
	if err := s.validateTable(); err != nil {
		return err
	}
	if err := s.validateEntity(c); err != nil {
		return err
	}
	pk, sk, err := s.validateKeyFields(c)
	if err != nil {
		return err
	}
	if err := s.validateKeyNames(c, pk, sk); err != nil {
		return err
	}
	defaults, err := s.buildKeys(pk, sk)
	if err != nil {
		return err
	}
	return s.validateIndexes(c, defaults)
}

// validateTable checks the table name.
func (s *Schema[T]) validateTable() error {
	if s.table == "" {
		return s.errf("", "table name is empty")
	}
	if !strings.HasPrefix(s.table, "arn:") && !validName(s.table) {
		return s.errf("", "table name %q is invalid: DynamoDB needs 3 to 255 characters of a-z, A-Z, 0-9, '_', '-' and '.'", s.table)
	}

	return nil
}

// validateEntity sets the separator, the entity name and the key prefix.
func (s *Schema[T]) validateEntity(c *config) error {
	s.sep = DefaultSeparator
	if c.has("Separator") {
		if c.sep == "" {
			return s.errf("", "Separator must not be empty")
		}
		s.sep = c.sep
	}
	if c.entityNil {
		return s.errf("", "EntityFrom(nil)")
	}
	switch {
	case c.has("EntityName"):
		if c.entity == "" {
			return s.errf("", "EntityName must not be empty")
		}
		s.entity = c.entity
	default:
		if s.typ.Name() == "" {
			return s.errf("", "an unnamed struct type needs EntityName")
		}
		s.entity = underscore(typeName(s.typ))
	}
	s.keyEntity = s.entity
	if c.entityFrom != nil {
		if p, ok := c.entityFrom.(keyEntity); ok {
			s.keyEntity = p.KeyEntity()
		} else {
			s.keyEntity = c.entityFrom.Entity()
		}
		if s.keyEntity == "" {
			return s.errf("", "EntityFrom: the parent has an empty entity name")
		}
	}
	// Raw keys have no entity prefix; there the name is informational.
	if !c.raw && strings.Contains(s.keyEntity, s.sep) {
		return s.errf("", "entity name %q contains the key separator %q", s.keyEntity, s.sep)
	}
	s.prefix = s.keyEntity + s.sep
	s.marker = DefaultEntityAttribute
	if c.has("EntityAttribute") {
		s.marker = c.marker
	}
	s.strict = c.strict
	if s.strict && s.marker == "" {
		return s.errf("", "StrictEntity needs the entity attribute; EntityAttribute(\"\") turns it off")
	}
	if s.marker != "" {
		if err := checkAttrName(s.marker); err != nil {
			return s.errf("", "EntityAttribute: %s", err)
		}
		if s.st.Field(s.marker) != nil {
			return s.errf(s.marker, "the field has the name of the entity attribute; rename one (EntityAttribute)")
		}
	}
	return nil
}

// validateKeyFields resolves the partition-key and sort-key fields and
// checks them against the key options (RawKeys, PrefixSortKey).
func (s *Schema[T]) validateKeyFields(c *config) (pk, sk []*codec.Field, err error) {
	pk, err = s.keyFields(c.pkFields, c.has("PartitionKey"), true)
	if err != nil {
		return nil, nil, err
	}
	sk, err = s.keyFields(c.skFields, c.has("SortKey"), false)
	if err != nil {
		return nil, nil, err
	}
	if len(pk) == 0 {
		return nil, nil, s.errf("", "no partition key: tag a field with pk or use the PartitionKey option")
	}
	for _, a := range pk {
		for _, b := range sk {
			if a == b {
				return nil, nil, s.errf(a.Name, "in both the partition key and the sort key")
			}
		}
	}
	s.raw = c.raw
	s.prefixSK = c.prefixSK
	if s.raw {
		if len(pk) > 1 {
			return nil, nil, s.errf(pk[1].Name, "RawKeys allows one partition-key field, got %d (%s)", len(pk), attrList(pk))
		}
		if len(sk) > 1 {
			return nil, nil, s.errf(sk[1].Name, "RawKeys allows one sort-key field, got %d (%s)", len(sk), attrList(sk))
		}
		if s.prefixSK {
			return nil, nil, s.errf("", "PrefixSortKey has no effect with RawKeys")
		}
		if c.has("Separator") {
			return nil, nil, s.errf("", "Separator has no effect with RawKeys")
		}
	}
	if s.prefixSK && len(sk) == 0 {
		return nil, nil, s.errf("", "PrefixSortKey given but the schema has no sort key")
	}
	for _, f := range pk {
		if err := s.checkKeyKind(f, "partition-key"); err != nil {
			return nil, nil, err
		}
	}
	for _, f := range sk {
		if err := s.checkKeyKind(f, "sort-key"); err != nil {
			return nil, nil, err
		}
		if s.prefixSK && strings.Contains(f.Name, s.sep) {
			return nil, nil, s.errf(f.Name, "attribute name contains the key separator %q, which PrefixSortKey writes into the sort key", s.sep)
		}
	}
	return pk, sk, nil
}

// validateKeyNames sets and checks the key attribute names.
func (s *Schema[T]) validateKeyNames(c *config, pk, sk []*codec.Field) error {
	s.pkName, s.skName = "pk", ""
	if len(sk) > 0 {
		s.skName = "sk"
	}
	if s.raw {
		s.pkName = pk[0].Name
		if len(sk) > 0 {
			s.skName = sk[0].Name
		}
	}
	if c.has("PartitionKeyName") {
		if err := checkAttrName(c.pkName); err != nil {
			return s.errf("", "PartitionKeyName: %s", err)
		}
		s.pkName = c.pkName
	}
	if c.has("SortKeyName") {
		if len(sk) == 0 {
			return s.errf("", "SortKeyName given but the schema has no sort key")
		}
		if err := checkAttrName(c.skName); err != nil {
			return s.errf("", "SortKeyName: %s", err)
		}
		s.skName = c.skName
	}
	if s.pkName == s.skName {
		return s.errf("", "the partition key and the sort key are both named %q", s.pkName)
	}
	if s.marker != "" && (s.marker == s.pkName || s.marker == s.skName) {
		return s.errf("", "the entity attribute and a key attribute are both named %q", s.marker)
	}
	if !s.raw {
		for _, name := range []string{s.pkName, s.skName} {
			if name != "" && s.st.Field(name) != nil {
				return s.errf(name, "field has the name of the generated key attribute; rename it or set PartitionKeyName/SortKeyName")
			}
		}
	} else {
		// A raw key under another name is written twice (the field and the
		// key attribute); make sure no other field has that name.
		if f := s.st.Field(s.pkName); f != nil && f != pk[0] {
			return s.errf(s.pkName, "PartitionKeyName names another field")
		}
		if len(sk) > 0 {
			if f := s.st.Field(s.skName); f != nil && f != sk[0] {
				return s.errf(s.skName, "SortKeyName names another field")
			}
		}
	}
	return nil
}

// buildKeys makes the key builders and the set of key attributes; it
// returns the fields' defaults, which the indexes' keys use too.
func (s *Schema[T]) buildKeys(pk, sk []*codec.Field) (map[*codec.Field]types.AttributeValue, error) {
	defaults, err := s.defaults()
	if err != nil {
		return nil, err
	}
	s.pk, err = s.makeKeyFields(pk, defaults, false)
	if err != nil {
		return nil, err
	}
	s.sk, err = s.makeKeyFields(sk, defaults, s.prefixSK)
	if err != nil {
		return nil, err
	}
	s.keyAttrs = map[string]bool{s.pkName: true}
	if s.skName != "" {
		s.keyAttrs[s.skName] = true
	}
	for _, k := range s.pk {
		s.keyAttrs[k.f.Name] = true
	}
	for _, k := range s.sk {
		s.keyAttrs[k.f.Name] = true
	}
	return defaults, nil
}

// validateIndexes checks throughput and the secondary and vector indexes.
func (s *Schema[T]) validateIndexes(c *config, defaults map[*codec.Field]types.AttributeValue) error {
	if c.has("Stream") && !slices.Contains(types.StreamViewType("").Values(), c.stream) {
		return s.errf("", "Stream(%q): the view type must be one of %v", c.stream, types.StreamViewType("").Values())
	}
	if err := s.validateTableSettings(c); err != nil {
		return err
	}
	// Throughput.
	if c.has("Provisioned") {
		if c.read < 1 || c.write < 1 {
			return s.errf("", "Provisioned(%d, %d): capacity units must be at least 1", c.read, c.write)
		}
	}

	// Secondary and vector indexes share one namespace: a vector index may not
	// take the name of a GSI or LSI of the table.
	names := map[string]bool{}
	s.indexKeys = map[string]indexKeys{}
	nonKey := 0
	lsis := 0
	for _, d := range c.indexes {
		ix, keys, err := s.index(d, c, defaults)
		if err != nil {
			return err
		}
		if names[ix.Name] {
			return s.errf("", "index %s declared twice", ix.Name)
		}
		names[ix.Name] = true
		if ix.Local {
			lsis++
			if lsis > limits.MaxLSIs {
				return s.errf("", "more than %d local secondary indexes (DynamoDB's limit)", limits.MaxLSIs)
			}
		}
		nonKey += len(ix.NonKeyAttributes)
		s.indexes = append(s.indexes, ix)
		s.indexKeys[ix.Name] = keys
		for _, src := range slices.Concat(keys.pks, keys.sks) {
			if src.field != nil && !s.keyAttrs[src.field.f.Name] && !slices.Contains(s.sparse, src.field.f) &&
				(src.field.f.Kind == codec.KindS || src.field.f.Kind == codec.KindB) {
				s.sparse = append(s.sparse, src.field.f)
			}
		}
	}
	if nonKey > limits.MaxProjectedPerTable {
		return s.errf("", "the indexes project %d non-key attributes; DynamoDB allows %d in total", nonKey, limits.MaxProjectedPerTable)
	}
	for _, d := range c.vectors {
		vx, err := s.vectorIndex(d)
		if err != nil {
			return err
		}
		if names[vx.Name] {
			return s.errf("", "index %s declared twice", vx.Name)
		}
		names[vx.Name] = true
		s.vectors = append(s.vectors, vx)
	}
	if len(s.vectors) > limits.MaxVectorIndexes {
		return s.errf("", "more than %d vector indexes (DynamoDB's limit)", limits.MaxVectorIndexes)
	}
	if len(s.vectors) > 0 && c.has("Provisioned") {
		return s.errf("", "vector indexes need PAY_PER_REQUEST billing; remove Provisioned")
	}
	return nil
}

// validateTableSettings checks TTL, Tag and TableClass against DynamoDB's
// rules (API_TimeToLiveSpecification.html, API_Tag.html,
// API_CreateTable.html#DDB-CreateTable-request-TableClass).
func (s *Schema[T]) validateTableSettings(c *config) error {
	if c.has("TTL") {
		f := s.st.Field(c.ttl)
		if f == nil {
			return s.errf(c.ttl, "TTL names no field")
		}
		if f.Kind != codec.KindN {
			return s.errf(c.ttl, "TTL field is stored as %s; DynamoDB expires items by a number of epoch seconds (use a number or a time.Time with unixtime)", kindName(f.Kind))
		}
	}
	if len(c.tags) > limits.MaxTags {
		return s.errf("", "%d tags; DynamoDB allows %d per table", len(c.tags), limits.MaxTags)
	}
	seen := map[string]bool{}
	for _, t := range c.tags {
		switch {
		case t.key == "" || utf8.RuneCountInString(t.key) > limits.MaxTagKeyLen:
			return s.errf("", "Tag(%q): the key must have 1 to %d characters", t.key, limits.MaxTagKeyLen)
		case strings.HasPrefix(t.key, "aws:"):
			return s.errf("", "Tag(%q): the prefix aws: is reserved", t.key)
		case utf8.RuneCountInString(t.value) > limits.MaxTagValueLen:
			return s.errf("", "Tag(%q): the value has more than %d characters", t.key, limits.MaxTagValueLen)
		case seen[t.key]:
			return s.errf("", "Tag(%q) given twice", t.key)
		}
		seen[t.key] = true
	}
	if c.has("TableClass") && !slices.Contains(types.TableClass("").Values(), c.tableClass) {
		return s.errf("", "TableClass(%q): must be one of %v", c.tableClass, types.TableClass("").Values())
	}
	return nil
}

// keyFields resolves the partition-key (pk) or sort-key fields from the
// option list or, when the option was not given, from the tag flags.
func (s *Schema[T]) keyFields(names []string, optionGiven, pk bool) ([]*codec.Field, error) {
	opt, flag := "SortKey", "sk"
	if pk {
		opt, flag = "PartitionKey", "pk"
	}
	var flagged []*codec.Field
	for _, f := range s.st.Fields {
		if f.PK && f.SK {
			return nil, s.errf(f.Name, "tag flags pk and sk on one field")
		}
		if (pk && f.PK) || (!pk && f.SK) {
			flagged = append(flagged, f)
		}
	}
	if !optionGiven {
		return flagged, nil
	}
	if len(flagged) > 0 {
		return nil, s.errf(flagged[0].Name, "tag flag %s cannot be combined with the %s option; use one or the other", flag, opt)
	}
	if len(names) == 0 && pk {
		return nil, s.errf("", "PartitionKey needs at least one field")
	}
	out := make([]*codec.Field, 0, len(names))
	for i, n := range names {
		f := s.st.Field(n)
		if f == nil {
			return nil, s.errf(n, "%s names an undefined field", opt)
		}
		for _, m := range names[:i] {
			if m == n {
				return nil, s.errf(n, "listed twice in %s", opt)
			}
		}
		out = append(out, f)
	}
	return out, nil
}

// checkKeyKind accepts the fields a key can be built from: scalars. With raw
// keys the field is the table key itself, so it must be S, N or B.
func (s *Schema[T]) checkKeyKind(f *codec.Field, what string) error {
	if s.raw {
		if _, ok := scalarType(f.Kind); !ok {
			return s.errf(f.Name, "a raw %s field must be of type S, N or B, not %s", what, kindName(f.Kind))
		}
		return nil
	}
	switch f.Kind {
	case codec.KindS, codec.KindN, codec.KindB, codec.KindBOOL, codec.KindAny:
		return nil
	}
	return s.errf(f.Name, "a %s field must be a scalar (S, N, B or BOOL), not %s", what, kindName(f.Kind))
}

// defaults computes, once, the encoded default of every field that has one,
// so that keys can use them without re-parsing default texts. The default
// text is read as the codec reads it (S and N as written, BOOL true/false),
// decoded into the field's type and encoded back, which gives the canonical
// value the codec writes.
func (s *Schema[T]) defaults() (map[*codec.Field]types.AttributeValue, error) {
	out := map[*codec.Field]types.AttributeValue{}
	for _, f := range s.st.Fields {
		if !f.HasDefault {
			continue
		}
		var text types.AttributeValue
		switch f.Kind {
		case codec.KindS:
			text = &types.AttributeValueMemberS{Value: f.Default}
		case codec.KindN:
			text = &types.AttributeValueMemberN{Value: f.Default}
		case codec.KindBOOL:
			if f.Default != "true" && f.Default != "false" {
				return nil, s.errf(f.Name, "default %q is not true or false", f.Default)
			}
			text = &types.AttributeValueMemberBOOL{Value: f.Default == "true"}
		default:
			continue // not usable in keys; the codec applies it on Encode
		}
		v := reflect.New(f.Type).Elem()
		if err := f.Decode(text, v); err != nil {
			return nil, s.errf(f.Name, "default %q: %v", f.Default, err)
		}
		av, err := f.Encode(v)
		if err != nil {
			return nil, s.errf(f.Name, "default %q: %v", f.Default, err)
		}
		if av != nil {
			out[f] = av
		}
	}
	return out, nil
}

func (s *Schema[T]) makeKeyFields(fs []*codec.Field, defaults map[*codec.Field]types.AttributeValue, label bool) ([]keyField, error) {
	out := make([]keyField, len(fs))
	for i, f := range fs {
		k := keyField{f: f, def: defaults[f], text: f.Kind == codec.KindS && f.Type == stringType}
		if label {
			k.label = f.Name + s.sep
		}
		if k.def != nil && !s.raw {
			p, err := partString(k.def)
			if err != nil {
				return nil, s.errf(f.Name, "default: %s", err)
			}
			if p == "" {
				return nil, s.errf(f.Name, "default is empty; a key part cannot be")
			}
			if strings.Contains(p, s.sep) {
				return nil, s.errf(f.Name, "default contains the key separator %q", s.sep)
			}
			k.defPart = p
		}
		out[i] = k
	}
	return out, nil
}

func (s *Schema[T]) index(d indexDecl, c *config, defaults map[*codec.Field]types.AttributeValue) (*Index, indexKeys, error) {
	kind := "GSI"
	if d.local {
		kind = "LSI"
	}
	var keys indexKeys
	if !validName(d.name) {
		return nil, keys, s.errf("", "%s name %q is invalid: DynamoDB needs 3 to 255 characters of a-z, A-Z, 0-9, '_', '-' and '.'", kind, d.name)
	}
	ix := &Index{Name: d.name, Local: d.local, Projection: types.ProjectionTypeAll}
	var ic indexConfig
	for _, o := range d.opts {
		if o == nil {
			return nil, keys, s.errf("", "%s %s: nil IndexOption", kind, d.name)
		}
		o.applyIndex(&ic)
	}
	var err error
	if d.local {
		if s.skName == "" {
			return nil, keys, s.errf("", "LSI %s needs a table with a sort key", d.name)
		}
		if len(d.sks) == 0 {
			return nil, keys, s.errf("", "LSI %s needs a sort key", d.name)
		}
		ix.Partition = []KeyAttr{{s.pkName, s.tableKeyType(true)}}
		keys.pks = []keySource{{gen: 'p'}}
		if s.raw {
			keys.pks = []keySource{{field: &s.pk[0]}}
		}
	} else {
		if len(d.pks) == 0 {
			return nil, keys, s.errf("", "GSI %s needs a partition key", d.name)
		}
		// A GSI key has 1 to 4 partition and 0 to 4 sort attributes
		// (developer guide, "Multi-attribute keys pattern").
		if len(d.pks) > limits.MaxGSIKeyAttrs {
			return nil, keys, s.errf("", "GSI %s has %d partition-key attributes; DynamoDB allows 1 to %d", d.name, len(d.pks), limits.MaxGSIKeyAttrs)
		}
		if len(d.sks) > limits.MaxGSIKeyAttrs {
			return nil, keys, s.errf("", "GSI %s has %d sort-key attributes; DynamoDB allows at most %d", d.name, len(d.sks), limits.MaxGSIKeyAttrs)
		}
	}
	seen := map[string]string{}
	for _, side := range []struct {
		role  string
		attrs []string
		out   *[]KeyAttr
		srcs  *[]keySource
	}{{"partition key", d.pks, &ix.Partition, &keys.pks}, {"sort key", d.sks, &ix.Sort, &keys.sks}} {
		for _, a := range side.attrs {
			if a == "" {
				return nil, keys, s.errf("", "%s %s: a %s attribute name is empty", kind, d.name, side.role)
			}
			if role, dup := seen[a]; dup {
				if role == side.role {
					return nil, keys, s.errf(a, "%s %s lists the field twice in its %s", kind, d.name, role)
				}
				return nil, keys, s.errf(a, "%s %s uses the field as both partition and sort key", kind, d.name)
			}
			seen[a] = side.role
			name, t, src, err := s.indexKey(kind, d.name, side.role, a, defaults)
			if err != nil {
				return nil, keys, err
			}
			*side.out = append(*side.out, KeyAttr{name, t})
			*side.srcs = append(*side.srcs, src)
		}
	}
	if d.local && ix.Partition[0].Name == d.sks[0] {
		return nil, keys, s.errf(d.sks[0], "%s %s uses the field as both partition and sort key", kind, d.name)
	}
	ix.PK, ix.PKType = ix.Partition[0].Name, ix.Partition[0].Type
	if len(ix.Sort) > 0 {
		ix.SK, ix.SKType = ix.Sort[0].Name, ix.Sort[0].Type
		if d.local && ix.SK == s.skName {
			return nil, keys, s.errf(ix.SK, "LSI %s sort key is the table's sort key", d.name)
		}
	}
	switch len(ic.projections) {
	case 0:
	case 1:
		ix.Projection = ic.projections[0]
	default:
		if !sameProjection(ic.projections) {
			return nil, keys, s.errf("", "%s %s: %s and %s both given", kind, d.name, projectionName(ic.projections[0]), projectionName(ic.projections[1]))
		}
		ix.Projection = ic.projections[0]
	}
	if ix.Projection == types.ProjectionTypeInclude {
		ix.NonKeyAttributes, err = s.projected(kind+" "+d.name, ic.include)
		if err != nil {
			return nil, keys, err
		}
	}
	if ic.throughput > 0 {
		switch {
		case ic.throughput > 1:
			return nil, keys, s.errf("", "%s %s: Throughput given %d times", kind, d.name, ic.throughput)
		case d.local:
			return nil, keys, s.errf("", "LSI %s: Throughput is not allowed; a local index uses the table's capacity", d.name)
		case !c.has("Provisioned"):
			return nil, keys, s.errf("", "GSI %s: Throughput needs a Provisioned table (the default is PAY_PER_REQUEST)", d.name)
		case ic.read < 1 || ic.write < 1:
			return nil, keys, s.errf("", "GSI %s: Throughput(%d, %d): capacity units must be at least 1", d.name, ic.read, ic.write)
		}
		ix.Read, ix.Write = ic.read, ic.write
	}
	return ix, keys, nil
}

func sameProjection(ps []types.ProjectionType) bool {
	for _, p := range ps[1:] {
		if p != ps[0] {
			return false
		}
	}
	return true
}

// indexKey resolves one key attribute of a secondary index: a declared field
// with its own scalar type, or one of the table's generated key attributes.
func (s *Schema[T]) indexKey(kind, index, role, attr string, defaults map[*codec.Field]types.AttributeValue) (string, types.ScalarAttributeType, keySource, error) {
	if !s.raw && (attr == s.pkName || attr == s.skName) {
		src := keySource{gen: 'p'}
		if attr == s.skName {
			src.gen = 's'
		}
		return attr, types.ScalarAttributeTypeS, src, nil
	}
	f := s.st.Field(attr)
	if f == nil {
		return "", "", keySource{}, s.errf(attr, "%s %s %s names an undefined field", kind, index, role)
	}
	t, ok := scalarType(f.Kind)
	if !ok {
		return "", "", keySource{}, s.errf(attr, "%s %s %s must be of type S, N or B, not %s", kind, index, role, kindName(f.Kind))
	}
	return attr, t, keySource{field: &keyField{f: f, def: defaults[f]}}, nil
}

// projected validates the attribute names of an INCLUDE projection.
func (s *Schema[T]) projected(what string, attrs []string) ([]string, error) {
	if len(attrs) == 0 {
		return nil, s.errf("", "%s: Include needs at least one attribute", what)
	}
	if len(attrs) > limits.MaxProjectedPerIndex {
		return nil, s.errf("", "%s: %d projected attributes; DynamoDB allows %d per index", what, len(attrs), limits.MaxProjectedPerIndex)
	}
	for i, a := range attrs {
		if s.st.Field(a) == nil && (a != s.marker || s.marker == "") { // the entity attribute keeps index reads exact
			return nil, s.errf(a, "%s projects an undefined field", what)
		}
		for _, b := range attrs[:i] {
			if a == b {
				return nil, s.errf(a, "%s projects the field twice", what)
			}
		}
	}
	return append([]string(nil), attrs...), nil
}

func (s *Schema[T]) vectorIndex(d vectorDecl) (*VectorIndexSpec, error) {
	if !validName(d.name) {
		return nil, s.errf("", "vector index name %q is invalid: DynamoDB needs 3 to 255 characters of a-z, A-Z, 0-9, '_', '-' and '.'", d.name)
	}
	what := "vector index " + d.name
	var vc vectorConfig
	for _, o := range d.opts {
		if o == nil {
			return nil, s.errf("", "%s: nil VectorOption", what)
		}
		o.applyVector(&vc)
	}
	f := s.st.Field(d.field)
	if f == nil {
		return nil, s.errf(d.field, "%s names an undefined field", what)
	}
	if f.Dim <= 0 {
		return nil, s.errf(d.field, "%s needs a vector field ([]float32 or []float64 with a dim=N tag)", what)
	}
	if s.keyAttrs[f.Name] {
		return nil, s.errf(d.field, "%s: a key field cannot be the vector", what)
	}
	vx := &VectorIndexSpec{
		Name:       d.name,
		Attribute:  f.Name,
		Dimensions: f.Dim,
		Distance:   types.VectorDistanceFunctionCosine,
		Projection: types.ProjectionTypeAll,
	}
	switch len(vc.distances) {
	case 0:
	case 1:
		vx.Distance = vc.distances[0]
	default:
		return nil, s.errf("", "%s: more than one distance function given", what)
	}
	for _, n := range vc.dims {
		if n != f.Dim {
			return nil, s.errf(d.field, "%s: Dimensions(%d) disagrees with the field's dim=%d", what, n, f.Dim)
		}
	}
	if vx.Dimensions > limits.MaxDimensions {
		return nil, s.errf(d.field, "%s: %d dimensions; DynamoDB allows 1 to %d", what, vx.Dimensions, limits.MaxDimensions)
	}
	if len(vc.partition) > 1 {
		return nil, s.errf("", "%s: VectorPartition given %d times; a vector index has at most one partition attribute", what, len(vc.partition))
	}
	seen := map[string]bool{f.Name: true}
	searchAttr := func(attr, role string) (types.ScalarAttributeType, error) {
		g := s.st.Field(attr)
		if g == nil {
			return "", s.errf(attr, "%s %s names an undefined field", what, role)
		}
		t, ok := scalarType(g.Kind)
		if !ok {
			return "", s.errf(attr, "%s %s must be of type S, N or B, not %s", what, role, kindName(g.Kind))
		}
		if seen[attr] {
			return "", s.errf(attr, "%s uses the field twice", what)
		}
		seen[attr] = true
		return t, nil
	}
	if len(vc.partition) == 1 {
		t, err := searchAttr(vc.partition[0], "partition")
		if err != nil {
			return nil, err
		}
		vx.Partition, vx.PartitionType = vc.partition[0], t
	}
	if vc.filterSet > 0 && len(vc.filters) == 0 {
		return nil, s.errf("", "%s: InlineFilters needs at least one field", what)
	}
	if len(vc.filters) > limits.MaxInlineFilters {
		return nil, s.errf("", "%s: %d inline filters; DynamoDB allows %d", what, len(vc.filters), limits.MaxInlineFilters)
	}
	for _, a := range vc.filters {
		t, err := searchAttr(a, "inline filter")
		if err != nil {
			return nil, err
		}
		vx.Filters = append(vx.Filters, a)
		vx.FilterTypes = append(vx.FilterTypes, t)
	}
	switch len(vc.projections) {
	case 0:
	case 1:
		vx.Projection = vc.projections[0]
	default:
		if !sameProjection(vc.projections) {
			return nil, s.errf("", "%s: %s and %s both given", what, projectionName(vc.projections[0]), projectionName(vc.projections[1]))
		}
		vx.Projection = vc.projections[0]
	}
	if vx.Projection == types.ProjectionTypeInclude {
		var err error
		vx.NonKeyAttributes, err = s.projected(what, vc.include)
		if err != nil {
			return nil, err
		}
	}
	return vx, nil
}

func (s *Schema[T]) tableKeyType(pk bool) types.ScalarAttributeType {
	if !s.raw {
		return types.ScalarAttributeTypeS
	}
	ks := s.sk
	if pk {
		ks = s.pk
	}
	if len(ks) == 0 {
		return ""
	}
	t, _ := scalarType(ks[0].f.Kind)
	return t
}

func (s *Schema[T]) describe(c *config) {
	d := &Description{
		Type:            s.name,
		Table:           s.table,
		Entity:          s.entity,
		KeyEntity:       s.keyEntity,
		EntityAttribute: s.marker,
		StrictEntity:    s.strict,
		PK:              s.pkName,
		SK:              s.skName,
		Separator:       s.sep,
		PrefixSortKey:   s.prefixSK,
		RawKeys:         s.raw,
		OmitNil:         s.omitNil,
		Embedded:        s.embedded,
		Indexes:         s.indexes,
		VectorIndexes:   s.vectors,
		Read:            c.read,
		Write:           c.write,
		StreamView:      c.stream,
		TTL:             c.ttl,

		DeletionProtection: c.protect,
		TableClass:         c.tableClass,
	}
	for _, t := range c.tags {
		if d.Tags == nil {
			d.Tags = map[string]string{}
		}
		d.Tags[t.key] = t.value
	}
	if !s.embedded {
		d.PKType = s.tableKeyType(true)
		d.SKType = s.tableKeyType(false)
	}
	for _, k := range s.pk {
		d.PartitionFields = append(d.PartitionFields, k.f.Name)
	}
	for _, k := range s.sk {
		d.SortFields = append(d.SortFields, k.f.Name)
	}
	s.desc = d
}

// scalarType maps a wire kind to a key attribute type.
func scalarType(k codec.Kind) (types.ScalarAttributeType, bool) {
	switch k {
	case codec.KindS:
		return types.ScalarAttributeTypeS, true
	case codec.KindN:
		return types.ScalarAttributeTypeN, true
	case codec.KindB:
		return types.ScalarAttributeTypeB, true
	}
	return "", false
}

func kindName(k codec.Kind) string {
	switch k {
	case codec.KindS:
		return "S"
	case codec.KindN:
		return "N"
	case codec.KindB:
		return "B"
	case codec.KindBOOL:
		return "BOOL"
	case codec.KindNULL:
		return "NULL"
	case codec.KindM:
		return "M (map)"
	case codec.KindL:
		return "L (list)"
	case codec.KindSS:
		return "SS (string set)"
	case codec.KindNS:
		return "NS (number set)"
	case codec.KindBS:
		return "BS (binary set)"
	case codec.KindAny:
		return "any"
	}
	return fmt.Sprintf("kind %d", k)
}

func attrList(fs []*codec.Field) string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}

// validName reports whether s is a valid DynamoDB table or index name:
// 3–255 characters of [a-zA-Z0-9_.-] (API reference, CreateTable TableName
// and GlobalSecondaryIndex IndexName).
func validName(s string) bool {
	if len(s) < limits.MinNameLen || len(s) > limits.MaxNameLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-', c == '.':
		default:
			return false
		}
	}
	return true
}

func checkAttrName(n string) error {
	if n == "" {
		return fmt.Errorf("the attribute name is empty")
	}
	if len(n) > limits.MaxNameLen {
		return fmt.Errorf("a key attribute name is at most %d bytes, got %d", limits.MaxNameLen, len(n))
	}
	return nil
}
