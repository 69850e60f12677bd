package schema

import (
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Option configures a schema at definition time. Options are validated by
// New, Must and Embedded; a bad combination is an *Error naming the type.
type Option func(*config)

// IndexOption configures a global or local secondary index (GSI, LSI).
type IndexOption interface{ applyIndex(*indexConfig) }

// VectorOption configures a vector index (VectorIndex).
type VectorOption interface{ applyVector(*vectorConfig) }

// Projection chooses the attributes an index holds: ProjectAll,
// KeysOnly or Include, for a secondary index and a vector index alike.
type Projection interface {
	IndexOption
	VectorOption
}

type indexFunc func(*indexConfig)

func (f indexFunc) applyIndex(c *indexConfig) { f(c) }

type vectorFunc func(*vectorConfig)

func (f vectorFunc) applyVector(c *vectorConfig) { f(c) }

// projection is a Projection: the projection type and, for Include,
// the attributes.
type projection struct {
	typ     types.ProjectionType
	include []string
}

func (p projection) applyIndex(c *indexConfig) {
	c.projections = append(c.projections, p.typ)
	c.include = append(c.include, p.include...)
}

func (p projection) applyVector(c *vectorConfig) {
	c.projections = append(c.projections, p.typ)
	c.include = append(c.include, p.include...)
}

// Entity is anything with an entity name; every *Schema[T] is one. EntityFrom
// takes an Entity so that a child schema names its parent in Go code rather
// than repeating the parent's entity name as a string.
type Entity interface{ Entity() string }

// keyEntity is implemented by every *Schema[T]: the entity name its
// partition keys start with, which EntityFrom copies (a grandchild lives in
// the grandparent's partitions).
type keyEntity interface{ KeyEntity() string }

type config struct {
	seen  map[string]int // option name → times given, for options allowed once
	order []string       // option names in the order given, for error messages

	entity     string
	entityFrom Entity
	entityNil  bool // EntityFrom(nil)
	marker     string
	strict     bool

	sep            string
	pkName, skName string
	prefixSK       bool
	raw            bool
	omitNil        bool

	pkFields, skFields []string

	indexes []indexDecl
	vectors []vectorDecl

	read, write int64 // Provisioned

	stream types.StreamViewType // Stream; "" when the table has none

	ttl        string           // TTL: the expiry field; "" for none
	tags       []tag            // Tag, in the order given
	protect    bool             // DeletionProtection
	tableClass types.TableClass // TableClass; "" for DynamoDB's default
}

type tag struct{ key, value string }

func (c *config) once(name string) {
	if c.seen == nil {
		c.seen = make(map[string]int)
	}
	if c.seen[name] == 0 {
		c.order = append(c.order, name)
	}
	c.seen[name]++
}

func (c *config) has(name string) bool { return c.seen[name] > 0 }

// tableOptions are the options that describe a table item; Embedded rejects
// them.
var tableOptions = []string{
	"EntityName", "EntityFrom", "Separator", "PartitionKeyName", "SortKeyName",
	"PrefixSortKey", "RawKeys", "PartitionKey", "SortKey", "GSI", "LSI",
	"VectorIndex", "Provisioned", "Stream", "TTL", "Tag", "DeletionProtection", "TableClass",
	"EntityAttribute", "StrictEntity",
}

// repeatable options may be given more than once.
var repeatable = map[string]bool{"GSI": true, "LSI": true, "VectorIndex": true, "Tag": true}

// EntityName sets the entity name, the first part of every generated
// partition key ("order" in "order#u1"). The default is the Go type name in
// snake_case (UserProfile → user_profile, HTTPLog → http_log).
func EntityName(name string) Option {
	return func(c *config) { c.once("EntityName"); c.entity = name }
}

// EntityFrom puts the child's items in parent's partitions ("belongs to" in
// single-table design): the child's partition keys start with the parent's
// entity name, so they equal the parent's for the same key values. The
// child keeps an entity name of its own (EntityName, or its type name in
// snake_case), the value of its entity attribute, which tells its items from
// the parent's exactly. Give the parent and the child different sort keys
// too (for example a sort-key field with default=order on the child) so
// that they never overwrite each other.
func EntityFrom(parent Entity) Option {
	return func(c *config) {
		c.once("EntityFrom")
		if parent == nil || isNilPointer(parent) {
			c.entityNil = true
			return
		}
		c.entityFrom = parent
	}
}

// DefaultEntityAttribute is the attribute that holds an item's entity name
// unless EntityAttribute names another.
const DefaultEntityAttribute = "_entity"

// EntityAttribute sets the attribute in which every item written through the
// schema carries its entity name (DefaultEntityAttribute by default). Reads
// load an item holding it only into the schema of that entity. All schemas
// of a table must use the same name. EntityAttribute("") turns marking off:
// items are then told apart by their keys alone (the entity prefix and the
// number of key parts), for tables shared with tools that must not see an
// extra attribute.
func EntityAttribute(name string) Option {
	return func(c *config) { c.once("EntityAttribute"); c.marker = name }
}

// StrictEntity makes reads refuse items without the entity attribute (items
// written by other tools or by older versions of this library), instead of
// judging them by their keys.
func StrictEntity() Option {
	return func(c *config) { c.once("StrictEntity"); c.strict = true }
}

// DefaultSeparator is the string between the parts of generated keys unless
// Separator sets another.
const DefaultSeparator = "#"

// Separator sets the string between the parts of generated keys; the default
// is DefaultSeparator. It must not be empty and no key value may contain it (that keeps
// keys splittable, see Schema.Load).
func Separator(sep string) Option {
	return func(c *config) { c.once("Separator"); c.sep = sep }
}

// PartitionKeyName sets the attribute name of the table's partition key. The
// default is "pk", or the partition-key field's own name with RawKeys.
func PartitionKeyName(name string) Option {
	return func(c *config) { c.once("PartitionKeyName"); c.pkName = name }
}

// SortKeyName sets the attribute name of the table's sort key. The default is
// "sk", or the sort-key field's own name with RawKeys.
func SortKeyName(name string) Option {
	return func(c *config) { c.once("SortKeyName"); c.skName = name }
}

// PrefixSortKey precedes every sort-key part by its field's attribute name,
// for self-describing keys: "placed_at#2024-01-15T10:00:00Z#order_id#o1".
func PrefixSortKey() Option {
	return func(c *config) { c.once("PrefixSortKey"); c.prefixSK = true }
}

// RawKeys uses the partition-key field and the sort-key field as the table
// keys as they are, with their own types (a number stays N): no entity
// prefix, no joining. For tables not designed around generated keys. Only one
// partition-key and one sort-key field are allowed.
func RawKeys() Option {
	return func(c *config) { c.once("RawKeys"); c.raw = true }
}

// OmitNil decides how nil pointers, slices, maps and empty sets are written:
// left out (true, the default) or written as NULL (false).
func OmitNil(omit bool) Option {
	return func(c *config) { c.once("OmitNil"); c.omitNil = omit }
}

// PartitionKey lists the partition-key fields (attribute names) in key order,
// instead of pk tag flags. A schema uses either the option or the flags.
func PartitionKey(fields ...string) Option {
	return func(c *config) {
		c.once("PartitionKey")
		c.pkFields = append([]string(nil), fields...)
	}
}

// SortKey lists the sort-key fields (attribute names) in key order, instead
// of sk tag flags. A schema uses either the option or the flags.
func SortKey(fields ...string) Option {
	return func(c *config) {
		c.once("SortKey")
		c.skFields = append([]string(nil), fields...)
	}
}

// Provisioned makes CreateTableInput create the table in PROVISIONED billing
// mode with the given read and write capacity units; every GSI gets the same
// unless it has its own Throughput. The default is PAY_PER_REQUEST. Vector
// indexes need PAY_PER_REQUEST, so a schema cannot have both.
func Provisioned(read, write int64) Option {
	return func(c *config) { c.once("Provisioned"); c.read, c.write = read, write }
}

// Stream makes CreateTableInput enable the table's DynamoDB stream with the
// given view type (NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES or KEYS_ONLY):
// what each record holds, and so what a change feed can decode.
func Stream(view types.StreamViewType) Option {
	return func(c *config) { c.once("Stream"); c.stream = view }
}

// TTL names the field holding the item's expiry time (a time.Time with the
// unixtime flag, or a number of epoch seconds): Repo.SyncTables enables the
// table's Time to Live on its attribute, and DynamoDB deletes expired items.
func TTL(field string) Option {
	return func(c *config) { c.once("TTL"); c.ttl = field }
}

// Tag gives the table the tag key=value (CreateTableInput's Tags; SyncTables
// adds it to an existing table). Give it once per tag.
func Tag(key, value string) Option {
	return func(c *config) { c.once("Tag"); c.tags = append(c.tags, tag{key, value}) }
}

// DeletionProtection makes the table refuse DeleteTable until the
// protection is turned off (with Repo.UpdateTable).
func DeletionProtection() Option {
	return func(c *config) { c.once("DeletionProtection"); c.protect = true }
}

// TableClass sets the table class (STANDARD or
// STANDARD_INFREQUENT_ACCESS); DynamoDB's default is STANDARD.
func TableClass(class types.TableClass) Option {
	return func(c *config) { c.once("TableClass"); c.tableClass = class }
}

type indexDecl struct {
	name     string
	local    bool
	pks, sks []string // key attributes in order
	opts     []IndexOption
}

// keyList is the attribute list of a single-attribute key: none for "".
func keyList(attr string) []string {
	if attr == "" {
		return nil
	}
	return []string{attr}
}

// GSI declares a global secondary index. pk and sk are attribute names of
// fields (or of the table's generated key attributes, for an inverted index);
// sk "" means the index has no sort key. Index keys are the fields' own
// attributes with their own types: no entity prefix, no joining, numbers stay
// N. The projection defaults to ALL.
func GSI(name, pk, sk string, opts ...IndexOption) Option {
	return func(c *config) {
		c.once("GSI")
		c.indexes = append(c.indexes, indexDecl{name: name, pks: keyList(pk), sks: keyList(sk), opts: opts})
	}
}

// MultiKeyGSI declares a global secondary index whose partition key is the
// fields pk (1 to 4) and whose sort key is the fields sk (0 to 4), in
// order, each with its own type (S, N or B): DynamoDB's multi-attribute
// keys, instead of a synthetic concatenated attribute. A Query on it needs
// every partition field set; set leading sort fields are equalities, and a
// Sort option applies to the next one, with its type.
func MultiKeyGSI(name string, pk, sk []string, opts ...IndexOption) Option {
	return func(c *config) {
		c.once("GSI")
		c.indexes = append(c.indexes, indexDecl{name: name, pks: slices.Clone(pk), sks: slices.Clone(sk), opts: opts})
	}
}

// LSI declares a local secondary index: the table's partition key with the
// field sk as the sort key. The table must have a sort key. The projection
// defaults to ALL.
func LSI(name, sk string, opts ...IndexOption) Option {
	return func(c *config) {
		c.once("LSI")
		c.indexes = append(c.indexes, indexDecl{name: name, local: true, sks: keyList(sk), opts: opts})
	}
}

type indexConfig struct {
	projections []types.ProjectionType
	include     []string
	read, write int64
	throughput  int
}

// ProjectAll projects every attribute into the index (the default).
func ProjectAll() Projection { return projection{typ: types.ProjectionTypeAll} }

// KeysOnly projects only the table and index keys. Schema.Load recovers the
// key fields of such items from the generated keys.
func KeysOnly() Projection { return projection{typ: types.ProjectionTypeKeysOnly} }

// Include projects the keys and the listed attributes (declared fields).
func Include(attrs ...string) Projection {
	return projection{typ: types.ProjectionTypeInclude, include: append([]string(nil), attrs...)}
}

// Throughput sets a GSI's provisioned read and write capacity. It needs a
// Provisioned table (a LSI shares the table's capacity and takes none).
func Throughput(read, write int64) IndexOption {
	return indexFunc(func(c *indexConfig) { c.throughput++; c.read, c.write = read, write })
}

type vectorDecl struct {
	name, field string
	opts        []VectorOption
}

// VectorIndex declares a DynamoDB vector index over field, a vector field
// ([]float32 or []float64 with a dim=N tag). Distance defaults to cosine,
// dimensions to the field's dim, projection to ALL.
func VectorIndex(name, field string, opts ...VectorOption) Option {
	return func(c *config) {
		c.once("VectorIndex")
		c.vectors = append(c.vectors, vectorDecl{name: name, field: field, opts: opts})
	}
}

type vectorConfig struct {
	distances   []types.VectorDistanceFunction
	dims        []int
	partition   []string
	filters     []string
	filterSet   int
	projections []types.ProjectionType
	include     []string
}

// Cosine ranks by cosine distance (the default): for raw, unnormalised
// embeddings. A smaller score is nearer.
func Cosine() VectorOption {
	return vectorFunc(func(c *vectorConfig) { c.distances = append(c.distances, types.VectorDistanceFunctionCosine) })
}

// DotProduct ranks by dot product: for unit vectors (same ranking as cosine,
// cheaper). A larger score is nearer.
func DotProduct() VectorOption {
	return vectorFunc(func(c *vectorConfig) {
		c.distances = append(c.distances, types.VectorDistanceFunctionDotProduct)
	})
}

// Euclidean ranks by Euclidean distance, where magnitude matters. A smaller
// score is nearer.
func Euclidean() VectorOption {
	return vectorFunc(func(c *vectorConfig) {
		c.distances = append(c.distances, types.VectorDistanceFunctionEuclidean)
	})
}

// Dimensions states the number of dimensions; it must agree with the
// field's dim tag (the default).
func Dimensions(n int) VectorOption {
	return vectorFunc(func(c *vectorConfig) { c.dims = append(c.dims, n) })
}

// VectorPartition makes field the index's HASH search-schema attribute: every
// search is scoped to one value of it, which the search filter must give.
func VectorPartition(field string) VectorOption {
	return vectorFunc(func(c *vectorConfig) { c.partition = append(c.partition, field) })
}

// InlineFilters lists fields stored in the index as INLINE_FILTER attributes,
// usable to narrow searches.
func InlineFilters(fields ...string) VectorOption {
	return vectorFunc(func(c *vectorConfig) { c.filterSet++; c.filters = append(c.filters, fields...) })
}

func projectionName(p types.ProjectionType) string {
	switch p {
	case types.ProjectionTypeAll:
		return "ProjectAll"
	case types.ProjectionTypeKeysOnly:
		return "KeysOnly"
	case types.ProjectionTypeInclude:
		return "Include"
	}
	return fmt.Sprint(p)
}
