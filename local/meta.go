package local

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/local/storage"
	"github.com/dynamogo/dynamo/local/vector"
)

// Item is one item as the server handles it.
type Item = map[string]types.AttributeValue

// itemOf decodes a stored item (nil for the zero Value). The engine made or
// checked every Value it holds, so an error is a bug: the request fails
// (run turns the panic into an InternalServerError) rather than answer
// from part of an item.
func itemOf(v storage.Value) Item {
	it, err := v.Item()
	if err != nil {
		panic(err)
	}
	return it
}

// attrsOf decodes the attributes names (sorted) of a stored item into dst,
// as itemOf decodes all of them.
func attrsOf(v storage.Value, dst Item, names []string) Item {
	it, err := v.Attrs(dst, names)
	if err != nil {
		panic(err)
	}
	return it
}

// tableMeta is a table's definition and settings, persisted as JSON in the
// engine's catalog under "table/<name>". Later features add their state as
// fields here (Tags and TTL are reserved; Ext holds anything else).
type tableMeta struct {
	Name               string       `json:"name"`
	ID                 string       `json:"id"`
	Created            float64      `json:"created"` // epoch seconds, as DescribeTable reports it
	Hash               keyAttr      `json:"hash"`
	Range              keyAttr      `json:"range,omitzero"`
	AttrDefs           []keyAttr    `json:"attrDefs"`
	Billing            string       `json:"billing"` // PROVISIONED or PAY_PER_REQUEST
	Read               int64        `json:"read"`
	Write              int64        `json:"write"`
	BillingChanged     float64      `json:"billingChanged,omitempty"`
	LastIncrease       float64      `json:"lastIncrease,omitempty"`
	LastDecrease       float64      `json:"lastDecrease,omitempty"`
	Decreases          int64        `json:"decreases,omitempty"`
	Indexes            []*indexMeta `json:"indexes,omitempty"` // GSIs and LSIs in creation order
	Stream             *streamMeta  `json:"stream,omitempty"`
	DeletionProtection bool         `json:"deletionProtection,omitempty"`
	TableClass         string       `json:"tableClass,omitempty"`

	Vectors []vector.Definition `json:"vectors,omitempty"` // vector indexes (search.go)

	Tags []tagMeta                  `json:"tags,omitempty"` // TagResource (part 2)
	TTL  *ttlMeta                   `json:"ttl,omitempty"`  // UpdateTimeToLive (part 2)
	Ext  map[string]json.RawMessage `json:"ext,omitempty"`  // other extensions, by feature name
}

type keyAttr struct {
	Name string `json:"name,omitempty"`
	Type string `json:"type,omitempty"` // S, N or B
}

type indexMeta struct {
	Name       string    `json:"name"`
	Local      bool      `json:"local,omitempty"`
	Hash       keyAttr   `json:"hash"`
	Range      keyAttr   `json:"range,omitzero"`
	MoreHash   []keyAttr `json:"moreHash,omitempty"`  // a GSI's partition attributes after Hash (multikey.go)
	MoreRange  []keyAttr `json:"moreRange,omitempty"` // a GSI's sort attributes after Range
	Projection string    `json:"projection"`          // ALL, KEYS_ONLY or INCLUDE
	NonKey     []string  `json:"nonKey,omitempty"`
	Read       int64     `json:"read,omitempty"`
	Write      int64     `json:"write,omitempty"`
}

type streamMeta struct {
	ViewType string `json:"viewType"`
	Label    string `json:"label"`
}

type tagMeta struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

type ttlMeta struct {
	Attribute string `json:"attribute"`
	Enabled   bool   `json:"enabled"`
}

// table is a live table: its definition, its items and its indexes. mu is
// the one lock of the table: every write holds it exclusively while it reads
// the old item, checks conditions and writes the item and every index entry,
// so single-item writes are atomic, conditional writes linearizable, and
// indexes never disagree with the table. Readers hold it shared.
type table struct {
	mu      sync.RWMutex
	meta    *tableMeta
	engine  storage.Engine // writes go through its Apply (write.go)
	items   storage.Collection
	indexes []*index   // aligned with meta.Indexes
	deleted bool       // set by DeleteTable; holders of a stale pointer see ResourceNotFound
	vectors vector.Set // aligned with meta.Vectors (search.go)
	stream  *stream    // the enabled stream, nil if none (stream.go)
	history *history   // point-in-time recovery's change log, nil if off (backup_pitr.go)
	// lastStream is the label of the table's disabled stream, which
	// DescribeTable still reports as the latest.
	lastStream string
	// ticket is that of the last write a Deferred engine may not have made
	// durable yet (write.go): a call that sees the table waits for it.
	ticket storage.Ticket
}

type index struct {
	meta *indexMeta
	coll storage.Collection
}

func (t *table) index(name string) *index {
	for _, ix := range t.indexes {
		if ix.meta.Name == name {
			return ix
		}
	}
	return nil
}

// keyNames lists the table's key attribute names (hash, then range).
func (m *tableMeta) keyNames() []string {
	if m.Range.Name == "" {
		return []string{m.Hash.Name}
	}
	return []string{m.Hash.Name, m.Range.Name}
}

func (m *tableMeta) clone() *tableMeta {
	c := *m
	c.AttrDefs = append([]keyAttr(nil), m.AttrDefs...)
	c.Indexes = make([]*indexMeta, len(m.Indexes))
	for i, ix := range m.Indexes {
		x := *ix
		c.Indexes[i] = &x
	}
	c.Tags = append([]tagMeta(nil), m.Tags...)
	c.Vectors = append([]vector.Definition(nil), m.Vectors...)
	if m.Stream != nil {
		s := *m.Stream
		c.Stream = &s
	}
	if m.TTL != nil {
		x := *m.TTL
		c.TTL = &x
	}
	return &c
}

func tableCollection(name string) string         { return "t/" + name }
func indexCollection(table, index string) string { return "i/" + table + "/" + index }
func metaKey(name string) string                 { return "table/" + name }

// saveMeta persists the table definition; the caller holds t.mu.
func (s *Server) saveMeta(m *tableMeta) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return s.engine.PutMeta(metaKey(m.Name), b)
}

// loadTables restores the tables of the engine's catalog (a durable engine's
// tables survive restarts). Index sizes and the table size are recomputed.
func (s *Server) loadTables() error {
	metas, err := s.engine.Meta()
	if err != nil {
		return err
	}
	names := make([]string, 0, len(metas))
	for k := range metas {
		if strings.HasPrefix(k, metaKey("")) { // other entries are the accounts' (tenant.go)
			names = append(names, k)
		}
	}
	sort.Strings(names)
	for _, k := range names {
		if !strings.HasPrefix(k, "table/") {
			continue // another feature's entry (streams)
		}
		var m tableMeta
		if err := json.Unmarshal(metas[k], &m); err != nil {
			return err
		}
		t, err := s.openTable(&m)
		if err != nil {
			return err
		}
		s.tables[m.Name] = t
	}
	if err := s.loadBackups(metas); err != nil {
		return err
	}
	return s.loadStreams(metas)
}

// openTable opens the collections of a table definition.
func (s *Server) openTable(m *tableMeta) (*table, error) {
	items, err := s.engine.Collection(tableCollection(m.Name))
	if err != nil {
		return nil, err
	}
	t := &table{meta: m, engine: s.engine, items: items}
	for _, im := range m.Indexes {
		c, err := s.engine.Collection(indexCollection(m.Name, im.Name))
		if err != nil {
			return nil, err
		}
		t.indexes = append(t.indexes, &index{meta: im, coll: c})
	}
	if err := t.openVectors(); err != nil {
		return nil, err
	}
	if err := s.openHistory(t); err != nil {
		return nil, err
	}
	return t, nil
}

// lookup returns the named table, or ResourceNotFoundException.
func (s *Server) lookup(name string) (*table, error) {
	s.mu.RLock()
	t := s.tables[name]
	s.mu.RUnlock()
	if t == nil {
		return nil, notFound("")
	}
	return t, nil
}

// readTable returns the named table locked for reading (t.mu.RUnlock when
// done), seen by c (call.see).
func (s *Server) readTable(c *call, name string) (*table, error) {
	t, err := s.lookup(name)
	if err != nil {
		return nil, err
	}
	t.mu.RLock()
	if t.deleted {
		t.mu.RUnlock()
		return nil, notFound("")
	}
	c.seeTable(t)
	return t, nil
}

// writeTable returns the named table locked for writing (t.mu.Unlock when
// done), seen by c (call.see).
func (s *Server) writeTable(c *call, name string) (*table, error) {
	t, err := s.lookup(name)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	if t.deleted {
		t.mu.Unlock()
		return nil, notFound("")
	}
	c.seeTable(t)
	return t, nil
}

// writeTables locks several tables for writing, in name order so concurrent
// multi-table writers (BatchWriteItem, TransactWriteItems) cannot deadlock.
// The tables are looked up before any is locked: DeleteTable holds the
// server lock while it waits for a table's, so taking the server lock with a
// table locked could deadlock. Every name must exist; duplicates count once.
func (s *Server) writeTables(c *call, names []string) (map[string]*table, func(), error) {
	return s.lockTables(c, names, (*sync.RWMutex).Lock, (*sync.RWMutex).Unlock)
}

// readTables locks several tables for reading, in the same order as
// writeTables (so the two cannot deadlock with each other).
func (s *Server) readTables(c *call, names []string) (map[string]*table, func(), error) {
	return s.lockTables(c, names, (*sync.RWMutex).RLock, (*sync.RWMutex).RUnlock)
}

// lockTables is writeTables and readTables, with the table lock's lock and
// unlock methods; c sees every table it locks.
func (s *Server) lockTables(c *call, names []string, lock, unlockOne func(*sync.RWMutex)) (map[string]*table, func(), error) {
	sorted := slices.Compact(slices.Sorted(slices.Values(names)))
	ts := make([]*table, len(sorted))
	s.mu.RLock()
	for i, n := range sorted {
		ts[i] = s.tables[n]
	}
	s.mu.RUnlock()
	for _, t := range ts {
		if t == nil {
			return nil, nil, notFound("")
		}
	}
	locked := 0
	unlock := func() {
		for i := locked - 1; i >= 0; i-- {
			unlockOne(&ts[i].mu)
		}
	}
	out := make(map[string]*table, len(ts))
	for i, t := range ts {
		lock(&t.mu)
		locked++
		if t.deleted {
			unlock()
			return nil, nil, notFound("")
		}
		c.seeTable(t)
		out[sorted[i]] = t
	}
	return out, unlock, nil
}
