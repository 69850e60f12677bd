package local

import (
	"crypto/rand"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/internal/limits"
	"github.com/dynamogo/dynamo/local/storage"
)

// Control plane. Tables and indexes become ACTIVE at once: there is nothing
// to provision, so CreateTable already answers ACTIVE and a GSI created by
// UpdateTable is backfilled before the call returns.
//
// Validation follows the API reference (API_CreateTable.html,
// API_UpdateTable.html) and the order DynamoDB applies: the request
// framework's constraints first (all reported at once), then key schema,
// attribute definitions, LSIs, GSIs, billing mode, streams.

// Wire shapes of the table description (API_TableDescription.html).
type (
	attributeDefinitionOut struct {
		AttributeName string
		AttributeType string
	}
	keySchemaOut struct {
		AttributeName string
		KeyType       string
	}
	throughputOut struct {
		LastDecreaseDateTime   float64 `json:",omitempty"`
		LastIncreaseDateTime   float64 `json:",omitempty"`
		NumberOfDecreasesToday int64
		ReadCapacityUnits      int64
		WriteCapacityUnits     int64
	}
	projectionOut struct {
		NonKeyAttributes []string `json:",omitempty"`
		ProjectionType   string
	}
	gsiOut struct {
		Backfilling           *bool `json:",omitempty"`
		IndexArn              string
		IndexName             string
		IndexSizeBytes        int64
		IndexStatus           string
		ItemCount             int64
		KeySchema             []keySchemaOut
		Projection            projectionOut
		ProvisionedThroughput *throughputOut `json:",omitempty"`
		OnDemandThroughput    *onDemandOut   `json:",omitempty"`
	}
	lsiOut struct {
		IndexArn       string
		IndexName      string
		IndexSizeBytes int64
		ItemCount      int64
		KeySchema      []keySchemaOut
		Projection     projectionOut
	}
	onDemandOut struct {
		MaxReadRequestUnits  int64
		MaxWriteRequestUnits int64
	}
	billingOut struct {
		BillingMode                       string
		LastUpdateToPayPerRequestDateTime float64 `json:",omitempty"`
	}
	streamSpecOut struct {
		StreamEnabled  bool
		StreamViewType string `json:",omitempty"`
	}
	tableClassOut    struct{ TableClass string }
	tableDescription struct {
		AttributeDefinitions      []attributeDefinitionOut
		BillingModeSummary        *billingOut `json:",omitempty"`
		CreationDateTime          float64
		DeletionProtectionEnabled bool
		GlobalSecondaryIndexes    []gsiOut `json:",omitempty"`
		ItemCount                 int64
		KeySchema                 []keySchemaOut
		LatestStreamArn           string           `json:",omitempty"`
		LatestStreamLabel         string           `json:",omitempty"`
		LocalSecondaryIndexes     []lsiOut         `json:",omitempty"`
		VectorIndexes             []vectorIndexOut `json:",omitempty"` // search.go
		ProvisionedThroughput     throughputOut
		StreamSpecification       *streamSpecOut `json:",omitempty"`
		TableArn                  string
		TableClassSummary         *tableClassOut `json:",omitempty"`
		TableId                   string
		TableName                 string
		TableSizeBytes            int64
		TableStatus               string
		RestoreSummary            *restoreSummary `json:",omitempty"` // backup.go
	}
)

func (s *Server) tableArn(name string) string {
	return "arn:aws:dynamodb:" + s.region + ":" + s.account + ":table/" + name
}

// describe builds the table's description; the caller holds t.mu.
func (s *Server) describe(t *table, status string) *tableDescription {
	m := t.meta
	d := &tableDescription{
		CreationDateTime:          m.Created,
		DeletionProtectionEnabled: m.DeletionProtection,
		ItemCount:                 int64(t.items.Len()),
		TableArn:                  s.tableArn(m.Name),
		TableId:                   m.ID,
		TableName:                 m.Name,
		TableSizeBytes:            t.items.Size(),
		TableStatus:               status,
		BillingModeSummary:        &billingOut{BillingMode: m.Billing},
		ProvisionedThroughput: throughputOut{
			NumberOfDecreasesToday: m.Decreases, ReadCapacityUnits: m.Read, WriteCapacityUnits: m.Write,
			LastIncreaseDateTime: m.LastIncrease, LastDecreaseDateTime: m.LastDecrease,
		},
	}
	if m.Billing == string(types.BillingModePayPerRequest) {
		d.BillingModeSummary.LastUpdateToPayPerRequestDateTime = m.BillingChanged
	}
	if m.TableClass != "" {
		// Only a table whose class was set (CreateTable or UpdateTable)
		// reports it; one that never had a class set has no
		// TableClassSummary at all (measured against the service,
		// scylladb/scylladb#20520; DynamoDB Local agrees).
		d.TableClassSummary = &tableClassOut{TableClass: m.TableClass}
	}
	for _, a := range m.AttrDefs {
		d.AttributeDefinitions = append(d.AttributeDefinitions, attributeDefinitionOut{a.Name, a.Type})
	}
	d.KeySchema = keySchema(m.Hash, m.Range)
	for _, ix := range t.indexes {
		im := ix.meta
		proj := projectionOut{ProjectionType: im.Projection, NonKeyAttributes: im.NonKey}
		arn := d.TableArn + "/index/" + im.Name
		if im.Local {
			d.LocalSecondaryIndexes = append(d.LocalSecondaryIndexes, lsiOut{
				IndexArn: arn, IndexName: im.Name, IndexSizeBytes: ix.coll.Size(), ItemCount: int64(ix.coll.Len()),
				KeySchema: im.keySchema(), Projection: proj,
			})
			continue
		}
		g := gsiOut{
			IndexArn: arn, IndexName: im.Name, IndexSizeBytes: ix.coll.Size(), IndexStatus: "ACTIVE",
			ItemCount: int64(ix.coll.Len()), KeySchema: im.keySchema(), Projection: proj,
			ProvisionedThroughput: &throughputOut{ReadCapacityUnits: im.Read, WriteCapacityUnits: im.Write},
		}
		if status == "DELETING" {
			g.IndexStatus = "DELETING"
		}
		d.GlobalSecondaryIndexes = append(d.GlobalSecondaryIndexes, g)
	}
	d.VectorIndexes = t.describeVectors(d.TableArn)
	d.RestoreSummary = m.restoreSummary()
	if m.Stream != nil {
		d.StreamSpecification = &streamSpecOut{StreamEnabled: true, StreamViewType: m.Stream.ViewType}
		d.LatestStreamLabel = m.Stream.Label
		d.LatestStreamArn = d.TableArn + "/stream/" + m.Stream.Label
	} else if t.lastStream != "" {
		// A disabled stream stays the latest, without a specification.
		d.LatestStreamLabel = t.lastStream
		d.LatestStreamArn = d.TableArn + "/stream/" + t.lastStream
	}
	return d
}

// keySchema is the index's KeySchema: its partition, then its sort
// attributes.
func (ix *indexMeta) keySchema() []keySchemaOut {
	var out []keySchemaOut
	for _, ka := range ix.hashKeys() {
		out = append(out, keySchemaOut{ka.Name, "HASH"})
	}
	for _, ka := range ix.rangeKeys() {
		out = append(out, keySchemaOut{ka.Name, "RANGE"})
	}
	return out
}

func keySchema(h, r keyAttr) []keySchemaOut {
	out := []keySchemaOut{{h.Name, "HASH"}}
	if r.Name != "" {
		out = append(out, keySchemaOut{r.Name, "RANGE"})
	}
	return out
}

func epoch(t time.Time) float64 {
	return math.Round(float64(t.UnixNano())/1e6) / 1e3
}

func newUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// --- CreateTable ---

func (s *Server) createTable(c *call) (any, error) {
	var in dynamodb.CreateTableInput
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	m, err := s.validateCreate(&in, c.now)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, exists := s.tables[m.Name]; exists {
		return nil, resourceInUse("Table already exists: " + m.Name)
	}
	// A crash inside an earlier DeleteTable of this name can leave its
	// collections behind on a durable engine (the catalog entry goes
	// first): the new table starts empty.
	if err := s.dropCollections(m); err != nil {
		return nil, err
	}
	t, err := s.openTable(m)
	if err != nil {
		return nil, err
	}
	if err := s.saveMeta(m); err != nil {
		return nil, err
	}
	s.tables[m.Name] = t
	if err := s.syncStream(t, c.now); err != nil {
		return nil, err
	}
	return map[string]any{"TableDescription": s.describe(t, "ACTIVE")}, nil
}

// validateCreate checks a CreateTable request in DynamoDB's order and
// builds the table's description: the request's constraints, the attribute
// definitions and key schema, the secondary and vector indexes, that every
// definition is used, billing and throughput, then streams, protection,
// class and tags.
func (s *Server) validateCreate(in *dynamodb.CreateTableInput, now time.Time) (*tableMeta, error) {
	if err := createConstraints(in); err != nil {
		return nil, err
	}
	defs := map[string]string{}
	var defNames []string
	for _, a := range in.AttributeDefinitions {
		n := *a.AttributeName
		if _, dup := defs[n]; dup {
			return nil, validationf(msgDuplicateDefinition, n)
		}
		defs[n] = string(a.AttributeType)
		defNames = append(defNames, n)
	}
	m := &tableMeta{
		Name:    *in.TableName,
		ID:      newUUID(),
		Created: epoch(now),
		Billing: string(types.BillingModeProvisioned),
	}
	for _, a := range in.AttributeDefinitions {
		m.AttrDefs = append(m.AttrDefs, keyAttr{*a.AttributeName, string(a.AttributeType)})
	}
	h, r, err := checkKeySchema(in.KeySchema, defs, defNames)
	if err != nil {
		return nil, err
	}
	m.Hash, m.Range = h, r
	used := map[string]bool{h.Name: true, r.Name: true}
	if err := createSecondaryIndexes(in, m, defs, defNames, used); err != nil {
		return nil, err
	}
	payPerRequest := in.BillingMode == types.BillingModePayPerRequest
	if m.Vectors, err = createVectors(in.VectorIndexes, m, in.AttributeDefinitions, payPerRequest); err != nil {
		return nil, err
	}
	markVectorAttrs(used, in)
	if err := checkDefinitionsUsed(in, used, defNames); err != nil {
		return nil, err
	}
	if err := checkNonKeyTotal(m.Indexes); err != nil {
		return nil, err
	}
	if err := createBilling(in, m); err != nil {
		return nil, err
	}
	if ss := in.StreamSpecification; ss != nil {
		stream, err := streamFromSpec(ss, now)
		if err != nil {
			return nil, err
		}
		m.Stream = stream
	}
	if in.DeletionProtectionEnabled != nil {
		m.DeletionProtection = *in.DeletionProtectionEnabled
	}
	if in.TableClass != "" {
		m.TableClass = string(in.TableClass)
	}
	if m.Tags, err = createTags(in.Tags); err != nil {
		return nil, err
	}
	return m, nil
}

// createConstraints checks the request's member constraints (the
// "N validation errors detected" message, all of them at once).
func createConstraints(in *dynamodb.CreateTableInput) error {
	if err := controlTableName(in.TableName); err != nil {
		return err
	}
	var cs constraints
	cs.name(in.TableName, "tableName", true)
	if in.AttributeDefinitions == nil {
		cs.add(nil, "attributeDefinitions", ruleNotNull)
	}
	for i, a := range in.AttributeDefinitions {
		p := fmt.Sprintf("attributeDefinitions.%d.member", i+1)
		if a.AttributeName == nil {
			cs.add(nil, p+".attributeName", ruleNotNull)
		}
		if a.AttributeType == "" {
			cs.add(nil, p+".attributeType", ruleNotNull)
		} else {
			t := string(a.AttributeType)
			cs.enum(&t, p+".attributeType", "B", "N", "S")
		}
	}
	checkKeySchemaConstraints(&cs, in.KeySchema, "keySchema", 2)
	for i, g := range in.GlobalSecondaryIndexes {
		p := fmt.Sprintf("globalSecondaryIndexes.%d.member", i+1)
		cs.name(g.IndexName, p+".indexName", true)
		checkKeySchemaConstraints(&cs, g.KeySchema, p+".keySchema", 2*maxKeyAttrs)
		checkProjectionConstraints(&cs, g.Projection, p+".projection")
		checkThroughputConstraints(&cs, g.ProvisionedThroughput, p+".provisionedThroughput")
	}
	for i, l := range in.LocalSecondaryIndexes {
		p := fmt.Sprintf("localSecondaryIndexes.%d.member", i+1)
		cs.name(l.IndexName, p+".indexName", true)
		checkKeySchemaConstraints(&cs, l.KeySchema, p+".keySchema", 2)
		checkProjectionConstraints(&cs, l.Projection, p+".projection")
	}
	checkThroughputConstraints(&cs, in.ProvisionedThroughput, "provisionedThroughput")
	if in.BillingMode != "" {
		b := string(in.BillingMode)
		cs.enum(&b, "billingMode", "PROVISIONED", "PAY_PER_REQUEST")
	}
	if in.TableClass != "" {
		tc := string(in.TableClass)
		cs.enum(&tc, "tableClass", "STANDARD", "STANDARD_INFREQUENT_ACCESS")
	}
	checkStreamConstraints(&cs, in.StreamSpecification)
	vectorConstraints(&cs, in.VectorIndexes, "vectorIndexes")
	if err := cs.err(); err != nil { // a *Error: return no typed nil
		return err
	}
	return nil
}

// createSecondaryIndexes checks and adds the local, then the global
// secondary indexes, marking the key attributes they use.
func createSecondaryIndexes(in *dynamodb.CreateTableInput, m *tableMeta, defs map[string]string, defNames []string, used map[string]bool) error {
	h, r := m.Hash, m.Range
	names := map[string]bool{}
	if in.LocalSecondaryIndexes != nil {
		if len(in.LocalSecondaryIndexes) == 0 {
			return invalidParam("List of LocalSecondaryIndexes is empty")
		}
		if r.Name == "" {
			return invalidParam("Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex")
		}
		for _, l := range in.LocalSecondaryIndexes {
			ih, ir, err := checkKeySchema(l.KeySchema, defs, defNames)
			if err != nil {
				return err
			}
			if ir.Name == "" {
				return invalidParam("Index KeySchema does not have a range key for index: %s", *l.IndexName)
			}
			if ih.Name != h.Name {
				return invalidParam("Index KeySchema does not have the same leading hash key as table KeySchema for index: %s. index hash key: %s, table hash key: %s", *l.IndexName, ih.Name, h.Name)
			}
			im, err := indexFromProjection(*l.IndexName, ih, ir, l.Projection)
			if err != nil {
				return err
			}
			if names[im.Name] {
				return invalidParam("Duplicate index name: %s", im.Name)
			}
			names[im.Name] = true
			im.Local = true
			used[ir.Name] = true
			m.Indexes = append(m.Indexes, im)
		}
		if len(in.LocalSecondaryIndexes) > limits.MaxLSIs {
			return invalidParam("Number of LocalSecondaryIndexes exceeds per-table limit of %d", limits.MaxLSIs)
		}
	}
	if in.GlobalSecondaryIndexes != nil {
		if len(in.GlobalSecondaryIndexes) == 0 {
			return invalidParam("List of GlobalSecondaryIndexes is empty")
		}
		for _, g := range in.GlobalSecondaryIndexes {
			im, err := gsiFromSchema(*g.IndexName, g.KeySchema, g.Projection, defs, defNames)
			if err != nil {
				return err
			}
			if names[im.Name] {
				return invalidParam("Duplicate index name: %s", im.Name)
			}
			names[im.Name] = true
			for _, n := range im.keyNames() {
				used[n] = true
			}
			m.Indexes = append(m.Indexes, im)
		}
		if len(in.GlobalSecondaryIndexes) > limits.MaxGSIs {
			return invalidParam("GlobalSecondaryIndex count exceeds the per-table limit of %d", limits.MaxGSIs)
		}
	}
	return nil
}

// checkDefinitionsUsed checks that every attribute definition is a key
// attribute of the table or an index.
func checkDefinitionsUsed(in *dynamodb.CreateTableInput, used map[string]bool, defNames []string) error {
	delete(used, "")
	if len(used) != len(defNames) {
		if in.GlobalSecondaryIndexes == nil && in.LocalSecondaryIndexes == nil {
			return invalidParam("Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions")
		}
		keys := make([]string, 0, len(used))
		for k := range used {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		return invalidParam("Some AttributeDefinitions are not used. AttributeDefinitions: [%s], keys used: [%s]", strings.Join(defNames, ", "), strings.Join(keys, ", "))
	}
	return nil
}

// createBilling checks the billing mode and throughput of the table and
// its global indexes (API_CreateTable.html, BillingMode).
func createBilling(in *dynamodb.CreateTableInput, m *tableMeta) error {
	payPerRequest := in.BillingMode == types.BillingModePayPerRequest
	if payPerRequest {
		m.Billing = string(types.BillingModePayPerRequest)
		m.BillingChanged = m.Created
		if in.ProvisionedThroughput != nil {
			return invalidParam("Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST")
		}
		for _, g := range in.GlobalSecondaryIndexes {
			if g.ProvisionedThroughput != nil {
				return invalidParam("ProvisionedThroughput should not be specified for index: %s when BillingMode is PAY_PER_REQUEST", *g.IndexName)
			}
		}
	} else {
		pt := in.ProvisionedThroughput
		if pt == nil {
			return invalidParam("ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED")
		}
		if err := checkThroughputBounds(pt); err != nil {
			return err
		}
		m.Read, m.Write = *pt.ReadCapacityUnits, *pt.WriteCapacityUnits
		for _, g := range in.GlobalSecondaryIndexes {
			if g.ProvisionedThroughput == nil {
				return invalidParam(msgCreateGSINoThroughput, *g.IndexName)
			}
			if err := checkThroughputBounds(g.ProvisionedThroughput); err != nil {
				return err
			}
			im := findIndex(m.Indexes, *g.IndexName)
			im.Read, im.Write = *g.ProvisionedThroughput.ReadCapacityUnits, *g.ProvisionedThroughput.WriteCapacityUnits
		}
	}
	return nil
}

func findIndex(ixs []*indexMeta, name string) *indexMeta {
	for _, ix := range ixs {
		if ix.Name == name {
			return ix
		}
	}
	return nil
}

// checkStreamConstraints adds the member constraints of a
// StreamSpecification (API_StreamSpecification.html), in CreateTable and
// UpdateTable alike.
func checkStreamConstraints(cs *constraints, ss *types.StreamSpecification) {
	if ss == nil {
		return
	}
	if ss.StreamEnabled == nil {
		cs.add(nil, "streamSpecification.streamEnabled", ruleNotNull)
	}
	if ss.StreamViewType != "" {
		v := string(ss.StreamViewType)
		// The service lists the set in this order (observed 2026-10-08/09 on
		// CreateTable and UpdateTable: aws-controllers-k8s API quirks,
		// DDB-TABLE-035 and DDB-TABLE-457).
		cs.enum(&v, "streamSpecification.streamViewType", "OLD_IMAGE", "KEYS_ONLY", "NEW_AND_OLD_IMAGES", "NEW_IMAGE")
	}
}

// streamFromSpec is the stream a CreateTable StreamSpecification asks for
// (none when it is disabled); UpdateTable checks its own rules first.
func streamFromSpec(ss *types.StreamSpecification, now time.Time) (*streamMeta, error) {
	if !aws.ToBool(ss.StreamEnabled) {
		if ss.StreamViewType != "" {
			return nil, invalidParam(msgCreateStreamDisabledWithView)
		}
		return nil, nil
	}
	if ss.StreamViewType == "" {
		return nil, invalidParam(msgCreateStreamNeedsView)
	}
	return &streamMeta{ViewType: string(ss.StreamViewType), Label: streamLabel(now)}, nil
}

// checkKeySchemaConstraints checks a key schema of at most max elements (2,
// or 8 for a GSI's multi-attribute key).
func checkKeySchemaConstraints(cs *constraints, ks []types.KeySchemaElement, path string, max int) {
	if ks == nil {
		cs.add(nil, path, ruleNotNull)
		return
	}
	if len(ks) < 1 {
		cs.add(keySchemaText(ks), path, "Member must have length greater than or equal to 1")
	} else if len(ks) > max {
		cs.add(keySchemaText(ks), path, fmt.Sprintf("Member must have length less than or equal to %d", max))
	}
	for i, k := range ks {
		p := fmt.Sprintf("%s.%d.member", path, i+1)
		if k.AttributeName == nil {
			cs.add(nil, p+".attributeName", ruleNotNull)
		} else if n := len(*k.AttributeName); n < 1 || n > limits.MaxNameLen {
			cs.add(*k.AttributeName, p+".attributeName", map[bool]string{true: "Member must have length greater than or equal to 1", false: "Member must have length less than or equal to 255"}[n < 1])
		}
		if k.KeyType == "" {
			cs.add(nil, p+".keyType", ruleNotNull)
		} else {
			kt := string(k.KeyType)
			cs.enum(&kt, p+".keyType", "HASH", "RANGE")
		}
	}
}

func keySchemaText(ks []types.KeySchemaElement) string {
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = fmt.Sprintf("KeySchemaElement(attributeName=%s, keyType=%s)", aws.ToString(k.AttributeName), k.KeyType)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func checkProjectionConstraints(cs *constraints, p *types.Projection, path string) {
	if p == nil {
		cs.add(nil, path, ruleNotNull)
		return
	}
	if p.ProjectionType != "" {
		pt := string(p.ProjectionType)
		cs.enum(&pt, path+".projectionType", "ALL", "KEYS_ONLY", "INCLUDE")
	}
	if p.NonKeyAttributes != nil && len(p.NonKeyAttributes) == 0 {
		cs.add("[]", path+".nonKeyAttributes", "Member must have length greater than or equal to 1")
	}
	// API_Projection.html: at most 20 NonKeyAttributes per index.
	if len(p.NonKeyAttributes) > limits.MaxProjectedPerIndex {
		cs.add("["+strings.Join(p.NonKeyAttributes, ", ")+"]", path+".nonKeyAttributes", "Member must have length less than or equal to 20")
	}
	// Each name is 1 to 255 characters (API_Projection.html); the framework
	// reports the whole list.
	for _, n := range p.NonKeyAttributes {
		if l := utf8.RuneCountInString(n); l < 1 || l > limits.MaxNameLen {
			cs.add("["+strings.Join(p.NonKeyAttributes, ", ")+"]", path+".nonKeyAttributes",
				"Member must satisfy constraint: [Member must have length less than or equal to 255, Member must have length greater than or equal to 1]")
			break
		}
	}
}

func checkThroughputConstraints(cs *constraints, pt *types.ProvisionedThroughput, path string) {
	if pt == nil {
		return
	}
	for _, f := range []struct {
		v    *int64
		name string
	}{{pt.WriteCapacityUnits, "writeCapacityUnits"}, {pt.ReadCapacityUnits, "readCapacityUnits"}} {
		if f.v == nil {
			cs.add(nil, path+"."+f.name, ruleNotNull)
		} else if *f.v < 1 {
			cs.add(*f.v, path+"."+f.name, "Member must have value greater than or equal to 1")
		}
	}
}

func checkThroughputBounds(pt *types.ProvisionedThroughput) error {
	const max = 1000000000000
	if *pt.ReadCapacityUnits > max {
		return validationf("Given value %d for ReadCapacityUnits is out of bounds", *pt.ReadCapacityUnits)
	}
	if *pt.WriteCapacityUnits > max {
		return validationf("Given value %d for WriteCapacityUnits is out of bounds", *pt.WriteCapacityUnits)
	}
	return nil
}

// checkKeySchema checks a table's or an index's key schema against the
// attribute definitions.
func checkKeySchema(ks []types.KeySchemaElement, defs map[string]string, defNames []string) (h, r keyAttr, err error) {
	names := make([]string, len(ks))
	for i, k := range ks {
		names[i] = *k.AttributeName
	}
	for _, n := range names {
		if _, ok := defs[n]; !ok {
			if len(ks) == 2 {
				return h, r, validation("Invalid KeySchema: Some index key attribute have no definition")
			}
			return h, r, invalidParam("Some index key attributes are not defined in AttributeDefinitions. Keys: [%s], AttributeDefinitions: [%s]", strings.Join(names, ", "), strings.Join(defNames, ", "))
		}
	}
	if len(ks) == 2 && names[0] == names[1] {
		return h, r, validation("Both the Hash Key and the Range Key element in the KeySchema have the same name")
	}
	if ks[0].KeyType != types.KeyTypeHash {
		return h, r, validation("Invalid KeySchema: The first KeySchemaElement is not a HASH key type")
	}
	if len(ks) == 2 && ks[1].KeyType != types.KeyTypeRange {
		return h, r, validation("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type")
	}
	h = keyAttr{names[0], defs[names[0]]}
	if len(ks) == 2 {
		r = keyAttr{names[1], defs[names[1]]}
	}
	return h, r, nil
}

func indexFromProjection(name string, h, r keyAttr, p *types.Projection) (*indexMeta, error) {
	if p.ProjectionType == "" {
		return nil, invalidParam("Unknown ProjectionType: null")
	}
	if p.NonKeyAttributes != nil && p.ProjectionType != types.ProjectionTypeInclude {
		return nil, invalidParam("ProjectionType is %s, but NonKeyAttributes is specified", p.ProjectionType)
	}
	if p.ProjectionType == types.ProjectionTypeInclude && len(p.NonKeyAttributes) == 0 {
		return nil, invalidParam("ProjectionType is INCLUDE, but NonKeyAttributes is not specified")
	}
	if d, ok := duplicate(p.NonKeyAttributes); ok {
		return nil, invalidParam(msgDuplicateNonKey, d)
	}
	return &indexMeta{Name: name, Hash: h, Range: r, Projection: string(p.ProjectionType), NonKey: append([]string(nil), p.NonKeyAttributes...)}, nil
}

func checkNonKeyTotal(ixs []*indexMeta) error {
	n := 0
	for _, ix := range ixs {
		n += len(ix.NonKey)
	}
	if n > limits.MaxProjectedPerTable {
		return invalidParam("The number of NonKeyAttributes projected into all secondary indexes exceeds the limit of %d", limits.MaxProjectedPerTable)
	}
	return nil
}

// --- DescribeTable, ListTables, DeleteTable ---

type tableNameInput struct {
	TableName *string
}

func (s *Server) tableFromName(c *call) (*tableNameInput, error) {
	var in tableNameInput
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	if err := controlTableName(in.TableName); err != nil {
		return nil, err
	}
	var cs constraints
	cs.name(in.TableName, "tableName", true)
	if err := cs.err(); err != nil {
		return nil, err
	}
	return &in, nil
}

func (s *Server) describeTable(c *call) (any, error) {
	in, err := s.tableFromName(c)
	if err != nil {
		return nil, err
	}
	t, err := s.readTable(c, *in.TableName)
	if err != nil {
		return nil, tableNotFound(*in.TableName)
	}
	defer t.mu.RUnlock()
	return map[string]any{"Table": s.describe(t, "ACTIVE")}, nil
}

// deletedTableOut is the TableDescription DeleteTable answers: the service
// reports the table's identity, status, size and throughput, but neither its
// key schema, attribute definitions, creation time nor indexes (the example
// in API_DeleteTable.html).
type deletedTableOut struct {
	BillingModeSummary        *billingOut `json:",omitempty"`
	DeletionProtectionEnabled bool
	ItemCount                 int64
	ProvisionedThroughput     throughputOut
	TableArn                  string
	TableId                   string
	TableName                 string
	TableSizeBytes            int64
	TableStatus               string
}

func deletedDescription(d *tableDescription) *deletedTableOut {
	return &deletedTableOut{
		BillingModeSummary: d.BillingModeSummary, DeletionProtectionEnabled: d.DeletionProtectionEnabled,
		ItemCount: d.ItemCount, ProvisionedThroughput: d.ProvisionedThroughput, TableArn: d.TableArn,
		TableId: d.TableId, TableName: d.TableName, TableSizeBytes: d.TableSizeBytes, TableStatus: d.TableStatus,
	}
}

func (s *Server) deleteTable(c *call) (any, error) {
	in, err := s.tableFromName(c)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tables[*in.TableName]
	if t == nil {
		return nil, tableNotFound(*in.TableName)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.meta.DeletionProtection {
		return nil, validation("Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.")
	}
	desc := deletedDescription(s.describe(t, "DELETING"))
	if err := s.engine.PutMeta(metaKey(t.meta.Name), nil); err != nil {
		return nil, err
	}
	s.engine.Drop(tableCollection(t.meta.Name))
	for _, ix := range t.indexes {
		s.engine.Drop(indexCollection(t.meta.Name, ix.meta.Name))
	}
	s.engine.Drop(historyCollection(t.meta))
	t.deleted = true
	delete(s.tables, t.meta.Name)
	if err := s.syncStream(t, c.now); err != nil {
		return nil, err
	}
	return map[string]any{"TableDescription": desc}, nil
}

func (s *Server) listTables(c *call) (any, error) {
	var in struct {
		ExclusiveStartTableName *string
		Limit                   *int64
	}
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	var cs constraints
	cs.name(in.ExclusiveStartTableName, "exclusiveStartTableName", false)
	limit := limits.MaxListTables
	if in.Limit != nil {
		switch l := *in.Limit; {
		case l < 1:
			cs.add(l, "limit", "Member must have value greater than or equal to 1")
		case l > limits.MaxListTables:
			cs.add(l, "limit", "Member must have value less than or equal to 100")
		default:
			limit = int(l)
		}
	}
	if err := cs.err(); err != nil {
		return nil, err
	}
	s.mu.RLock()
	names := make([]string, 0, len(s.tables))
	for n := range s.tables {
		if in.ExclusiveStartTableName == nil || n > *in.ExclusiveStartTableName {
			names = append(names, n)
		}
	}
	s.mu.RUnlock()
	sort.Strings(names)
	out := struct {
		TableNames             []string
		LastEvaluatedTableName string `json:",omitempty"`
	}{TableNames: names}
	if len(names) > limit {
		out.TableNames = names[:limit]
		out.LastEvaluatedTableName = names[limit-1]
	}
	return out, nil
}

// --- UpdateTable ---

// updateTable runs in phases: the request's constraints, then, under the
// table lock on a copy of its description, the table's own settings
// (billing, throughput, protection, class, stream), the GSI updates, the
// vector index updates, and the commit of the new index set.
func (s *Server) updateTable(c *call) (any, error) {
	var in dynamodb.UpdateTableInput
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	if err := updateConstraints(&in); err != nil {
		return nil, err
	}
	t, err := s.writeTable(c, *in.TableName)
	if err != nil {
		return nil, tableNotFound(*in.TableName)
	}
	defer t.mu.Unlock()
	m := t.meta.clone()
	if err := s.updateSettings(&in, t, m, c.now); err != nil {
		return nil, err
	}
	created, deleted, err := updateGSIs(&in, t, m)
	if err != nil {
		return nil, err
	}
	vu, err := t.updateVectors(in.VectorIndexUpdates, m, in.AttributeDefinitions)
	if err != nil {
		return nil, err
	}
	if err := s.commitIndexes(t, m, created, deleted); err != nil {
		return nil, err
	}
	t.commitVectors(vu)
	if err := s.syncStream(t, c.now); err != nil {
		return nil, err
	}
	return map[string]any{"TableDescription": s.describe(t, "ACTIVE")}, nil
}

// updateConstraints checks an UpdateTable request's member constraints and
// that it asks for something.
func updateConstraints(in *dynamodb.UpdateTableInput) error {
	if err := controlTableName(in.TableName); err != nil {
		return err
	}
	var cs constraints
	cs.name(in.TableName, "tableName", true)
	checkThroughputConstraints(&cs, in.ProvisionedThroughput, "provisionedThroughput")
	if in.BillingMode != "" {
		b := string(in.BillingMode)
		cs.enum(&b, "billingMode", "PROVISIONED", "PAY_PER_REQUEST")
	}
	for i, u := range in.GlobalSecondaryIndexUpdates {
		p := fmt.Sprintf("globalSecondaryIndexUpdates.%d.member", i+1)
		if g := u.Create; g != nil {
			cs.name(g.IndexName, p+".create.indexName", true)
			checkKeySchemaConstraints(&cs, g.KeySchema, p+".create.keySchema", 2*maxKeyAttrs)
			checkProjectionConstraints(&cs, g.Projection, p+".create.projection")
			checkThroughputConstraints(&cs, g.ProvisionedThroughput, p+".create.provisionedThroughput")
		}
		if g := u.Update; g != nil {
			cs.name(g.IndexName, p+".update.indexName", true)
			checkThroughputConstraints(&cs, g.ProvisionedThroughput, p+".update.provisionedThroughput")
		}
		if g := u.Delete; g != nil {
			cs.name(g.IndexName, p+".delete.indexName", true)
		}
	}
	checkStreamConstraints(&cs, in.StreamSpecification)
	if err := cs.err(); err != nil { // a *Error: return no typed nil
		return err
	}
	// An empty GlobalSecondaryIndexUpdates counts as absent when nothing
	// else is asked, and is refused beside another change (observed).
	if in.ProvisionedThroughput == nil && in.BillingMode == "" && len(in.GlobalSecondaryIndexUpdates) == 0 &&
		in.StreamSpecification == nil && in.DeletionProtectionEnabled == nil && in.TableClass == "" &&
		in.SSESpecification == nil && in.ReplicaUpdates == nil && in.OnDemandThroughput == nil && in.VectorIndexUpdates == nil {
		members := []string{"ProvisionedThroughput", "BillingMode", "UpdateStreamEnabled", "GlobalSecondaryIndexUpdates", "SSESpecification",
			"ReplicaUpdates", "MultiAccountReplicaReady", "ReplicaTransitRoleArn", "MultiRegionConsistency", "DeletionProtectionEnabled",
			"OnDemandThroughput", "WarmThroughput"}
		if in.MultiRegionConsistency != "" {
			members = slices.DeleteFunc(members, func(m string) bool { return m == "MultiRegionConsistency" })
		}
		return validationf(msgUpdateNothing, strings.Join(members, ", "))
	}
	if in.GlobalSecondaryIndexUpdates != nil && len(in.GlobalSecondaryIndexUpdates) == 0 {
		return invalidParam(msgEmptyGSIUpdates)
	}
	return nil
}

// updateSettings applies billing mode, throughput, deletion protection,
// table class and stream changes to m, the copy of t's description.
func (s *Server) updateSettings(in *dynamodb.UpdateTableInput, t *table, m *tableMeta, at time.Time) error {
	now := epoch(at)
	if in.BillingMode != "" && string(in.BillingMode) != m.Billing {
		m.Billing = string(in.BillingMode)
		if in.BillingMode == types.BillingModePayPerRequest {
			m.BillingChanged = now
			m.Read, m.Write = 0, 0
			for _, ix := range m.Indexes {
				ix.Read, ix.Write = 0, 0
			}
		}
	}
	if pt := in.ProvisionedThroughput; pt != nil {
		if m.Billing == string(types.BillingModePayPerRequest) {
			return invalidParam("Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST")
		}
		if err := checkThroughputBounds(pt); err != nil {
			return err
		}
		r, w := *pt.ReadCapacityUnits, *pt.WriteCapacityUnits
		if r == t.meta.Read && w == t.meta.Write && in.BillingMode == "" && in.GlobalSecondaryIndexUpdates == nil {
			return validationf("The provisioned throughput for the table will not change. The requested value equals the current value. Current ReadCapacityUnits provisioned for the table: %d. Requested ReadCapacityUnits: %d. Current WriteCapacityUnits provisioned for the table: %d. Requested WriteCapacityUnits: %d. Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.", t.meta.Read, r, t.meta.Write, w)
		}
		if r > m.Read || w > m.Write {
			m.LastIncrease = now
		}
		if r < m.Read || w < m.Write {
			m.LastDecrease = now
			m.Decreases++
		}
		m.Read, m.Write = r, w
	} else if m.Billing == string(types.BillingModeProvisioned) && t.meta.Billing != m.Billing {
		return invalidParam("ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED")
	}
	if in.DeletionProtectionEnabled != nil {
		m.DeletionProtection = *in.DeletionProtectionEnabled
	}
	if in.TableClass != "" {
		m.TableClass = string(in.TableClass)
	}
	if ss := in.StreamSpecification; ss != nil {
		// The request's shape first, then the table's state.
		enabled := aws.ToBool(ss.StreamEnabled)
		switch {
		case enabled && ss.StreamViewType == "":
			return invalidParam(msgStreamEnableNeedsView)
		case !enabled && ss.StreamViewType != "":
			return invalidParam(msgStreamDisableWithView)
		case enabled && m.Stream != nil:
			return validationf(msgStreamAlreadyEnabled, m.Name)
		case !enabled && m.Stream == nil:
			return validationf(msgStreamNoneToDisable, m.Name)
		}
		stream, err := streamFromSpec(ss, at)
		if err != nil {
			return err
		}
		m.Stream = stream
	}
	return nil
}

// updateGSIs applies the GSI updates to m and returns the indexes created
// and the names of those deleted; without updates it checks that a switch
// to PROVISIONED left every GSI with throughput.
func updateGSIs(in *dynamodb.UpdateTableInput, t *table, m *tableMeta) (created []*indexMeta, deleted []string, err error) {
	// API_GlobalSecondaryIndexUpdate.html
	if in.GlobalSecondaryIndexUpdates != nil {
		// A new index's key attributes are defined in the request itself;
		// the table's definitions do not count (observed: aws-controllers-k8s
		// API quirks, DDB-TABLE-162).
		defs := map[string]string{}
		var defNames []string
		stored := map[string]string{}
		for _, a := range m.AttrDefs {
			stored[a.Name] = a.Type
		}
		for _, a := range in.AttributeDefinitions {
			n := aws.ToString(a.AttributeName)
			if old, ok := stored[n]; ok && old != string(a.AttributeType) {
				return nil, nil, invalidParam("Cannot change the type of attribute %s", n)
			}
			if _, ok := defs[n]; !ok {
				defNames = append(defNames, n)
			}
			defs[n] = string(a.AttributeType)
		}
		changes := 0
		seen := map[string]bool{}
		for _, u := range in.GlobalSecondaryIndexUpdates {
			var name *string
			n := 0
			if u.Create != nil {
				n, name = n+1, u.Create.IndexName
			}
			if u.Update != nil {
				n, name = n+1, u.Update.IndexName
			}
			if u.Delete != nil {
				n, name = n+1, u.Delete.IndexName
			}
			switch {
			case n == 0:
				return nil, nil, invalidParam(msgGSIUpdateNoAction)
			case n > 1:
				return nil, nil, invalidParam(msgGSIUpdateTwoActions)
			case seen[*name]:
				return nil, nil, invalidParam(msgGSIUpdateSameIndex, *name)
			}
			seen[*name] = true
			if u.Create != nil || u.Delete != nil {
				changes++
			}
		}
		if changes > 1 {
			return nil, nil, &Error{Type: "LimitExceededException", Message: "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table"}
		}
		for _, u := range in.GlobalSecondaryIndexUpdates {
			switch {
			case u.Create != nil:
				g := u.Create
				if findIndex(m.Indexes, *g.IndexName) != nil {
					return nil, nil, validation(msgIndexExists)
				}
				if len(in.AttributeDefinitions) == 0 {
					return nil, nil, invalidParam(msgGSINoDefinitions, *g.IndexName)
				}
				im, err := gsiFromSchema(*g.IndexName, g.KeySchema, g.Projection, defs, defNames)
				if err != nil {
					return nil, nil, err
				}
				for _, k := range im.keyNames() {
					if _, ok := stored[k]; !ok {
						m.AttrDefs = append(m.AttrDefs, keyAttr{k, defs[k]})
						stored[k] = defs[k]
					}
				}
				if m.Billing == string(types.BillingModeProvisioned) {
					if g.ProvisionedThroughput == nil {
						return nil, nil, invalidParam("ProvisionedThroughput must be specified for index: %s", im.Name)
					}
					im.Read, im.Write = *g.ProvisionedThroughput.ReadCapacityUnits, *g.ProvisionedThroughput.WriteCapacityUnits
				} else if g.ProvisionedThroughput != nil {
					return nil, nil, invalidParam("ProvisionedThroughput should not be specified for index: %s when BillingMode is PAY_PER_REQUEST", im.Name)
				}
				gsis := 0
				for _, ix := range m.Indexes {
					if !ix.Local {
						gsis++
					}
				}
				if gsis >= limits.MaxGSIs {
					return nil, nil, &Error{Type: "LimitExceededException", Message: fmt.Sprintf("GlobalSecondaryIndex count exceeds the per-table limit of %d", limits.MaxGSIs)}
				}
				m.Indexes = append(m.Indexes, im)
				created = append(created, im)
			case u.Update != nil:
				im := findIndex(m.Indexes, *u.Update.IndexName)
				if im == nil || im.Local {
					return nil, nil, notFound("Requested resource not found: Index: " + *u.Update.IndexName + " not found")
				}
				if m.Billing == string(types.BillingModePayPerRequest) {
					switch {
					case u.Update.ProvisionedThroughput != nil:
						return nil, nil, invalidParam(msgGSIUpdateOnDemandThroughput, im.Name)
					case u.Update.OnDemandThroughput == nil && u.Update.WarmThroughput == nil:
						return nil, nil, invalidParam(msgGSIUpdateOnDemandOnly, im.Name)
					}
					continue
				}
				if u.Update.ProvisionedThroughput == nil {
					return nil, nil, invalidParam("ProvisionedThroughput must be specified for index: %s", im.Name)
				}
				r, w := *u.Update.ProvisionedThroughput.ReadCapacityUnits, *u.Update.ProvisionedThroughput.WriteCapacityUnits
				if r == im.Read && w == im.Write {
					// An update that changes nothing is refused, as for the table.
					return nil, nil, validationf("The provisioned throughput for the index %[1]s will not change. The requested value equals the current value. Current ReadCapacityUnits provisioned for the index %[1]s: %[2]d. Requested ReadCapacityUnits: %[3]d. Current WriteCapacityUnits provisioned for the index %[1]s: %[4]d. Requested WriteCapacityUnits: %[5]d. Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.", im.Name, im.Read, r, im.Write, w)
				}
				im.Read, im.Write = r, w
			case u.Delete != nil:
				im := findIndex(m.Indexes, *u.Delete.IndexName)
				if im == nil || im.Local {
					return nil, nil, notFound("Requested resource not found: Index: " + *u.Delete.IndexName + " not found")
				}
				deleted = append(deleted, im.Name)
				for i, ix := range m.Indexes {
					if ix == im {
						m.Indexes = append(m.Indexes[:i:i], m.Indexes[i+1:]...)
						break
					}
				}
			}
		}
		if err := checkNonKeyTotal(m.Indexes); err != nil {
			return nil, nil, err
		}
	} else if m.Billing == string(types.BillingModeProvisioned) && t.meta.Billing != m.Billing {
		for _, ix := range m.Indexes {
			if !ix.Local && ix.Read == 0 {
				return nil, nil, invalidParam("ProvisionedThroughput must be specified for index: %s", ix.Name)
			}
		}
	}

	return created, deleted, nil
}

// commitIndexes builds the new index set (a created index backfilled from
// the table's items under the table lock), saves m and makes it t's.
func (s *Server) commitIndexes(t *table, m *tableMeta, created []*indexMeta, deleted []string) error {
	// Build the new index set, then commit.
	var indexes []*index
	for _, im := range m.Indexes {
		if old := t.index(im.Name); old != nil && !containsIndex(created, im) {
			indexes = append(indexes, &index{meta: im, coll: old.coll})
			continue
		}
		// Start from an empty collection: an UpdateTable that crashed while
		// filling this index left entries but no catalog entry naming them.
		if err := s.engine.Drop(indexCollection(m.Name, im.Name)); err != nil {
			return err
		}
		coll, err := s.engine.Collection(indexCollection(m.Name, im.Name))
		if err != nil {
			return err
		}
		ix := &index{meta: im, coll: coll}
		if err := t.backfill(ix, m); err != nil {
			return err
		}
		indexes = append(indexes, ix)
	}
	if err := s.saveMeta(m); err != nil {
		return err
	}
	for _, n := range deleted {
		s.engine.Drop(indexCollection(m.Name, n))
	}
	t.meta, t.indexes = m, indexes
	return nil
}

func containsIndex(ixs []*indexMeta, im *indexMeta) bool {
	for _, x := range ixs {
		if x == im {
			return true
		}
	}
	return false
}

// backfill fills a new index from the table's items; the caller holds t.mu.
// The entries go to the engine in batches (one fsync each on a durable
// engine, not one per item, and none held in memory for later); the index
// is not in the catalog until the caller saves it, so a crash part way
// leaves no index naming them.
func (t *table) backfill(ix *index, m *tableMeta) error {
	const batchSize = 256
	var ferr error
	ops := make([]storage.Op, 0, batchSize)
	flush := func() error {
		if err := t.engine.Apply(ops); err != nil {
			return err
		}
		ops = ops[:0]
		return nil
	}
	t.items.Ascend(nil, nil, func(_ []byte, v storage.Value) bool {
		it := itemOf(v)
		k, ok, err := m.appendIndexKey(nil, ix.meta, it)
		if err != nil {
			ferr = err
			return false
		}
		if !ok || !backfillable(ix.meta, it) {
			return true
		}
		pv := v
		if ix.meta.Projection != string(types.ProjectionTypeAll) {
			if pv, ferr = storage.Encode(project(m, ix.meta, it)); ferr != nil {
				return false
			}
		}
		ops = append(ops, storage.Put(ix.coll, k, pv))
		if len(ops) == batchSize {
			ferr = flush()
		}
		return ferr == nil
	})
	if ferr != nil {
		return ferr
	}
	return flush()
}

// dropCollections drops the collections a table definition names.
func (s *Server) dropCollections(m *tableMeta) error {
	if err := s.engine.Drop(tableCollection(m.Name)); err != nil {
		return err
	}
	for _, im := range m.Indexes {
		if err := s.engine.Drop(indexCollection(m.Name, im.Name)); err != nil {
			return err
		}
	}
	return nil
}

// --- DescribeLimits, DescribeEndpoints ---

func (s *Server) describeLimits(c *call) (any, error) {
	// The default quotas (ServiceQuotas.html, "Throughput default quotas").
	return map[string]int64{
		"AccountMaxReadCapacityUnits":  80000,
		"AccountMaxWriteCapacityUnits": 80000,
		"TableMaxReadCapacityUnits":    40000,
		"TableMaxWriteCapacityUnits":   40000,
	}, nil
}

// describeEndpoints answers the Host the request was sent to when
// WithHostCheck vouched for it, the region's public name otherwise: an
// unchecked Host could send an SDK's endpoint discovery anywhere.
func (s *Server) describeEndpoints(c *call) (any, error) {
	addr := c.host
	if addr == "" {
		addr = "dynamodb." + s.region + ".amazonaws.com"
	}
	return map[string]any{"Endpoints": []map[string]any{{"Address": addr, "CachePeriodInMinutes": 1440}}}, nil
}
