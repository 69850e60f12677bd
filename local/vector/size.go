package vector

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/internal/numbers"
)

// valueSize is an attribute value's size as DynamoDB counts it for item
// size ("Item sizes and formats" in the developer guide; the same rule as
// the server's item size, which lives in package local): strings and
// binaries by length, numbers one byte per two significant digits plus one,
// BOOL and NULL one byte, lists and maps three bytes plus one per element
// plus their contents, sets the sum of their elements. Only the capacity and
// size figures of the index use it.
func valueSize(av types.AttributeValue) int {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return len(v.Value)
	case *types.AttributeValueMemberN:
		return numberSize(v.Value)
	case *types.AttributeValueMemberB:
		return len(v.Value)
	case *types.AttributeValueMemberBOOL, *types.AttributeValueMemberNULL:
		return 1
	case *types.AttributeValueMemberL:
		n := 3
		for _, e := range v.Value {
			n += 1 + valueSize(e)
		}
		return n
	case *types.AttributeValueMemberM:
		n := 3
		for k, e := range v.Value {
			n += 1 + len(k) + valueSize(e)
		}
		return n
	case *types.AttributeValueMemberSS:
		n := 0
		for _, s := range v.Value {
			n += len(s)
		}
		return n
	case *types.AttributeValueMemberNS:
		n := 0
		for _, s := range v.Value {
			n += numberSize(s)
		}
		return n
	case *types.AttributeValueMemberBS:
		n := 0
		for _, b := range v.Value {
			n += len(b)
		}
		return n
	}
	return 0
}

func numberSize(s string) int {
	d, err := numbers.Parse(s)
	if err != nil {
		return len(s)
	}
	return d.Size()
}
