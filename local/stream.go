package local

import (
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dynamogo/dynamo/internal/itemsize"
	"github.com/dynamogo/dynamo/local/storage"
	"github.com/dynamogo/dynamo/local/streams"
)

// DynamoDB Streams (API_Operations_Amazon_DynamoDB_Streams.html), served on
// the same endpoint under the target prefix DynamoDBStreams_20120810.
//
// A table's stream is a stream value attached to the table; (*table).stage
// (write.go) adds each change's record to the engine batch that writes the
// item, so no item write exists without its record nor a record without its
// write, durable engine or not. Records, and the descriptors of the
// stream's shards, live in the stream's own engine collection; the stream
// itself in the engine's catalog (streamCatalog), so a durable server
// restores streams with their records, shards and positions.
//
// Lifecycle, as DynamoDB's: enabling makes a new stream with a new label;
// disabling it, or deleting its table, leaves it readable and DISABLED for
// 24 hours. Records older than 24 hours are trimmed. A shard closes, and a
// child opens, once it holds shardMaxRecords records or is 4 hours old.

// streamTargetPrefix is the X-Amz-Target prefix of the Streams API.
const streamTargetPrefix = "DynamoDBStreams_20120810."

var streamActions = map[string]handler{
	"ListStreams":      (*Server).listStreams,
	"DescribeStream":   (*Server).describeStream,
	"GetShardIterator": (*Server).getShardIterator,
	"GetRecords":       (*Server).getRecords,
}

// route returns the action and handler of an X-Amz-Target (nil if unknown).
func route(target string) (string, handler) {
	if a, ok := strings.CutPrefix(target, targetPrefix); ok {
		return a, actions[a]
	}
	if a, ok := strings.CutPrefix(target, streamTargetPrefix); ok {
		return a, streamActions[a]
	}
	return "", nil
}

// Limits of the local streams.
var (
	// shardMaxRecords is how many records a shard takes before a child
	// shard opens (tests lower it).
	shardMaxRecords = 10000
	// shardMaxAge is how long a shard stays open (DynamoDB rolls its
	// shards over about every four hours).
	shardMaxAge = 4 * time.Hour
	// streamMaxRecords caps the records a stream keeps: beyond it the
	// oldest are trimmed before their 24 hours, so memory stays bounded
	// even under a write rate the retention alone would not bound.
	streamMaxRecords = 1_000_000
)

// streamSet is the server's streams, live and disabled, by ARN.
type streamSet struct {
	mu    sync.Mutex
	byArn map[string]*stream
	seq   atomic.Uint64 // the last sequence number handed out, server-wide
}

// stream is one stream. Its fields below mu are guarded by *mu, the lock of
// the table it belongs to (writers hold it while they stage and commit), or
// a lock of its own once the table is gone.
type stream struct {
	srv                         *Server
	arn, table, label, viewType string
	hash, rng                   keyAttr
	keys                        []string // the key attributes' names, hash first
	created                     time.Time
	coll                        storage.Collection

	mu       *sync.RWMutex
	ticket   *storage.Ticket // the table's ticket (table.ticket), guarded by mu
	disabled time.Time       // zero while enabled; written holding mu and srv.streams.mu
	shards   []*streams.Shard
	times    recTimes // every retained record, oldest first
	shardN   int      // records in the open shard
	trimmed  uint64   // records up to this sequence number are deleted
}

// recTime is a retained record's sequence number and creation time (unix
// ms): what trimming, LATEST and AT_TIMESTAMP need without reading the
// engine.
type recTime struct {
	seq uint64
	ms  int64
}

// recTimes is a list of recTimes in chunks of a fixed size, so that
// appending one, which every recorded write does, never copies the others,
// and trimming the oldest frees whole chunks.
type recTimes struct {
	chunks [][]recTime // each of timesChunk entries
	head   int         // where the oldest is in chunks[0]
	n      int
}

const timesChunk = 512 // 8 KB

func (l *recTimes) len() int { return l.n }

// at is the i-th oldest.
func (l *recTimes) at(i int) recTime {
	i += l.head
	return l.chunks[i/timesChunk][i%timesChunk]
}

func (l *recTimes) push(r recTime) {
	i := l.head + l.n
	if i == len(l.chunks)*timesChunk {
		l.chunks = append(l.chunks, make([]recTime, timesChunk))
	}
	l.chunks[i/timesChunk][i%timesChunk] = r
	l.n++
}

// drop forgets the n oldest.
func (l *recTimes) drop(n int) {
	l.head, l.n = l.head+n, l.n-n
	full := l.head / timesChunk
	clear(l.chunks[:full])
	l.chunks, l.head = l.chunks[full:], l.head%timesChunk
}

// search is the index of the oldest for which f is true, len() if none;
// f must be false for a prefix of the list and true for the rest.
func (l *recTimes) search(f func(recTime) bool) int {
	return sort.Search(l.n, func(i int) bool { return f(l.at(i)) })
}

func streamKeys(hash, rng keyAttr) []string {
	if rng.Name == "" {
		return []string{hash.Name}
	}
	return []string{hash.Name, rng.Name}
}

// streamCatalog is a stream's catalog entry ("stream/<table>/<label>").
type streamCatalog struct {
	Table    string  `json:"table"`
	Label    string  `json:"label"`
	ViewType string  `json:"viewType"`
	Hash     keyAttr `json:"hash"`
	Range    keyAttr `json:"range,omitzero"`
	Created  int64   `json:"created"`            // unix ms
	Disabled int64   `json:"disabled,omitempty"` // unix ms
}

func streamMetaKey(table, label string) string    { return "stream/" + table + "/" + label }
func streamCollection(table, label string) string { return "s/" + table + "/" + label }

func (st *stream) catalog() streamCatalog {
	c := streamCatalog{Table: st.table, Label: st.label, ViewType: st.viewType, Hash: st.hash, Range: st.rng, Created: st.created.UnixMilli()}
	if !st.disabled.IsZero() {
		c.Disabled = st.disabled.UnixMilli()
	}
	return c
}

func (s *Server) saveStream(st *stream) error {
	b, err := json.Marshal(st.catalog())
	if err != nil {
		return err
	}
	return s.engine.PutMeta(streamMetaKey(st.table, st.label), b)
}

// syncStream makes t's stream agree with its definition after CreateTable,
// UpdateTable or DeleteTable changed it: a new stream when one is enabled,
// the old one disabled when the table's stream is off, relabelled or the
// table deleted. The caller holds t.mu exclusively.
func (s *Server) syncStream(t *table, now time.Time) error {
	want := t.meta.Stream
	if t.deleted {
		want = nil
	}
	if old := t.stream; old != nil && (want == nil || want.Label != old.label) {
		if err := old.disable(now); err != nil {
			return err
		}
		t.stream, t.lastStream = nil, old.label
	}
	if want == nil || t.stream != nil {
		return nil
	}
	m := t.meta
	st := &stream{
		srv: s, arn: s.tableArn(m.Name) + "/stream/" + want.Label, table: m.Name, label: want.Label,
		viewType: want.ViewType, hash: m.Hash, rng: m.Range, keys: streamKeys(m.Hash, m.Range), created: now, mu: &t.mu, ticket: &t.ticket,
	}
	// A stream of this name left by a crash before its catalog entry was
	// written starts again empty.
	if err := s.engine.Drop(streamCollection(m.Name, want.Label)); err != nil {
		return err
	}
	coll, err := s.engine.Collection(streamCollection(m.Name, want.Label))
	if err != nil {
		return err
	}
	st.coll = coll
	if err := st.openShard(now, ""); err != nil {
		return err
	}
	if err := s.saveStream(st); err != nil {
		return err
	}
	s.streams.mu.Lock()
	if s.streams.byArn == nil {
		s.streams.byArn = map[string]*stream{}
	}
	s.streams.byArn[st.arn] = st
	s.streams.mu.Unlock()
	t.stream = st
	return nil
}

// openShard closes the open shard, if any, and opens its child, in one
// engine batch. The caller holds st.mu exclusively.
func (st *stream) openShard(now time.Time, parent string) error {
	seq := &st.srv.streams.seq
	var ops []storage.Op
	var closed streams.Shard
	if n := len(st.shards); n > 0 {
		closed = *st.shards[n-1]
		closed.End = seq.Add(1)
		ops = append(ops, storage.Put(st.coll, streams.ShardKey(closed.Start), storage.MustEncode(closed.Item())))
	}
	start := seq.Add(1)
	sh := &streams.Shard{ID: streams.ShardID(st.label, start, now), Parent: parent, Start: start, Opened: now}
	ops = append(ops, storage.Put(st.coll, streams.ShardKey(start), storage.MustEncode(sh.Item())))
	if err := applyNoting(st.srv.engine, ops, st.ticket); err != nil {
		return err
	}
	if n := len(st.shards); n > 0 {
		*st.shards[n-1] = closed
	}
	st.shards = append(st.shards, sh)
	st.shardN = 0
	return nil
}

// disable closes the open shard and marks the stream DISABLED; it stays
// readable for 24 hours. The caller holds st.mu exclusively.
func (st *stream) disable(now time.Time) error {
	if n := len(st.shards); n > 0 && st.shards[n-1].End == 0 {
		closed := *st.shards[n-1]
		closed.End = st.srv.streams.seq.Add(1)
		if err := applyNoting(st.srv.engine, []storage.Op{storage.Put(st.coll, streams.ShardKey(closed.Start), storage.MustEncode(closed.Item()))}, st.ticket); err != nil {
			return err
		}
		*st.shards[n-1] = closed
	}
	st.srv.streams.mu.Lock()
	st.disabled = now
	st.srv.streams.mu.Unlock()
	return st.srv.saveStream(st)
}

// pendingRecord is a record staged in a writeBatch, made visible (counted
// and timed) once the batch commits.
type pendingRecord struct {
	st *stream
	t  recTime
}

// stageRecord adds to b the stream record of one item change (old → nu;
// enc is nu's encoding).
// A write that changes nothing writes no record (Streams.html: a PutItem or
// UpdateItem that does not change any data writes no stream record).
// The caller holds the table's lock exclusively.
func (st *stream) stageRecord(b *writeBatch, old, nu Item, enc storage.Value) error {
	if old != nil && nu != nil && equalItems(old, nu) {
		return nil
	}
	now := st.srv.now()
	if err := st.trim(now); err != nil {
		return err
	}
	if open := st.shards[len(st.shards)-1]; st.shardN >= shardMaxRecords || now.Sub(open.Opened) >= shardMaxAge {
		if err := st.openShard(now, open.ID); err != nil {
			return err
		}
	}
	r := streams.Record{Event: streams.Modify, Created: now, TTL: b.ttl}
	switch {
	case old == nil:
		r.Event = streams.Insert
	case nu == nil:
		r.Event = streams.Remove
	}
	switch st.viewType {
	case "NEW_IMAGE":
		r.New = nu
	case "OLD_IMAGE":
		r.Old = old
	case "NEW_AND_OLD_IMAGES":
		r.New, r.Old = nu, old
	}
	if r.New == nil && r.Old == nil {
		r.Keys = nu // Encode keeps only the keys
		if nu == nil {
			r.Keys = old
		}
	}
	seq := st.srv.streams.seq.Add(1)
	key, item, oldKey, err := r.Encode(seq, st.keys...)
	if err != nil {
		return err
	}
	// A record holding the new image stores the encoding the table's own
	// write made (enc); only an old image or a keys-only record is encoded.
	v := enc
	if r.New == nil {
		if v, err = storage.Encode(item); err != nil {
			return err
		}
	}
	b.ops = append(b.ops, storage.Put(st.coll, key, v))
	if oldKey != nil {
		if v, err = storage.Encode(r.Old); err != nil {
			return err
		}
		b.ops = append(b.ops, storage.Put(st.coll, oldKey, v))
	}
	b.records = append(b.records, pendingRecord{st: st, t: recTime{seq, now.UnixMilli()}})
	return nil
}

// committed makes a committed record visible.
func (p pendingRecord) committed() {
	p.st.times.push(p.t)
	p.st.shardN++
}

// trimmedAt is the sequence number up to which records are gone at now:
// deleted, older than 24 hours, or beyond the stream's cap. The caller holds
// st.mu.
func (st *stream) trimmedAt(now time.Time) (seq uint64, n int) {
	cut := now.Add(-streams.Retention).UnixMilli()
	n = st.times.search(func(r recTime) bool { return r.ms > cut })
	n = max(n, st.times.len()-streamMaxRecords)
	if n == 0 {
		return st.trimmed, 0
	}
	return max(st.trimmed, st.times.at(n-1).seq), n
}

// trim deletes the trimmed records from the engine, in batches: it waits
// for trimBatch of them so that trimming costs one engine write per
// trimBatch records. The caller holds st.mu exclusively.
func (st *stream) trim(now time.Time) error {
	const trimBatch = 64
	// This runs on every recorded write: it goes on only if there is a
	// batch to trim, beyond the cap or older than the retention.
	held := st.times.len()
	if held-streamMaxRecords < trimBatch && (held < trimBatch || st.times.at(trimBatch-1).ms > now.Add(-streams.Retention).UnixMilli()) {
		return nil
	}
	through, n := st.trimmedAt(now)
	if n < trimBatch {
		return nil
	}
	// The records go (every entry up to the next record: old images kept
	// apart too), with the descriptors of the closed shards they emptied,
	// and the watermark, so that a restart still knows what was trimmed.
	// The keys are copied into one buffer: the engine lends them only for
	// the call.
	var keys []byte
	var ends []int
	if err := st.coll.Ascend(streams.RecordKey(0), streams.RecordKey(through+1), func(k []byte, _ storage.Value) bool {
		keys = append(keys, k...)
		ends = append(ends, len(keys))
		return true
	}); err != nil {
		return err
	}
	ops := make([]storage.Op, 0, len(ends)+2)
	start := 0
	for _, end := range ends {
		ops = append(ops, storage.Delete(st.coll, keys[start:end:end]))
		start = end
	}
	gone := 0
	for _, sh := range st.shards[:len(st.shards)-1] {
		if sh.End == 0 || sh.End > through {
			break
		}
		ops = append(ops, storage.Delete(st.coll, streams.ShardKey(sh.Start)))
		gone++
	}
	ops = append(ops, storage.Put(st.coll, streams.TrimmedKey, storage.MustEncode(streams.Watermark(through))))
	if err := applyNoting(st.srv.engine, ops, st.ticket); err != nil {
		return err
	}
	st.times.drop(n)
	st.shards = st.shards[gone:]
	st.trimmed = through
	return nil
}

// --- restart ---

// loadStreams restores the streams of the engine's catalog after
// loadTables, attaches each table's live stream, and starts a stream for a
// table whose catalog entry says it has one but whose stream was never
// written (a crash in between).
func (s *Server) loadStreams(metas map[string][]byte) error {
	s.streams.byArn = map[string]*stream{}
	var last uint64
	for k, v := range metas {
		if !strings.HasPrefix(k, "stream/") {
			continue
		}
		var c streamCatalog
		if err := json.Unmarshal(v, &c); err != nil {
			return err
		}
		coll, err := s.engine.Collection(streamCollection(c.Table, c.Label))
		if err != nil {
			return err
		}
		st := &stream{
			srv: s, arn: s.tableArn(c.Table) + "/stream/" + c.Label, table: c.Table, label: c.Label,
			viewType: c.ViewType, hash: c.Hash, rng: c.Range, keys: streamKeys(c.Hash, c.Range), created: time.UnixMilli(c.Created), coll: coll,
		}
		if c.Disabled != 0 {
			st.disabled = time.UnixMilli(c.Disabled)
		}
		var ferr error
		coll.Ascend(nil, nil, func(key []byte, v storage.Value) bool {
			if streams.IsOldImageKey(key) {
				return true // read with its record
			}
			if string(key) == string(streams.TrimmedKey) {
				st.trimmed = streams.WatermarkOf(itemOf(v))
				return true
			}
			if seq, _, ms, ok := streams.KeyInfo(key); ok {
				st.times.push(recTime{seq, ms})
				last = max(last, seq)
				return true
			}
			sh, err := streams.ShardFromItem(itemOf(v))
			if err != nil {
				ferr = err
				return false
			}
			st.shards = append(st.shards, &sh)
			last = max(last, sh.Start, sh.End)
			return true
		})
		if ferr != nil {
			return ferr
		}
		if len(st.shards) == 0 {
			continue // its first shard never reached the engine: nothing to read
		}
		if open := st.shards[len(st.shards)-1]; open.End == 0 {
			st.shardN = st.times.len() - st.times.search(func(r recTime) bool { return r.seq > open.Start })
		}
		t := s.tables[c.Table]
		switch {
		case t != nil && t.meta.Stream != nil && t.meta.Stream.Label == c.Label && st.disabled.IsZero():
			st.mu, st.ticket, t.stream = &t.mu, &t.ticket, st
		case t != nil && epoch(st.created) >= t.meta.Created && c.Label > t.lastStream:
			st.mu, st.ticket, t.lastStream = &t.mu, &t.ticket, c.Label // a disabled stream of this table
		default:
			st.mu, st.ticket = new(sync.RWMutex), new(storage.Ticket) // its table is gone
		}
		s.streams.byArn[st.arn] = st
	}
	s.streams.seq.Store(last)
	for _, st := range s.streams.byArn {
		noteLabel(st.label)
	}
	now := s.now()
	for _, st := range s.streams.byArn {
		if t := s.tables[st.table]; st.disabled.IsZero() && (t == nil || t.stream != st) {
			if err := st.disable(now); err != nil {
				return err
			}
		}
	}
	for _, t := range s.tables {
		if err := s.syncStream(t, now); err != nil {
			return err
		}
	}
	return nil
}

// lastLabel is the time of the newest stream label handed out (unix ms):
// labels are timestamps, and two streams of a table enabled within one
// millisecond (or under a stopped test clock) must still differ.
var lastLabel atomic.Int64

const labelLayout = "2006-01-02T15:04:05.000"

// streamLabel is the label of a stream enabled at now: its time, or a
// millisecond after the last label handed out.
func streamLabel(now time.Time) string {
	ms := now.UnixMilli()
	for {
		last := lastLabel.Load()
		if ms <= last {
			ms = last + 1
		}
		if lastLabel.CompareAndSwap(last, ms) {
			return time.UnixMilli(ms).UTC().Format(labelLayout)
		}
	}
}

// noteLabel keeps labels of restored streams from being handed out again.
func noteLabel(label string) {
	if t, err := time.Parse(labelLayout, label); err == nil {
		for ms := t.UnixMilli(); ; {
			last := lastLabel.Load()
			if ms <= last || lastLabel.CompareAndSwap(last, ms) {
				return
			}
		}
	}
}

// --- lookups ---

// liveStreams returns the streams not yet expired, forgetting (and
// dropping) those disabled more than 24 hours ago.
func (s *Server) liveStreams(now time.Time) []*stream {
	s.streams.mu.Lock()
	var out, expired []*stream
	for arn, st := range s.streams.byArn {
		if !st.disabled.IsZero() && now.Sub(st.disabled) >= streams.Retention {
			delete(s.streams.byArn, arn)
			expired = append(expired, st)
			continue
		}
		out = append(out, st)
	}
	s.streams.mu.Unlock()
	for _, st := range expired {
		st.mu.Lock()
		s.engine.PutMeta(streamMetaKey(st.table, st.label), nil)
		s.engine.Drop(streamCollection(st.table, st.label))
		st.mu.Unlock()
	}
	sort.Slice(out, func(i, j int) bool { return out[i].arn < out[j].arn })
	return out
}

// findStream returns the stream of a StreamArn, or DynamoDB's error.
func (s *Server) findStream(arn string, now time.Time) (*stream, error) {
	if !strings.HasPrefix(arn, "arn:") || !strings.Contains(arn, ":table/") || !strings.Contains(arn, "/stream/") {
		return nil, validation("Invalid StreamArn")
	}
	for _, st := range s.liveStreams(now) {
		if st.arn == arn {
			return st, nil
		}
	}
	return nil, notFound("Requested resource not found: Stream: " + arn + " not found")
}

// recordSize is a record's SizeBytes: its keys and images.
func recordSize(r *streams.Record) int {
	return itemsize.Item(r.Keys) + itemsize.Item(r.New) + itemsize.Item(r.Old)
}

func (st *stream) shard(id string) *streams.Shard {
	for _, sh := range st.shards {
		if sh.ID == id {
			return sh
		}
	}
	return nil
}

func (st *stream) status() string {
	if st.disabled.IsZero() {
		return "ENABLED"
	}
	return "DISABLED"
}

// --- the actions ---

// Request constraints (API_streams_*.html).
func checkStreamArn(cs *constraints, v *string, path string, required bool) {
	if v == nil {
		if required {
			cs.add(nil, path, ruleNotNull)
		}
		return
	}
	switch n := len(*v); {
	case n < 37:
		cs.add(*v, path, "Member must have length greater than or equal to 37")
	case n > 1024:
		cs.add(*v, path, "Member must have length less than or equal to 1024")
	}
}

func checkShardID(cs *constraints, v *string, path string, required bool) {
	if v == nil {
		if required {
			cs.add(nil, path, ruleNotNull)
		}
		return
	}
	switch n := len(*v); {
	case n < 28:
		cs.add(*v, path, "Member must have length greater than or equal to 28")
	case n > 65:
		cs.add(*v, path, "Member must have length less than or equal to 65")
	}
}

func checkLimit(cs *constraints, v *int64, path string, most int64) {
	switch {
	case v == nil:
	case *v < 1:
		cs.add(*v, path, "Member must have value greater than or equal to 1")
	case *v > most:
		cs.add(*v, path, "Member must have value less than or equal to "+strconv.FormatInt(most, 10))
	}
}

type streamOut struct {
	StreamArn   string
	StreamLabel string
	TableName   string
}

func (s *Server) listStreams(c *call) (any, error) {
	var in struct {
		TableName               *string
		ExclusiveStartStreamArn *string
		Limit                   *int64
	}
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	var cs constraints
	cs.name(in.TableName, "tableName", false)
	checkStreamArn(&cs, in.ExclusiveStartStreamArn, "exclusiveStartStreamArn", false)
	checkLimit(&cs, in.Limit, "limit", 100)
	if err := cs.err(); err != nil {
		return nil, err
	}
	limit := 100
	if in.Limit != nil {
		limit = int(*in.Limit)
	}
	out := struct {
		Streams                []streamOut
		LastEvaluatedStreamArn string `json:",omitempty"`
	}{Streams: []streamOut{}}
	for _, st := range s.liveStreams(c.now) {
		if in.TableName != nil && st.table != *in.TableName {
			continue
		}
		if in.ExclusiveStartStreamArn != nil && st.arn <= *in.ExclusiveStartStreamArn {
			continue
		}
		if len(out.Streams) == limit {
			out.LastEvaluatedStreamArn = out.Streams[limit-1].StreamArn
			break
		}
		out.Streams = append(out.Streams, streamOut{st.arn, st.label, st.table})
	}
	return out, nil
}

type (
	seqRangeOut struct {
		EndingSequenceNumber   string `json:",omitempty"`
		StartingSequenceNumber string
	}
	shardOut struct {
		ParentShardId       string `json:",omitempty"`
		SequenceNumberRange seqRangeOut
		ShardId             string
	}
	streamDescription struct {
		CreationRequestDateTime float64
		KeySchema               []keySchemaOut
		LastEvaluatedShardId    string `json:",omitempty"`
		Shards                  []shardOut
		StreamArn               string
		StreamLabel             string
		StreamStatus            string
		StreamViewType          string
		TableName               string
	}
)

func (s *Server) describeStream(c *call) (any, error) {
	var in struct {
		StreamArn             *string
		Limit                 *int64
		ExclusiveStartShardId *string
		ShardFilter           *struct {
			Type    *string
			ShardId *string
		}
	}
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	var cs constraints
	checkStreamArn(&cs, in.StreamArn, "streamArn", true)
	checkLimit(&cs, in.Limit, "limit", 100)
	checkShardID(&cs, in.ExclusiveStartShardId, "exclusiveStartShardId", false)
	var parent *string
	if f := in.ShardFilter; f != nil {
		cs.enum(f.Type, "shardFilter.type", "CHILD_SHARDS")
		checkShardID(&cs, f.ShardId, "shardFilter.shardId", false)
		parent = f.ShardId
	}
	if err := cs.err(); err != nil {
		return nil, err
	}
	st, err := s.findStream(*in.StreamArn, c.now)
	if err != nil {
		return nil, err
	}
	limit := 100
	if in.Limit != nil {
		limit = int(*in.Limit)
	}
	st.mu.RLock()
	defer st.mu.RUnlock()
	c.see(*st.ticket)
	d := streamDescription{
		CreationRequestDateTime: epoch(st.created), KeySchema: keySchema(st.hash, st.rng), Shards: []shardOut{},
		StreamArn: st.arn, StreamLabel: st.label, StreamStatus: st.status(), StreamViewType: st.viewType, TableName: st.table,
	}
	trimmed, _ := st.trimmedAt(c.now)
	started := in.ExclusiveStartShardId == nil
	for _, sh := range st.shards {
		if !started {
			started = sh.ID == *in.ExclusiveStartShardId
			continue
		}
		if sh.End != 0 && sh.End <= trimmed {
			continue // every record of this closed shard is trimmed: it is gone
		}
		if parent != nil && sh.Parent != *parent {
			continue
		}
		if len(d.Shards) == limit {
			d.LastEvaluatedShardId = d.Shards[limit-1].ShardId
			break
		}
		o := shardOut{ParentShardId: sh.Parent, ShardId: sh.ID, SequenceNumberRange: seqRangeOut{StartingSequenceNumber: streams.FormatSeq(sh.Start)}}
		if sh.End != 0 {
			o.SequenceNumberRange.EndingSequenceNumber = streams.FormatSeq(sh.End)
		}
		d.Shards = append(d.Shards, o)
	}
	return map[string]any{"StreamDescription": d}, nil
}

func trimmedError() error {
	return &Error{Type: "TrimmedDataAccessException", Message: "The operation attempted to read past the oldest stream record in a shard."}
}

func (s *Server) getShardIterator(c *call) (any, error) {
	var in struct {
		StreamArn         *string
		ShardId           *string
		ShardIteratorType *string
		SequenceNumber    *string
		Timestamp         *float64 // epoch seconds
	}
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	var cs constraints
	checkStreamArn(&cs, in.StreamArn, "streamArn", true)
	checkShardID(&cs, in.ShardId, "shardId", true)
	if in.ShardIteratorType == nil {
		cs.add(nil, "shardIteratorType", ruleNotNull)
	} else {
		cs.enum(in.ShardIteratorType, "shardIteratorType", "TRIM_HORIZON", "LATEST", "AT_SEQUENCE_NUMBER", "AFTER_SEQUENCE_NUMBER", "AT_TIMESTAMP")
	}
	if v := in.SequenceNumber; v != nil && (len(*v) < 21 || len(*v) > 40) {
		cs.add(*v, "sequenceNumber", map[bool]string{true: "Member must have length greater than or equal to 21", false: "Member must have length less than or equal to 40"}[len(*v) < 21])
	}
	if err := cs.err(); err != nil {
		return nil, err
	}
	typ := *in.ShardIteratorType
	bySeq := typ == "AT_SEQUENCE_NUMBER" || typ == "AFTER_SEQUENCE_NUMBER"
	if bySeq && in.SequenceNumber == nil {
		return nil, validation("SequenceNumber must be specified when ShardIteratorType is " + typ)
	}
	if !bySeq && in.SequenceNumber != nil {
		return nil, validation("SequenceNumber can only be specified when ShardIteratorType is AT_SEQUENCE_NUMBER or AFTER_SEQUENCE_NUMBER")
	}
	if (typ == "AT_TIMESTAMP") != (in.Timestamp != nil) {
		return nil, validation("Timestamp must be specified when, and only when, ShardIteratorType is AT_TIMESTAMP")
	}
	st, err := s.findStream(*in.StreamArn, c.now)
	if err != nil {
		return nil, err
	}
	st.mu.RLock()
	defer st.mu.RUnlock()
	c.see(*st.ticket)
	sh := st.shard(*in.ShardId)
	if sh == nil {
		return nil, notFound("Requested resource not found: Shard does not exist")
	}
	trimmed, _ := st.trimmedAt(c.now)
	it := streams.Iterator{StreamArn: st.arn, ShardID: sh.ID, Created: c.now}
	switch typ {
	case "TRIM_HORIZON":
		it.After = max(sh.Start, trimmed)
		if sh.End != 0 {
			it.After = min(it.After, sh.End)
		}
	case "LATEST":
		it.After = sh.End
		if it.After == 0 {
			it.After = sh.Start
			if n := st.times.len(); n > 0 {
				it.After = max(it.After, st.times.at(n-1).seq)
			}
		}
	case "AT_TIMESTAMP":
		// The first record created at or after the time (records are in
		// time order: the server's clock only moves forward).
		ms := int64(*in.Timestamp * 1000)
		i := st.times.search(func(r recTime) bool { return r.ms >= ms })
		it.After = sh.Start
		if i > 0 {
			it.After = st.times.at(i - 1).seq
		}
		it.After = max(it.After, sh.Start, trimmed)
		if sh.End != 0 {
			it.After = min(it.After, sh.End)
		}
	default:
		n, ok := streams.ParseSeq(*in.SequenceNumber)
		if !ok || n <= sh.Start || (sh.End != 0 && n >= sh.End) {
			return nil, validationf("Invalid SequenceNumber %s for shard %s", *in.SequenceNumber, sh.ID)
		}
		if n <= trimmed {
			return nil, trimmedError()
		}
		it.After = n
		if typ == "AT_SEQUENCE_NUMBER" {
			it.After = n - 1
		}
	}
	return map[string]string{"ShardIterator": it.Encode()}, nil
}

// maxRecordsBytes is the most GetRecords returns in one call (1 MB).
const maxRecordsBytes = 1 << 20

func (s *Server) getRecords(c *call) (any, error) {
	var in struct {
		ShardIterator *string
		Limit         *int64
	}
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	var cs constraints
	if v := in.ShardIterator; v == nil {
		cs.add(nil, "shardIterator", ruleNotNull)
	} else if len(*v) < 1 || len(*v) > 2048 {
		cs.add(*v, "shardIterator", map[bool]string{true: "Member must have length greater than or equal to 1", false: "Member must have length less than or equal to 2048"}[len(*v) < 1])
	}
	checkLimit(&cs, in.Limit, "limit", 1000)
	if err := cs.err(); err != nil {
		return nil, err
	}
	it, ok := streams.ParseIterator(*in.ShardIterator)
	if !ok {
		return nil, validation("Invalid ShardIterator")
	}
	if age := c.now.Sub(it.Created); age > streams.IteratorTTL {
		return nil, &Error{Type: "ExpiredIteratorException", Message: "Iterator expired. The iterator was created at time " +
			it.Created.UTC().Format(time.UnixDate) + " while right now it is " + c.now.UTC().Format(time.UnixDate) +
			" which is further in the future than the tolerated delay of " + strconv.FormatInt(streams.IteratorTTL.Milliseconds(), 10) + " milliseconds."}
	}
	st, err := s.findStream(it.StreamArn, c.now)
	if err != nil {
		var e *Error
		if errors.As(err, &e) && e.Type == "ValidationException" {
			return nil, validation("Invalid ShardIterator")
		}
		return nil, err
	}
	limit := 1000
	if in.Limit != nil {
		limit = int(*in.Limit)
	}
	st.mu.RLock()
	defer st.mu.RUnlock()
	c.see(*st.ticket)
	sh := st.shard(it.ShardID)
	if sh == nil {
		return nil, notFound("Requested resource not found: Shard does not exist")
	}
	if trimmed, _ := st.trimmedAt(c.now); it.After < trimmed && trimmed > sh.Start {
		return nil, trimmedError()
	}
	r := newResp()
	r.key("Records")
	r.b = append(r.b, '[')
	end := streams.RecordsEnd
	if sh.End != 0 {
		end = streams.RecordKey(sh.End)
	}
	n, size, pos, more := 0, 0, it.After, false
	var ferr error
	// A record whose old image is stored apart waits for the entry that
	// follows it.
	var pending *streams.Record
	var pendingSeq uint64
	emit := func(seq uint64, rec *streams.Record) bool {
		if n > 0 {
			r.b = append(r.b, ',')
		}
		var err error
		if r.b, err = st.appendRecord(r.b, seq, rec); err != nil {
			ferr = err
			return false
		}
		n, size, pos = n+1, size+recordSize(rec), seq
		return true
	}
	st.coll.Ascend(streams.RecordKey(it.After+1), end, func(k []byte, v storage.Value) bool {
		if streams.IsOldImageKey(k) {
			if pending == nil {
				ferr = errors.New("streams: an old image without its record")
				return false
			}
			pending.Old = itemOf(v)
			rec := pending
			pending = nil
			return emit(pendingSeq, rec)
		}
		if pending != nil {
			ferr = errors.New("streams: a record without its old image")
			return false
		}
		if n == limit || size >= maxRecordsBytes {
			more = true
			return false
		}
		seq, rec, err := streams.Decode(k, itemOf(v), st.keys...)
		if err != nil {
			ferr = err
			return false
		}
		if streams.OldApart(k) {
			pending, pendingSeq = &rec, seq
			return true
		}
		return emit(seq, &rec)
	})
	if ferr == nil && pending != nil {
		ferr = errors.New("streams: a record without its old image")
	}
	if ferr != nil {
		return nil, ferr
	}
	r.b = append(r.b, ']')
	// A closed shard read to its end has no next iterator: the reader moves
	// on to its children (API_streams_GetRecords.html, NextShardIterator).
	if sh.End == 0 || more {
		next := streams.Iterator{StreamArn: st.arn, ShardID: sh.ID, After: pos, Created: c.now}
		r.key("NextShardIterator")
		r.b = appendJSONString(r.b, next.Encode())
	}
	return r.done(), nil
}

// appendRecord appends a record as GetRecords answers it
// (API_streams_Record.html, API_streams_StreamRecord.html).
func (st *stream) appendRecord(b []byte, seq uint64, rec *streams.Record) ([]byte, error) {
	r := resp{b: append(b, '{'), first: true}
	r.key("awsRegion")
	r.b = appendJSONString(r.b, st.srv.region)
	r.key("dynamodb")
	d := resp{b: append(r.b, '{'), first: true}
	// ApproximateCreationDateTime is rounded down to the second.
	d.key("ApproximateCreationDateTime")
	d.b = strconv.AppendInt(d.b, rec.Created.Unix(), 10)
	if err := d.item("Keys", rec.Keys); err != nil {
		return nil, err
	}
	if rec.New != nil {
		if err := d.item("NewImage", rec.New); err != nil {
			return nil, err
		}
	}
	if rec.Old != nil {
		if err := d.item("OldImage", rec.Old); err != nil {
			return nil, err
		}
	}
	d.key("SequenceNumber")
	d.b = append(append(append(d.b, '"'), streams.FormatSeq(seq)...), '"')
	d.int("SizeBytes", recordSize(rec))
	d.key("StreamViewType")
	d.b = appendJSONString(d.b, st.viewType)
	r.b = append(d.b, '}')
	r.first = false
	r.key("eventID")
	r.b = appendJSONString(r.b, streams.EventID(st.arn, seq))
	r.key("eventName")
	r.b = appendJSONString(r.b, rec.Event)
	r.key("eventSource")
	r.b = append(r.b, `"aws:dynamodb"`...)
	r.key("eventVersion")
	r.b = append(r.b, `"1.1"`...)
	if rec.TTL {
		r.key("userIdentity")
		r.b = append(r.b, `{"PrincipalId":"dynamodb.amazonaws.com","Type":"Service"}`...)
	}
	return append(r.b, '}'), nil
}
