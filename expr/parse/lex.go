package parse

type tokKind uint8

const (
	tEOF   tokKind = iota
	tIdent         // a bare word: attribute name, keyword or function name
	tName          // #placeholder
	tValue         // :placeholder
	tInt           // list index digits
	tPunct         // ( ) [ ] , . = <> < <= > >= + -
	tBad           // a character no token starts with
)

// token is a span of the source; its text is src[pos:end].
type token struct {
	kind     tokKind
	pos, end int32
}

func isLetter(c byte) bool { return 'A' <= c&^0x20 && c&^0x20 <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isWord(c byte) bool   { return isLetter(c) || isDigit(c) || c == '_' }
func isSpace(c byte) bool  { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// lex splits src into tokens, ending with a tEOF token at len(src). It never
// fails: a character that starts no token becomes a one-byte tBad token, so
// the parser reports it with DynamoDB's "Syntax error; token: ..." message
// and the usual context.
func lex(src string, toks []token) []token {
	i := 0
	for i < len(src) {
		c := src[i]
		if isSpace(c) {
			i++
			continue
		}
		start := i
		kind := tBad
		switch {
		case isLetter(c):
			kind = tIdent
			for i++; i < len(src) && isWord(src[i]); i++ {
			}
		case isDigit(c):
			kind = tInt
			for i++; i < len(src) && isDigit(src[i]); i++ {
			}
		case c == '#' || c == ':':
			j := i + 1
			for j < len(src) && isWord(src[j]) {
				j++
			}
			if j > i+1 {
				kind = tName
				if c == ':' {
					kind = tValue
				}
			} else {
				j = i + 1 // a lone '#' or ':' is a bad token
			}
			i = j
		case c == '<':
			kind = tPunct
			i++
			if i < len(src) && (src[i] == '=' || src[i] == '>') {
				i++
			}
		case c == '>':
			kind = tPunct
			i++
			if i < len(src) && src[i] == '=' {
				i++
			}
		case c == '(' || c == ')' || c == '[' || c == ']' || c == ',' || c == '.' ||
			c == '=' || c == '+' || c == '-':
			kind = tPunct
			i++
		default:
			// One whole UTF-8 sequence, so the message quotes a character,
			// not half of one.
			i++
			for i < len(src) && src[i]&0xC0 == 0x80 {
				i++
			}
		}
		toks = append(toks, token{kind: kind, pos: int32(start), end: int32(i)})
	}
	return append(toks, token{kind: tEOF, pos: int32(len(src)), end: int32(len(src))})
}
