// Package doctest keeps the documentation true: its test extracts every
// ```go block of README.md, AGENTS.md and docs/*.md, compiles them all in one
// throwaway module (a replace directive points at this repository, so the
// whole check is one go build; the programs become packages of one runner
// binary, so it is one link too), and runs the complete programs and the
// statement fragments against a fresh in-process local server each (for a
// fragment, with the prelude's tables created and seeded), comparing a
// program's output with an "// Output:" comment when there is one. Under
// -short it compiles the blocks and links and runs nothing.
//
// The rules for a block (Classify) are written at the top of CONTRIBUTING.md:
// a block beginning with a package clause is a complete file; any other block
// is a fragment compiled next to the prelude (package prelude), which
// declares ctx, repo, orders and the other names fragments may use.
package doctest
