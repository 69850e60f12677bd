package local

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"sync"

	"github.com/dynamogo/dynamo/codec/ddbjson"

	"github.com/dynamogo/dynamo/local/storage"

	"github.com/dynamogo/dynamo/local/eval"
)

// itemJSON decodes an item, a key or ExpressionAttributeValues from
// DynamoDB JSON inside a request decoded with encoding/json. JSON null leaves
// it nil; {} gives an empty, non-nil map (DynamoDB tells the two apart).
type itemJSON Item

func (it *itemJSON) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*it = nil
		return nil
	}
	m, err := ddbjson.UnmarshalItem(b)
	if err != nil {
		return jsonError(err)
	}
	if m == nil {
		m = Item{}
	}
	*it = m
	return nil
}

// jsonError maps a ddbjson error to DynamoDB's answer: a SerializationException,
// or a ValidationException for the shapes DynamoDB validates.
func jsonError(err error) error {
	var se *ddbjson.SyntaxError
	if errors.As(err, &se) {
		if se.Validation {
			return validation(se.Msg)
		}
		return serialization(se.Msg)
	}
	return serialization(err.Error())
}

// resp builds a JSON object response by appending members; the hot paths
// use it instead of encoding/json.
type resp struct {
	b     []byte
	first bool
}

var respPool = sync.Pool{New: func() any { return &resp{b: make([]byte, 0, 512)} }}

// newResp returns a builder whose buffer comes from a pool; ServeHTTP
// returns it once the response is written.
func newResp() *resp {
	r := respPool.Get().(*resp)
	r.b = append(r.b[:0], '{')
	r.first = true
	return r
}

// pagePool keeps the buffers of pages of items (Query, Scan: up to 1 MB of
// items, about 1.5 MB of JSON), apart from respPool's small ones, so that
// paging through a table does not allocate and clear megabytes a page.
var pagePool sync.Pool

const smallResp, largeResp = 64 << 10, 4 << 20

func putRespBuf(r rawJSON) {
	switch {
	case r == nil:
	case cap(r.b) <= smallResp:
		respPool.Put(r)
	case cap(r.b) <= largeResp:
		pagePool.Put(r)
	}
}

// grow makes room for n more bytes, from pagePool for a large page.
func (r *resp) grow(n int) {
	if len(r.b)+n <= cap(r.b) {
		return
	}
	if len(r.b)+n > smallResp {
		if big, ok := pagePool.Get().(*resp); ok && cap(big.b) >= len(r.b)+n {
			small := r.b
			r.b = append(big.b[:0], small...)
			respPool.Put(&resp{b: small[:0]})
			return
		}
	}
	r.b = slices.Grow(r.b, n)
}

func (r *resp) key(k string) {
	if !r.first {
		r.b = append(r.b, ',')
	}
	r.first = false
	r.b = append(r.b, '"')
	r.b = append(r.b, k...)
	r.b = append(r.b, '"', ':')
}

func (r *resp) item(k string, it Item) error {
	r.key(k)
	var err error
	r.b, err = ddbjson.AppendItem(r.b, it)
	return err
}

func (r *resp) items(k string, its []outItem) error {
	// A page of stored items is up to 1 MB: size the buffer once (the JSON
	// of an encoding is about half as long again) instead of doubling it.
	n := 0
	for _, it := range its {
		n += len(it.v.Encoded())*3/2 + 16
	}
	r.grow(n + len(k) + 5)
	r.key(k)
	return r.itemList(its)
}

// itemList appends a JSON array of items.
func (r *resp) itemList(its []outItem) error {
	r.b = append(r.b, '[')
	for i, it := range its {
		if i > 0 {
			r.b = append(r.b, ',')
		}
		var err error
		if r.b, err = it.appendJSON(r.b); err != nil {
			return err
		}
	}
	r.b = append(r.b, ']')
	return nil
}

// stored appends a stored item under k, projected by ex: straight from
// its encoding when ex projects nothing.
func (r *resp) stored(k string, v storage.Value, ex *eval.Compiled) error {
	if ex.HasProjection() {
		return r.item(k, ex.Project(attrsOf(v, nil, ex.ProjectionAttributes())))
	}
	r.key(k)
	r.b = v.AppendJSON(r.b)
	return nil
}

func (r *resp) int(k string, v int) {
	r.key(k)
	r.b = strconv.AppendInt(r.b, int64(v), 10)
}

func (r *resp) json(k string, v any) error {
	r.key(k)
	b, err := json.Marshal(v)
	r.b = append(r.b, b...)
	return err
}

func (r *resp) raw(k string, v []byte) {
	r.key(k)
	r.b = append(r.b, v...)
}

func (r *resp) done() rawJSON {
	r.b = append(r.b, '}')
	return r
}

// Consumed capacity (API_ConsumedCapacity.html). TOTAL reports the table's
// name and the units of the whole call; INDEXES adds the split between the
// table and each index.
type capacityUnits struct {
	CapacityUnits      float64
	ReadCapacityUnits  float64 `json:",omitempty"`
	WriteCapacityUnits float64 `json:",omitempty"`
}

type consumedCapacity struct {
	TableName              string
	CapacityUnits          float64
	ReadCapacityUnits      float64                   `json:",omitempty"`
	WriteCapacityUnits     float64                   `json:",omitempty"`
	Table                  *capacityUnits            `json:",omitempty"`
	GlobalSecondaryIndexes map[string]capacityUnits  `json:",omitempty"`
	LocalSecondaryIndexes  map[string]capacityUnits  `json:",omitempty"`
	VectorIndexes          map[string]vectorCapacity `json:",omitempty"` // search.go
}

// meter accumulates the units of one call on one table.
type meter struct {
	mode    string // "", NONE, TOTAL or INDEXES
	write   bool
	table   float64
	indexes map[string]float64
	vectors map[string]float64 // VectorWriteRequestBytes by index (search.go)
}

func (m *meter) on() bool { return m.mode == "TOTAL" || m.mode == "INDEXES" }

func (m *meter) addIndex(name string, units float64) {
	if !m.on() || units == 0 {
		return
	}
	if m.indexes == nil {
		m.indexes = map[string]float64{}
	}
	m.indexes[name] += units
}

func (m *meter) result(t *tableMeta) *consumedCapacity {
	if !m.on() {
		return nil
	}
	total := m.table
	for _, u := range m.indexes {
		total += u
	}
	// Only CapacityUnits is reported, as DynamoDB does (the API reference
	// lists Read/WriteCapacityUnits, but the service and DynamoDB Local 3.3.1
	// leave them out for single-table calls).
	c := &consumedCapacity{TableName: t.Name, CapacityUnits: total}
	split := func(u float64) capacityUnits { return capacityUnits{CapacityUnits: u} }
	c.VectorIndexes = m.vectorResult()
	if m.mode == "INDEXES" {
		tu := split(m.table)
		c.Table = &tu
		for name, u := range m.indexes {
			ix := findIndex(t.Indexes, name)
			if ix != nil && ix.Local {
				if c.LocalSecondaryIndexes == nil {
					c.LocalSecondaryIndexes = map[string]capacityUnits{}
				}
				c.LocalSecondaryIndexes[name] = split(u)
			} else {
				if c.GlobalSecondaryIndexes == nil {
					c.GlobalSecondaryIndexes = map[string]capacityUnits{}
				}
				c.GlobalSecondaryIndexes[name] = split(u)
			}
		}
	}
	return c
}

// readUnits: 4 KB per unit, rounded up, at least one; eventually consistent
// reads cost half (CapacityUnitCalculations.html).
func readUnits(size int, consistent bool) float64 {
	u := math.Ceil(float64(size) / 4096)
	if u < 1 {
		u = 1
	}
	if !consistent {
		u /= 2
	}
	return u
}

// writeUnits: 1 KB per unit, rounded up, at least one.
func writeUnits(size int) float64 {
	u := math.Ceil(float64(size) / 1024)
	if u < 1 {
		u = 1
	}
	return u
}

func cloneItem(it Item) Item {
	out := make(Item, len(it))
	for k, v := range it {
		out[k] = v
	}
	return out
}

func keyOf(m *tableMeta, it Item) Item {
	k := Item{m.Hash.Name: it[m.Hash.Name]}
	if m.Range.Name != "" {
		k[m.Range.Name] = it[m.Range.Name]
	}
	return k
}
