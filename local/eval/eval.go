package eval

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/expr/parse"
	"github.com/dynamogo/dynamo/internal/limits"
)

// Item is one DynamoDB item.
type Item = map[string]types.AttributeValue

// Input is the expression part of one request: every expression it carries
// and the placeholders they share. A nil expression is absent.
type Input struct {
	Condition, Filter, KeyCondition, Update, Projection *string
	Names                                               map[string]string
	Values                                              map[string]types.AttributeValue
}

// Error is a request DynamoDB rejects. Type is the error code
// ("ValidationException"), Message DynamoDB's text.
type Error struct {
	Type, Message string
}

func (e *Error) Error() string { return e.Message }

func validation(msg string) *Error { return &Error{Type: "ValidationException", Message: msg} }

// Compiled holds the expressions of one request, parsed, resolved against
// their names and values, and checked. It is immutable and safe for
// concurrent use.
type Compiled struct {
	condition, filter, keyCondition *cond
	update                          *update
	projection                      *projNode

	// A key condition resolved from its kept plan has no keyCondition:
	// its leaves take their values from the request's.
	keyPlan *keyPlan
	values  map[string]types.AttributeValue

	// Top-level attributes read (nested) or written (nestedSet) through a
	// nested path (a.b, a[0]) by the expressions other than the key
	// condition, for CheckKeyPaths.
	nested, nestedSet []string

	block any // the block c is part of, if any (reserve), for Release
}

// noExpressions is the Compiled of a request without expressions (most
// GetItem and PutItem calls); Compiled is immutable, so one serves all.
var noExpressions = &Compiled{}

// Compile parses every expression of one request and validates them as
// DynamoDB does, in its order: the placeholder maps themselves (empty maps,
// maps without expressions, bad keys in key order, invalid values), then each
// expression — KeyCondition, Update, Condition, Filter, Projection — for
// syntax, reserved words, undefined names and values, operand counts and
// types, limits and overlapping paths, then the names and then the values no
// expression used. Every check runs before any item is read, as DynamoDB
// runs them before it even looks the table up.
func Compile(in Input) (*Compiled, error) {
	if in.Names != nil && len(in.Names) == 0 {
		return nil, validation("ExpressionAttributeNames must not be empty")
	}
	if in.Values != nil && len(in.Values) == 0 {
		return nil, validation("ExpressionAttributeValues must not be empty")
	}
	if in.Condition == nil && in.Filter == nil && in.KeyCondition == nil && in.Update == nil && in.Projection == nil {
		if in.Names != nil {
			return nil, validation("ExpressionAttributeNames can only be specified when using expressions")
		}
		if in.Values != nil {
			return nil, validation("ExpressionAttributeValues can only be specified when using expressions")
		}
		return noExpressions, nil
	}
	// Each map is checked in key order, so that the first bad entry is the
	// same one every time.
	// Messages as DynamoDB gives them, quirks included (the values variant of
	// "too long" has no size); the length is checked before the syntax.
	if k, msg := firstBad(in.Names, func(k string, v string) string {
		if len(k) > maxPlaceholder {
			return "ExpressionAttributeNames contains invalid key: The expression attribute map contains a key that is too long; size of key: " + strconv.Itoa(len(k))
		}
		if !validPlaceholder(k, '#') {
			return `ExpressionAttributeNames contains invalid key: Syntax error; key: "` + k + `"`
		}
		if v == "" {
			return "ExpressionAttributeNames contains invalid value: Empty attribute name for key " + k
		}
		if len(v) > limits.MaxAttrNameBytes {
			return NameTooLarge
		}
		return ""
	}); k != "" {
		return nil, validation(msg)
	}
	if k, msg := firstBad(in.Values, func(k string, v types.AttributeValue) string {
		if len(k) > maxPlaceholder {
			return "ExpressionAttributeValues contains invalid key: The expression attribute map contains a key that is too long;"
		}
		if !validPlaceholder(k, ':') {
			return `ExpressionAttributeValues contains invalid key: Syntax error; key: "` + k + `"`
		}
		if msg := checkValue(v); msg != "" {
			return "ExpressionAttributeValues contains invalid value: " + msg + " for key " + k
		}
		return ""
	}); k != "" {
		return nil, validation(msg)
	}

	// The parses first (pure, and mostly found in the cache), so that one
	// slab can hold the nodes of every expression; their errors are still
	// reported in DynamoDB's order below.
	var keyCond, upd, condition, filter, proj *parsed
	var plan *keyPlan // the key condition's, when the names fit it
	var nodes nodeCounts
	if in.KeyCondition != nil {
		keyCond = parseExpr(kindKeyCondition, *in.KeyCondition)
		if plan = keyCond.keyPlan.Load(); plan == nil || !plan.uses.fits(in.Names) {
			plan = nil
			nodes.add(keyCond.nodes)
		}
	}
	if in.Update != nil {
		upd = parseExpr(kindUpdate, *in.Update)
		nodes.add(upd.nodes)
	}
	if in.Condition != nil {
		condition = parseExpr(kindCondition, *in.Condition)
		nodes.add(condition.nodes)
	}
	if in.Filter != nil {
		filter = parseExpr(kindFilter, *in.Filter)
		nodes.add(filter.nodes)
	}
	if in.Projection != nil {
		proj = parseExpr(kindProjection, *in.Projection)
		nodes.add(proj.nodes)
	}
	r := &resolver{names: in.Names, values: in.Values}
	c, used := r.slab.reserve(nodes, len(in.Names)+len(in.Values))
	r.usedNames, r.usedValues = used[:0:len(in.Names)], used[len(in.Names):len(in.Names)]
	var err error
	switch {
	case plan != nil && r.planFits(plan):
		c.keyPlan, c.values = plan, in.Values
	case keyCond != nil:
		// In full: without a plan, or for the error of a value the plan's
		// checks refused (the slab has no room for these nodes then).
		if c.keyCondition, err = r.condition(keyCond, "KeyConditionExpression"); err != nil {
			return nil, err
		}
		if plan == nil {
			if kp := newKeyPlan(keyCond.cond, c, in.Names); kp != nil {
				keyCond.keyPlan.Store(kp)
			}
		}
	}
	if upd != nil {
		if c.update, err = r.updateExpr(upd); err != nil {
			return nil, err
		}
	}
	if condition != nil {
		if c.condition, err = r.condition(condition, "ConditionExpression"); err != nil {
			return nil, err
		}
	}
	if filter != nil {
		if c.filter, err = r.condition(filter, "FilterExpression"); err != nil {
			return nil, err
		}
	}
	if proj != nil {
		if c.projection, err = r.projectionExpr(proj); err != nil {
			return nil, err
		}
	}
	if unused := unusedKeys(in.Names, r.usedNames); unused != "" {
		return nil, validation("Value provided in ExpressionAttributeNames unused in expressions: keys: {" + unused + "}")
	}
	if unused := unusedKeys(in.Values, r.usedValues); unused != "" {
		return nil, validation("Value provided in ExpressionAttributeValues unused in expressions: keys: {" + unused + "}")
	}
	c.collectNested()
	return c, nil
}

// Condition evaluates the ConditionExpression against item (nil when there
// is no such item). Without a ConditionExpression it is true.
func (c *Compiled) Condition(item Item) (bool, error) {
	if c.condition == nil {
		return true, nil
	}
	return c.condition.eval(item), nil
}

// Filter evaluates the FilterExpression against item. Without a
// FilterExpression it is true.
func (c *Compiled) Filter(item Item) (bool, error) {
	if c.filter == nil {
		return true, nil
	}
	return c.filter.eval(item), nil
}

// CheckFilterKeys rejects a FilterExpression that reads a key attribute,
// as Query does: keyAttrs are the key attributes of the table or index
// queried. (Scan allows them; it need not call this.)
func (c *Compiled) CheckFilterKeys(keyAttrs ...string) error {
	if c.filter == nil {
		return nil
	}
	if name := c.filter.firstHead(keyAttrs); name != "" {
		return validation("Filter Expression can only contain non-primary key attributes: Primary key attribute: " + name)
	}
	return nil
}

// HasCondition, HasFilter, HasKeyCondition, HasUpdate and HasProjection
// report which expressions the request carried.
func (c *Compiled) HasCondition() bool    { return c.condition != nil }
func (c *Compiled) HasFilter() bool       { return c.filter != nil }
func (c *Compiled) HasKeyCondition() bool { return c.keyCondition != nil || c.keyPlan != nil }
func (c *Compiled) HasUpdate() bool       { return c.update != nil }
func (c *Compiled) HasProjection() bool   { return c.projection != nil }

// NameTooLarge is the service's answer to an attribute name over 64 KB,
// in an item or through ExpressionAttributeNames (names are 1 byte to 64 KB,
// ServiceQuotas.html "Attribute name lengths"; the wording measured against
// the service in ExtendDB/extenddb#365).
const NameTooLarge = "1 validation error detected: Attribute name is too large, must be less than 65536 bytes"

// maxPlaceholder is the longest ExpressionAttributeNames or
// ExpressionAttributeValues key DynamoDB accepts, in bytes, prefix included.
const maxPlaceholder = limits.MaxPlaceholderLen

func validPlaceholder(k string, prefix byte) bool {
	if len(k) < 2 || k[0] != prefix {
		return false
	}
	for i := 1; i < len(k); i++ {
		c := k[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// firstBad returns the smallest key of m whose entry check rejects, with
// check's message; "" when all pass. It allocates only on failure.
func firstBad[V any](m map[string]V, check func(string, V) string) (key, msg string) {
	for k, v := range m {
		if (key == "" || k < key) && check(k, v) != "" {
			key = k
		}
	}
	if key == "" {
		return "", ""
	}
	return key, check(key, m[key])
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func unusedKeys[V any](m map[string]V, used []string) string {
	if len(used) == len(m) {
		return "" // used holds distinct keys of m
	}
	var unused []string
	for _, k := range sortedKeys(m) {
		if !slices.Contains(used, k) {
			unused = append(unused, k)
		}
	}
	return strings.Join(unused, ", ")
}

// exprErr turns a parse error into the request's error.
func exprErr(err error) error {
	if se, ok := err.(*parse.SyntaxError); ok {
		return validation(se.Msg)
	}
	return validation(err.Error())
}

// CheckKeyPaths rejects a nested path (a.b, a[0]) through a key attribute,
// which DynamoDB refuses in every expression since key attributes are
// scalars: tableKeys are the table's key attributes, indexKeys those of its
// secondary indexes. A nested path written by an update to a table key is
// left to Update, which reports that the key cannot be updated at all.
// (The KeyConditionExpression has its own message for nested paths.)
func (c *Compiled) CheckKeyPaths(tableKeys, indexKeys []string) error {
	const msg = "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: "
	for _, k := range tableKeys {
		if slices.Contains(c.nested, k) {
			return validation(msg + "Key: " + k)
		}
	}
	for _, k := range indexKeys {
		if slices.Contains(c.nested, k) || slices.Contains(c.nestedSet, k) {
			return validation(msg + "IndexKey: " + k)
		}
	}
	return nil
}

func (c *Compiled) collectNested() {
	note := func(list *[]string, p path) {
		if len(p) > 1 && !slices.Contains(*list, p[0].name) {
			*list = append(*list, p[0].name)
		}
	}
	var inCond func(*cond)
	var inOperand func(*operand)
	inOperand = func(o *operand) {
		if o.kind == opPath {
			note(&c.nested, o.path)
		}
		for _, a := range o.args {
			inOperand(a)
		}
	}
	inCond = func(n *cond) {
		if n == nil {
			return
		}
		for _, k := range n.kids {
			inCond(k)
		}
		for _, o := range n.ops {
			inOperand(o)
		}
	}
	inCond(c.condition)
	inCond(c.filter)
	if u := c.update; u != nil {
		for _, a := range u.set {
			note(&c.nestedSet, a.path)
			inOperand(a.value)
		}
		for _, p := range u.remove {
			note(&c.nestedSet, p)
		}
		for _, a := range u.add {
			note(&c.nestedSet, a.path)
		}
		for _, a := range u.delete {
			note(&c.nestedSet, a.path)
		}
	}
	if c.projection != nil {
		for name, n := range c.projection.names {
			if !n.whole && !slices.Contains(c.nested, name) {
				c.nested = append(c.nested, name)
			}
		}
	}
}
