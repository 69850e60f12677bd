package main

import (
	"os"

	"github.com/dynamogo/dynamo/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], &cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
}
