package doctest

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// Block is one ```go block of a Markdown file.
type Block struct {
	File string // path of the Markdown file, as given to Extract
	Line int    // 1-based line of the block's first code line
	Code string
}

// Kind is how a block is checked.
type Kind int

const (
	// Program is a complete file of package main with func main: compiled
	// and run.
	Program Kind = iota + 1
	// File is a complete file of another package: compiled.
	File
	// Declarations is a fragment of top-level declarations: compiled at
	// package level, next to the prelude.
	Declarations
	// Statements is a fragment of statements: compiled as the body of a
	// function, next to the prelude.
	Statements
)

// String returns the kind's name, as in error messages.
func (k Kind) String() string {
	switch k {
	case Program:
		return "program"
	case File:
		return "file"
	case Declarations:
		return "declarations"
	case Statements:
		return "statements"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

var fence = regexp.MustCompile("^(\\s*)(`{3,}|~{3,})\\s*([^\\s`]*)")

// Extract returns the ```go blocks of a Markdown document. Only a fence whose
// info string is exactly "go" counts; every other fence (text, sh, console,
// an indented block) is prose. An unterminated go block is an error.
func Extract(file string, md []byte) ([]Block, error) {
	var blocks []Block
	lines := strings.Split(string(md), "\n")
	for i := 0; i < len(lines); i++ {
		m := fence.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		indent, marker, lang := m[1], m[2], m[3]
		start := i + 1
		end := -1
		for j := start; j < len(lines); j++ {
			l := strings.TrimLeft(lines[j], " \t")
			if strings.HasPrefix(l, marker[:3]) && strings.TrimRight(strings.TrimLeft(l, marker[:1]), " \t\r") == "" && len(l) >= len(marker) {
				end = j
				break
			}
		}
		if end < 0 {
			if lang == "go" {
				return nil, fmt.Errorf("%s:%d: unterminated ```go block", file, i+1)
			}
			break
		}
		if lang == "go" {
			var b strings.Builder
			for _, l := range lines[start:end] {
				b.WriteString(strings.TrimPrefix(l, indent))
				b.WriteByte('\n')
			}
			blocks = append(blocks, Block{File: file, Line: start + 1, Code: b.String()})
		}
		i = end
	}
	return blocks, nil
}

// Classify tells how b is checked. A block whose first line that is not a
// comment or blank begins with "package" is a complete file; any other
// block is a fragment, of declarations if it parses as top-level
// declarations, else of statements. A fragment that is neither is an error
// pointing at the block's line.
func Classify(b Block) (Kind, error) {
	if pkg, ok := packageClause(b.Code); ok {
		if pkg != "main" {
			return File, nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), b.File, b.Code, parser.SkipObjectResolution)
		if err != nil {
			return 0, blockError(b, err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" {
				return Program, nil
			}
		}
		return File, nil
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+b.Code, parser.SkipObjectResolution); err == nil {
		return Declarations, nil
	}
	src := "package p\nfunc _() {\n" + b.Code + "\n}\n"
	if _, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution); err != nil {
		return 0, blockError(b, err)
	}
	return Statements, nil
}

// blockError reports err of a fragment parsed at an offset of two lines.
func blockError(b Block, err error) error {
	return fmt.Errorf("%s:%d: block is neither Go declarations nor statements (write it as ```text if it is not Go): %v", b.File, b.Line, err)
}

func packageClause(code string) (string, bool) {
	for _, l := range strings.Split(code, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "//") {
			continue
		}
		if rest, ok := strings.CutPrefix(l, "package "); ok {
			return strings.TrimSpace(rest), true
		}
		return "", false
	}
	return "", false
}

// Imports maps the package names a fragment may use without importing them
// to their import paths. A fragment that names one gets the import; the rest
// of the standard library and other modules need a complete file.
var Imports = map[string]string{
	"dynamo":       "github.com/dynamogo/dynamo",
	"schema":       "github.com/dynamogo/dynamo/schema",
	"codec":        "github.com/dynamogo/dynamo/codec",
	"ddbjson":      "github.com/dynamogo/dynamo/codec/ddbjson",
	"expr":         "github.com/dynamogo/dynamo/expr",
	"request":      "github.com/dynamogo/dynamo/request",
	"local":        "github.com/dynamogo/dynamo/local",
	"storage":      "github.com/dynamogo/dynamo/local/storage",
	"disk":         "github.com/dynamogo/dynamo/local/storage/disk",
	"dynamotest":   "github.com/dynamogo/dynamo/dynamotest",
	"dynamolambda": "github.com/dynamogo/dynamo/dynamolambda",
	"aws":          "github.com/aws/aws-sdk-go-v2/aws",
	"dynamodb":     "github.com/aws/aws-sdk-go-v2/service/dynamodb",
	"types":        "github.com/aws/aws-sdk-go-v2/service/dynamodb/types",
	"decimal":      "github.com/shopspring/decimal",
	"context":      "context",
	"errors":       "errors",
	"fmt":          "fmt",
	"log":          "log",
	"os":           "os",
	"time":         "time",
	"strings":      "strings",
	"sort":         "sort",
	"slices":       "slices",
	"sync":         "sync",
	"testing":      "testing",
	"net":          "net",
	"http":         "net/http",
	"httptest":     "net/http/httptest",
	"json":         "encoding/json",
	"iter":         "iter",
	"math":         "math",
	"strconv":      "strconv",
}

// Fragment is a fragment ready to be written as a package: the prelude it
// keeps and its own file.
type Fragment struct {
	Prelude string // Go source of the prelude file ("" when nothing is kept)
	Source  string // Go source of the fragment's file
	// FullPrelude reports that the fragment keeps the whole prelude, so it
	// can share a package with other such fragments (if Declares do not
	// collide): fewer packages, a faster check.
	FullPrelude bool
	// Declares lists the package-level names the fragment declares.
	Declares []string
	// Func is the exported function whose body is a statements fragment
	// (FuncName of the block), "" for declarations: the runner calls it.
	Func string
}

// FuncName is the name of the function holding a statements fragment:
// unique per block, and it names the block in a panic's trace.
func FuncName(b Block) string {
	name := []rune("Doc_" + b.File + "_" + strconv.Itoa(b.Line))
	for i, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			name[i] = '_'
		}
	}
	return string(name)
}

// Prelude is the parsed prelude: the package-level declarations every
// fragment sees.
type Prelude struct {
	decls []preludeDecl
}

type preludeDecl struct {
	names []string // declared names
	uses  []string // prelude names it refers to
	src   string
}

// ParsePrelude reads the prelude file. Every declaration is kept or dropped
// on its own, so a fragment can redeclare any name.
func ParsePrelude(src []byte) (*Prelude, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "prelude.go", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	text := func(n ast.Node) string {
		return string(src[fset.Position(n.Pos()).Offset:fset.Position(n.End()).Offset])
	}
	var p Prelude
	declared := map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil {
				return nil, fmt.Errorf("prelude: method %s: methods cannot be dropped with their type; declare none", d.Name.Name)
			}
			p.decls = append(p.decls, preludeDecl{names: []string{d.Name.Name}, src: text(d)})
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				continue
			}
			for _, s := range d.Specs {
				var names []string
				switch s := s.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						names = append(names, n.Name)
					}
				case *ast.TypeSpec:
					names = append(names, s.Name.Name)
				}
				p.decls = append(p.decls, preludeDecl{names: names, src: d.Tok.String() + " " + text(s)})
			}
		}
	}
	for _, d := range p.decls {
		for _, n := range d.names {
			declared[n] = true
		}
	}
	for i := range p.decls {
		df, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+p.decls[i].src, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		seen := map[string]bool{}
		ast.Inspect(df, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && declared[id.Name] && !seen[id.Name] && !slices.Contains(p.decls[i].names, id.Name) {
				seen[id.Name] = true
				p.decls[i].uses = append(p.decls[i].uses, id.Name)
			}
			return true
		})
	}
	return &p, nil
}

// Names returns every name the prelude declares, sorted.
func (p *Prelude) Names() []string {
	var ns []string
	for _, d := range p.decls {
		ns = append(ns, d.names...)
	}
	sort.Strings(ns)
	return ns
}

// without returns the prelude's source without the declarations of drop and
// of everything built from them.
func (p *Prelude) without(drop map[string]bool) string {
	dropped := make([]bool, len(p.decls))
	for changed := true; changed; {
		changed = false
		for i, d := range p.decls {
			if dropped[i] {
				continue
			}
			hit := false
			for _, n := range append(slices.Clip(d.names), d.uses...) {
				if drop[n] {
					hit = true
				}
			}
			if hit {
				dropped[i] = true
				for _, n := range d.names {
					drop[n] = true
				}
				changed = true
			}
		}
	}
	var b strings.Builder
	for i, d := range p.decls {
		if !dropped[i] {
			b.WriteString(d.src)
			b.WriteString("\n\n")
		}
	}
	return b.String()
}

// Build turns a fragment into package sources (package name pkg). The
// fragment's text keeps its lines: a //line directive maps compiler errors
// back to the Markdown file. Names the fragment declares at its top level
// (for a statements fragment: only types) replace the prelude's declarations
// of them and of everything built from them; variables a statements fragment
// declares and does not use are used for it (a snippet need not use all its
// results); the packages of Imports it names are imported.
func (p *Prelude) Build(b Block, kind Kind, pkg, lineFile string) (Fragment, error) {
	directive := fmt.Sprintf("//line %s:%d\n", lineFile, b.Line)
	var body string
	var declares []string
	drop := map[string]bool{}
	switch kind {
	case Declarations:
		body = directive + b.Code
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+b.Code, parser.SkipObjectResolution)
		if err != nil {
			return Fragment{}, err
		}
		for _, d := range f.Decls {
			for _, n := range declNames(d) {
				drop[n] = true
				declares = append(declares, n)
			}
		}
	case Statements:
		head := "func " + FuncName(b) + "() {\n" + directive
		src := head + b.Code + "\n}\n"
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "", "package p\n"+src, parser.SkipObjectResolution)
		if err != nil {
			return Fragment{}, err
		}
		fn := f.Decls[0].(*ast.FuncDecl)
		for _, s := range fn.Body.List {
			if ds, ok := s.(*ast.DeclStmt); ok {
				if gd := ds.Decl.(*ast.GenDecl); gd.Tok == token.TYPE {
					for _, n := range declNames(gd) {
						drop[n] = true
					}
				}
			}
		}
		body = useDeclared(fset, src, len("package p\n"), fn.Body)
	default:
		return Fragment{}, fmt.Errorf("%s:%d: %v is not a fragment", b.File, b.Line, kind)
	}
	prelude := p.without(drop)
	frag := Fragment{Declares: declares, FullPrelude: prelude == p.without(map[string]bool{})}
	if kind == Statements {
		frag.Func = FuncName(b)
	}
	if strings.TrimSpace(prelude) != "" {
		src, err := withImports(pkg, prelude)
		if err != nil {
			return Fragment{}, fmt.Errorf("prelude: %v", err)
		}
		frag.Prelude = src
	}
	src, err := withImports(pkg, body)
	if err != nil {
		return Fragment{}, err
	}
	frag.Source = src
	return frag, nil
}

func declNames(d ast.Decl) []string {
	var names []string
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil && d.Name.Name != "_" && d.Name.Name != "init" {
			names = append(names, d.Name.Name)
		}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.ValueSpec:
				for _, n := range s.Names {
					names = append(names, n.Name)
				}
			case *ast.TypeSpec:
				names = append(names, s.Name.Name)
			}
		}
	}
	return names
}

// useDeclared inserts "; _ = x" after every statement of a block that
// declares x (x := …, var x …), and "_ = x;" at the start of a range loop's
// body for its := variables, without changing any line. base is the offset of
// src in the parsed file.
func useDeclared(fset *token.FileSet, src string, base int, body *ast.BlockStmt) string {
	type insert struct {
		at   int
		text string
	}
	var ins []insert
	off := func(pos token.Pos) int { return fset.Position(pos).Offset - base }
	uses := func(ids []ast.Expr) string {
		var b strings.Builder
		for _, e := range ids {
			if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
				b.WriteString("_ = " + id.Name + "; ")
			}
		}
		return b.String()
	}
	visitList := func(list []ast.Stmt) {
		for _, s := range list {
			var ids []ast.Expr
			switch s := s.(type) {
			case *ast.AssignStmt:
				if s.Tok == token.DEFINE {
					ids = s.Lhs
				}
			case *ast.DeclStmt:
				if gd, ok := s.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR {
					for _, sp := range gd.Specs {
						for _, n := range sp.(*ast.ValueSpec).Names {
							ids = append(ids, n)
						}
					}
				}
			}
			if t := uses(ids); t != "" {
				ins = append(ins, insert{off(s.End()), "; " + strings.TrimSuffix(t, "; ")})
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			visitList(n.List)
		case *ast.CaseClause:
			visitList(n.Body)
		case *ast.CommClause:
			visitList(n.Body)
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				if t := uses([]ast.Expr{n.Key, n.Value}); t != "" {
					ins = append(ins, insert{off(n.Body.Lbrace) + 1, " " + t})
				}
			}
		}
		return true
	})
	sort.SliceStable(ins, func(i, j int) bool { return ins[i].at > ins[j].at })
	for _, in := range ins {
		src = src[:in.at] + in.text + src[in.at:]
	}
	return src
}

// withImports prefixes body with the package clause and the imports of the
// Imports packages it names and does not declare itself. A body that has an
// import block of its own (a declarations fragment may) keeps it.
func withImports(pkg, body string) (string, error) {
	// Split off an import block of the body's own.
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", "package p\n"+body, 0)
	if err != nil {
		return "", err
	}
	own := map[string]bool{}
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		name := filepath.Base(path)
		if im.Name != nil {
			name = im.Name.Name
		}
		own[name] = true
	}
	need := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Obj == nil && !own[id.Name] {
				if _, known := Imports[id.Name]; known {
					need[id.Name] = true
				}
			}
		}
		return true
	})
	var paths []string
	for n := range need {
		paths = append(paths, Imports[n])
	}
	sort.Strings(paths)
	var b bytes.Buffer
	fmt.Fprintf(&b, "package %s\n\n", pkg)
	if len(f.Imports) > 0 {
		// The body's own imports must come first: move the fragment's
		// import declarations ahead of ours by keeping the body as is and
		// adding ours as a second import block after them.
		if len(paths) > 0 {
			last := f.Decls[0]
			for _, d := range f.Decls {
				if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
					last = gd
				}
			}
			at := fset.Position(last.End()).Offset - len("package p\n")
			var imp strings.Builder
			imp.WriteString("; import (")
			for _, p := range paths {
				imp.WriteString(strconv.Quote(p) + ";")
			}
			imp.WriteString(")")
			body = body[:at] + imp.String() + body[at:]
		}
		b.WriteString(body)
		return b.String(), nil
	}
	if len(paths) > 0 {
		b.WriteString("import (\n")
		for _, p := range paths {
			fmt.Fprintf(&b, "\t%q\n", p)
		}
		b.WriteString(")\n\n")
	}
	b.WriteString(body)
	return b.String(), nil
}

// Sources are the Markdown files whose go blocks are checked, relative to the
// module root: README.md, AGENTS.md and docs/*.md.
func Sources(root string) ([]string, error) {
	files := []string{"README.md", "AGENTS.md"}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		return nil, err
	}
	for _, d := range docs {
		rel, _ := filepath.Rel(root, d)
		files = append(files, rel)
	}
	var out []string
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(root, f)); err == nil {
			out = append(out, f)
		} else if !os.IsNotExist(err) {
			return nil, err
		}
	}
	return out, nil
}

// AsPackage rewrites a program (package main with func main) as package pkg
// with the exported function Main, keeping every line where it is, so that
// all the programs of the docs link into one binary (Runner): one link
// instead of one per program. A program must therefore do no work in init
// functions or package-level variable initialisers beyond declarations.
func AsPackage(code, pkg string) (string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", code, parser.SkipObjectResolution)
	if err != nil {
		return "", err
	}
	var mainAt = -1
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" {
			mainAt = fset.Position(fd.Name.Pos()).Offset
		}
	}
	if mainAt < 0 {
		return "", fmt.Errorf("no func main")
	}
	pkgAt := fset.Position(f.Name.Pos()).Offset
	// main is after the package clause: replace it first.
	code = code[:mainAt] + "Main" + code[mainAt+len("main"):]
	return code[:pkgAt] + pkg + code[pkgAt+len("main"):], nil
}

// Runner is the main package that runs one program or fragment, named by
// its only argument: a program package's name (its Main runs), or
// "pkg.Func" for a statements fragment, which runs after seed.Run (the
// prelude's tables created and seeded on the server in the environment).
func Runner(module string, programs, fragments []string) string {
	var b strings.Builder
	b.WriteString("package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\n")
	imported := map[string]bool{}
	imp := func(pkg string) {
		if !imported[pkg] {
			imported[pkg] = true
			fmt.Fprintf(&b, "\t%q\n", module+"/"+pkg)
		}
	}
	for _, n := range programs {
		imp(n)
	}
	if len(fragments) > 0 {
		imp(SeedPackage)
	}
	for _, f := range fragments {
		imp(strings.Split(f, ".")[0])
	}
	b.WriteString(")\n\nfunc main() {\n\tif len(os.Args) != 2 {\n\t\tfmt.Fprintln(os.Stderr, \"usage: run PROGRAM|PKG.FRAGMENT\")\n\t\tos.Exit(2)\n\t}\n\tswitch os.Args[1] {\n")
	for _, n := range programs {
		fmt.Fprintf(&b, "\tcase %q:\n\t\t%s.Main()\n", n, n)
	}
	for _, f := range fragments {
		fmt.Fprintf(&b, "\tcase %q:\n\t\t%s.Run()\n\t\t%s()\n", f, SeedPackage, f)
	}
	b.WriteString("\tdefault:\n\t\tfmt.Fprintln(os.Stderr, \"unknown program\", os.Args[1])\n\t\tos.Exit(2)\n\t}\n}\n")
	return b.String()
}

// SeedPackage is the generated package holding the whole prelude and Run,
// which creates the prelude's tables and writes its seed items (SeedSource).
const SeedPackage = "seed"

// SeedSource is the file of the seed package beside the prelude: Run calls
// the prelude's seed function and ends the process if it fails.
const SeedSource = `package seed

import (
	"fmt"
	"os"
)

// Run creates the prelude's tables and writes its items.
func Run() {
	if err := seed(); err != nil {
		fmt.Fprintln(os.Stderr, "doctest: seeding the prelude's tables:", err)
		os.Exit(1)
	}
}
`

// Gofmt reports a block that gofmt would change (format.Source accepts
// fragments of declarations or statements as well as files), so the docs
// show code as Go code looks.
func Gofmt(b Block) error {
	out, err := format.Source([]byte(b.Code))
	if err != nil {
		return fmt.Errorf("%s:%d: gofmt: %v", b.File, b.Line, err)
	}
	if string(out) != b.Code {
		return fmt.Errorf("%s:%d: block is not gofmt-formatted; gofmt would write:\n%s", b.File, b.Line, out)
	}
	return nil
}
