package vector

import (
	"bytes"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/internal/numbers"
)

// equalItems reports whether two items hold the same attributes with equal
// values (numbers by value, sets regardless of order).
func equalItems(a, b Item) bool {
	if len(a) != len(b) {
		return false
	}
	for k, av := range a {
		bv, ok := b[k]
		if !ok || !equalValues(av, bv) {
			return false
		}
	}
	return true
}

func equalValues(a, b types.AttributeValue) bool {
	switch x := a.(type) {
	case *types.AttributeValueMemberS:
		y, ok := b.(*types.AttributeValueMemberS)
		return ok && x.Value == y.Value
	case *types.AttributeValueMemberN:
		y, ok := b.(*types.AttributeValueMemberN)
		return ok && equalNumbers(x.Value, y.Value)
	case *types.AttributeValueMemberB:
		y, ok := b.(*types.AttributeValueMemberB)
		return ok && bytes.Equal(x.Value, y.Value)
	case *types.AttributeValueMemberBOOL:
		y, ok := b.(*types.AttributeValueMemberBOOL)
		return ok && x.Value == y.Value
	case *types.AttributeValueMemberNULL:
		y, ok := b.(*types.AttributeValueMemberNULL)
		return ok && x.Value == y.Value
	case *types.AttributeValueMemberL:
		y, ok := b.(*types.AttributeValueMemberL)
		return ok && slices.EqualFunc(x.Value, y.Value, equalValues)
	case *types.AttributeValueMemberM:
		y, ok := b.(*types.AttributeValueMemberM)
		return ok && equalItems(x.Value, y.Value)
	case *types.AttributeValueMemberSS:
		y, ok := b.(*types.AttributeValueMemberSS)
		return ok && sameSet(x.Value, y.Value, func(s string) string { return s })
	case *types.AttributeValueMemberNS:
		y, ok := b.(*types.AttributeValueMemberNS)
		return ok && sameSet(x.Value, y.Value, func(s string) string {
			if c, err := numbers.Canonical(s); err == nil {
				return c
			}
			return s
		})
	case *types.AttributeValueMemberBS:
		y, ok := b.(*types.AttributeValueMemberBS)
		return ok && sameSet(x.Value, y.Value, func(b []byte) string { return string(b) })
	}
	return false
}

func equalNumbers(a, b string) bool {
	if a == b {
		return true
	}
	x, err1 := numbers.Parse(a)
	y, err2 := numbers.Parse(b)
	return err1 == nil && err2 == nil && numbers.Compare(x, y) == 0
}

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
