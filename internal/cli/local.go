package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/dynamogo/dynamo/local"
	"github.com/dynamogo/dynamo/local/console"
	"github.com/dynamogo/dynamo/local/storage/disk"
)

func init() {
	Register(&Command{
		Name:    "local",
		Summary: "serve a local DynamoDB-compatible endpoint (in memory, or durable with --data-dir)",
		Example: "dynamo local --data-dir ./data\n" +
			"dynamo local --port 0 --credentials keys.txt\n" +
			"dynamo local --console",
		Usage: "[--host 127.0.0.1] [--port 8000] [--region us-east-1] [--account 000000000000] [--data-dir DIR [--truncate-damaged-log] [--sync always|interval:100ms]] [--ttl-sweep 1m] [--credentials FILE] [--per-account] [--allow-host NAME]... [--cors ORIGIN]... [--console]",
		Help: `Serves the local DynamoDB-compatible server until SIGINT or SIGTERM.
Once listening it prints "dynamo local listening on http://HOST:PORT";
point any SDK at it with AWS_ENDPOINT_URL_DYNAMODB (credentials are not
checked unless --credentials is given, but the SDKs want some).

Without --data-dir the tables live in memory and are gone when it stops.
With --data-dir DIR (created if absent) tables, indexes and items are kept
in DIR (package local/storage/disk): every acknowledged write is fsynced
to a write-ahead log first, and the next "dynamo local --data-dir DIR"
serves them again, even after a crash. One server at a time may use DIR.

A crash leaves at most a torn last record, which is dropped with a
warning. Damage a crash cannot cause (a corrupt record with valid records
after it, a missing file) stops the server with an error naming the file
and the offset. --truncate-damaged-log then cuts the damaged log at that
offset, keeping a copy of the whole file beside it: the writes after the
damage are lost, so use it once, knowingly.

--sync interval:DURATION (e.g. interval:100ms) relaxes durability for test
suites that do not need it: a write is acknowledged once handed to the
operating system, and the log is fsynced every DURATION. A killed or
crashed server loses nothing; a crash of the machine (power loss, kernel
panic) loses the writes acknowledged in the last DURATION. The default,
--sync always, fsyncs before acknowledging.

With --credentials FILE every request must be signed (AWS Signature
Version 4) by one of the access keys in FILE, one per line:
"ACCESS_KEY_ID SECRET [SESSION_TOKEN]", # starts a comment line. Other
requests get DynamoDB's errors (UnrecognizedClientException,
InvalidSignatureException, ...). Without it credentials are not checked.
With --per-account each access key id and region has its own tables, as
DynamoDB Local has without -sharedDb; without --credentials the key id is
taken from the request unverified. A --data-dir written with --per-account
opens only with it, and one written without only without.
At start it prints both modes on stderr.


Only requests whose Host header names the server are answered (its
address, and localhost when it listens on loopback), so a web page cannot
reach it through DNS rebinding; --allow-host NAME (or NAME:PORT) accepts
another name, e.g. behind a proxy or a container port mapping. Browsers
may call it from the origins given with --cors (or "*" for any); CORS is
off by default. Bodies are limited to 16 MB (gzip and deflate accepted),
slow and idle connections are closed, and connections are capped below
the open-file limit. Listening on a non-loopback address without --credentials prints a
warning: anyone who can reach the server can read and change every table.

--console serves a web console on the same address under /console/
(its URL is printed at start): tables, items, queries, PartiQL, streams,
vector search and the recent requests, in a browser. Its changes are
checked against cross-site requests; with --credentials it asks for an
access key of FILE. It cannot be combined with --per-account.`,
		Flags: func() *flag.FlagSet { fs, _ := localFlags(); return fs },
		Run:   runLocal,
	})
}

type localOpts struct {
	host, region, account, dataDir string
	port                           int
	ttlSweep                       time.Duration
	credentials                    string
	perAccount                     bool
	truncateDamaged                bool
	sync                           string
	allowHosts, cors               stringList
	console                        bool
}

func localFlags() (*flag.FlagSet, *localOpts) {
	o := &localOpts{}
	fs := newFlagSet("local")
	fs.StringVar(&o.host, "host", "127.0.0.1", "address to listen on")
	fs.IntVar(&o.port, "port", 8000, "port to listen on (0 picks a free one)")
	fs.StringVar(&o.region, "region", "us-east-1", "region used in ARNs")
	fs.StringVar(&o.account, "account", "000000000000", "account id used in ARNs")
	fs.StringVar(&o.dataDir, "data-dir", "", "keep tables and items in this directory across restarts (default: in memory)")
	fs.BoolVar(&o.truncateDamaged, "truncate-damaged-log", false, "with --data-dir: cut a damaged write-ahead log at the damage, keeping a copy (the writes after it are lost)")
	fs.StringVar(&o.sync, "sync", "always", "with --data-dir: always (fsync before acknowledging a write) or interval:DURATION (fsync every DURATION; a machine crash loses the writes of the last one)")
	fs.DurationVar(&o.ttlSweep, "ttl-sweep", time.Minute, "how often expired TTL items are deleted (0 turns the sweeper off)")
	fs.StringVar(&o.credentials, "credentials", "", "require requests signed by an access key of this file (lines: ACCESS_KEY_ID SECRET [SESSION_TOKEN])")
	fs.BoolVar(&o.perAccount, "per-account", false, "separate tables by access key id and region (default: shared by all)")
	fs.Var(&o.allowHosts, "allow-host", "also answer requests with this Host (NAME for any port, NAME:PORT, or * for any host); repeatable")
	fs.Var(&o.cors, "cors", "let browser pages from this origin call the server (e.g. http://localhost:3000, or *); repeatable")
	fs.BoolVar(&o.console, "console", false, "serve a web console under /console/ on the same address")
	return fs, o
}

func runLocal(ctx context.Context, env *Env, args []string) (err error) {
	fs, o := localFlags()
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected argument %q", pos[0])
	}
	if o.ttlSweep < 0 {
		return usagef("--ttl-sweep must not be negative")
	}
	if o.console && o.perAccount {
		return usagef("--console shows the shared tables: it cannot be combined with --per-account")
	}
	if o.truncateDamaged && o.dataDir == "" {
		return usagef("--truncate-damaged-log needs --data-dir")
	}
	syncOpts, err := parseSync(o.sync)
	if err != nil {
		return err
	}
	if syncOpts != nil && o.dataDir == "" {
		return usagef("--sync %s needs --data-dir", o.sync)
	}
	opts := []local.Option{local.WithRegion(o.region), local.WithAccountID(o.account)}
	if o.ttlSweep > 0 {
		opts = append(opts, local.WithTTLSweep(o.ttlSweep))
	}
	auth := "authentication off: credentials are not checked (--credentials FILE turns it on)"
	if o.credentials != "" {
		keys, err := readAccessKeys(o.credentials)
		if err != nil {
			return err
		}
		opts = append(opts, local.WithAccessKeys(keys...))
		auth = fmt.Sprintf("authentication on: requests must be signed by one of the %d access keys of %s", len(keys), o.credentials)
	}
	tables := "tables shared by every access key and region (--per-account separates them)"
	if o.perAccount {
		opts = append(opts, local.WithTenancy())
		tables = "tables separated by access key id and region"
		if o.credentials == "" {
			tables += " (key ids are not verified without --credentials)"
		}
	}
	if o.dataDir != "" {
		dopts := []disk.Option{disk.WithLogger(slog.New(slog.NewTextHandler(env.Stderr, nil)))}
		if o.truncateDamaged {
			dopts = append(dopts, disk.WithTruncateDamagedLog())
		}
		dopts = append(dopts, syncOpts...)
		// The collector has nothing to free while Open builds the trees
		// (what it allocates stays live), only to mark it again each time
		// the heap doubles: off, a restart of 1M items takes about 12% less
		// CPU.
		gc := debug.SetGCPercent(-1)
		eng, oerr := disk.Open(o.dataDir, dopts...)
		debug.SetGCPercent(gc)
		if oerr != nil {
			return oerr
		}
		// The engine closes after the server (which does not own it), so
		// every write the server acknowledged is on disk before we return.
		defer func() {
			if cerr := eng.Close(); cerr != nil && err == nil {
				err = cerr
			}
		}()
		opts = append(opts, local.WithEngine(eng))
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(o.host, strconv.Itoa(o.port)))
	if err != nil {
		return err
	}
	defer ln.Close()
	opts = append(opts, local.WithHostCheck(ln.Addr(), o.allowHosts...))
	if len(o.cors) > 0 {
		opts = append(opts, local.WithCORS(o.cors...))
	}
	if o.console {
		opts = append(opts, console.Enable())
	}
	srv, err := local.New(opts...)
	if err != nil {
		return err
	}
	defer srv.Close()
	fmt.Fprintf(env.Stderr, "dynamo local: %s\ndynamo local: %s\n", auth, tables)
	if syncOpts != nil {
		fmt.Fprintf(env.Stderr, "dynamo local: durability relaxed (--sync %s): a crash of the machine loses the writes acknowledged since the last fsync; a killed server loses nothing\n", o.sync)
	}
	if o.console {
		fmt.Fprintf(env.Stderr, "dynamo local: console on http://%s%s\n", ln.Addr(), local.ConsolePath)
	}
	if !isLoopback(ln.Addr()) && o.credentials == "" {
		fmt.Fprintf(env.Stderr, "warning: dynamo local listens on %s, beyond this machine, and does not check credentials: "+
			"anyone who can reach it can read and change every table. Listen on 127.0.0.1 (the default) or use --credentials unless the network is trusted.\n", ln.Addr())
	}
	hs, hln := local.NewHTTPServer(srv, ln, local.DefaultHTTPLimits())
	done := make(chan error, 1)
	go func() { done <- hs.Serve(hln) }()
	fmt.Fprintf(env.Stdout, "dynamo local listening on http://%s\n", ln.Addr())
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// readAccessKeys reads the --credentials file; errors name the file and
// line, never a secret.
func readAccessKeys(path string) ([]local.AccessKey, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	keys, err := local.ReadAccessKeys(f)
	if err != nil {
		return nil, fmt.Errorf("--credentials %s: %w", path, err)
	}
	return keys, nil
}

// isLoopback reports whether addr is a loopback address (127.0.0.0/8, ::1).
func isLoopback(addr net.Addr) bool {
	host, _, err := net.SplitHostPort(addr.String())
	return err == nil && isLoopbackHost(host)
}

// parseSync reads --sync: "always" (nil: the engine's default) or
// "interval:DURATION".
func parseSync(v string) ([]disk.Option, error) {
	if v == "always" {
		return nil, nil
	}
	rest, ok := strings.CutPrefix(v, "interval:")
	d, err := time.ParseDuration(rest)
	if !ok || err != nil || d <= 0 {
		return nil, usagef("--sync %q: want always or interval:DURATION with a positive duration (e.g. interval:100ms)", v)
	}
	return []disk.Option{disk.WithSyncMode(disk.SyncPeriodic), disk.WithSyncInterval(d)}, nil
}
