package schema

import (
	"reflect"
	"strings"
)

// underscore converts a Go type name to snake_case exactly as Elixir's
// Macro.underscore converts a module name, so that entity names (and thus
// stored partition keys) match what Dynamo for Elixir writes for the same
// name: UserProfile → user_profile, HTTPLog → http_log, UserID → user_id,
// SHA256Hash → sha256_hash, Version2 → version2.
//
// The acronym rule: a run of capitals is one word; the word break goes before
// the last capital of the run when a lower-case letter follows it (HTTPLog →
// http_log), and before the first capital of a run that follows a lower-case
// letter or a digit (UserID → user_id, Route53Zone → route53_zone). A capital
// followed by a digit does not start a new word after another capital
// (SHA256 → sha256). Only ASCII letters are changed.
func underscore(s string) string {
	if s == "" {
		return ""
	}
	var b strings.Builder
	b.Grow(len(s) + 4)
	b.WriteByte(lower(s[0]))
	prev := s[0]
	for i := 1; i < len(s); {
		h := s[i]
		if isUpper(h) && i+1 < len(s) {
			t := s[i+1]
			if !isUpper(t) && !isDigit(t) && t != '.' && t != '_' {
				b.WriteByte('_')
				b.WriteByte(lower(h))
				b.WriteByte(t)
				prev = t
				i += 2
				continue
			}
		}
		if isUpper(h) && !isUpper(prev) && prev != '_' {
			b.WriteByte('_')
			b.WriteByte(lower(h))
			prev = h
			i++
			continue
		}
		if h == '.' {
			// Module separators become path separators in Elixir; a Go type
			// name has none, but keep the rule for names passed through.
			b.WriteByte('/')
			rest := underscore(s[i+1:])
			b.WriteString(rest)
			return b.String()
		}
		b.WriteByte(lower(h))
		prev = h
		i++
	}
	return b.String()
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func lower(c byte) byte {
	if isUpper(c) {
		return c + 'a' - 'A'
	}
	return c
}

// typeName is the name a schema's errors use for its Go type: the bare type
// name, without package path or type arguments ("Box[int]" → "Box").
func typeName(t reflect.Type) string {
	n := t.Name()
	if i := strings.IndexByte(n, '['); i >= 0 {
		n = n[:i]
	}
	if n == "" {
		return t.String()
	}
	return n
}
