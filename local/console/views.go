package console

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"html/template"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The page names, each templates/<name>.html with templates/layout.html.
var pageNames = []string{"tables", "login", "new-table", "items", "query", "item", "requests", "partiql", "stream", "search"}

func parsePages() map[string]*template.Template {
	funcs := template.FuncMap{
		"show":      show,
		"pretty":    pretty,
		"tablePath": tablePath,
		"join":      strings.Join,
		"ms": func(d time.Duration) string {
			return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 2, 64)
		},
		"clock": func(t time.Time) string { return t.Format("15:04:05.000") },
		"sortOpList": func() []string {
			return []string{"=", "<", "<=", ">", ">=", "begins_with", "between"}
		},
	}
	pages := map[string]*template.Template{}
	for _, n := range pageNames {
		pages[n] = template.Must(template.New(n).Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/"+n+".html"))
	}
	return pages
}

// An item as the API answers it: DynamoDB JSON, each value kept as sent
// (numbers keep their digits).
type item map[string]json.RawMessage

// shown is one attribute value as a cell shows it: its type and its text.
type shown struct {
	Type, Text string
}

// show renders a DynamoDB JSON value exactly: strings and numbers as they
// are, binary as its base64, sets in braces (a set stays a set), lists and
// maps as their DynamoDB JSON.
func show(raw json.RawMessage) shown {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || len(m) != 1 {
		return shown{"?", string(raw)}
	}
	for t, v := range m {
		switch t {
		case "S", "N", "B":
			var s string
			json.Unmarshal(v, &s)
			return shown{t, s}
		case "SS", "NS", "BS":
			var list []string
			json.Unmarshal(v, &list)
			for i, e := range list {
				if t == "SS" {
					list[i] = strconv.Quote(e)
				}
			}
			return shown{t, "{" + strings.Join(list, ", ") + "}"}
		default: // BOOL, NULL, L, M
			var b bytes.Buffer
			if json.Compact(&b, v) != nil {
				return shown{t, string(v)}
			}
			return shown{t, b.String()}
		}
	}
	return shown{}
}

// pretty indents DynamoDB JSON (bytes as they are: digits kept).
func pretty(v any) string {
	var raw []byte
	switch x := v.(type) {
	case json.RawMessage:
		raw = x
	case []byte:
		raw = x
	default:
		raw, _ = json.Marshal(v)
	}
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}

// entityAttribute is the attribute in which package schema writes an
// item's entity name; the console shows it as the item's entity.
const entityAttribute = "_entity"

// grid is items as a table: one column per attribute.
type grid struct {
	ItemPath string   // the item page of the table, for the rows' links ("" for none)
	Columns  []string // attribute names: key attributes first, then the entity, then the rest sorted
	Entity   bool     // the entity marker is among the columns (shown as "entity")
	Rows     []row
}

type row struct {
	Key   string  // the item's key token (keyToken), for its link; "" when the key is not whole
	Cells []shown // per column; the zero shown for a missing attribute
	JSON  string  // the whole item, indented DynamoDB JSON
}

func makeGrid(items []item, table string, keyAttrs []string) grid {
	seen := map[string]bool{}
	var g grid
	if table != "" {
		g.ItemPath = tablePath(table) + "/item"
	}
	for _, k := range keyAttrs {
		seen[k] = true
		g.Columns = append(g.Columns, k)
	}
	var rest []string
	for _, it := range items {
		for n := range it {
			if !seen[n] {
				seen[n] = true
				if n == entityAttribute {
					g.Entity = true
					continue
				}
				rest = append(rest, n)
			}
		}
	}
	sort.Strings(rest)
	if g.Entity {
		g.Columns = append(g.Columns, entityAttribute)
	}
	g.Columns = append(g.Columns, rest...)
	for _, it := range items {
		r := row{Key: keyToken(it, keyAttrs), JSON: pretty(marshalItem(it))}
		for _, col := range g.Columns {
			if v, ok := it[col]; ok {
				r.Cells = append(r.Cells, show(v))
			} else {
				r.Cells = append(r.Cells, shown{})
			}
		}
		g.Rows = append(g.Rows, r)
	}
	return g
}

// marshalItem encodes an item with its attributes sorted by name.
func marshalItem(it item) []byte {
	b, _ := json.Marshal(map[string]json.RawMessage(it))
	return b
}

// keyToken is the key of it (its attributes in keyAttrs) as a URL-safe
// token: base64 of its DynamoDB JSON. "" when an attribute is missing.
func keyToken(it item, keyAttrs []string) string {
	key := item{}
	for _, k := range keyAttrs {
		v, ok := it[k]
		if !ok {
			return ""
		}
		key[k] = v
	}
	return base64.RawURLEncoding.EncodeToString(marshalItem(key))
}

// parseToken reads a keyToken (or a paging token, the same encoding); nil
// for "".
func parseToken(tok string) (item, error) {
	if tok == "" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil {
		return nil, errBadToken
	}
	var it item
	if json.Unmarshal(b, &it) != nil || len(it) == 0 {
		return nil, errBadToken
	}
	return it, nil
}

type consoleError string

func (e consoleError) Error() string { return string(e) }

const errBadToken = consoleError("the key or page token in the address is damaged; go back to the table and follow a link again")
