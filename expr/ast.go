package expr

import "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

// This file is the one AST of DynamoDB expressions. The DSL in this package
// builds it, Print renders it as expression text, and expr/parse produces it
// from text; the local server evaluates it. Keeping one tree for both
// directions is what lets a round-trip test tie printer and parser together.

// PathElem is one step of a document path: an attribute name (or a "#name"
// placeholder) or a list index.
type PathElem struct {
	Name    string // attribute name, or a placeholder such as "#n0"; empty for an index
	Index   int    // list index, meaningful when IsIndex
	IsIndex bool
}

// Path is a document path such as a.b[2].c.
type Path []PathElem

// Operand is anything that yields a value inside an expression: a Path, a
// *Value, a *Func (size, if_not_exists, list_append) or an *Arith.
type Operand interface{ operand() }

// Value is an expression attribute value. Parsed text carries only the
// placeholder (":v"); the DSL carries the Go value until Compile encodes it
// into AV and assigns the placeholder.
type Value struct {
	Placeholder string               // ":name"
	AV          types.AttributeValue // encoded value, nil until encoded
	Go          any                  // Go value given to the DSL, encoded by Compile
}

// Func is a function used as an operand: size(path), if_not_exists(path, v),
// list_append(a, b).
type Func struct {
	Name string
	Args []Operand
}

// Arith is a + or - between two operands in an update SET action.
type Arith struct {
	Op   byte // '+' or '-'
	L, R Operand
}

func (Path) operand()   {}
func (*Value) operand() {}
func (*Func) operand()  {}
func (*Arith) operand() {}

// Cond is a condition: a *Compare, *Between, *In, *CondFunc, *And, *Or or
// *Not (and, in the DSL only, a *Raw).
type Cond interface{ cond() }

// CompareOp is one of DynamoDB's comparators.
type CompareOp string

// The comparators of the condition grammar.
const (
	EQ CompareOp = "="
	NE CompareOp = "<>"
	LT CompareOp = "<"
	LE CompareOp = "<="
	GT CompareOp = ">"
	GE CompareOp = ">="
)

// Compare is L op R.
type Compare struct {
	Op   CompareOp
	L, R Operand
}

// Between is X BETWEEN Lo AND Hi.
type Between struct{ X, Lo, Hi Operand }

// In is X IN (List...).
type In struct {
	X    Operand
	List []Operand
}

// CondFunc is a boolean function: attribute_exists, attribute_not_exists,
// attribute_type, begins_with or contains.
type CondFunc struct {
	Name string
	Args []Operand
}

// And is the conjunction of two or more conditions.
type And struct{ Conds []Cond }

// Or is the disjunction of two or more conditions.
type Or struct{ Conds []Cond }

// Not negates a condition.
type Not struct{ Cond Cond }

// Raw is expression text with its own placeholders, passed through as given.
// Only the DSL produces it; the parser never does.
type Raw struct {
	Text   string
	Names  map[string]string
	Values map[string]any // Go values, or types.AttributeValue already encoded
}

func (*Compare) cond()  {}
func (*Between) cond()  {}
func (*In) cond()       {}
func (*CondFunc) cond() {}
func (*And) cond()      {}
func (*Or) cond()       {}
func (*Not) cond()      {}
func (*Raw) cond()      {}

// UpdateAST is a parsed or compiled update expression: its four clauses, each
// in the order written.
type UpdateAST struct {
	Set    []SetAction
	Remove []Path
	Add    []PathValue
	Delete []PathValue
}

// SetAction is one "path = operand" of a SET clause.
type SetAction struct {
	Path  Path
	Value Operand
}

// PathValue is one "path :value" of an ADD or DELETE clause.
type PathValue struct {
	Path  Path
	Value *Value
}
