package avtype

import (
	"bytes"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/internal/numbers"
)

// Equal is DynamoDB's = on attribute values: the same type and the same
// value, numbers compared by numeric value ("1" = "1.0"), sets regardless of
// order, lists element by element, maps key by key. A nil or unknown member
// equals nothing.
//
// It is the meaning of equality the expression engine and the vector index
// share; the server's write path compares stored values more cheaply
// (local/write.go equalValues) on purpose.
func Equal(a, b types.AttributeValue) bool {
	switch x := a.(type) {
	case *types.AttributeValueMemberS:
		y, ok := b.(*types.AttributeValueMemberS)
		return ok && x.Value == y.Value
	case *types.AttributeValueMemberN:
		y, ok := b.(*types.AttributeValueMemberN)
		return ok && NumbersEqual(x.Value, y.Value)
	case *types.AttributeValueMemberB:
		y, ok := b.(*types.AttributeValueMemberB)
		return ok && bytes.Equal(x.Value, y.Value)
	case *types.AttributeValueMemberBOOL:
		y, ok := b.(*types.AttributeValueMemberBOOL)
		return ok && x.Value == y.Value
	case *types.AttributeValueMemberNULL:
		// DynamoDB only accepts NULL: true, so any two NULLs are equal.
		_, ok := b.(*types.AttributeValueMemberNULL)
		return ok
	case *types.AttributeValueMemberSS:
		y, ok := b.(*types.AttributeValueMemberSS)
		return ok && sameSet(x.Value, y.Value, func(s string) string { return s })
	case *types.AttributeValueMemberNS:
		y, ok := b.(*types.AttributeValueMemberNS)
		return ok && sameSet(x.Value, y.Value, numberKey)
	case *types.AttributeValueMemberBS:
		y, ok := b.(*types.AttributeValueMemberBS)
		return ok && sameSet(x.Value, y.Value, func(b []byte) string { return string(b) })
	case *types.AttributeValueMemberL:
		y, ok := b.(*types.AttributeValueMemberL)
		return ok && slices.EqualFunc(x.Value, y.Value, Equal)
	case *types.AttributeValueMemberM:
		y, ok := b.(*types.AttributeValueMemberM)
		return ok && EqualItems(x.Value, y.Value)
	}
	return false
}

// EqualItems reports whether two items (or maps) hold the same attribute
// names with Equal values.
func EqualItems(a, b map[string]types.AttributeValue) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || !Equal(v, w) {
			return false
		}
	}
	return true
}

// NumbersEqual compares two DynamoDB number texts by value; a text that does
// not parse equals only itself.
func NumbersEqual(a, b string) bool {
	if a == b {
		return true
	}
	x, err := numbers.Parse(a)
	if err != nil {
		return false
	}
	y, err := numbers.Parse(b)
	return err == nil && numbers.Compare(x, y) == 0
}

// numberKey is a set element's canonical text, so that numerically equal
// elements get one key; a text that does not parse is its own key.
func numberKey(s string) string {
	if c, err := numbers.Canonical(s); err == nil {
		return c
	}
	return s
}

// sameSet compares two sets as multisets of key(element), ignoring order.
func sameSet[E any](a, b []E, key func(E) string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := make(map[string]int, len(a))
	for _, e := range a {
		seen[key(e)]++
	}
	for _, e := range b {
		k := key(e)
		if seen[k] == 0 {
			return false
		}
		seen[k]--
	}
	return true
}
