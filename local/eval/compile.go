package eval

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/expr/parse"
	"github.com/dynamogo/dynamo/internal/avtype"
	"github.com/dynamogo/dynamo/internal/numbers"
)

// step is one element of a resolved document path: a real attribute name or
// a list index.
type step struct {
	name    string
	index   int
	isIndex bool
}

type path []step

// String renders the path as DynamoDB does in messages: [a, b, [2]].
func (p path) String() string {
	var b strings.Builder
	b.WriteByte('[')
	for i, s := range p {
		if i > 0 {
			b.WriteString(", ")
		}
		if s.isIndex {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
		} else {
			b.WriteString(s.name)
		}
	}
	b.WriteByte(']')
	return b.String()
}

func (p path) equal(q path) bool {
	if len(p) != len(q) {
		return false
	}
	for i := range p {
		if p[i] != q[i] {
			return false
		}
	}
	return true
}

type opKind uint8

const (
	opPath opKind = iota
	opValue
	opSize
	opIfNotExists
	opListAppend
	opArith
)

// operand is a resolved operand: a path, a value, or a function or + / -
// over operands.
type operand struct {
	kind   opKind
	arith  byte
	hasNum bool
	path   path
	val    types.AttributeValue
	num    numbers.Dec // val parsed, when val is a number (hasNum)
	args   []*operand
	name   string // the function's name, for messages
}

// staticType is the type an operand is known to have before any item is
// read: a value's type, N for size() and + or -, L for list_append(); "" for
// a path or if_not_exists(), whose type depends on the item.
func (o *operand) staticType() string {
	switch o.kind {
	case opValue:
		return avtype.Of(o.val)
	case opSize, opArith:
		return "N"
	case opListAppend:
		return "L"
	}
	return ""
}

type condKind uint8

const (
	cCompare condKind = iota
	cBetween
	cIn
	cExists
	cNotExists
	cType
	cBeginsWith
	cContains
	cAnd
	cOr
	cNot
)

// cond is a resolved condition.
type cond struct {
	kind condKind
	op   expr.CompareOp
	ops  []*operand // cCompare: L, R; cBetween: X, Lo, Hi; cIn: X, list...; functions: args
	kids []*cond
	typ  string // attribute_type's type name
}

// resolver resolves the expressions of one request against its names and
// values, recording which it used, and checks them as DynamoDB does: in
// post-order, every operand before the operator or function that uses it,
// and for each operator its operand count, then its operand types, then
// repeated operands, then its own rules.
type resolver struct {
	names                 map[string]string
	values                map[string]types.AttributeValue
	what                  string   // the expression being resolved, for messages
	ops                   int      // operators and functions seen in it
	usedNames, usedValues []string // distinct placeholders used, few

	slab slab
}

// slab holds the nodes of one Compile, allocated together: a request's
// expressions take a handful of allocations rather than one per node. The
// sizes come from the parse (see nodeCounts); a node beyond them is simply
// allocated on its own.
type slab struct {
	conds    []cond
	operands []operand
	opPtrs   []*operand
	condPtrs []*cond
	steps    []step
	update   *updateBlock // for the UpdateExpression, if reserve had room
}

// reserve sizes the slab for n nodes and returns the Compiled and the
// used-placeholder slots (nUsed) of the request. The expressions of most
// requests are small — a key condition "pk = :p AND sk BETWEEN :a AND :b",
// a condition "attribute_not_exists(pk)" — and get everything in one
// allocation (a block); larger ones get a slice of each kind.
func (s *slab) reserve(n nodeCounts, nUsed int) (*Compiled, []string) {
	switch {
	case n == nodeCounts{} && nUsed <= 2:
		// No nodes: a key condition resolved from its plan (keyPlan).
		b := usedBlocks.get()
		b.c.block = b
		return &b.c, b.used[:0:nUsed]
	case n.conds == 0 && n.operands <= 1 && n.opPtrs == 0 && n.condPtrs == 0 && n.steps == 0 && nUsed <= 2:
		// An update whose values are placeholders: "SET a = :v", "ADD n :one".
		if n.updates > 0 {
			b := updateValueBlocks.get()
			b.c.block = b
			s.operands, s.update = b.operands[:0:n.operands], &b.update
			return &b.c, b.used[:0:nUsed]
		}
		b := valueBlocks.get()
		b.c.block = b
		s.operands = b.operands[:0:n.operands]
		return &b.c, b.used[:0:nUsed]
	case n.conds <= 1 && n.operands <= 2 && n.opPtrs <= 2 && n.condPtrs == 0 && n.steps <= 2 && nUsed <= 2:
		b := tinyBlocks.get()
		b.c.block = b
		s.conds, s.operands, s.opPtrs, s.steps = b.conds[:0:n.conds], b.operands[:0:n.operands], b.opPtrs[:0:n.opPtrs], b.steps[:0:n.steps]
		return &b.c, b.used[:0:nUsed]
	case n.conds <= 3 && n.operands <= 5 && n.opPtrs <= 5 && n.condPtrs <= 2 && n.steps <= 3 && nUsed <= 4:
		b := smallBlocks.get()
		b.c.block = b
		s.conds, s.operands, s.opPtrs, s.steps = b.conds[:0:n.conds], b.operands[:0:n.operands], b.opPtrs[:0:n.opPtrs], b.steps[:0:n.steps]
		s.condPtrs = b.condPtrs[:0:n.condPtrs]
		return &b.c, b.used[:0:nUsed]
	}
	if n.conds > 0 {
		s.conds = make([]cond, 0, n.conds)
	}
	if n.operands > 0 {
		s.operands = make([]operand, 0, n.operands)
	}
	if n.opPtrs > 0 {
		s.opPtrs = make([]*operand, 0, n.opPtrs)
	}
	if n.condPtrs > 0 {
		s.condPtrs = make([]*cond, 0, n.condPtrs)
	}
	if n.steps > 0 {
		s.steps = make([]step, 0, n.steps)
	}
	var used []string
	if nUsed > 0 {
		used = make([]string, 0, nUsed)
	}
	return &Compiled{}, used
}

// usedBlock, valueBlock, updateValueBlock, tinyBlock and smallBlock are a
// Compiled with room for the nodes of small expressions (see reserve);
// updateValueBlock also has room for the actions of an update.
type usedBlock struct {
	c    Compiled
	used [2]string
}

type valueBlock struct {
	c        Compiled
	operands [1]operand
	used     [2]string
}

type updateValueBlock struct {
	valueBlock
	update updateBlock
}

type tinyBlock struct {
	c        Compiled
	conds    [1]cond
	operands [2]operand
	opPtrs   [2]*operand
	steps    [2]step
	used     [2]string
}

type smallBlock struct {
	c        Compiled
	conds    [3]cond
	operands [5]operand
	opPtrs   [5]*operand
	condPtrs [2]*cond
	steps    [3]step
	used     [4]string
}

// The blocks of released Compileds (Release), zeroed, for later Compiles.
var (
	usedBlocks        blockPool[usedBlock]
	valueBlocks       blockPool[valueBlock]
	updateValueBlocks blockPool[updateValueBlock]
	tinyBlocks        blockPool[tinyBlock]
	smallBlocks       blockPool[smallBlock]
)

type blockPool[T any] struct{ p sync.Pool }

func (bp *blockPool[T]) get() *T {
	if b, ok := bp.p.Get().(*T); ok {
		return b
	}
	return new(T)
}

func (bp *blockPool[T]) put(b *T) {
	var zero T
	*b = zero // nothing of the request stays reachable, and the next starts empty
	bp.p.Put(b)
}

// Release hands c's memory to a later Compile. Only Compile's caller may
// call it, once, when nothing it got from c (c itself, its nodes, Update's
// updated list, what UpdatedAttributes returns) is used any more; a
// Compiled that is never released is simply collected.
func (c *Compiled) Release() {
	switch b := c.block.(type) {
	case *usedBlock:
		usedBlocks.put(b)
	case *valueBlock:
		valueBlocks.put(b)
	case *updateValueBlock:
		updateValueBlocks.put(b)
	case *tinyBlock:
		tinyBlocks.put(b)
	case *smallBlock:
		smallBlocks.put(b)
	}
}

// cond and operand return a new, zero node; the callers set its fields one
// by one (copying a whole node in would go through the runtime's bulk write
// barrier).
func (s *slab) cond() *cond {
	if len(s.conds) < cap(s.conds) {
		s.conds = s.conds[:len(s.conds)+1]
		return &s.conds[len(s.conds)-1]
	}
	return new(cond)
}

func (s *slab) operand() *operand {
	if len(s.operands) < cap(s.operands) {
		s.operands = s.operands[:len(s.operands)+1]
		return &s.operands[len(s.operands)-1]
	}
	return new(operand)
}

// take returns n elements carved from *buf (capped, so that appending to
// the result never reaches a neighbour), or a new slice when *buf is full.
func take[T any](buf *[]T, n int) []T {
	b := *buf
	if cap(b)-len(b) < n {
		return make([]T, n)
	}
	*buf = b[:len(b)+n]
	return b[len(b) : len(b)+n : len(b)+n]
}

// DynamoDB's limits on one expression (developer guide, "Quotas",
// expression parameters, and DynamoDB Local's validator).
const (
	maxOperators = 300 // operators and functions
	maxPathDepth = 32  // elements of one document path
	// IN's list holds at most 100 operands, the left one not counted
	// (ServiceQuotas.html: "The maximum number of operands for the IN
	// comparator is 100"; DynamoDB Local 3.3.1 evaluates 100 and rejects 101).
	maxInOperands = 100
)

func (r *resolver) begin(what string) {
	r.what, r.ops = what, 0
}

func (r *resolver) fail(msg string) error {
	return validation("Invalid " + r.what + ": " + msg)
}

// countOp counts one operator or function against the limit.
func (r *resolver) countOp() error {
	r.ops++
	if r.ops > maxOperators {
		return r.fail("The expression contains too many operators; operator count: " + strconv.Itoa(r.ops))
	}
	return nil
}

func (r *resolver) path(p expr.Path) (path, error) {
	if len(p) > maxPathDepth {
		return nil, r.fail("The document path has too many nesting levels; nesting levels: " + strconv.Itoa(len(p)))
	}
	out := path(take(&r.slab.steps, len(p)))
	for i, e := range p {
		if e.IsIndex {
			out[i] = step{index: e.Index, isIndex: true}
			continue
		}
		name := e.Name
		if strings.HasPrefix(name, "#") {
			real, ok := r.names[name]
			if !ok {
				return nil, r.fail("An expression attribute name used in the document path is not defined; attribute name: " + name)
			}
			if !slices.Contains(r.usedNames, name) {
				r.usedNames = append(r.usedNames, name)
			}
			name = real
		}
		out[i] = step{name: name}
	}
	return out, nil
}

func (r *resolver) value(v *expr.Value) (types.AttributeValue, error) {
	av, ok := r.values[v.Placeholder]
	if !ok {
		if v.AV != nil && v.Placeholder == "" {
			return v.AV, nil
		}
		return nil, r.fail("An expression attribute value used in expression is not defined; attribute value: " + v.Placeholder)
	}
	if !slices.Contains(r.usedValues, v.Placeholder) {
		r.usedValues = append(r.usedValues, v.Placeholder)
	}
	return av, nil
}

// operand resolves and checks o and everything inside it.
func (r *resolver) operand(o expr.Operand) (*operand, error) {
	switch o := o.(type) {
	case expr.Path:
		p, err := r.path(o)
		if err != nil {
			return nil, err
		}
		out := r.slab.operand()
		out.kind, out.path = opPath, p
		return out, nil
	case *expr.Value:
		av, err := r.value(o)
		if err != nil {
			return nil, err
		}
		out := r.slab.operand()
		out.kind, out.val = opValue, av
		if n, ok := av.(*types.AttributeValueMemberN); ok {
			// Parsed once here rather than at every comparison; the value
			// was validated with the request.
			out.num, err = numbers.Parse(n.Value)
			out.hasNum = err == nil
		}
		return out, nil
	case *expr.Func:
		out := r.slab.operand()
		out.name = o.Name
		switch o.Name {
		case "size":
			out.kind = opSize
		case "if_not_exists":
			out.kind = opIfNotExists
		case "list_append":
			out.kind = opListAppend
		default:
			return nil, r.fail("Invalid function name; function: " + o.Name)
		}
		var err error
		if out.args, err = r.operands(o.Args); err != nil {
			return nil, err
		}
		if err := r.checkFunc(out); err != nil {
			return nil, err
		}
		return out, r.countOp()
	case *expr.Arith:
		args, err := r.operands([]expr.Operand{o.L, o.R})
		if err != nil {
			return nil, err
		}
		out := r.slab.operand()
		out.kind, out.arith, out.args, out.name = opArith, o.Op, args, string(o.Op)
		for _, a := range args {
			if t := a.staticType(); t != "" && t != "N" {
				return nil, r.typeErr(out.name, t)
			}
		}
		return out, r.countOp()
	}
	return nil, r.fail("unsupported operand")
}

func (r *resolver) operands(list []expr.Operand) ([]*operand, error) {
	out := take(&r.slab.opPtrs, len(list))
	for i, o := range list {
		ro, err := r.operand(o)
		if err != nil {
			return nil, err
		}
		out[i] = ro
	}
	return out, nil
}

var funcArity = map[opKind]int{opSize: 1, opIfNotExists: 2, opListAppend: 2}

// checkFunc checks a function used as an operand.
func (r *resolver) checkFunc(o *operand) error {
	if n := funcArity[o.kind]; len(o.args) != n {
		return r.countErr(o.name, len(o.args))
	}
	switch o.kind {
	case opSize:
		if t := o.args[0].staticType(); t == "N" || t == "BOOL" || t == "NULL" {
			return r.typeErr(o.name, t)
		}
	case opListAppend:
		for _, a := range o.args {
			if t := a.staticType(); t != "" && t != "L" {
				return r.typeErr(o.name, t)
			}
		}
	case opIfNotExists:
		if err := r.distinct(o.name, o.args); err != nil {
			return err
		}
		if o.args[0].kind != opPath {
			return r.fail("Operator or function requires a document path; operator or function: if_not_exists")
		}
	}
	return nil
}

// condition resolves one parsed condition-grammar expression.
func (r *resolver) condition(p *parsed, what string) (*cond, error) {
	if p.err != nil {
		return nil, exprErr(p.err)
	}
	r.begin(what)
	return r.cond(p.cond)
}

func (r *resolver) cond(c expr.Cond) (*cond, error) {
	switch c := c.(type) {
	case *expr.And, *expr.Or:
		kind, list := cAnd, []expr.Cond(nil)
		if a, ok := c.(*expr.And); ok {
			list = a.Conds
		} else {
			kind, list = cOr, c.(*expr.Or).Conds
		}
		out := r.slab.cond()
		out.kind, out.kids = kind, take(&r.slab.condPtrs, len(list))
		for i, k := range list {
			rk, err := r.cond(k)
			if err != nil {
				return nil, err
			}
			out.kids[i] = rk
			// The n-ary node stands for n-1 binary ones.
			if i > 0 {
				if err := r.countOp(); err != nil {
					return nil, err
				}
			}
		}
		return out, nil
	case *expr.Not:
		k, err := r.cond(c.Cond)
		if err != nil {
			return nil, err
		}
		kids := take(&r.slab.condPtrs, 1)
		kids[0] = k
		out := r.slab.cond()
		out.kind, out.kids = cNot, kids
		return out, r.countOp()
	case *expr.Compare:
		out := r.slab.cond()
		out.kind, out.op = cCompare, c.Op
		return r.leaf(out, string(c.Op), c.L, c.R)
	case *expr.Between:
		out := r.slab.cond()
		out.kind = cBetween
		return r.leaf(out, "BETWEEN", c.X, c.Lo, c.Hi)
	case *expr.In:
		out := r.slab.cond()
		out.kind = cIn
		return r.leaf(out, "IN", append([]expr.Operand{c.X}, c.List...)...)
	case *expr.CondFunc:
		out := r.slab.cond()
		switch c.Name {
		case "attribute_exists":
			out.kind = cExists
		case "attribute_not_exists":
			out.kind = cNotExists
		case "attribute_type":
			out.kind = cType
		case "begins_with":
			out.kind = cBeginsWith
		case "contains":
			out.kind = cContains
		default:
			return nil, r.fail("Invalid function name; function: " + c.Name)
		}
		return r.leaf(out, c.Name, c.Args...)
	case *expr.Raw:
		// The DSL's raw text: parse it as what it stands for.
		ast, err := parse.Condition(c.Text)
		if err != nil {
			return nil, exprErr(err)
		}
		return r.cond(ast)
	}
	return nil, r.fail("unsupported condition")
}

func (r *resolver) leaf(c *cond, name string, ops ...expr.Operand) (*cond, error) {
	var err error
	if c.ops, err = r.operands(ops); err != nil {
		return nil, err
	}
	if err := r.checkLeaf(c, name); err != nil {
		return nil, err
	}
	return c, r.countOp()
}

var condArity = map[condKind]int{cExists: 1, cNotExists: 1, cType: 2, cBeginsWith: 2, cContains: 2}

var validTypeNames = map[string]bool{"S": true, "N": true, "B": true, "NULL": true, "SS": true,
	"BOOL": true, "L": true, "BS": true, "NS": true, "M": true}

// checkLeaf applies DynamoDB's checks to one leaf condition, in its order:
// operand count, operand types, repeated operands, the operator's own rules.
// name is the operator or function as DynamoDB names it in messages.
func (r *resolver) checkLeaf(c *cond, name string) error {
	if n, ok := condArity[c.kind]; ok && len(c.ops) != n {
		return r.countErr(name, len(c.ops))
	}
	for _, o := range c.ops {
		t := o.staticType()
		if t == "" {
			continue
		}
		switch {
		case c.kind == cCompare && c.op != expr.EQ && c.op != expr.NE, c.kind == cBetween:
			if t != "S" && t != "N" && t != "B" {
				return r.typeErr(name, t)
			}
		case c.kind == cBeginsWith:
			if t != "S" && t != "B" {
				return r.typeErr(name, t)
			}
		}
	}
	switch c.kind {
	case cCompare, cBetween, cIn, cBeginsWith, cContains:
		if err := r.distinct(name, c.ops); err != nil {
			return err
		}
	}
	switch c.kind {
	case cBetween:
		lo, hi := c.ops[1], c.ops[2]
		if lo.kind == opValue && hi.kind == opValue {
			bounds := func() string {
				return "lower bound operand: " + describe(lo.val) + ", upper bound operand: " + describe(hi.val)
			}
			if avtype.Of(lo.val) != avtype.Of(hi.val) {
				return r.fail("The BETWEEN operator requires same data type for lower and upper bounds; " + bounds())
			}
			if cmp, ok := order(lo.val, hi.val); ok && cmp > 0 {
				return r.fail("The BETWEEN operator requires upper bound to be greater than or equal to lower bound; " + bounds())
			}
		}
	case cIn:
		if len(c.ops)-1 > maxInOperands {
			return r.fail("The IN operator is provided with too many operands; number of operands: " + strconv.Itoa(len(c.ops)-1))
		}
	case cExists, cNotExists:
		if c.ops[0].kind != opPath {
			return r.fail("Operator or function requires a document path; operator or function: " + name)
		}
	case cType:
		// The first operand may be a value too (its type is then known),
		// as DynamoDB accepts; only the type name must be a value.
		t := c.ops[1].staticType()
		if c.ops[1].kind != opValue || t != "S" {
			if t == "" {
				t = "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}"
			}
			return r.typeErr(name, t)
		}
		c.typ = c.ops[1].val.(*types.AttributeValueMemberS).Value
		if !validTypeNames[c.typ] {
			return r.fail("Invalid attribute type name found; type: " + c.typ + ", valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}")
		}
	}
	return nil
}

func (r *resolver) countErr(name string, n int) error {
	return r.fail("Incorrect number of operands for operator or function; operator or function: " +
		name + ", number of operands: " + strconv.Itoa(n))
}

func (r *resolver) typeErr(name, t string) error {
	return r.fail("Incorrect operand type for operator or function; operator or function: " + name + ", operand type: " + t)
}

// distinct rejects a first operand that is a path repeated among the
// others: a = a, contains(a, a), x IN (x).
func (r *resolver) distinct(name string, ops []*operand) error {
	if len(ops) < 2 || ops[0].kind != opPath {
		return nil
	}
	for _, o := range ops[1:] {
		if o.kind == opPath && o.path.equal(ops[0].path) {
			return r.fail("The first operand must be distinct from the remaining operands for this operator or function; operator: " +
				name + ", first operand: " + ops[0].path.String())
		}
	}
	return nil
}

// ---- paths shared by update and projection checks ---------------------------

// overlap reports DynamoDB's error when path p, written after the paths
// before, cannot be used with one of them: one is a prefix of the other
// (overlap), or they treat the same element as a map and as a list
// (conflict). The earlier path is "path one".
func (r *resolver) overlap(before []path, p path) error {
	for _, a := range before {
		n := min(len(a), len(p))
		k := 0
		for k < n && a[k] == p[k] {
			k++
		}
		pair := func() string { // built only for the error
			return "; must remove or rewrite one of these paths; path one: " + a.String() + ", path two: " + p.String()
		}
		if k == n {
			return r.fail("Two document paths overlap with each other" + pair())
		}
		if a[k].isIndex != p[k].isIndex {
			return r.fail("Two document paths conflict with each other" + pair())
		}
	}
	return nil
}
