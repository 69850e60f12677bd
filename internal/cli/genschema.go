package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/parser"
	"go/token"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/codec/ddbjson"
)

func init() {
	Register(&Command{
		Name:     "generate-schema",
		Summary:  "write Go schema source that reads an existing table's items",
		TableArg: true,
		Example:  "dynamo generate-schema shop --package store --output store/shop_gen.go",
		Usage:    "NAME [--type Name] [--package p] [--output path] [--overwrite] [--scan-items N] [flags]",
		Help: `Reads the table's key schema and indexes and its items (the whole table by
default; --scan-items N reads the first N) and writes gofmt'd Go source: a
struct with dynamo tags per kind of item and its schema declaration (var
<Type>Schema), which loads every item it was generated from and writes it
back unchanged. On a terminal a progress line counts the items read.

Items written by this library ("entity#value" partition keys) give one type
per entity and key layout, named after the entity, with EntityName and the
key fields the key parts were generated from (found by value among the
item's attributes); items carrying the entity attribute "_entity" are
grouped by its value, and a child stored in another entity's partition gets
EntityFrom. Other tables give one type with RawKeys. Field types are inferred
from the values read (integers as int64 when they fit, other numbers as
codec.Number, fixed-width UTC times as time.Time, sets, maps, lists, vectors
of vector indexes as []float32); an attribute missing from some items is a
pointer (nil: absent). Every field type is checked against every item read:
an attribute no type writes back exactly (values of several types, NULLs)
is not declared but kept, with the other undeclared attributes, in a
catch-all field (Rest, dynamo:",unknown"), which is also added whenever
--scan-items stopped before the end of the table. What could not be decided
is said in a comment of the generated code and on stderr.

The output defaults to <type>.go (<table>.go for several types) in the
current directory, in the package of the Go files already there (or named
after the directory); "-" writes to stdout. An existing file is an error
without --overwrite.`,
		Flags: func() *flag.FlagSet { fs, _ := genSchemaFlags(); return fs },
		Run:   runGenSchema,
	})
}

type genSchemaOpts struct {
	aws       awsFlags
	typeName  string
	pkg       string
	output    string
	overwrite bool
	scanItems int // -1: the whole table
}

func genSchemaFlags() (*flag.FlagSet, *genSchemaOpts) {
	o := &genSchemaOpts{}
	fs := newFlagSet("generate-schema")
	o.aws.register(fs)
	fs.StringVar(&o.typeName, "type", "", "Go type name (default: from the table name, or each entity's name)")
	fs.StringVar(&o.pkg, "package", "", "package clause (default: the output directory's package, or its name)")
	fs.StringVar(&o.output, "output", "", "file to write, or - for stdout (default: <type>.go)")
	fs.BoolVar(&o.overwrite, "overwrite", false, "replace an existing output file")
	fs.IntVar(&o.scanItems, "scan-items", -1, "how many items to read (-1: the whole table; 0: the key schema only)")
	return fs, o
}

func runGenSchema(ctx context.Context, env *Env, args []string) error {
	fs, o := genSchemaFlags()
	table, err := parseTableArg(fs, args)
	if err != nil {
		return err
	}
	if o.typeName != "" && (!token.IsIdentifier(o.typeName) || !unicode.IsUpper([]rune(o.typeName)[0])) {
		return usagef("--type %q is not an exported Go identifier", o.typeName)
	}
	if o.pkg != "" && (!token.IsIdentifier(o.pkg) || o.pkg == "_") {
		return usagef("--package %q is not a Go package name", o.pkg)
	}
	if o.scanItems < -1 {
		return usagef("--scan-items must be -1 (the whole table), 0 or more")
	}
	// An existing file is refused before the table is read; the name may
	// depend on the items when --type and --output are both unset.
	if o.output != "" && o.output != "-" && !o.overwrite {
		if _, err := os.Stat(o.output); err == nil {
			return fmt.Errorf("%s exists (use --overwrite to replace it)", o.output)
		}
	}
	repo, err := o.aws.open(ctx)
	if err != nil {
		return err
	}
	desc, err := repo.DescribeTable(ctx, table)
	if err != nil {
		return err
	}
	p := &progress{w: env.Stderr, on: env.terminal()}
	items, complete, err := sampleItems(ctx, repo, table, o.scanItems, func(n int) {
		p.update("generate-schema: read %d items of %s", n, table)
	})
	p.done()
	if err != nil {
		return err
	}
	path := o.output
	pkg := o.pkg
	if pkg == "" {
		dir := "."
		if path != "" && path != "-" {
			dir = filepath.Dir(path)
		}
		pkg = packageOf(dir)
	}
	src, typs, err := generate(genConfig{Table: table, TypeName: o.typeName, Package: pkg, Partial: !complete}, desc, items)
	if err != nil {
		return err
	}
	for _, t := range typs {
		for _, n := range t.Notes {
			fmt.Fprintf(env.Stderr, "dynamo generate-schema: note: %s: %s\n", t.Name, n)
		}
	}
	if path == "" {
		base := typs[0].Name
		if len(typs) > 1 { // several entities: the file is named after the table
			base = goName(table)
		}
		if base == "" {
			base = "schema"
		}
		path = snakeName(base) + ".go"
	}
	var names []string
	for _, t := range typs {
		names = append(names, t.Name)
	}
	if path == "-" {
		_, err := env.Stdout.Write(src)
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if !o.overwrite {
		flags |= os.O_EXCL
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if errors.Is(err, iofs.ErrExist) {
		return fmt.Errorf("%s exists (use --overwrite to replace it)", path)
	}
	if err != nil {
		return err
	}
	if _, err := f.Write(src); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "wrote %s: %s from %s of %s\n", path, strings.Join(names, ", "), sampledItems(len(items)), table)
	return nil
}

// sampleItems scans up to n items (n < 0: all of them), calling seen with
// the count after each page. complete reports whether it read the whole
// table.
//
// The scan is a raw request (repo.Request): the typed Scan of a Table needs a
// schema, which is what this command is writing, and loads items into a T,
// while the inference in gen.go needs the attribute values as stored (a set
// is not a list, a number is not a string). The response's items are
// DynamoDB JSON, decoded by ddbjson into the SDK's attribute values.
func sampleItems(ctx context.Context, repo *dynamo.Repo, table string, n int, seen func(int)) (items []item, complete bool, err error) {
	var start any
	for n < 0 || len(items) < n {
		in := map[string]any{"TableName": table}
		if n >= 0 {
			in["Limit"] = min(n-len(items), 1000)
		}
		if start != nil {
			in["ExclusiveStartKey"] = start
		}
		out, err := repo.Request(ctx, "Scan", in)
		if err != nil {
			return nil, false, err
		}
		page, err := scanItems(out)
		if err != nil {
			return nil, false, fmt.Errorf("Scan %q: %w", table, err)
		}
		items = append(items, page...)
		seen(len(items))
		start = out["LastEvaluatedKey"]
		if m, _ := start.(map[string]any); len(m) == 0 {
			return items, true, nil
		}
	}
	return items[:n], false, nil
}

// scanItems decodes the Items of a raw Scan response.
func scanItems(out map[string]any) ([]item, error) {
	raw, ok := out["Items"]
	if !ok {
		return nil, nil
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, fmt.Errorf("the response's Items is %T, not a list", raw)
	}
	items := make([]item, 0, len(list))
	for i, v := range list {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
		it, err := ddbjson.UnmarshalItem(b)
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
		items = append(items, it)
	}
	return items, nil
}

// packageOf is the package of the Go files in dir, else dir's name made a
// package name, else "schema".
func packageOf(dir string) string {
	matches, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, m := range matches {
		if strings.HasSuffix(m, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), m, nil, parser.PackageClauseOnly)
		if err == nil {
			return f.Name.Name
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "schema"
	}
	var b strings.Builder
	for _, r := range strings.ToLower(filepath.Base(abs)) {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
		}
	}
	name := b.String()
	if !token.IsIdentifier(name) || token.Lookup(name).IsKeyword() {
		return "schema"
	}
	return name
}

// snakeName is a type name as a file name: OrderItem → order_item.
func snakeName(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		if unicode.IsUpper(r) {
			if i > 0 && (unicode.IsLower(rs[i-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]))) {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
