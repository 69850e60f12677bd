package local

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// A reflection-free decoder for the requests on the hot paths (single-item
// actions and Query): it walks the top-level object once, hands each member's
// raw value to a field decoder, and skips unknown members, as DynamoDB does.
// Malformed JSON and values of the wrong JSON type are SerializationExceptions.

type objectDecoder struct {
	b []byte
	i int
}

var errSyntax = serialization("Start of structure or map found where not expected.")

func (d *objectDecoder) ws() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// members calls fn for each member of the top-level object.
func decodeMembers(b []byte, fn func(key string, raw []byte) error) error {
	d := objectDecoder{b: b}
	d.ws()
	if d.i >= len(b) || b[d.i] != '{' {
		return errSyntax
	}
	d.i++
	d.ws()
	if d.i < len(b) && b[d.i] == '}' {
		d.i++
		return d.end()
	}
	for {
		d.ws()
		key, err := d.str()
		if err != nil {
			return err
		}
		d.ws()
		if d.i >= len(b) || b[d.i] != ':' {
			return errSyntax
		}
		d.i++
		d.ws()
		start := d.i
		if err := d.skip(0); err != nil {
			return err
		}
		if err := fn(key, b[start:d.i]); err != nil {
			return err
		}
		d.ws()
		if d.i >= len(b) {
			return errSyntax
		}
		switch b[d.i] {
		case ',':
			d.i++
		case '}':
			d.i++
			return d.end()
		default:
			return errSyntax
		}
	}
}

func (d *objectDecoder) end() error {
	d.ws()
	if d.i != len(d.b) {
		return errSyntax
	}
	return nil
}

// str reads a JSON string; the fast path has no escapes.
func (d *objectDecoder) str() (string, error) {
	if d.i >= len(d.b) || d.b[d.i] != '"' {
		return "", errSyntax
	}
	start := d.i
	d.i++
	plain := true
	for d.i < len(d.b) {
		c := d.b[d.i]
		switch {
		case c == '"':
			d.i++
			if plain {
				s := d.b[start+1 : d.i-1]
				if !utf8.Valid(s) {
					return "", errSyntax
				}
				return string(s), nil
			}
			var s string
			if err := json.Unmarshal(d.b[start:d.i], &s); err != nil {
				return "", errSyntax
			}
			return s, nil
		case c == '\\':
			plain = false
			d.i += 2
		case c < 0x20:
			return "", errSyntax
		default:
			d.i++
		}
	}
	return "", errSyntax
}

const maxJSONDepth = 10000

// skip moves past one JSON value, checking its syntax.
func (d *objectDecoder) skip(depth int) error {
	if depth > maxJSONDepth {
		return errSyntax
	}
	d.ws()
	if d.i >= len(d.b) {
		return errSyntax
	}
	switch c := d.b[d.i]; {
	case c == '"':
		_, err := d.strSkip()
		return err
	case c == '{':
		d.i++
		d.ws()
		if d.i < len(d.b) && d.b[d.i] == '}' {
			d.i++
			return nil
		}
		for {
			d.ws()
			if _, err := d.strSkip(); err != nil {
				return err
			}
			d.ws()
			if d.i >= len(d.b) || d.b[d.i] != ':' {
				return errSyntax
			}
			d.i++
			if err := d.skip(depth + 1); err != nil {
				return err
			}
			d.ws()
			if d.i >= len(d.b) {
				return errSyntax
			}
			if d.b[d.i] == '}' {
				d.i++
				return nil
			}
			if d.b[d.i] != ',' {
				return errSyntax
			}
			d.i++
		}
	case c == '[':
		d.i++
		d.ws()
		if d.i < len(d.b) && d.b[d.i] == ']' {
			d.i++
			return nil
		}
		for {
			if err := d.skip(depth + 1); err != nil {
				return err
			}
			d.ws()
			if d.i >= len(d.b) {
				return errSyntax
			}
			if d.b[d.i] == ']' {
				d.i++
				return nil
			}
			if d.b[d.i] != ',' {
				return errSyntax
			}
			d.i++
		}
	case c == 't':
		return d.lit("true")
	case c == 'f':
		return d.lit("false")
	case c == 'n':
		return d.lit("null")
	case c == '-' || (c >= '0' && c <= '9'):
		start := d.i
		for d.i < len(d.b) {
			switch ch := d.b[d.i]; {
			case ch >= '0' && ch <= '9', ch == '-', ch == '+', ch == '.', ch == 'e', ch == 'E':
				d.i++
				continue
			}
			break
		}
		if !json.Valid(d.b[start:d.i]) {
			return errSyntax
		}
		return nil
	}
	return errSyntax
}

func (d *objectDecoder) strSkip() (int, error) {
	if d.i >= len(d.b) || d.b[d.i] != '"' {
		return 0, errSyntax
	}
	d.i++
	for d.i < len(d.b) {
		switch c := d.b[d.i]; {
		case c == '"':
			d.i++
			return d.i, nil
		case c == '\\':
			d.i += 2
		case c < 0x20:
			return 0, errSyntax
		default:
			d.i++
		}
	}
	return 0, errSyntax
}

func (d *objectDecoder) lit(s string) error {
	if len(d.b)-d.i < len(s) || string(d.b[d.i:d.i+len(s)]) != s {
		return errSyntax
	}
	d.i += len(s)
	return nil
}

func isNull(raw []byte) bool { return string(raw) == "null" }

// Field decoders. JSON null leaves the field unset.

func rawString(raw []byte, dst **string) error {
	if isNull(raw) {
		return nil
	}
	if raw[0] != '"' {
		return serialization(wrongType(raw) + " cannot be converted to String")
	}
	d := objectDecoder{b: raw}
	s, err := d.str()
	if err != nil {
		return err
	}
	*dst = &s
	return nil
}

func rawBool(raw []byte, dst **bool) error {
	switch string(raw) {
	case "null":
		return nil
	case "true", "false":
		v := raw[0] == 't'
		*dst = &v
		return nil
	}
	return serialization(wrongType(raw) + " cannot be converted to Boolean")
}

func rawInt(raw []byte, dst **int64) error {
	if isNull(raw) {
		return nil
	}
	v, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		if raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9') {
			return serialization("NUMBER_VALUE cannot be converted to Long")
		}
		return serialization(wrongType(raw) + " cannot be converted to Long")
	}
	*dst = &v
	return nil
}

func rawItem(raw []byte, dst *itemJSON) error {
	if raw[0] != '{' && !isNull(raw) {
		return serialization("Unexpected field type")
	}
	return dst.UnmarshalJSON(raw)
}

func rawNames(raw []byte, dst *map[string]string) error {
	if isNull(raw) {
		return nil
	}
	if raw[0] != '{' {
		return serialization("Unexpected field type")
	}
	m := map[string]string{}
	if err := decodeMembers(raw, func(k string, v []byte) error {
		if v[0] != '"' {
			return serialization(wrongType(v) + " cannot be converted to String")
		}
		d := objectDecoder{b: v}
		s, err := d.str()
		m[k] = s
		return err
	}); err != nil {
		return err
	}
	*dst = m
	return nil
}

func rawJSONValue(raw []byte, dst *json.RawMessage) error {
	*dst = append(json.RawMessage(nil), raw...)
	return nil
}

func wrongType(raw []byte) string {
	switch raw[0] {
	case '"':
		return "STRING_VALUE"
	case 't':
		return "TRUE_VALUE"
	case 'f':
		return "FALSE_VALUE"
	case '{':
		return "START_OBJECT"
	case '[':
		return "START_ARRAY"
	}
	return "NUMBER_VALUE"
}

// writeOptions members shared by the write actions; ok=false for others.
func (o *writeOptions) member(k string, raw []byte) (bool, error) {
	switch k {
	case "TableName":
		return true, rawString(raw, &o.TableName)
	case "ConditionExpression":
		return true, rawString(raw, &o.ConditionExpression)
	case "ExpressionAttributeNames":
		return true, rawNames(raw, &o.ExpressionAttributeNames)
	case "ExpressionAttributeValues":
		return true, rawItem(raw, &o.ExpressionAttributeValues)
	case "ReturnValues":
		return true, rawString(raw, &o.ReturnValues)
	case "ReturnConsumedCapacity":
		return true, rawString(raw, &o.ReturnConsumedCapacity)
	case "ReturnItemCollectionMetrics":
		return true, rawString(raw, &o.ReturnItemCollectionMetrics)
	case "ReturnValuesOnConditionCheckFailure":
		return true, rawString(raw, &o.ReturnValuesOnConditionCheckFailure)
	case "Expected":
		return true, rawJSONValue(raw, &o.Expected)
	case "ConditionalOperator":
		return true, rawJSONValue(raw, &o.ConditionalOperator)
	}
	return false, nil
}

func (in *putItemInput) decode(b []byte) error {
	return decodeMembers(b, func(k string, raw []byte) error {
		if k == "Item" {
			return rawItem(raw, &in.Item)
		}
		_, err := in.member(k, raw)
		return err
	})
}

func (in *deleteItemInput) decode(b []byte) error {
	return decodeMembers(b, func(k string, raw []byte) error {
		if k == "Key" {
			return rawItem(raw, &in.Key)
		}
		_, err := in.member(k, raw)
		return err
	})
}

func (in *updateItemInput) decode(b []byte) error {
	return decodeMembers(b, func(k string, raw []byte) error {
		switch k {
		case "Key":
			return rawItem(raw, &in.Key)
		case "UpdateExpression":
			return rawString(raw, &in.UpdateExpression)
		case "AttributeUpdates":
			return rawJSONValue(raw, &in.AttributeUpdates)
		}
		_, err := in.member(k, raw)
		return err
	})
}

func (in *getItemInput) decode(b []byte) error {
	return decodeMembers(b, func(k string, raw []byte) error {
		switch k {
		case "TableName":
			return rawString(raw, &in.TableName)
		case "Key":
			return rawItem(raw, &in.Key)
		case "ConsistentRead":
			return rawBool(raw, &in.ConsistentRead)
		case "ProjectionExpression":
			return rawString(raw, &in.ProjectionExpression)
		case "ExpressionAttributeNames":
			return rawNames(raw, &in.ExpressionAttributeNames)
		case "ReturnConsumedCapacity":
			return rawString(raw, &in.ReturnConsumedCapacity)
		case "AttributesToGet":
			return rawJSONValue(raw, &in.AttributesToGet)
		}
		return nil
	})
}

func (in *readInput) member(k string, raw []byte) error {
	switch k {
	case "TableName":
		return rawString(raw, &in.TableName)
	case "IndexName":
		return rawString(raw, &in.IndexName)
	case "Select":
		return rawString(raw, &in.Select)
	case "Limit":
		return rawInt(raw, &in.Limit)
	case "ConsistentRead":
		return rawBool(raw, &in.ConsistentRead)
	case "FilterExpression":
		return rawString(raw, &in.FilterExpression)
	case "ProjectionExpression":
		return rawString(raw, &in.ProjectionExpression)
	case "ExpressionAttributeNames":
		return rawNames(raw, &in.ExpressionAttributeNames)
	case "ExpressionAttributeValues":
		return rawItem(raw, &in.ExpressionAttributeValues)
	case "ExclusiveStartKey":
		return rawItem(raw, &in.ExclusiveStartKey)
	case "ReturnConsumedCapacity":
		return rawString(raw, &in.ReturnConsumedCapacity)
	case "AttributesToGet":
		return rawJSONValue(raw, &in.AttributesToGet)
	case "ConditionalOperator":
		return rawJSONValue(raw, &in.ConditionalOperator)
	}
	return nil
}

func (in *queryInput) decode(b []byte) error {
	return decodeMembers(b, func(k string, raw []byte) error {
		switch k {
		case "KeyConditionExpression":
			return rawString(raw, &in.KeyConditionExpression)
		case "ScanIndexForward":
			return rawBool(raw, &in.ScanIndexForward)
		case "KeyConditions":
			return rawJSONValue(raw, &in.KeyConditions)
		case "QueryFilter":
			return rawJSONValue(raw, &in.QueryFilter)
		}
		return in.member(k, raw)
	})
}
