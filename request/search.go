package request

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/internal/limits"
	"github.com/dynamogo/dynamo/schema"
)

// SearchVectors builds a SearchVectors request: the topK (TopK, default 10)
// items of the vector index nearest to vector. The vector must have the
// index's dimensions. When the index has a partition attribute the Filter
// must fix it by equality (expr.Eq("tenant", "t")); the filter becomes the
// SearchConditionExpression. Project chooses the returned attributes; the
// vector itself is returned only when projected explicitly.
func SearchVectors[T any](s *schema.Schema[T], index string, vector []float32, opts ...SearchOption) (*dynamodb.SearchVectorsInput, error) {
	const op = "SearchVectors"
	c := collect(opts)
	if err := checkCapacity(op, c); err != nil {
		return nil, err
	}
	vi, ok := s.VectorIndex(index)
	if !ok {
		return nil, errorf(op, "schema %s has no vector index %q", s.Describe().Type, index)
	}
	if len(vector) != vi.Dimensions {
		return nil, errorf(op, "vector of %d dimensions; index %s has %d", len(vector), index, vi.Dimensions)
	}
	k := DefaultTopK
	if c.topKSet {
		k = c.topK
	}
	// "Provided TopK value ... must be between 1 and 100 inclusive"
	// (vector-search reference, SearchVectors errors).
	if k < limits.MinTopK || k > MaxTopK {
		return nil, errorf(op, "TopK %d: must be between %d and %d", k, limits.MinTopK, MaxTopK)
	}
	vec := make([]types.AttributeValue, len(vector))
	for i, f := range vector {
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return nil, errorf(op, "vector element %d is not finite; DynamoDB takes finite numbers only", i)
		}
		vec[i] = &types.AttributeValueMemberN{Value: strconv.FormatFloat(float64(f), 'g', -1, 32)}
	}
	in := &dynamodb.SearchVectorsInput{
		TableName:              aws.String(s.Table()),
		IndexName:              aws.String(index),
		SearchVector:           vec,
		TopK:                   aws.Int32(int32(k)),
		ReturnConsumedCapacity: c.capacity,
	}
	x := newExprs(s)
	var err error
	if vi.Partition != "" && !(c.filterSet && fixesAttr(c.filter, vi.Partition)) {
		return nil, fieldErr(op, vi.Partition, "index %s is partitioned by %s: the filter must include an equality on it", index, vi.Partition)
	}
	if c.filterSet {
		if err := searchAttrs(op, vi, c.filter); err != nil {
			return nil, err
		}
	}
	if in.SearchConditionExpression, in.ProjectionExpression, err = x.filterProjection(op, s, c); err != nil {
		return nil, err
	}
	in.ExpressionAttributeNames, in.ExpressionAttributeValues = x.b.Names(), x.b.Values()
	return in, nil
}

// fixesAttr reports whether c (a conjunction) contains attr = value. A raw
// condition counts when it names attr, directly or through a placeholder,
// next to an '='; the server has the last word.
func fixesAttr(c expr.Cond, attr string) bool {
	switch c := c.(type) {
	case *expr.And:
		for _, sub := range c.Conds {
			if fixesAttr(sub, attr) {
				return true
			}
		}
	case *expr.Compare:
		if c.Op != expr.EQ {
			return false
		}
		for _, side := range []expr.Operand{c.L, c.R} {
			if p, ok := side.(expr.Path); ok {
				if name, ok := p.TopLevel(); ok && name == attr {
					return true
				}
			}
		}
	case *expr.Raw:
		if !strings.Contains(c.Text, "=") {
			return false
		}
		if strings.Contains(c.Text, attr) {
			return true
		}
		for ph, name := range c.Names {
			if name == attr && strings.Contains(c.Text, "#"+strings.TrimPrefix(ph, "#")) {
				return true
			}
		}
	}
	return false
}

// searchAttrs checks that the filter names only top-level attributes of the
// index's search schema: "SearchConditionExpression must not contain any
// attributes that is not in SearchSchema" and "cannot have conditions on
// nested attributes" (SearchVectors errors, vector-search reference). The
// operators allowed are left to the service, whose rules are still moving.
func searchAttrs(op string, vi *schema.VectorIndexSpec, c expr.Cond) error {
	for n := range expr.Nodes(c) {
		p, ok := n.(expr.Path)
		if !ok || len(p) == 0 {
			continue
		}
		name := p[0].Name
		if len(p) > 1 {
			return fieldErr(op, name, "search filters cannot use nested attributes (%s)", p)
		}
		if name != vi.Partition && !slices.Contains(vi.Filters, name) {
			return fieldErr(op, name, "index %s can filter only on its partition attribute and inline filters", vi.Name)
		}
	}
	return nil
}
