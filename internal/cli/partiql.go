package cli

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"iter"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/codec"
	"github.com/dynamogo/dynamo/codec/ddbjson"
)

func init() {
	Register(&Command{
		Name:    "partiql",
		Summary: "run one PartiQL statement and print its rows",
		Example: "dynamo partiql 'SELECT * FROM \"orders\" WHERE pk = ?' --param '\"order#u1\"' --endpoint http://127.0.0.1:8000",
		Usage:   "STATEMENT [--param JSON ...] [--output text|json] [--limit N] [--max-items N] [--consistent] [flags]",
		Help: `Runs one PartiQL statement (ExecuteStatement) and prints its rows,
following pages: a SELECT's items, or the item a write returns with
RETURNING. Each --param binds the next ? of the statement: plain JSON
('"u1"', '42', 'true', 'null', '["a"]', '{"k": 1}'; numbers stay exact)
or one DynamoDB JSON value ('{"SS": ["a", "b"]}', '{"B": "AQI="}').

Text output is an aligned table, one column per attribute (sorted by
name), strings unquoted at the top level and values inside lists, maps
and sets written as PartiQL literals; the row count goes to stderr. json
output is an array of the rows in DynamoDB JSON. A write without rows
prints "ok" to stderr. A syntax error points at
its line and column.`,
		Flags: func() *flag.FlagSet { fs, _ := partiqlFlags(); return fs },
		Run:   runPartiQL,
	})
}

type partiqlOpts struct {
	aws        awsFlags
	output     outputFlag
	params     paramFlag
	limit      int
	maxItems   int
	consistent bool
}

func partiqlFlags() (*flag.FlagSet, *partiqlOpts) {
	o := &partiqlOpts{}
	fs := newFlagSet("partiql")
	o.aws.register(fs)
	o.output.register(fs)
	fs.Var(&o.params, "param", "value of the next ? placeholder, as JSON (repeatable)")
	fs.IntVar(&o.limit, "limit", 0, "items evaluated per page (DynamoDB's Limit; 0: no limit)")
	fs.IntVar(&o.maxItems, "max-items", 0, "stop after this many rows (0: all)")
	fs.BoolVar(&o.consistent, "consistent", false, "strongly consistent read")
	return fs, o
}

// paramFlag collects --param values, decoded as they are given.
type paramFlag []any

func (p *paramFlag) String() string { return "" }

func (p *paramFlag) Set(s string) error {
	v, err := parseParam(s)
	if err != nil {
		return err
	}
	*p = append(*p, v)
	return nil
}

// parseParam reads one parameter: a DynamoDB JSON value (an object whose
// one key is a type descriptor) or plain JSON, numbers kept exact.
func parseParam(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("more than one JSON value")
	}
	if m, ok := v.(map[string]any); ok && len(m) == 1 {
		for k := range m {
			switch k {
			case "S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS":
				av, err := ddbjson.Unmarshal([]byte(s))
				if err != nil {
					return nil, err
				}
				return codec.Raw{Value: av}, nil
			}
		}
	}
	return exactNumbers(v), nil
}

// exactNumbers turns the json.Numbers of a decoded value into codec.Numbers,
// which the codec writes as N (a json.Number is a string type).
func exactNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		return codec.Number(x)
	case []any:
		for i := range x {
			x[i] = exactNumbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = exactNumbers(x[k])
		}
	}
	return v
}

func runPartiQL(ctx context.Context, env *Env, args []string) error {
	fs, o := partiqlFlags()
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want one STATEMENT argument, got %d", len(pos))
	}
	if o.limit < 0 || o.maxItems < 0 {
		return usagef("--limit and --max-items must not be negative")
	}
	var opts []dynamo.StatementOption
	if o.limit > 0 {
		opts = append(opts, dynamo.Limit(o.limit))
	}
	if o.maxItems > 0 {
		opts = append(opts, dynamo.MaxItems(o.maxItems))
	}
	if o.consistent {
		opts = append(opts, dynamo.Consistent())
	}
	repo, err := o.aws.open(ctx)
	if err != nil {
		return err
	}
	rows := repo.ExecuteStream(ctx, dynamo.PartiQL(pos[0], o.params...), opts...)
	if o.output == "json" {
		if err := writeRowsJSON(env.Stdout, rows); err != nil {
			return statementFailure(pos[0], err)
		}
		return nil
	}
	var all []map[string]types.AttributeValue
	for row, err := range rows {
		if err != nil {
			return statementFailure(pos[0], err)
		}
		all = append(all, row)
	}
	writeTable(env.Stdout, all)
	if len(all) == 0 && !isSelectStatement(pos[0]) {
		fmt.Fprintln(env.Stderr, "ok")
		return nil
	}
	fmt.Fprintln(env.Stderr, rowCount(len(all)))
	return nil
}

// statementFailure is a failed statement's error, with the statement's
// line and a caret under the position a syntax error names.
func statementFailure(statement string, err error) error {
	if at := caret(statement, errorText(err)); at != "" {
		return &detailedError{err, at}
	}
	return err
}

// positionRE finds the position in DynamoDB's message for a statement that
// is not well formed: "... at line 2, column 7".
var positionRE = regexp.MustCompile(`at line (\d+), column (\d+)`)

// caret returns the statement's line that msg points at, indented, with a
// caret under the column; "" when msg names no position in it.
func caret(statement, msg string) string {
	m := positionRE.FindStringSubmatch(msg)
	if m == nil {
		return ""
	}
	line, _ := strconv.Atoi(m[1])
	col, _ := strconv.Atoi(m[2])
	lines := strings.Split(statement, "\n")
	if line < 1 || line > len(lines) || col < 1 {
		return ""
	}
	text := []rune(strings.Map(func(r rune) rune {
		if r != '\t' && (r < 0x20 || r == 0x7f) {
			return '?' // one column, like the character it stands for
		}
		return r
	}, lines[line-1]))
	if col > len(text)+1 {
		return ""
	}
	// The caret line repeats the tabs before the column, so it lines up.
	pad := make([]rune, col-1)
	for i := range pad {
		pad[i] = ' '
		if text[i] == '\t' {
			pad[i] = '\t'
		}
	}
	return "  " + string(text) + "\n  " + string(pad) + "^\n"
}

func rowCount(n int) string {
	if n == 1 {
		return "1 row"
	}
	return fmt.Sprintf("%d rows", n)
}

// writeRowsJSON streams the rows as a JSON array of DynamoDB JSON items.
func writeRowsJSON(w io.Writer, rows iter.Seq2[map[string]types.AttributeValue, error]) error {
	var buf bytes.Buffer
	buf.WriteString("[")
	n := 0
	for row, err := range rows {
		if err != nil {
			return err
		}
		if n > 0 {
			buf.WriteString(",")
		}
		n++
		buf.WriteString("\n  ")
		b, err := ddbjson.AppendItem(nil, row)
		if err != nil {
			return err
		}
		buf.Write(b)
	}
	if n > 0 {
		buf.WriteString("\n")
	}
	buf.WriteString("]\n")
	_, err := w.Write(buf.Bytes())
	return err
}

// columns are the attribute names of rows, sorted.
func columns(rows []map[string]types.AttributeValue) []string {
	seen := map[string]bool{}
	for _, r := range rows {
		for k := range r {
			seen[k] = true
		}
	}
	cols := make([]string, 0, len(seen))
	for k := range seen {
		cols = append(cols, k)
	}
	sort.Strings(cols)
	return cols
}

// writeTable prints rows as an aligned table; nothing when there are none.
func writeTable(w io.Writer, rows []map[string]types.AttributeValue) {
	if len(rows) == 0 {
		return
	}
	cols := columns(rows)
	cells := make([][]string, len(rows)+1)
	cells[0] = cols
	width := make([]int, len(cols))
	for i, c := range cols {
		width[i] = utf8.RuneCountInString(c)
	}
	for r, row := range rows {
		line := make([]string, len(cols))
		for i, c := range cols {
			if av, ok := row[c]; ok {
				line[i] = cell(av)
			}
			width[i] = max(width[i], utf8.RuneCountInString(line[i]))
		}
		cells[r+1] = line
	}
	var b strings.Builder
	row := func(parts []string, pad string) {
		var l strings.Builder
		for i, s := range parts {
			l.WriteString(s)
			l.WriteString(strings.Repeat(pad, width[i]-utf8.RuneCountInString(s)))
			l.WriteString("  ")
		}
		b.WriteString(strings.TrimRight(l.String(), " "))
		b.WriteString("\n")
	}
	rule := make([]string, len(cols))
	for r, line := range cells {
		row(line, " ")
		if r == 0 {
			row(rule, "-")
		}
	}
	io.WriteString(w, b.String())
}

// cell renders a value for the table: a string as it is (control
// characters escaped, so a value cannot break the table), anything else as
// a PartiQL literal.
func cell(av types.AttributeValue) string {
	if s, ok := av.(*types.AttributeValueMemberS); ok {
		return escapeControls(s.Value)
	}
	return escapeControls(literal(av))
}

func escapeControls(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			fmt.Fprintf(&b, "\\x%02x", r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// literal writes av as PartiQL would: 'strings', numbers, TRUE, NULL,
// [lists], {'maps': ...}, <<sets>>; binary as base64 text.
func literal(av types.AttributeValue) string {
	quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	join := func(open, close string, parts []string) string { return open + strings.Join(parts, ", ") + close }
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return quote(v.Value)
	case *types.AttributeValueMemberN:
		return v.Value
	case *types.AttributeValueMemberBOOL:
		return strings.ToUpper(fmt.Sprint(v.Value))
	case *types.AttributeValueMemberNULL:
		return "NULL"
	case *types.AttributeValueMemberB:
		return base64.StdEncoding.EncodeToString(v.Value)
	case *types.AttributeValueMemberSS:
		parts := make([]string, len(v.Value))
		for i, s := range v.Value {
			parts[i] = quote(s)
		}
		slices.Sort(parts)
		return join("<<", ">>", parts)
	case *types.AttributeValueMemberNS:
		parts := slices.Clone(v.Value)
		slices.Sort(parts)
		return join("<<", ">>", parts)
	case *types.AttributeValueMemberBS:
		parts := make([]string, len(v.Value))
		for i, b := range v.Value {
			parts[i] = base64.StdEncoding.EncodeToString(b)
		}
		slices.Sort(parts)
		return join("<<", ">>", parts)
	case *types.AttributeValueMemberL:
		parts := make([]string, len(v.Value))
		for i, e := range v.Value {
			parts[i] = literal(e)
		}
		return join("[", "]", parts)
	case *types.AttributeValueMemberM:
		keys := make([]string, 0, len(v.Value))
		for k := range v.Value {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = quote(k) + ": " + literal(v.Value[k])
		}
		return join("{", "}", parts)
	}
	return "?"
}
