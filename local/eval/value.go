package eval

import (
	"bytes"
	"encoding/base64"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/internal/avtype"
	"github.com/dynamogo/dynamo/internal/numbers"
)

// enumName is the type's name in DynamoDB's ADD/DELETE operand messages.
func enumName(t string) string {
	switch t {
	case "S":
		return "STRING"
	case "N":
		return "NUMBER"
	case "B":
		return "BINARY"
	case "BOOL":
		return "BOOLEAN"
	case "NULL":
		return "NULL"
	case "M":
		return "MAP"
	case "L":
		return "LIST"
	case "SS":
		return "STRING_SET"
	case "NS":
		return "NUMBER_SET"
	case "BS":
		return "BINARY_SET"
	}
	return t
}

func isSetType(t string) bool { return t == "SS" || t == "NS" || t == "BS" }

// describe renders av as DynamoDB does in BETWEEN messages:
// "AttributeValue: {N:5}".
func describe(av types.AttributeValue) string {
	var s string
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		s = v.Value
	case *types.AttributeValueMemberN:
		s = v.Value
	case *types.AttributeValueMemberB:
		s = base64.StdEncoding.EncodeToString(v.Value)
	default:
		s = "..."
	}
	return "AttributeValue: {" + avtype.Of(av) + ":" + s + "}"
}

func setHas[T any](set []T, x T, eq func(T, T) bool) bool {
	for _, y := range set {
		if eq(x, y) {
			return true
		}
	}
	return false
}

// order compares a and b for <, <=, >, >= and BETWEEN. Only two values of
// the same scalar type S, N or B have an order: strings and binaries compare
// bytewise (UTF-8 for strings), numbers numerically. ok is false otherwise.
func order(a, b types.AttributeValue) (c int, ok bool) {
	switch x := a.(type) {
	case *types.AttributeValueMemberS:
		if y, ok := b.(*types.AttributeValueMemberS); ok {
			return strings.Compare(x.Value, y.Value), true
		}
	case *types.AttributeValueMemberN:
		if y, ok := b.(*types.AttributeValueMemberN); ok {
			return numCompare(x.Value, y.Value)
		}
	case *types.AttributeValueMemberB:
		if y, ok := b.(*types.AttributeValueMemberB); ok {
			return bytes.Compare(x.Value, y.Value), true
		}
	}
	return 0, false
}

func numCompare(a, b string) (int, bool) {
	x, err := numbers.Parse(a)
	if err != nil {
		return 0, false
	}
	y, err := numbers.Parse(b)
	if err != nil {
		return 0, false
	}
	return numbers.Compare(x, y), true
}

// size is DynamoDB's size(): the length of a string in UTF-16 code units
// (as a Java string counts it: size("é𝄞") is 3, verified against DynamoDB,
// although items store strings as UTF-8), of a binary in bytes, and the
// number of elements of a set, list or map. Numbers, booleans and NULL have
// no size.
func size(av types.AttributeValue) (int, bool) {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return utf16Len(v.Value), true
	case *types.AttributeValueMemberB:
		return len(v.Value), true
	case *types.AttributeValueMemberSS:
		return len(v.Value), true
	case *types.AttributeValueMemberNS:
		return len(v.Value), true
	case *types.AttributeValueMemberBS:
		return len(v.Value), true
	case *types.AttributeValueMemberL:
		return len(v.Value), true
	case *types.AttributeValueMemberM:
		return len(v.Value), true
	}
	return 0, false
}

// beginsWith: a string prefix of a string, or a binary prefix of a binary.
func beginsWith(a, prefix types.AttributeValue) bool {
	switch x := a.(type) {
	case *types.AttributeValueMemberS:
		p, ok := prefix.(*types.AttributeValueMemberS)
		return ok && strings.HasPrefix(x.Value, p.Value)
	case *types.AttributeValueMemberB:
		p, ok := prefix.(*types.AttributeValueMemberB)
		return ok && bytes.HasPrefix(x.Value, p.Value)
	}
	return false
}

// contains: a substring of a string or a binary, an element of a set (of
// the set's element type), or an element of a list.
func contains(a, x types.AttributeValue) bool {
	switch v := a.(type) {
	case *types.AttributeValueMemberS:
		s, ok := x.(*types.AttributeValueMemberS)
		return ok && strings.Contains(v.Value, s.Value)
	case *types.AttributeValueMemberB:
		b, ok := x.(*types.AttributeValueMemberB)
		return ok && bytes.Contains(v.Value, b.Value)
	case *types.AttributeValueMemberSS:
		s, ok := x.(*types.AttributeValueMemberS)
		return ok && setHas(v.Value, s.Value, func(a, b string) bool { return a == b })
	case *types.AttributeValueMemberNS:
		n, ok := x.(*types.AttributeValueMemberN)
		return ok && setHas(v.Value, n.Value, avtype.NumbersEqual)
	case *types.AttributeValueMemberBS:
		b, ok := x.(*types.AttributeValueMemberB)
		return ok && setHas(v.Value, b.Value, bytes.Equal)
	case *types.AttributeValueMemberL:
		for _, e := range v.Value {
			if avtype.Equal(e, x) {
				return true
			}
		}
	}
	return false
}

// checkValue validates an ExpressionAttributeValues entry the way DynamoDB
// validates any attribute value it is sent; "" when it is valid.
func checkValue(av types.AttributeValue) string {
	const invalid = "One or more parameter values were invalid: "
	switch v := av.(type) {
	case *types.AttributeValueMemberS, *types.AttributeValueMemberB, *types.AttributeValueMemberBOOL:
		if s, ok := av.(*types.AttributeValueMemberS); ok && !utf8.ValidString(s.Value) {
			return invalid + "A string value must be valid UTF-8"
		}
		return ""
	case *types.AttributeValueMemberN:
		if _, err := numbers.Parse(v.Value); err != nil {
			return numMsg(err)
		}
	case *types.AttributeValueMemberNULL:
		if !v.Value {
			return invalid + "Null attribute value types must have the value of true"
		}
	case *types.AttributeValueMemberSS:
		if len(v.Value) == 0 {
			return invalid + "An string set  may not be empty"
		}
		for i, s := range v.Value {
			if setHas(v.Value[:i], s, func(a, b string) bool { return a == b }) {
				return invalid + "Input collection " + listText(v.Value) + " contains duplicates."
			}
		}
	case *types.AttributeValueMemberNS:
		if len(v.Value) == 0 {
			return invalid + "An number set  may not be empty"
		}
		for i, s := range v.Value {
			if _, err := numbers.Parse(s); err != nil {
				return numMsg(err)
			}
			if setHas(v.Value[:i], s, avtype.NumbersEqual) {
				return "Input collection contains duplicates" // sic: unlike SS and BS
			}
		}
	case *types.AttributeValueMemberBS:
		if len(v.Value) == 0 {
			return invalid + "Binary sets should not be empty" // sic: not "An binary set  may not be empty"
		}
		for i, b := range v.Value {
			if setHas(v.Value[:i], b, bytes.Equal) {
				return invalid + "Input collection of type BS contains duplicates."
			}
		}
	case *types.AttributeValueMemberL:
		for _, e := range v.Value {
			if msg := checkValue(e); msg != "" {
				return msg
			}
		}
	case *types.AttributeValueMemberM:
		for k, e := range v.Value {
			if msg := checkValue(e); msg != "" {
				return msg
			}
			if k == "" {
				return "Empty attribute name"
			}
		}
	default:
		return "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"
	}
	return ""
}

func listText(ss []string) string { return "[" + strings.Join(ss, ", ") + "]" }

func numMsg(err error) string {
	if ne, ok := err.(*numbers.Error); ok {
		return ne.Msg
	}
	return err.Error()
}

// utf16Len is the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := len(s)
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			n = 0
			for _, r := range s {
				n++
				if r >= 0x10000 {
					n++ // a surrogate pair
				}
			}
			return n
		}
	}
	return n
}
