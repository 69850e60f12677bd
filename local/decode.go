package local

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dynamogo/dynamo/codec/ddbjson"
	"github.com/dynamogo/dynamo/internal/jsonscan"
	"github.com/dynamogo/dynamo/internal/limits"
)

// A reflection-free decoder for the requests of the data plane (single-item
// actions, Query, Scan, the batches and the transactions): it walks the
// top-level object once, hands each member's raw value to a field decoder,
// and skips unknown members, as DynamoDB does. Malformed JSON and values of
// the wrong JSON type are SerializationExceptions.

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

// decodeMembers calls fn for each member of the object b, a value of a
// checked body (see walkMembers).
func decodeMembers(b []byte, fn func(key string, raw []byte) error) error {
	return walkMembers(b, true, func(key, raw []byte) error { return fn(string(key), raw) })
}

// eachMember calls fn for each member of the request body b, checking the
// syntax of each value before fn sees it: key is only valid during the call
// (switch string(key) does not allocate).
func eachMember(b []byte, fn func(key, raw []byte) error) error {
	return walkMembers(b, false, fn)
}

// walkMembers is eachMember; checked says b is a value inside a body whose
// syntax was checked already (every raw value fn gets is), so only the end
// of each value is looked for. Without it, a value nested n levels deep
// would be checked n times over.
func walkMembers(b []byte, checked bool, fn func(key, raw []byte) error) error {
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
		key, err := d.strBytes()
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
		if checked {
			d.i = valueEnd(b, d.i)
		} else if err := d.skip(0); err != nil {
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

// str reads a JSON string.
func (d *objectDecoder) str() (string, error) {
	b, err := d.strBytes()
	return string(b), err
}

// strBytes reads a JSON string; the fast path has no escapes and returns
// a slice of the body.
func (d *objectDecoder) strBytes() ([]byte, error) {
	if d.i >= len(d.b) || d.b[d.i] != '"' {
		return nil, errSyntax
	}
	start := d.i
	d.i = jsonscan.PlainBytes(d.b, d.i+1)
	plain := true
	for d.i < len(d.b) {
		c := d.b[d.i]
		switch {
		case c == '"':
			d.i++
			if plain {
				s := d.b[start+1 : d.i-1]
				if !utf8.Valid(s) {
					return nil, errSyntax
				}
				return s, nil
			}
			var s string
			if err := json.Unmarshal(d.b[start:d.i], &s); err != nil {
				return nil, errSyntax
			}
			return []byte(s), nil
		case c == '\\':
			plain = false
			d.i += 2
		case c < 0x20:
			return nil, errSyntax
		default:
			d.i++
		}
	}
	return nil, errSyntax
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
	d.i = jsonscan.PlainBytes(d.b, d.i+1)
	for d.i < len(d.b) {
		switch c := d.b[d.i]; {
		case c == '"':
			d.i++
			return d.i, nil
		case c == '\\':
			if !validEscape(d.b[d.i:]) {
				return 0, errSyntax
			}
			d.i += 2
		case c < 0x20:
			return 0, errSyntax
		default:
			d.i++
		}
	}
	return 0, errSyntax
}

// validEscape reports whether the escape at the start of b is one JSON allows.
func validEscape(b []byte) bool {
	if len(b) < 2 {
		return false
	}
	switch b[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return true
	case 'u':
		_, ok := escapedRune(b)
		return ok
	}
	return false
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
	s, ok, err := rawStringValue(raw)
	if ok {
		*dst = &s
	}
	return err
}

// rawString is rawString with the string's variable in sc (nil: a new
// one), for the next request to reuse; the string itself is sc's interned
// copy (intern).
func (sc *batchScratch) rawString(raw []byte, dst **string) error {
	if sc == nil || sc.nstrs == len(sc.strs) {
		return rawString(raw, dst)
	}
	if isNull(raw) {
		return nil
	}
	s, err := sc.stringValue(raw)
	if err == nil {
		p := &sc.strs[sc.nstrs]
		sc.nstrs++
		*p = s
		*dst = p
	}
	return err
}

// stringValue is rawStringValue for raw, a JSON value other than null,
// interned in sc.
func (sc *batchScratch) stringValue(raw []byte) (string, error) {
	if raw[0] != '"' {
		return "", serialization(wrongType(raw) + " cannot be converted to String")
	}
	d := objectDecoder{b: raw}
	b, err := d.strBytes()
	if err != nil {
		return "", err
	}
	return sc.intern(b), nil
}

// rawStringValue decodes raw, a JSON string or null (ok false).
func rawStringValue(raw []byte) (s string, ok bool, err error) {
	if isNull(raw) {
		return "", false, nil
	}
	if raw[0] != '"' {
		return "", false, serialization(wrongType(raw) + " cannot be converted to String")
	}
	d := objectDecoder{b: raw}
	if s, err = d.str(); err != nil {
		return "", false, err
	}
	return s, true, nil
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

// rawNames is rawNames into sc's recycled map, with interned strings
// (nil: a new map and copies).
func (sc *batchScratch) rawNames(raw []byte, dst *map[string]string) error {
	if sc == nil || raw[0] != '{' { // no scratch, null, or rawNames's error
		return rawNames(raw, dst)
	}
	m := sc.names
	if m == nil {
		m = make(map[string]string, 8)
		sc.names = m
	}
	clear(m) // a repeated member replaces the first, as without a scratch
	if err := walkMembers(raw, true, func(k, v []byte) error {
		if v[0] != '"' {
			return serialization(wrongType(v) + " cannot be converted to String")
		}
		s, err := sc.stringValue(v)
		m[sc.intern(k)] = s
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
func (o *writeOptions) member(k string, raw []byte, sc *batchScratch) (bool, error) {
	switch k {
	case "TableName":
		return true, sc.rawString(raw, &o.TableName)
	case "ConditionExpression":
		return true, sc.rawString(raw, &o.ConditionExpression)
	case "ExpressionAttributeNames":
		return true, sc.rawNames(raw, &o.ExpressionAttributeNames)
	case "ExpressionAttributeValues":
		return true, rawItem(raw, &o.ExpressionAttributeValues)
	case "ReturnValues":
		return true, sc.rawString(raw, &o.ReturnValues)
	case "ReturnConsumedCapacity":
		return true, sc.rawString(raw, &o.ReturnConsumedCapacity)
	case "ReturnItemCollectionMetrics":
		return true, sc.rawString(raw, &o.ReturnItemCollectionMetrics)
	case "ReturnValuesOnConditionCheckFailure":
		return true, sc.rawString(raw, &o.ReturnValuesOnConditionCheckFailure)
	case "Expected":
		return true, rawJSONValue(raw, &o.Expected)
	case "ConditionalOperator":
		return true, rawJSONValue(raw, &o.ConditionalOperator)
	}
	return false, nil
}

func (in *putItemInput) decode(b []byte) error {
	return eachMember(b, func(key, raw []byte) error {
		k := string(key) // not kept: no allocation
		if k == "Item" {
			return rawItem(raw, &in.Item)
		}
		_, err := in.member(k, raw, nil)
		return err
	})
}

func (in *deleteItemInput) decode(b []byte) error {
	return eachMember(b, func(key, raw []byte) error {
		k := string(key) // not kept: no allocation
		if k == "Key" {
			return rawItem(raw, &in.Key)
		}
		_, err := in.member(k, raw, nil)
		return err
	})
}

func (in *updateItemInput) decode(b []byte) error { return in.decodeWith(b, nil) }

// decodeWith is decode with the Key and ExpressionAttributeValues in maps,
// strings and values of sc (nil: new ones), which the next request reuses
// once this one is answered (batchScratch).
func (in *updateItemInput) decodeWith(b []byte, sc *batchScratch) error {
	sc.decodeIn(b)
	defer sc.decoded()
	return eachMember(b, func(key, raw []byte) error {
		k := string(key) // not kept: no allocation
		switch k {
		case "Key":
			return sc.rawItem(b, raw, &in.Key)
		case "ExpressionAttributeValues":
			return sc.rawItem(b, raw, &in.ExpressionAttributeValues)
		case "UpdateExpression":
			return sc.rawString(raw, &in.UpdateExpression)
		case "AttributeUpdates":
			return rawJSONValue(raw, &in.AttributeUpdates)
		}
		_, err := in.member(k, raw, sc)
		return err
	})
}

// decodeIn readies sc's items decoder for the items of the request body b,
// if there is a scratch; decoded releases it once they are decoded.
func (sc *batchScratch) decodeIn(b []byte) {
	if sc != nil {
		sc.decoder(b)
	}
}

func (sc *batchScratch) decoded() {
	if sc != nil {
		sc.items.Release()
	}
}

// rawItem is rawItem for raw, a member of the body b given to decodeIn,
// into a recycled map of sc (nil: a new map).
func (sc *batchScratch) rawItem(b, raw []byte, dst *itemJSON) error {
	if sc == nil || raw[0] != '{' { // no scratch, null, or rawItem's error
		return rawItem(raw, dst)
	}
	// raw is b[start:end] (walkMembers), so its capacity tells its start;
	// the decoder reads only up to the value's end.
	m, _, err := sc.items.ItemAt(cap(b)-cap(raw), sc.itemMap())
	if err != nil {
		return jsonError(err)
	}
	*dst = m
	return nil
}

func (in *getItemInput) decode(b []byte) error {
	return eachMember(b, func(key, raw []byte) error {
		k := string(key) // not kept: no allocation
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

func (in *queryInput) decode(b []byte) error { return in.decodeWith(b, nil) }

// decodeWith is decode with the ExpressionAttributeValues in a map, strings
// and values of sc (nil: new ones), as updateItemInput's.
func (in *queryInput) decodeWith(b []byte, sc *batchScratch) error {
	sc.decodeIn(b)
	defer sc.decoded()
	return eachMember(b, func(key, raw []byte) error {
		k := string(key) // not kept: no allocation
		switch k {
		case "ExpressionAttributeValues":
			return sc.rawItem(b, raw, &in.ExpressionAttributeValues)
		case "ExpressionAttributeNames":
			return sc.rawNames(raw, &in.ExpressionAttributeNames)
		case "TableName":
			return sc.rawString(raw, &in.TableName)
		case "KeyConditionExpression":
			return sc.rawString(raw, &in.KeyConditionExpression)
		case "FilterExpression":
			return sc.rawString(raw, &in.FilterExpression)
		case "ProjectionExpression":
			return sc.rawString(raw, &in.ProjectionExpression)
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

// The decoders below (Scan, the batches and the transactions) give exactly encoding/json's
// results, which the other actions' checks were written against: a request
// they do not decode as encoding/json would (an error, a member name in
// another case, a repeated member, an integer sent as a string) is errSlow,
// and decodeFast decodes it again with call.decode. Errors are rare, so
// their second decoding costs nothing that matters.

var errSlow = errors.New("request needs encoding/json")

// mayNestTooDeep reports whether b has enough brackets to nest deeper than
// encoding/json's limit of 10,000 levels. The fast decoder counts depth from
// each member it decodes, so such a body also goes through encoding/json's
// scanner. (Counting one byte is vectorised, far cheaper than decoding.)
func mayNestTooDeep(b []byte) bool {
	return bytes.Count(b, []byte("{"))+bytes.Count(b, []byte("[")) > 10000
}

// decodeFast decodes the body into in with its fast decoder, falling back
// to encoding/json (from a zero value) when that one declines.
func decodeFast[T any](c *call, in *T, fast func(*T, []byte) error) error {
	if fast(in, c.body) == nil && (!mayNestTooDeep(c.body) || json.Valid(c.body)) {
		return nil
	}
	var zero T
	*in = zero
	return c.decode(in)
}

// topMembers is structMembers for a whole request body, whose syntax it
// checks first.
func topMembers(b []byte, names []string, fn func(k string, raw []byte) error) error {
	if err := checkBody(b); err != nil {
		return err
	}
	return structMembers(b, names, fn)
}

// structMembers is decodeMembers for a struct with the given member names:
// fn gets each known member once; a repeated member (encoding/json would
// merge it) or a name equal to a known one only under encoding/json's case
// folding is errSlow; other members are skipped.
func structMembers(b []byte, names []string, fn func(k string, raw []byte) error) error {
	var seen uint64
	return walkMembers(b, true, func(key, raw []byte) error {
		i, err := structMember(names, key, &seen)
		if i < 0 {
			return err
		}
		return fn(names[i], raw)
	})
}

// structMember is the index in names of the member key, and -1 for a
// member to skip; seen holds the members met so far. A repeated member or a
// name equal to a known one only under case folding is errSlow.
func structMember(names []string, key []byte, seen *uint64) (int, error) {
	i := slices.IndexFunc(names, func(n string) bool { return n == string(key) })
	if i < 0 {
		if slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(string(key), n) }) {
			return -1, errSlow
		}
		return -1, nil
	}
	if *seen&(1<<i) != 0 {
		return -1, errSlow
	}
	*seen |= 1 << i
	return i, nil
}

// checkBody checks the syntax of a whole body, for the decoders that walk it
// as checked (topMembers).
func checkBody(b []byte) error {
	d := objectDecoder{b: b}
	d.ws()
	if err := d.skip(0); err != nil {
		return err
	}
	return d.end()
}

// valueEnd returns the end of the JSON value at b[i:], which is known to be
// well-formed: it only tracks strings and brackets.
func valueEnd(b []byte, i int) int {
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '"':
			i = stringEnd(b, i+1)
			if depth == 0 {
				return i
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		case ',', ':', ' ', '\t', '\n', '\r':
		default:
			if depth == 0 { // a number, true, false or null
				for i < len(b) && !isValueEnd(b[i]) {
					i++
				}
				return i
			}
		}
		i++
	}
	return i
}

func isValueEnd(c byte) bool {
	return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// stringEnd returns the end of the well-formed JSON string whose text
// starts at b[i:]: past the first quote that is not escaped. Short strings
// (names, types) are walked byte by byte; past 16 bytes the quotes are
// searched for (vectorised), and one is the end unless an odd number of
// backslashes precedes it.
func stringEnd(b []byte, i int) int {
	for n := min(len(b), i+16); i < n; i++ {
		switch b[i] {
		case '"':
			return i + 1
		case '\\':
			i++
		}
	}
	for i < len(b) {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return len(b)
		}
		i += j + 1
		n := 0
		for b[i-2-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			return i
		}
	}
	return i
}

// decodeElements calls fn for each element of the JSON array b, a value of
// a checked body (see walkMembers).
func decodeElements(b []byte, fn func(raw []byte) error) error {
	d := objectDecoder{b: b}
	d.ws()
	if d.i >= len(b) || b[d.i] != '[' {
		return errSyntax
	}
	d.i++
	d.ws()
	if d.i < len(b) && b[d.i] == ']' {
		d.i++
		return d.end()
	}
	for {
		d.ws()
		start := d.i
		d.i = valueEnd(b, d.i)
		if err := fn(b[start:d.i]); err != nil {
			return err
		}
		d.ws()
		if d.i >= len(b) {
			return errSyntax
		}
		switch b[d.i] {
		case ',':
			d.i++
		case ']':
			d.i++
			return d.end()
		default:
			return errSyntax
		}
	}
}

// rawList decodes a JSON array into a slice ([] is empty, not nil).
func rawList[E any](raw []byte, dst *[]E, elem func([]byte, *E) error) error {
	if isNull(raw) {
		return nil
	}
	if raw[0] != '[' {
		return errSlow
	}
	out := make([]E, 0, 4)
	if err := decodeElements(raw, func(v []byte) error {
		var zero E
		out = append(out, zero)
		return elem(v, &out[len(out)-1]) // in place: a local would escape
	}); err != nil {
		return err
	}
	*dst = out
	return nil
}

// rawStruct decodes a JSON object into a new *T whose members decode
// decodes; null leaves it nil.
func rawStruct[T any](raw []byte, dst **T, decode func(*T, []byte) error) error {
	if isNull(raw) {
		return nil
	}
	if raw[0] != '{' {
		return errSlow
	}
	v := new(T)
	if err := decode(v, raw); err != nil {
		return err
	}
	*dst = v
	return nil
}

var scanMembers = []string{"TableName", "IndexName", "Select", "Limit", "ConsistentRead",
	"FilterExpression", "ProjectionExpression", "ExpressionAttributeNames", "ExpressionAttributeValues",
	"ExclusiveStartKey", "ReturnConsumedCapacity", "AttributesToGet", "ConditionalOperator",
	"Segment", "TotalSegments", "ScanFilter"}

func (in *scanInput) decode(b []byte) error {
	return topMembers(b, scanMembers, func(k string, raw []byte) error {
		switch k {
		case "Segment":
			return rawInt(raw, &in.Segment)
		case "TotalSegments":
			return rawInt(raw, &in.TotalSegments)
		case "ScanFilter":
			return rawJSONValue(raw, &in.ScanFilter)
		}
		return in.member(k, raw)
	})
}

// The batches walk their checked body once with a cursor (an objectDecoder
// over the whole body): each value is read where it starts and the cursor
// left past it, and the items are decoded by one ddbjson.Decoder, which
// shares its allocations between them (and, in the handlers, reuses those
// of the request before: batchScratch). Slicing each value out first
// (walkMembers) would scan an item once more for every level it is nested
// in. The rules are encoding/json's for maps, rawList's, rawStruct's and
// rawItem's: JSON null leaves a value unset, and anything encoding/json
// would read differently is errSlow.

// next moves past the value at d.i and returns it.
func (d *objectDecoder) next() []byte {
	d.ws()
	start := d.i
	d.i = valueEnd(d.b, d.i)
	return d.b[start:d.i]
}

// null moves past a JSON null at d.i, if there is one.
func (d *objectDecoder) null() bool {
	d.ws()
	if d.i < len(d.b) && d.b[d.i] == 'n' {
		d.i += len("null")
		return true
	}
	return false
}

// object calls fn for each member of the object at d.i, with d.i at its
// value, which fn moves past; key is only valid during the call.
func (d *objectDecoder) object(fn func(key []byte) error) error {
	return d.collection('{', '}', func() error {
		key, err := d.strBytes()
		if err != nil {
			return err
		}
		d.ws()
		if d.i >= len(d.b) || d.b[d.i] != ':' {
			return errSyntax
		}
		d.i++
		d.ws()
		return fn(key)
	})
}

// array calls fn for each element of the array at d.i, with d.i at the
// element, which fn moves past.
func (d *objectDecoder) array(fn func() error) error { return d.collection('[', ']', fn) }

func (d *objectDecoder) collection(open, close byte, fn func() error) error {
	d.ws()
	if d.i >= len(d.b) || d.b[d.i] != open {
		return errSlow
	}
	d.i++
	d.ws()
	if d.i < len(d.b) && d.b[d.i] == close {
		d.i++
		return nil
	}
	for {
		d.ws()
		if err := fn(); err != nil {
			return err
		}
		d.ws()
		if d.i >= len(d.b) {
			return errSyntax
		}
		switch d.b[d.i] {
		case ',':
			d.i++
		case close:
			d.i++
			return nil
		default:
			return errSyntax
		}
	}
}

// members is structMembers over the cursor: fn gets each known member
// once, with d.i at its value, which fn moves past; others are skipped.
func (d *objectDecoder) members(names []string, fn func(k int) error) error {
	var seen uint64
	return d.object(func(key []byte) error {
		i, err := structMember(names, key, &seen)
		if i < 0 {
			if err == nil {
				d.next()
			}
			return err
		}
		return fn(i)
	})
}

// item decodes the item at d.i (rawItem's rules) into a recycled map of
// the scratch, if there is one.
func (d *batchDecoder) item(dst *itemJSON) error {
	if d.null() {
		return nil
	}
	if d.b[d.i] != '{' {
		return errSlow
	}
	var reuse Item
	if d.sc != nil {
		reuse = d.sc.itemMap()
	}
	m, end, err := d.items.ItemAt(d.i, reuse)
	if err != nil {
		return jsonError(err)
	}
	d.i = end
	*dst = m
	return nil
}

// batchDecoder decodes one batch request: the cursor, the items' decoder,
// the request's scratch (nil: none), whose maps the items take, and slabs
// for the structures around the items (one allocation for up to a batch's
// worth of them).
type batchDecoder struct {
	objectDecoder
	items *ddbjson.Decoder
	sc    *batchScratch
	reqs  []writeRequest
	puts  []putRequest
	dels  []deleteRequest
	kas   []keysAndAttributes
}

// decodeBatch checks b's syntax and runs fn with a batchDecoder over it:
// sc's items decoder, reset, if there is a scratch.
func decodeBatch(b []byte, sc *batchScratch, fn func(d *batchDecoder) error) error {
	if err := checkBody(b); err != nil {
		return err
	}
	d := batchDecoder{objectDecoder: objectDecoder{b: b}, sc: sc}
	if sc == nil {
		d.items = ddbjson.NewDecoder(b)
	} else {
		d.items = sc.decoder(b)
	}
	defer d.items.Release()
	return fn(&d)
}

// slabNext returns a zeroed element of *slab, which grows by n at a time.
func slabNext[T any](slab *[]T, n int) *T {
	if len(*slab) == cap(*slab) {
		*slab = make([]T, 0, n)
	}
	*slab = (*slab)[:len(*slab)+1]
	return &(*slab)[len(*slab)-1]
}

var batchWriteMembers = []string{"RequestItems", "ReturnConsumedCapacity", "ReturnItemCollectionMetrics"}

func (in *batchWriteInput) decode(b []byte) error { return in.decodeWith(b, nil) }

// decodeWith is decode with the items in maps of sc (nil: new maps).
func (in *batchWriteInput) decodeWith(b []byte, sc *batchScratch) error {
	return decodeBatch(b, sc, func(d *batchDecoder) error {
		return d.members(batchWriteMembers, func(k int) error {
			switch k {
			case 0:
				return d.writeRequestItems(&in.RequestItems)
			case 1:
				return rawString(d.next(), &in.ReturnConsumedCapacity)
			}
			return rawString(d.next(), &in.ReturnItemCollectionMetrics)
		})
	})
}

// writeRequestItems decodes BatchWriteItem's RequestItems (a later repeated
// table replaces the earlier one, as in encoding/json).
func (d *batchDecoder) writeRequestItems(dst *map[string][]*writeRequest) error {
	if d.null() {
		return nil
	}
	m := map[string][]*writeRequest{}
	if err := d.object(func(table []byte) error {
		var reqs []*writeRequest
		if !d.null() {
			reqs = make([]*writeRequest, 0, limits.MaxBatchWrite)
			if err := d.array(func() error {
				var r *writeRequest
				if !d.null() {
					if d.b[d.i] != '{' {
						return errSlow
					}
					r = slabNext(&d.reqs, limits.MaxBatchWrite)
					if err := d.writeRequest(r); err != nil {
						return err
					}
				}
				reqs = append(reqs, r)
				return nil
			}); err != nil {
				return err
			}
		}
		m[string(table)] = reqs
		return nil
	}); err != nil {
		return err
	}
	*dst = m
	return nil
}

var (
	writeRequestMembers = []string{"PutRequest", "DeleteRequest"}
	itemMember          = []string{"Item"}
	keyMember           = []string{"Key"}
)

func (d *batchDecoder) writeRequest(r *writeRequest) error {
	return d.members(writeRequestMembers, func(k int) error {
		if d.null() {
			return nil
		}
		if d.b[d.i] != '{' {
			return errSlow
		}
		if k == 0 {
			r.PutRequest = slabNext(&d.puts, limits.MaxBatchWrite)
			return d.members(itemMember, func(int) error { return d.item(&r.PutRequest.Item) })
		}
		r.DeleteRequest = slabNext(&d.dels, limits.MaxBatchWrite)
		return d.members(keyMember, func(int) error { return d.item(&r.DeleteRequest.Key) })
	})
}

var batchGetMembers = []string{"RequestItems", "ReturnConsumedCapacity"}

func (in *batchGetInput) decode(b []byte) error { return in.decodeWith(b, nil) }

// decodeWith is decode with the keys in maps of sc (nil: new maps).
func (in *batchGetInput) decodeWith(b []byte, sc *batchScratch) error {
	return decodeBatch(b, sc, func(d *batchDecoder) error {
		return d.members(batchGetMembers, func(k int) error {
			if k == 1 {
				return rawString(d.next(), &in.ReturnConsumedCapacity)
			}
			if d.null() {
				return nil
			}
			m := map[string]*keysAndAttributes{}
			if err := d.object(func(table []byte) error {
				var ka *keysAndAttributes
				if !d.null() {
					if d.b[d.i] != '{' {
						return errSlow
					}
					ka = slabNext(&d.kas, 4)
					if err := d.keysAndAttributes(ka); err != nil {
						return err
					}
				}
				m[string(table)] = ka
				return nil
			}); err != nil {
				return err
			}
			in.RequestItems = m
			return nil
		})
	})
}

var keysAndAttributesMembers = []string{"Keys", "ProjectionExpression", "ExpressionAttributeNames", "ConsistentRead", "AttributesToGet"}

func (d *batchDecoder) keysAndAttributes(ka *keysAndAttributes) error {
	return d.members(keysAndAttributesMembers, func(k int) error {
		switch k {
		case 0:
			if d.null() {
				return nil
			}
			ka.Keys = make([]itemJSON, 0, limits.MaxBatchWrite) // the usual batch
			return d.array(func() error {
				ka.Keys = append(ka.Keys, nil)
				return d.item(&ka.Keys[len(ka.Keys)-1])
			})
		case 1:
			return rawString(d.next(), &ka.ProjectionExpression)
		case 2:
			return rawNames(d.next(), &ka.ExpressionAttributeNames)
		case 3:
			return rawBool(d.next(), &ka.ConsistentRead)
		}
		return rawJSONValue(d.next(), &ka.AttributesToGet)
	})
}

var txOpMembers = []string{"TableName", "Key", "Item", "ConditionExpression", "UpdateExpression",
	"ProjectionExpression", "ExpressionAttributeNames", "ExpressionAttributeValues", "ReturnValuesOnConditionCheckFailure"}

func (op *txOp) decode(b []byte) error {
	return structMembers(b, txOpMembers, func(k string, raw []byte) error {
		switch k {
		case "TableName":
			return rawString(raw, &op.TableName)
		case "Key":
			return rawItem(raw, &op.Key)
		case "Item":
			return rawItem(raw, &op.Item)
		case "ConditionExpression":
			return rawString(raw, &op.ConditionExpression)
		case "UpdateExpression":
			return rawString(raw, &op.UpdateExpression)
		case "ProjectionExpression":
			return rawString(raw, &op.ProjectionExpression)
		case "ExpressionAttributeNames":
			return rawNames(raw, &op.ExpressionAttributeNames)
		case "ExpressionAttributeValues":
			return rawItem(raw, &op.ExpressionAttributeValues)
		}
		return rawString(raw, &op.ReturnValuesOnConditionCheckFailure)
	})
}

var (
	transactWriteMembers     = []string{"TransactItems", "ReturnConsumedCapacity", "ReturnItemCollectionMetrics", "ClientRequestToken"}
	transactWriteItemMembers = []string{"ConditionCheck", "Put", "Update", "Delete"}
)

func (in *transactWriteInput) decode(b []byte) error {
	return topMembers(b, transactWriteMembers, func(k string, raw []byte) error {
		switch k {
		case "TransactItems":
			return rawList(raw, &in.TransactItems, func(v []byte, it **transactWriteItem) error {
				return rawStruct(v, it, (*transactWriteItem).decode)
			})
		case "ReturnConsumedCapacity":
			return rawString(raw, &in.ReturnConsumedCapacity)
		case "ReturnItemCollectionMetrics":
			return rawString(raw, &in.ReturnItemCollectionMetrics)
		}
		return rawString(raw, &in.ClientRequestToken)
	})
}

func (it *transactWriteItem) decode(b []byte) error {
	return structMembers(b, transactWriteItemMembers, func(k string, raw []byte) error {
		switch k {
		case "ConditionCheck":
			return rawStruct(raw, &it.ConditionCheck, (*txOp).decode)
		case "Put":
			return rawStruct(raw, &it.Put, (*txOp).decode)
		case "Update":
			return rawStruct(raw, &it.Update, (*txOp).decode)
		}
		return rawStruct(raw, &it.Delete, (*txOp).decode)
	})
}

var (
	transactGetMembers = []string{"TransactItems", "ReturnConsumedCapacity"}
	getMember          = []string{"Get"}
)

func (in *transactGetInput) decode(b []byte) error {
	return topMembers(b, transactGetMembers, func(k string, raw []byte) error {
		if k == "ReturnConsumedCapacity" {
			return rawString(raw, &in.ReturnConsumedCapacity)
		}
		return rawList(raw, &in.TransactItems, func(v []byte, it **struct{ Get *txOp }) error {
			return rawStruct(v, it, func(g *struct{ Get *txOp }, b []byte) error {
				return structMembers(b, getMember, func(_ string, raw []byte) error {
					return rawStruct(raw, &g.Get, (*txOp).decode)
				})
			})
		})
	})
}
