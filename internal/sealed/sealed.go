// Package sealed holds the markers that let a change built by package expr
// be an argument of the update builders of package request, beside their
// options, while neither package can implement the other's unexported
// methods. Only types of this module can embed them.
package sealed

// Update marks an argument of Update: a change or an update option.
type Update struct{}

func (Update) updateArg() {}

// UpdateArg is implemented by every type that embeds Update.
type UpdateArg interface{ updateArg() }

// TxUpdate marks an argument of a transaction's Update.
type TxUpdate struct{}

func (TxUpdate) txUpdateArg() {}

// TxUpdateArg is implemented by every type that embeds TxUpdate.
type TxUpdateArg interface{ txUpdateArg() }
