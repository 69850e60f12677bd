// Command dynamo is the Dynamo for Go command line: `dynamo local` serves a
// DynamoDB-compatible endpoint; see `dynamo help` for the rest.
package main

import (
	"os"

	"github.com/dynamogo/dynamo/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], &cli.Env{Stdout: os.Stdout, Stderr: os.Stderr}))
}
