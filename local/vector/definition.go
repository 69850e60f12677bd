package vector

import (
	"fmt"
	"math"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/internal/limits"
)

// Service limits for vector indexes (spec/vector-search.md, section 2.2),
// the same numbers the client checks (package internal/limits).
const (
	MaxDimensions    = limits.MaxDimensions    // Dimensions is 1..4096
	MaxTopK          = limits.MaxTopK          // TopK is 1..100
	MaxIndexes       = limits.MaxVectorIndexes // vector indexes per table
	MaxInlineFilters = limits.MaxInlineFilters // INLINE_FILTER elements per index
)

// Attr is a SearchSchema attribute with the scalar type its
// AttributeDefinitions entry declares (S, N or B).
type Attr struct {
	Name string
	Type types.ScalarAttributeType
}

// Definition describes one vector index as CreateTable or UpdateTable
// declares it, plus the table's key attribute names (always projected).
type Definition struct {
	Name       string
	Attribute  string // the vector attribute: a list of Dimensions numbers
	Dimensions int
	Distance   types.VectorDistanceFunction
	Partition  Attr   // the HASH element; Partition.Name is "" when the index has none
	Filters    []Attr // the INLINE_FILTER elements, in declaration order

	Projection       types.ProjectionType // ALL, KEYS_ONLY or INCLUDE
	NonKeyAttributes []string             // INCLUDE only
	TableKeys        []string             // the table's partition key and, if any, sort key names

	// SearchSchema in declaration order, for DescribeTable to round-trip.
	SearchSchema []types.SearchSchemaElement
}

// HasPartition reports whether the index has a HASH element, which every
// search must then name with an equality.
func (d *Definition) HasPartition() bool { return d.Partition.Name != "" }

// FromSDK builds a Definition from the wire shape of CreateTable's
// VectorIndexes (or UpdateTable's VectorIndexUpdates.Create, converted with
// [FromCreateAction]), the request's AttributeDefinitions and the table's key
// attribute names. It reports the service's messages for what is wrong with
// the one index; rules across indexes are [ValidateIndexes]'.
func FromSDK(vi types.VectorIndex, defs []types.AttributeDefinition, tableKeys ...string) (Definition, error) {
	d := Definition{
		Distance:  vi.DistanceFunction,
		TableKeys: slices.Clone(tableKeys),
	}
	if vi.IndexName != nil {
		d.Name = *vi.IndexName
	}
	if vi.VectorAttribute != nil && vi.VectorAttribute.AttributeName != nil {
		d.Attribute = *vi.VectorAttribute.AttributeName
	}
	if vi.Dimensions != nil {
		if *vi.Dimensions < 1 || *vi.Dimensions > MaxDimensions {
			return Definition{}, invalid("Number of dimensions must be between 1 and 4096 inclusive.")
		}
		d.Dimensions = int(*vi.Dimensions)
	}
	if vi.Projection != nil {
		d.Projection = vi.Projection.ProjectionType
		d.NonKeyAttributes = slices.Clone(vi.Projection.NonKeyAttributes)
	}
	if len(vi.SearchSchema) > 0 {
		d.SearchSchema = slices.Clone(vi.SearchSchema)
	}
	hashes, filters := 0, 0
	for _, el := range vi.SearchSchema {
		switch el.SearchSchemaElementType {
		case types.SearchSchemaElementTypeHash:
			hashes++
		case types.SearchSchemaElementTypeInlineFilter:
			filters++
		}
	}
	if hashes > 1 {
		return Definition{}, invalid(fmt.Sprintf("Value '%d' at 'SearchSchema' failed to satisfy constraint: Member must have HASH count less than or equal to 1", hashes))
	}
	if filters > MaxInlineFilters {
		// Message not captured from the service (spec section 5, item 6): shaped like the HASH one.
		return Definition{}, invalid(fmt.Sprintf("Value '%d' at 'SearchSchema' failed to satisfy constraint: Member must have INLINE_FILTER count less than or equal to %d", filters, MaxInlineFilters))
	}
	seen := make(map[string]bool, len(vi.SearchSchema))
	for _, el := range vi.SearchSchema {
		name := ""
		if el.AttributeName != nil {
			name = *el.AttributeName
		}
		if seen[name] {
			return Definition{}, invalid("SearchSchema contains a duplicate AttributeName")
		}
		seen[name] = true
		i := slices.IndexFunc(defs, func(ad types.AttributeDefinition) bool {
			return ad.AttributeName != nil && *ad.AttributeName == name
		})
		if i < 0 {
			return Definition{}, invalid("One element in SearchSchema is not defined in attribute definitions")
		}
		a := Attr{Name: name, Type: defs[i].AttributeType}
		if el.SearchSchemaElementType == types.SearchSchemaElementTypeHash {
			d.Partition = a
		} else {
			d.Filters = append(d.Filters, a)
		}
	}
	for _, ad := range defs {
		if ad.AttributeName != nil && *ad.AttributeName == d.Attribute {
			return Definition{}, invalid(fmt.Sprintf("Conflicting attribute definition for '%s'. An attribute cannot be defined in AttributeDefinitions when used as a VectorAttribute.", d.Attribute))
		}
	}
	if err := d.check(); err != nil {
		return Definition{}, err
	}
	return d, nil
}

// FromCreateAction converts UpdateTable's create action to the VectorIndex
// shape [FromSDK] takes; the two carry the same members.
func FromCreateAction(a types.CreateVectorIndexAction) types.VectorIndex {
	return types.VectorIndex{
		IndexName:        a.IndexName,
		VectorAttribute:  a.VectorAttribute,
		Dimensions:       a.Dimensions,
		DistanceFunction: a.DistanceFunction,
		Projection:       a.Projection,
		SearchSchema:     a.SearchSchema,
	}
}

// ValidateIndexes checks the rules that span a table's vector indexes: the
// per-table limit, one namespace for index names (other lists the table's
// GSI and LSI names) and one Dimensions per vector attribute. Messages are
// the service's (spec/vector-search.md, 2.11).
func ValidateIndexes(defs []Definition, other ...string) error {
	if len(defs) > MaxIndexes {
		return invalid(fmt.Sprintf("VectorIndex count exceeds the per-table limit of %d", MaxIndexes))
	}
	names := make(map[string]bool, len(defs)+len(other))
	for _, n := range other {
		names[n] = true
	}
	dims := make(map[string]int, len(defs))
	for _, d := range defs {
		if names[d.Name] {
			return invalid("Duplicate index name: " + d.Name)
		}
		names[d.Name] = true
		if n, ok := dims[d.Attribute]; ok && n != d.Dimensions {
			return invalid(fmt.Sprintf("Conflicting attribute definition for '%s'. All VectorIndexes on the same vector attribute must use the same dimensions.", d.Attribute))
		}
		dims[d.Attribute] = d.Dimensions
	}
	return nil
}

// SDK returns the definition in the wire shape of a VectorIndexDescription,
// without the status, counts and ARN (the server's to fill).
func (d *Definition) SDK() types.VectorIndexDescription {
	dims := int64(d.Dimensions)
	name, attr := d.Name, d.Attribute
	desc := types.VectorIndexDescription{
		IndexName:        &name,
		VectorAttribute:  &types.VectorAttributeDefinition{AttributeName: &attr},
		Dimensions:       &dims,
		DistanceFunction: d.Distance,
		Projection: &types.Projection{
			ProjectionType:   d.Projection,
			NonKeyAttributes: slices.Clone(d.NonKeyAttributes),
		},
	}
	if len(d.SearchSchema) > 0 {
		desc.SearchSchema = slices.Clone(d.SearchSchema)
	}
	return desc
}

// check rejects a definition the engine cannot serve. These are programming
// errors of the caller more than user input (the server validates the
// request first), but they are reported, never panicked on.
func (d *Definition) check() error {
	switch {
	case d.Name == "":
		return fmt.Errorf("vector: index definition has no name")
	case d.Attribute == "":
		return fmt.Errorf("vector: index %s has no vector attribute", d.Name)
	case d.Dimensions < 1 || d.Dimensions > MaxDimensions:
		return invalid("Number of dimensions must be between 1 and 4096 inclusive.")
	case len(d.Filters) > MaxInlineFilters:
		return fmt.Errorf("vector: index %s has %d inline filters, at most %d allowed", d.Name, len(d.Filters), MaxInlineFilters)
	}
	switch d.Distance {
	case types.VectorDistanceFunctionCosine, types.VectorDistanceFunctionEuclidean, types.VectorDistanceFunctionDotProduct:
	default:
		return fmt.Errorf("vector: index %s: unknown distance function %q", d.Name, d.Distance)
	}
	switch d.Projection {
	case types.ProjectionTypeAll, types.ProjectionTypeKeysOnly, types.ProjectionTypeInclude:
	default:
		return fmt.Errorf("vector: index %s: unknown projection type %q", d.Name, d.Projection)
	}
	attrs := d.Filters
	if d.HasPartition() {
		attrs = append([]Attr{d.Partition}, d.Filters...)
	}
	for _, a := range attrs {
		switch a.Type {
		case types.ScalarAttributeTypeS, types.ScalarAttributeTypeN, types.ScalarAttributeTypeB:
		default:
			return fmt.Errorf("vector: index %s: attribute %s has type %q, want S, N or B", d.Name, a.Name, a.Type)
		}
	}
	return nil
}

// projects reports whether the index's stored view holds attribute name.
func (d *Definition) projects(name string) bool {
	if d.Projection == types.ProjectionTypeAll || name == d.Attribute || name == d.Partition.Name {
		return true
	}
	if slices.Contains(d.TableKeys, name) {
		return true
	}
	for _, f := range d.Filters {
		if f.Name == name {
			return true
		}
	}
	return d.Projection == types.ProjectionTypeInclude && slices.Contains(d.NonKeyAttributes, name)
}

// saturate clamps a score to the float32 range, as the service does: a
// score is never Infinity or NaN.
func saturate(s float64) float64 {
	const m = math.MaxFloat32
	if s > m {
		return m
	}
	if s < -m {
		return -m
	}
	return s
}

func sqrt(x float64) float64 { return math.Sqrt(x) }
