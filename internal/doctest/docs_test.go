package doctest

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/internal/testdir"
)

// TestDocs compiles every ```go block of README.md, AGENTS.md and
// docs/*.md in one throwaway module (one go build, one link: the programs
// and fragments become packages of one runner binary), and runs the
// complete programs and the statement fragments against a fresh in-process
// local server each (not with -short).
// Compiler errors point at the Markdown file and line.
func TestDocs(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found: %v", err)
	}
	files, err := Sources(root)
	if err != nil {
		t.Fatal(err)
	}
	preludeSrc, err := os.ReadFile(filepath.Join(root, "internal", "doctest", "prelude", "prelude.go"))
	if err != nil {
		t.Fatal(err)
	}
	prelude, err := ParsePrelude(preludeSrc)
	if err != nil {
		t.Fatal(err)
	}

	dir := moduleDir(t)
	if err := writeModule(root, dir); err != nil {
		t.Fatal(err)
	}
	type program struct {
		block Block
		name  string
	}
	var programs []program
	var fragments []program // name is "pkg.Func"
	shared := &sharedPkg{dir: filepath.Join(dir, "shared"), names: map[string]bool{}}
	n := 0
	for _, f := range files {
		md, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		blocks, err := Extract(f, md)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range blocks {
			kind, err := Classify(b)
			if err != nil {
				t.Error(err)
				continue
			}
			if err := Gofmt(b); err != nil {
				t.Error(err)
			}
			name := fmt.Sprintf("b%03d", n)
			n++
			pkgDir := filepath.Join(dir, name)
			if err := os.Mkdir(pkgDir, 0o755); err != nil {
				t.Fatal(err)
			}
			lineFile := filepath.Join(root, f)
			switch kind {
			case Program, File:
				code := b.Code
				if kind == Program {
					if code, err = AsPackage(code, name); err != nil {
						t.Errorf("%s:%d: %v", b.File, b.Line, err)
						continue
					}
					programs = append(programs, program{b, name})
				}
				src := fmt.Sprintf("//line %s:%d\n%s", lineFile, b.Line, code)
				if err := os.WriteFile(filepath.Join(pkgDir, "doc.go"), []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			default:
				if shared.add(t, prelude, b, kind, lineFile) {
					if err := os.Remove(pkgDir); err != nil {
						t.Fatal(err)
					}
					continue
				}
				frag, err := prelude.Build(b, kind, name, lineFile)
				if err != nil {
					t.Errorf("%s:%d: %v", b.File, b.Line, err)
					continue
				}
				if frag.Func != "" {
					fragments = append(fragments, program{b, name + "." + frag.Func})
				}
				if frag.Prelude != "" {
					if err := os.WriteFile(filepath.Join(pkgDir, "prelude.go"), []byte(frag.Prelude), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				if err := os.WriteFile(filepath.Join(pkgDir, "doc.go"), []byte(frag.Source), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	shared.check(t)
	for _, e := range shared.entries {
		if e.fn != "" {
			fragments = append(fragments, program{e.block, "shared." + e.fn})
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	if n == 0 {
		t.Fatal("no ```go blocks found: the doctest would check nothing")
	}
	t.Logf("%d go blocks in %d files, %d programs, %d statement fragments", n, len(files), len(programs), len(fragments))
	// Under -short nothing runs: without the runner there is no main
	// package, so go build compiles every block and links nothing.
	if !testing.Short() {
		var progs, frags []string
		for _, p := range programs {
			progs = append(progs, p.name)
		}
		for _, f := range fragments {
			frags = append(frags, f.name)
		}
		seedSrc, err := withImports(SeedPackage, prelude.without(map[string]bool{}))
		if err != nil {
			t.Fatal(err)
		}
		for file, src := range map[string]string{
			filepath.Join(SeedPackage, "prelude.go"): seedSrc,
			filepath.Join(SeedPackage, "run.go"):     SeedSource,
			filepath.Join("run", "main.go"):          Runner(docModule, progs, frags),
		} {
			if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(file)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, file), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}

	start := time.Now()
	args := []string{"build", "-o", filepath.Join(dir, "bin") + string(filepath.Separator), "./..."}
	if testing.Short() {
		args = []string{"build", "./..."}
	}
	cmd := exec.Command(goTool(), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the docs do not compile:\n%s", out)
	}
	t.Logf("go build: %v", time.Since(start).Round(time.Millisecond))
	if testing.Short() {
		return
	}

	// A program runs twice against one server: a documented program is
	// something a reader runs again, so it must not fail on what its first
	// run left (a table it creates, an item it puts).
	for i, p := range append(programs, fragments...) {
		runs := 1
		if i < len(programs) {
			runs = 2
		}
		t.Run(fmt.Sprintf("%s:%d", p.block.File, p.block.Line), func(t *testing.T) {
			srv := dynamotest.NewServer(t)
			for range runs {
				runProgram(t, p.block, filepath.Join(dir, "bin", "run"), p.name, dir, srv.URL)
			}
		})
	}
}

// moduleDir returns the directory for the generated module: DOCTEST_DIR
// keeps it for inspection; by default it is the same directory on every
// run of this checkout (emptied but for the runner binary), so go build
// finds the generated packages, and the runner when nothing changed, in its
// cache.
func moduleDir(t *testing.T) string {
	if dir := os.Getenv("DOCTEST_DIR"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	return testdir.Stable(t, "dynamo-doctest", "bin")
}

// runProgram runs a program against the server at url and checks that it
// exits 0 and, when the block ends with an // Output: comment, prints that.
func runProgram(t *testing.T, b Block, bin, name, dir, url string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, name)
	cmd.Dir = t.TempDir()
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "AWS_") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env,
		"AWS_ENDPOINT_URL_DYNAMODB="+url,
		"AWS_ACCESS_KEY_ID=doctest",
		"AWS_SECRET_ACCESS_KEY=doctest-not-a-secret",
		"AWS_REGION=us-east-1",
		"AWS_EC2_METADATA_DISABLED=true",
		"AWS_CONFIG_FILE="+filepath.Join(dir, "no-aws-config"),
		"AWS_SHARED_CREDENTIALS_FILE="+filepath.Join(dir, "no-aws-credentials"),
	)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s:%d: the program failed: %v\nstdout:\n%s\nstderr:\n%s", b.File, b.Line, err, stdout.String(), stderr.String())
	}
	if want, ok := ExpectedOutput(b.Code); ok {
		if got := strings.TrimSpace(stdout.String()); got != want {
			t.Errorf("%s:%d: the program printed\n%s\nwant (its // Output: comment)\n%s", b.File, b.Line, got, want)
		}
	}
}

var outputComment = regexp.MustCompile(`(?m)^\s*// Output:[ \t]*(.*)$`)

// ExpectedOutput returns what a program's "// Output:" comment says it
// prints (as in Example functions): the comment lines from "// Output:" to the
// first line that is not a comment, trimmed; ok is false without one.
func ExpectedOutput(code string) (string, bool) {
	loc := outputComment.FindStringSubmatchIndex(code)
	if loc == nil {
		return "", false
	}
	var lines []string
	if first := strings.TrimSpace(code[loc[2]:loc[3]]); first != "" {
		lines = append(lines, first)
	}
	rest := strings.SplitN(code[loc[1]:], "\n", 2) // rest[0] is the end of the Output line
	if len(rest) < 2 {
		rest = append(rest, "")
	}
	for _, l := range strings.Split(rest[1], "\n") {
		l = strings.TrimSpace(l)
		if c, ok := strings.CutPrefix(l, "//"); ok {
			lines = append(lines, strings.TrimPrefix(c, " "))
			continue
		}
		break // the comment ends at the first line that is not one
	}
	return strings.TrimSpace(strings.Join(lines, "\n")), true
}

// writeModule writes the go.mod and go.sum of the throwaway module: the
// repository's own requirements (so every dependency resolves from the
// module cache at the versions the repository uses) plus the repository,
// replaced by its directory.
func writeModule(root, dir string) error {
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return err
	}
	re := regexp.MustCompile(`(?m)^module\s+(\S+)\s*$`)
	m := re.FindSubmatch(gomod)
	if m == nil {
		return fmt.Errorf("go.mod: no module line")
	}
	self := string(m[1])
	mod := re.ReplaceAllLiteral(gomod, []byte("module "+docModule))
	mod = append(mod, fmt.Sprintf("\nrequire %s v0.0.0-00010101000000-000000000000\n\nreplace %s => %s\n", self, self, root)...)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), mod, 0o644); err != nil {
		return err
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644)
}

// docModule is the module path of the throwaway module.
const docModule = "doctest.invalid/docs"

func goTool() string {
	if p := filepath.Join(runtime.GOROOT(), "bin", "go"); fileExists(p) {
		return p
	}
	return "go"
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// sharedPkg is the one package holding every fragment that keeps the whole
// prelude (one file each, the prelude once): most fragments, compiled as one
// package instead of one package each.
type sharedPkg struct {
	dir     string
	names   map[string]bool // package-level names declared so far
	n       int
	entries []sharedEntry
}

type sharedEntry struct {
	block    Block
	fn       string // Fragment.Func
	declares []string
	uses     map[string]bool // identifiers of the fragment's own file
}

// check enforces that blocks stay independent although they share a
// package: a fragment may not use a name another fragment declares.
func (s *sharedPkg) check(t *testing.T) {
	t.Helper()
	for _, e := range s.entries {
		for _, o := range s.entries {
			if o.block == e.block {
				continue
			}
			for _, n := range o.declares {
				if e.uses[n] && !slices.Contains(e.declares, n) {
					t.Errorf("%s:%d: uses %s, which the block at %s:%d declares: blocks are independent (move shared helpers into the prelude)", e.block.File, e.block.Line, n, o.block.File, o.block.Line)
				}
			}
		}
	}
}

// add puts the fragment into the shared package if it keeps the whole
// prelude and declares no name already there; it reports whether it did.
func (s *sharedPkg) add(t *testing.T, p *Prelude, b Block, kind Kind, lineFile string) bool {
	t.Helper()
	frag, err := p.Build(b, kind, "shared", lineFile)
	if err != nil || !frag.FullPrelude {
		return false // an error is reported when the block is built on its own
	}
	for _, n := range frag.Declares {
		if s.names[n] {
			return false
		}
	}
	if s.n == 0 {
		if err := os.Mkdir(s.dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(s.dir, "prelude.go"), []byte(frag.Prelude), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range frag.Declares {
		s.names[n] = true
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", frag.Source, parser.SkipObjectResolution)
	if err != nil {
		return false
	}
	uses := map[string]bool{}
	var inspect func(n ast.Node) bool
	inspect = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			uses[n.Name] = true
		case *ast.SelectorExpr:
			// pkg.Name or v.Field: only the left side names something here.
			ast.Inspect(n.X, inspect)
			return false
		}
		return true
	}
	ast.Inspect(f, inspect)
	s.entries = append(s.entries, sharedEntry{block: b, fn: frag.Func, declares: frag.Declares, uses: uses})
	if err := os.WriteFile(filepath.Join(s.dir, fmt.Sprintf("f%03d.go", s.n)), []byte(frag.Source), 0o644); err != nil {
		t.Fatal(err)
	}
	s.n++
	return true
}
