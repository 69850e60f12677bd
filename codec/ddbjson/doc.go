// Package ddbjson converts between DynamoDB JSON, the wire form of attribute values
// ({"S":"x"}, {"N":"1"}, {"B":"<base64>"}, {"BOOL":true}, {"NULL":true}, {"M":{…}}, {"L":[…]},
// {"SS":[…]}, {"NS":[…]}, {"BS":[…]}), and types.AttributeValue of aws-sdk-go-v2.
//
// It is structural only: a number stays the exact string that was sent (validate it with
// internal/numbers), {"NULL":false} decodes to NULL{Value: false}, and emptiness rules are left
// to the caller. What is not DynamoDB JSON is a [*SyntaxError] whose message is the one DynamoDB
// gives where that is known ("NUMBER_VALUE cannot be converted to String", "Start of structure or
// map found where not expected", "Base64 encoded length is expected a multiple of 4 bytes but
// found: 5", …): wrong JSON types, invalid base64, malformed JSON, trailing data, nesting deeper
// than [MaxDepth]. A value object with no type or several types is a *SyntaxError with
// Validation set (DynamoDB answers those with a ValidationException).
//
// Like DynamoDB's JSON layer, the decoder skips member names it does not know (after checking
// that their values are well-formed JSON) and treats a null member as absent: {"X":"a"} and
// {"S":null} are empty values, {"S":"x","X":1} is {"S":"x"}. The dynalite test suite, which
// was checked against the service, expects exactly this ({"a":""} → "Supplied AttributeValue
// is empty, must contain exactly one of the supported datatypes").
//
// Encoding is deterministic: map keys are sorted, set and list elements keep their order, and
// strings are escaped byte for byte as aws-sdk-go-v2 escapes them (see [AppendValue]), so the
// bytes can be compared in golden tests and hashed.
//
// The decoder is a hand-written scanner (no reflection); the encoder appends to a caller's
// buffer. [Value], [Item] and [List] plug both into encoding/json structs.
package ddbjson
