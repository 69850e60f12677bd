package cli_test

import (
	"fmt"
	"os"

	"github.com/dynamogo/dynamo/internal/cli"
)

// Main returns the exit code; help goes to stdout.
func ExampleMain() {
	code := cli.Main([]string{"help", "list-tables"}, &cli.Env{Stdout: os.Stdout, Stderr: os.Stderr})
	fmt.Println("exit", code)
	// Output:
	// usage: dynamo list-tables [--name-contains STR] [--output text|json] [--timeout 0] [flags]
	//
	// Lists every table, following ListTables pagination. Text output is one
	// name per line (nothing when there are none; "no tables" goes to stderr);
	// json output is an array of names.
	//
	// example:
	//   dynamo list-tables --name-contains demo --output json
	//
	// flags:
	//   -endpoint string
	//     	DynamoDB endpoint URL (default: AWS_ENDPOINT_URL_DYNAMODB or the region's endpoint)
	//   -name-contains string
	//     	only tables whose name contains this text (case-sensitive)
	//   -output value
	//     	output format: text or json (default text)
	//   -profile string
	//     	shared config profile (default: AWS_PROFILE or "default")
	//   -region string
	//     	AWS region (default: AWS_REGION or the profile's region)
	//   -timeout duration
	//     	give up after this long (0: no limit; shell completion uses 2s)
	//   -verbose
	//     	say on stderr which endpoint, region and credentials are used
	// exit 0
}

// A usage error is one line on stderr and exit code 2.
func ExampleMain_usageError() {
	code := cli.Main([]string{"delete-table"}, &cli.Env{Stdout: os.Stdout, Stderr: os.Stdout})
	fmt.Println("exit", code)
	// Output:
	// dynamo delete-table: missing table NAME (run 'dynamo help delete-table')
	// exit 2
}
