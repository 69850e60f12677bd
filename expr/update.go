package expr

import "github.com/dynamogo/dynamo/internal/sealed"

// Change is one action of an update expression, built by Set, SetNull,
// Remove, Increment, Decrement, Add, Delete, Append, Prepend, IfNotExists or
// RawUpdate. Like a Cond it holds real names and Go values; the Builder
// renders it. A Change is also an argument of the update operations of
// packages request and dynamo, beside their options.
type Change struct {
	updateArg
	txUpdateArg
	op    changeOp
	path  Path
	value any
	raw   *Raw
}

// The markers that make a Change an update argument (see package
// internal/sealed); as aliases their fields stay unexported.
type (
	updateArg   = sealed.Update
	txUpdateArg = sealed.TxUpdate
)

type changeOp uint8

const (
	opSet changeOp = iota + 1
	opSetNull
	opRemove
	opIncrement
	opDecrement
	opAdd
	opDelete
	opAppend
	opPrepend
	opIfNotExists
	opRaw
)

// Path is the attribute the change writes; nil for RawUpdate. The request
// builders use it to refuse updates of key attributes.
func (c Change) Path() Path { return c.path }

// IsRaw reports whether c is a RawUpdate, whose paths are not known.
func (c Change) IsRaw() bool { return c.op == opRaw }

// Raw is the expression of a RawUpdate as given (nil for other changes); it
// must not be modified.
func (c Change) Raw() *Raw { return c.raw }

// Set is SET a = :v. v is a Go value (nil writes NULL), an encoded
// types.AttributeValue, or another attribute (SET a = b copies it).
func Set[A Attribute](a A, v any) Change { return Change{op: opSet, path: pathOf(a), value: v} }

// SetNull is SET a = :v with :v the NULL value: the attribute stays, holding
// NULL. Use Remove to delete it.
func SetNull[A Attribute](a A) Change { return Change{op: opSetNull, path: pathOf(a)} }

// Remove is REMOVE a: the attribute (or list element) is deleted.
func Remove[A Attribute](a A) Change { return Change{op: opRemove, path: pathOf(a)} }

// Increment is SET a = a + :n. The attribute must exist; use Add for a
// counter that starts from nothing. Counters are not idempotent when a
// request is retried: guard them with a condition or a transaction token.
func Increment[A Attribute](a A, n any) Change {
	return Change{op: opIncrement, path: pathOf(a), value: n}
}

// Decrement is SET a = a - :n.
func Decrement[A Attribute](a A, n any) Change {
	return Change{op: opDecrement, path: pathOf(a), value: n}
}

// Add is ADD a :v: adds a number to a counter (created at 0 if missing) or
// the elements of a set to a set. A single string or binary element is sent
// as a one-element set.
func Add[A Attribute](a A, v any) Change { return Change{op: opAdd, path: pathOf(a), value: v} }

// Delete is DELETE a :v: removes the elements of the set v from the set a.
// A single element is sent as a one-element set.
func Delete[A Attribute](a A, v any) Change { return Change{op: opDelete, path: pathOf(a), value: v} }

// Append is SET a = list_append(a, :v): the elements of the list v go after
// a's.
func Append[A Attribute](a A, list any) Change {
	return Change{op: opAppend, path: pathOf(a), value: list}
}

// Prepend is SET a = list_append(:v, a): the elements of the list v go
// before a's.
func Prepend[A Attribute](a A, list any) Change {
	return Change{op: opPrepend, path: pathOf(a), value: list}
}

// IfNotExists is SET a = if_not_exists(a, :v): v is written only when a is
// absent.
func IfNotExists[A Attribute](a A, v any) Change {
	return Change{op: opIfNotExists, path: pathOf(a), value: v}
}

// RawUpdate is a whole update expression written by hand, with its own
// placeholders (see RawCond for names and values). It cannot be combined with
// other changes in one update.
func RawUpdate(text string, names map[string]string, values map[string]any) Change {
	return Change{op: opRaw, raw: &Raw{Text: text, Names: names, Values: values}}
}
