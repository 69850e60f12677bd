package local

import (
	"encoding/binary"
	"encoding/json"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/local/storage"
)

// Point-in-time recovery (PointInTimeRecovery.html): while it is enabled a
// table keeps a history of its writes, one entry per item write holding the
// item's key, the time and the old image, staged in the write's own storage
// batch (write.go), so the history is exactly as durable as the items. A
// restore to T copies the current items and undoes, newest first, every
// write made after T: the state at T, to the millisecond.
//
// Entries older than the recovery period (RecoveryPeriodInDays, 35 by
// default) are trimmed as the table is written. DynamoDB's
// LatestRestorableDateTime is typically five minutes before now; here every
// write is in the history as soon as it returns, so it is now.

// pitrMeta is the table's point-in-time recovery setting, in its tableMeta's
// Ext. Since is when it was enabled (unix ns).
type pitrMeta struct {
	Since int64 `json:"since"`
	Days  int   `json:"days"`
}

const pitrExt = "pitr"

// history is the change log of a table with point-in-time recovery on;
// its fields change with the table's lock held exclusively.
type history struct {
	engine storage.Engine
	ticket *storage.Ticket // the table's (table.ticket)
	coll   storage.Collection
	now    func() time.Time
	days   int
	since  int64
	seq    uint64
	times  []histTime // the entries in the engine, oldest first
}

type histTime struct {
	seq uint64
	ns  int64
}

func historyCollection(m *tableMeta) string { return "h/" + m.ID }

func histKey(seq uint64) []byte { return binary.BigEndian.AppendUint64(nil, seq) }

func (m *tableMeta) pitr() *pitrMeta {
	raw, ok := m.Ext[pitrExt]
	if !ok {
		return nil
	}
	var p pitrMeta
	if json.Unmarshal(raw, &p) != nil {
		return nil
	}
	return &p
}

// openHistory attaches the history of a table whose definition enables
// point-in-time recovery (openTable calls it).
func (s *Server) openHistory(t *table) error {
	p := t.meta.pitr()
	if p == nil {
		return nil
	}
	coll, err := s.engine.Collection(historyCollection(t.meta))
	if err != nil {
		return err
	}
	h := &history{engine: s.engine, ticket: &t.ticket, coll: coll, now: s.now, days: p.Days, since: p.Since}
	if err := coll.Ascend(nil, nil, func(k []byte, v storage.Value) bool {
		seq := binary.BigEndian.Uint64(k)
		h.times = append(h.times, histTime{seq, entryTime(itemOf(v))})
		h.seq = seq
		return true
	}); err != nil {
		return err
	}
	t.history = h
	return nil
}

func entryTime(it Item) int64 {
	n, _ := it["t"].(*types.AttributeValueMemberN)
	if n == nil {
		return 0
	}
	v, _ := strconv.ParseInt(n.Value, 10, 64)
	return v
}

// stage adds to b the history entry of one item write (its old image).
func (h *history) stage(b *writeBatch, key []byte, old Item) error {
	now := h.now().UnixNano()
	if err := h.trim(now); err != nil {
		return err
	}
	h.seq++
	e := Item{
		"k": &types.AttributeValueMemberB{Value: append([]byte(nil), key...)},
		"t": &types.AttributeValueMemberN{Value: strconv.FormatInt(now, 10)},
	}
	if old != nil {
		e["o"] = &types.AttributeValueMemberM{Value: old}
	}
	v, err := storage.Encode(e)
	if err != nil {
		return err
	}
	b.ops = append(b.ops, storage.Put(h.coll, histKey(h.seq), v))
	// An entry of a batch that then fails is harmless: trimming deletes
	// its absent key, and a restore never meets it.
	h.times = append(h.times, histTime{h.seq, now})
	return nil
}

// window is the retention of the history.
func (h *history) window() time.Duration { return time.Duration(h.days) * 24 * time.Hour }

// trim deletes the entries older than the recovery period, in batches of 64
// so that trimming costs one engine write per 64 entries.
func (h *history) trim(now int64) error {
	const trimBatch = 64
	cut := now - int64(h.window())
	if len(h.times) < trimBatch || h.times[trimBatch-1].ns >= cut {
		return nil
	}
	ops := make([]storage.Op, trimBatch)
	for i, e := range h.times[:trimBatch] {
		ops[i] = storage.Delete(h.coll, histKey(e.seq))
	}
	if err := applyNoting(h.engine, ops, h.ticket); err != nil {
		return err
	}
	h.times = h.times[trimBatch:]
	return nil
}

// restorable is the window a restore may target at now: from when recovery
// was enabled, or the start of the recovery period, to now.
func (h *history) restorable(now time.Time) (earliest, latest time.Time) {
	earliest = time.Unix(0, max(h.since, now.Add(-h.window()).UnixNano()))
	return earliest, now
}

// --- DescribeContinuousBackups, UpdateContinuousBackups ---

type (
	pitrDescriptionOut struct {
		EarliestRestorableDateTime float64 `json:",omitempty"`
		LatestRestorableDateTime   float64 `json:",omitempty"`
		PointInTimeRecoveryStatus  string
		RecoveryPeriodInDays       int `json:",omitempty"`
	}
	continuousBackupsOut struct {
		ContinuousBackupsStatus        string
		PointInTimeRecoveryDescription pitrDescriptionOut
	}
)

// continuousBackups describes t's settings; the caller holds t.mu.
func continuousBackups(t *table, now time.Time) continuousBackupsOut {
	// Continuous backups (the service's own) are always on; point-in-time
	// recovery is what a table turns on.
	out := continuousBackupsOut{ContinuousBackupsStatus: "ENABLED",
		PointInTimeRecoveryDescription: pitrDescriptionOut{PointInTimeRecoveryStatus: "DISABLED"}}
	if h := t.history; h != nil {
		e, l := h.restorable(now)
		out.PointInTimeRecoveryDescription = pitrDescriptionOut{
			EarliestRestorableDateTime: epoch(e), LatestRestorableDateTime: epoch(l),
			PointInTimeRecoveryStatus: "ENABLED", RecoveryPeriodInDays: h.days,
		}
	}
	return out
}

func (s *Server) describeContinuousBackups(c *call) (any, error) {
	var in tableNameInput
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	s.tableNameOfArn(in.TableName)
	var cs constraints
	cs.name(in.TableName, "tableName", true)
	if err := cs.err(); err != nil {
		return nil, err
	}
	t, err := s.readTable(c, *in.TableName)
	if err != nil {
		return nil, tableNotFoundException(*in.TableName)
	}
	defer t.mu.RUnlock()
	return map[string]any{"ContinuousBackupsDescription": continuousBackups(t, c.now)}, nil
}

// maxRecoveryDays is the longest recovery period (and the default).
const maxRecoveryDays = 35

func (s *Server) updateContinuousBackups(c *call) (any, error) {
	var in struct {
		TableName                        *string
		PointInTimeRecoverySpecification *struct {
			PointInTimeRecoveryEnabled *bool
			RecoveryPeriodInDays       *int64
		}
	}
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	s.tableNameOfArn(in.TableName)
	var cs constraints
	cs.name(in.TableName, "tableName", true)
	spec := in.PointInTimeRecoverySpecification
	if spec == nil {
		cs.add(nil, "pointInTimeRecoverySpecification", ruleNotNull)
	} else {
		if spec.PointInTimeRecoveryEnabled == nil {
			cs.add(nil, "pointInTimeRecoverySpecification.pointInTimeRecoveryEnabled", ruleNotNull)
		}
		if d := spec.RecoveryPeriodInDays; d != nil && *d < 1 {
			cs.add(*d, "pointInTimeRecoverySpecification.recoveryPeriodInDays", "Member must have value greater than or equal to 1")
		} else if d != nil && *d > maxRecoveryDays {
			cs.add(*d, "pointInTimeRecoverySpecification.recoveryPeriodInDays", "Member must have value less than or equal to 35")
		}
	}
	if err := cs.err(); err != nil {
		return nil, err
	}
	enable := *spec.PointInTimeRecoveryEnabled
	if !enable && spec.RecoveryPeriodInDays != nil {
		return nil, validation("RecoveryPeriodInDays can only be specified when PointInTimeRecoveryEnabled is true")
	}
	t, err := s.writeTable(c, *in.TableName)
	if err != nil {
		return nil, tableNotFoundException(*in.TableName)
	}
	defer t.mu.Unlock()
	if err := s.setPITR(t, enable, spec.RecoveryPeriodInDays, c.now); err != nil {
		return nil, err
	}
	return map[string]any{"ContinuousBackupsDescription": continuousBackups(t, c.now)}, nil
}

// setPITR turns point-in-time recovery on or off (keeping the history when
// only the period changes); the caller holds t.mu exclusively.
func (s *Server) setPITR(t *table, enable bool, days *int64, now time.Time) error {
	m := t.meta.clone()
	m.Ext = make(map[string]json.RawMessage, len(t.meta.Ext)+1)
	for k, v := range t.meta.Ext {
		m.Ext[k] = v
	}
	if !enable {
		if t.history == nil {
			return nil
		}
		delete(m.Ext, pitrExt)
		// The setting goes first: a crash before the drop leaves an
		// unused collection, which the next enabling clears.
		if err := s.saveMeta(m); err != nil {
			return err
		}
		t.meta, t.history = m, nil
		return s.engine.Drop(historyCollection(m))
	}
	p := pitrMeta{Since: now.UnixNano(), Days: maxRecoveryDays}
	if t.history != nil {
		p.Since, p.Days = t.history.since, t.history.days
	}
	if days != nil {
		p.Days = int(*days)
	}
	raw, _ := json.Marshal(p)
	m.Ext[pitrExt] = raw
	if t.history == nil {
		if err := s.engine.Drop(historyCollection(m)); err != nil {
			return err
		}
	}
	if err := s.saveMeta(m); err != nil {
		return err
	}
	t.meta = m
	if t.history != nil {
		t.history.days = p.Days
		return nil
	}
	return s.openHistory(t)
}

// --- RestoreTableToPointInTime ---

func (s *Server) restoreTableToPointInTime(c *call) (any, error) {
	var in struct {
		SourceTableName, SourceTableArn *string
		RestoreDateTime                 *float64
		UseLatestRestorableTime         *bool
		restoreOverrides
	}
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	if err := in.checkTarget(); err != nil {
		return nil, err
	}
	var cs constraints
	cs.name(in.SourceTableName, "sourceTableName", false)
	in.check(&cs)
	if err := cs.err(); err != nil {
		return nil, err
	}
	name, err := s.sourceTable(in.SourceTableName, in.SourceTableArn)
	if err != nil {
		return nil, err
	}
	latest := in.UseLatestRestorableTime != nil && *in.UseLatestRestorableTime
	if latest && in.RestoreDateTime != nil {
		return nil, validation("Only one of RestoreDateTime or UseLatestRestorableTime can be specified")
	}
	if !latest && in.RestoreDateTime == nil {
		return nil, validation("Either RestoreDateTime or UseLatestRestorableTime must be specified")
	}
	t, err := s.readTable(c, name)
	if err != nil {
		return nil, tableNotFoundException(name)
	}
	items, src, at, err := t.stateAt(c.now, latest, in.RestoreDateTime)
	t.mu.RUnlock()
	if err != nil {
		return nil, err
	}
	sum := &restoreSummary{SourceTableArn: s.tableArn(name), RestoreDateTime: epoch(at)}
	return s.restore(c.now, src, &in.restoreOverrides, sum, items)
}

// sourceTable is the table a point-in-time restore reads: named, or by
// its ARN (one of the two, and an ARN of this server's region and account).
func (s *Server) sourceTable(name, arn *string) (string, error) {
	switch {
	case name != nil && arn != nil:
		return "", validation("Only one of SourceTableName or SourceTableArn can be specified")
	case name != nil:
		return *name, nil
	case arn != nil:
		n := *arn
		if s.tableNameOfArn(&n); n == *arn || n == "" {
			return "", tableNotFoundException(*arn)
		}
		return n, nil
	}
	return "", validation("Either SourceTableName or SourceTableArn must be specified")
}

// stateAt is the table's items as they were at the restore time (now, if
// latest) with its definition; the caller holds t.mu. The current items and
// the history after the time are read under the lock; undoing happens on
// the copy.
func (t *table) stateAt(now time.Time, latest bool, sec *float64) ([]snapshotItem, *tableMeta, time.Time, error) {
	h := t.history
	if h == nil {
		return nil, nil, time.Time{}, &Error{Type: "PointInTimeRecoveryUnavailableException",
			Message: "Point in time recovery is not enabled for table '" + t.meta.Name + "'"}
	}
	earliest, last := h.restorable(now)
	at := last
	if !latest {
		at = epochTime(*sec)
		if at.Before(earliest.Truncate(time.Millisecond)) || at.After(last) {
			return nil, nil, time.Time{}, &Error{Type: "InvalidRestoreTimeException",
				Message: "RestoreDateTime must be between EarliestRestorableDateTime and LatestRestorableDateTime"}
		}
	}
	items, err := t.snapshot()
	if err != nil {
		return nil, nil, time.Time{}, err
	}
	// The undo list: entries after the time, newest first.
	var undo []Item
	cut := at.UnixNano()
	if err := h.coll.Descend(nil, nil, func(_ []byte, v storage.Value) bool {
		e := itemOf(v)
		if entryTime(e) <= cut {
			return false
		}
		undo = append(undo, e)
		return true
	}); err != nil {
		return nil, nil, time.Time{}, err
	}
	src := t.meta.clone()
	if len(undo) == 0 {
		return items, src, at, nil
	}
	state := make(map[string]storage.Value, len(items))
	for _, it := range items {
		state[string(it.key)] = it.value
	}
	for _, e := range undo {
		k := string(e["k"].(*types.AttributeValueMemberB).Value)
		if o, ok := e["o"].(*types.AttributeValueMemberM); ok {
			v, err := storage.Encode(o.Value)
			if err != nil {
				return nil, nil, time.Time{}, err
			}
			state[k] = v
		} else {
			delete(state, k)
		}
	}
	items = items[:0]
	for k, it := range state {
		items = append(items, snapshotItem{[]byte(k), it})
	}
	return items, src, at, nil
}
