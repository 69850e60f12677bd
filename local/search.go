package local

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/codec/ddbjson"
	"github.com/dynamogo/dynamo/expr/parse"
	"github.com/dynamogo/dynamo/local/eval"
	"github.com/dynamogo/dynamo/local/vector"

	"github.com/dynamogo/dynamo/local/storage"
)

// Vector indexes and SearchVectors (spec/vector-search.md). The engine is
// package local/vector; this file wires it into the tables: definitions in
// tableMeta.Vectors (persisted with the catalog), one vector.Set per live
// table kept in step by (*table).apply, and the SearchVectors action.
//
// Indexes are ACTIVE as soon as CreateTable or UpdateTable returns (an
// UpdateTable create backfills inside the call), so the service's CREATING
// and backfilling phases, and the errors that belong to them, never occur.

// vectorError maps the engine's errors to the client's.
func vectorError(err error) error {
	var ve *vector.Error
	if errors.As(err, &ve) {
		return &Error{Type: ve.Type, Message: ve.Message}
	}
	return err
}

// openVectors builds the vector indexes of t.meta, filling them from the
// table's items (a durable engine's tables are reopened with items).
func (t *table) openVectors() error {
	for _, d := range t.meta.Vectors {
		ix, err := t.buildVector(d)
		if err != nil {
			return err
		}
		t.vectors.Add(ix)
	}
	return nil
}

func (t *table) buildVector(d vector.Definition) (*vector.Index, error) {
	ix, err := vector.New(d)
	if err != nil {
		return nil, vectorError(err)
	}
	ix.Backfill(func(yield func(string, vector.Item) bool) {
		t.items.Ascend(nil, nil, func(k []byte, v storage.Value) bool { return yield(string(k), itemOf(v)) })
	})
	return ix, nil
}

// checkVectors validates an item about to be stored against the vector
// indexes (PutItem, BatchWriteItem, TransactWriteItems Put).
func (t *table) checkVectors(it Item) error {
	if t.vectors.Len() == 0 {
		return nil
	}
	return vectorError(t.vectors.Check(it))
}

// checkVectorUpdate is checkVectors for the result of an update expression.
func (t *table) checkVectorUpdate(it Item, updated []string) error {
	if t.vectors.Len() == 0 {
		return nil
	}
	return vectorError(t.vectors.CheckUpdate(it, updated))
}

// syncVectors keeps the vector indexes in step with one item write; apply
// calls it with the table locked.
func (t *table) syncVectors(key []byte, old, nu Item, mt *meter) {
	if t.vectors.Len() == 0 {
		return
	}
	if mt != nil && mt.mode == "INDEXES" {
		for n, b := range t.vectors.WriteBytes(old, nu) {
			mt.addVector(n, b)
		}
	}
	if nu == nil {
		t.vectors.Delete(string(key))
	} else {
		// The indexes keep a view of the item: a compact copy, so that it
		// does not hold on to its request's decoding buffers.
		t.vectors.Upsert(string(key), compactItem(nu))
	}
}

func (m *meter) addVector(name string, bytes float64) {
	if m.mode != "INDEXES" || bytes == 0 {
		return
	}
	if m.vectors == nil {
		m.vectors = map[string]float64{}
	}
	m.vectors[name] += bytes
}

// vectorCapacity is VectorCapacity (API_VectorCapacity.html).
type vectorCapacity struct {
	VectorSearchRequestBytes float64 `json:",omitempty"`
	VectorWriteRequestBytes  float64 `json:",omitempty"`
}

func (m *meter) vectorResult() map[string]vectorCapacity {
	if m.mode != "INDEXES" || len(m.vectors) == 0 {
		return nil
	}
	out := make(map[string]vectorCapacity, len(m.vectors))
	for n, b := range m.vectors {
		out[n] = vectorCapacity{VectorWriteRequestBytes: b}
	}
	return out
}

// --- control plane ---

// vectorConstraints adds the request-model violations of VectorIndexes (or
// of VectorIndexUpdates' creates) to cs.
func vectorConstraints(cs *constraints, vis []types.VectorIndex, path string) {
	for i, vi := range vis {
		for _, c := range vector.ModelConstraints(vi, fmt.Sprintf("%s.%d.member", path, i+1)) {
			cs.add(c.Value, c.Path, c.Rule)
		}
	}
}

// markVectorAttrs counts the declared SearchSchema attributes as used by a
// key, for the rule that every AttributeDefinitions entry is used (an
// undeclared one is createVectors' error).
func markVectorAttrs(used map[string]bool, in *dynamodb.CreateTableInput) {
	for _, vi := range in.VectorIndexes {
		for _, el := range vi.SearchSchema {
			for _, a := range in.AttributeDefinitions {
				if el.AttributeName != nil && a.AttributeName != nil && *a.AttributeName == *el.AttributeName {
					used[*el.AttributeName] = true
				}
			}
		}
	}
}

// createVectors validates CreateTable's VectorIndexes against the table
// being defined.
func createVectors(in []types.VectorIndex, m *tableMeta, defs []types.AttributeDefinition, payPerRequest bool) ([]vector.Definition, error) {
	other := make([]string, 0, len(m.Indexes))
	for _, ix := range m.Indexes {
		other = append(other, ix.Name)
	}
	d, err := vector.CreateTableIndexes(in, vector.Table{Name: m.Name, PayPerRequest: payPerRequest, TableKeys: m.keyNames(), Other: other}, defs)
	if err != nil {
		return nil, vectorError(err)
	}
	return d, nil
}

// vectorUpdate is UpdateTable's VectorIndexUpdates, validated and ready to
// commit.
type vectorUpdate struct {
	create *vector.Index
	del    string
}

// updateVectors validates UpdateTable's VectorIndexUpdates (m is the new
// definition, billing already changed) and builds a created index from
// the table's items; the caller holds t.mu and commits with commitVectors.
func (t *table) updateVectors(ups []types.VectorIndexUpdate, m *tableMeta, defs []types.AttributeDefinition) (*vectorUpdate, error) {
	payPerRequest := m.Billing == string(types.BillingModePayPerRequest)
	if !payPerRequest && len(m.Vectors) > 0 {
		return nil, vectorError(vector.ErrProvisionedWithVectorIndexes())
	}
	if ups == nil {
		return nil, nil
	}
	var cs constraints
	for i, u := range ups {
		if u.Create != nil {
			for _, c := range vector.ModelConstraints(vector.FromCreateAction(*u.Create), fmt.Sprintf("vectorIndexUpdates.%d.member.create", i+1)) {
				cs.add(c.Value, c.Path, c.Rule)
			}
		}
	}
	if err := cs.err(); err != nil {
		return nil, err
	}
	other := make([]string, 0, len(m.Indexes))
	for _, ix := range m.Indexes {
		other = append(other, ix.Name)
	}
	create, del, err := vector.UpdateTableAction(ups, vector.Table{Name: m.Name, PayPerRequest: payPerRequest, TableKeys: m.keyNames(), Vector: m.Vectors, Other: other}, defs)
	if err != nil {
		return nil, vectorError(err)
	}
	vu := &vectorUpdate{del: del}
	if create != nil {
		// The SearchSchema attributes' definitions join the table's, as a
		// GSI's key attributes do.
		for _, el := range create.SearchSchema {
			n := str(el.AttributeName)
			if slices.ContainsFunc(m.AttrDefs, func(a keyAttr) bool { return a.Name == n }) {
				continue
			}
			for _, a := range defs {
				if str(a.AttributeName) == n {
					m.AttrDefs = append(m.AttrDefs, keyAttr{n, string(a.AttributeType)})
				}
			}
		}
		if vu.create, err = t.buildVector(*create); err != nil {
			return nil, err
		}
		m.Vectors = append(m.Vectors, *create)
	}
	if del != "" {
		m.Vectors = slices.DeleteFunc(m.Vectors, func(d vector.Definition) bool { return d.Name == del })
	}
	return vu, nil
}

// commitVectors applies a validated update to the live indexes.
func (t *table) commitVectors(vu *vectorUpdate) {
	if vu == nil {
		return
	}
	if vu.create != nil {
		t.vectors.Add(vu.create)
	}
	if vu.del != "" {
		t.vectors.Remove(vu.del)
	}
}

// vectorIndexOut is VectorIndexDescription (API_VectorIndexDescription.html).
type vectorIndexOut struct {
	IndexName        string
	IndexArn         string
	IndexStatus      string
	IndexSizeBytes   int64
	ItemCount        int64
	VectorAttribute  struct{ AttributeName string }
	Dimensions       int64
	DistanceFunction string
	Projection       projectionOut
	SearchSchema     []searchSchemaOut `json:",omitempty"`
}

type searchSchemaOut struct {
	AttributeName           string
	SearchSchemaElementType string
}

// describeVectors lists the table's vector indexes; the caller holds t.mu.
func (t *table) describeVectors(tableArn string) []vectorIndexOut {
	var out []vectorIndexOut
	for _, ix := range t.vectors.All() {
		d := ix.Definition()
		v := vectorIndexOut{
			IndexName: d.Name, IndexArn: tableArn + "/index/" + d.Name, IndexStatus: "ACTIVE",
			IndexSizeBytes: ix.SizeBytes(), ItemCount: int64(ix.Len()),
			Dimensions: int64(d.Dimensions), DistanceFunction: string(d.Distance),
			Projection: projectionOut{ProjectionType: string(d.Projection), NonKeyAttributes: d.NonKeyAttributes},
		}
		v.VectorAttribute.AttributeName = d.Attribute
		for _, el := range d.SearchSchema {
			v.SearchSchema = append(v.SearchSchema, searchSchemaOut{str(el.AttributeName), string(el.SearchSchemaElementType)})
		}
		out = append(out, v)
	}
	return out
}

// vectorIndexRead refuses Query and Scan on a vector index
// (spec/vector-search.md 2.9).
func (t *table) vectorIndexRead(name *string, query bool) error {
	if name == nil || t.index(*name) != nil || t.vectors.Get(*name) == nil {
		return nil
	}
	if query {
		return vectorError(vector.ErrQueryOnVectorIndex())
	}
	return vectorError(vector.ErrScanOnVectorIndex())
}

// --- SearchVectors ---

type searchVectorsInput struct {
	TableName                 *string
	IndexName                 *string
	SearchVector              []json.RawMessage
	TopK                      *int32
	SearchConditionExpression *string
	ExpressionAttributeNames  map[string]string
	ExpressionAttributeValues itemJSON
	ProjectionExpression      *string
	ReturnConsumedCapacity    *string
}

// searchVectors answers SearchVectors (spec/vector-search.md 1.5, 1.6), in
// the service's validation order: the request alone, the table, the index,
// the request against the index, the search, then unused placeholders.
func (s *Server) searchVectors(c *call) (any, error) {
	var in searchVectorsInput
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	if in.TableName == nil {
		return nil, validation("Value at 'TableName' failed to satisfy constraint: Member must not be null")
	}
	var cs constraints
	cs.enum(in.ReturnConsumedCapacity, "returnConsumedCapacity", "INDEXES", "TOTAL", "NONE")
	if err := cs.err(); err != nil {
		return nil, err
	}
	vec := make([]types.AttributeValue, len(in.SearchVector))
	for i, raw := range in.SearchVector {
		av, err := ddbjson.Unmarshal(raw)
		if err != nil {
			return nil, jsonError(err)
		}
		vec[i] = av
	}
	if err := checkValues(Item(in.ExpressionAttributeValues)); err != nil {
		return nil, err
	}
	req := &vector.Request{
		IndexName:           str(in.IndexName),
		SearchVector:        vec,
		ConditionExpression: in.SearchConditionExpression,
		HasProjection:       in.ProjectionExpression != nil,
		Names:               in.ExpressionAttributeNames,
		Values:              in.ExpressionAttributeValues,
	}
	if in.TopK != nil {
		req.TopK = *in.TopK
	}
	if err := vector.CheckRequest(req); err != nil {
		return nil, vectorError(err)
	}
	// The projection is compiled with just the names it uses: the others
	// belong to the condition, and CheckUnused reports the unused ones.
	var proj, projNames []string // top-level attributes asked for; the #names used
	var projEx *eval.Compiled
	if in.ProjectionExpression != nil {
		paths, err := parse.Projection(*in.ProjectionExpression)
		if err != nil {
			return nil, evalError(err)
		}
		var names map[string]string
		for _, p := range paths {
			for _, e := range p {
				if r, ok := in.ExpressionAttributeNames[e.Name]; ok && e.Name != "" && e.Name[0] == '#' {
					if names == nil {
						names = map[string]string{}
					}
					names[e.Name] = r
					projNames = append(projNames, e.Name)
				}
			}
			if len(p) > 0 && !p[0].IsIndex {
				n := p[0].Name
				if r, ok := in.ExpressionAttributeNames[n]; ok {
					n = r
				}
				proj = append(proj, n)
			}
		}
		if projEx, err = compile(eval.Input{Projection: in.ProjectionExpression, Names: names}); err != nil {
			return nil, err
		}
	}
	name := *in.TableName
	if m := tableArnRE.FindStringSubmatch(name); m != nil && m[1] == s.region && m[2] == s.account {
		name = m[3] // TableName may be the table's ARN (spec/vector-search.md 1.5)
	}
	t, err := s.readTable(c, name)
	if err != nil {
		return nil, err
	}
	defer t.mu.RUnlock()
	ix := t.vectors.Get(req.IndexName)
	if ix == nil {
		return nil, vectorError(vector.ErrNoSuchIndex(req.IndexName))
	}
	q, err := ix.Prepare(req)
	if err != nil {
		return nil, vectorError(err)
	}
	def := ix.Definition()
	q.IncludeVector = in.ProjectionExpression != nil && slices.Contains(proj, def.Attribute)
	res, err := ix.Search(q)
	if err != nil {
		return nil, vectorError(err)
	}
	if err := req.CheckUnused(projNames...); err != nil {
		return nil, vectorError(err)
	}
	r := newResp()
	r.key("SearchResults")
	r.b = append(r.b, '[')
	for i, h := range res.Hits {
		if i > 0 {
			r.b = append(r.b, ',')
		}
		it := h.Item
		if projEx != nil {
			it = projEx.Project(it)
		}
		r.b = append(r.b, `{"Item":`...)
		if r.b, err = ddbjson.AppendItem(r.b, it); err != nil {
			return nil, err
		}
		sc, _ := json.Marshal(h.Score)
		r.b = append(r.b, `,"Score":`...)
		r.b = append(append(r.b, sc...), '}')
	}
	r.b = append(r.b, ']')
	if m := str(in.ReturnConsumedCapacity); m == "TOTAL" || m == "INDEXES" {
		if err := r.json("ConsumedCapacity", vectorCapacity{VectorSearchRequestBytes: res.RequestBytes}); err != nil {
			return nil, err
		}
	}
	return r.done(), nil
}
