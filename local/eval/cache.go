package eval

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/expr/parse"
)

// Parsing an expression is pure — its syntax tree and its syntax errors
// depend on the text alone — and clients send the same few expressions over
// and over, so Compile keeps the parse of recent texts, and with it the
// last resolution of an update's or projection's document paths (see
// docPaths) or of a key condition (see keyPlan). Resolving the values, and
// every check that depends on them, still runs on every request. The
// syntax trees are shared and never modified (the resolver only reads
// them).

// exprKind is which grammar, and which name in messages, a text is parsed
// with.
type exprKind uint8

const (
	kindCondition exprKind = iota
	kindFilter
	kindKeyCondition
	kindUpdate
	kindProjection
)

// parsed is one parse: the tree of its kind, or the error, how many nodes
// resolving the tree makes, and the last resolution of its document paths.
type parsed struct {
	cond     expr.Cond
	update   *expr.UpdateAST
	proj     []expr.Path
	err      error
	nodes    nodeCounts
	docPaths atomic.Pointer[docPaths]
	keyPlan  atomic.Pointer[keyPlan]
}

type parseKey struct {
	kind exprKind
	text string
}

// The cache is bounded in entries and in bytes of text. DynamoDB accepts
// expressions of at most 4 KB; longer texts are parsed without caching
// (they fail anyway).
const (
	maxCachedExprs     = 1024
	maxCachedExprBytes = 1 << 20
	maxCachedExprLen   = parse.MaxExpressionSize
)

// exprCache is safe for concurrent use. A full cache evicts entries at
// random (map iteration order), which keeps the hot ones with high
// probability and costs O(1).
type exprCache struct {
	mu    sync.RWMutex
	m     map[parseKey]*parsed
	bytes int
}

var parseCache = exprCache{m: make(map[parseKey]*parsed)}

// parseExpr returns the parse of text as kind, from the cache if it is
// there.
func parseExpr(kind exprKind, text string) *parsed {
	if len(text) > maxCachedExprLen {
		return parseNow(kind, text)
	}
	return parseCache.get(kind, text)
}

func (c *exprCache) get(kind exprKind, text string) *parsed {
	k := parseKey{kind, text}
	c.mu.RLock()
	p, ok := c.m[k]
	c.mu.RUnlock()
	if ok {
		return p
	}
	// The text may alias memory the caller reuses (a request buffer); the
	// cached key and the tree, whose names point into the text, get a copy.
	k.text = strings.Clone(text)
	p = parseNow(kind, k.text)
	c.mu.Lock()
	defer c.mu.Unlock()
	if q, ok := c.m[k]; ok { // parsed meanwhile by another request
		return q
	}
	for len(c.m) > 0 && (len(c.m) >= maxCachedExprs || c.bytes+len(k.text) > maxCachedExprBytes) {
		for old := range c.m {
			delete(c.m, old)
			c.bytes -= len(old.text)
			break
		}
	}
	c.m[k] = p
	c.bytes += len(k.text)
	return p
}

// tooLong is the error for an UpdateExpression or ProjectionExpression over
// 4 KB: unlike the condition, filter and key condition texts (which parse
// reports with "; expression size: N"), these two stop after the ';' (a
// service error quoted in aws/aws-sdk-java-v2#4597; DynamoDB Local 3.3.1).
func tooLong(text, what string) error {
	if len(text) <= parse.MaxExpressionSize {
		return nil
	}
	return &parse.SyntaxError{Msg: "Invalid " + what + ": Expression size has exceeded the maximum allowed size;", Pos: -1}
}

func parseNow(kind exprKind, text string) *parsed {
	p := &parsed{}
	switch kind {
	case kindCondition:
		p.cond, p.err = parse.Condition(text)
	case kindFilter:
		p.cond, p.err = parse.Filter(text)
	case kindKeyCondition:
		p.cond, p.err = parse.KeyCondition(text)
	case kindUpdate:
		if p.err = tooLong(text, "UpdateExpression"); p.err == nil {
			p.update, p.err = parse.Update(text)
		}
	case kindProjection:
		if p.err = tooLong(text, "ProjectionExpression"); p.err == nil {
			p.proj, p.err = parse.Projection(text)
		}
	}
	if p.err == nil {
		p.nodes.ofCond(p.cond)
		if u := p.update; u != nil {
			// The paths acted on are resolved into docPaths, not the slab.
			p.nodes.updates = 1
			for _, a := range u.Set {
				p.nodes.ofOperand(a.Value)
			}
		}
	}
	return p
}

// nodeCounts are the nodes the resolver makes for a tree: cond and
// operand nodes, the slots of their child slices, the steps of their paths.
// They size the slab of one Compile; they must follow what the resolver
// does (a miscount only costs allocations).
type nodeCounts struct {
	conds, operands, opPtrs, condPtrs, steps int
	updates                                  int // an updateBlock
}

func (n *nodeCounts) add(m nodeCounts) {
	n.conds += m.conds
	n.operands += m.operands
	n.opPtrs += m.opPtrs
	n.condPtrs += m.condPtrs
	n.steps += m.steps
	n.updates += m.updates
}

func (n *nodeCounts) ofCond(c expr.Cond) {
	for node := range expr.Nodes(c) {
		n.of(node)
	}
}

func (n *nodeCounts) ofOperand(o expr.Operand) {
	for node := range expr.OperandNodes(o) {
		n.of(node)
	}
}

// of counts one node and the child slots it holds.
func (n *nodeCounts) of(node any) {
	switch c := node.(type) {
	case *expr.And:
		n.conds++
		n.condPtrs += len(c.Conds)
	case *expr.Or:
		n.conds++
		n.condPtrs += len(c.Conds)
	case *expr.Not:
		n.conds++
		n.condPtrs++
	case *expr.Compare:
		n.conds++
		n.opPtrs += 2
	case *expr.Between:
		n.conds++
		n.opPtrs += 3
	case *expr.In:
		n.conds++
		n.opPtrs += 1 + len(c.List)
	case *expr.CondFunc:
		n.conds++
		n.opPtrs += len(c.Args)
	case expr.Path:
		n.operands++
		n.steps += len(c)
	case *expr.Value:
		n.operands++
	case *expr.Func:
		n.operands++
		n.opPtrs += len(c.Args)
	case *expr.Arith:
		n.operands++
		n.opPtrs += 2
	}
}
