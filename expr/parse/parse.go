package parse

import (
	"strconv"
	"strings"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/internal/limits"
)

// MaxExpressionSize is DynamoDB's limit on the length of one expression
// string, in bytes.
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-expression-parameters
const MaxExpressionSize = limits.MaxExpressionBytes

// MaxDepth caps the nesting of parentheses, NOT and function calls. No
// expression within MaxExpressionSize can reach it (every level takes at
// least one byte), so what DynamoDB answers for deeply nested input is what
// this parser answers: redundant parentheses for (((a = :v))), too many
// operators for NOT NOT ... a = :v, an invalid function name for f(f(...)).
// It stays as a guard on the recursion should the size limit ever be lifted.
const MaxDepth = MaxExpressionSize

// maxListIndex is the largest list index DynamoDB accepts in a document path.
const maxListIndex = 1<<31 - 1

// SyntaxError is an expression that DynamoDB rejects while reading it:
// bad syntax, a reserved word used as a name, redundant parentheses, a
// function that does not exist or is used in the wrong place, an expression
// that is empty or too large. Msg is DynamoDB's ValidationException message,
// e.g. `Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "="`.
// Pos is the byte offset in the expression of what the error is about (the
// offending token, the reserved word, the function), or -1 when it is about
// the expression as a whole; DynamoDB's message does not carry it, tools
// such as a CLI checker can point at it.
type SyntaxError struct {
	Msg string
	Pos int
}

func (e *SyntaxError) Error() string { return e.Msg }

// Condition parses a ConditionExpression.
func Condition(s string) (expr.Cond, error) { return parseCondition(s, "ConditionExpression") }

// Filter parses a FilterExpression: the grammar of Condition, with errors
// that name FilterExpression.
func Filter(s string) (expr.Cond, error) { return parseCondition(s, "FilterExpression") }

// SearchCondition parses the SearchConditionExpression of SearchVectors:
// the grammar of Condition, with errors that name SearchConditionExpression.
func SearchCondition(s string) (expr.Cond, error) {
	return parseCondition(s, "SearchConditionExpression")
}

// KeyCondition parses a KeyConditionExpression. The grammar is the one of
// Condition; the restrictions of key conditions (one equality on the
// partition key, one sort key condition) depend on the key schema and are
// checked by the server (local/eval).
func KeyCondition(s string) (expr.Cond, error) { return parseCondition(s, "KeyConditionExpression") }

// Update parses an UpdateExpression.
func Update(s string) (*expr.UpdateAST, error) {
	p, err := newParser(s, "UpdateExpression", true)
	if err != nil {
		return nil, err
	}
	var u *expr.UpdateAST
	if err := p.run(func() { u = p.updateExpr() }); err != nil {
		return nil, err
	}
	return u, nil
}

// Projection parses a ProjectionExpression: document paths separated by
// commas.
func Projection(s string) ([]expr.Path, error) {
	p, err := newParser(s, "ProjectionExpression", false)
	if err != nil {
		return nil, err
	}
	var paths []expr.Path
	if err := p.run(func() {
		for {
			paths = append(paths, p.path())
			if !p.punct(",") {
				break
			}
			p.i++
		}
		p.expectEOF()
	}); err != nil {
		return nil, err
	}
	return paths, nil
}

func parseCondition(s, what string) (expr.Cond, error) {
	p, err := newParser(s, what, false)
	if err != nil {
		return nil, err
	}
	var c expr.Cond
	if err := p.run(func() {
		c, _ = p.or()
		p.expectEOF()
	}); err != nil {
		return nil, err
	}
	return c, nil
}

// parser is a recursive-descent parser over the token slice. Syntax errors
// unwind with panic(*SyntaxError) to run; the other errors DynamoDB reports
// for a parsable expression are noted (the first of each kind) and reported
// after the whole expression parsed, in DynamoDB's order of precedence.
type parser struct {
	src    string
	what   string // ConditionExpression, UpdateExpression, ...
	toks   []token
	i      int
	depth  int
	update bool // the update grammar: its functions, + and -
	top    bool // parsing what may be the whole value of a SET action
	noted
}

// noted holds the deferred errors, each the first of its kind.
type noted struct {
	parens, function, misused, reserved notice
}

type notice struct {
	msg string
	pos int32
}

func newParser(s, what string, update bool) (*parser, error) {
	if len(s) > MaxExpressionSize {
		return nil, &SyntaxError{"Invalid " + what +
			": Expression size has exceeded the maximum allowed size; expression size: " + strconv.Itoa(len(s)), -1}
	}
	if strings.TrimLeft(s, " \t\r\n") == "" {
		return nil, &SyntaxError{"Invalid " + what + ": The expression can not be empty;", -1}
	}
	p := &parser{src: s, what: what, update: update}
	p.toks = lex(s, make([]token, 0, len(s)/3+2))
	return p, nil
}

// run calls parse and turns a syntax panic into its error, then reports the
// noted errors in the order DynamoDB does.
func (p *parser) run(parse func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(*SyntaxError)
			if !ok {
				panic(r)
			}
			err = se
		}
	}()
	parse()
	for _, n := range [...]notice{p.parens, p.function, p.misused, p.reserved} {
		if n.msg != "" {
			return &SyntaxError{"Invalid " + p.what + ": " + n.msg, int(n.pos)}
		}
	}
	return nil
}

// fail fails at the current token.
func (p *parser) fail(msg string) {
	panic(&SyntaxError{"Invalid " + p.what + ": " + msg, int(p.tok().pos)})
}

// syntax fails at the current token. DynamoDB quotes the token and the text
// from the token before it to the token after it.
func (p *parser) syntax() {
	t := p.toks[p.i]
	text := "<EOF>"
	if t.kind != tEOF {
		text = p.src[t.pos:t.end]
	}
	from, to := t.pos, t.end
	if p.i > 0 {
		from = p.toks[p.i-1].pos
	}
	if t.kind != tEOF {
		to = p.toks[p.i+1].end
	}
	p.fail(`Syntax error; token: "` + text + `", near: "` + p.src[from:to] + `"`)
}

func (p *parser) tok() token          { return p.toks[p.i] }
func (p *parser) text(t token) string { return p.src[t.pos:t.end] }

func (p *parser) peek(n int) token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) punct(s string) bool {
	t := p.toks[p.i]
	return t.kind == tPunct && p.src[t.pos:t.end] == s
}

func (p *parser) keyword(kw string) bool {
	t := p.toks[p.i]
	return t.kind == tIdent && strings.EqualFold(p.src[t.pos:t.end], kw)
}

func (p *parser) expect(s string) {
	if !p.punct(s) {
		p.syntax()
	}
	p.i++
}

func (p *parser) expectEOF() {
	if p.tok().kind != tEOF {
		p.syntax()
	}
}

func (p *parser) enter() {
	p.depth++
	if p.depth > MaxDepth {
		p.fail("The expression is nested too deeply; maximum depth: " + strconv.Itoa(MaxDepth))
	}
}

func (p *parser) leave() { p.depth-- }

// note records msg about the token at pos unless the slot holds an
// earlier one.
func note(slot *notice, msg string, pos int32) {
	if slot.msg == "" {
		*slot = notice{msg, pos}
	}
}

// ---- conditions -----------------------------------------------------------

// or parses OR-separated conditions. grouped reports that the whole result
// is one parenthesised condition, which another pair around it makes
// redundant.
func (p *parser) or() (c expr.Cond, grouped bool) {
	c, grouped = p.and()
	if !p.keyword("OR") {
		return c, grouped
	}
	list := []expr.Cond{c}
	for p.keyword("OR") {
		p.i++
		c, _ = p.and()
		list = append(list, c)
	}
	return &expr.Or{Conds: list}, false
}

func (p *parser) and() (c expr.Cond, grouped bool) {
	c, grouped = p.not()
	if !p.keyword("AND") {
		return c, grouped
	}
	list := []expr.Cond{c}
	for p.keyword("AND") {
		p.i++
		c, _ = p.not()
		list = append(list, c)
	}
	return &expr.And{Conds: list}, false
}

func (p *parser) not() (expr.Cond, bool) {
	if !p.keyword("NOT") {
		return p.primary()
	}
	p.i++
	p.enter()
	c, _ := p.not()
	p.leave()
	return &expr.Not{Cond: c}, false
}

// conditionFuncs are the functions that are conditions themselves.
var conditionFuncs = map[string]bool{
	"attribute_exists": true, "attribute_not_exists": true, "attribute_type": true,
	"begins_with": true, "contains": true,
}

var updateFuncs = map[string]bool{"if_not_exists": true, "list_append": true}

func (p *parser) primary() (expr.Cond, bool) {
	t := p.tok()
	switch {
	case t.kind == tPunct && p.text(t) == "(":
		if op, ok := p.parenOperand(); ok {
			return p.tail(op), false
		}
		p.i++
		p.enter()
		c, grouped := p.or()
		p.expect(")")
		p.leave()
		if grouped {
			note(&p.parens, "The expression has redundant parentheses;", t.pos)
		}
		return c, true
	case t.kind == tIdent && p.peek(1).kind == tPunct && p.text(p.peek(1)) == "(":
		name := p.text(t)
		if conditionFuncs[name] {
			p.i++
			args := p.args()
			if p.atTail() {
				note(&p.misused, "The function is not allowed to be used this way in an expression; function: "+name, t.pos)
				return p.tail(&expr.Func{Name: name, Args: args}), false
			}
			return &expr.CondFunc{Name: name, Args: args}, false
		}
		op, _ := p.operand()
		if !p.atTail() {
			// size(x) alone, or an unknown function: not a condition.
			note(&p.misused, "The function is not allowed to be used this way in an expression; function: "+name, t.pos)
			f := op.(*expr.Func)
			return &expr.CondFunc{Name: f.Name, Args: f.Args}, false
		}
		return p.tail(op), false
	}
	op, _ := p.operand()
	return p.tail(op), false
}

// parenOperand recognises "(operand) comparator ...": a parenthesised
// operand where a condition may also start. It looks ahead without
// consuming anything unless it succeeds.
func (p *parser) parenOperand() (op expr.Operand, ok bool) {
	switch p.peek(1).kind {
	case tIdent, tName, tValue:
	default:
		return nil, false
	}
	save, saveNoted, saveDepth := p.i, p.noted, p.depth
	defer func() {
		if r := recover(); r != nil {
			if _, isSyntax := r.(*SyntaxError); !isSyntax {
				panic(r)
			}
			op, ok = nil, false
		}
		if !ok {
			p.i, p.noted, p.depth = save, saveNoted, saveDepth
		}
	}()
	p.i++
	p.enter()
	op, _ = p.operand()
	if !p.punct(")") {
		return nil, false
	}
	p.i++
	p.leave()
	return op, p.atTail()
}

// atTail reports whether a comparator, BETWEEN or IN follows.
func (p *parser) atTail() bool {
	t := p.tok()
	if t.kind == tPunct {
		switch p.text(t) {
		case "=", "<>", "<", "<=", ">", ">=":
			return true
		}
		return false
	}
	return p.keyword("BETWEEN") || p.keyword("IN")
}

// tail parses what follows the left operand of a comparison, BETWEEN or IN.
func (p *parser) tail(left expr.Operand) expr.Cond {
	t := p.tok()
	if t.kind == tPunct {
		op := expr.CompareOp(p.text(t))
		switch op {
		case expr.EQ, expr.NE, expr.LT, expr.LE, expr.GT, expr.GE:
			p.i++
			right, _ := p.operand()
			return &expr.Compare{Op: op, L: left, R: right}
		}
	}
	switch {
	case p.keyword("BETWEEN"):
		p.i++
		lo, _ := p.operand()
		if !p.keyword("AND") {
			p.syntax()
		}
		p.i++
		hi, _ := p.operand()
		return &expr.Between{X: left, Lo: lo, Hi: hi}
	case p.keyword("IN"):
		p.i++
		return &expr.In{X: left, List: p.args()}
	}
	p.syntax()
	return nil
}

// args parses "(operand, ...)".
func (p *parser) args() []expr.Operand {
	p.expect("(")
	p.enter()
	var list []expr.Operand
	for {
		op, _ := p.operand()
		list = append(list, op)
		if !p.punct(",") {
			break
		}
		p.i++
	}
	p.expect(")")
	p.leave()
	return list
}

// operand parses a path, a value, a function call or a parenthesised
// operand; in the update grammar, the parenthesised operand may be a + or -.
// paren reports that the operand was parenthesised.
func (p *parser) operand() (op expr.Operand, paren bool) {
	t := p.tok()
	switch t.kind {
	case tValue:
		p.i++
		return &expr.Value{Placeholder: p.text(t)}, false
	case tName:
		return p.path(), false
	case tIdent:
		if next := p.peek(1); next.kind == tPunct && p.text(next) == "(" {
			return p.call(), false
		}
		return p.path(), false
	case tPunct:
		if p.text(t) == "(" {
			p.i++
			p.enter()
			// Only the whole value of a SET action may be a parenthesised
			// + or -; anywhere else parentheses hold a single operand.
			var inner bool
			if p.update && p.top {
				op, inner = p.setValue()
			} else {
				op, inner = p.operand()
			}
			p.expect(")")
			p.leave()
			if inner {
				note(&p.parens, "The expression has redundant parentheses;", t.pos)
			}
			return op, true
		}
	}
	p.syntax()
	return nil, false
}

// call parses a function call used as an operand and notes the errors for a
// function that is unknown or not allowed here.
func (p *parser) call() expr.Operand {
	t := p.tok()
	name := p.text(t)
	p.i++
	top := p.top
	p.top = false // function arguments are never the whole SET value
	args := p.args()
	p.top = top
	switch {
	case p.update && updateFuncs[name]:
	case p.update && (conditionFuncs[name] || name == "size"):
		note(&p.function, "The function is not allowed in an update expression; function: "+name, t.pos)
	case !p.update && name == "size":
	case !p.update && conditionFuncs[name]:
		note(&p.misused, "The function is not allowed to be used this way in an expression; function: "+name, t.pos)
	case !p.update && updateFuncs[name]:
		note(&p.function, "The function is not allowed in a condition expression; function: "+name, t.pos)
	default:
		note(&p.function, "Invalid function name; function: "+name, t.pos)
	}
	if p.update && name == "list_append" && !top {
		note(&p.misused, "The function is not allowed to be used this way in an expression; function: list_append", t.pos)
	}
	return &expr.Func{Name: name, Args: args}
}

// path parses a document path: a.#b[2].c.
func (p *parser) path() expr.Path {
	path := make(expr.Path, 0, 2)
	path = append(path, p.pathName())
	for {
		switch {
		case p.punct("."):
			p.i++
			path = append(path, p.pathName())
		case p.punct("["):
			p.i++
			t := p.tok()
			if t.kind != tInt {
				p.syntax()
			}
			n, err := strconv.Atoi(p.text(t))
			if err != nil || n > maxListIndex {
				p.fail("List index is not within the allowable range; index: [" + p.text(t) + "]")
			}
			p.i++
			p.expect("]")
			path = append(path, expr.PathElem{Index: n, IsIndex: true})
		default:
			return path
		}
	}
}

// grammarKeywords cannot be names at all in a condition: they are the
// grammar's own words, so DynamoDB reports a syntax error for them.
var grammarKeywords = [...]string{"AND", "OR", "NOT", "BETWEEN", "IN"}

func (p *parser) pathName() expr.PathElem {
	t := p.tok()
	switch t.kind {
	case tName:
		p.i++
		return expr.PathElem{Name: p.text(t)}
	case tIdent:
		name := p.text(t)
		if !p.update {
			for _, kw := range grammarKeywords {
				if strings.EqualFold(name, kw) {
					p.syntax()
				}
			}
		}
		if IsReserved(name) {
			note(&p.reserved, "Attribute name is a reserved keyword; reserved keyword: "+name, t.pos)
		}
		p.i++
		return expr.PathElem{Name: name}
	}
	p.syntax()
	return expr.PathElem{}
}

// ---- updates --------------------------------------------------------------

var clauses = [...]string{"SET", "REMOVE", "ADD", "DELETE"}

func (p *parser) updateExpr() *expr.UpdateAST {
	u := &expr.UpdateAST{}
	var seen [len(clauses)]bool
	for p.tok().kind != tEOF {
		k := -1
		for i, kw := range clauses {
			if p.keyword(kw) {
				k = i
			}
		}
		if k < 0 {
			p.syntax()
		}
		if seen[k] {
			p.fail(`The "` + clauses[k] + `" section can only be used once in an update expression;`)
		}
		seen[k] = true
		p.i++
		for {
			p.action(k, u)
			if !p.punct(",") {
				break
			}
			p.i++
		}
	}
	return u
}

func (p *parser) action(clause int, u *expr.UpdateAST) {
	path := p.path()
	switch clauses[clause] {
	case "SET":
		p.expect("=")
		p.top = true
		v, _ := p.setValue()
		p.top = false
		u.Set = append(u.Set, expr.SetAction{Path: path, Value: v})
	case "REMOVE":
		u.Remove = append(u.Remove, path)
	default:
		t := p.tok()
		if t.kind != tValue {
			p.syntax()
		}
		p.i++
		pv := expr.PathValue{Path: path, Value: &expr.Value{Placeholder: p.text(t)}}
		if clauses[clause] == "ADD" {
			u.Add = append(u.Add, pv)
		} else {
			u.Delete = append(u.Delete, pv)
		}
	}
}

// setValue parses the right-hand side of a SET action: an operand, or
// operand + operand, or operand - operand. A parenthesised + or - may not be
// an operand of another one. list_append is allowed only as the whole value
// (list_append(if_not_exists(l, :empty), :v) is fine, the other way round
// or list_append(...) + :n is not), which p.top tracks.
func (p *parser) setValue() (expr.Operand, bool) {
	top := p.top
	p.top = top && !p.arithFollows()
	l, paren := p.operand()
	if !p.punct("+") && !p.punct("-") {
		p.top = top
		return l, paren
	}
	if _, ok := l.(*expr.Arith); ok {
		p.syntax()
	}
	op := p.src[p.tok().pos]
	p.i++
	p.top = false
	r, _ := p.operand()
	p.top = top
	if _, ok := r.(*expr.Arith); ok {
		p.i--
		p.syntax()
	}
	return &expr.Arith{Op: op, L: l, R: r}, false
}

// arithFollows reports whether the operand starting at the current token
// is followed by + or -. It skips the operand's tokens without parsing
// them: a parenthesised group, a function call, a path or a value.
func (p *parser) arithFollows() bool {
	j := p.i
	skipGroup := func() { // p.toks[j] is "("
		depth := 0
		for ; j < len(p.toks) && p.toks[j].kind != tEOF; j++ {
			if p.toks[j].kind != tPunct {
				continue
			}
			switch p.text(p.toks[j]) {
			case "(":
				depth++
			case ")":
				if depth--; depth == 0 {
					j++
					return
				}
			}
		}
	}
	isPunct := func(k int, s string) bool {
		return p.toks[k].kind == tPunct && p.text(p.toks[k]) == s
	}
	switch t := p.toks[j]; {
	case isPunct(j, "("):
		skipGroup()
	case t.kind == tIdent && isPunct(j+1, "("):
		j++
		skipGroup()
	case t.kind == tValue:
		j++
	case t.kind == tIdent || t.kind == tName:
		for j++; j < len(p.toks); {
			switch {
			case isPunct(j, "."):
				j += 2
			case isPunct(j, "["):
				j += 3
			default:
				goto done
			}
		}
	done:
	}
	return j < len(p.toks) && (isPunct(j, "+") || isPunct(j, "-"))
}
