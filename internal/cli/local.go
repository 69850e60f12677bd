package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/dynamogo/dynamo/local"
)

func init() {
	Register(&Command{Name: "local", Summary: "serve a local DynamoDB-compatible endpoint (in memory)", Run: runLocal})
}

func runLocal(ctx context.Context, env *Env, args []string) error {
	fs := flag.NewFlagSet("local", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	host := fs.String("host", "127.0.0.1", "address to listen on")
	port := fs.Int("port", 8000, "port to listen on (0 picks a free one)")
	region := fs.String("region", "us-east-1", "region used in ARNs")
	account := fs.String("account", "000000000000", "account id used in ARNs")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.Stderr, "dynamo local: unexpected argument %q\n", fs.Arg(0))
		return errUsage
	}
	srv, err := local.New(local.WithRegion(*region), local.WithAccountID(*account))
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", net.JoinHostPort(*host, strconv.Itoa(*port)))
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
