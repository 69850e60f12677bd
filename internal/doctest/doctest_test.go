package doctest

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

func TestExtract(t *testing.T) {
	md := "# T\n\n```go\nx := 1\n```\n\n```text\nnot go\n```\n\n- item\n\n  ```go\n  y := 2\n  ```\n\n````go\na := \"```\"\n````\n```sh\ngo test\n```\n"
	blocks, err := Extract("x.md", []byte(md))
	if err != nil {
		t.Fatal(err)
	}
	want := []Block{
		{File: "x.md", Line: 4, Code: "x := 1\n"},
		{File: "x.md", Line: 14, Code: "y := 2\n"},
		{File: "x.md", Line: 18, Code: "a := \"```\"\n"},
	}
	if len(blocks) != len(want) {
		t.Fatalf("got %d blocks %+v, want %d", len(blocks), blocks, len(want))
	}
	for i := range want {
		if blocks[i] != want[i] {
			t.Errorf("block %d = %+v, want %+v", i, blocks[i], want[i])
		}
	}
	if _, err := Extract("x.md", []byte("```go\nx := 1\n")); err == nil || !strings.Contains(err.Error(), "x.md:1") {
		t.Errorf("unterminated block: err = %v", err)
	}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		code string
		want Kind
	}{
		{"package main\n\nfunc main() {}\n", Program},
		{"// A program.\npackage main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println() }\n", Program},
		{"package main\n\nfunc helper() {}\n", File},
		{"package orders\n\ntype Order struct{}\n", File},
		{"type Order struct{ ID string }\n\nvar Orders = 1\n", Declarations},
		{"func f() {}\n", Declarations},
		{"x := 1\nfmt.Println(x)\n", Statements},
		{"type T struct{}\nv := T{}\n", Statements},
	}
	for _, tt := range tests {
		got, err := Classify(Block{File: "x.md", Line: 3, Code: tt.code})
		if err != nil || got != tt.want {
			t.Errorf("Classify(%q) = %v, %v; want %v", tt.code, got, err, tt.want)
		}
	}
	_, err := Classify(Block{File: "x.md", Line: 7, Code: "orders.Put(ctx, o) …\n"})
	if err == nil || !strings.Contains(err.Error(), "x.md:7") || !strings.Contains(err.Error(), "```text") {
		t.Errorf("pseudo-code: err = %v", err)
	}
}

const testPrelude = `package prelude

import "context"

type Order struct{ ID string }

var Orders = newSchema[Order]()

var orders = bind(Orders)

var ctx = context.Background()

var o Order

func newSchema[T any]() *T { return new(T) }

func bind[T any](s *T) []*T { return []*T{s} }
`

func TestBuildStatements(t *testing.T) {
	p, err := ParsePrelude([]byte(testPrelude))
	if err != nil {
		t.Fatal(err)
	}
	code := "got, err := f(ctx)\nfor i, v := range got {\n\tw := v\n}\nfmt.Println(time.Second)\n"
	frag, err := p.Build(Block{File: "x.md", Line: 10, Code: code}, Statements, "b001", "/r/x.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"got, err := f(ctx); _ = got; _ = err\n",
		"for i, v := range got { _ = i; _ = v; \n",
		"w := v; _ = w\n",
		"//line /r/x.md:10\n",
		"\"fmt\"", "\"time\"",
	} {
		if !strings.Contains(frag.Source, want) {
			t.Errorf("source lacks %q:\n%s", want, frag.Source)
		}
	}
	if strings.Contains(frag.Source, `"context"`) {
		t.Errorf("ctx comes from the prelude; the fragment must not import context:\n%s", frag.Source)
	}
	// The runner calls the fragment by the name Build reports.
	if frag.Func != "Doc_x_md_10" || !strings.Contains(frag.Source, "func Doc_x_md_10() {\n//line /r/x.md:10\n") {
		t.Errorf("Func = %q; source:\n%s", frag.Func, frag.Source)
	}
	// The fragment's code keeps its lines after the directive.
	after := frag.Source[strings.Index(frag.Source, "//line"):]
	if got := strings.Count(after, "\n"); got != strings.Count(code, "\n")+3 {
		t.Errorf("fragment spans %d lines after the directive, want %d:\n%s", got, strings.Count(code, "\n")+3, after)
	}
	for _, want := range []string{"type Order", "var Orders", "var orders", "var ctx", "\"context\""} {
		if !strings.Contains(frag.Prelude, want) {
			t.Errorf("prelude lacks %q:\n%s", want, frag.Prelude)
		}
	}
	mustParse(t, frag.Prelude)
	mustParse(t, frag.Source)
}

func TestBuildDropsRedeclared(t *testing.T) {
	p, err := ParsePrelude([]byte(testPrelude))
	if err != nil {
		t.Fatal(err)
	}
	// Redeclaring Order drops Order, Orders, orders and o (built from it),
	// keeps ctx and the helper functions.
	frag, err := p.Build(Block{File: "x.md", Line: 1, Code: "type Order struct{ UserID string }\n"}, Declarations, "b002", "x.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{"type Order", "var Orders", "var orders", "var o "} {
		if strings.Contains(frag.Prelude, gone) {
			t.Errorf("prelude still has %q:\n%s", gone, frag.Prelude)
		}
	}
	for _, kept := range []string{"var ctx", "func newSchema", "func bind"} {
		if !strings.Contains(frag.Prelude, kept) {
			t.Errorf("prelude lost %q:\n%s", kept, frag.Prelude)
		}
	}
	// A statements fragment's variables shadow the prelude's; only its types
	// replace them.
	frag, err = p.Build(Block{File: "x.md", Line: 1, Code: "o := Order{}\n_ = orders\n"}, Statements, "b003", "x.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(frag.Prelude, "var o Order") || !strings.Contains(frag.Prelude, "var orders") {
		t.Errorf("statement variables must not drop prelude declarations:\n%s", frag.Prelude)
	}
	frag, err = p.Build(Block{File: "x.md", Line: 1, Code: "type Order struct{}\nv := Order{}\n"}, Statements, "b004", "x.md")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(frag.Prelude, "type Order") || strings.Contains(frag.Prelude, "var orders") {
		t.Errorf("a local type must drop the prelude's and what uses it:\n%s", frag.Prelude)
	}
}

func TestBuildOwnImports(t *testing.T) {
	p, err := ParsePrelude([]byte(testPrelude))
	if err != nil {
		t.Fatal(err)
	}
	code := "import str \"strings\"\n\nvar X = str.ToUpper(fmt.Sprint(1))\n"
	frag, err := p.Build(Block{File: "x.md", Line: 1, Code: code}, Declarations, "b005", "x.md")
	if err != nil {
		t.Fatal(err)
	}
	mustParse(t, frag.Source)
	if !strings.Contains(frag.Source, `"fmt"`) || strings.Count(frag.Source, `"strings"`) != 1 {
		t.Errorf("imports:\n%s", frag.Source)
	}
}

func TestExpectedOutput(t *testing.T) {
	code := "package main\n\nfunc main() {\n\tprintln()\n\t// Output:\n\t// a 1\n\t//\n\t// b\n}\n\n// f is not output.\nfunc f() {}\n"
	got, ok := ExpectedOutput(code)
	if !ok || got != "a 1\n\nb" {
		t.Errorf("ExpectedOutput = %q, %v", got, ok)
	}
	if got, ok := ExpectedOutput("func main() {\n\t// Output: one line\n}\n"); !ok || got != "one line" {
		t.Errorf("one-line output = %q, %v", got, ok)
	}
	if _, ok := ExpectedOutput("package main\nfunc main() {}\n"); ok {
		t.Error("no Output comment reported as one")
	}
}

func mustParse(t *testing.T, src string) {
	t.Helper()
	if _, err := parser.ParseFile(token.NewFileSet(), "", src, 0); err != nil {
		t.Errorf("generated source does not parse: %v\n%s", err, src)
	}
}

func TestAsPackage(t *testing.T) {
	code := "// Demo.\npackage main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"main\")\n}\n"
	got, err := AsPackage(code, "b007")
	if err != nil {
		t.Fatal(err)
	}
	want := "// Demo.\npackage b007\n\nimport \"fmt\"\n\nfunc Main() {\n\tfmt.Println(\"main\")\n}\n"
	if got != want {
		t.Errorf("AsPackage =\n%s\nwant\n%s", got, want)
	}
	if _, err := AsPackage("package main\n\nfunc helper() {}\n", "b008"); err == nil {
		t.Error("a file without func main accepted as a program")
	}
	mustParse(t, Runner("m", []string{"b001", "b002"}, []string{"shared.Doc_x_md_1", "b003.Doc_y_md_2"}))
}

func TestGofmt(t *testing.T) {
	if err := Gofmt(Block{File: "x.md", Line: 3, Code: "x := 1\nfmt.Println(x)\n"}); err != nil {
		t.Errorf("formatted fragment: %v", err)
	}
	err := Gofmt(Block{File: "x.md", Line: 3, Code: "x:=1\n"})
	if err == nil || !strings.Contains(err.Error(), "x.md:3") || !strings.Contains(err.Error(), "x := 1") {
		t.Errorf("unformatted fragment: %v", err)
	}
}
