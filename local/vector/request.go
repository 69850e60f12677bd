package vector

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/expr/parse"
	"github.com/dynamogo/dynamo/internal/limits"
)

// ParseCondition parses a SearchConditionExpression with expr/parse, its
// syntax errors naming SearchConditionExpression as the service's do. The
// error is an [*Error]. (expr/parse names only its own expression kinds;
// the relabelling belongs there once it has a SearchCondition entry point.)
func ParseCondition(text string) (expr.Cond, error) {
	c, err := parse.Condition(text)
	if err != nil {
		msg := err.Error()
		if rest, ok := strings.CutPrefix(msg, "Invalid ConditionExpression:"); ok {
			msg = "Invalid SearchConditionExpression:" + rest
		}
		return nil, validation(msg)
	}
	return c, nil
}

// Request is the part of a SearchVectors request this package validates,
// as the server decodes it from JSON.
type Request struct {
	IndexName    string
	SearchVector []types.AttributeValue
	TopK         int32

	// SearchConditionExpression as sent (nil when absent). CheckRequest
	// parses it, in its place in the validation order, into Condition; a
	// caller holding an already parsed tree sets Condition instead.
	ConditionExpression *string
	Condition           expr.Cond

	HasProjection bool // ProjectionExpression is present
	Names         map[string]string
	Values        map[string]types.AttributeValue
}

// The validation of a SearchVectors request runs in two steps around the
// table and index lookup, which is the order the service reports errors in
// (spec/vector-search.md, section 5 item 2):
//
//	CheckRequest: request-model constraints → TopK range → names/values
//	  without an expression → syntax → undefined names/values → comparators
//	(server: table lookup → ResourceNotFoundException; index lookup and
//	  readiness → "The table does not have the specified index: <name>")
//	Prepare: vector elements → dimensions → SearchSchema membership →
//	  nested paths → one condition per attribute → HASH presence →
//	  HASH type, empty HASH value
//	(server: after the search, [Request.CheckUnused] with the projection's
//	  placeholders)

// CheckRequest validates what needs no table: request-model constraints,
// the TopK range, the condition's syntax (it parses ConditionExpression)
// and shape. The error is an [*Error].
func CheckRequest(r *Request) error {
	// Request-model errors: the search plane's form names the member in
	// PascalCase and echoes no value (captured for IndexName and
	// SearchVector; the TopK one follows them).
	switch {
	case len(r.IndexName) < limits.MinNameLen:
		return validation("Value at 'IndexName' failed to satisfy constraint: Member must have length greater than or equal to 3")
	case len(r.IndexName) > limits.MaxNameLen:
		return validation("Value at 'IndexName' failed to satisfy constraint: Member must have length less than or equal to 255")
	case len(r.SearchVector) < 1:
		return validation("Value at 'SearchVector' failed to satisfy constraint: Member must have length greater than or equal to 1")
	case r.TopK < limits.MinTopK:
		return validation("Value at 'TopK' failed to satisfy constraint: Member must have value greater than or equal to 1")
	case r.TopK > MaxTopK:
		return validation(fmt.Sprintf("Provided TopK value '%d' is out of valid range. The value must be between 1 and 100 inclusive", r.TopK))
	}
	// As Query words them ("Expression attribute names" in the developer guide).
	hasCond := r.Condition != nil || r.ConditionExpression != nil
	if r.Names != nil && !hasCond && !r.HasProjection {
		return validation("ExpressionAttributeNames can only be specified when using expressions")
	}
	if r.Values != nil && !hasCond && !r.HasProjection {
		return validation("ExpressionAttributeValues can only be specified when using expressions")
	}
	if r.Names != nil && len(r.Names) == 0 {
		return validation("ExpressionAttributeNames must not be empty")
	}
	if r.Values != nil && len(r.Values) == 0 {
		return validation("ExpressionAttributeValues must not be empty")
	}
	if r.Condition == nil && r.ConditionExpression != nil {
		c, err := ParseCondition(*r.ConditionExpression)
		if err != nil {
			return err
		}
		r.Condition = c
	}
	if r.Condition == nil {
		return nil
	}
	if err := r.checkPlaceholders(r.Condition); err != nil {
		return err
	}
	_, err := equalities(r.Condition, nil)
	return err
}

// checkPlaceholders reports the first undefined #name or :value, in the
// order they appear in the expression.
func (r *Request) checkPlaceholders(c expr.Cond) error {
	for n := range expr.Nodes(c) {
		switch n := n.(type) {
		case expr.Path:
			for _, e := range n {
				if strings.HasPrefix(e.Name, "#") {
					if _, ok := r.Names[e.Name]; !ok {
						return validation("Invalid SearchConditionExpression: An expression attribute name used in the document path is not defined; attribute name: " + e.Name)
					}
				}
			}
		case *expr.Value:
			if _, ok := r.Values[n.Placeholder]; !ok {
				return validation("Invalid SearchConditionExpression: An expression attribute value used in expression is not defined; attribute value: " + n.Placeholder)
			}
		}
	}
	return nil
}

// equality is one "path = :value" condition.
type equality struct {
	path  expr.Path
	value *expr.Value
}

// equalities flattens a condition into its equalities: only "=" between a
// path and a value, joined by AND, is accepted (as observed on the service
// in Aug 2026; spec section 2.6 and section 5 item 1).
func equalities(c expr.Cond, out []equality) ([]equality, error) {
	bad := validation("Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression")
	switch c := c.(type) {
	case *expr.And:
		for _, s := range c.Conds {
			var err error
			if out, err = equalities(s, out); err != nil {
				return nil, err
			}
		}
		return out, nil
	case *expr.Compare:
		if c.Op != expr.EQ {
			return nil, bad
		}
		p, pok := c.L.(expr.Path)
		v, vok := c.R.(*expr.Value)
		if !pok || !vok {
			p, pok = c.R.(expr.Path)
			v, vok = c.L.(*expr.Value)
		}
		if !pok || !vok || len(p) == 0 {
			return nil, bad
		}
		return append(out, equality{path: p, value: v}), nil
	}
	return nil, bad
}

// Prepare validates the request against the index it names and returns the
// query to run. Call [CheckRequest] first; Prepare assumes it passed.
func (ix *Index) Prepare(r *Request) (*Query, error) {
	d := &ix.def
	q := &Query{TopK: int(r.TopK), Vector: make([]float32, len(r.SearchVector))}
	for i, e := range r.SearchVector {
		n, ok := e.(*types.AttributeValueMemberN)
		var f float32
		syntax, inRange := false, false
		if ok {
			f, syntax, inRange = parseFloat32(n.Value)
		}
		if !syntax || !inRange {
			return nil, validation("Search vector contains invalid values. All values in the search vector must be a 32-bit floating-point number attribute")
		}
		q.Vector[i] = f
	}
	if len(q.Vector) != d.Dimensions {
		return nil, validation(fmt.Sprintf("Input search vector dimension %d does not match vector index dimension %d", len(q.Vector), d.Dimensions))
	}

	var eqs []equality
	if r.Condition != nil {
		var err error
		if eqs, err = equalities(r.Condition, nil); err != nil {
			return nil, err
		}
	}
	name := func(e expr.PathElem) string {
		if strings.HasPrefix(e.Name, "#") {
			return r.Names[e.Name]
		}
		return e.Name
	}
	inSchema := func(n string) bool {
		return (d.HasPartition() && n == d.Partition.Name) ||
			slices.ContainsFunc(d.Filters, func(a Attr) bool { return a.Name == n })
	}
	for _, eq := range eqs {
		if n := name(eq.path[0]); eq.path[0].IsIndex || !inSchema(n) {
			return nil, validation("SearchConditionExpression must not contain any attributes that is not in SearchSchema. Invalid attribute: " + n)
		}
	}
	for _, eq := range eqs {
		if len(eq.path) > 1 {
			return nil, validation("Invalid SearchConditionExpression: SearchConditionExpression cannot have conditions on nested attributes")
		}
	}
	seen := make(map[string]bool, len(eqs))
	for _, eq := range eqs {
		n := name(eq.path[0])
		if seen[n] {
			return nil, validation("Invalid SearchConditionExpression: SearchConditionExpression must only contain one condition per attribute")
		}
		seen[n] = true
	}
	if d.HasPartition() && !seen[d.Partition.Name] {
		return nil, validation("SearchConditionExpression must be provided when SearchSchema has a HASH key")
	}
	for _, eq := range eqs {
		n := name(eq.path[0])
		av := r.Values[eq.value.Placeholder]
		if d.HasPartition() && n == d.Partition.Name {
			if t := typeName(av); t != string(d.Partition.Type) {
				return nil, validation(fmt.Sprintf("Type of '%s' attribute in SearchConditionExpression (%s) does not match type in search schema (%s)", n, t, d.Partition.Type))
			}
			if isEmptyScalar(av) {
				kind := "string"
				if d.Partition.Type == types.ScalarAttributeTypeB {
					kind = "binary"
				}
				return nil, validation(fmt.Sprintf("One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty %s value. Key: %s", kind, n))
			}
			q.Partition = av
			continue
		}
		if q.Equal == nil {
			q.Equal = make(map[string]types.AttributeValue, len(eqs))
		}
		q.Equal[n] = av
	}
	return q, nil
}

// CheckUnused reports ExpressionAttributeNames and ExpressionAttributeValues
// that no expression of the request uses, as Query does. projectionNames are
// the #name placeholders the ProjectionExpression uses.
func (r *Request) CheckUnused(projectionNames ...string) error {
	usedN := make(map[string]bool, len(r.Names))
	usedV := make(map[string]bool, len(r.Values))
	for _, n := range projectionNames {
		usedN[n] = true
	}
	if r.Condition == nil && r.ConditionExpression != nil {
		if c, err := ParseCondition(*r.ConditionExpression); err == nil {
			r.Condition = c
		}
	}
	for n := range expr.Nodes(r.Condition) {
		switch n := n.(type) {
		case expr.Path:
			for _, e := range n {
				usedN[e.Name] = true
			}
		case *expr.Value:
			usedV[n.Placeholder] = true
		}
	}
	if k := unused(r.Names, usedN); k != "" {
		return validation("Value provided in ExpressionAttributeNames unused in expressions: keys: {" + k + "}")
	}
	if k := unused(r.Values, usedV); k != "" {
		return validation("Value provided in ExpressionAttributeValues unused in expressions: keys: {" + k + "}")
	}
	return nil
}

func unused[V any](m map[string]V, used map[string]bool) string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !used[k] {
			out = append(out, k)
		}
	}
	return strings.Join(out, ", ")
}
