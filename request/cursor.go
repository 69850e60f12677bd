package request

import (
	"encoding/base64"
	"errors"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/codec/ddbjson"
)

// EncodeCursor turns a page's LastEvaluatedKey into an opaque, serialisable
// cursor: URL-safe base64 of its DynamoDB JSON. A nil or empty key gives "",
// which means "no more pages".
//
// A cursor holds key attribute values: treat it like the keys themselves.
func EncodeCursor(key map[string]types.AttributeValue) (string, error) {
	if len(key) == 0 {
		return "", nil
	}
	b, err := ddbjson.MarshalItem(key)
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// DecodeCursor is the inverse of EncodeCursor ("" gives nil). Anything
// EncodeCursor did not produce is an error.
func DecodeCursor(cursor string) (map[string]types.AttributeValue, error) {
	if cursor == "" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return nil, errors.New("invalid cursor: not base64url")
	}
	key, err := ddbjson.UnmarshalItem(b)
	if err != nil || len(key) == 0 {
		return nil, errors.New("invalid cursor: not a DynamoDB key")
	}
	return key, nil
}
