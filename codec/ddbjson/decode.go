package ddbjson

import (
	"encoding/base64"
	"strconv"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/internal/jsonscan"
)

// MaxDepth is the deepest JSON nesting (objects and arrays) the decoder accepts inside one
// value; deeper input is a *SyntaxError, never a stack overflow. DynamoDB itself stores at most
// 32 levels of documents, which the server checks separately.
const MaxDepth = 1000

// SyntaxError reports input that is not DynamoDB JSON.
//
// Msg is worded as DynamoDB words it where that is known (the SerializationException texts of
// the service's JSON layer, for example "NUMBER_VALUE cannot be converted to String"). Offset is
// the byte offset in the decoded input (for Value and Item decoded through encoding/json, the
// offset inside that value).
//
// Validation is set for the two shapes DynamoDB rejects with a ValidationException instead of a
// SerializationException: a value object with no type ("Supplied AttributeValue is empty, …")
// and one with several ("Supplied AttributeValue has more than one datatypes set, …"). They are
// reported only when the whole input is otherwise well formed, as DynamoDB deserializes before
// it validates.
type SyntaxError struct {
	Offset     int64
	Msg        string
	Validation bool
}

func (e *SyntaxError) Error() string {
	return "ddbjson: " + e.Msg + " (offset " + strconv.FormatInt(e.Offset, 10) + ")"
}

// DynamoDB's texts for the shapes below; captured from the service by the dynalite test suite.
const (
	msgEmptyValue    = "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"
	msgMultipleTypes = "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"
	msgStartOfMap    = "Start of structure or map found where not expected"
	msgFieldType     = "Unexpected field type"
	msgValueType     = "Unexpected value type in payload"
	msgNotBytes      = "only base-64-encoded strings are convertible to bytes"
	msgBoolToken     = "Unexpected token received from parser"
	msgLastBase64    = "Invalid last non-pad Base64 character dectected" // sic
	msgBase64Char    = "Invalid Base64 character dectected"
	classPrefix      = "Unrecognized collection type "
	collString       = classPrefix + "class java.lang.String"
	collBool         = classPrefix + "class java.lang.Boolean"
	collBytes        = classPrefix + "class java.nio.ByteBuffer"
	collValue        = classPrefix + "class com.amazonaws.dynamodb.v20120810.AttributeValue"
	collMap          = classPrefix + "java.util.Map<java.lang.String, com.amazonaws.dynamodb.v20120810.AttributeValue>"
)

// Unmarshal decodes one DynamoDB JSON value such as {"S":"x"} or {"M":{...}}. Only whitespace
// may follow it.
func Unmarshal(data []byte) (types.AttributeValue, error) {
	d := newDecoder(data)
	defer d.release()
	d.ws()
	if d.i < len(d.data) && d.data[d.i] == 'n' {
		return nil, d.fail(d.i, msgValueType)
	}
	av, err := d.value()
	if err == nil {
		err = d.finish()
	}
	if err != nil {
		return nil, err
	}
	return av, nil
}

// UnmarshalItem decodes a JSON object of attribute names to DynamoDB JSON values, the shape of
// an item, a key, or ExpressionAttributeValues.
func UnmarshalItem(data []byte) (map[string]types.AttributeValue, error) {
	d := newDecoder(data)
	defer d.release()
	d.ws()
	start := d.i
	m, err := d.item(msgFieldType)
	if err == nil && m == nil { // null
		err = d.fail(start, msgFieldType)
	}
	if err == nil {
		err = d.finish()
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}

// UnmarshalList decodes a JSON array of DynamoDB JSON values (ExecuteStatement's Parameters).
func UnmarshalList(data []byte) ([]types.AttributeValue, error) {
	d := newDecoder(data)
	defer d.release()
	d.ws()
	if d.i < len(d.data) && d.data[d.i] != '[' {
		return nil, d.fail(d.i, msgFieldType)
	}
	l, err := d.list()
	if err == nil {
		err = d.finish()
	}
	if err != nil {
		return nil, err
	}
	return l, nil
}

type decoder struct {
	data  []byte
	i     int
	depth int
	// invalid is the first validation failure (empty or multi-typed value), reported only if
	// the rest of the input decodes.
	invalid *SyntaxError

	// Batched allocations (see intern and newS): one decode makes a few large allocations
	// instead of one per string and per S/N value.
	chunk   []byte
	scratch []byte
	sSlab   []types.AttributeValueMemberS
	nSlab   []types.AttributeValueMemberN

	// reuse, if not nil, is the map the top-level item becomes (Decoder.ItemAt).
	reuse map[string]types.AttributeValue

	// Element stacks shared by nested lists and maps (see list and item), and scratch, borrowed
	// from stackPool for one decode (see newDecoder).
	avs     []types.AttributeValue
	strs    []string
	members []member
	stk     *stacks
}

// stacks are a decoder's working buffers. They are reused from one decode to the next through
// stackPool: nothing decoded points into them (elements are copied out into the values
// returned, strings into chunk, which is never reused), and the element stacks are cleared as
// they are popped, so a pooled stack holds no pointer to a decoded value.
type stacks struct {
	avs     []types.AttributeValue
	strs    []string
	members []member
	scratch []byte
}

var stackPool = sync.Pool{New: func() any {
	return &stacks{
		avs:     make([]types.AttributeValue, 0, 16),
		strs:    make([]string, 0, 16),
		members: make([]member, 0, 32),
	}
}}

// Stacks that grew past these (a large item) are left to the garbage collector rather than
// kept in the pool.
const (
	maxPooledElems   = 1024
	maxPooledScratch = 64 << 10
)

func newDecoder(data []byte) decoder {
	s := stackPool.Get().(*stacks)
	return decoder{data: data, stk: s, avs: s.avs, strs: s.strs, members: s.members, scratch: s.scratch}
}

// release returns the decoder's stacks to the pool. The stacks are empty and cleared here:
// every push is popped (and cleared) by the list or item that made it, on errors too.
func (d *decoder) release() {
	s := d.stk
	if s == nil {
		return
	}
	d.stk = nil
	if cap(d.avs) > maxPooledElems || cap(d.strs) > maxPooledElems || cap(d.members) > maxPooledElems ||
		cap(d.scratch) > maxPooledScratch {
		return
	}
	s.avs, s.strs, s.members, s.scratch = d.avs[:0], d.strs[:0], d.members[:0], d.scratch[:0]
	stackPool.Put(s)
}

type member struct {
	name string
	av   types.AttributeValue
}

// intern returns b as a string. Strings are carved out of a shared chunk that is only ever
// appended to, so the bytes behind a returned string never change; a full chunk is left to the
// strings that point into it and a new one is started. The values of one decoded item thus
// share a few allocations (and keep each other's chunk alive, which is the trade-off).
func (d *decoder) intern(b []byte) string {
	n := len(b)
	if n == 0 {
		return ""
	}
	if n > 256 {
		return string(b)
	}
	if cap(d.chunk)-len(d.chunk) < n {
		size := 2 * cap(d.chunk)
		size = max(size, 512)
		size = min(size, 16<<10)
		// The strings still to come are no longer than the input left after this one (escapes
		// only shorten them; the rare U+FFFD for an invalid byte just starts another chunk), so
		// a small input (a key, a small item) gets a chunk its size, not 512 bytes.
		size = min(size, n+len(d.data)-d.i)
		size = max(size, n)
		d.chunk = make([]byte, 0, size)
	}
	start := len(d.chunk)
	d.chunk = append(d.chunk, b...)
	return unsafe.String(&d.chunk[start], n)
}

func (d *decoder) newS() *types.AttributeValueMemberS {
	if len(d.sSlab) == cap(d.sSlab) {
		d.sSlab = make([]types.AttributeValueMemberS, 0, d.slabSize(cap(d.sSlab)))
	}
	d.sSlab = d.sSlab[:len(d.sSlab)+1]
	return &d.sSlab[len(d.sSlab)-1]
}

func (d *decoder) newN() *types.AttributeValueMemberN {
	if len(d.nSlab) == cap(d.nSlab) {
		d.nSlab = make([]types.AttributeValueMemberN, 0, d.slabSize(cap(d.nSlab)))
	}
	d.nSlab = d.nSlab[:len(d.nSlab)+1]
	return &d.nSlab[len(d.nSlab)-1]
}

// slabSize is the size of the next S or N slab after one of size last: growing, and no larger
// than the input left can fill, since every further value takes at least 8 bytes ({"S":""}).
func (d *decoder) slabSize(last int) int {
	return max(1, min(2*last+4, 64, 1+(len(d.data)-d.i)/8))
}

func (d *decoder) fail(off int, msg string) error {
	return &SyntaxError{Offset: int64(off), Msg: msg}
}

func (d *decoder) validation(off int, msg string) {
	if d.invalid == nil {
		d.invalid = &SyntaxError{Offset: int64(off), Msg: msg, Validation: true}
	}
}

// finish checks that only whitespace is left and reports a pending validation failure.
func (d *decoder) finish() error {
	d.ws()
	if d.i != len(d.data) {
		return d.fail(d.i, "unexpected data after the value")
	}
	if d.invalid != nil {
		return d.invalid
	}
	return nil
}

func (d *decoder) ws() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *decoder) eof() error { return d.fail(d.i, "unexpected end of input") }

// expect consumes c after optional whitespace.
func (d *decoder) expect(c byte) error {
	d.ws()
	if d.i >= len(d.data) {
		return d.eof()
	}
	if d.data[d.i] != c {
		return d.fail(d.i, "expected "+strconv.QuoteRune(rune(c))+", found "+d.tokenName())
	}
	d.i++
	return nil
}

func (d *decoder) tokenName() string {
	c := d.data[d.i]
	if c >= 0x20 && c < 0x7f {
		return strconv.QuoteRune(rune(c))
	}
	return "byte 0x" + strconv.FormatUint(uint64(c), 16)
}

func (d *decoder) push() error {
	d.depth++
	if d.depth > MaxDepth {
		return d.fail(d.i, "nesting depth exceeds "+strconv.Itoa(MaxDepth))
	}
	return nil
}

// literal consumes the JSON literal lit (true, false, null) at d.i.
func (d *decoder) literal(lit string) error {
	if len(d.data)-d.i < len(lit) || string(d.data[d.i:d.i+len(lit)]) != lit {
		return d.fail(d.i, "invalid literal, expected "+lit)
	}
	d.i += len(lit)
	return nil
}

// isNull consumes a null literal if one is next.
func (d *decoder) isNull() (bool, error) {
	d.ws()
	if d.i < len(d.data) && d.data[d.i] == 'n' {
		return true, d.literal("null")
	}
	return false, nil
}

// scalarKind names the JSON scalar at d.i the way DynamoDB's JSON layer does
// (NUMBER_VALUE, DECIMAL_VALUE, TRUE_VALUE, FALSE_VALUE, STRING_VALUE), after checking it is a
// well-formed token. '{', '[' and anything that starts no value are errors.
func (d *decoder) scalarKind() (kind string, err error) {
	switch c := d.data[d.i]; {
	case c == 't':
		return "TRUE_VALUE", d.literal("true")
	case c == 'f':
		return "FALSE_VALUE", d.literal("false")
	case c == 'n':
		return "NULL_VALUE", d.literal("null")
	case c == '"':
		_, err := d.str()
		return "STRING_VALUE", err
	case c == '-' || (c >= '0' && c <= '9'):
		dec, err := d.number()
		if dec {
			return "DECIMAL_VALUE", err
		}
		return "NUMBER_VALUE", err
	}
	return "", d.fail(d.i, "invalid character "+d.tokenName()+" looking for a value")
}

// number consumes a JSON number and reports whether it has a fraction or exponent.
func (d *decoder) number() (decimal bool, err error) {
	start := d.i
	if d.data[d.i] == '-' {
		d.i++
	}
	digits := func() int {
		n := 0
		for d.i < len(d.data) && d.data[d.i] >= '0' && d.data[d.i] <= '9' {
			d.i++
			n++
		}
		return n
	}
	if d.i < len(d.data) && d.data[d.i] == '0' {
		d.i++
	} else if digits() == 0 {
		return false, d.fail(start, "invalid number")
	}
	if d.i < len(d.data) && d.data[d.i] == '.' {
		d.i++
		decimal = true
		if digits() == 0 {
			return false, d.fail(start, "invalid number")
		}
	}
	if d.i < len(d.data) && (d.data[d.i] == 'e' || d.data[d.i] == 'E') {
		d.i++
		decimal = true
		if d.i < len(d.data) && (d.data[d.i] == '+' || d.data[d.i] == '-') {
			d.i++
		}
		if digits() == 0 {
			return false, d.fail(start, "invalid number")
		}
	}
	return decimal, nil
}

// value decodes one attribute value object. It returns (nil, nil) when the object was empty or
// multi-typed (recorded as a pending validation failure) so decoding can go on.
func (d *decoder) value() (types.AttributeValue, error) {
	d.ws()
	if d.i >= len(d.data) {
		return nil, d.eof()
	}
	start := d.i
	switch d.data[d.i] {
	case '{':
	case '[':
		return nil, d.fail(d.i, collValue)
	default:
		if _, err := d.scalarKind(); err != nil {
			return nil, err
		}
		return nil, d.fail(start, msgValueType)
	}
	if err := d.push(); err != nil {
		return nil, err
	}
	d.i++
	var av types.AttributeValue
	var seen uint16
	n := 0
	d.ws()
	if d.i < len(d.data) && d.data[d.i] == '}' {
		d.i++
	} else {
		for {
			d.ws()
			if d.i >= len(d.data) {
				return nil, d.eof()
			}
			if d.data[d.i] != '"' {
				return nil, d.fail(d.i, "expected a type name string, found "+d.tokenName())
			}
			tag, err := d.key()
			if err != nil {
				return nil, err
			}
			if err := d.expect(':'); err != nil {
				return nil, err
			}
			v, err := d.member(tag)
			if err != nil {
				return nil, err
			}
			if v != nil {
				// A repeated type name replaces the earlier value (the last one wins, as
				// when DynamoDB deserializes into its AttributeValue structure).
				if bit := tagBit(tag); seen&bit == 0 {
					seen |= bit
					n++
				}
				av = v
			}
			d.ws()
			if d.i >= len(d.data) {
				return nil, d.eof()
			}
			if d.data[d.i] == ',' {
				d.i++
				continue
			}
			if d.data[d.i] == '}' {
				d.i++
				break
			}
			return nil, d.fail(d.i, "expected ',' or '}', found "+d.tokenName())
		}
	}
	d.depth--
	switch n {
	case 1:
		return av, nil
	case 0:
		d.validation(start, msgEmptyValue)
	default:
		d.validation(start, msgMultipleTypes)
	}
	return nil, nil
}

// key decodes an object key. Type tags are matched without allocating.
func (d *decoder) key() (string, error) {
	start := d.i + 1
	for j := start; j < len(d.data); j++ {
		c := d.data[j]
		if c == '"' {
			d.i = j + 1
			return tagName(d.data[start:j]), nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
	}
	return d.str()
}

// tagName returns the interned name for a known type tag, else a copy of b.
func tagName(b []byte) string {
	switch string(b) {
	case "S":
		return "S"
	case "N":
		return "N"
	case "B":
		return "B"
	case "BOOL":
		return "BOOL"
	case "NULL":
		return "NULL"
	case "SS":
		return "SS"
	case "NS":
		return "NS"
	case "BS":
		return "BS"
	case "L":
		return "L"
	case "M":
		return "M"
	}
	return string(b)
}

func tagBit(tag string) uint16 {
	switch tag {
	case "S":
		return 1 << 0
	case "N":
		return 1 << 1
	case "B":
		return 1 << 2
	case "BOOL":
		return 1 << 3
	case "NULL":
		return 1 << 4
	case "SS":
		return 1 << 5
	case "NS":
		return 1 << 6
	case "BS":
		return 1 << 7
	case "L":
		return 1 << 8
	}
	return 1 << 9 // M; member returns nil for every other name
}

// member decodes the value of one type tag. A JSON null stands for an absent member, as in
// DynamoDB's JSON layer: it returns (nil, nil).
func (d *decoder) member(tag string) (types.AttributeValue, error) {
	if null, err := d.isNull(); null || err != nil {
		return nil, err
	}
	switch tag {
	case "S":
		s, err := d.stringValue()
		if err != nil {
			return nil, err
		}
		v := d.newS()
		v.Value = s
		return v, nil
	case "N":
		s, err := d.stringValue()
		if err != nil {
			return nil, err
		}
		v := d.newN()
		v.Value = s
		return v, nil
	case "B":
		b, err := d.blob()
		if err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberB{Value: b}, nil
	case "BOOL":
		b, err := d.boolean()
		if err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberBOOL{Value: b}, nil
	case "NULL":
		b, err := d.boolean()
		if err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberNULL{Value: b}, nil
	case "SS", "NS":
		ss, err := d.stringList()
		if err != nil {
			return nil, err
		}
		if tag == "SS" {
			return &types.AttributeValueMemberSS{Value: ss}, nil
		}
		return &types.AttributeValueMemberNS{Value: ss}, nil
	case "BS":
		bs, err := d.blobList()
		if err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberBS{Value: bs}, nil
	case "L":
		l, err := d.list()
		if err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberL{Value: l}, nil
	case "M":
		m, err := d.item(msgFieldType)
		if err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberM{Value: m}, nil
	}
	// Any other member name is skipped, as DynamoDB's JSON layer skips unknown members of a
	// structure: {"a":""} is then an empty value (ValidationException "Supplied AttributeValue
	// is empty, …"), and {"S":"x","a":1} is just {"S":"x"}. The skipped value must still be
	// well-formed JSON.
	return nil, d.skip()
}

// skip consumes any one JSON value.
func (d *decoder) skip() error {
	d.ws()
	if d.i >= len(d.data) {
		return d.eof()
	}
	open := d.data[d.i]
	if open != '{' && open != '[' {
		_, err := d.scalarKind()
		return err
	}
	if err := d.push(); err != nil {
		return err
	}
	d.i++
	closeCh := byte('}')
	if open == '[' {
		closeCh = ']'
	}
	d.ws()
	if d.i < len(d.data) && d.data[d.i] == closeCh {
		d.i++
		d.depth--
		return nil
	}
	for {
		if open == '{' {
			d.ws()
			if d.i >= len(d.data) {
				return d.eof()
			}
			if d.data[d.i] != '"' {
				return d.fail(d.i, "expected a member name string, found "+d.tokenName())
			}
			if _, err := d.str(); err != nil {
				return err
			}
			if err := d.expect(':'); err != nil {
				return err
			}
		}
		if err := d.skip(); err != nil {
			return err
		}
		d.ws()
		if d.i >= len(d.data) {
			return d.eof()
		}
		switch d.data[d.i] {
		case ',':
			d.i++
			continue
		case closeCh:
			d.i++
			d.depth--
			return nil
		}
		return d.fail(d.i, "expected ',' or "+strconv.QuoteRune(rune(closeCh))+", found "+d.tokenName())
	}
}

// mismatch builds the error for a JSON token of the wrong kind at d.i, where a value of class
// want ("String", "Boolean") was expected.
func (d *decoder) mismatch(want, collection string) error {
	start := d.i
	switch d.data[d.i] {
	case '{':
		return d.fail(start, msgStartOfMap)
	case '[':
		return d.fail(start, collection)
	}
	kind, err := d.scalarKind()
	if err != nil {
		return err
	}
	return d.fail(start, kind+" cannot be converted to "+want)
}

func (d *decoder) stringValue() (string, error) {
	d.ws()
	if d.i >= len(d.data) {
		return "", d.eof()
	}
	if d.data[d.i] != '"' {
		return "", d.mismatch("String", collString)
	}
	return d.str()
}

func (d *decoder) boolean() (bool, error) {
	d.ws()
	if d.i >= len(d.data) {
		return false, d.eof()
	}
	switch d.data[d.i] {
	case 't':
		return true, d.literal("true")
	case 'f':
		return false, d.literal("false")
	case '"':
		start := d.i
		if _, err := d.str(); err != nil {
			return false, err
		}
		return false, d.fail(start, msgBoolToken)
	}
	return false, d.mismatch("Boolean", collBool)
}

func (d *decoder) blob() ([]byte, error) {
	d.ws()
	if d.i >= len(d.data) {
		return nil, d.eof()
	}
	start := d.i
	switch d.data[d.i] {
	case '"':
	case '{':
		return nil, d.fail(start, msgStartOfMap)
	case '[':
		return nil, d.fail(start, collBytes)
	default:
		if _, err := d.scalarKind(); err != nil {
			return nil, err
		}
		return nil, d.fail(start, msgNotBytes)
	}
	s, err := d.str()
	if err != nil {
		return nil, err
	}
	if len(s)%4 != 0 {
		return nil, d.fail(start, "Base64 encoded length is expected a multiple of 4 bytes but found: "+strconv.Itoa(len(s)))
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '\r' || s[i] == '\n' { // the standard decoder would skip them
			return nil, d.fail(start, msgBase64Char)
		}
	}
	b := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
	n, err := base64.StdEncoding.Strict().Decode(b, []byte(s))
	if err != nil {
		if ce, ok := err.(base64.CorruptInputError); ok && int(ce) < len(s)-4 {
			return nil, d.fail(start, msgBase64Char)
		}
		return nil, d.fail(start, msgLastBase64)
	}
	return b[:n:n], nil
}

// array walks a JSON array at d.i, calling elem for each element. Anything but an array gets
// the List messages.
func (d *decoder) array(elem func() error) error {
	d.ws()
	if d.i >= len(d.data) {
		return d.eof()
	}
	switch d.data[d.i] {
	case '[':
	case '{':
		return d.fail(d.i, msgStartOfMap)
	default:
		start := d.i
		if _, err := d.scalarKind(); err != nil {
			return err
		}
		return d.fail(start, msgFieldType)
	}
	if err := d.push(); err != nil {
		return err
	}
	d.i++
	d.ws()
	if d.i < len(d.data) && d.data[d.i] == ']' {
		d.i++
		d.depth--
		return nil
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		d.ws()
		if d.i >= len(d.data) {
			return d.eof()
		}
		switch d.data[d.i] {
		case ',':
			d.i++
			continue
		case ']':
			d.i++
			d.depth--
			return nil
		}
		return d.fail(d.i, "expected ',' or ']', found "+d.tokenName())
	}
}

func (d *decoder) setNull() (bool, error) {
	at := d.i
	null, err := d.isNull()
	if null && err == nil {
		return true, d.fail(at, "null is not a valid set element")
	}
	return false, err
}

func (d *decoder) stringList() ([]string, error) {
	if d.strs == nil {
		d.strs = make([]string, 0, 16)
	}
	base := len(d.strs)
	err := d.array(func() error {
		if null, err := d.setNull(); null || err != nil {
			return err
		}
		s, err := d.stringValue()
		d.strs = append(d.strs, s)
		return err
	})
	out := make([]string, len(d.strs)-base)
	copy(out, d.strs[base:])
	clear(d.strs[base:])
	d.strs = d.strs[:base]
	return out, err
}

func (d *decoder) blobList() ([][]byte, error) {
	out := [][]byte{}
	err := d.array(func() error {
		if null, err := d.setNull(); null || err != nil {
			return err
		}
		b, err := d.blob()
		out = append(out, b)
		return err
	})
	return out, err
}

// element decodes a list element or map value; null there is an empty attribute value.
func (d *decoder) element() (types.AttributeValue, error) {
	d.ws()
	at := d.i
	if null, err := d.isNull(); null || err != nil {
		if err == nil {
			d.validation(at, msgEmptyValue)
		}
		return nil, err
	}
	return d.value()
}

func (d *decoder) list() ([]types.AttributeValue, error) {
	if d.avs == nil {
		d.avs = make([]types.AttributeValue, 0, 16)
	}
	base := len(d.avs)
	err := d.array(func() error {
		av, err := d.element()
		d.avs = append(d.avs, av)
		return err
	})
	out := make([]types.AttributeValue, len(d.avs)-base)
	copy(out, d.avs[base:])
	clear(d.avs[base:])
	d.avs = d.avs[:base]
	return out, err
}

// item decodes an object of attribute names to values. A JSON null gives (nil, nil).
// scalarMsg is the message for a JSON scalar in its place.
func (d *decoder) item(scalarMsg string) (map[string]types.AttributeValue, error) {
	d.ws()
	if d.i >= len(d.data) {
		return nil, d.eof()
	}
	start := d.i
	switch d.data[d.i] {
	case '{':
	case '[':
		return nil, d.fail(start, collMap)
	case 'n':
		return nil, d.literal("null")
	default:
		if _, err := d.scalarKind(); err != nil {
			return nil, err
		}
		return nil, d.fail(start, scalarMsg)
	}
	if err := d.push(); err != nil {
		return nil, err
	}
	d.i++
	d.ws()
	if d.i < len(d.data) && d.data[d.i] == '}' {
		d.i++
		d.depth--
		return d.newMap(0), nil
	}
	// Members are collected on a stack shared with nested objects, then the map is made at its
	// final size in one go.
	if d.members == nil {
		d.members = make([]member, 0, 32)
	}
	base := len(d.members)
	defer func() {
		clear(d.members[base:])
		d.members = d.members[:base]
	}()
	for {
		d.ws()
		if d.i >= len(d.data) {
			return nil, d.eof()
		}
		if d.data[d.i] != '"' {
			return nil, d.fail(d.i, "expected an attribute name string, found "+d.tokenName())
		}
		name, err := d.str()
		if err != nil {
			return nil, err
		}
		if err := d.expect(':'); err != nil {
			return nil, err
		}
		av, err := d.element()
		if err != nil {
			return nil, err
		}
		d.members = append(d.members, member{name, av})
		d.ws()
		if d.i >= len(d.data) {
			return nil, d.eof()
		}
		switch d.data[d.i] {
		case ',':
			d.i++
			continue
		case '}':
			d.i++
			d.depth--
			m := d.newMap(len(d.members) - base)
			for _, kv := range d.members[base:] {
				m[kv.name] = kv.av
			}
			return m, nil
		}
		return nil, d.fail(d.i, "expected ',' or '}', found "+d.tokenName())
	}
}

// newMap returns the map of an item of n attributes just decoded: the
// caller's reuse map for the top-level item (at depth 0 once it is closed).
func (d *decoder) newMap(n int) map[string]types.AttributeValue {
	if d.reuse != nil && d.depth == 0 {
		m := d.reuse
		d.reuse = nil
		return m
	}
	return make(map[string]types.AttributeValue, n)
}

// str decodes the JSON string at d.i (which is '"'). Invalid UTF-8 and unpaired surrogate
// escapes become U+FFFD, as with encoding/json.
func (d *decoder) str() (string, error) {
	start := d.i + 1
	ascii := true
	j := jsonscan.PlainBytes(d.data, start)
	for ; j < len(d.data); j++ {
		c := d.data[j]
		if plainASCII[c] {
			continue
		}
		if c == '"' {
			seg := d.data[start:j]
			if ascii || utf8.Valid(seg) {
				d.i = j + 1
				return d.intern(seg), nil
			}
			break
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", d.fail(j, "invalid control character in string")
		}
		if c >= utf8.RuneSelf {
			ascii = false
		}
	}
	if j >= len(d.data) {
		return "", d.fail(d.i, "unterminated string")
	}
	return d.strSlow(start)
}

func (d *decoder) strSlow(start int) (string, error) {
	buf := d.scratch[:0]
	j := start
	for j < len(d.data) {
		c := d.data[j]
		switch {
		case c == '"':
			d.i = j + 1
			d.scratch = buf
			return d.intern(buf), nil
		case c < 0x20:
			return "", d.fail(j, "invalid control character in string")
		case c == '\\':
			if j+1 >= len(d.data) {
				return "", d.fail(d.i, "unterminated string")
			}
			e := d.data[j+1]
			j += 2
			switch e {
			case '"', '\\', '/':
				buf = append(buf, e)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, ok := hex4(d.data[j:])
				if !ok {
					return "", d.fail(j-2, "invalid \\u escape in string")
				}
				j += 4
				if utf16.IsSurrogate(r) {
					r2, ok := rune(-1), false
					if j+6 <= len(d.data) && d.data[j] == '\\' && d.data[j+1] == 'u' {
						r2, ok = hex4(d.data[j+2:])
					}
					if dec := utf16.DecodeRune(r, r2); ok && dec != utf8.RuneError {
						r = dec
						j += 6
					} else {
						r = utf8.RuneError
					}
				}
				buf = utf8.AppendRune(buf, r)
			default:
				return "", d.fail(j-2, "invalid escape character in string")
			}
		case c < utf8.RuneSelf:
			buf = append(buf, c)
			j++
		default:
			r, size := utf8.DecodeRune(d.data[j:])
			if r == utf8.RuneError && size == 1 {
				buf = utf8.AppendRune(buf, utf8.RuneError)
			} else {
				buf = append(buf, d.data[j:j+size]...)
			}
			j += size
		}
	}
	return "", d.fail(d.i, "unterminated string")
}

// plainASCII holds the bytes that stand for themselves inside a JSON
// string, both when decoding and when encoding as the SDK does: printable
// ASCII but '"' and '\\' (and DEL, which the encoder escapes). The string
// loops test one table entry per byte instead of a chain of comparisons.
var plainASCII = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
