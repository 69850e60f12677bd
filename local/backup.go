package local

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/internal/limits"
	"github.com/dynamogo/dynamo/local/storage"
)

// On-demand backups (API_CreateBackup.html and the actions after it).
//
// A backup is a copy of a table's items at one instant and of its
// definition: CreateBackup reads the items under the table's read lock
// (items are immutable, so this copies only references), releases it, and
// only then writes the copy to its own collection "b/<id>" with the
// description in the catalog under "backup/<id>". Writes wait only for the
// reference copy, and the backup is one instant. Indexes are not copied: a
// restore rebuilds them from the items, as DynamoDB does.
//
// The copy is made inside the call, so CreateBackup already answers
// AVAILABLE (as CreateTable answers ACTIVE); CREATING is what a concurrent
// DescribeBackup or ListBackups sees while it is made. A backup still
// CREATING in the catalog after a crash is incomplete and is deleted when
// the server starts. Restores also finish inside the call: the new table
// is ACTIVE and its RestoreSummary has RestoreInProgress false.

// backupMeta is one backup's catalog entry.
type backupMeta struct {
	ID      string     `json:"id"` // 01234567890123-abcdefgh: creation in ms, then random
	Name    string     `json:"name"`
	Table   *tableMeta `json:"table"` // the source table's definition at the instant
	Created int64      `json:"created"`
	Size    int64      `json:"size"`
	Items   int64      `json:"items"`
	Status  string     `json:"status"` // CREATING or AVAILABLE
	// busy counts the restores reading the backup; DeleteBackup waits for none.
	busy int
}

// backupSet is the server's backups, by ARN.
type backupSet struct {
	mu sync.Mutex
	m  map[string]*backupMeta
}

func backupCollection(id string) string { return "b/" + id }
func backupKey(id string) string        { return "backup/" + id }

func (s *Server) backupArn(b *backupMeta) string {
	return s.tableArn(b.Table.Name) + "/backup/" + b.ID
}

// loadBackups restores the backups of the catalog, deleting the ones a
// crash left incomplete.
func (s *Server) loadBackups(metas map[string][]byte) error {
	s.backups.m = map[string]*backupMeta{}
	for k, v := range metas {
		if !strings.HasPrefix(k, backupKey("")) {
			continue
		}
		var b backupMeta
		if err := json.Unmarshal(v, &b); err != nil {
			return fmt.Errorf("local: backup %s: %w", k, err)
		}
		if b.Status != "AVAILABLE" {
			if err := s.engine.Drop(backupCollection(b.ID)); err != nil {
				return err
			}
			if err := s.engine.PutMeta(k, nil); err != nil {
				return err
			}
			continue
		}
		s.backups.m[s.backupArn(&b)] = &b
	}
	return nil
}

func (s *Server) saveBackup(b *backupMeta) error {
	v, err := json.Marshal(b)
	if err != nil {
		return err
	}
	return s.engine.PutMeta(backupKey(b.ID), v)
}

// newBackupID is the last part of a backup ARN: the creation time in
// milliseconds (14 digits) and 8 random lowercase characters.
func newBackupID(now time.Time) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	var r [8]byte
	rand.Read(r[:])
	for i, b := range r {
		r[i] = alphabet[int(b)%len(alphabet)]
	}
	return fmt.Sprintf("%014d-%s", now.UnixMilli(), r[:])
}

// Wire shapes (API_BackupDescription.html, API_BackupSummary.html).
type (
	backupDetailsOut struct {
		BackupArn              string
		BackupCreationDateTime float64
		BackupName             string
		BackupSizeBytes        int64
		BackupStatus           string
		BackupType             string
	}
	sourceTableOut struct {
		BillingMode           string
		ItemCount             int64
		KeySchema             []keySchemaOut
		ProvisionedThroughput throughputOut
		TableArn              string
		TableCreationDateTime float64
		TableId               string
		TableName             string
		TableSizeBytes        int64
	}
	backupIndexOut struct {
		IndexName             string
		KeySchema             []keySchemaOut
		Projection            projectionOut
		ProvisionedThroughput *throughputOut `json:",omitempty"`
	}
	sourceFeaturesOut struct {
		GlobalSecondaryIndexes []backupIndexOut `json:",omitempty"`
		LocalSecondaryIndexes  []backupIndexOut `json:",omitempty"`
		StreamDescription      *streamSpecOut   `json:",omitempty"`
	}
	backupDescriptionOut struct {
		BackupDetails             backupDetailsOut
		SourceTableDetails        sourceTableOut
		SourceTableFeatureDetails sourceFeaturesOut
	}
	backupSummaryOut struct {
		BackupArn              string
		BackupCreationDateTime float64
		BackupName             string
		BackupSizeBytes        int64
		BackupStatus           string
		BackupType             string
		TableArn               string
		TableId                string
		TableName              string
	}
)

func (s *Server) backupDetails(b *backupMeta, status string) backupDetailsOut {
	return backupDetailsOut{
		BackupArn: s.backupArn(b), BackupCreationDateTime: float64(b.Created) / 1e3, BackupName: b.Name,
		BackupSizeBytes: b.Size, BackupStatus: status, BackupType: "USER",
	}
}

func (s *Server) backupDescription(b *backupMeta, status string) backupDescriptionOut {
	m := b.Table
	d := backupDescriptionOut{
		BackupDetails: s.backupDetails(b, status),
		SourceTableDetails: sourceTableOut{
			BillingMode: m.Billing, ItemCount: b.Items, KeySchema: keySchema(m.Hash, m.Range),
			ProvisionedThroughput: throughputOut{ReadCapacityUnits: m.Read, WriteCapacityUnits: m.Write},
			TableArn:              s.tableArn(m.Name), TableCreationDateTime: m.Created, TableId: m.ID,
			TableName: m.Name, TableSizeBytes: b.Size,
		},
	}
	for _, im := range m.Indexes {
		o := backupIndexOut{IndexName: im.Name, KeySchema: keySchema(im.Hash, im.Range),
			Projection: projectionOut{ProjectionType: im.Projection, NonKeyAttributes: im.NonKey}}
		if im.Local {
			d.SourceTableFeatureDetails.LocalSecondaryIndexes = append(d.SourceTableFeatureDetails.LocalSecondaryIndexes, o)
			continue
		}
		o.ProvisionedThroughput = &throughputOut{ReadCapacityUnits: im.Read, WriteCapacityUnits: im.Write}
		d.SourceTableFeatureDetails.GlobalSecondaryIndexes = append(d.SourceTableFeatureDetails.GlobalSecondaryIndexes, o)
	}
	if m.Stream != nil {
		d.SourceTableFeatureDetails.StreamDescription = &streamSpecOut{StreamEnabled: true, StreamViewType: m.Stream.ViewType}
	}
	return d
}

// snapshotItem is one item of a table copy; key is the engine's encoded key.
type snapshotItem struct {
	key   []byte
	value storage.Value
}

// snapshot copies references to the table's items; the caller holds t.mu.
func (t *table) snapshot() ([]snapshotItem, error) {
	out := make([]snapshotItem, 0, t.items.Len())
	err := t.items.Ascend(nil, nil, func(k []byte, v storage.Value) bool {
		out = append(out, snapshotItem{append([]byte(nil), k...), v})
		return true
	})
	return out, err
}

// --- CreateBackup ---

func (s *Server) createBackup(c *call) (any, error) {
	var in struct{ TableName, BackupName *string }
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	s.tableNameOfArn(in.TableName)
	var cs constraints
	cs.name(in.TableName, "tableName", true)
	cs.name(in.BackupName, "backupName", true)
	if err := cs.err(); err != nil {
		return nil, err
	}
	t, err := s.readTable(c, *in.TableName)
	if err != nil {
		return nil, tableNotFoundException(*in.TableName)
	}
	items, err := t.snapshot()
	b := &backupMeta{
		ID: newBackupID(c.now), Name: *in.BackupName, Table: t.meta.clone(), Created: c.now.UnixMilli(),
		Size: t.items.Size(), Items: int64(len(items)), Status: "CREATING",
	}
	t.mu.RUnlock()
	if err != nil {
		return nil, err
	}
	b.Table.Ext = nil // the source's own settings (continuous backups) are not the backup's
	arn := s.backupArn(b)
	s.backups.mu.Lock()
	for _, o := range s.backups.m {
		if o.Table.ID == b.Table.ID && o.Status == "CREATING" {
			s.backups.mu.Unlock()
			return nil, &Error{Type: "BackupInUseException", Message: "There is another ongoing conflicting backup control plane operation on the table. The backup is either being created, deleted or restored to a table."}
		}
	}
	s.backups.m[arn] = b
	s.backups.mu.Unlock()
	if err := s.writeBackup(b, items); err != nil {
		s.backups.mu.Lock()
		delete(s.backups.m, arn)
		s.backups.mu.Unlock()
		s.engine.Drop(backupCollection(b.ID))
		s.engine.PutMeta(backupKey(b.ID), nil)
		return nil, err
	}
	return map[string]any{"BackupDetails": s.backupDetails(b, "AVAILABLE")}, nil
}

// writeBackup stores the backup's items, then marks it AVAILABLE: the
// catalog says CREATING until every item is in the engine.
func (s *Server) writeBackup(b *backupMeta, items []snapshotItem) error {
	if err := s.saveBackup(b); err != nil {
		return err
	}
	coll, err := s.engine.Collection(backupCollection(b.ID))
	if err != nil {
		return err
	}
	const batchSize = 256
	ops := make([]storage.Op, 0, batchSize)
	for i, it := range items {
		ops = append(ops, storage.Put(coll, it.key, it.value))
		if len(ops) == batchSize || i == len(items)-1 {
			if err := s.engine.Apply(ops); err != nil {
				return err
			}
			ops = ops[:0]
		}
	}
	done := *b
	done.Status = "AVAILABLE"
	if err := s.saveBackup(&done); err != nil {
		return err
	}
	s.backups.mu.Lock()
	b.Status = "AVAILABLE"
	s.backups.mu.Unlock()
	return nil
}

// --- DescribeBackup, DeleteBackup, ListBackups ---

type backupArnInput struct{ BackupArn *string }

func (s *Server) backupFromArn(c *call) (string, error) {
	var in backupArnInput
	if err := c.decode(&in); err != nil {
		return "", err
	}
	if err := backupArnShape(in.BackupArn); err != nil {
		return "", err
	}
	var cs constraints
	checkBackupArn(&cs, in.BackupArn, "backupArn", true)
	if err := cs.err(); err != nil {
		return "", err
	}
	return *in.BackupArn, nil
}

// backupArnShape refuses a BackupArn that is no backup's ARN at all, before
// the member's constraints.
func backupArnShape(v *string) error {
	if v != nil && (!strings.HasPrefix(*v, "arn:") || !strings.Contains(*v, ":table/") || !strings.Contains(*v, "/backup/")) {
		return validation(msgInvalidBackupArn)
	}
	return nil
}

// checkBackupArn is the constraint of a BackupArn member (length 37 to 1024).
func checkBackupArn(cs *constraints, v *string, path string, required bool) {
	switch {
	case v == nil:
		if required {
			cs.add(nil, path, ruleNotNull)
		}
	case len(*v) < 37:
		cs.add(*v, path, "Member must have length greater than or equal to 37")
	case len(*v) > 1024:
		cs.add(*v, path, "Member must have length less than or equal to 1024")
	}
}

func backupNotFound(arn string) *Error {
	return &Error{Type: "BackupNotFoundException", Message: "Backup not found: " + arn}
}

func backupInUse(arn string) *Error {
	return &Error{Type: "BackupInUseException", Message: "Backup is being used: " + arn}
}

// tableNameOfArn replaces a table ARN of this server's region and account
// with the table's name: the backup actions take either
// (API_CreateBackup.html, API_UpdateContinuousBackups.html: "You can also
// provide the Amazon Resource Name (ARN) of the table").
func (s *Server) tableNameOfArn(name *string) {
	if name == nil {
		return
	}
	if n, ok := strings.CutPrefix(*name, s.tableArn("")); ok {
		*name = n
	}
}

func tableNotFoundException(name string) *Error {
	return &Error{Type: "TableNotFoundException", Message: "Table not found: " + name}
}

func (s *Server) describeBackup(c *call) (any, error) {
	arn, err := s.backupFromArn(c)
	if err != nil {
		return nil, err
	}
	s.backups.mu.Lock()
	defer s.backups.mu.Unlock()
	b := s.backups.m[arn]
	if b == nil {
		return nil, backupNotFound(arn)
	}
	return map[string]any{"BackupDescription": s.backupDescription(b, b.Status)}, nil
}

func (s *Server) deleteBackup(c *call) (any, error) {
	arn, err := s.backupFromArn(c)
	if err != nil {
		return nil, err
	}
	s.backups.mu.Lock()
	defer s.backups.mu.Unlock()
	b := s.backups.m[arn]
	switch {
	case b == nil:
		return nil, backupNotFound(arn)
	case b.Status != "AVAILABLE" || b.busy > 0:
		return nil, backupInUse(arn)
	}
	// The catalog entry goes first: a crash before the drop leaves an
	// orphan collection, never a backup without its items.
	if err := s.engine.PutMeta(backupKey(b.ID), nil); err != nil {
		return nil, err
	}
	delete(s.backups.m, arn)
	if err := s.engine.Drop(backupCollection(b.ID)); err != nil {
		return nil, err
	}
	return map[string]any{"BackupDescription": s.backupDescription(b, "DELETED")}, nil
}

func (s *Server) listBackups(c *call) (any, error) {
	var in struct {
		TableName                                *string
		TimeRangeLowerBound, TimeRangeUpperBound *float64
		BackupType                               *string
		ExclusiveStartBackupArn                  *string
		Limit                                    *int64
	}
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	s.tableNameOfArn(in.TableName)
	var cs constraints
	cs.name(in.TableName, "tableName", false)
	cs.enum(in.BackupType, "backupType", "USER", "SYSTEM", "AWS_BACKUP", "ALL")
	checkBackupArn(&cs, in.ExclusiveStartBackupArn, "exclusiveStartBackupArn", false)
	limit := 100
	if in.Limit != nil {
		switch l := *in.Limit; {
		case l < 1:
			cs.add(l, "limit", "Member must have value greater than or equal to 1")
		case l > 100:
			cs.add(l, "limit", "Member must have value less than or equal to 100")
		default:
			limit = int(l)
		}
	}
	if err := cs.err(); err != nil {
		return nil, err
	}
	if in.TimeRangeLowerBound != nil && in.TimeRangeUpperBound != nil && *in.TimeRangeLowerBound > *in.TimeRangeUpperBound {
		return nil, validation("TimeRangeUpperBound must be greater than TimeRangeLowerBound")
	}
	out := struct {
		BackupSummaries        []backupSummaryOut
		LastEvaluatedBackupArn string `json:",omitempty"`
	}{BackupSummaries: []backupSummaryOut{}}
	// Only user backups exist here: the default type, USER, and ALL list them.
	if in.BackupType != nil && *in.BackupType != "USER" && *in.BackupType != "ALL" {
		return out, nil
	}
	s.backups.mu.Lock()
	arns := make([]string, 0, len(s.backups.m))
	for arn, b := range s.backups.m {
		ms := float64(b.Created) / 1e3
		switch {
		case in.TableName != nil && b.Table.Name != *in.TableName,
			in.TimeRangeLowerBound != nil && ms < *in.TimeRangeLowerBound,  // inclusive
			in.TimeRangeUpperBound != nil && ms >= *in.TimeRangeUpperBound, // exclusive
			in.ExclusiveStartBackupArn != nil && arn <= *in.ExclusiveStartBackupArn:
			continue
		}
		arns = append(arns, arn)
	}
	// ARN order: by table, then by creation (the ID starts with it).
	sort.Strings(arns)
	if len(arns) > limit {
		arns = arns[:limit]
		out.LastEvaluatedBackupArn = arns[limit-1]
	}
	for _, arn := range arns {
		b := s.backups.m[arn]
		out.BackupSummaries = append(out.BackupSummaries, backupSummaryOut{
			BackupArn: arn, BackupCreationDateTime: float64(b.Created) / 1e3, BackupName: b.Name,
			BackupSizeBytes: b.Size, BackupStatus: b.Status, BackupType: "USER",
			TableArn: s.tableArn(b.Table.Name), TableId: b.Table.ID, TableName: b.Table.Name,
		})
	}
	s.backups.mu.Unlock()
	return out, nil
}

// --- RestoreTableFromBackup ---

// restoreOverrides are the members RestoreTableFromBackup and
// RestoreTableToPointInTime share.
type restoreOverrides struct {
	TargetTableName               *string
	GlobalSecondaryIndexOverride  []types.GlobalSecondaryIndex
	LocalSecondaryIndexOverride   []types.LocalSecondaryIndex
	BillingModeOverride           *string
	ProvisionedThroughputOverride *types.ProvisionedThroughput
	SSESpecificationOverride      *types.SSESpecification // accepted; tables here are not encrypted
	OnDemandThroughputOverride    *types.OnDemandThroughput
}

func (o *restoreOverrides) check(cs *constraints) {
	cs.name(o.TargetTableName, "targetTableName", true)
	cs.enum(o.BillingModeOverride, "billingModeOverride", "PROVISIONED", "PAY_PER_REQUEST")
}

// checkTarget checks that a restore names its target table, and the name's
// length, apart from (and before) the other constraints.
func (o *restoreOverrides) checkTarget() error {
	switch {
	case o.TargetTableName == nil:
		return validation(msgTableNameRequired)
	case len(*o.TargetTableName) < limits.MinNameLen || len(*o.TargetTableName) > limits.MaxNameLen:
		return validation(msgRestoreTargetLength)
	}
	return nil
}

func (s *Server) restoreTableFromBackup(c *call) (any, error) {
	var in struct {
		BackupArn *string
		restoreOverrides
	}
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	if err := backupArnShape(in.BackupArn); err != nil {
		return nil, err
	}
	if err := in.checkTarget(); err != nil {
		return nil, err
	}
	var cs constraints
	checkBackupArn(&cs, in.BackupArn, "backupArn", true)
	in.check(&cs)
	if err := cs.err(); err != nil {
		return nil, err
	}
	arn := *in.BackupArn
	s.backups.mu.Lock()
	b := s.backups.m[arn]
	switch {
	case b == nil:
		s.backups.mu.Unlock()
		return nil, backupNotFound(arn)
	case b.Status != "AVAILABLE":
		s.backups.mu.Unlock()
		return nil, backupInUse(arn)
	}
	b.busy++
	s.backups.mu.Unlock()
	defer func() {
		s.backups.mu.Lock()
		b.busy--
		s.backups.mu.Unlock()
	}()
	coll, err := s.engine.Collection(backupCollection(b.ID))
	if err != nil {
		return nil, err
	}
	items := make([]snapshotItem, 0, coll.Len())
	if err := coll.Ascend(nil, nil, func(k []byte, v storage.Value) bool {
		items = append(items, snapshotItem{append([]byte(nil), k...), v})
		return true
	}); err != nil {
		return nil, err
	}
	sum := &restoreSummary{SourceBackupArn: arn, SourceTableArn: s.tableArn(b.Table.Name), RestoreDateTime: float64(b.Created) / 1e3}
	return s.restore(c.now, b.Table, &in.restoreOverrides, sum, items)
}

// restoreSummary is the RestoreSummary of a restored table's description,
// kept in its tableMeta's Ext.
type restoreSummary struct {
	SourceBackupArn   string `json:",omitempty"`
	SourceTableArn    string `json:",omitempty"`
	RestoreDateTime   float64
	RestoreInProgress bool
}

const restoreExt = "restore"

func (m *tableMeta) restoreSummary() *restoreSummary {
	raw, ok := m.Ext[restoreExt]
	if !ok {
		return nil
	}
	var r restoreSummary
	if json.Unmarshal(raw, &r) != nil {
		return nil
	}
	return &r
}

// restoredMeta is the definition of a table restored from src: the same
// keys and attributes, the indexes and billing of src unless overridden,
// and none of the settings DynamoDB leaves out of a restore (streams, TTL,
// tags, point-in-time recovery, deletion protection).
func restoredMeta(src *tableMeta, o *restoreOverrides, sum *restoreSummary, now time.Time) (*tableMeta, error) {
	m := src.clone()
	m.Name, m.ID, m.Created = *o.TargetTableName, newUUID(), epoch(now)
	m.Stream, m.TTL, m.Tags, m.DeletionProtection = nil, nil, nil, false
	m.BillingChanged, m.LastIncrease, m.LastDecrease, m.Decreases = 0, 0, 0, 0
	if o.GlobalSecondaryIndexOverride != nil || o.LocalSecondaryIndexOverride != nil {
		in := &dynamodb.CreateTableInput{}
		keep := m.Indexes[:0]
		for _, im := range m.Indexes {
			if im.Local && o.LocalSecondaryIndexOverride == nil || !im.Local && o.GlobalSecondaryIndexOverride == nil {
				keep = append(keep, im)
			}
		}
		m.Indexes = keep
		// An empty override restores none of that kind of index.
		if len(o.GlobalSecondaryIndexOverride) > 0 {
			in.GlobalSecondaryIndexes = o.GlobalSecondaryIndexOverride
		}
		if len(o.LocalSecondaryIndexOverride) > 0 {
			in.LocalSecondaryIndexes = o.LocalSecondaryIndexOverride
		}
		defs, defNames := map[string]string{}, []string{}
		for _, a := range m.AttrDefs {
			defs[a.Name] = a.Type
			defNames = append(defNames, a.Name)
		}
		if err := createSecondaryIndexes(in, m, defs, defNames, map[string]bool{}); err != nil {
			return nil, err
		}
		for _, g := range o.GlobalSecondaryIndexOverride {
			if pt := g.ProvisionedThroughput; pt != nil && pt.ReadCapacityUnits != nil && pt.WriteCapacityUnits != nil {
				im := findIndex(m.Indexes, *g.IndexName)
				im.Read, im.Write = *pt.ReadCapacityUnits, *pt.WriteCapacityUnits
			}
		}
		if err := checkNonKeyTotal(m.Indexes); err != nil {
			return nil, err
		}
	}
	if o.BillingModeOverride != nil {
		m.Billing = *o.BillingModeOverride
	}
	if pt := o.ProvisionedThroughputOverride; pt != nil {
		if m.Billing != string(types.BillingModeProvisioned) {
			return nil, invalidParam("Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST")
		}
		if err := checkThroughputBounds(pt); err != nil {
			return nil, err
		}
		m.Read, m.Write = *pt.ReadCapacityUnits, *pt.WriteCapacityUnits
	}
	if m.Billing == string(types.BillingModeProvisioned) && m.Read == 0 {
		// An on-demand source restored as provisioned needs its throughput.
		return nil, invalidParam("ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED")
	}
	if m.Billing == string(types.BillingModePayPerRequest) {
		m.Read, m.Write = 0, 0
		for _, im := range m.Indexes {
			im.Read, im.Write = 0, 0
		}
	}
	raw, err := json.Marshal(sum)
	if err != nil {
		return nil, err
	}
	m.Ext = map[string]json.RawMessage{restoreExt: raw}
	return m, nil
}

// restore creates the table of src's definition (with the overrides) under
// the target name and fills it with items, building its indexes. The table
// is visible, locked, while it fills, and in the catalog only once full: a
// crash part way leaves no table.
func (s *Server) restore(now time.Time, src *tableMeta, o *restoreOverrides, sum *restoreSummary, items []snapshotItem) (any, error) {
	m, err := restoredMeta(src, o, sum, now)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if _, exists := s.tables[m.Name]; exists {
		s.mu.Unlock()
		return nil, &Error{Type: "TableAlreadyExistsException", Message: "Table already exists: " + m.Name}
	}
	if err := s.dropCollections(m); err != nil {
		s.mu.Unlock()
		return nil, err
	}
	t, err := s.openTable(m)
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	t.mu.Lock()
	s.tables[m.Name] = t
	s.mu.Unlock()
	err = t.fill(items)
	if err == nil {
		err = s.saveMeta(m)
	}
	if err == nil {
		d := s.describe(t, "ACTIVE")
		t.mu.Unlock()
		return map[string]any{"TableDescription": d}, nil
	}
	// The table lock goes before the server's is taken (DeleteTable takes
	// them in the other order).
	t.deleted = true
	t.mu.Unlock()
	s.mu.Lock()
	if s.tables[m.Name] == t {
		delete(s.tables, m.Name)
	}
	s.mu.Unlock()
	s.dropCollections(m)
	return nil, err
}

// fill writes items to a new table with their index entries, in batches;
// the caller holds t.mu.
func (t *table) fill(items []snapshotItem) error {
	const batchSize = 128
	var mt meter
	for len(items) > 0 {
		n := min(batchSize, len(items))
		b := &writeBatch{}
		for _, it := range items[:n] {
			nu := itemOf(it.value)
			enc, err := encodeItem(nu)
			if err != nil {
				return err
			}
			if err := t.stage(b, it.key, nil, nu, enc, &mt); err != nil {
				return err
			}
		}
		if err := b.commit(t.engine, nil); err != nil {
			return err
		}
		items = items[n:]
	}
	return nil
}

// epochTime is a request's timestamp (epoch seconds) as a time, to the
// millisecond the SDKs send.
func epochTime(sec float64) time.Time {
	return time.UnixMilli(int64(math.Round(sec * 1e3)))
}
