package partiql

import (
	"strings"
	"sync"
	"unicode/utf8"
)

// lexCache keeps the tokens of recent statements by text: an application
// sends the same few statements with different parameters, and the tokens
// depend on the text alone. The parser only reads them. The cache is
// emptied when it reaches maxLexCache texts, which bounds its memory.
var lexCache struct {
	sync.RWMutex
	toks map[string][]token
}

const maxLexCache = 512

// lexCached is lex through lexCache; statements that fail to lex are not
// kept.
func lexCached(src string) ([]token, error) {
	lexCache.RLock()
	toks, ok := lexCache.toks[src]
	lexCache.RUnlock()
	if ok {
		return toks, nil
	}
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	lexCache.Lock()
	if len(lexCache.toks) >= maxLexCache || lexCache.toks == nil {
		lexCache.toks = make(map[string][]token, maxLexCache)
	}
	lexCache.toks[src] = toks
	lexCache.Unlock()
	return toks, nil
}

type tokKind uint8

const (
	tEOF    tokKind = iota
	tIdent          // a bare word: keyword, function or attribute name
	tQuoted         // "double-quoted identifier", text unescaped
	tString         // 'string literal', text unescaped
	tNumber         // 12, 1.5, 2e10
	tParam          // ?
	tPunct          // ( ) [ ] { } , . : * = <> != < <= > >= << >> + -
)

// token is a span of the source; text is the unescaped content of quoted
// tokens and the source text of the others.
type token struct {
	kind     tokKind
	pos, end int
	text     string
}

func isLetter(c byte) bool { return 'A' <= c&^0x20 && c&^0x20 <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isWord(c byte) bool   { return isLetter(c) || isDigit(c) || c == '_' }
func isSpace(c byte) bool  { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// lex splits src into tokens, ending with a tEOF token at len(src). A
// character that starts no token, or a quote left open, is a SyntaxError.
func lex(src string) ([]token, error) {
	var toks []token
	i := 0
	for i < len(src) {
		c := src[i]
		if isSpace(c) {
			i++
			continue
		}
		start := i
		kind := tPunct
		text := ""
		switch {
		case isLetter(c) || c == '_':
			kind = tIdent
			for i++; i < len(src) && isWord(src[i]); i++ {
			}
		case isDigit(c):
			kind = tNumber
			i = lexNumber(src, i)
		case c == '\'' || c == '"':
			var ok bool
			text, i, ok = lexQuoted(src, i)
			if !ok {
				what := "string literal"
				if c == '"' {
					what = "quoted identifier"
				}
				return nil, syntaxAt(src, start, "unterminated "+what)
			}
			kind = tString
			if c == '"' {
				kind = tQuoted
			}
		case c == '?':
			kind = tParam
			i++
		case c == '<':
			i++
			if i < len(src) && (src[i] == '=' || src[i] == '>' || src[i] == '<') {
				i++
			}
		case c == '>':
			i++
			if i < len(src) && (src[i] == '=' || src[i] == '>') {
				i++
			}
		case c == '!' && i+1 < len(src) && src[i+1] == '=':
			i += 2
		case strings.IndexByte("()[]{},.:*=+-", c) >= 0:
			i++
		default:
			r, _ := utf8.DecodeRuneInString(src[i:])
			return nil, syntaxAt(src, start, "invalid character "+quote(string(r)))
		}
		if kind != tString && kind != tQuoted {
			text = src[start:i]
		}
		toks = append(toks, token{kind: kind, pos: start, end: i, text: text})
	}
	return append(toks, token{kind: tEOF, pos: len(src), end: len(src)}), nil
}

// lexNumber returns the end of the number starting at i: digits, an
// optional fraction and an optional exponent.
func lexNumber(src string, i int) int {
	digits := func(i int) int {
		for i < len(src) && isDigit(src[i]) {
			i++
		}
		return i
	}
	i = digits(i)
	if i+1 < len(src) && src[i] == '.' && isDigit(src[i+1]) {
		i = digits(i + 1)
	}
	if i < len(src) && src[i]|0x20 == 'e' {
		j := i + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
		}
		if j < len(src) && isDigit(src[j]) {
			i = digits(j)
		}
	}
	return i
}

// lexQuoted reads the quoted token starting at i (a doubled quote stands
// for one) and returns its content and end.
func lexQuoted(src string, i int) (text string, end int, ok bool) {
	q := src[i]
	var b strings.Builder
	for j := i + 1; j < len(src); j++ {
		if src[j] != q {
			b.WriteByte(src[j])
			continue
		}
		if j+1 < len(src) && src[j+1] == q {
			b.WriteByte(q)
			j++
			continue
		}
		return b.String(), j + 1, true
	}
	return "", len(src), false
}
