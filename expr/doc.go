// Package expr builds DynamoDB condition, filter, key-condition, update and
// projection expressions.
//
// It holds the one AST of DynamoDB expressions (ast.go), shared with
// expr/parse, which reads expression text into the same tree for the local
// server. Print, PrintUpdate and PrintProjection render a tree as text;
// Nodes (and OperandNodes) is the one walk over a tree, for every consumer
// that inspects one.
//
// # Conditions
//
// Constructors build a Cond with real attribute names and Go values:
//
//	Eq Ne Lt Le Gt Ge      a = :v, a <> :v, …
//	InRange(a, lo, hi)     a BETWEEN :lo AND :hi
//	OneOf(a, v…)           a IN (:v0, :v1, …)
//	BeginsWith, Contains   begins_with(a, :v), contains(a, :v)
//	Exists, NotExists      attribute_exists(a), attribute_not_exists(a)
//	AttrType(a, "SS")      attribute_type(a, :t)
//	Gt(Size(a), 3)         size(a) > :v (every comparison, InRange, OneOf)
//	AllOf, AnyOf, Negate   AND, OR, NOT (the AST's And, Or, Not)
//	RawCond(text, names, values)
//
// An attribute is a top-level name given as a string and taken literally
// ("a.b" is one attribute with a dot in its name), or a Path for nested
// data: Attr("address", "city") is address.city and
// Attr("items").Index(2).Attr("sku") is items[2].sku. The value side of a
// comparison may also be another attribute (Lt("low", Attr("high"))).
//
// Values of a top-level declared field are encoded with the field's type
// through the Encoder (the schema); nested paths, undeclared attributes and
// a nil Encoder use codec.Marshal's inference. A types.AttributeValue is sent
// as is.
//
// # Updates
//
// Set, SetNull, Remove, Increment, Decrement, Add, Delete, Append, Prepend,
// IfNotExists and RawUpdate build Changes; Builder.Update renders them as
// one expression with the clauses in the order SET, REMOVE, ADD, DELETE.
//
// # Placeholders
//
// Every name and value goes through a placeholder, so reserved words and odd
// names are always safe, and the placeholders are deterministic: the same
// calls give the same text. Conditions use "#<prefix><n>" and
// ":<prefix><n>" with one counter per prefix ("#c0 = :c1"); updates "#a<n>"
// and ":v<i>" (i the change's position); projections "#p<n>"; key conditions
// "#pk = :pk AND #sk = :sk". Names and values of raw expressions are merged
// with the generated ones; the same placeholder from both is an error.
package expr
