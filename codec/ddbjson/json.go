package ddbjson

import "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

// Value wraps one attribute value so it can sit in a struct handled by encoding/json:
//
//	var req struct {
//		Key          ddbjson.Item
//		ExclusiveKey ddbjson.Item  `json:",omitempty"`
//		Default      ddbjson.Value `json:",omitzero"`
//	}
//
// A nil value marshals as null (omitzero leaves it out), and null unmarshals to a nil value.
type Value struct{ types.AttributeValue }

// MarshalJSON implements json.Marshaler.
func (v Value) MarshalJSON() ([]byte, error) {
	if v.AttributeValue == nil {
		return []byte("null"), nil
	}
	return Marshal(v.AttributeValue)
}

// UnmarshalJSON implements json.Unmarshaler. Errors are *SyntaxError.
func (v *Value) UnmarshalJSON(data []byte) error {
	if isNullLiteral(data) {
		return nil
	}
	av, err := Unmarshal(data)
	if err != nil {
		return err
	}
	v.AttributeValue = av
	return nil
}

// Item is an item (or key, or ExpressionAttributeValues) for encoding/json. A nil Item
// marshals as null (use omitempty to leave it out); null unmarshals to a nil Item.
type Item map[string]types.AttributeValue

// MarshalJSON implements json.Marshaler with sorted keys.
func (it Item) MarshalJSON() ([]byte, error) {
	if it == nil {
		return []byte("null"), nil
	}
	return MarshalItem(it)
}

// UnmarshalJSON implements json.Unmarshaler. Errors are *SyntaxError.
func (it *Item) UnmarshalJSON(data []byte) error {
	if isNullLiteral(data) {
		return nil
	}
	m, err := UnmarshalItem(data)
	if err != nil {
		return err
	}
	*it = m
	return nil
}

// List is a list of values for encoding/json (ExecuteStatement's Parameters).
type List []types.AttributeValue

// MarshalJSON implements json.Marshaler.
func (l List) MarshalJSON() ([]byte, error) {
	if l == nil {
		return []byte("null"), nil
	}
	return AppendList(nil, l)
}

// UnmarshalJSON implements json.Unmarshaler. Errors are *SyntaxError.
func (l *List) UnmarshalJSON(data []byte) error {
	if isNullLiteral(data) {
		return nil
	}
	v, err := UnmarshalList(data)
	if err != nil {
		return err
	}
	*l = v
	return nil
}

func isNullLiteral(data []byte) bool {
	d := decoder{data: data}
	d.ws()
	if len(data)-d.i < 4 || string(data[d.i:d.i+4]) != "null" {
		return false
	}
	d.i += 4
	d.ws()
	return d.i == len(data)
}
