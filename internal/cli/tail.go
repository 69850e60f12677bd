package cli

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/codec/ddbjson"
)

func init() {
	Register(&Command{
		Name:    "tail",
		Summary: "follow a table's stream and print each change as it happens",
		Usage:   "TABLE [--from latest|trim-horizon] [--output text|json] [flags]",
		Help: `Follows the table's DynamoDB stream (the newest one) and prints each change
until interrupted (Ctrl-C ends it with exit 0). --from latest (the default)
prints the changes made after it starts; --from trim-horizon first prints
every change the stream still holds (up to 24 hours). Shards are followed
parent before child, so the changes of an item print in order.

Text output is one line per change: the time, the kind (INSERT, MODIFY,
REMOVE), the key and, as far as the stream's view type records them, the
old and new items as plain values. json output is one object per line with
the items in DynamoDB JSON:
  {"time":"…","kind":"MODIFY","sequenceNumber":"…","keys":{…},"old":{…},"new":{…}}`,
		Example:  "dynamo tail orders --endpoint http://127.0.0.1:8000 --from trim-horizon",
		TableArg: true,
		Flags:    func() *flag.FlagSet { fs, _ := tailFlags(); return fs },
		Run:      runTail,
	})
}

type tailOpts struct {
	aws    awsFlags
	output outputFlag
	from   string
}

func tailFlags() (*flag.FlagSet, *tailOpts) {
	o := &tailOpts{}
	fs := newFlagSet("tail")
	o.aws.register(fs)
	o.output.register(fs)
	fs.StringVar(&o.from, "from", "latest", "where to start: latest (changes from now on) or trim-horizon (the oldest change held)")
	return fs, o
}

func runTail(ctx context.Context, env *Env, args []string) error {
	fs, o := tailFlags()
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) == 0:
		return usagef("missing table name")
	case len(pos) > 1:
		return usagef("unexpected argument %q", pos[1])
	}
	var opts []dynamo.ChangesOption
	switch o.from {
	case "latest":
		opts = append(opts, dynamo.FromLatest())
	case "trim-horizon":
	default:
		return usagef("--from must be latest or trim-horizon, not %q", o.from)
	}
	repo, err := o.aws.open(ctx)
	if err != nil {
		return err
	}
	for c, err := range repo.Changes(ctx, pos[0], opts...) {
		if err != nil {
			if ctx.Err() != nil {
				return nil // interrupted: the normal end of a tail
			}
			return err
		}
		if o.output == "json" {
			err = tailJSON(env.Stdout, c)
		} else {
			_, err = fmt.Fprintln(env.Stdout, tailLine(c))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// tailJSON writes c as one line of JSON, its items in DynamoDB JSON.
func tailJSON(w io.Writer, c dynamo.Change[map[string]types.AttributeValue]) error {
	line := struct {
		Time           string       `json:"time"`
		Kind           string       `json:"kind"`
		SequenceNumber string       `json:"sequenceNumber"`
		Keys           ddbjson.Item `json:"keys"`
		Old            ddbjson.Item `json:"old,omitempty"`
		New            ddbjson.Item `json:"new,omitempty"`
	}{c.Time.UTC().Format(time.RFC3339), string(c.Kind), c.SequenceNumber, c.Key, c.Old, c.New}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(line)
}

// tailLine renders c on one line: time, kind, key attributes and the
// images the stream holds, as plain values.
func tailLine(c dynamo.Change[map[string]types.AttributeValue]) string {
	var b strings.Builder
	b.WriteString(c.Time.UTC().Format(time.RFC3339))
	b.WriteString(" ")
	b.WriteString(string(c.Kind))
	for _, name := range slices.Sorted(maps.Keys(c.Key)) {
		b.WriteString(" " + name + "=")
		b.Write(plainJSON(c.Key[name]))
	}
	if c.HasOld {
		b.WriteString(" old=")
		b.Write(plainJSON(&types.AttributeValueMemberM{Value: c.Old}))
	}
	if c.HasNew {
		b.WriteString(" new=")
		b.Write(plainJSON(&types.AttributeValueMemberM{Value: c.New}))
	}
	return b.String()
}

// plainJSON renders a value as ordinary JSON, for reading: numbers as
// numbers (their exact text), binary as base64 strings, sets as arrays.
func plainJSON(av types.AttributeValue) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(plain(av)) // maps and slices of marshalable values
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func plain(av types.AttributeValue) any {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return v.Value
	case *types.AttributeValueMemberN:
		return json.Number(v.Value)
	case *types.AttributeValueMemberB:
		return base64.StdEncoding.EncodeToString(v.Value)
	case *types.AttributeValueMemberBOOL:
		return v.Value
	case *types.AttributeValueMemberNULL:
		return nil
	case *types.AttributeValueMemberSS:
		return v.Value
	case *types.AttributeValueMemberNS:
		ns := make([]json.Number, len(v.Value))
		for i, n := range v.Value {
			ns[i] = json.Number(n)
		}
		return ns
	case *types.AttributeValueMemberBS:
		return v.Value // encoding/json writes []byte as base64
	case *types.AttributeValueMemberL:
		l := make([]any, len(v.Value))
		for i, e := range v.Value {
			l[i] = plain(e)
		}
		return l
	case *types.AttributeValueMemberM:
		m := make(map[string]any, len(v.Value))
		for k, e := range v.Value {
			m[k] = plain(e)
		}
		return m
	}
	return nil
}
