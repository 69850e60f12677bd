package cli

import (
	"context"
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

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func init() {
	Register(&Command{
		Name:    "generate-schema",
		Summary: "write Go schema source that reads an existing table's items",
		Usage:   "NAME [--type Name] [--package p] [--output path] [--overwrite] [--scan-items 25] [flags]",
		Help: `Reads the table's key schema and indexes and a sample of its items (a Scan of
--scan-items items) and writes gofmt'd Go source: a struct with dynamo tags
per kind of item and its schema declaration (var <Type>Schema), able to load
the items it was generated from and write them back unchanged.

Items written by this library ("entity#value" partition keys) give one type
per entity and key layout, named after the entity, with EntityName and the
key fields the key parts were generated from (found by value among the
item's attributes). Other tables give one type with RawKeys. Field types are
inferred from the sampled values (integers as int64 when they fit, other
numbers as dynamo.Number, fixed-width UTC times as time.Time, sets, maps,
lists, vectors of vector indexes as []float32); an attribute missing from
some items gets omitempty. Review the result: the sample may miss attributes.

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
	scanItems int
}

func genSchemaFlags() (*flag.FlagSet, *genSchemaOpts) {
	o := &genSchemaOpts{}
	fs := newFlagSet("generate-schema")
	o.aws.register(fs)
	fs.StringVar(&o.typeName, "type", "", "Go type name (default: from the table name, or each entity's name)")
	fs.StringVar(&o.pkg, "package", "", "package clause (default: the output directory's package, or its name)")
	fs.StringVar(&o.output, "output", "", "file to write, or - for stdout (default: <type>.go)")
	fs.BoolVar(&o.overwrite, "overwrite", false, "replace an existing output file")
	fs.IntVar(&o.scanItems, "scan-items", 25, "how many items to sample (0 for the key schema only)")
	return fs, o
}

func runGenSchema(ctx context.Context, env *Env, args []string) error {
	fs, o := genSchemaFlags()
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) == 0:
		return usagef("missing table NAME")
	case len(pos) > 1:
		return usagef("unexpected argument %q", pos[1])
	}
	table := pos[0]
	if o.typeName != "" && (!token.IsIdentifier(o.typeName) || !unicode.IsUpper([]rune(o.typeName)[0])) {
		return usagef("--type %q is not an exported Go identifier", o.typeName)
	}
	if o.pkg != "" && (!token.IsIdentifier(o.pkg) || o.pkg == "_") {
		return usagef("--package %q is not a Go package name", o.pkg)
	}
	if o.scanItems < 0 || o.scanItems > 100000 {
		return usagef("--scan-items must be between 0 and 100000")
	}
	// An existing file is refused before the table is read; the name may
	// depend on the items when --type and --output are both unset.
	if o.output != "" && o.output != "-" && !o.overwrite {
		if _, err := os.Stat(o.output); err == nil {
			return fmt.Errorf("%s exists (use --overwrite to replace it)", o.output)
		}
	}
	_, client, err := o.aws.open(ctx)
	if err != nil {
		return err
	}
	out, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: &table})
	if err != nil {
		return err
	}
	items, err := sampleItems(ctx, client, table, o.scanItems)
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
	src, typs, err := generate(genConfig{Table: table, TypeName: o.typeName, Package: pkg}, out.Table, items)
	if err != nil {
		return err
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

// sampleItems scans up to n items.
func sampleItems(ctx context.Context, c *dynamodb.Client, table string, n int) ([]item, error) {
	var items []item
	var start map[string]types.AttributeValue
	for len(items) < n {
		out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: &table, Limit: aws.Int32(int32(min(n-len(items), 1000))), ExclusiveStartKey: start})
		if err != nil {
			return nil, err
		}
		items = append(items, out.Items...)
		if len(out.LastEvaluatedKey) == 0 {
			break
		}
		start = out.LastEvaluatedKey
	}
	if len(items) > n {
		items = items[:n]
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
