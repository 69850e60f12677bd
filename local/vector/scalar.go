package vector

import (
	"strconv"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/internal/avtype"
	"github.com/dynamogo/dynamo/internal/numbers"
)

// A scalar's equality key: its type letter and its value, numbers in
// canonical form so that 1 and 1.0 are one partition and match one filter.
// The empty string means "absent"; no present value encodes to it.

// scalarKey returns the equality key of av and its type letter ("S", "N",
// "B", or the name of another type with ok false). A number that does not
// parse is not ok either.
func scalarKey(av types.AttributeValue) (key string, typ string, ok bool) {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return "S" + v.Value, "S", true
	case *types.AttributeValueMemberN:
		c, err := numbers.Canonical(v.Value)
		if err != nil {
			return "", "N", false
		}
		return "N" + c, "N", true
	case *types.AttributeValueMemberB:
		return "B" + string(v.Value), "B", true
	default:
		return "", typeName(av), false
	}
}

// typeName is the attribute value's DynamoDB type descriptor.
func typeName(av types.AttributeValue) string {
	if t := avtype.Of(av); t != "" {
		return t
	}
	return "unknown"
}

// isEmptyScalar reports an empty string or empty binary, which a HASH value
// may not be (it is a secondary index key).
func isEmptyScalar(av types.AttributeValue) bool {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return v.Value == ""
	case *types.AttributeValueMemberB:
		return len(v.Value) == 0
	}
	return false
}

// parseFloat32 reads a DynamoDB number as the float32 the index keeps.
// syntax is false when s is not a DynamoDB number at all; inRange is false
// when it is but lies outside ±math.MaxFloat32 (after rounding to float32).
func parseFloat32(s string) (f float32, syntax, inRange bool) {
	// numbers.Parse owns DynamoDB's number syntax; strconv alone would also
	// take "Inf", "NaN", hex floats and underscores.
	if _, err := numbers.Parse(s); err != nil {
		return 0, false, false
	}
	v, err := strconv.ParseFloat(s, 32)
	if err != nil {
		return 0, true, false // ErrRange: rounds beyond the float32 range
	}
	return float32(v), true, true
}

// parseStoredFloat32 is parseFloat32 for numbers of an item the server has
// already validated as DynamoDB numbers: a plain decimal goes straight to
// strconv (which would also take "Inf", "NaN" and hex floats, hence the
// character check); anything else takes the full path.
func parseStoredFloat32(s string) (f float32, syntax, inRange bool) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c == '.', c == '-', c == '+', c == 'e', c == 'E':
		default:
			return parseFloat32(s)
		}
	}
	v, err := strconv.ParseFloat(s, 32)
	if err == nil {
		return float32(v), true, true
	}
	return parseFloat32(s)
}

// FormatFloat32 is the text of an index's float32 copy of a vector element
// as SearchVectors returns it: the shortest decimal that reads back as the
// same float32, always with a fractional part ("1" comes back as "1.0"),
// in exponent form below 1e-4 and from 1e16 on (spec/vector-search.md 2.4;
// the search plane formats as Rust's {:?} does).
func FormatFloat32(f float32) string {
	return string(appendFloat32(nil, f))
}

func appendFloat32(dst []byte, f float32) []byte {
	if f == 0 {
		return append(dst, "0.0"...) // no "-0.0": DynamoDB numbers have no negative zero
	}
	a := f
	if a < 0 {
		a = -a
	}
	if a >= 1e16 || a < 1e-4 {
		// Rust's shortest exponent form: "1e20", "1.5e-7", "3.4028235e38".
		b := strconv.AppendFloat(dst, float64(f), 'e', -1, 32)
		out := b[:len(dst)]
		for i := len(dst); i < len(b); i++ {
			c := b[i]
			if c == 'e' {
				out = append(out, 'e')
				i++
				if b[i] == '-' {
					out = append(out, '-')
				}
				i++
				for i < len(b) && b[i] == '0' && i+1 < len(b) {
					i++
				}
				out = append(out, b[i:]...)
				break
			}
			out = append(out, c)
		}
		return out
	}
	n := len(dst)
	dst = strconv.AppendFloat(dst, float64(f), 'f', -1, 32)
	for _, c := range dst[n:] {
		if c == '.' {
			return dst
		}
	}
	return append(dst, ".0"...)
}
