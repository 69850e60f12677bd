package storage

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/internal/numbers"
)

// AppendKey appends the order-preserving encoding of a key attribute value:
// S as its UTF-8 bytes, B as its bytes, N as numbers.AppendKey of its value,
// so bytes.Compare on encodings is DynamoDB's key order for values of one
// type. The encoding is not self-delimiting: use it for the last component
// of a composite key, and AppendKeyPart for the others.
func AppendKey(dst []byte, av types.AttributeValue) ([]byte, error) {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return append(dst, v.Value...), nil
	case *types.AttributeValueMemberB:
		return append(dst, v.Value...), nil
	case *types.AttributeValueMemberN:
		d, err := numbers.Parse(v.Value)
		if err != nil {
			return dst, err
		}
		return numbers.AppendKey(dst, d), nil
	default:
		return dst, fmt.Errorf("storage: key attribute of type %T", av)
	}
}

// AppendKeyPart appends a self-delimiting, order-preserving encoding of a key
// attribute value: AppendKey's bytes with 0x00 escaped as 0x00 0xFF, followed
// by the terminator 0x00 0x01. Concatenations of parts compare as tuples.
func AppendKeyPart(dst []byte, av types.AttributeValue) ([]byte, error) {
	start := len(dst)
	dst, err := AppendKey(dst, av)
	if err != nil {
		return dst, err
	}
	return append(escapeFrom(dst, start), 0x00, 0x01), nil
}

// AppendEscaped appends b escaped as AppendKeyPart does, without the
// terminator: a prefix of every part whose value starts with b.
func AppendEscaped(dst, b []byte) []byte {
	for _, c := range b {
		if c == 0 {
			dst = append(dst, 0x00, 0xFF)
		} else {
			dst = append(dst, c)
		}
	}
	return dst
}

func escapeFrom(dst []byte, start int) []byte {
	zeros := 0
	for _, c := range dst[start:] {
		if c == 0 {
			zeros++
		}
	}
	if zeros == 0 {
		return dst
	}
	raw := append([]byte(nil), dst[start:]...)
	return AppendEscaped(dst[:start], raw)
}
