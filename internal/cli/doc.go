// Package cli implements the dynamo command: a subcommand dispatcher (Main)
// and one file per subcommand. cmd/dynamo only calls Main.
//
// # Commands
//
//	dynamo local [--host 127.0.0.1] [--port 8000] [--region R] [--account ID]
//	        [--data-dir DIR [--truncate-damaged-log]] [--ttl-sweep 1m]
//	dynamo create-table --schema ./path/to/pkg.Name [--schema …] [flags]
//	dynamo create-table NAME [--partition-key pk] [--sort-key sk | --no-sort-key]
//	        [--key-type S|N|B] [--billing-mode PAY_PER_REQUEST|PROVISIONED]
//	        [--read-capacity 5] [--write-capacity 5] [--no-wait] [--dry-run] [--timeout 10m]
//	dynamo list-tables [--name-contains STR] [--output text|json] [--timeout 0]
//	dynamo delete-table NAME [--force] [--no-wait] [--timeout 10m] [--output text|json]
//	dynamo generate-schema NAME [--type Name] [--package p] [--output path|-]
//	        [--overwrite] [--scan-items 25]
//	dynamo backup create TABLE [--name NAME]
//	dynamo backup list [TABLE] [--after TIME] [--before TIME]
//	dynamo backup restore BACKUP_ARN TARGET [--no-indexes] [--billing-mode M] [--no-wait]
//	dynamo backup restore --time TIME|latest SOURCE_TABLE TARGET [flags]
//	dynamo backup delete BACKUP_ARN [--force]
//	dynamo demo [--endpoint URL [--region R] [--profile P]] [--table dynamo-demo] [--keep]
//	dynamo version (or --version)
//	dynamo completion bash|zsh|fish
//	dynamo partiql STATEMENT [--param JSON]... [--output text|json] [--limit N] [--max-items N] [--consistent]
//	dynamo shell [--page-size 50] [--history FILE | --no-history]
//	dynamo help [command | group [subcommand] | exit-codes | environment]
//
// A command is one word ("list-tables") or a group and a subcommand
// ("backup create"), registered under "backup create".
// Flags and arguments may come in any order; "--" ends the flags. Every
// command that talks to DynamoDB loads the standard AWS configuration
// (environment, shared config and credentials files, AWS_PROFILE, SSO,
// AWS_ENDPOINT_URL_DYNAMODB), overridden by --endpoint, --region and
// --profile, in one place (awsFlags.open). A loopback endpoint needs none
// of it: a missing region or missing credentials become placeholders and
// instance metadata is never asked; any other endpoint needs real ones, and
// a missing one fails naming --region, AWS_REGION, AWS_PROFILE. --verbose
// says what was chosen. Commands that print data take --output text (the
// default, for people and line-oriented scripts) or --output json.
//
// Every command in the table has an Example (a test checks it) that
// `dynamo help <command>` prints; the completion scripts are generated from
// the same table (commands, flags, and table names for a command with
// TableArg).
//
// dynamo local serves package local in memory; with --data-dir DIR its
// tables and items are kept in DIR by the durable engine of package
// local/storage/disk (write-ahead log, fsynced before each write is
// acknowledged) and served again by the next dynamo local on DIR. Items
// whose TTL attribute has passed are deleted every --ttl-sweep (default one
// minute; DynamoDB itself takes up to a few days; 0 keeps them).
//
// # create-table --schema
//
// Schemas are Go values in the user's module, so only the Go toolchain can
// evaluate them. The command resolves each --schema with `go list` and
// go/parser (a package-level variable named Name, or the one variable of
// type *schema.Schema[Name] or *schema.Schema[Name], declared with that
// type or initialised with schema.Must[Name] / schema.Must[Name]),
// writes a throwaway main package into a temporary directory of the module
// that calls schema.CreateTableInput and prints the request as JSON, builds
// it with `go build`, runs it, removes it, and sends the request. Compile
// errors, schemas that disagree and a panicking Must each give a one-line
// failure. Key flags cannot be combined with --schema;
// --billing-mode PROVISIONED applies the capacity to the table and to every
// GSI without its own (schema.Provision; refused with vector indexes).
//
// # Output and exit codes
//
// Results go to stdout, progress (Env.progress: on a terminal only), prompts
// and notes to stderr. A failure is one line on stderr, "dynamo <command>: <reason>",
// with DynamoDB's message and exception name for service errors. Exit codes:
//
//	0  success
//	1  failure: a service or transport error, a missing or existing table,
//	   a refused or declined deletion, a schema that does not load
//	2  usage error: unknown command or flag, bad flag value, missing or
//	   extra argument, contradictory flags
//
// dynamo shell edits lines itself at a terminal (lineedit.go: raw mode
// through golang.org/x/sys, on the Unix systems that have termios) and reads
// plain lines otherwise.
//
// delete-table asks for the table name on a terminal (Stdin and Stderr are
// character devices) and refuses without one unless --force; create-table
// and delete-table wait, polling DescribeTable, until the table is ACTIVE or
// gone unless --no-wait.
//
// # generate-schema
//
// The generator reads the whole table unless --scan-items stops it. Items
// written by this library have "entity#value" partition keys; the
// generator groups the items by entity (the "_entity" attribute's value when
// they carry it, else the key prefix) and key layout, finds which
// attribute each key part was generated from (the attribute holding the
// same text in every item of the group; PrefixSortKey layouts name it), and
// emits one struct and one schema variable (<Type>Schema) per group. Several
// layouts of one entity (parent and child items) are told apart by a
// constant sort-key field, which gets a default=. Other tables get one type
// with RawKeys. Types are chosen so that Dump(Load(item)) gives the item
// back: integers that fit are int64, other numbers codec.Number, fixed-width
// UTC times time.Time with their precision, vectors of vector indexes
// []float32 with dim=N. GSIs, LSIs, vector indexes and provisioned capacity
// are declared as the table has them. Each field type is checked by loading
// and encoding every value read (roundTrips); an attribute that fails, or
// that no tag can name, is left to the catch-all field (dynamo:",unknown"),
// and the reason is a note in the code and on stderr.
package cli
