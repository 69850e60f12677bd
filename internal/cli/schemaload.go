package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// The import paths whose Schema type a --schema variable may have.
const (
	schemaPkgPath = "github.com/dynamogo/dynamo/schema"
)

// schemaRef is one --schema value resolved to a package-level variable.
type schemaRef struct {
	arg        string // as given
	pkg, name  string // package pattern and the Name after the last dot
	importPath string
	dir        string
	moduleDir  string
	goFiles    []string
	pkgName    string
	varName    string // the variable found
}

// splitSchemaRef splits "./dir/pkg.Name" or "example.com/m/pkg.Name" at the
// last dot of the last path element.
func splitSchemaRef(arg string) (pkg, name string, err error) {
	slash := strings.LastIndex(arg, "/")
	dot := strings.LastIndex(arg, ".")
	if dot <= slash || dot == len(arg)-1 {
		return "", "", usagef("--schema %q: want ./path/to/pkg.Name or import/path.Name", arg)
	}
	pkg, name = arg[:dot], arg[dot+1:]
	if pkg == "" { // ".Order": the package in the current directory
		pkg = "."
	}
	if !token.IsIdentifier(name) {
		return "", "", usagef("--schema %q: %q is not a Go identifier", arg, name)
	}
	if r, _ := utf8.DecodeRuneInString(name); !unicode.IsUpper(r) {
		return "", "", usagef("--schema %q: %s is not exported", arg, name)
	}
	return pkg, name, nil
}

// loadSchemas runs a generated program inside the user's module that calls
// schema.CreateTableInput on the named schema variables and prints the
// request as JSON: the schemas are the user's own Go values, so only the Go
// toolchain can evaluate them.
func loadSchemas(ctx context.Context, env *Env, args []string) (*dynamodb.CreateTableInput, error) {
	var refs []*schemaRef
	seen := map[string]bool{}
	for _, a := range args {
		if seen[a] {
			continue
		}
		seen[a] = true
		pkg, name, err := splitSchemaRef(a)
		if err != nil {
			return nil, err
		}
		refs = append(refs, &schemaRef{arg: a, pkg: pkg, name: name})
	}
	if err := resolvePackages(ctx, refs); err != nil {
		return nil, err
	}
	modDir := refs[0].moduleDir
	for _, r := range refs {
		if r.moduleDir == "" {
			return nil, fmt.Errorf("--schema %s: package %s is not in a module (run the command inside your module)", r.arg, r.importPath)
		}
		if r.moduleDir != modDir {
			return nil, fmt.Errorf("--schema %s: package %s is in module %s, not %s; the schemas must be in one module", r.arg, r.importPath, r.moduleDir, modDir)
		}
		if r.pkgName == "main" {
			return nil, fmt.Errorf("--schema %s: package %s is a command (package main) and cannot be imported; move the schema to a library package", r.arg, r.importPath)
		}
		if err := r.findVar(); err != nil {
			return nil, err
		}
	}
	src := schemaProgram(refs)
	dir, err := os.MkdirTemp(modDir, "_dynamo_create_table_")
	if err != nil {
		return nil, fmt.Errorf("cannot write the schema loader into the module: %w", err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "main.go"), src, 0o644); err != nil {
		return nil, err
	}
	// Build, then run: the go command's own failures (compile errors) stay
	// apart from the loader's (a schema error, a panicking Must).
	exe := filepath.Join(dir, "loader")
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	var stdout, stderr bytes.Buffer
	build := exec.CommandContext(ctx, "go", "build", "-o", exe, "./"+filepath.Base(dir))
	build.Dir = modDir
	build.Stdout, build.Stderr = &stderr, &stderr
	if err := build.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return nil, fmt.Errorf("run the go command: %w", err)
		}
		return nil, fmt.Errorf("building the schema loader failed: %s", strings.ReplaceAll(loaderMessage(stderr.String()), filepath.Base(dir)+"/", ""))
	}
	stderr.Reset()
	run := exec.CommandContext(ctx, exe)
	run.Dir = modDir
	run.Env = append(os.Environ(), "GOTRACEBACK=none") // a panicking Must: its message, not every goroutine
	run.Stdout, run.Stderr = &stdout, &stderr
	if err := run.Run(); err != nil {
		msg := loaderMessage(stderr.String())
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == schemaErrorExit {
			// schema.CreateTableInput's error: the schemas disagree.
			return nil, errors.New(strings.TrimPrefix(msg, "dynamo: "))
		}
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("loading the schemas failed: %s", msg)
	}
	in := new(dynamodb.CreateTableInput)
	if err := json.Unmarshal(stdout.Bytes(), in); err != nil {
		return nil, fmt.Errorf("loading the schemas: unexpected output of the loader: %w", err)
	}
	return in, nil
}

// loaderMessage keeps what matters of the go command's or the loader's
// stderr: the panic of a schema declared with Must, or the compiler's
// errors without the "# package" header.
func loaderMessage(stderr string) string {
	var keep []string
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if msg, ok := strings.CutPrefix(l, "panic: "); ok {
			return "a schema panicked: " + strings.TrimPrefix(strings.TrimSuffix(msg, " [recovered]"), "dynamo: ")
		}
		if strings.HasPrefix(l, "exit status ") || strings.HasPrefix(l, "# ") {
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n")
}

// schemaErrorExit is the loader's exit code when CreateTableInput fails
// (compile errors exit 1 from the go command).
const schemaErrorExit = 3

func schemaProgram(refs []*schemaRef) []byte {
	var b bytes.Buffer
	b.WriteString("// Code generated by dynamo create-table; DO NOT EDIT. It is removed after use.\n\n")
	b.WriteString("package main\n\nimport (\n\t\"encoding/json\"\n\t\"fmt\"\n\t\"os\"\n\n")
	fmt.Fprintf(&b, "\tschema %q\n", schemaPkgPath)
	alias := map[string]string{}
	var paths []string
	for _, r := range refs {
		if _, ok := alias[r.importPath]; !ok {
			alias[r.importPath] = ""
			paths = append(paths, r.importPath)
		}
	}
	for i, p := range paths {
		alias[p] = "p" + strconv.Itoa(i)
		fmt.Fprintf(&b, "\t%s %q\n", alias[p], p)
	}
	b.WriteString(")\n\nfunc main() {\n\tin, err := schema.CreateTableInput(")
	for i, r := range refs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(alias[r.importPath] + "." + r.varName)
	}
	b.WriteString(")\n\tif err != nil {\n\t\tfmt.Fprintln(os.Stderr, err)\n\t\tos.Exit(")
	b.WriteString(strconv.Itoa(schemaErrorExit))
	b.WriteString(")\n\t}\n\tif err := json.NewEncoder(os.Stdout).Encode(in); err != nil {\n\t\tfmt.Fprintln(os.Stderr, err)\n\t\tos.Exit(1)\n\t}\n}\n")
	return b.Bytes()
}

// resolvePackages asks the go command where each package is (one call per
// pattern: go list prints a package once however many patterns name it).
func resolvePackages(ctx context.Context, refs []*schemaRef) error {
	byPattern := map[string][]string{}
	for _, r := range refs {
		f, ok := byPattern[r.pkg]
		if !ok {
			var err error
			if f, err = goList(ctx, r.pkg); err != nil {
				return fmt.Errorf("--schema %s: %w", r.arg, err)
			}
			byPattern[r.pkg] = f
		}
		if f[5] != "" {
			return fmt.Errorf("--schema %s: %s", r.arg, f[5])
		}
		r.importPath, r.dir, r.moduleDir, r.pkgName = f[0], f[1], f[2], f[3]
		if f[4] != "" {
			r.goFiles = strings.Split(f[4], ",")
		}
	}
	return nil
}

func goList(ctx context.Context, pattern string) ([]string, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "go", "list", "-e", "-f",
		"{{.ImportPath}}\t{{.Dir}}\t{{with .Module}}{{.Dir}}{{end}}\t{{.Name}}\t{{join .GoFiles \",\"}}\t{{with .Error}}{{.Err}}{{end}}", "--", pattern)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("go list: %s", msg)
	}
	lines := strings.Split(strings.TrimRight(stdout.String(), "\n"), "\n")
	if len(lines) != 1 {
		return nil, fmt.Errorf("%s names %d packages, want one", pattern, len(lines))
	}
	f := strings.Split(lines[0], "\t")
	if len(f) != 6 {
		return nil, fmt.Errorf("unexpected go list output %q", lines[0])
	}
	return f, nil
}

// findVar finds the package-level variable the reference names: a variable
// called Name, or the one variable of type *schema.Schema[Name] (declared
// with that type, or initialised with schema.Must[Name]). The source is scanned with go/parser; the
// compiler checks the rest when the loader is built.
func (r *schemaRef) findVar() error {
	fset := token.NewFileSet()
	var byType []string
	for _, name := range r.goFiles {
		f, err := parser.ParseFile(fset, filepath.Join(r.dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("--schema %s: %w", r.arg, err)
		}
		aliases := schemaAliases(f)
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if n.Name == r.name {
						r.varName = n.Name
						return nil
					}
					var value ast.Expr
					if len(vs.Values) == len(vs.Names) {
						value = vs.Values[i]
					}
					if t := schemaTypeArg(vs.Type, value, aliases); t == r.name && ast.IsExported(n.Name) {
						byType = append(byType, n.Name)
					}
				}
			}
		}
	}
	sort.Strings(byType)
	switch len(byType) {
	case 1:
		r.varName = byType[0]
		return nil
	case 0:
		return fmt.Errorf("--schema %s: package %s declares no exported variable %s and no package-level *schema.Schema[%s] variable", r.arg, r.importPath, r.name, r.name)
	}
	return fmt.Errorf("--schema %s: package %s declares several schemas of %s (%s); name one: %s.%s", r.arg, r.importPath, r.name, strings.Join(byType, ", "), r.pkg, byType[0])
}

// schemaAliases returns the name under which f imports the schema package,
// with the function that makes a schema.
func schemaAliases(f *ast.File) map[string]string {
	m := map[string]string{}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		var name, must string
		switch p {
		case schemaPkgPath:
			name, must = "schema", "Must"
		default:
			continue
		}
		if imp.Name != nil {
			name = imp.Name.Name
		}
		m[name] = must
	}
	return m
}

// schemaTypeArg returns T when typ is *pkg.Schema[T] or value is
// pkg.Must[T](…), for a local type T.
func schemaTypeArg(typ, value ast.Expr, aliases map[string]string) string {
	if star, ok := typ.(*ast.StarExpr); ok {
		if ix, ok := star.X.(*ast.IndexExpr); ok {
			if sel, ok := ix.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "Schema" {
				if pkg, ok := sel.X.(*ast.Ident); ok {
					if _, ok := aliases[pkg.Name]; ok {
						return identName(ix.Index)
					}
				}
			}
		}
	}
	if call, ok := value.(*ast.CallExpr); ok {
		if ix, ok := call.Fun.(*ast.IndexExpr); ok {
			if sel, ok := ix.X.(*ast.SelectorExpr); ok {
				if pkg, ok := sel.X.(*ast.Ident); ok && aliases[pkg.Name] == sel.Sel.Name {
					return identName(ix.Index)
				}
			}
		}
	}
	return ""
}

func identName(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
