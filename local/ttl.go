package local

import (
	"strconv"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/internal/limits"
	"github.com/dynamogo/dynamo/local/storage"
)

// Time to live (API_UpdateTimeToLive.html, API_DescribeTimeToLive.html,
// TTL.html / howitworks-ttl.html). A change takes effect at once: the
// service's ENABLING and DISABLING phases, and its limit of one change per
// hour, do not exist here. Expired items are deleted by the sweeper
// (WithTTLSweep) or by SweepExpired, through the same write path as
// DeleteItem, so indexes and vector indexes stay in step.

// ttlMaxAge is how far in the past an expiry time may be and still count:
// DynamoDB ignores TTL values more than five years old (howitworks-ttl.html).
const ttlMaxAge = 5 * 365 * 24 * time.Hour

type ttlSpec struct {
	AttributeName *string
	Enabled       *bool
}

func (s *Server) updateTimeToLive(c *call) (any, error) {
	var in struct {
		TableName               *string
		TimeToLiveSpecification *ttlSpec
	}
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	var cs constraints
	cs.name(in.TableName, "tableName", true)
	spec := in.TimeToLiveSpecification
	if spec == nil {
		cs.add(nil, "timeToLiveSpecification", ruleNotNull)
	} else {
		switch a := spec.AttributeName; {
		case a == nil:
			cs.add(nil, "timeToLiveSpecification.attributeName", ruleNotNull)
		case len(*a) < 1:
			cs.add(*a, "timeToLiveSpecification.attributeName", "Member must have length greater than or equal to 1")
		case len(*a) > limits.MaxNameLen:
			cs.add(*a, "timeToLiveSpecification.attributeName", "Member must have length less than or equal to 255")
		}
		if spec.Enabled == nil {
			cs.add(nil, "timeToLiveSpecification.enabled", ruleNotNull)
		}
	}
	if err := cs.err(); err != nil {
		return nil, err
	}
	t, err := s.writeTable(c, *in.TableName)
	if err != nil {
		return nil, tableNotFound(*in.TableName)
	}
	defer t.mu.Unlock()
	cur := t.meta.TTL
	enabled := cur != nil && cur.Enabled
	attr := *spec.AttributeName
	switch {
	case *spec.Enabled && enabled:
		return nil, validation("TimeToLive is already enabled")
	case !*spec.Enabled && !enabled:
		return nil, validation("TimeToLive is already disabled")
	case !*spec.Enabled && cur.Attribute != attr:
		return nil, validationf("TimeToLive is active on a different AttributeName: current AttributeName is %s", cur.Attribute)
	}
	m := t.meta.clone()
	m.TTL = &ttlMeta{Attribute: attr, Enabled: *spec.Enabled}
	if err := s.saveMeta(m); err != nil {
		return nil, err
	}
	t.meta = m
	return map[string]any{"TimeToLiveSpecification": map[string]any{"AttributeName": attr, "Enabled": *spec.Enabled}}, nil
}

func (s *Server) describeTimeToLive(c *call) (any, error) {
	in, err := s.tableFromName(c)
	if err != nil {
		return nil, err
	}
	t, err := s.readTable(c, *in.TableName)
	if err != nil {
		return nil, tableNotFound(*in.TableName)
	}
	defer t.mu.RUnlock()
	d := map[string]any{"TimeToLiveStatus": "DISABLED"}
	if ttl := t.meta.TTL; ttl != nil && ttl.Enabled {
		d = map[string]any{"TimeToLiveStatus": "ENABLED", "AttributeName": ttl.Attribute}
	}
	return map[string]any{"TimeToLiveDescription": d}, nil
}

// expired reports whether item has expired at now under the table's TTL
// attribute: only a number of epoch seconds counts, at or before now and
// not more than five years before it. Another type, or a far-future value,
// keeps the item.
func expired(item Item, attr string, now time.Time) bool {
	v, ok := item[attr].(*types.AttributeValueMemberN)
	if !ok {
		return false
	}
	f, err := strconv.ParseFloat(v.Value, 64)
	if err != nil {
		return false
	}
	at := float64(now.UnixNano()) / 1e9
	return f <= at && f >= at-ttlMaxAge.Seconds()
}

// SweepExpired deletes every item whose TTL has passed, in every table
// with TTL enabled, and returns how many it deleted. The sweeper started by
// WithTTLSweep calls it periodically; tests may call it directly.
//
// Each table is scanned under its read lock; the expired items are then
// deleted under the write lock, ttlChunk at a time, each re-read and
// re-checked first (a write in between may have renewed it), so writers
// wait only for the deletes, and between chunks not even for those.
func (s *Server) SweepExpired() int {
	s.mu.RLock()
	names := make([]string, 0, len(s.tables))
	for n := range s.tables {
		names = append(names, n)
	}
	s.mu.RUnlock()
	now := s.now()
	total := 0
	for _, n := range names {
		t, err := s.readTable(nil, n)
		if err != nil {
			continue
		}
		attr, keys := t.expiredKeys(now)
		t.mu.RUnlock()
		if len(keys) == 0 {
			continue
		}
		for len(keys) > 0 {
			chunk := keys[:min(ttlChunk, len(keys))]
			keys = keys[len(chunk):]
			if t, err = s.writeTable(nil, n); err != nil {
				break
			}
			// A chunk's deletes are made durable together once the table
			// is unlocked, so writers wait for none of their fsyncs. Until
			// then whoever reads the table waits for them, as for any
			// write.
			c := new(call)
			deleted := t.deleteExpired(c, attr, chunk, now)
			t.mu.Unlock()
			if s.durable(c) != nil {
				break
			}
			total += deleted
		}
	}
	return total + s.sweepTenants()
}

// expiredKeys lists the storage keys of the expired items; the caller
// holds t.mu.
func (t *table) expiredKeys(now time.Time) (string, [][]byte) {
	ttl := t.meta.TTL
	if ttl == nil || !ttl.Enabled {
		return "", nil
	}
	var keys [][]byte
	names := []string{ttl.Attribute}
	var attrs Item // each item's TTL attribute only, one map reused
	t.items.Ascend(nil, nil, func(k []byte, v storage.Value) bool {
		if attrs = attrsOf(v, attrs, names); expired(attrs, ttl.Attribute, now) {
			keys = append(keys, append([]byte(nil), k...))
		}
		return true
	})
	return ttl.Attribute, keys
}

// deleteExpired deletes the items under keys that are still expired under
// the same TTL attribute, for c; the caller holds t.mu exclusively.
func (t *table) deleteExpired(c *call, attr string, keys [][]byte, now time.Time) int {
	if ttl := t.meta.TTL; ttl == nil || !ttl.Enabled || ttl.Attribute != attr {
		return 0
	}
	// The deletes, each with its index entries, go to the engine in batches
	// of up to ttlBatch items: each batch is all or nothing and its record
	// stays small.
	n, staged := 0, 0
	b := writeBatch{ttl: true}
	flush := func() {
		if b.commit(t.engine, c) == nil {
			n += staged
		}
		b, staged = writeBatch{ttl: true}, 0
	}
	for _, k := range keys {
		v, _, err := t.items.Get(k)
		if err != nil || v.IsZero() || !expired(itemOf(v), attr, now) {
			continue
		}
		if t.stage(&b, k, itemOf(v), nil, storage.Value{}, &meter{}) != nil {
			continue // stage left the batch as it was
		}
		if staged++; staged == ttlBatch {
			flush()
		}
	}
	flush()
	return n
}

// ttlBatch is how many expired items one engine batch deletes, and
// ttlChunk how many a sweep deletes per hold of a table's lock: a durable
// engine holds a chunk's records in memory until the sweep waits for them.
const (
	ttlBatch = 256
	ttlChunk = 4 * ttlBatch
)

// --- the sweeper ---

// sweeper runs SweepExpired every period until the server closes.
type sweeper struct {
	period time.Duration
	stop   chan struct{}
	done   sync.WaitGroup
	swept  func(n int) // called after each periodic sweep (tests synchronise on it)
}

// WithTTLSweep makes the server delete expired items every period (the
// service does it within days; tests want milliseconds). Without it expired
// items stay until SweepExpired is called. Combine with WithClock to drive
// expiry from a test clock.
func WithTTLSweep(period time.Duration) Option {
	return func(s *Server) { s.sweep.period = period }
}

func (s *Server) startSweeper() {
	if s.sweep.period <= 0 {
		return
	}
	s.sweep.stop = make(chan struct{})
	s.sweep.done.Add(1)
	go func() {
		defer s.sweep.done.Done()
		tick := time.NewTicker(s.sweep.period)
		defer tick.Stop()
		for {
			select {
			case <-s.sweep.stop:
				return
			case <-tick.C:
				n := s.SweepExpired()
				if s.sweep.swept != nil {
					s.sweep.swept(n)
				}
			}
		}
	}()
}

func (s *Server) stopSweeper() {
	if s.sweep.stop == nil {
		return
	}
	close(s.sweep.stop)
	s.sweep.done.Wait()
}
