package eval

import (
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/expr/parse"
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
	kind  opKind
	path  path
	val   types.AttributeValue
	args  []*operand
	arith byte
	name  string // the function's name, for messages
}

// staticType is the type an operand is known to have before any item is
// read: a value's type, N for size(); "" for a path or a function whose
// result depends on the item.
func (o *operand) staticType() string {
	switch o.kind {
	case opValue:
		return typeOf(o.val)
	case opSize:
		return "N"
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
// values, recording which it used.
type resolver struct {
	in                    *Input
	what                  string // the expression being resolved, for messages
	usedNames, usedValues map[string]bool
}

func (r *resolver) fail(msg string) error {
	return validation("Invalid " + r.what + ": " + msg)
}

func (r *resolver) path(p expr.Path) (path, error) {
	out := make(path, len(p))
	for i, e := range p {
		if e.IsIndex {
			out[i] = step{index: e.Index, isIndex: true}
			continue
		}
		name := e.Name
		if strings.HasPrefix(name, "#") {
			real, ok := r.in.Names[name]
			if !ok {
				return nil, r.fail("An expression attribute name used in the document path is not defined; attribute name: " + name)
			}
			r.usedNames[name] = true
			name = real
		}
		out[i] = step{name: name}
	}
	return out, nil
}

func (r *resolver) value(v *expr.Value) (types.AttributeValue, error) {
	av, ok := r.in.Values[v.Placeholder]
	if !ok {
		if v.AV != nil && v.Placeholder == "" {
			return v.AV, nil
		}
		return nil, r.fail("An expression attribute value used in expression is not defined; attribute value: " + v.Placeholder)
	}
	r.usedValues[v.Placeholder] = true
	return av, nil
}

func (r *resolver) operand(o expr.Operand) (*operand, error) {
	switch o := o.(type) {
	case expr.Path:
		p, err := r.path(o)
		if err != nil {
			return nil, err
		}
		return &operand{kind: opPath, path: p}, nil
	case *expr.Value:
		av, err := r.value(o)
		if err != nil {
			return nil, err
		}
		return &operand{kind: opValue, val: av}, nil
	case *expr.Func:
		out := &operand{name: o.Name}
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
		for _, a := range o.Args {
			ra, err := r.operand(a)
			if err != nil {
				return nil, err
			}
			out.args = append(out.args, ra)
		}
		return out, nil
	case *expr.Arith:
		l, err := r.operand(o.L)
		if err != nil {
			return nil, err
		}
		rr, err := r.operand(o.R)
		if err != nil {
			return nil, err
		}
		return &operand{kind: opArith, arith: o.Op, args: []*operand{l, rr}, name: string(o.Op)}, nil
	}
	return nil, r.fail("unsupported operand")
}

func (r *resolver) operands(list []expr.Operand) ([]*operand, error) {
	out := make([]*operand, len(list))
	for i, o := range list {
		ro, err := r.operand(o)
		if err != nil {
			return nil, err
		}
		out[i] = ro
	}
	return out, nil
}

// condition parses and resolves one condition-grammar expression.
func (r *resolver) condition(text, what string, parseFn func(string) (expr.Cond, error)) (*cond, error) {
	ast, err := parseFn(text)
	if err != nil {
		return nil, exprErr(err)
	}
	r.what = what
	return r.cond(ast)
}

// cond resolves c. Each leaf condition is checked as DynamoDB does, leaf by
// leaf in the order written; within a leaf, an undefined name or value comes
// first, then operand counts, then repeated operands, then operand types.
func (r *resolver) cond(c expr.Cond) (*cond, error) {
	switch c := c.(type) {
	case *expr.And, *expr.Or:
		kind, list := cAnd, []expr.Cond(nil)
		if a, ok := c.(*expr.And); ok {
			list = a.Conds
		} else {
			kind, list = cOr, c.(*expr.Or).Conds
		}
		out := &cond{kind: kind, kids: make([]*cond, len(list))}
		for i, k := range list {
			rk, err := r.cond(k)
			if err != nil {
				return nil, err
			}
			out.kids[i] = rk
		}
		return out, nil
	case *expr.Not:
		k, err := r.cond(c.Cond)
		if err != nil {
			return nil, err
		}
		return &cond{kind: cNot, kids: []*cond{k}}, nil
	case *expr.Compare:
		ops, err := r.operands([]expr.Operand{c.L, c.R})
		if err != nil {
			return nil, err
		}
		out := &cond{kind: cCompare, op: c.Op, ops: ops}
		return out, r.checkLeaf(out, string(c.Op))
	case *expr.Between:
		ops, err := r.operands([]expr.Operand{c.X, c.Lo, c.Hi})
		if err != nil {
			return nil, err
		}
		out := &cond{kind: cBetween, ops: ops}
		return out, r.checkLeaf(out, "BETWEEN")
	case *expr.In:
		ops, err := r.operands(append([]expr.Operand{c.X}, c.List...))
		if err != nil {
			return nil, err
		}
		out := &cond{kind: cIn, ops: ops}
		return out, r.checkLeaf(out, "IN")
	case *expr.CondFunc:
		ops, err := r.operands(c.Args)
		if err != nil {
			return nil, err
		}
		out := &cond{ops: ops}
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
		return out, r.checkLeaf(out, c.Name)
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

// maxInOperands is DynamoDB's limit on the list of IN.
const maxInOperands = 100

var condArity = map[condKind]int{cExists: 1, cNotExists: 1, cType: 2, cBeginsWith: 2, cContains: 2}

var validTypeNames = map[string]bool{"S": true, "N": true, "B": true, "NULL": true, "SS": true,
	"BOOL": true, "L": true, "BS": true, "NS": true, "M": true}

// checkLeaf applies DynamoDB's static checks to one leaf condition; name is
// its operator or function as DynamoDB names it in messages.
func (r *resolver) checkLeaf(c *cond, name string) error {
	// Operand counts, of the leaf and of every function inside it.
	if n, ok := condArity[c.kind]; ok && len(c.ops) != n {
		return r.countErr(name, len(c.ops))
	}
	if c.kind == cIn && len(c.ops)-1 > maxInOperands {
		return r.fail("The IN operator is provided with too many operands; number of operands: " + strconv.Itoa(len(c.ops)-1))
	}
	for _, o := range c.ops {
		if err := r.checkCounts(o); err != nil {
			return err
		}
	}
	// The first operand must differ from the others.
	if c.kind != cExists && c.kind != cNotExists && c.kind != cType {
		if err := r.distinct(name, c.ops); err != nil {
			return err
		}
	}
	for _, o := range c.ops {
		if err := r.distinctInside(o); err != nil {
			return err
		}
	}
	// Operand types.
	for _, o := range c.ops {
		if err := r.checkTypes(o); err != nil {
			return err
		}
	}
	switch c.kind {
	case cCompare:
		if c.op != expr.EQ && c.op != expr.NE {
			for _, o := range c.ops {
				if err := r.orderable(name, o); err != nil {
					return err
				}
			}
		}
	case cBetween:
		for _, o := range c.ops {
			if err := r.orderable(name, o); err != nil {
				return err
			}
		}
		lo, hi := c.ops[1], c.ops[2]
		if lo.kind == opValue && hi.kind == opValue {
			bounds := "lower bound operand: " + describe(lo.val) + ", upper bound operand: " + describe(hi.val)
			if typeOf(lo.val) != typeOf(hi.val) {
				return r.fail("The BETWEEN operator requires same data type for lower and upper bounds; " + bounds)
			}
			if cmp, ok := order(lo.val, hi.val); ok && cmp > 0 {
				return r.fail("The BETWEEN operator requires upper bound to be greater than or equal to lower bound; " + bounds)
			}
		}
	case cExists, cNotExists:
		if c.ops[0].kind != opPath {
			return r.fail("Operator or function requires a document path; operator or function: " + name)
		}
	case cType:
		if c.ops[0].kind != opPath {
			return r.fail("Operator or function requires a document path; operator or function: " + name)
		}
		t := c.ops[1].staticType()
		if t != "S" {
			if t == "" {
				t = "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}"
			}
			return r.fail("Incorrect operand type for operator or function; operator or function: " + name + ", operand type: " + t)
		}
		c.typ = c.ops[1].val.(*types.AttributeValueMemberS).Value
		if !validTypeNames[c.typ] {
			return r.fail("Invalid attribute type name found; type: " + c.typ + ", valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}")
		}
	case cBeginsWith:
		for _, o := range c.ops {
			if t := o.staticType(); t != "" && t != "S" && t != "B" {
				return r.fail("Incorrect operand type for operator or function; operator or function: " + name + ", operand type: " + t)
			}
		}
	}
	return nil
}

func (r *resolver) countErr(name string, n int) error {
	return r.fail("Incorrect number of operands for operator or function; operator or function: " +
		name + ", number of operands: " + strconv.Itoa(n))
}

var funcArity = map[opKind]int{opSize: 1, opIfNotExists: 2, opListAppend: 2}

func (r *resolver) checkCounts(o *operand) error {
	if n, ok := funcArity[o.kind]; ok && len(o.args) != n {
		return r.countErr(o.name, len(o.args))
	}
	for _, a := range o.args {
		if err := r.checkCounts(a); err != nil {
			return err
		}
	}
	return nil
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

func (r *resolver) distinctInside(o *operand) error {
	if o.kind == opIfNotExists {
		if err := r.distinct(o.name, o.args); err != nil {
			return err
		}
	}
	for _, a := range o.args {
		if err := r.distinctInside(a); err != nil {
			return err
		}
	}
	return nil
}

// checkTypes checks the operands of the functions and arithmetic inside o.
func (r *resolver) checkTypes(o *operand) error {
	for _, a := range o.args {
		if err := r.checkTypes(a); err != nil {
			return err
		}
	}
	typeErr := func(t string) error {
		return r.fail("Incorrect operand type for operator or function; operator or function: " + o.name + ", operand type: " + t)
	}
	switch o.kind {
	case opSize:
		if t := o.args[0].staticType(); t == "N" || t == "BOOL" || t == "NULL" {
			return typeErr(t)
		}
	case opIfNotExists:
		if o.args[0].kind != opPath {
			return r.fail("Operator or function requires a document path; operator or function: if_not_exists")
		}
	case opListAppend:
		for _, a := range o.args {
			if t := a.staticType(); t != "" && t != "L" {
				return typeErr(t)
			}
		}
	case opArith:
		for _, a := range o.args {
			if a.kind == opListAppend {
				return r.fail("The function is not allowed to be used this way in an expression; function: list_append")
			}
			if t := a.staticType(); t != "" && t != "N" {
				return typeErr(t)
			}
		}
	}
	return nil
}

// orderable: <, <=, >, >= and BETWEEN need operands that have an order.
func (r *resolver) orderable(name string, o *operand) error {
	switch t := o.staticType(); t {
	case "", "S", "N", "B":
		return nil
	default:
		return r.fail("Incorrect operand type for operator or function; operator or function: " + name + ", operand type: " + t)
	}
}

// ---- paths shared by update and projection checks ---------------------------

// overlap reports DynamoDB's error for two document paths of one update or
// projection that cannot both be used: one is a prefix of the other
// (overlap), or they treat the same element as a map and as a list
// (conflict).
func (r *resolver) overlap(paths []path) error {
	for i := range paths {
		for j := i + 1; j < len(paths); j++ {
			a, b := paths[i], paths[j]
			n := min(len(a), len(b))
			k := 0
			for k < n && a[k] == b[k] {
				k++
			}
			pair := "; must remove or rewrite one of these paths; path one: " + a.String() + ", path two: " + b.String()
			if k == n {
				return r.fail("Two document paths overlap with each other" + pair)
			}
			if a[k].isIndex != b[k].isIndex {
				return r.fail("Two document paths conflict with each other" + pair)
			}
		}
	}
	return nil
}
