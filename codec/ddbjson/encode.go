package ddbjson

import (
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/internal/jsonscan"
)

// Marshal returns the DynamoDB JSON encoding of av.
func Marshal(av types.AttributeValue) ([]byte, error) {
	return AppendValue(nil, av)
}

// AppendValue appends the DynamoDB JSON encoding of av to dst. Map keys are written in
// ascending byte order, set and list elements in the order given, so equal values always give
// equal bytes. A nil value anywhere, or a type other than the ten AttributeValueMember types, is
// an error naming where it is.
func AppendValue(dst []byte, av types.AttributeValue) ([]byte, error) {
	e := encoder{buf: dst}
	if err := e.value(av, 0); err != nil {
		return dst, err
	}
	return e.buf, nil
}

// MarshalItem returns the encoding of an item: a JSON object of attribute names to values,
// keys sorted.
func MarshalItem(item map[string]types.AttributeValue) ([]byte, error) {
	return AppendItem(nil, item)
}

// AppendItem appends the encoding of item (see MarshalItem) to dst. A nil item is "{}".
func AppendItem(dst []byte, item map[string]types.AttributeValue) ([]byte, error) {
	e := encoder{buf: dst}
	if err := e.item(item, 0); err != nil {
		return dst, err
	}
	return e.buf, nil
}

// AppendList appends a JSON array of values, in order.
func AppendList(dst []byte, list []types.AttributeValue) ([]byte, error) {
	e := encoder{buf: dst}
	if err := e.list(list, 0); err != nil {
		return dst, err
	}
	return e.buf, nil
}

// EncodeError reports a value that cannot be encoded; Path locates it ("M.a.L[2]").
type EncodeError struct {
	Path string
	Msg  string
}

func (e *EncodeError) Error() string {
	if e.Path == "" {
		return "ddbjson: " + e.Msg
	}
	return "ddbjson: " + e.Path + ": " + e.Msg
}

// within prefixes err's path with seg.
func within(err error, seg string) error {
	var ee *EncodeError
	if errors.As(err, &ee) {
		switch {
		case ee.Path == "":
			ee.Path = seg
		case ee.Path[0] == '[':
			ee.Path = seg + ee.Path
		default:
			ee.Path = seg + "." + ee.Path
		}
	}
	return err
}

type encoder struct{ buf []byte }

func (e *encoder) value(av types.AttributeValue, depth int) error {
	if depth >= MaxDepth {
		return &EncodeError{Msg: "nesting depth exceeds " + strconv.Itoa(MaxDepth)}
	}
	// A typed nil of a member type is an error (checked in the switch that
	// encodes, rather than in a second one before it).
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		if v == nil {
			return nilMember(av)
		}
		e.buf = append(e.buf, `{"S":`...)
		e.buf = appendString(e.buf, v.Value)
	case *types.AttributeValueMemberN:
		if v == nil {
			return nilMember(av)
		}
		e.buf = append(e.buf, `{"N":`...)
		e.buf = appendString(e.buf, v.Value)
	case *types.AttributeValueMemberB:
		if v == nil {
			return nilMember(av)
		}
		e.buf = append(e.buf, `{"B":`...)
		e.buf = appendBase64(e.buf, v.Value)
	case *types.AttributeValueMemberBOOL:
		if v == nil {
			return nilMember(av)
		}
		if v.Value {
			e.buf = append(e.buf, `{"BOOL":true`...)
		} else {
			e.buf = append(e.buf, `{"BOOL":false`...)
		}
	case *types.AttributeValueMemberNULL:
		if v == nil {
			return nilMember(av)
		}
		if v.Value {
			e.buf = append(e.buf, `{"NULL":true`...)
		} else {
			e.buf = append(e.buf, `{"NULL":false`...)
		}
	case *types.AttributeValueMemberSS:
		if v == nil {
			return nilMember(av)
		}
		e.buf = append(e.buf, `{"SS":`...)
		e.buf = appendStrings(e.buf, v.Value)
	case *types.AttributeValueMemberNS:
		if v == nil {
			return nilMember(av)
		}
		e.buf = append(e.buf, `{"NS":`...)
		e.buf = appendStrings(e.buf, v.Value)
	case *types.AttributeValueMemberBS:
		if v == nil {
			return nilMember(av)
		}
		e.buf = append(e.buf, `{"BS":[`...)
		for i, b := range v.Value {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.buf = appendBase64(e.buf, b)
		}
		e.buf = append(e.buf, ']')
	case *types.AttributeValueMemberL:
		if v == nil {
			return nilMember(av)
		}
		e.buf = append(e.buf, `{"L":`...)
		if err := e.list(v.Value, depth); err != nil {
			return within(err, "L")
		}
	case *types.AttributeValueMemberM:
		if v == nil {
			return nilMember(av)
		}
		e.buf = append(e.buf, `{"M":`...)
		if err := e.item(v.Value, depth); err != nil {
			return within(err, "M")
		}
	case nil:
		return &EncodeError{Msg: "nil AttributeValue"}
	default:
		return &EncodeError{Msg: fmt.Sprintf("unsupported AttributeValue type %T", av)}
	}
	e.buf = append(e.buf, '}')
	return nil
}

func nilMember(av types.AttributeValue) error {
	return &EncodeError{Msg: fmt.Sprintf("nil %T", av)}
}

func (e *encoder) list(l []types.AttributeValue, depth int) error {
	e.buf = append(e.buf, '[')
	for i, av := range l {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		if err := e.value(av, depth+1); err != nil {
			return within(err, "["+strconv.Itoa(i)+"]")
		}
	}
	e.buf = append(e.buf, ']')
	return nil
}

func (e *encoder) item(m map[string]types.AttributeValue, depth int) error {
	// The members are collected with their values and sorted together, so
	// that no key is looked up again.
	var arr [16]member
	members := arr[:0]
	for k, v := range m {
		members = append(members, member{k, v})
	}
	sortMembers(members)
	e.buf = append(e.buf, '{')
	for i, kv := range members {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = appendString(e.buf, kv.name)
		e.buf = append(e.buf, ':')
		if err := e.value(kv.av, depth+1); err != nil {
			return within(err, kv.name)
		}
	}
	e.buf = append(e.buf, '}')
	return nil
}

// nameLess is a < b, deciding on the first byte when it differs, as it
// does for most attribute names, without calling the runtime.
func nameLess(a, b string) bool {
	if len(a) > 0 && len(b) > 0 && a[0] != b[0] {
		return a[0] < b[0]
	}
	return a < b
}

// sortMembers sorts by name in byte order: by insertion for the few members
// of most items, else with the standard library.
func sortMembers(ms []member) {
	if len(ms) > 12 {
		slices.SortFunc(ms, func(a, b member) int { return strings.Compare(a.name, b.name) })
		return
	}
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && nameLess(ms[j].name, ms[j-1].name); j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}

// AppendString appends s as a JSON string escaped as every string of this
// package's encodings is (see appendString): for writers of DynamoDB JSON
// that do not start from an AttributeValue.
func AppendString(dst []byte, s string) []byte { return appendString(dst, s) }

func appendStrings(dst []byte, ss []string) []byte {
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, s)
	}
	return append(dst, ']')
}

func appendBase64(dst []byte, b []byte) []byte {
	dst = append(dst, '"')
	dst = base64.StdEncoding.AppendEncode(dst, b)
	return append(dst, '"')
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string, escaped exactly as aws-sdk-go-v2 (smithy-go's JSON
// shape serializer, v1.28) escapes request strings: '"' and '\\' with a backslash; \n, \r, \t
// as such; other bytes below 0x20 as \u00XX (lower-case hex; \b and \f too); U+2028 and U+2029
// as \u2028 and \u2029; DEL as \u007f; each byte of invalid UTF-8 as U+FFFD. Nothing else is
// escaped: no HTML escaping of '<', '>' or '&' (unlike encoding/json's default), and valid
// non-ASCII text is written as is. So this encoder and the SDK produce the same bytes for the same
// strings.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := jsonscan.Plain(s, 0); i < len(s); {
		c := s[i]
		if plainASCII[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\uFFFD"...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
