package expr

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/codec"
)

// Encoder encodes a value for a top-level attribute with the type of the
// declared field of that name; ok is false when attr is not a declared field.
// *schema.Schema implements it. A nil Encoder means every value is inferred
// with codec.Marshal.
type Encoder interface {
	EncodeField(attr string, v any) (av types.AttributeValue, ok bool, err error)
}

// Error is a problem with an expression found while building it. Err is
// the encoder's error when a value could not be encoded.
type Error struct {
	Msg string
	Err error
}

func (e *Error) Error() string {
	if e.Err == nil {
		return "expr: " + e.Msg
	}
	// The encoders' errors start "dynamo: " like every error of the module.
	return "expr: " + e.Msg + ": " + strings.TrimPrefix(e.Err.Error(), "dynamo: ")
}

func (e *Error) Unwrap() error { return e.Err }

func wrapf(err error, format string, args ...any) error {
	return &Error{Msg: fmt.Sprintf(format, args...), Err: err}
}

func errorf(format string, args ...any) error {
	return &Error{Msg: fmt.Sprintf(format, args...)}
}

// Placeholder scheme (frozen by the golden tests of this package and of
// request):
//
//   - Condition(c, prefix): names "#<prefix><n>" and values ":<prefix><n>"
//     share one counter per prefix, so eq on version reads "#c0 = :c1". A
//     name used twice under one prefix keeps its first placeholder.
//   - Update: names "#a<n>" (deduplicated the same way), values ":v<i>" where
//     i counts the changes, so a REMOVE consumes an index without a value:
//     "SET #a0 = :v0, #a1 = #a1 + :v1 REMOVE #a2".
//   - Projection: names "#p<n>".
//   - KeyCondition: "#pk = :pk", "#sk = :sk", BETWEEN ":sk0" AND ":sk1".
//
// The prefixes a, v, p, pk and sk are therefore reserved for the builder's
// own uses; Condition refuses them. Every attribute name goes through a
// placeholder, so reserved words and names with dots, spaces or dashes are
// always safe.

// Builder renders the expressions of one request and accumulates their
// ExpressionAttributeNames and ExpressionAttributeValues. The same calls in
// the same order give the same text and maps. A Builder is not safe for
// concurrent use; the Conds and Changes it renders are never modified.
type Builder struct {
	enc    Encoder
	names  map[string]string
	values map[string]types.AttributeValue
	alias  map[aliasKey]string // generated name placeholder per (prefix, attribute)
	next   []counterState      // next index per counter
	user   map[string]bool     // placeholders that came from raw text
}

type aliasKey struct{ prefix, attr string }

// NewBuilder returns a Builder encoding values with enc (nil: inference).
func NewBuilder(enc Encoder) *Builder { return &Builder{enc: enc} }

// Names is the ExpressionAttributeNames of everything rendered so far, nil
// when there are none. The map belongs to the Builder.
func (b *Builder) Names() map[string]string {
	if len(b.names) == 0 {
		return nil
	}
	return b.names
}

// Values is the ExpressionAttributeValues of everything rendered so far, nil
// when there are none. The map belongs to the Builder.
func (b *Builder) Values() map[string]types.AttributeValue {
	if len(b.values) == 0 {
		return nil
	}
	return b.values
}

var reservedPrefixes = []string{"a", "v", "p", "pk", "sk"}

// Condition renders c with placeholders "#<prefix><n>" / ":<prefix><n>"
// (conventionally "c" for ConditionExpression, "f" for FilterExpression).
func (b *Builder) Condition(c Cond, prefix string) (string, error) {
	// A prefix ending in a digit would make "#c1" + "0" and "#c" + "10" the
	// same placeholder.
	if !validPlaceholder(prefix) || prefix[len(prefix)-1] >= '0' && prefix[len(prefix)-1] <= '9' {
		return "", errorf("condition prefix %q: want letters, digits or _, not ending in a digit", prefix)
	}
	if slices.Contains(reservedPrefixes, prefix) {
		return "", errorf("condition prefix %q is reserved for the builder's own placeholders", prefix)
	}
	if c == nil {
		return "", errorf("empty condition")
	}
	out, err := b.cond(c, prefix)
	if err != nil {
		return "", err
	}
	return Print(out), nil
}

func (b *Builder) cond(c Cond, prefix string) (Cond, error) {
	switch c := c.(type) {
	case *Compare:
		switch c.Op {
		case EQ, NE, LT, LE, GT, GE:
		default:
			return nil, errorf("unknown comparator %q", c.Op)
		}
		l, err := b.operand(c.L, prefix, "", false)
		if err != nil {
			return nil, err
		}
		r, err := b.operand(c.R, prefix, hintOf(c.L), false)
		if err != nil {
			return nil, err
		}
		return &Compare{Op: c.Op, L: l, R: r}, nil
	case *Between:
		x, err := b.operand(c.X, prefix, "", false)
		if err != nil {
			return nil, err
		}
		hint := hintOf(c.X)
		lo, err := b.operand(c.Lo, prefix, hint, false)
		if err != nil {
			return nil, err
		}
		hi, err := b.operand(c.Hi, prefix, hint, false)
		if err != nil {
			return nil, err
		}
		return &Between{X: x, Lo: lo, Hi: hi}, nil
	case *In:
		// DynamoDB: "The IN operator ... up to 100 values" (Condition
		// expressions reference, comparison operator syntax).
		if len(c.List) == 0 || len(c.List) > 100 {
			return nil, errorf("IN takes 1 to 100 values, got %d", len(c.List))
		}
		x, err := b.operand(c.X, prefix, "", false)
		if err != nil {
			return nil, err
		}
		hint := hintOf(c.X)
		list := make([]Operand, len(c.List))
		for i, o := range c.List {
			if list[i], err = b.operand(o, prefix, hint, false); err != nil {
				return nil, err
			}
		}
		return &In{X: x, List: list}, nil
	case *CondFunc:
		return b.condFunc(c, prefix)
	case *And:
		cs, err := b.conds(c.Conds, "AND", prefix)
		if err != nil {
			return nil, err
		}
		return &And{Conds: cs}, nil
	case *Or:
		cs, err := b.conds(c.Conds, "OR", prefix)
		if err != nil {
			return nil, err
		}
		return &Or{Conds: cs}, nil
	case *Not:
		if c.Cond == nil {
			return nil, errorf("NOT of an empty condition")
		}
		inner, err := b.cond(c.Cond, prefix)
		if err != nil {
			return nil, err
		}
		return &Not{Cond: inner}, nil
	case *Raw:
		if err := b.merge(c); err != nil {
			return nil, err
		}
		return &Raw{Text: c.Text}, nil
	case nil:
		return nil, errorf("empty condition")
	}
	return nil, errorf("unsupported condition %T", c)
}

func (b *Builder) conds(cs []Cond, kw, prefix string) ([]Cond, error) {
	if len(cs) == 0 {
		return nil, errorf("%s of no conditions", kw)
	}
	out := make([]Cond, len(cs))
	for i, c := range cs {
		if c == nil {
			return nil, errorf("%s with an empty condition", kw)
		}
		var err error
		if out[i], err = b.cond(c, prefix); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (b *Builder) condFunc(c *CondFunc, prefix string) (Cond, error) {
	arity := 2
	switch c.Name {
	case "attribute_exists", "attribute_not_exists":
		arity = 1
	case "attribute_type", "begins_with", "contains":
	default:
		return nil, errorf("unknown function %q", c.Name)
	}
	if len(c.Args) != arity {
		return nil, errorf("%s takes %d operands, got %d", c.Name, arity, len(c.Args))
	}
	if _, ok := c.Args[0].(Path); !ok {
		return nil, errorf("%s: first operand must be an attribute", c.Name)
	}
	args := make([]Operand, arity)
	var err error
	if args[0], err = b.operand(c.Args[0], prefix, "", false); err != nil {
		return nil, err
	}
	if arity == 2 {
		if args[1], err = b.operand(c.Args[1], prefix, hintOf(c.Args[0]), c.Name == "begins_with"); err != nil {
			return nil, wrapf(err, "%s", c.Name)
		}
	}
	return &CondFunc{Name: c.Name, Args: args}, nil
}

// hintOf is the attribute whose field type encodes the values compared with
// o: only a top-level attribute has a declared field (C-5).
func hintOf(o Operand) string {
	if p, ok := o.(Path); ok {
		if name, ok := p.TopLevel(); ok {
			return name
		}
	}
	return ""
}

// operand swaps names and values of o for placeholders under prefix.
// asIs sends string and []byte values as S and B without the field type.
func (b *Builder) operand(o Operand, prefix, hint string, asIs bool) (Operand, error) {
	switch o := o.(type) {
	case Path:
		return b.path(o, prefix, prefix)
	case *Value:
		av, err := b.encode(o, hint, asIs)
		if err != nil {
			return nil, err
		}
		ph, err := b.value(prefix, prefix, av)
		if err != nil {
			return nil, err
		}
		return &Value{Placeholder: ph, AV: av}, nil
	case *Func:
		if o.Name != "size" || len(o.Args) != 1 {
			return nil, errorf("function %s is not allowed in a condition", o.Name)
		}
		p, ok := o.Args[0].(Path)
		if !ok {
			return nil, errorf("size: operand must be an attribute")
		}
		pp, err := b.path(p, prefix, prefix)
		if err != nil {
			return nil, err
		}
		return &Func{Name: "size", Args: []Operand{pp}}, nil
	case nil:
		return nil, errorf("missing operand")
	}
	return nil, errorf("operand %T is not allowed here", o)
}

func (b *Builder) encode(v *Value, hint string, asIs bool) (types.AttributeValue, error) {
	if v.AV != nil {
		return v.AV, nil
	}
	switch g := v.Go.(type) {
	case nil:
		return &types.AttributeValueMemberNULL{Value: true}, nil
	case typeName:
		switch g {
		case "S", "SS", "N", "NS", "B", "BS", "BOOL", "NULL", "L", "M":
			return &types.AttributeValueMemberS{Value: string(g)}, nil
		}
		return nil, errorf("attribute_type: unknown type %q (want S, SS, N, NS, B, BS, BOOL, NULL, L or M)", string(g))
	case string:
		if asIs {
			return &types.AttributeValueMemberS{Value: g}, nil
		}
	case []byte:
		if asIs {
			return &types.AttributeValueMemberB{Value: g}, nil
		}
	}
	if hint != "" && b.enc != nil {
		av, ok, err := b.enc.EncodeField(hint, v.Go)
		if err != nil {
			return nil, wrapf(err, "value of %s", hint)
		}
		if ok {
			if av == nil {
				av = &types.AttributeValueMemberNULL{Value: true}
			}
			return av, nil
		}
	}
	av, err := codec.Marshal(v.Go)
	if err != nil {
		if hint != "" {
			return nil, wrapf(err, "value of %s", hint)
		}
		return nil, wrapf(err, "value")
	}
	if av == nil {
		av = &types.AttributeValueMemberNULL{Value: true}
	}
	return av, nil
}

// path returns p with every name swapped for its placeholder under prefix.
func (b *Builder) path(p Path, prefix, counter string) (Path, error) {
	if len(p) == 0 || p[0].IsIndex {
		return nil, errorf("a document path must start with an attribute name")
	}
	out := make(Path, len(p))
	for i, e := range p {
		if e.IsIndex {
			if e.Index < 0 {
				return nil, errorf("path %s: negative list index %d", p, e.Index)
			}
			out[i] = e
			continue
		}
		ph, err := b.name(prefix, counter, e.Name)
		if err != nil {
			return nil, err
		}
		out[i] = PathElem{Name: ph}
	}
	return out, nil
}

func (b *Builder) name(prefix, counter, attr string) (string, error) {
	if attr == "" {
		return "", errorf("empty attribute name")
	}
	k := aliasKey{prefix, attr}
	if ph, ok := b.alias[k]; ok {
		return ph, nil
	}
	ph := placeholder('#', prefix, b.bump(counter))
	if err := b.claimName(ph, attr); err != nil {
		return "", err
	}
	if b.alias == nil {
		b.alias = make(map[aliasKey]string)
	}
	b.alias[k] = ph
	return ph, nil
}

func (b *Builder) value(prefix, counter string, av types.AttributeValue) (string, error) {
	ph := placeholder(':', prefix, b.bump(counter))
	return ph, b.claimValue(ph, av)
}

// bump returns the next index of counter. A request uses two or three
// counters, so a slice beats a map.
func (b *Builder) bump(counter string) int {
	for i := range b.next {
		if b.next[i].name == counter {
			n := b.next[i].n
			b.next[i].n++
			return n
		}
	}
	b.next = append(b.next, counterState{counter, 1})
	return 0
}

type counterState struct {
	name string
	n    int
}

// Placeholders of the builder's usual prefixes, precomputed so that
// rendering an expression does not allocate a string per placeholder.
var commonPlaceholders = func() map[string]*[2][32]string {
	m := make(map[string]*[2][32]string)
	for _, prefix := range []string{"a", "c", "f", "p", "v"} {
		var t [2][32]string
		for n := range 32 {
			t[0][n] = "#" + prefix + strconv.Itoa(n)
			t[1][n] = ":" + prefix + strconv.Itoa(n)
		}
		m[prefix] = &t
	}
	return m
}()

func placeholder(sigil byte, prefix string, n int) string {
	if t := commonPlaceholders[prefix]; t != nil && n < 32 {
		if sigil == '#' {
			return t[0][n]
		}
		return t[1][n]
	}
	return string(sigil) + prefix + strconv.Itoa(n)
}

// claimName records a generated name placeholder.
func (b *Builder) claimName(ph, attr string) error {
	if b.user[ph] {
		return errorf("placeholder %s of the raw expression collides with a generated one; rename it", ph)
	}
	if old, ok := b.names[ph]; ok && old != attr {
		return errorf("placeholder %s stands for both %q and %q", ph, old, attr)
	}
	if b.names == nil {
		b.names = make(map[string]string)
	}
	b.names[ph] = attr
	return nil
}

// claimValue records a generated value placeholder.
func (b *Builder) claimValue(ph string, av types.AttributeValue) error {
	if b.user[ph] {
		return errorf("placeholder %s of the raw expression collides with a generated one; rename it", ph)
	}
	if _, ok := b.values[ph]; ok {
		return errorf("placeholder %s generated twice", ph)
	}
	if b.values == nil {
		b.values = make(map[string]types.AttributeValue)
	}
	b.values[ph] = av
	return nil
}

// merge adds the names and values of a raw expression. A placeholder the
// builder generated is never overwritten; a raw placeholder given twice
// (say by a raw condition and a raw update) must mean the same thing.
func (b *Builder) merge(r *Raw) error {
	if strings.TrimSpace(r.Text) == "" {
		return errorf("empty raw expression")
	}
	for _, k := range sortedKeys(r.Names) {
		ph := k
		if !strings.HasPrefix(ph, "#") {
			ph = "#" + ph
		}
		if !validPlaceholder(ph[1:]) {
			return errorf("raw name placeholder %q: want # then letters, digits or _", k)
		}
		attr := r.Names[k]
		if attr == "" {
			return errorf("raw name placeholder %s: empty attribute name", ph)
		}
		if old, ok := b.names[ph]; ok {
			if !b.user[ph] {
				return errorf("placeholder %s of the raw expression collides with a generated one; rename it", ph)
			}
			if old != attr {
				return errorf("placeholder %s stands for both %q and %q", ph, old, attr)
			}
			continue
		}
		if b.names == nil {
			b.names = make(map[string]string)
		}
		b.names[ph] = attr
		b.markUser(ph)
	}
	for _, k := range sortedKeys(r.Values) {
		ph := k
		if !strings.HasPrefix(ph, ":") {
			ph = ":" + ph
		}
		if !validPlaceholder(ph[1:]) {
			return errorf("raw value placeholder %q: want : then letters, digits or _", k)
		}
		var av types.AttributeValue
		switch v := r.Values[k].(type) {
		case types.AttributeValue:
			av = v
		case nil:
			av = &types.AttributeValueMemberNULL{Value: true}
		default:
			var err error
			if av, err = codec.Marshal(v); err != nil {
				return wrapf(err, "raw value %s", ph)
			}
		}
		if old, ok := b.values[ph]; ok {
			if !b.user[ph] {
				return errorf("placeholder %s of the raw expression collides with a generated one; rename it", ph)
			}
			if !reflect.DeepEqual(old, av) {
				return errorf("placeholder %s is given two different values", ph)
			}
			continue
		}
		if b.values == nil {
			b.values = make(map[string]types.AttributeValue)
		}
		b.values[ph] = av
		b.markUser(ph)
	}
	return nil
}

func (b *Builder) markUser(ph string) {
	if b.user == nil {
		b.user = make(map[string]bool)
	}
	b.user[ph] = true
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// validPlaceholder: DynamoDB allows letters, digits and underscore after the
// '#' or ':' (developer guide, "Expression attribute names").
func validPlaceholder(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// Update renders changes as one update expression: SET, REMOVE, ADD and
// DELETE clauses in that order, each listing its actions in the order given.
// Two changes whose paths overlap (the same attribute, or one inside the
// other) are an error, as DynamoDB would answer. Whether a change may touch
// a key attribute is for the caller to decide (see Change.Path).
func (b *Builder) Update(changes []Change) (string, error) {
	if len(changes) == 0 {
		return "", errorf("update without changes")
	}
	for _, c := range changes {
		if c.op == opRaw {
			if len(changes) > 1 {
				return "", errorf("RawUpdate cannot be combined with other changes")
			}
			if err := b.merge(c.raw); err != nil {
				return "", err
			}
			return c.raw.Text, nil
		}
	}
	var u UpdateAST
	for i, c := range changes {
		if c.op == 0 {
			return "", errorf("change %d is the zero Change", i)
		}
		for _, prev := range changes[:i] {
			if overlap(prev.path, c.path) {
				if slices.EqualFunc(prev.path, c.path, func(x, y PathElem) bool { return x == y }) {
					return "", errorf("update: %s is changed twice", c.path)
				}
				return "", errorf("update: paths %s and %s overlap", prev.path, c.path)
			}
		}
		p, err := b.path(c.path, "a", "a")
		if err != nil {
			return "", err
		}
		vi := b.bump("v") // a change without a value still consumes its index
		if c.op == opRemove {
			u.Remove = append(u.Remove, p)
			continue
		}
		var v *Value
		if src, ok := c.value.(Path); ok {
			if c.op != opSet {
				return "", errorf("update of %s: an attribute as the value is allowed only in Set", c.path)
			}
			sp, err := b.path(src, "a", "a")
			if err != nil {
				return "", err
			}
			u.Set = append(u.Set, SetAction{Path: p, Value: sp})
			continue
		}
		var av types.AttributeValue
		if c.op == opSetNull {
			av = &types.AttributeValueMemberNULL{Value: true}
		} else {
			var val *Value
			switch x := c.value.(type) {
			case *Value:
				val = x
			case types.AttributeValue:
				val = &Value{AV: x}
			case Operand:
				return "", errorf("update of %s: %T is not a value", c.path, x)
			default:
				val = &Value{Go: x}
			}
			hint, top := c.path.TopLevel()
			if av, err = b.encode(val, hint, false); err != nil {
				if top {
					return "", err // names the attribute already
				}
				return "", wrapf(err, "update of %s", c.path)
			}
		}
		if c.op == opAdd || c.op == opDelete {
			av = asSet(av, c.op == opDelete)
		}
		ph := placeholder(':', "v", vi)
		if err := b.claimValue(ph, av); err != nil {
			return "", err
		}
		v = &Value{Placeholder: ph, AV: av}
		switch c.op {
		case opSet, opSetNull:
			u.Set = append(u.Set, SetAction{Path: p, Value: v})
		case opIncrement:
			u.Set = append(u.Set, SetAction{Path: p, Value: &Arith{Op: '+', L: p, R: v}})
		case opDecrement:
			u.Set = append(u.Set, SetAction{Path: p, Value: &Arith{Op: '-', L: p, R: v}})
		case opAppend:
			u.Set = append(u.Set, SetAction{Path: p, Value: &Func{Name: "list_append", Args: []Operand{p, v}}})
		case opPrepend:
			u.Set = append(u.Set, SetAction{Path: p, Value: &Func{Name: "list_append", Args: []Operand{v, p}}})
		case opIfNotExists:
			u.Set = append(u.Set, SetAction{Path: p, Value: &Func{Name: "if_not_exists", Args: []Operand{p, v}}})
		case opAdd:
			u.Add = append(u.Add, PathValue{Path: p, Value: v})
		case opDelete:
			u.Delete = append(u.Delete, PathValue{Path: p, Value: v})
		}
	}
	return PrintUpdate(&u), nil
}

// asSet makes a single element the one-element set ADD and DELETE need:
// a set field encodes a lone element as the element (for contains), and
// DynamoDB accepts only sets there (and numbers, for ADD). A lone N stays a
// number for ADD: that is the counter form.
func asSet(av types.AttributeValue, del bool) types.AttributeValue {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return &types.AttributeValueMemberSS{Value: []string{v.Value}}
	case *types.AttributeValueMemberB:
		return &types.AttributeValueMemberBS{Value: [][]byte{v.Value}}
	case *types.AttributeValueMemberN:
		if del {
			return &types.AttributeValueMemberNS{Value: []string{v.Value}}
		}
	}
	return av
}

// overlap reports whether one path is a prefix of the other.
func overlap(p, q Path) bool {
	if len(q) < len(p) {
		p, q = q, p
	}
	for i := range p {
		if p[i] != q[i] {
			return false
		}
	}
	return true
}

// Projection renders a ProjectionExpression of top-level attribute names
// (taken literally), as "#p0, #p1".
func (b *Builder) Projection(attrs ...string) (string, error) {
	paths := make([]Path, len(attrs))
	for i, a := range attrs {
		paths[i] = Path{{Name: a}}
	}
	return b.ProjectPaths(paths...)
}

// ProjectPaths renders a ProjectionExpression of document paths.
func (b *Builder) ProjectPaths(paths ...Path) (string, error) {
	if len(paths) == 0 {
		return "", errorf("projection names no attributes")
	}
	out := make([]Path, len(paths))
	for i, p := range paths {
		for _, prev := range paths[:i] {
			if overlap(prev, p) {
				return "", errorf("projection: paths %s and %s overlap", prev, p)
			}
		}
		var err error
		if out[i], err = b.path(p, "p", "p"); err != nil {
			return "", err
		}
	}
	return PrintProjection(out), nil
}

// KeyOp is the sort-key comparison of a Query key condition.
type KeyOp uint8

// The sort-key conditions DynamoDB's KeyConditionExpression accepts.
const (
	KeyNone KeyOp = iota // partition key only
	KeyEQ
	KeyLT
	KeyLE
	KeyGT
	KeyGE
	KeyBetween    // two values
	KeyBeginsWith // S or B value
)

// KeyCondition renders a Query's KeyConditionExpression: "#pk = :pk",
// followed for a sort-key op by " AND #sk = :sk" (or <, <=, >, >=,
// "#sk BETWEEN :sk0 AND :sk1", "begins_with(#sk, :sk)"). Values are encoded
// by the caller: key values come from the schema.
func (b *Builder) KeyCondition(pkName string, pk types.AttributeValue, skName string, op KeyOp, sk ...types.AttributeValue) (string, error) {
	if pkName == "" || pk == nil {
		return "", errorf("key condition without a partition key")
	}
	if err := checkSortOp(skName, op, sk); err != nil {
		return "", err
	}
	if err := b.claimName("#pk", pkName); err != nil {
		return "", err
	}
	if err := b.claimValue(":pk", pk); err != nil {
		return "", err
	}
	if err := b.claimSort(skName, op, sk); err != nil {
		return "", err
	}
	return keyConditionText[op], nil
}

// keyConditionText is KeyCondition's text for each op: its placeholders
// are fixed, so it is printed once, not on every Query.
var keyConditionText = func() (text [KeyBeginsWith + 1]string) {
	for op := range text {
		pk := &Compare{Op: EQ, L: Path{{Name: "#pk"}}, R: &Value{Placeholder: ":pk"}}
		text[op] = printSort([]Cond{pk}, KeyOp(op))
	}
	return text
}()

// KeyPart is an attribute of a key and its value.
type KeyPart struct {
	Name  string
	Value types.AttributeValue
}

// MultiKeyCondition renders the KeyConditionExpression of a Query on a key
// of several attributes (a multi-attribute GSI key): equality on every
// attribute of eq, in order ("#k0 = :k0 AND #k1 = :k1 …": the partition
// attributes, then the leading sort attributes), followed for a sort-key op
// by the comparison on skName, as KeyCondition renders it.
func (b *Builder) MultiKeyCondition(eq []KeyPart, skName string, op KeyOp, sk ...types.AttributeValue) (string, error) {
	if len(eq) == 0 || eq[0].Name == "" || eq[0].Value == nil {
		return "", errorf("key condition without a partition key")
	}
	if err := checkSortOp(skName, op, sk); err != nil {
		return "", err
	}
	conds := make([]Cond, len(eq))
	for i, p := range eq {
		if p.Name == "" || p.Value == nil {
			return "", errorf("key condition with an empty attribute")
		}
		n, v := placeholder('#', "k", i), placeholder(':', "k", i)
		if err := b.claimName(n, p.Name); err != nil {
			return "", err
		}
		if err := b.claimValue(v, p.Value); err != nil {
			return "", err
		}
		conds[i] = &Compare{Op: EQ, L: Path{{Name: n}}, R: &Value{Placeholder: v}}
	}
	if err := b.claimSort(skName, op, sk); err != nil {
		return "", err
	}
	return printSort(conds, op), nil
}

// checkSortOp checks a sort-key operator and the number of its values.
func checkSortOp(skName string, op KeyOp, sk []types.AttributeValue) error {
	want := 1
	switch op {
	case KeyNone:
		want = 0
	case KeyBetween:
		want = 2
	case KeyEQ, KeyLT, KeyLE, KeyGT, KeyGE, KeyBeginsWith:
	default:
		return errorf("unknown sort key operator %d", op)
	}
	if len(sk) != want {
		return errorf("sort key condition takes %d values, got %d", want, len(sk))
	}
	for _, v := range sk {
		if v == nil {
			return errorf("sort key condition with a nil value")
		}
	}
	if op != KeyNone && skName == "" {
		return errorf("sort key condition without a sort key attribute")
	}
	return nil
}

// claimSort records the sort-key placeholders of op: #sk and its values
// (:sk, or :sk0 and :sk1 for KeyBetween); none for KeyNone.
func (b *Builder) claimSort(skName string, op KeyOp, sk []types.AttributeValue) error {
	if op == KeyNone {
		return nil
	}
	if err := b.claimName("#sk", skName); err != nil {
		return err
	}
	if op == KeyBetween {
		if err := b.claimValue(":sk0", sk[0]); err != nil {
			return err
		}
		return b.claimValue(":sk1", sk[1])
	}
	return b.claimValue(":sk", sk[0])
}

// printSort appends the sort-key comparison of op (none for KeyNone), on
// the placeholders claimSort records, to the equalities and prints the
// conjunction.
func printSort(conds []Cond, op KeyOp) string {
	skPath := Path{{Name: "#sk"}}
	var s Cond
	switch op {
	case KeyNone:
		if len(conds) == 1 {
			return Print(conds[0])
		}
		return Print(&And{Conds: conds})
	case KeyBetween:
		s = &Between{X: skPath, Lo: &Value{Placeholder: ":sk0"}, Hi: &Value{Placeholder: ":sk1"}}
	case KeyBeginsWith:
		s = &CondFunc{Name: "begins_with", Args: []Operand{skPath, &Value{Placeholder: ":sk"}}}
	default:
		s = &Compare{Op: keyCompare[op], L: skPath, R: &Value{Placeholder: ":sk"}}
	}
	return Print(&And{Conds: append(conds, s)})
}

var keyCompare = [...]CompareOp{KeyEQ: EQ, KeyLT: LT, KeyLE: LE, KeyGT: GT, KeyGE: GE}
