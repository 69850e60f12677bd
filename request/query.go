package request

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/schema"
)

// Query builds a Query of the partition v's key fields name. On the table
// the partition value is the generated partition key; with Index it is the
// index's partition field (a GSI) or again the table's (an LSI).
//
// The sort-key condition is, without a Sort option, derived from v: on the
// table a begins_with on the generated sort key when only its leading fields
// are set, equality when all are; on an index or a RawKeys table equality on
// the sort-key field when it is set; otherwise none. SortEq … SortBeginsWith
// give it explicitly and SortNone drops it.
func Query[T any](s *schema.Schema[T], v T, opts ...QueryOption) (*dynamodb.QueryInput, error) {
	return query(s, v, collect(opts))
}

// Paging says how a read that pages for the caller goes on after its first
// request: MaxItems caps the items returned in total (0: no cap); Segments
// and Workers are Parallel's (0 without it).
type Paging struct{ MaxItems, Segments, Workers int }

// QueryAll builds the first Query of a read that pages through the whole
// query, and its Paging.
func QueryAll[T any](s *schema.Schema[T], v T, opts ...QueryAllOption) (*dynamodb.QueryInput, Paging, error) {
	c := collect(opts)
	in, err := query(s, v, c)
	return in, Paging{MaxItems: c.maxItems}, err
}

func query[T any](s *schema.Schema[T], v T, c *config) (*dynamodb.QueryInput, error) {
	const op = "Query"
	if err := checkRead(op, s.Describe(), c); err != nil {
		return nil, err
	}
	x := newExprs(s)
	key, keyNames, err := keyCondition(op, s, v, c, x)
	if err != nil {
		return nil, err
	}
	if c.filterSet {
		// "A filter expression cannot contain partition key or sort key
		// attributes" (developer guide, Query.FilterExpression).
		for _, name := range keyNames {
			if name != "" && mentions(c.filter, name) {
				return nil, fieldErr(op, name, "a Query filter cannot use the key attributes; put the condition in the sort-key option")
			}
		}
	}
	in := &dynamodb.QueryInput{
		TableName:              aws.String(s.Table()),
		KeyConditionExpression: key,
		ExclusiveStartKey:      nonEmpty(c.startKey),
		Select:                 c.sel,
		ReturnConsumedCapacity: c.capacity,
	}
	if c.index != "" {
		in.IndexName = aws.String(c.index)
	}
	if c.consistent {
		in.ConsistentRead = aws.Bool(true)
	}
	if c.descending {
		in.ScanIndexForward = aws.Bool(false)
	}
	if c.limitSet {
		in.Limit = aws.Int32(int32(c.limit))
	}
	if in.FilterExpression, in.ProjectionExpression, err = x.filterProjection(op, c); err != nil {
		return nil, err
	}
	in.ExpressionAttributeNames, in.ExpressionAttributeValues = x.b.Names(), x.b.Values()
	return in, nil
}

// Scan builds a Scan of the schema's table, or of an index with Index.
func Scan[T any](s *schema.Schema[T], opts ...ScanOption) (*dynamodb.ScanInput, error) {
	return scan(s, collect(opts))
}

// ScanAll builds the first Scan of a read that pages through the whole scan,
// and its Paging. With Parallel the input is the template of every segment
// (Segment and TotalSegments unset).
func ScanAll[T any](s *schema.Schema[T], opts ...ScanAllOption) (*dynamodb.ScanInput, Paging, error) {
	const op = "Scan"
	c := collect(opts)
	p := Paging{MaxItems: c.maxItems, Segments: c.parallel, Workers: c.workers}
	if c.parallelSet {
		// API reference, Scan: TotalSegments 1–1000000.
		if c.parallel < 1 || c.parallel > 1000000 {
			return nil, p, errorf(op, "Parallel(%d, %d): want 1 to 1000000 segments", c.parallel, c.workers)
		}
		if c.workers < 0 {
			return nil, p, errorf(op, "Parallel(%d, %d): workers must not be negative", c.parallel, c.workers)
		}
		if c.segmentSet {
			return nil, p, errorf(op, "Parallel and Segment together: choose one")
		}
		if len(c.startKey) > 0 && c.parallel > 1 {
			return nil, p, errorf(op, "StartAfter with Parallel: a parallel scan starts every segment at its beginning")
		}
	}
	in, err := scan(s, c)
	return in, p, err
}

func scan[T any](s *schema.Schema[T], c *config) (*dynamodb.ScanInput, error) {
	const op = "Scan"
	if err := checkRead(op, s.Describe(), c); err != nil {
		return nil, err
	}
	in := &dynamodb.ScanInput{
		TableName:              aws.String(s.Table()),
		ExclusiveStartKey:      nonEmpty(c.startKey),
		Select:                 c.sel,
		ReturnConsumedCapacity: c.capacity,
	}
	if c.index != "" {
		in.IndexName = aws.String(c.index)
	}
	if c.consistent {
		in.ConsistentRead = aws.Bool(true)
	}
	if c.limitSet {
		in.Limit = aws.Int32(int32(c.limit))
	}
	if c.segmentSet {
		// API reference, Scan: TotalSegments 1–1000000, Segment 0 to
		// TotalSegments-1.
		if c.segments < 1 || c.segments > 1000000 || c.segment < 0 || c.segment >= c.segments {
			return nil, errorf(op, "Segment(%d, %d): want 0 <= segment < total <= 1000000", c.segment, c.segments)
		}
		in.Segment, in.TotalSegments = aws.Int32(int32(c.segment)), aws.Int32(int32(c.segments))
	}
	x := newExprs(s)
	var err error
	if in.FilterExpression, in.ProjectionExpression, err = x.filterProjection(op, c); err != nil {
		return nil, err
	}
	in.ExpressionAttributeNames, in.ExpressionAttributeValues = x.b.Names(), x.b.Values()
	return in, nil
}

func nonEmpty(m map[string]types.AttributeValue) map[string]types.AttributeValue {
	if len(m) == 0 {
		return nil
	}
	return m
}

// checkRead validates the options Query and Scan share.
func checkRead(op string, d *schema.Description, c *config) error {
	if c.index != "" {
		idx := findIndex(d, c.index)
		if idx == nil {
			if findVector(d, c.index) != nil {
				return errorf(op, "%s is a vector index; use SearchVectors", c.index)
			}
			return errorf(op, "schema %s has no index %q", d.Type, c.index)
		}
		// "Strongly consistent reads are not supported on global secondary
		// indexes" (API reference, Query: ConsistentRead).
		if c.consistent && !idx.Local {
			return errorf(op, "consistent reads are not supported on global secondary index %s", c.index)
		}
	}
	if c.limitSet && c.limit < 1 {
		return errorf(op, "Limit %d: must be at least 1", c.limit)
	}
	if c.maxItemsSet && c.maxItems < 1 {
		return errorf(op, "MaxItems %d: must be at least 1", c.maxItems)
	}
	if c.startErr != nil {
		return &Error{Op: op, Msg: "StartAfter", Err: c.startErr}
	}
	switch c.sel {
	case "":
	case types.SelectCount, types.SelectAllAttributes, types.SelectSpecificAttributes:
	case types.SelectAllProjectedAttributes:
		if c.index == "" {
			return errorf(op, "Select ALL_PROJECTED_ATTRIBUTES needs an index")
		}
	default:
		return errorf(op, "Select %q: want COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES or SPECIFIC_ATTRIBUTES", c.sel)
	}
	if c.projSet && c.sel != "" && c.sel != types.SelectSpecificAttributes {
		return errorf(op, "Select %s cannot be combined with a projection", c.sel)
	}
	if !c.projSet && c.sel == types.SelectSpecificAttributes {
		return errorf(op, "Select SPECIFIC_ATTRIBUTES needs a projection")
	}
	return checkCapacity(op, c)
}

func findIndex(d *schema.Description, name string) *schema.Index {
	for _, idx := range d.Indexes {
		if idx.Name == name {
			return idx
		}
	}
	return nil
}

func findVector(d *schema.Description, name string) *schema.VectorIndexSpec {
	for _, vi := range d.VectorIndexes {
		if vi.Name == name {
			return vi
		}
	}
	return nil
}

// keyCondition renders Query's KeyConditionExpression.
func keyCondition[T any](op string, s *schema.Schema[T], v T, c *config, x exprs) (*string, [2]string, error) {
	d := s.Describe()
	var (
		pkName, skName string // attributes of the key read
		pk             types.AttributeValue
		skField        string // field whose type encodes explicit sort values; "" = composite string
		derived        types.AttributeValue
		derivedOp      = expr.KeyNone
	)
	if c.index == "" {
		pkName, skName = s.KeyNames()
		var err error
		if pk, err = s.PartitionValue(v); err != nil {
			return nil, [2]string{}, wrap(op, err)
		}
		if skName != "" {
			prefix, complete, err := s.SortPrefix(v)
			if err != nil && (c.sort == nil) {
				return nil, [2]string{}, wrap(op, err)
			}
			if d.RawKeys {
				if fs := s.SortFields(); len(fs) == 1 {
					skField = fs[0].Name
				}
				if prefix != nil {
					derived, derivedOp = prefix, expr.KeyEQ
				}
			} else if prefix != nil {
				derived, derivedOp = prefix, expr.KeyBeginsWith
				if complete {
					derivedOp = expr.KeyEQ
				}
			}
		}
	} else {
		idx := findIndex(d, c.index) // checked by checkRead
		k, err := s.IndexKey(v, c.index)
		if err != nil {
			return nil, [2]string{}, wrap(op, err)
		}
		pkName, pk = k.PKName, k.PK
		if pk == nil {
			return nil, [2]string{}, fieldErr(op, idx.PK, "the partition field of index %s is not set", idx.Name)
		}
		skName, skField = idx.SK, idx.SK
		if k.SK != nil {
			derived, derivedOp = k.SK, expr.KeyEQ
		}
	}
	sop, svals := derivedOp, []types.AttributeValue(nil)
	if derived != nil {
		svals = []types.AttributeValue{derived}
	}
	if c.sort != nil {
		sop, svals = c.sort.op, nil
		if sop != expr.KeyNone && skName == "" {
			return nil, [2]string{}, errorf(op, "a sort-key condition on a key without a sort key")
		}
		for _, val := range c.sort.vals {
			av, err := sortValue(op, s, skName, skField, sop, val)
			if err != nil {
				return nil, [2]string{}, err
			}
			svals = append(svals, av)
		}
	}
	text, err := x.b.KeyCondition(pkName, pk, skName, sop, svals...)
	if err != nil {
		return nil, [2]string{}, wrap(op, err)
	}
	return aws.String(text), [2]string{pkName, skName}, nil
}

// sortValue encodes an explicit sort-key value: the composed string for a
// generated sort key, a value of the field's type for an index or RawKeys
// table. A begins_with prefix is a string (or []byte) in both cases.
func sortValue[T any](op string, s *schema.Schema[T], skName, field string, kop expr.KeyOp, v any) (types.AttributeValue, error) {
	switch x := v.(type) {
	case types.AttributeValue:
		return x, nil
	case nil:
		return nil, fieldErr(op, skName, "nil sort-key value")
	}
	if kop == expr.KeyBeginsWith || field == "" {
		switch x := v.(type) {
		case string:
			return &types.AttributeValueMemberS{Value: x}, nil
		case []byte:
			return &types.AttributeValueMemberB{Value: x}, nil
		}
		if field == "" {
			return nil, fieldErr(op, skName, "the generated sort key is a string; got %T", v)
		}
		return nil, fieldErr(op, skName, "begins_with takes a string or []byte; got %T", v)
	}
	av, ok, err := s.EncodeField(field, v)
	if err != nil {
		return nil, wrap(op, err)
	}
	if !ok || av == nil {
		return nil, fieldErr(op, field, "sort-key value %T cannot be encoded", v)
	}
	return av, nil
}

// mentions reports whether c refers to the top-level attribute name, by a
// path in the tree or through the names of a raw condition.
func mentions(c expr.Cond, name string) bool {
	for n := range expr.Nodes(c) {
		switch n := n.(type) {
		case expr.Path:
			if len(n) > 0 && !n[0].IsIndex && n[0].Name == name {
				return true
			}
		case *expr.Raw:
			for _, v := range n.Names {
				if v == name {
					return true
				}
			}
		}
	}
	return false
}
