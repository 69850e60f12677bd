// Package codec converts Go values to and from DynamoDB attribute values
// (types.AttributeValue of aws-sdk-go-v2).
//
// Every Go type gets one codec, built on first use and cached; every struct
// type gets one plan (StructOf) holding the encoder and decoder of each
// field. Tags are parsed and types inspected once; encoding and decoding
// afterwards only run the prepared functions.
//
// # Tags
//
//	`dynamo:"name,flag,flag=value"`   `dynamo:"-"` skips the field
//
// Flags: pk, sk (key parts, used by package schema), required (encoding a
// zero value is an error; loading never checks it, so old items still
// read), omitempty (zero values and empty strings, slices and maps are
// omitted too), default=V (an absent value, such as a nil pointer, encodes
// as V and a missing attribute loads as V; 0, false and "" in a non-pointer
// field are values the caller set and are written as they are; V is parsed
// as the field's type when the plan is built, cannot contain a comma, and
// applies to S, N and BOOL fields),
// dim=N (vector length), precision=s|ms|us|ns (times), unixtime (time.Time
// as N epoch seconds, for TTL attributes), number (a string or
// encoding.TextMarshaler type stored as N), binary (a string stored as B, a
// Set[string] as BS), set (a slice stored as SS/NS/BS; accepted and
// redundant on Set types), unknown (below), version (an integer field),
// created and updated (a time.Time or integer unix-seconds field): the
// fields the library writes itself, see package schema. An unknown flag, a flag on a type it does not
// apply to, or a bad default is an error from StructOf naming the type and
// field. Two fields with the same attribute name at the same depth are an
// error too (encoding/json would drop both silently).
//
// # Unknown attributes
//
// A field of type map[string]types.AttributeValue tagged `dynamo:",unknown"`
// is the struct's catch-all: decoding puts every attribute the struct does
// not declare into it (nil when there is none), and encoding writes its
// entries back as they are, so an item written by a newer version or another
// program survives a load and a write unchanged. An entry named like a
// declared field is an error when encoding (which of the two was meant
// cannot be known); so is a nil value. At most one per struct, with no name
// and no other flags; it works in nested structs too. Package schema leaves
// its generated key attributes out of it.
//
// # Types
//
//	string, named strings        S
//	int*, uint*                  N, decimal digits
//	float32, float64             N, shortest text that round-trips (below)
//	Number, decimal.Decimal      N, exact
//	bool                         BOOL
//	[]byte, [N]byte              B
//	time.Time                    S, UTC, fixed width (below)
//	Date                         S "2006-01-02"
//	TimeOfDay                    S "15:04:05", fixed width per precision (default s)
//	DateTime                     S "2006-01-02T15:04:05", fixed width per precision (default s)
//	map[K]T                      M (K: strings, integers, TextMarshaler)
//	[]T, [N]T                    L
//	[]float32/[]float64 + dim=N  L of N numbers, length checked both ways
//	Set[T], map[K]struct{}       SS (string kinds) or NS (numbers, Number)
//	BinarySet                    BS
//	struct                       M by its plan (embedded structs flattened as encoding/json does)
//	*T                           as T; nil is absent
//	any, interfaces              inferred from the dynamic value (below)
//	Marshaler / Unmarshaler      as the methods say (also aws attributevalue's)
//	encoding.TextMarshaler       S (N with the number flag)
//	Raw, types.AttributeValue    the attribute value as it is
//
// chan, func, complex and unsafe pointers are unsupported: StructOf (or the
// first Marshal of such a value) returns an error.
//
// # Absent and zero
//
// Empty strings and binaries are written: DynamoDB accepts them outside
// keys (package schema rejects them in key parts). Empty lists and maps are
// written too, and load back as empty, non-nil values.
//
// nil pointers, nil slices and maps, empty sets, nil interfaces, the empty
// Number and the zero Date/DateTime are absent: Struct.Encode omits them
// (omitNil) or writes NULL, and inside lists and maps they are NULL. Every
// other zero value (0, "", false, the zero time.Time) is written unless the
// field has omitempty, and a default= never replaces it: use a pointer to
// tell "not set" (nil, which takes the default) from zero. Empty sets
// are absent because DynamoDB rejects empty sets; NULL loads as the zero
// value, so an empty set reads back as nil. NULL on load always means zero:
// nil for pointers, slices, maps and sets.
//
// # Numbers
//
// Integers are written as plain decimal digits. Floats are written with
// the fewest digits that read back as the same float (per bit size) in
// plain notation when the decimal exponent is in [-7, 21), else as
// d.dddE±x: 0.1 → "0.1", 1e21 → "1E+21". NaN and ±Inf, and values whose
// magnitude DynamoDB cannot store (above 9.99…E+125 or below 1E-130, zero
// excepted), are errors, as are Numbers and decimals with more than 38
// significant digits. Loading an N with a fraction into an integer, or one
// that overflows the field, is an error; "1E+2" and "100.0" load into
// integers as 100.
//
// In an untyped slot (any, []any, map[string]any) an N loads as int64 when
// it is an integer that fits, else as float64 when the float's shortest
// text denotes the same number, else as Number: integers stay exact, the
// common fractions come back as float64, and nothing is ever rounded
// silently. An NS loads as Set[int64], Set[float64] or Set[Number] by the
// same rule over all elements.
//
// # Times
//
// time.Time is converted to UTC and written with a fixed width,
// "2006-01-02T15:04:05.000000000Z" by default, so that encoded times sort
// as strings (sort keys depend on it); precision=s gives
// "2006-01-02T15:04:05Z", ms and us three and six digits. A value finer
// than the field's precision is an error, never truncated, and so is a year
// outside 0000-9999. Loading accepts any RFC 3339 text, with any offset and
// any number of fraction digits, and returns UTC.
//
// TimeOfDay and DateTime have no zone; they are written with exactly the
// precision's fraction digits (none by default: "15:04:05",
// "2006-01-02T15:04:05") and load from text with 0 to 9 fraction digits
// and no offset (an offset is an error: use time.Time for instants).
//
// Number is written as given once validated; decimal.Decimal and floats
// are written in one canonical form (no trailing zeros, plain notation for
// leading-digit exponents in [-7, 21), else E notation), so that equal
// values encode to equal bytes.
//
// # Untyped values
//
// In an any slot: string → S, integers and floats → N, bool → BOOL, nil →
// NULL, []byte → B, []any → L, map[string]any → M, Set[T] → SS/NS, structs
// → M by their plan, Raw and types.AttributeValue → as they are, anything
// else by its type's codec. A map that happens to have an "S" key is user
// data, never an attribute value. Loading into any gives string, the number
// rules above, []byte, bool, nil, map[string]any, []any, Set[string],
// number sets and BinarySet; structs come back as maps.
//
// A []byte in an untyped slot is B: in Go the type says it is binary, and B
// loads back into any as []byte, so untyped values round-trip.
//
// # Marshalers
//
// A type's own methods win over its kind: Marshaler/Unmarshaler, then
// aws-sdk-go-v2 attributevalue's MarshalDynamoDBAttributeValue and
// UnmarshalDynamoDBAttributeValue, then encoding.TextMarshaler with
// TextUnmarshaler. Pointer receivers work on addressable values (and on a
// copy otherwise). Unmarshalers also receive NULL; everything else loads
// NULL as the zero value. Nested structs always omit their absent fields.
//
// # Performance
//
// Encoding takes attribute value members, list and set slices and
// formatted text from slabs shared across calls (a pooled state), so an
// item costs little more than its maps: two allocations for an order
// item of eight fields. Members handed out are never written again,
// distinct values never share a member, and slices are capped so that
// appending to one copies. A slab is about 1 KiB, and a member a caller
// keeps keeps its slab alive.
//
// Encoding and decoding walk dense tables of the plan's fields (attribute
// name, offset, coder); strings, 64-bit integers, booleans and float64s in
// fields and list elements are encoded inline, and decoding looks each
// attribute up in the item once.
// Struct.DecodeFound is Decode that also reports which of the first 64
// fields the item held, so that a caller (package schema, recovering key
// fields from the generated keys) need not look them up again.
//
// # Errors
//
// Every error is an *Error whose Path says where: "Order.items[2].sku:
// cannot load N into string".
package codec
