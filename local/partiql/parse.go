package partiql

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/expr"
)

// MaxStatementLen is the longest Statement DynamoDB accepts, in characters
// (API_ExecuteStatement.html, Statement: length 1 to 8192).
const MaxStatementLen = 8192

// maxDepth caps the nesting of parentheses, NOT and literals, a guard on the
// recursion that no statement within MaxStatementLen needs.
const maxDepth = 1000

// Kind is the verb of a statement.
type Kind uint8

// The statement kinds.
const (
	Select Kind = iota + 1
	Insert
	Update
	Delete
	Exists // EXISTS(SELECT ...): a condition check, in transactions only
)

func (k Kind) String() string {
	return [...]string{"", "SELECT", "INSERT", "UPDATE", "DELETE", "EXISTS"}[k]
}

// Statement is one parsed statement. Every value in it (literal or
// parameter) is an *expr.Value with AV set.
type Statement struct {
	Kind  Kind
	Table string
	Index string // SELECT ... FROM "table"."index"

	Projection []expr.Path // SELECT: nil means *
	Where      expr.Cond   // nil when there is no WHERE clause
	OrderBy    []OrderKey  // SELECT: the ORDER BY keys, in order

	Item   map[string]types.AttributeValue // INSERT
	Update *expr.UpdateAST                 // UPDATE

	// Returning is the RETURNING clause as a ReturnValues setting: ALL_OLD,
	// UPDATED_OLD (MODIFIED OLD), ALL_NEW, UPDATED_NEW; "" when absent.
	Returning string
}

// OrderKey is one key of ORDER BY.
type OrderKey struct {
	Path expr.Path
	Desc bool
}

// SyntaxError is a statement DynamoDB cannot read. Error returns DynamoDB's
// ValidationException message; Line and Column (1-based, in characters)
// locate the offending token.
type SyntaxError struct {
	Msg          string // what is wrong, e.g. `unexpected token "FORM"`
	Line, Column int
}

func (e *SyntaxError) Error() string {
	return "Statement wasn't well formed, can't be processed: " + e.Msg +
		" at line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Column)
}

// ErrParameterCount is the answer to a statement whose ? placeholders and
// Parameters differ in number.
var ErrParameterCount = paramError("Number of parameters in request and statement don't match.")

type paramError string

func (e paramError) Error() string { return string(e) }

func syntaxAt(src string, pos int, msg string) *SyntaxError {
	line, col := 1, 1
	for _, r := range src[:pos] {
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return &SyntaxError{Msg: msg, Line: line, Column: col}
}

func quote(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return strconv.Quote(s)
}

// Parse parses one statement, binding its ? placeholders to params in order.
func Parse(src string, params []types.AttributeValue) (st *Statement, err error) {
	toks, err := lexCached(src)
	if err != nil {
		return nil, err
	}
	p := &parser{src: src, toks: toks, params: params}
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(*SyntaxError)
			if !ok {
				panic(r)
			}
			st, err = nil, se
		}
	}()
	st = p.statement()
	if p.nparam != len(params) {
		return nil, ErrParameterCount
	}
	return st, nil
}

// parser is a recursive-descent parser over the tokens; syntax errors
// unwind with panic(*SyntaxError) to Parse.
type parser struct {
	src    string
	toks   []token
	i      int
	params []types.AttributeValue
	nparam int
	depth  int
}

func (p *parser) tok() token { return p.toks[p.i] }
func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

// fail reports the current token as unexpected. A literal is named by its
// kind only: messages never quote values.
func (p *parser) fail() {
	t := p.tok()
	switch t.kind {
	case tEOF:
		panic(syntaxAt(p.src, t.pos, "unexpected end of statement"))
	case tString:
		panic(syntaxAt(p.src, t.pos, "unexpected string literal"))
	case tNumber:
		panic(syntaxAt(p.src, t.pos, "unexpected number"))
	}
	panic(syntaxAt(p.src, t.pos, "unexpected token "+quote(p.src[t.pos:t.end])))
}

func (p *parser) failAt(t token, msg string) { panic(syntaxAt(p.src, t.pos, msg)) }

func (p *parser) enter() {
	if p.depth++; p.depth > maxDepth {
		p.failAt(p.tok(), "statement nested too deeply")
	}
}

func (p *parser) leave() { p.depth-- }

// keyword consumes the bare word kw (any case) if it is next.
func (p *parser) keyword(kw string) bool {
	t := p.tok()
	if t.kind == tIdent && strings.EqualFold(t.text, kw) {
		p.i++
		return true
	}
	return false
}

func (p *parser) isKeyword(kw string) bool {
	t := p.tok()
	return t.kind == tIdent && strings.EqualFold(t.text, kw)
}

func (p *parser) expectKeyword(kw string) {
	if !p.keyword(kw) {
		p.fail()
	}
}

// punct consumes the punctuation s if it is next.
func (p *parser) punct(s string) bool {
	t := p.tok()
	if t.kind == tPunct && t.text == s {
		p.i++
		return true
	}
	return false
}

func (p *parser) isPunct(s string) bool {
	t := p.tok()
	return t.kind == tPunct && t.text == s
}

func (p *parser) expect(s string) {
	if !p.punct(s) {
		p.fail()
	}
}

// reserved are the words that are keywords of the grammar: bare, they are
// never attribute names (quote them: "value").
var reserved = map[string]bool{
	"SELECT": true, "FROM": true, "WHERE": true, "AND": true, "OR": true, "NOT": true,
	"IN": true, "IS": true, "BETWEEN": true, "ORDER": true, "BY": true, "ASC": true,
	"DESC": true, "INSERT": true, "INTO": true, "VALUE": true, "UPDATE": true, "SET": true,
	"REMOVE": true, "DELETE": true, "RETURNING": true, "EXISTS": true, "MISSING": true,
	"NULL": true, "TRUE": true, "FALSE": true,
}

func isReserved(word string) bool { return reserved[strings.ToUpper(word)] }

func (p *parser) statement() *Statement {
	var st *Statement
	switch {
	case p.keyword("SELECT"):
		st = p.selectStmt()
	case p.keyword("INSERT"):
		st = p.insertStmt()
	case p.keyword("UPDATE"):
		st = p.updateStmt()
	case p.keyword("DELETE"):
		st = p.deleteStmt()
	case p.keyword("EXISTS"):
		p.expect("(")
		p.expectKeyword("SELECT")
		st = p.selectStmt()
		if st.Projection != nil || st.OrderBy != nil || st.Index != "" {
			p.failAt(p.toks[p.i-1], "EXISTS takes SELECT * FROM a table WHERE a condition")
		}
		p.expect(")")
		st.Kind = Exists
	default:
		p.fail()
	}
	if p.tok().kind != tEOF {
		p.fail()
	}
	return st
}

// name is an identifier, bare or double-quoted.
func (p *parser) name() string {
	t := p.tok()
	switch {
	case t.kind == tQuoted:
	case t.kind == tIdent && !isReserved(t.text):
	default:
		p.fail()
	}
	if t.text == "" {
		p.failAt(t, "empty identifier")
	}
	p.i++
	return t.text
}

func (p *parser) selectStmt() *Statement {
	st := &Statement{Kind: Select}
	if !p.punct("*") {
		for {
			st.Projection = append(st.Projection, p.path())
			if !p.punct(",") {
				break
			}
		}
	}
	p.expectKeyword("FROM")
	st.Table = p.name()
	if p.punct(".") {
		st.Index = p.name()
	}
	if p.keyword("WHERE") {
		st.Where = p.or()
	}
	if p.keyword("ORDER") {
		p.expectKeyword("BY")
		for {
			k := OrderKey{Path: p.path()}
			if p.keyword("DESC") {
				k.Desc = true
			} else {
				p.keyword("ASC")
			}
			st.OrderBy = append(st.OrderBy, k)
			if !p.punct(",") {
				break
			}
		}
	}
	return st
}

func (p *parser) insertStmt() *Statement {
	p.expectKeyword("INTO")
	st := &Statement{Kind: Insert, Table: p.name()}
	p.expectKeyword("VALUE")
	t := p.tok()
	m, ok := p.value().(*types.AttributeValueMemberM)
	if !ok {
		p.failAt(t, "VALUE must be a tuple {'attribute': value, ...}")
	}
	st.Item = m.Value
	return st
}

func (p *parser) updateStmt() *Statement {
	st := &Statement{Kind: Update, Table: p.name(), Update: &expr.UpdateAST{}}
	for {
		switch {
		case p.keyword("SET"):
			for {
				p.setAction(st.Update)
				if !p.punct(",") {
					break
				}
			}
			continue
		case p.keyword("REMOVE"):
			for {
				st.Update.Remove = append(st.Update.Remove, p.path())
				if !p.punct(",") {
					break
				}
			}
			continue
		}
		break
	}
	u := st.Update
	if len(u.Set)+len(u.Remove)+len(u.Add)+len(u.Delete) == 0 {
		p.fail()
	}
	p.expectKeyword("WHERE")
	st.Where = p.or()
	st.Returning = p.returning()
	return st
}

func (p *parser) deleteStmt() *Statement {
	p.expectKeyword("FROM")
	st := &Statement{Kind: Delete, Table: p.name()}
	p.expectKeyword("WHERE")
	st.Where = p.or()
	st.Returning = p.returning()
	return st
}

// returning reads an optional RETURNING ALL|MODIFIED OLD|NEW *.
func (p *parser) returning() string {
	if !p.keyword("RETURNING") {
		return ""
	}
	var which, when string
	switch {
	case p.keyword("ALL"):
		which = "ALL_"
	case p.keyword("MODIFIED"):
		which = "UPDATED_"
	default:
		p.fail()
	}
	switch {
	case p.keyword("OLD"):
		when = "OLD"
	case p.keyword("NEW"):
		when = "NEW"
	default:
		p.fail()
	}
	p.expect("*")
	return which + when
}

// setAction reads path = value, where value may be a set_add or set_delete
// of the same path (an ADD or DELETE of elements).
func (p *parser) setAction(u *expr.UpdateAST) {
	path := p.path()
	p.expect("=")
	t := p.tok()
	if t.kind == tIdent && p.toks[p.i+1].kind == tPunct && p.toks[p.i+1].text == "(" {
		switch strings.ToLower(t.text) {
		case "set_add", "set_delete":
			p.i += 2
			arg := p.path()
			if !pathsEqual(arg, path) {
				p.failAt(t, t.text+" must name the attribute it sets")
			}
			p.expect(",")
			v := &expr.Value{AV: p.value()}
			p.expect(")")
			pv := expr.PathValue{Path: path, Value: v}
			if strings.EqualFold(t.text, "set_add") {
				u.Add = append(u.Add, pv)
			} else {
				u.Delete = append(u.Delete, pv)
			}
			return
		}
	}
	v := p.setTerm()
	if op := p.tok(); op.kind == tPunct && (op.text == "+" || op.text == "-") {
		p.i++
		v = &expr.Arith{Op: op.text[0], L: v, R: p.setTerm()}
	}
	u.Set = append(u.Set, expr.SetAction{Path: path, Value: v})
}

// setTerm is an operand of a SET value: list_append and if_not_exists
// calls, paths and values.
func (p *parser) setTerm() expr.Operand {
	t := p.tok()
	if t.kind == tIdent && p.toks[p.i+1].kind == tPunct && p.toks[p.i+1].text == "(" {
		if name := strings.ToLower(t.text); name == "list_append" || name == "if_not_exists" {
			p.enter()
			defer p.leave()
			p.i += 2
			a := p.setTerm()
			p.expect(",")
			b := p.setTerm()
			p.expect(")")
			return &expr.Func{Name: name, Args: []expr.Operand{a, b}}
		}
	}
	return p.operand()
}

func pathsEqual(a, b expr.Path) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// path is name ( . name | [ index ] | [ 'key' ] )*.
func (p *parser) path() expr.Path {
	path := expr.Path{{Name: p.name()}}
	for {
		switch {
		case p.punct("."):
			path = append(path, expr.PathElem{Name: p.name()})
		case p.punct("["):
			t := p.tok()
			switch t.kind {
			case tNumber:
				n, err := strconv.Atoi(t.text)
				if err != nil || n > 1<<31-1 {
					p.failAt(t, "invalid list index "+quote(t.text))
				}
				path = append(path, expr.PathElem{Index: n, IsIndex: true})
			case tString:
				if t.text == "" {
					p.failAt(t, "empty identifier")
				}
				path = append(path, expr.PathElem{Name: t.text})
			default:
				p.fail()
			}
			p.i++
			p.expect("]")
		default:
			return path
		}
	}
}

// --- conditions ---

func (p *parser) or() expr.Cond {
	c := p.and()
	if !p.isKeyword("OR") {
		return c
	}
	or := &expr.Or{Conds: []expr.Cond{c}}
	for p.keyword("OR") {
		or.Conds = append(or.Conds, p.and())
	}
	return or
}

func (p *parser) and() expr.Cond {
	c := p.not()
	if !p.isKeyword("AND") {
		return c
	}
	and := &expr.And{Conds: []expr.Cond{c}}
	for p.keyword("AND") {
		and.Conds = append(and.Conds, p.not())
	}
	return and
}

func (p *parser) not() expr.Cond {
	p.enter()
	defer p.leave()
	if p.keyword("NOT") {
		return &expr.Not{Cond: p.not()}
	}
	return p.predicate()
}

// condFuncs are the functions that are conditions themselves.
var condFuncs = map[string]int{"begins_with": 2, "contains": 2, "attribute_type": 2}

func (p *parser) predicate() expr.Cond {
	if p.punct("(") {
		c := p.or()
		p.expect(")")
		return c
	}
	t := p.tok()
	if t.kind == tIdent && p.toks[p.i+1].kind == tPunct && p.toks[p.i+1].text == "(" {
		name := strings.ToLower(t.text)
		if n, ok := condFuncs[name]; ok {
			p.i += 2
			args := p.operands(")")
			if len(args) != n {
				p.failAt(t, "function "+t.text+" takes "+strconv.Itoa(n)+" arguments")
			}
			return &expr.CondFunc{Name: name, Args: args}
		}
	}
	left := p.operand()
	op := p.tok()
	if op.kind == tPunct {
		switch op.text {
		case "=", "<>", "<", "<=", ">", ">=":
			p.i++
			return &expr.Compare{Op: expr.CompareOp(op.text), L: left, R: p.operand()}
		case "!=":
			p.i++
			return &expr.Compare{Op: expr.NE, L: left, R: p.operand()}
		}
	}
	neg := p.keyword("NOT")
	var c expr.Cond
	switch {
	case p.keyword("BETWEEN"):
		lo := p.operand()
		p.expectKeyword("AND")
		c = &expr.Between{X: left, Lo: lo, Hi: p.operand()}
	case p.keyword("IN"):
		closer := ")"
		if p.punct("[") {
			closer = "]"
		} else {
			p.expect("(")
		}
		c = &expr.In{X: left, List: p.operands(closer)}
	case !neg && p.keyword("IS"):
		neg = p.keyword("NOT")
		c = p.isTest(left)
	default:
		p.fail()
	}
	if neg {
		return &expr.Not{Cond: c}
	}
	return c
}

// isTest is the part of "x IS [NOT] MISSING|NULL" after IS [NOT]: MISSING
// is attribute_not_exists; NULL is true of a NULL value and, as in PartiQL,
// of a missing attribute.
func (p *parser) isTest(x expr.Operand) expr.Cond {
	t := p.tok()
	path, ok := x.(expr.Path)
	if !ok {
		p.failAt(t, "IS takes an attribute path")
	}
	switch {
	case p.keyword("MISSING"):
		return &expr.CondFunc{Name: "attribute_not_exists", Args: []expr.Operand{path}}
	case p.keyword("NULL"):
		return &expr.Or{Conds: []expr.Cond{
			&expr.CondFunc{Name: "attribute_not_exists", Args: []expr.Operand{path}},
			&expr.CondFunc{Name: "attribute_type", Args: []expr.Operand{path, &expr.Value{AV: &types.AttributeValueMemberS{Value: "NULL"}}}},
		}}
	}
	p.fail()
	return nil
}

// operands reads operands separated by commas up to closer (consumed).
func (p *parser) operands(closer string) []expr.Operand {
	var out []expr.Operand
	if p.punct(closer) {
		return out
	}
	for {
		out = append(out, p.operand())
		if p.punct(closer) {
			return out
		}
		p.expect(",")
	}
}

// operand is a path, a size(path) or a value.
func (p *parser) operand() expr.Operand {
	t := p.tok()
	switch t.kind {
	case tQuoted:
		return p.path()
	case tIdent:
		if p.toks[p.i+1].kind == tPunct && p.toks[p.i+1].text == "(" && strings.EqualFold(t.text, "size") {
			p.i += 2
			arg := p.path()
			p.expect(")")
			return &expr.Func{Name: "size", Args: []expr.Operand{arg}}
		}
		if !isReserved(t.text) {
			return p.path()
		}
	}
	return &expr.Value{AV: p.value()}
}

// --- values ---

// value reads a literal or a parameter.
func (p *parser) value() types.AttributeValue {
	p.enter()
	defer p.leave()
	t := p.next()
	switch t.kind {
	case tString:
		return &types.AttributeValueMemberS{Value: t.text}
	case tNumber:
		return &types.AttributeValueMemberN{Value: t.text}
	case tParam:
		p.nparam++
		if p.nparam > len(p.params) || p.params[p.nparam-1] == nil {
			return &types.AttributeValueMemberNULL{Value: true}
		}
		return p.params[p.nparam-1]
	case tIdent:
		switch strings.ToUpper(t.text) {
		case "TRUE":
			return &types.AttributeValueMemberBOOL{Value: true}
		case "FALSE":
			return &types.AttributeValueMemberBOOL{Value: false}
		case "NULL":
			return &types.AttributeValueMemberNULL{Value: true}
		}
	case tPunct:
		switch t.text {
		case "-":
			if n := p.tok(); n.kind == tNumber && n.pos == t.end {
				p.i++
				return &types.AttributeValueMemberN{Value: "-" + n.text}
			}
		case "[":
			l := []types.AttributeValue{}
			if p.punct("]") {
				return &types.AttributeValueMemberL{Value: l}
			}
			for {
				l = append(l, p.value())
				if p.punct("]") {
					return &types.AttributeValueMemberL{Value: l}
				}
				p.expect(",")
			}
		case "{":
			m := map[string]types.AttributeValue{}
			if p.punct("}") {
				return &types.AttributeValueMemberM{Value: m}
			}
			for {
				k := p.tok()
				if (k.kind != tString && k.kind != tQuoted) || k.text == "" {
					p.fail()
				}
				p.i++
				if _, dup := m[k.text]; dup {
					p.failAt(k, "duplicate attribute "+quote(k.text))
				}
				p.expect(":")
				m[k.text] = p.value()
				if p.punct("}") {
					return &types.AttributeValueMemberM{Value: m}
				}
				p.expect(",")
			}
		case "<<":
			return p.set(t)
		}
	}
	p.i--
	if t.kind == tEOF {
		p.i = len(p.toks) - 1
	}
	p.fail()
	return nil
}

// set reads the elements of <<...>> after the opening token: strings,
// numbers or binaries (from parameters), all of one type.
func (p *parser) set(open token) types.AttributeValue {
	var elems []types.AttributeValue
	for {
		elems = append(elems, p.value())
		if p.punct(">>") {
			break
		}
		p.expect(",")
	}
	switch elems[0].(type) {
	case *types.AttributeValueMemberS:
		ss := make([]string, len(elems))
		for i, e := range elems {
			s, ok := e.(*types.AttributeValueMemberS)
			if !ok {
				p.failAt(open, "set elements must all be of one type")
			}
			ss[i] = s.Value
		}
		return &types.AttributeValueMemberSS{Value: ss}
	case *types.AttributeValueMemberN:
		ns := make([]string, len(elems))
		for i, e := range elems {
			n, ok := e.(*types.AttributeValueMemberN)
			if !ok {
				p.failAt(open, "set elements must all be of one type")
			}
			ns[i] = n.Value
		}
		return &types.AttributeValueMemberNS{Value: ns}
	case *types.AttributeValueMemberB:
		bs := make([][]byte, len(elems))
		for i, e := range elems {
			b, ok := e.(*types.AttributeValueMemberB)
			if !ok {
				p.failAt(open, "set elements must all be of one type")
			}
			bs[i] = b.Value
		}
		return &types.AttributeValueMemberBS{Value: bs}
	}
	p.failAt(open, "set elements must be strings, numbers or binaries")
	return nil
}
