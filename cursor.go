package dynamo

import (
	"encoding/base64"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/codec/ddbjson"
)

// Cursor is an opaque, serialisable position in a query or scan: DynamoDB's
// LastEvaluatedKey as URL-safe base64 of its DynamoDB JSON. The empty Cursor
// means "from the start" as input and "no more pages" in a [Page]. Pass it
// back with [StartAfter]; it can go into a URL or a JSON response as is.
//
// A cursor holds key attribute values: treat it like the keys themselves
// (don't hand it to clients that may not see them).
type Cursor string

// CursorFromKey encodes a LastEvaluatedKey. A nil or empty key gives "".
func CursorFromKey(key map[string]types.AttributeValue) (Cursor, error) {
	if len(key) == 0 {
		return "", nil
	}
	b, err := ddbjson.MarshalItem(key)
	if err != nil {
		return "", &Error{Type: TypeDecode, Message: "cursor: " + err.Error(), cause: err}
	}
	return Cursor(base64.RawURLEncoding.EncodeToString(b)), nil
}

// ParseCursor checks that s is a cursor this package produced.
func ParseCursor(s string) (Cursor, error) {
	c := Cursor(s)
	if _, err := c.Key(); err != nil {
		return "", err
	}
	return c, nil
}

// Key decodes the cursor back into DynamoDB's key map (nil for "").
func (c Cursor) Key() (map[string]types.AttributeValue, error) {
	if c == "" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(string(c))
	if err != nil {
		return nil, invalidf("", "invalid cursor: not base64url")
	}
	key, err := ddbjson.UnmarshalItem(b)
	if err != nil || len(key) == 0 {
		return nil, invalidf("", "invalid cursor: not a DynamoDB key")
	}
	return key, nil
}

// String returns the cursor text.
func (c Cursor) String() string { return string(c) }
