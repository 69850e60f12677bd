package avtype

import "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

// KeyID identifies the item of table whose key attributes (pk, and sk
// unless empty) item holds, as type-tagged text: the same for a key built
// by the library and for the item DynamoDB returns, so that duplicates and
// answers can be matched to their requests. Key values are scalars.
func KeyID(table string, item map[string]types.AttributeValue, pk, sk string) string {
	id := table + "\x00" + scalarID(item[pk])
	if sk != "" {
		id += "\x00" + scalarID(item[sk])
	}
	return id
}

func scalarID(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return "S" + v.Value
	case *types.AttributeValueMemberN:
		return "N" + v.Value
	case *types.AttributeValueMemberB:
		return "B" + string(v.Value)
	}
	return "?"
}
