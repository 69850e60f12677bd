package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/dynamogo/dynamo/local"
	"github.com/dynamogo/dynamo/local/storage/disk"
)

func init() {
	Register(&Command{
		Name:    "local",
		Summary: "serve a local DynamoDB-compatible endpoint (in memory, or durable with --data-dir)",
		Usage:   "[--host 127.0.0.1] [--port 8000] [--region us-east-1] [--account 000000000000] [--data-dir DIR [--truncate-damaged-log]] [--ttl-sweep 1m]",
		Help: `Serves the local DynamoDB-compatible server until SIGINT or SIGTERM.
Once listening it prints "dynamo local listening on http://HOST:PORT";
point any SDK at it with AWS_ENDPOINT_URL_DYNAMODB (credentials are not
checked, but the SDKs want some).

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
damage are lost, so use it once, knowingly.`,
		Flags: func() *flag.FlagSet { fs, _ := localFlags(); return fs },
		Run:   runLocal,
	})
}

type localOpts struct {
	host, region, account, dataDir string
	port                           int
	ttlSweep                       time.Duration
	truncateDamaged                bool
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
	fs.DurationVar(&o.ttlSweep, "ttl-sweep", time.Minute, "how often expired TTL items are deleted (0 turns the sweeper off)")
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
	if o.truncateDamaged && o.dataDir == "" {
		return usagef("--truncate-damaged-log needs --data-dir")
	}
	opts := []local.Option{local.WithRegion(o.region), local.WithAccountID(o.account)}
	if o.ttlSweep > 0 {
		opts = append(opts, local.WithTTLSweep(o.ttlSweep))
	}
	if o.dataDir != "" {
		dopts := []disk.Option{disk.WithLogger(slog.New(slog.NewTextHandler(env.Stderr, nil)))}
		if o.truncateDamaged {
			dopts = append(dopts, disk.WithTruncateDamagedLog())
		}
		eng, oerr := disk.Open(o.dataDir, dopts...)
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
	srv, err := local.New(opts...)
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", net.JoinHostPort(o.host, strconv.Itoa(o.port)))
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
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
