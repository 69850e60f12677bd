package local

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/internal/limits"
	"github.com/dynamogo/dynamo/internal/numbers"
	"github.com/dynamogo/dynamo/local/eval"
)

// checkValues validates every attribute value of an item (or of expression
// attribute values) as DynamoDB does, and canonicalises numbers in place (the
// decoder's values are the request's own): sets not empty and without
// duplicates, NULL true, numbers within DynamoDB's range and precision,
// nesting at most 32 levels, names (map keys too) 1 byte to 64 KB.
func checkValues(item Item) error {
	for k, v := range item {
		nv, err := checkValue(v, 1)
		if err != nil {
			return err
		}
		if err := checkName(k); err != nil {
			return err
		}
		if nv != nil {
			item[k] = nv
		}
	}
	return nil
}

var (
	errEmptyName = validation("Empty attribute name")
	errLongName  = validation(eval.NameTooLarge)
	errNesting   = validation("Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit")
)

// checkName rejects an attribute name or map key DynamoDB does not store.
func checkName(name string) error {
	if name == "" {
		return errEmptyName
	}
	if len(name) > limits.MaxAttrNameBytes {
		return errLongName
	}
	return nil
}

// checkValue validates av; it returns a replacement when a number had to be
// canonicalised.
//
// depth is av's nesting level, 1 for an attribute's own value; DynamoDB
// stores at most 32 levels (ServiceQuotas.html, "Nested attribute depth"),
// so a value inside 32 nested maps or lists is one too deep.
func checkValue(av types.AttributeValue, depth int) (types.AttributeValue, error) {
	if depth > limits.MaxDepth {
		return nil, errNesting
	}
	switch v := av.(type) {
	case *types.AttributeValueMemberS, *types.AttributeValueMemberB, *types.AttributeValueMemberBOOL:
		return nil, nil
	case *types.AttributeValueMemberN:
		c, err := canonicalNumber(v.Value)
		if err != nil {
			return nil, err
		}
		if c != v.Value {
			return &types.AttributeValueMemberN{Value: c}, nil
		}
		return nil, nil
	case *types.AttributeValueMemberNULL:
		if !v.Value {
			return nil, invalidParam("Null attribute value types must have the value of true")
		}
		return nil, nil
	case *types.AttributeValueMemberSS:
		if len(v.Value) == 0 {
			return nil, invalidParam("An string set  may not be empty")
		}
		if _, dup := duplicate(v.Value); dup {
			return nil, invalidParam("Input collection %s contains duplicates.", listText(v.Value))
		}
		return nil, nil
	case *types.AttributeValueMemberNS:
		if len(v.Value) == 0 {
			return nil, invalidParam("An number set  may not be empty")
		}
		out := v.Value
		copied := false
		seen := make(map[string]struct{}, len(v.Value))
		for i, s := range v.Value {
			c, err := canonicalNumber(s)
			if err != nil {
				return nil, err
			}
			if _, dup := seen[c]; dup {
				// Unlike SS and BS: no prefix, no values, no period (the
				// service, measured in ExtendDB/extenddb#100; DynamoDB Local).
				return nil, validation("Input collection contains duplicates")
			}
			seen[c] = struct{}{}
			if c != s {
				if !copied {
					out = append([]string(nil), v.Value...)
					copied = true
				}
				out[i] = c
			}
		}
		if copied {
			return &types.AttributeValueMemberNS{Value: out}, nil
		}
		return nil, nil
	case *types.AttributeValueMemberBS:
		if len(v.Value) == 0 {
			return nil, invalidParam("Binary sets should not be empty")
		}
		seen := make(map[string]struct{}, len(v.Value))
		for _, b := range v.Value {
			if _, dup := seen[string(b)]; dup {
				// Wording of DynamoDB Local 3.3.1 (the differential tier).
				return nil, invalidParam("Input collection of type BS contains duplicates.")
			}
			seen[string(b)] = struct{}{}
		}
		return nil, nil
	case *types.AttributeValueMemberM:
		for k, e := range v.Value {
			nv, err := checkValue(e, depth+1)
			if err != nil {
				return nil, err
			}
			if err := checkName(k); err != nil {
				return nil, err
			}
			if nv != nil {
				v.Value[k] = nv
			}
		}
		return nil, nil
	case *types.AttributeValueMemberL:
		for i, e := range v.Value {
			nv, err := checkValue(e, depth+1)
			if err != nil {
				return nil, err
			}
			if nv != nil {
				v.Value[i] = nv
			}
		}
		return nil, nil
	case nil:
		return nil, validation("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes")
	}
	return nil, validation("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes")
}

func canonicalNumber(s string) (string, error) {
	d, err := numbers.Parse(s)
	if err != nil {
		if ne, ok := err.(*numbers.Error); ok {
			return "", validation(ne.Msg)
		}
		return "", validation(err.Error())
	}
	if isCanonical(s) {
		return s, nil
	}
	return d.String(), nil
}

// isCanonical is a fast path for plain integers without leading zeros.
func isCanonical(s string) bool {
	if s == "" || len(s) > numbers.MaxDigits {
		return false
	}
	i := 0
	if s[0] == '-' {
		i = 1
		if len(s) == 1 || s == "-0" {
			return false
		}
	}
	if s[i] == '0' && len(s) > i+1 {
		return false
	}
	for ; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// duplicate returns the first string of vs that repeats an earlier one.
func duplicate(vs []string) (string, bool) {
	if len(vs) < 8 {
		for j := 1; j < len(vs); j++ {
			for i := 0; i < j; i++ {
				if vs[i] == vs[j] {
					return vs[j], true
				}
			}
		}
		return "", false
	}
	seen := make(map[string]struct{}, len(vs))
	for _, s := range vs {
		if _, ok := seen[s]; ok {
			return s, true
		}
		seen[s] = struct{}{}
	}
	return "", false
}

func listText(vs []string) string { return "[" + strings.Join(vs, ", ") + "]" }

// keyContext says which request a key is checked for: items being written
// report missing and mistyped keys by name; keys of reads and deletes
// answer "The provided key element does not match the schema".
type keyContext int

const (
	keyOfItem keyContext = iota
	keyOfRequest
)

var errKeySchema = validation("The provided key element does not match the schema")

// checkKey validates the key attributes of item against the table schema.
func (m *tableMeta) checkKey(item Item, ctx keyContext) error {
	if ctx == keyOfRequest && len(item) != len(m.keyNames()) {
		return errKeySchema
	}
	for i, ka := range []keyAttr{m.Hash, m.Range} {
		if ka.Name == "" {
			continue
		}
		v, ok := item[ka.Name]
		if !ok {
			if ctx == keyOfRequest {
				return errKeySchema
			}
			return invalidParam("Missing the key %s in the item", ka.Name)
		}
		if !hasType(v, ka.Type) {
			if ctx == keyOfRequest {
				return errKeySchema
			}
			return invalidParam("Type mismatch for key %s expected: %s actual: %s", ka.Name, ka.Type, typeOf(v))
		}
		if err := checkKeyValue(v, ka.Name, i == 0); err != nil {
			return err
		}
	}
	return nil
}

// checkKeyValues checks the values of the key attributes item has with the
// key's type (checkKeyValue): the input validation a transaction fails on as
// a whole, before its actions are checked against their tables.
func (m *tableMeta) checkKeyValues(item Item) error {
	for i, ka := range []keyAttr{m.Hash, m.Range} {
		if v, ok := item[ka.Name]; ok && ka.Name != "" && hasType(v, ka.Type) {
			if err := checkKeyValue(v, ka.Name, i == 0); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkKeyValue rejects empty strings and binaries and oversized keys.
func checkKeyValue(v types.AttributeValue, name string, hash bool) error {
	size := 0
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		if x.Value == "" {
			return validationf("One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: %s", name)
		}
		size = len(x.Value)
	case *types.AttributeValueMemberB:
		if len(x.Value) == 0 {
			return validationf("One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty binary value. Key: %s", name)
		}
		size = len(x.Value)
	}
	if hash && size > limits.MaxPartitionKeyBytes {
		return invalidParam("Size of hashkey has exceeded the maximum size limit of2048 bytes")
	}
	if !hash && size > limits.MaxSortKeyBytes {
		return invalidParam("Aggregated size of all range keys has exceeded the size limit of 1024 bytes")
	}
	return nil
}

// checkIndexKeys validates an item's secondary index key attributes: when
// present they must have the index's type and not be empty.
func (m *tableMeta) checkIndexKeys(item Item) error { return m.indexKeysError(item, false) }

// checkUpdatedIndexKeys is checkIndexKeys for the result of an
// UpdateExpression: an empty index key has the update's own wording, which
// names no index (API_UpdateItem.html lists "The update expression attempted
// to update a secondary index key to a value that is not supported").
func (m *tableMeta) checkUpdatedIndexKeys(item Item) error { return m.indexKeysError(item, true) }

// The update's texts for an emptied index key (they name no index). In a
// transaction they fail the request instead of cancelling it (DynamoDB
// Local 3.3.1), so transact.go tells them apart.
var (
	errUpdatedIndexKeyEmptyS = validation("One or more parameter values are not valid. The update expression attempted to update a secondary index key to a value that is not supported. The AttributeValue for a key attribute cannot contain an empty string value.")
	errUpdatedIndexKeyEmptyB = validation("One or more parameter values are not valid. The update expression attempted to update a secondary index key to a value that is not supported. The AttributeValue for a key attribute cannot contain an empty binary value.")
)

func (m *tableMeta) indexKeysError(item Item, update bool) error {
	for _, ix := range m.Indexes {
		nh := len(ix.hashKeys())
		for i, ka := range append(ix.hashKeys(), ix.rangeKeys()...) {
			if ka.Name == m.Hash.Name || ka.Name == m.Range.Name {
				continue
			}
			v, ok := item[ka.Name]
			if !ok {
				continue
			}
			if !hasType(v, ka.Type) {
				return invalidParam("Type mismatch for Index Key %s Expected: %s Actual: %s IndexName: %s", ka.Name, ka.Type, typeOf(v), ix.Name)
			}
			if err := indexKeySizeError(ix, ka, v, i < nh); err != nil {
				return err
			}
			empty := ""
			switch x := v.(type) {
			case *types.AttributeValueMemberS:
				if x.Value == "" {
					empty = "string"
				}
			case *types.AttributeValueMemberB:
				if len(x.Value) == 0 {
					empty = "binary"
				}
			}
			switch {
			case empty == "":
			case update && empty == "string":
				return errUpdatedIndexKeyEmptyS
			case update:
				return errUpdatedIndexKeyEmptyB
			default:
				return validationf("One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty %s value. IndexName: %s, IndexKey: %s", empty, ix.Name, ka.Name)
			}
		}
	}
	return nil
}
