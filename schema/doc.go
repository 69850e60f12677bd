// Package schema declares how a Go struct is stored in a DynamoDB table
// designed for single-table use: its fields, its generated composite keys and
// its indexes. A schema is validated once, when it is declared; after that it
// builds keys, encodes items and decodes them without further checks of the
// declaration, and it describes the table for CreateTable.
//
// # Declaring a schema
//
// Fields and their key flags are struct tags (see package codec for every
// tag flag and type); table-level facts are options:
//
//	type Order struct {
//		UserID   string          `dynamo:"user_id,pk"`
//		PlacedAt time.Time       `dynamo:"placed_at,sk,precision=s"`
//		OrderID  string          `dynamo:"order_id,sk"`
//		Total    decimal.Decimal `dynamo:"total"`
//		Status   string          `dynamo:"status,default=pending"`
//	}
//
//	var Orders = schema.Must[Order]("app",
//		schema.EntityName("order"),
//		schema.GSI("StatusIndex", "status", "placed_at"),
//	)
//
// New returns an *Error for every mistake, naming the type and the field
// ("dynamo: schema Order: field placed_at: ..."); Must panics with it, for
// package-level declarations. Checked at declaration: the table name, a
// partition key, fields named by PartitionKey, SortKey and index options,
// duplicate fields and indexes, pk/sk tag flags mixed with the PartitionKey
// or SortKey option (use one or the other), RawKeys with more than one
// partition- or sort-key field, key fields of non-scalar kinds, index keys
// that are not S, N or B, vector indexes over non-vector fields or with other
// dimensions than the field's, projected attributes that are not fields, the
// separator (not empty, not in the entity name), and DynamoDB's fixed limits
// on names and index counts.
//
// # Entity names
//
// The entity name is the first part of every generated partition key. It
// defaults to the Go type name in snake_case, computed exactly as Elixir's
// Macro.underscore computes it (so items written by Dynamo for Elixir are
// found): UserProfile → user_profile, HTTPLog → http_log, UserID → user_id,
// SHA256Hash → sha256_hash. A run of capitals is one word, and the next word
// starts at the last capital of the run when a lower-case letter follows
// (HTTPLog → http + log). EntityName sets it.
//
// Every item written through the schema carries its entity name in the
// entity attribute, "_entity" unless EntityAttribute names another (all
// schemas of a table must agree). Dump writes it, so Put, batches and
// transactions do; updates add SET _entity = if_not_exists(_entity, :e), so
// they mark the items they create and older unmarked items, and never
// relabel another entity's item. Callers may not write it. Reads apply
// CheckEntity: an item carrying the attribute belongs exactly to the schema
// of that entity name; an item without it (written by other tools) is judged
// by its keys (the entity prefix and the number of key parts), or refused
// under StrictEntity. The attribute, not the key, decides because the key
// cannot: a parent's sort key "profile" and a child's "child" have the same
// shape, and so do sibling sort keys "order#o1" and "payment#o1".
// EntityAttribute("") turns the attribute off, for tables that other tools
// must see unchanged; the key rule alone then tells items apart.
// Items read through a KEYS_ONLY index, or an INCLUDE index that does not
// include the attribute, lack it too and are judged by the key rule (and
// refused under StrictEntity): list the attribute in Include to keep such
// reads exact. Request builders add the keys and the attribute to every
// projection.
//
// Schemas of one table seen together (CreateTableInput, collections) may not
// share an entity name or disagree on the entity attribute.
//
// # Versions and timestamps
//
// A field tagged version (an integer) is an optimistic lock, and fields
// tagged created and updated (a time.Time in any of its encodings, or an
// integer of unix seconds) are timestamps; at most one of each, none a key
// field. The schema only describes them: Lifecycle names them, VersionOf
// and NextVersion read the version a value carries (0: none) and the one a
// write stores, Stamp turns a time into a timestamp field's value at its
// precision, and DumpPut is Dump with the three set as a Put writes them.
// The request builders add the conditions and the update actions.
//
// # Generated keys
//
// The partition key is the entity name, the separator ("#" by default) and
// the partition-key fields in key order, joined by the separator:
// "order#u1", "customer#acme#c1". The sort key joins the sort-key fields the
// same way, without the entity name: "2024-01-15T10:00:00Z#o1"; with
// PrefixSortKey every part is preceded by its attribute name:
// "placed_at#2024-01-15T10:00:00Z#order_id#o1". Both are stored as S under
// "pk" and "sk" (PartitionKeyName, SortKeyName). Key order is the fields'
// declaration order, or the order PartitionKey and SortKey give.
//
// Each part is the field's encoded value as text: S as it is, N as the codec
// writes the number ("-42", "1.5", "9.99"), B as standard base64, BOOL as
// "true" or "false". Numeric parts therefore compare as strings, not as
// numbers; times are fixed width (see package codec) and sort in time order.
//
// In an item's key (Dump, Put, Get, Delete, PrimaryKey) a key field is unset
// when it holds nothing a key can store: a nil pointer, an empty string or
// binary, the zero time. 0 and false are values: "tally#0". In a query's
// key (SortPrefix, IndexKey) every zero value is unset, so that a struct
// with only its leading sort fields set selects a range; state a zero part
// there with a sort-key condition. A field's default= counts as its value
// when it is unset, and Dump writes it as the field's attribute too (the
// parent/child pattern below). An unset
// partition-key field, a part that contains the separator, and a key longer
// than DynamoDB allows (2048 bytes for a partition key, 1024 for a sort key)
// are errors: a key is never written with a placeholder.
//
// PrimaryKey needs every key field. SortPrefix stops at the first unset
// sort-key field and reports whether the sort key is complete; an incomplete
// prefix ends with the separator ("2024-01-15T10:00:00Z#"), so that a
// begins_with query on it matches whole parts only ("u1#" never matches
// "u10#…").
//
// # Sort-key conditions
//
// A Query's sort-key condition (SortCondition) is about one field: the
// first sort-key field the query's value does not fix. The fields before it
// (set, or unset with a default, such as a kind=order part) form the fixed
// prefix Q, with the field's label under PrefixSortKey. A value v of the
// field becomes its key-part text t (a string is taken as the text, so
// "2024-07" is a partial time); t may not be empty or contain the
// separator. The keys whose field equals t are exactly Q+t when the field
// is the last one, and the keys beginning with Q+t+sep otherwise; all of
// them sort below Q+t+after(sep), where after replaces the last character
// by the next one ("#" → "$"). The condition becomes one key condition:
//
//	field     last field             earlier field
//	= t       = Q+t                  begins_with Q+t+sep
//	> t       > Q+t                  ≥ Q+t+after(sep)
//	≥ t       ≥ Q+t                  ≥ Q+t
//	< t       < Q+t                  < Q+t
//	≤ t       ≤ Q+t                  < Q+t+after(sep)
//	begins_with t                    begins_with Q+t
//
// With no prefix (Q empty) these are the key conditions themselves. Behind
// a prefix each range also needs the other bound, or it would run into the
// keys of other values of the fixed fields: the range becomes BETWEEN, with
// Q as the lower and after(Q) as the upper bound where the table above has
// none. Every bound that is not Q+t of the last field (Q, after(Q),
// Q+t+after(sep), Q+t of an earlier field) has too few parts to be a key
// of the schema, so the inclusive BETWEEN includes no item it should not.
// Where the exclusive bound is the last field's Q+t, which is a key, the
// range includes it and the query drops that one item with a filter on
// the field (SortRange.Exclude): "> t" behind a prefix is BETWEEN Q+t AND
// after(Q) with field <> t.
//
// The composed key sorts as the field's text compares, byte by byte, as
// long as the values do not contain characters that sort below the
// separator's first byte (for "#": control characters, space, '!' and
// '"'): "ab" < "abc" and "ab#…" < "abc#…". A value with such a character
// sorts before the keys of its prefix ("ab c#…" < "ab#…"), so a range on
// an earlier field follows the key order there, not the text order. Times,
// dates, numbers and base64 never contain them. Numbers, binary and
// booleans are parts whose text does not sort as their values ("10" <
// "9"), so only equality applies to them; a range or prefix is an error
// naming the field (a GSI keyed on the field compares its own type). A
// condition whose values are attribute values is taken as the whole
// composed sort key, as it is.
//
// A partial value compares as text too: "2024-12-31" sorts below
// "2024-12-31T10:00:00Z", so SortLe("2024-12-31") leaves that day out. For
// an inclusive upper bound over a partial time append "~", which sorts above
// every character of a time: SortBetween("2024-12-01", "2024-12-31~")
// includes the whole of December 31.
//
// RawKeys stores the single partition-key field (and sort-key field) as the
// table keys themselves, with their own types and names: for tables not
// designed around generated keys.
//
// # Parent and child items
//
// A child schema declared with EntityFrom(parent) takes the parent's key
// prefix (KeyEntity), so its items live in the parent's partitions, and keeps
// an entity name of its own (EntityName, or its type name in snake_case:
// "user_order" below), which its items carry in the entity attribute: the
// parent's reads skip the child's items exactly, whatever their keys. Give
// the two different sort keys too, for example a sort-key field with a fixed
// default on each, so that they never overwrite each other:
//
//	type User struct {
//		UserID string `dynamo:"user_id,pk"`
//		Kind   string `dynamo:"kind,sk,default=profile"`
//	}
//	type UserOrder struct {
//		UserID  string `dynamo:"user_id,pk"`
//		Kind    string `dynamo:"kind,sk,default=order"`
//		OrderID string `dynamo:"order_id,sk"`
//	}
//	var Users = schema.Must[User]("app")
//	var UserOrders = schema.Must[UserOrder]("app", schema.EntityFrom(Users))
//
// Every key function applies the same keys: "user#u1" / "profile" for the
// user, "user#u1" / "order#o1" for the order, and a query prefix of
// "order#" for the user's orders.
//
// A Collection declares schemas that share partitions, to read a whole
// partition in one query (package dynamo's QueryCollection), each item into
// its own type.
//
// # Items
//
// Dump encodes a value as a complete item: every declared field (nil ones
// left out, or written as NULL with OmitNil(false); defaults replacing nil
// pointers, never a 0, false or "" the value holds; required fields
// checked) plus the generated keys; a secondary-index key
// field holding an empty string or binary is left out, because DynamoDB
// rejects empty index keys (the item is then not in that index). Load
// decodes an item:
// undeclared attributes are ignored (or kept in the catch-all field, tag
// `dynamo:",unknown"`, and written back by Dump; the generated keys are
// never among them), missing ones take their defaults, and
// key fields missing from the item, as in items read through a KEYS_ONLY or
// INCLUDE index or a vector search, are recovered by splitting the generated
// keys and decoding each part with its field's type (this is why key values
// may not contain the separator). CheckEntity (and Owns) tells this
// entity's items from other entities' in a shared table. DumpAttributes
// encodes the fields alone, without the keys and the entity attribute: a
// nested value, not an item.
//
// # Indexes and tables
//
// GSI and LSI keys are the fields' own attributes with their own types (a
// number stays N); an index may also be keyed on the generated "pk" and "sk"
// (an inverted index). MultiKeyGSI declares a GSI with a multi-attribute
// key: 1 to 4 partition fields and 0 to 4 sort fields, each with its own
// type; IndexValues says which of them a value fixes (every partition field,
// then the sort fields from the first on, without gaps). VectorIndex declares a DynamoDB vector index over a
// vector field ([]float32 or []float64 with dim=N).
//
// CreateTableInput derives the CreateTable request of a table from all the
// schemas stored in it: key schema, typed and de-duplicated attribute
// definitions, indexes merged across schemas (conflicts are errors naming
// both schemas), vector indexes. Billing is PAY_PER_REQUEST unless the
// schemas declare Provisioned, or Provision switches the request at run time.
package schema
