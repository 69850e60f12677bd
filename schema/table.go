package schema

import (
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/internal/limits"
)

// CreateTableInput derives the CreateTable request of one table from one or
// several schemas stored in it (single-table design): the key schema, the
// attribute definitions of every key attribute (S for generated keys, the
// field's own type for raw keys and index keys; vector search-schema
// attributes included, as DynamoDB requires), every GSI and LSI with its
// projection, and every vector index. Billing is PAY_PER_REQUEST unless the
// schemas declare Provisioned; see also Provision.
//
// All schemas must name the same table and agree on its key layout; their
// indexes are merged, and an index defined differently by two schemas (or an
// attribute typed differently) is an error naming both.
func CreateTableInput(schemas ...Described) (*dynamodb.CreateTableInput, error) {
	descs, err := describeTable(schemas)
	if err != nil {
		return nil, err
	}
	first := descs[0]
	b := &tableBuilder{
		in: &dynamodb.CreateTableInput{
			TableName:   aws.String(first.Table),
			BillingMode: types.BillingModePayPerRequest,
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String(first.PK), KeyType: types.KeyTypeHash},
			},
		},
		attrs:  attrDefs{types: map[string]attrOwner{}},
		byName: map[string]owned{},
	}
	if first.SK != "" {
		b.in.KeySchema = append(b.in.KeySchema, types.KeySchemaElement{AttributeName: aws.String(first.SK), KeyType: types.KeyTypeRange})
	}
	if err := b.attrs.add(first.PK, first.PKType, first.Type); err != nil {
		return nil, err
	}
	if first.SK != "" {
		if err := b.attrs.add(first.SK, first.SKType, first.Type); err != nil {
			return nil, err
		}
	}
	if b.prov, err = tableBilling(descs); err != nil {
		return nil, err
	}
	view, err := tableStream(descs)
	if err != nil {
		return nil, err
	}
	if view != "" {
		b.in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: view}
	}
	if err := b.settings(descs); err != nil {
		return nil, err
	}
	if err := b.secondaryIndexes(descs); err != nil {
		return nil, err
	}
	if err := b.vectorIndexes(descs); err != nil {
		return nil, err
	}
	in := b.in
	in.AttributeDefinitions = b.attrs.list
	if b.prov != nil {
		in.BillingMode = types.BillingModeProvisioned
		in.ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(b.prov.Read), WriteCapacityUnits: aws.Int64(b.prov.Write)}
	}
	return in, nil
}

// describeTable describes the schemas of one table, checking that there is
// at least one, that none is nil or embedded, and that they agree on the
// table and its key layout.
func describeTable(schemas []Described) ([]*Description, error) {
	if len(schemas) == 0 {
		return nil, &Error{Msg: "CreateTableInput needs at least one schema"}
	}
	descs := make([]*Description, len(schemas))
	for i, s := range schemas {
		if s == nil || isNilPointer(s) {
			return nil, &Error{Msg: fmt.Sprintf("CreateTableInput: schema %d is nil", i+1)}
		}
		descs[i] = s.Describe()
	}
	first := descs[0]
	for _, d := range descs {
		if d.Embedded {
			return nil, &Error{Type: d.Type, Msg: "an embedded schema has no table"}
		}
	}
	for _, d := range descs[1:] {
		if d.Table != first.Table {
			return nil, &Error{Type: d.Type, Msg: fmt.Sprintf("table %q differs from schema %s's table %q", d.Table, first.Type, first.Table)}
		}
		if d.PK != first.PK || d.PKType != first.PKType || d.SK != first.SK || d.SKType != first.SKType {
			return nil, &Error{Type: d.Type, Msg: fmt.Sprintf("key layout %s differs from schema %s's %s", layout(d), first.Type, layout(first))}
		}
	}
	if err := checkEntities(descs); err != nil {
		return nil, err
	}
	return descs, nil
}

// checkEntities checks that schemas sharing a table can tell their items
// apart: they agree on the entity attribute, and no two different schemas
// have the same entity name.
func checkEntities(descs []*Description) error {
	for i, d := range descs {
		for _, e := range descs[:i] {
			if d == e {
				continue // the same schema given twice
			}
			if d.EntityAttribute != e.EntityAttribute {
				return &Error{Type: d.Type, Msg: fmt.Sprintf("entity attribute %q differs from schema %s's %q; the schemas of a table must agree (EntityAttribute)", d.EntityAttribute, e.Type, e.EntityAttribute)}
			}
			if d.Entity == e.Entity {
				return &Error{Type: d.Type, Msg: fmt.Sprintf("entity name %q is also schema %s's; give one of them another EntityName", d.Entity, e.Type)}
			}
		}
	}
	return nil
}

// tableBilling returns the provisioned schema whose capacity the table
// takes, nil for on-demand: the provisioned schemas must agree, and either
// all or none of the schemas are provisioned.
func tableBilling(descs []*Description) (*Description, error) {
	var prov *Description
	for _, d := range descs {
		if d.Read == 0 && d.Write == 0 {
			continue
		}
		if prov != nil && (d.Read != prov.Read || d.Write != prov.Write) {
			return nil, &Error{Type: d.Type, Msg: fmt.Sprintf("Provisioned(%d, %d) differs from schema %s's Provisioned(%d, %d)", d.Read, d.Write, prov.Type, prov.Read, prov.Write)}
		}
		prov = d
	}
	if prov != nil {
		for _, d := range descs {
			if d.Read == 0 && d.Write == 0 {
				return nil, &Error{Type: d.Type, Msg: fmt.Sprintf("on-demand, but schema %s is Provisioned; declare the same billing on every schema of a table", prov.Type)}
			}
		}
	}
	return prov, nil
}

// tableStream returns the view type of the table's stream, "" for none: the
// schemas that declare a stream must agree on its view type (a table has one
// stream); schemas that declare none take the table's.
func tableStream(descs []*Description) (types.StreamViewType, error) {
	var by *Description
	for _, d := range descs {
		if d.StreamView == "" {
			continue
		}
		if by != nil && d.StreamView != by.StreamView {
			return "", &Error{Type: d.Type, Msg: fmt.Sprintf("Stream(%s) differs from schema %s's Stream(%s)", d.StreamView, by.Type, by.StreamView)}
		}
		by = d
	}
	if by == nil {
		return "", nil
	}
	return by.StreamView, nil
}

// settings merges the table settings of the schemas: tags (a key given two
// values is an error), deletion protection (on when any schema asks),
// table class and TTL attribute (the schemas that declare one must agree).
// CreateTable has no TTL: Repo.SyncTables sets it after creating the table,
// and checks the agreement here.
func (b *tableBuilder) settings(descs []*Description) error {
	tagBy := map[string]*Description{}
	var classBy, ttlBy *Description
	for _, d := range descs {
		for _, k := range slices.Sorted(maps.Keys(d.Tags)) {
			if by := tagBy[k]; by != nil {
				if by.Tags[k] != d.Tags[k] {
					return &Error{Type: d.Type, Msg: fmt.Sprintf("Tag(%q) differs from schema %s's", k, by.Type)}
				}
				continue
			}
			tagBy[k] = d
			b.in.Tags = append(b.in.Tags, types.Tag{Key: aws.String(k), Value: aws.String(d.Tags[k])})
		}
		if d.DeletionProtection {
			b.in.DeletionProtectionEnabled = aws.Bool(true)
		}
		if d.TableClass != "" {
			if classBy != nil && classBy.TableClass != d.TableClass {
				return &Error{Type: d.Type, Msg: fmt.Sprintf("TableClass(%s) differs from schema %s's TableClass(%s)", d.TableClass, classBy.Type, classBy.TableClass)}
			}
			classBy = d
			b.in.TableClass = d.TableClass
		}
		if d.TTL != "" {
			if ttlBy != nil && ttlBy.TTL != d.TTL {
				return &Error{Type: d.Type, Msg: fmt.Sprintf("TTL(%s) differs from schema %s's TTL(%s); a table has one TTL attribute", d.TTL, ttlBy.Type, ttlBy.TTL)}
			}
			ttlBy = d
		}
	}
	return nil
}

// tableBuilder accumulates the CreateTable request of CreateTableInput.
type tableBuilder struct {
	in     *dynamodb.CreateTableInput
	attrs  attrDefs
	byName map[string]owned // GSI, LSI and vector indexes share one namespace
	prov   *Description     // nil: on-demand
}

// owned is an index or attribute definition and the schema that made it.
type owned struct {
	def   any
	owner string
}

// claim records index name for owner; dup reports that an identical index
// is already there, and a different one is an error.
func (b *tableBuilder) claim(name string, def any, owner string) (dup bool, err error) {
	if o, ok := b.byName[name]; ok {
		if reflect.DeepEqual(o.def, def) {
			return true, nil
		}
		return false, &Error{Type: owner, Msg: fmt.Sprintf("index %s conflicts with the definition in schema %s", name, o.owner)}
	}
	b.byName[name] = owned{def, owner}
	return false, nil
}

// secondaryIndexes adds every schema's GSIs and LSIs, once each, with
// their key attributes, and checks the table-wide index limits.
func (b *tableBuilder) secondaryIndexes(descs []*Description) error {
	in, first := b.in, descs[0]
	nonKey, lsis := 0, 0
	for _, d := range descs {
		for _, ix := range d.Indexes {
			dup, err := b.claim(ix.Name, *ix, d.Type)
			if err != nil {
				return err
			}
			if dup {
				continue
			}
			// Every HASH element, then every RANGE element, in key order.
			var ks []types.KeySchemaElement
			for _, side := range []struct {
				attrs []KeyAttr
				typ   types.KeyType
			}{{ix.Partition, types.KeyTypeHash}, {ix.Sort, types.KeyTypeRange}} {
				for _, a := range side.attrs {
					if err := b.attrs.add(a.Name, a.Type, d.Type); err != nil {
						return err
					}
					ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(a.Name), KeyType: side.typ})
				}
			}
			proj := &types.Projection{ProjectionType: ix.Projection}
			if ix.Projection == types.ProjectionTypeInclude {
				proj.NonKeyAttributes = append([]string(nil), ix.NonKeyAttributes...)
				nonKey += len(ix.NonKeyAttributes)
			}
			if ix.Local {
				lsis++
				in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, types.LocalSecondaryIndex{
					IndexName: aws.String(ix.Name), KeySchema: ks, Projection: proj,
				})
				continue
			}
			g := types.GlobalSecondaryIndex{IndexName: aws.String(ix.Name), KeySchema: ks, Projection: proj}
			if b.prov != nil {
				r, w := b.prov.Read, b.prov.Write
				if ix.Read > 0 {
					r, w = ix.Read, ix.Write
				}
				g.ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(r), WriteCapacityUnits: aws.Int64(w)}
			}
			in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, g)
		}
	}
	if nonKey > limits.MaxProjectedPerTable {
		return &Error{Type: first.Type, Msg: fmt.Sprintf("the indexes of table %s project %d non-key attributes; DynamoDB allows %d in total", first.Table, nonKey, limits.MaxProjectedPerTable)}
	}
	if lsis > limits.MaxLSIs {
		return &Error{Type: first.Type, Msg: fmt.Sprintf("table %s has %d local secondary indexes; DynamoDB allows %d", first.Table, lsis, limits.MaxLSIs)}
	}
	return nil
}

// vectorIndexes adds every schema's vector indexes, once each, with their
// search-schema attributes, and checks dimensions, billing and limits.
func (b *tableBuilder) vectorIndexes(descs []*Description) error {
	in, first, prov := b.in, descs[0], b.prov
	dims := map[string]owned{} // vector attribute → dimensions (must agree)
	for _, d := range descs {
		for _, vx := range d.VectorIndexes {
			dup, err := b.claim(vx.Name, *vx, d.Type)
			if err != nil {
				return err
			}
			if dup {
				continue
			}
			if o, ok := dims[vx.Attribute]; ok && o.def != vx.Dimensions {
				return &Error{Type: d.Type, Field: vx.Attribute, Msg: fmt.Sprintf("vector index %s has %d dimensions, but schema %s indexes the attribute with %v; DynamoDB needs them to agree", vx.Name, vx.Dimensions, o.owner, o.def)}
			}
			dims[vx.Attribute] = owned{vx.Dimensions, d.Type}
			if prov != nil {
				return &Error{Type: d.Type, Msg: fmt.Sprintf("vector index %s needs PAY_PER_REQUEST billing, but schema %s is Provisioned", vx.Name, prov.Type)}
			}
			v := types.VectorIndex{
				IndexName:        aws.String(vx.Name),
				VectorAttribute:  &types.VectorAttributeDefinition{AttributeName: aws.String(vx.Attribute)},
				Dimensions:       aws.Int64(int64(vx.Dimensions)),
				DistanceFunction: vx.Distance,
				Projection:       &types.Projection{ProjectionType: vx.Projection},
			}
			if vx.Projection == types.ProjectionTypeInclude {
				v.Projection.NonKeyAttributes = append([]string(nil), vx.NonKeyAttributes...)
			}
			if vx.Partition != "" {
				if err := b.attrs.add(vx.Partition, vx.PartitionType, d.Type); err != nil {
					return err
				}
				v.SearchSchema = append(v.SearchSchema, types.SearchSchemaElement{
					AttributeName: aws.String(vx.Partition), SearchSchemaElementType: types.SearchSchemaElementTypeHash,
				})
			}
			for i, f := range vx.Filters {
				if err := b.attrs.add(f, vx.FilterTypes[i], d.Type); err != nil {
					return err
				}
				v.SearchSchema = append(v.SearchSchema, types.SearchSchemaElement{
					AttributeName: aws.String(f), SearchSchemaElementType: types.SearchSchemaElementTypeInlineFilter,
				})
			}
			in.VectorIndexes = append(in.VectorIndexes, v)
		}
	}
	if len(in.VectorIndexes) > limits.MaxVectorIndexes {
		return &Error{Type: first.Type, Msg: fmt.Sprintf("table %s has %d vector indexes; DynamoDB allows %d", first.Table, len(in.VectorIndexes), limits.MaxVectorIndexes)}
	}
	for _, vx := range in.VectorIndexes {
		if o, ok := b.attrs.types[*vx.VectorAttribute.AttributeName]; ok {
			return &Error{Type: o.owner, Field: *vx.VectorAttribute.AttributeName, Msg: fmt.Sprintf("the vector attribute of index %s is also a key or search attribute; DynamoDB rejects that", *vx.IndexName)}
		}
	}
	return nil
}

// Provision switches a CreateTable request to PROVISIONED billing with the
// given capacity for the table and for every GSI that has none of its own,
// for callers that choose billing at run time (a command's flags). Vector
// indexes need on-demand billing, so a request with any is an error.
func Provision(in *dynamodb.CreateTableInput, read, write int64) error {
	if read < 1 || write < 1 {
		return &Error{Msg: fmt.Sprintf("Provision(%d, %d): capacity units must be at least 1", read, write)}
	}
	if len(in.VectorIndexes) > 0 {
		return &Error{Msg: fmt.Sprintf("table %s has vector indexes, which need PAY_PER_REQUEST billing", aws.ToString(in.TableName))}
	}
	in.BillingMode = types.BillingModeProvisioned
	in.ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(read), WriteCapacityUnits: aws.Int64(write)}
	for i := range in.GlobalSecondaryIndexes {
		g := &in.GlobalSecondaryIndexes[i]
		if g.ProvisionedThroughput == nil {
			g.ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(read), WriteCapacityUnits: aws.Int64(write)}
		}
	}
	return nil
}

type attrOwner struct {
	t     types.ScalarAttributeType
	owner string
}

// attrDefs collects AttributeDefinitions in first-use order, one per name.
type attrDefs struct {
	list  []types.AttributeDefinition
	types map[string]attrOwner
}

func (a *attrDefs) add(name string, t types.ScalarAttributeType, owner string) error {
	if o, ok := a.types[name]; ok {
		if o.t != t {
			return &Error{Type: owner, Field: name, Msg: fmt.Sprintf("key attribute is %s here but %s in schema %s", t, o.t, o.owner)}
		}
		return nil
	}
	a.types[name] = attrOwner{t, owner}
	a.list = append(a.list, types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: t})
	return nil
}

func layout(d *Description) string {
	if d.SK == "" {
		return fmt.Sprintf("(%s %s)", d.PK, d.PKType)
	}
	return fmt.Sprintf("(%s %s, %s %s)", d.PK, d.PKType, d.SK, d.SKType)
}

func isNilPointer(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}
