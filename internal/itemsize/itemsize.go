package itemsize

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/internal/numbers"
)

// Item is the size of an item: each attribute's name length plus its value's
// size.
func Item(item map[string]types.AttributeValue) int {
	n := 0
	for k, v := range item {
		n += len(k) + Value(v)
	}
	return n
}

// Value is the size of one attribute value (without its name).
func Value(av types.AttributeValue) int {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return len(v.Value)
	case *types.AttributeValueMemberB:
		return len(v.Value)
	case *types.AttributeValueMemberN:
		return Number(v.Value)
	case *types.AttributeValueMemberBOOL, *types.AttributeValueMemberNULL:
		return 1
	case *types.AttributeValueMemberSS:
		n := 0
		for _, s := range v.Value {
			n += len(s)
		}
		return n
	case *types.AttributeValueMemberNS:
		n := 0
		for _, s := range v.Value {
			n += Number(s)
		}
		return n
	case *types.AttributeValueMemberBS:
		n := 0
		for _, b := range v.Value {
			n += len(b)
		}
		return n
	case *types.AttributeValueMemberM:
		n := 3
		for k, e := range v.Value {
			n += 1 + len(k) + Value(e)
		}
		return n
	case *types.AttributeValueMemberL:
		n := 3
		for _, e := range v.Value {
			n += 1 + Value(e)
		}
		return n
	}
	return 0
}

// Number is the size of a number given as text: numbers.Dec.Size of its
// value. Text that is not a valid number counts its length, so a caller that
// has not validated yet still gets a bound.
func Number(s string) int {
	// Fast path for plain decimals (stored numbers are canonical): count the
	// digits between the first and last nonzero ones.
	first, last, digits, plain := -1, -1, 0, true
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '1' && c <= '9':
			if first < 0 {
				first = digits
			}
			last = digits
			digits++
		case c == '0':
			digits++
		case c == '-' && i == 0, c == '.':
		default:
			plain = false
		}
	}
	if plain && digits <= numbers.MaxDigits {
		if first < 0 {
			return 1 // zero
		}
		return (last-first+1+1)/2 + 1
	}
	d, err := numbers.Parse(s)
	if err != nil {
		return len(s)
	}
	return d.Size()
}
