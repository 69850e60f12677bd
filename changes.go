package dynamo

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"iter"
	"maps"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/dynamogo/dynamo/schema"
)

// ChangeKind is what a change did to its item.
type ChangeKind string

// The kinds of change, as DynamoDB Streams names them (eventName).
const (
	ChangeInsert ChangeKind = "INSERT"
	ChangeModify ChangeKind = "MODIFY"
	ChangeRemove ChangeKind = "REMOVE"
)

// Change is one change of an item of the table's entity, read from the
// table's DynamoDB stream.
type Change[T any] struct {
	Kind ChangeKind
	// Key holds the key fields of the changed item (only those).
	Key T
	// Old and New are the item before and after the change, as far as the
	// stream's view type records them: HasOld and HasNew say which are
	// there (an insert has no old item, a remove no new one, a KEYS_ONLY
	// stream neither); an absent one is the zero value.
	Old, New       T
	HasOld, HasNew bool
	SequenceNumber string
	// Time is when DynamoDB recorded the change (to the second).
	Time time.Time
	// Position is where the feed stands after this change: pass it to
	// FromPosition to resume after it. It is opaque and safe to store.
	Position string
}

// ChangesOption configures [Table.Changes].
type ChangesOption func(*changesConfig)

type changesConfig struct {
	latest   bool
	position string
}

// FromLatest starts the feed at the changes made after it starts, instead
// of at the oldest change the stream still holds (the default).
func FromLatest() ChangesOption { return func(c *changesConfig) { c.latest = true } }

// FromPosition resumes the feed after the change whose Position it is.
func FromPosition(position string) ChangesOption {
	return func(c *changesConfig) { c.position = position }
}

// Polling of a caught-up feed: the wait doubles from the first to the last.
const (
	changesFirstWait = 50 * time.Millisecond
	changesMaxWait   = time.Second
)

// Changes reads the changes of the table's items from its DynamoDB stream
// (declare it with schema.Stream), oldest first, and keeps waiting for new
// ones: the loop ends when it breaks, the context ends or a call fails (the
// error, an *Error, is yielded once). Shards are read parents before
// children, so the changes of one item arrive in order. Items of other
// entities of a single table are skipped. Nothing runs in the background:
// when caught up, the loop polls with a backoff of up to a second.
func (t *Table[T]) Changes(ctx context.Context, opts ...ChangesOption) iter.Seq2[Change[T], error] {
	const op = "GetRecords"
	return changes(ctx, t.repo, t.schema.Table(), schemaDecoder(t.schema, op), opts)
}

// rawItem is an item as DynamoDB holds it.
type rawItem = map[string]types.AttributeValue

// Changes is [Table.Changes] for any table, without a schema: every change
// of the table's items, with Key, Old and New as DynamoDB holds them (for
// tools that follow any table, like the dynamo command's tail).
func (r *Repo) Changes(ctx context.Context, table string, opts ...ChangesOption) iter.Seq2[Change[map[string]types.AttributeValue], error] {
	const op = "GetRecords"
	same := func(it rawItem) (rawItem, error) { return it, nil }
	raw := changeDecoder[rawItem]{op: op, table: table, loader: func(rawItem) (func(rawItem) (rawItem, error), error) { return same, nil }}
	return changes(ctx, r, table, raw, opts)
}

// ChangeFromRecord decodes one record of s's table's DynamoDB stream, as a
// dynamodbstreams client returns it or a consumer receives it (AWS Lambda,
// the Kinesis adapter), into a change of s's entity; ok is false for an
// item of another entity of a single table. Position is empty: it belongs
// to the feed of [Table.Changes]. A failure is an *Error (ErrDecode).
func ChangeFromRecord[T any](s *schema.Schema[T], rec stypes.Record) (c Change[T], ok bool, err error) {
	return schemaDecoder(s, "ChangeFromRecord").change(rec)
}

func changes[T any](ctx context.Context, r *Repo, table string, d changeDecoder[T], opts []ChangesOption) iter.Seq2[Change[T], error] {
	return func(yield func(Change[T], error) bool) {
		var zero Change[T]
		_ = r.run(ctx, d.op, []string{table}, func(ctx context.Context) error {
			var c changesConfig
			for _, o := range opts {
				o(&c)
			}
			f, err := r.newFeed(ctx, d.op, table, c)
			if err != nil {
				yield(zero, err)
				return err
			}
			err = f.run(ctx, func(rec stypes.Record) (bool, error) {
				c, ok, err := d.change(rec)
				if err != nil || !ok {
					return true, err
				}
				c.Position = f.pos.encode()
				return yield(c, nil), nil
			})
			if err != nil {
				yield(zero, err)
			}
			return err
		})
	}
}

// changeDecoder turns stream records into changes of T: the one conversion
// of the typed feed, the collection feed, the raw feed and ChangeFromRecord.
type changeDecoder[T any] struct {
	op, table string
	// loader picks, by the record's image (or keys), how to load the
	// record's items; a nil loader skips the record (another entity's).
	loader func(ident rawItem) (load func(rawItem) (T, error), err error)
}

func schemaDecoder[T any](s *schema.Schema[T], op string) changeDecoder[T] {
	load := func(it rawItem) (T, error) { return loadItem(s, op, it) }
	return changeDecoder[T]{op: op, table: s.Table(), loader: func(ident rawItem) (func(rawItem) (T, error), error) {
		if !s.Owns(ident) {
			return nil, nil
		}
		return load, nil
	}}
}

// change decodes rec; ok is false for an item of another entity or a
// record without its dynamodb part.
func (d changeDecoder[T]) change(rec stypes.Record) (c Change[T], ok bool, err error) {
	r := rec.Dynamodb
	if r == nil {
		return c, false, nil
	}
	keys, old, img := fromStreamItem(r.Keys), fromStreamItem(r.OldImage), fromStreamItem(r.NewImage)
	// Whose item it is shows in an image (it carries the entity
	// attribute); a KEYS_ONLY stream has only the keys to judge by.
	ident := keys
	if img != nil {
		ident = img
	} else if old != nil {
		ident = old
	}
	load, err := d.loader(ident)
	if load == nil || err != nil {
		return c, false, err
	}
	c = Change[T]{Kind: ChangeKind(rec.EventName), SequenceNumber: aws.ToString(r.SequenceNumber)}
	if r.ApproximateCreationDateTime != nil {
		c.Time = *r.ApproximateCreationDateTime
	}
	if c.Key, err = load(keys); err != nil {
		return c, false, err
	}
	if old != nil {
		c.HasOld = true
		if c.Old, err = load(old); err != nil {
			return c, false, err
		}
	}
	if img != nil {
		c.HasNew = true
		if c.New, err = load(img); err != nil {
			return c, false, err
		}
	}
	return c, true, nil
}

// feedPosition is the serialised state of a feed: the stream, the last
// sequence number read of each shard and the shards read to their end.
type feedPosition struct {
	Stream string            `json:"a"`
	Seq    map[string]string `json:"s,omitempty"`
	Done   []string          `json:"d,omitempty"`
}

func (p *feedPosition) encode() string {
	b, _ := json.Marshal(p)
	return base64.RawURLEncoding.EncodeToString(b)
}

// feed reads one table's stream record by record.
type feed struct {
	op, table string
	api       *dynamodbstreams.Client
	pos       feedPosition
	latest    bool              // the first listing starts open shards at LATEST
	iters     map[string]string // shard → its iterator
	visited   bool              // the shards were listed once
}

func (r *Repo) newFeed(ctx context.Context, op, table string, c changesConfig) (*feed, error) {
	api := r.streams
	if api == nil {
		return nil, invalidf(op, "the client given to FromClient is not a *dynamodb.Client; a change feed needs one")
	}
	f := &feed{op: op, table: table, api: api, latest: c.latest, iters: map[string]string{}}
	if c.position != "" {
		raw, err := base64.RawURLEncoding.DecodeString(c.position)
		if err == nil {
			err = json.Unmarshal(raw, &f.pos)
		}
		if err != nil || f.pos.Stream == "" {
			return nil, invalidf(op, "FromPosition: not a position of a change feed")
		}
		f.latest = false
		return f, nil
	}
	out, err := api.ListStreams(ctx, &dynamodbstreams.ListStreamsInput{TableName: aws.String(table)})
	if err != nil {
		return nil, mapError(op, table, err)
	}
	var newest *stypes.Stream
	for i, s := range out.Streams {
		if newest == nil || aws.ToString(s.StreamLabel) > aws.ToString(newest.StreamLabel) {
			newest = &out.Streams[i]
		}
	}
	if newest == nil {
		return nil, invalidf(op, "table %s has no stream; declare one with schema.Stream", table)
	}
	f.pos.Stream = aws.ToString(newest.StreamArn)
	return f, nil
}

func (f *feed) err(err error) error { return mapError(f.op, f.table, err) }

// run reads the stream until each stops it (or fails) or a call fails. It
// records each record as read before each sees it.
func (f *feed) run(ctx context.Context, each func(stypes.Record) (bool, error)) error {
	wait := changesFirstWait
	relist := true
	for {
		if relist {
			if err := f.list(ctx); err != nil {
				return err
			}
			relist = false
		}
		progress := false
		for _, shard := range slices.Sorted(maps.Keys(f.iters)) {
			out, err := f.api.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: aws.String(f.iters[shard])})
			var expired *stypes.ExpiredIteratorException
			if errors.As(err, &expired) {
				// A slow loop outlived the iterator (15 minutes): reopen it
				// after the last change read.
				delete(f.iters, shard)
				relist, progress = true, true
				continue
			}
			if err != nil {
				return f.err(err)
			}
			for _, rec := range out.Records {
				if rec.Dynamodb != nil {
					if f.pos.Seq == nil {
						f.pos.Seq = map[string]string{}
					}
					f.pos.Seq[shard] = aws.ToString(rec.Dynamodb.SequenceNumber)
				}
				progress = true
				more, err := each(rec)
				if err != nil {
					return err
				}
				if !more {
					return nil
				}
			}
			if out.NextShardIterator == nil {
				delete(f.iters, shard)
				f.pos.Done = append(f.pos.Done, shard)
				relist, progress = true, true
				continue
			}
			f.iters[shard] = *out.NextShardIterator
		}
		if progress {
			wait = changesFirstWait
			continue
		}
		if len(f.iters) == 0 {
			relist = true // every shard read: wait for a child
		}
		if err := sleepCtx(ctx, wait); err != nil {
			return f.err(err)
		}
		wait = min(2*wait, changesMaxWait)
	}
}

// list lists the stream's shards and opens an iterator on each shard whose
// parent has been read to its end (or is no longer in the stream), so a
// child is read after its parent.
func (f *feed) list(ctx context.Context) error {
	var shards []stypes.Shard
	in := &dynamodbstreams.DescribeStreamInput{StreamArn: aws.String(f.pos.Stream)}
	for {
		out, err := f.api.DescribeStream(ctx, in)
		if err != nil {
			return f.err(err)
		}
		d := out.StreamDescription
		shards = append(shards, d.Shards...)
		if d.LastEvaluatedShardId == nil {
			break
		}
		in.ExclusiveStartShardId = d.LastEvaluatedShardId
	}
	listed := map[string]bool{}
	for _, s := range shards {
		listed[aws.ToString(s.ShardId)] = true
	}
	done := map[string]bool{}
	for _, id := range f.pos.Done {
		if listed[id] { // a trimmed shard is forgotten
			done[id] = true
		}
	}
	latest := f.latest && !f.visited
	f.visited = true
	for _, s := range shards {
		id := aws.ToString(s.ShardId)
		closed := s.SequenceNumberRange != nil && s.SequenceNumberRange.EndingSequenceNumber != nil
		if latest && closed {
			done[id] = true
		}
	}
	f.pos.Done = slices.Sorted(maps.Keys(done))
	for _, s := range shards {
		id := aws.ToString(s.ShardId)
		parent := aws.ToString(s.ParentShardId)
		if done[id] || f.iters[id] != "" || (parent != "" && listed[parent] && !done[parent]) {
			continue
		}
		in := &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(f.pos.Stream), ShardId: aws.String(id), ShardIteratorType: stypes.ShardIteratorTypeTrimHorizon}
		switch seq := f.pos.Seq[id]; {
		case seq != "":
			in.ShardIteratorType, in.SequenceNumber = stypes.ShardIteratorTypeAfterSequenceNumber, aws.String(seq)
		case latest:
			in.ShardIteratorType = stypes.ShardIteratorTypeLatest
		}
		out, err := f.api.GetShardIterator(ctx, in)
		if err != nil {
			return f.err(err)
		}
		f.iters[id] = aws.ToString(out.ShardIterator)
	}
	for id := range f.pos.Seq {
		if !listed[id] {
			delete(f.pos.Seq, id)
		}
	}
	return nil
}

// fromStreamItem converts an item of a stream record to the DynamoDB type
// the schema loads (the two SDK packages declare the same union apart).
func fromStreamItem(m map[string]stypes.AttributeValue) map[string]types.AttributeValue {
	if m == nil {
		return nil
	}
	out := make(map[string]types.AttributeValue, len(m))
	for k, v := range m {
		out[k] = fromStreamValue(v)
	}
	return out
}

func fromStreamValue(v stypes.AttributeValue) types.AttributeValue {
	switch v := v.(type) {
	case *stypes.AttributeValueMemberS:
		return &types.AttributeValueMemberS{Value: v.Value}
	case *stypes.AttributeValueMemberN:
		return &types.AttributeValueMemberN{Value: v.Value}
	case *stypes.AttributeValueMemberB:
		return &types.AttributeValueMemberB{Value: v.Value}
	case *stypes.AttributeValueMemberBOOL:
		return &types.AttributeValueMemberBOOL{Value: v.Value}
	case *stypes.AttributeValueMemberNULL:
		return &types.AttributeValueMemberNULL{Value: v.Value}
	case *stypes.AttributeValueMemberSS:
		return &types.AttributeValueMemberSS{Value: v.Value}
	case *stypes.AttributeValueMemberNS:
		return &types.AttributeValueMemberNS{Value: v.Value}
	case *stypes.AttributeValueMemberBS:
		return &types.AttributeValueMemberBS{Value: v.Value}
	case *stypes.AttributeValueMemberL:
		l := make([]types.AttributeValue, len(v.Value))
		for i, e := range v.Value {
			l[i] = fromStreamValue(e)
		}
		return &types.AttributeValueMemberL{Value: l}
	case *stypes.AttributeValueMemberM:
		return &types.AttributeValueMemberM{Value: fromStreamItem(v.Value)}
	}
	return nil
}

// streamsClient returns the DynamoDB Streams client over the configuration
// of c (endpoint, region, credentials, HTTP client, retries and middleware),
// adding the APIOptions of a client the repo did not build.
func streamsClient(c *dynamodb.Client, extra ...func(*dynamodb.Options)) *dynamodbstreams.Client {
	o := c.Options()
	for _, fn := range extra {
		fn(&o)
	}
	return dynamodbstreams.New(dynamodbstreams.Options{
		Region:           o.Region,
		BaseEndpoint:     o.BaseEndpoint,
		Credentials:      o.Credentials,
		HTTPClient:       o.HTTPClient,
		Retryer:          o.Retryer,
		RetryMaxAttempts: o.RetryMaxAttempts,
		RetryMode:        o.RetryMode,
		APIOptions:       o.APIOptions,
		Logger:           o.Logger,
		ClientLogMode:    o.ClientLogMode,
		AppID:            o.AppID,
	})
}
