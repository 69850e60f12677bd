package vector

import (
	"fmt"
	"regexp"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/internal/limits"
)

// The control-plane side of vector indexes: the request-model constraints
// of the VectorIndex shape, the rules of CreateTable VectorIndexes and
// UpdateTable VectorIndexUpdates, and the lifecycle messages the server
// reports (spec/vector-search.md, 1.2, 1.3, 2.1, 2.8, 2.11).

// Constraint is one request-model violation, in the parts the server's
// "N validation errors detected: Value X at 'path' failed to satisfy
// constraint: rule" collector takes. Value is nil (rendered null), a string
// or an int64.
type Constraint struct {
	Value any
	Path  string
	Rule  string
}

var indexNamePattern = regexp.MustCompile(`^[a-zA-Z0-9_.-]+$`)

// ModelConstraints returns the request-model violations of one VectorIndex
// (or create action), path being its member path, such as
// "vectorIndexes.1.member" or "vectorIndexUpdates.1.member.create".
func ModelConstraints(vi types.VectorIndex, path string) []Constraint {
	var cs []Constraint
	add := func(v any, p, rule string) { cs = append(cs, Constraint{v, path + "." + p, rule}) }
	switch {
	case vi.IndexName == nil:
		add(nil, "indexName", "Member must not be null")
	case len(*vi.IndexName) < limits.MinNameLen:
		add(*vi.IndexName, "indexName", "Member must have length greater than or equal to 3")
	case len(*vi.IndexName) > limits.MaxNameLen:
		add(*vi.IndexName, "indexName", "Member must have length less than or equal to 255")
	case !indexNamePattern.MatchString(*vi.IndexName):
		add(*vi.IndexName, "indexName", "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+")
	}
	switch {
	case vi.VectorAttribute == nil:
		add(nil, "vectorAttribute", "Member must not be null")
	case vi.VectorAttribute.AttributeName == nil:
		add(nil, "vectorAttribute.attributeName", "Member must not be null")
	case len(*vi.VectorAttribute.AttributeName) < 1:
		add(*vi.VectorAttribute.AttributeName, "vectorAttribute.attributeName", "Member must have length greater than or equal to 1")
	case len(*vi.VectorAttribute.AttributeName) > limits.MaxNameLen:
		add(*vi.VectorAttribute.AttributeName, "vectorAttribute.attributeName", "Member must have length less than or equal to 255")
	}
	switch {
	case vi.Dimensions == nil:
		add(nil, "dimensions", "Member must not be null")
	case *vi.Dimensions < 1:
		add(*vi.Dimensions, "dimensions", "Member must have value greater than or equal to 1")
	}
	switch vi.DistanceFunction {
	case "":
		add(nil, "distanceFunction", "Member must not be null")
	case types.VectorDistanceFunctionCosine, types.VectorDistanceFunctionDotProduct, types.VectorDistanceFunctionEuclidean:
	default:
		add(string(vi.DistanceFunction), "distanceFunction", "Member must satisfy enum value set: [COSINE, DOT_PRODUCT, EUCLIDEAN]")
	}
	if vi.Projection == nil {
		add(nil, "projection", "Member must not be null")
	} else {
		switch vi.Projection.ProjectionType {
		case "", types.ProjectionTypeAll, types.ProjectionTypeKeysOnly, types.ProjectionTypeInclude:
		default:
			add(string(vi.Projection.ProjectionType), "projection.projectionType", "Member must satisfy enum value set: [ALL, INCLUDE, KEYS_ONLY]")
		}
	}
	if vi.SearchSchema != nil && len(vi.SearchSchema) == 0 {
		add("[]", "searchSchema", "Member must have length greater than or equal to 1")
	}
	for i, el := range vi.SearchSchema {
		p := fmt.Sprintf("searchSchema.%d.member.", i+1)
		switch {
		case el.AttributeName == nil:
			add(nil, p+"attributeName", "Member must not be null")
		case len(*el.AttributeName) > 65535:
			add(*el.AttributeName, p+"attributeName", "Member must have length less than or equal to 65535")
		}
		switch el.SearchSchemaElementType {
		case "":
			add(nil, p+"searchSchemaElementType", "Member must not be null")
		case types.SearchSchemaElementTypeHash, types.SearchSchemaElementTypeInlineFilter:
		default:
			add(string(el.SearchSchemaElementType), p+"searchSchemaElementType", "Member must satisfy enum value set: [HASH, INLINE_FILTER]")
		}
	}
	return cs
}

// Table is what the vector index rules need to know about a table.
type Table struct {
	Name          string
	PayPerRequest bool         // BillingMode PAY_PER_REQUEST (after this request's change, if any)
	TableKeys     []string     // partition key and, if any, sort key attribute names
	Vector        []Definition // the vector indexes it has now
	Other         []string     // its GSI and LSI names
	Building      bool         // an online index (vector or GSI) is being created or deleted
}

// CreateTableIndexes validates CreateTable's VectorIndexes (after
// [ModelConstraints]) and returns their definitions; nil when the request
// has none. defs is the request's AttributeDefinitions; t.Other holds the
// request's GSI and LSI names.
func CreateTableIndexes(vis []types.VectorIndex, t Table, defs []types.AttributeDefinition) ([]Definition, error) {
	if vis == nil {
		return nil, nil
	}
	if len(vis) == 0 {
		return nil, invalid("List of VectorIndexes is empty")
	}
	if !t.PayPerRequest {
		return nil, errNotPayPerRequest()
	}
	if len(vis) > MaxIndexes {
		return nil, invalid(fmt.Sprintf("VectorIndex count exceeds the per-table limit of %d", MaxIndexes))
	}
	out := make([]Definition, 0, len(vis))
	for _, vi := range vis {
		d, err := FromSDK(vi, defs, t.TableKeys...)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	if err := ValidateIndexes(out, t.Other...); err != nil {
		return nil, err
	}
	return out, nil
}

// UpdateTableAction validates UpdateTable's VectorIndexUpdates and returns
// the one action it carries: a definition to create (build it, then
// [Set.Add]) or the name of an index to delete. defs is the request's
// AttributeDefinitions, in which a created index's SearchSchema attributes
// must be declared.
func UpdateTableAction(ups []types.VectorIndexUpdate, t Table, defs []types.AttributeDefinition) (create *Definition, del string, err error) {
	if len(ups) == 0 {
		return nil, "", nil
	}
	if len(ups) > 1 {
		return nil, "", errOneOnlineIndex()
	}
	u := ups[0]
	switch {
	case u.Create != nil && u.Delete != nil:
		return nil, "", invalid("Only one vector index action is allowed per VectorIndexUpdate object")
	case u.Create == nil && u.Delete == nil:
		// Not captured from the service: the GSI analogue's wording.
		return nil, "", invalid("One of VectorIndexUpdate.Create, VectorIndexUpdate.Delete must not be null")
	case t.Building:
		return nil, "", errOneOnlineIndex()
	case u.Delete != nil:
		name := ""
		if u.Delete.IndexName != nil {
			name = *u.Delete.IndexName
		}
		if !slices.ContainsFunc(t.Vector, func(d Definition) bool { return d.Name == name }) {
			return nil, "", &Error{Type: "ResourceNotFoundException", Message: fmt.Sprintf("Requested resource not found: Index %s for table %s", name, t.Name)}
		}
		return nil, name, nil
	}
	if !t.PayPerRequest {
		return nil, "", errNotPayPerRequest()
	}
	vi := FromCreateAction(*u.Create)
	if vi.IndexName != nil && (slices.Contains(t.Other, *vi.IndexName) ||
		slices.ContainsFunc(t.Vector, func(d Definition) bool { return d.Name == *vi.IndexName })) {
		return nil, "", validation("Attempting to create an index which already exists")
	}
	d, err := FromSDK(vi, defs, t.TableKeys...)
	if err != nil {
		return nil, "", err
	}
	if err := ValidateIndexes(append(slices.Clone(t.Vector), d)); err != nil {
		return nil, "", err
	}
	return &d, "", nil
}

func errNotPayPerRequest() *Error {
	return invalid("Vector indexes are only supported for PAY_PER_REQUEST tables")
}

func errOneOnlineIndex() *Error {
	return &Error{Type: "LimitExceededException", Message: "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table"}
}

// The lifecycle and cross-operation messages, for the server to report
// where its table state decides (spec/vector-search.md 2.1, 2.8, 2.9).

// ErrProvisionedWithVectorIndexes answers UpdateTable switching a table
// with vector indexes to PROVISIONED.
func ErrProvisionedWithVectorIndexes() *Error {
	return invalid("Tables with vector indexes must be in PAY_PER_REQUEST mode")
}

// ErrNoSuchIndex answers SearchVectors on an index the table does not have,
// or has not started serving (resource allocation).
func ErrNoSuchIndex(index string) *Error {
	return validation("The table does not have the specified index: " + index)
}

// ErrBackfilling answers SearchVectors on an index still backfilling.
func ErrBackfilling(index string) *Error {
	return validation("Cannot search backfilling vector index: " + index)
}

// ErrDeleteDuringAllocation answers a Delete of an index still in its
// resource allocation phase.
func ErrDeleteDuringAllocation(table, index string) *Error {
	return &Error{Type: "ResourceInUseException", Message: fmt.Sprintf("Attempt to change a resource which is still in use: Index creation is in resource allocation phase. Retry deletion during backfilling phase or when the index is active. Table: %s Index: %s", table, index)}
}

// ErrDeleteTableWhileBuilding answers DeleteTable while an index is being
// created.
func ErrDeleteTableWhileBuilding() *Error {
	return &Error{Type: "ResourceInUseException", Message: "Attempt to change a resource which is still in use: Cannot delete table while indexes are being created, updated, or deleted."}
}

// ErrQueryOnVectorIndex answers Query with IndexName naming a vector index
// (with its full stop); ErrScanOnVectorIndex answers Scan and PartiQL
// SELECT on one (without).
func ErrQueryOnVectorIndex() *Error {
	return validation("Query operation not supported on this index type.")
}

// ErrScanOnVectorIndex: see [ErrQueryOnVectorIndex].
func ErrScanOnVectorIndex() *Error {
	return validation("Scan operation not supported on this index type")
}

// Backfill indexes existing items (UpdateTable's Create), skipping those a
// live write would reject, and returns how many it indexed.
func (ix *Index) Backfill(items func(yield func(key string, item Item) bool)) int {
	n := 0
	for key, item := range items {
		if ix.Upsert(key, item) {
			n++
		}
	}
	return n
}
