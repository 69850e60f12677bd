package request

import (
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/schema"
)

// Query builds a Query of the partition v's key fields name. On the table
// the partition value is the generated partition key; with Index it is the
// index's partition fields (a GSI, every one of a multi-attribute key) or
// again the table's (an LSI).
//
// The sort-key condition is, without a Sort option, derived from v: on the
// table a begins_with on the generated sort key when only its leading fields
// are set, equality when all are; on an index equality on the sort-key
// fields set from the first on (a set field after an unset one is an
// error); on a RawKeys table equality on the sort-key field when it is set;
// otherwise none. SortEq … SortBeginsWith give it explicitly, on the first
// sort field v does not fix (schema.SortCondition on the table, the field's
// own type on an index), and SortNone drops it.
func Query[T any](s *schema.Schema[T], v T, opts ...QueryOption) (*dynamodb.QueryInput, error) {
	return query(s, v, collect(opts))
}

// Paging says how a read that pages for the caller goes on after its first
// request: MaxItems caps the items returned in total (0: no cap); Segments
// and Workers are Parallel's (0 without it). With ResumeScan, Resume is the
// cursor, Starts the first key of each segment (nil: its beginning) and
// Segments at least 1.
type Paging struct {
	MaxItems, Segments, Workers int
	Resume                      *ScanCursor
	Starts                      []map[string]types.AttributeValue
}

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
	key, exclude, err := keyCondition(op, s, v, c, x)
	if err != nil {
		return nil, err
	}
	if c.filterSet {
		// "A filter expression cannot contain partition key or sort key
		// attributes" (developer guide, Query.FilterExpression).
		for _, name := range keyAttrNames(s, c) {
			if name != "" && mentions(c.filter, name) {
				return nil, fieldErr(op, name, "a Query filter cannot use the key attributes; put the condition in the sort-key option")
			}
		}
	}
	in, table, keyText := newInput[dynamodb.QueryInput](s.Table(), key)
	*in = dynamodb.QueryInput{
		TableName:              table,
		KeyConditionExpression: keyText,
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
	if exclude != nil {
		fc := *c
		fc.filter, fc.filterSet = exclude, true
		if c.filterSet {
			fc.filter = expr.AllOf(exclude, c.filter)
		}
		c = &fc
	}
	if in.FilterExpression, in.ProjectionExpression, err = x.filterProjection(op, s, c); err != nil {
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
	if c.resumeSet {
		if err := resumePaging(op, c, &p); err != nil {
			return nil, p, err
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
	in, table, _ := newInput[dynamodb.ScanInput](s.Table(), "")
	*in = dynamodb.ScanInput{
		TableName:              table,
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
	if in.FilterExpression, in.ProjectionExpression, err = x.filterProjection(op, s, c); err != nil {
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
	if err := checkPaging(op, c); err != nil {
		return err
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

// keyAttrNames is the names of the key attributes a Query reads: the
// table's, or those of its Index.
func keyAttrNames[T any](s *schema.Schema[T], c *config) []string {
	if c.index == "" {
		pk, sk := s.KeyNames()
		return []string{pk, sk}
	}
	idx := findIndex(s.Describe(), c.index) // checked by checkRead
	var names []string
	for _, a := range slices.Concat(idx.Partition, idx.Sort) {
		names = append(names, a.Name)
	}
	return names
}

// keyCondition renders Query's KeyConditionExpression. It also returns, for
// a sort-key range that the key condition cannot close exactly, the filter
// that does (schema.SortRange).
func keyCondition[T any](op string, s *schema.Schema[T], v T, c *config, x exprs) (string, expr.Cond, error) {
	if c.index != "" {
		return indexCondition(op, s, v, c, x)
	}
	d := s.Describe()
	pkName, skName := s.KeyNames()
	// Without a Sort option the key's sort prefix is the condition: both
	// parts come from one copy of v.
	var pk, prefix types.AttributeValue
	var complete bool
	var err error
	if c.sort == nil && skName != "" {
		pk, prefix, complete, err = s.QueryKey(v)
	} else {
		pk, err = s.PartitionValue(v)
	}
	if err != nil {
		return "", nil, wrap(op, err)
	}
	sop, svals := expr.KeyNone, []types.AttributeValue(nil)
	var exclude expr.Cond
	switch {
	case c.sort != nil && c.sort.op != expr.KeyNone && skName == "":
		return "", nil, errorf(op, "a sort-key condition on a key without a sort key")
	case c.sort != nil && c.sort.op != expr.KeyNone && (c.wholeSort || rawValues(c.sort.vals)):
		// The whole sort key, as it is stored.
		sop = c.sort.op
		for _, val := range c.sort.vals {
			av, err := wholeSortValue(op, skName, val)
			if err != nil {
				return "", nil, err
			}
			svals = append(svals, av)
		}
	case c.sort != nil && c.sort.op != expr.KeyNone:
		// schema owns the key layout.
		r, err := s.SortCondition(v, schemaOps[c.sort.op], c.sort.vals...)
		if err != nil {
			return "", nil, wrap(op, err)
		}
		sop, svals = keyOps[r.Op], r.Values
		if r.Exclude != nil {
			exclude = &expr.Compare{Op: expr.NE, L: expr.Path{{Name: r.Field}}, R: &expr.Value{AV: r.Exclude}}
		}
	case c.sort == nil && skName != "":
		if prefix != nil {
			sop, svals = expr.KeyBeginsWith, []types.AttributeValue{prefix}
			if complete || d.RawKeys {
				sop = expr.KeyEQ
			}
		}
	}
	text, err := x.b.KeyCondition(pkName, pk, skName, sop, svals...)
	if err != nil {
		return "", nil, wrap(op, err)
	}
	return text, exclude, nil
}

// indexCondition is keyCondition on a secondary index: equality on every
// partition attribute and on the leading sort attributes v sets; a Sort
// option compares the next sort attribute, with its type (the last one,
// instead of its equality, when v sets them all).
func indexCondition[T any](op string, s *schema.Schema[T], v T, c *config, x exprs) (string, expr.Cond, error) {
	idx := findIndex(s.Describe(), c.index) // checked by checkRead
	iv, err := s.IndexValues(v, c.index)
	if err != nil {
		return "", nil, wrap(op, err)
	}
	eqs := slices.Clone(iv.Partition)
	sop, skName, svals := expr.KeyNone, "", []types.AttributeValue(nil)
	switch {
	case c.sort == nil:
		eqs = append(eqs, iv.Sort...)
	case c.sort.op == expr.KeyNone:
	case len(idx.Sort) == 0:
		return "", nil, errorf(op, "a sort-key condition on a key without a sort key")
	default:
		eqs = append(eqs, iv.Sort...)
		skName = iv.Next
		if skName == "" { // every sort attribute set: the last one is compared
			eqs = eqs[:len(eqs)-1]
			skName = idx.Sort[len(idx.Sort)-1].Name
		}
		sop = c.sort.op
		// "begins_with … The sort key must be of type String or Binary"
		// (developer guide, Query key condition expressions).
		if i := slices.IndexFunc(idx.Sort, func(a schema.KeyAttr) bool { return a.Name == skName }); sop == expr.KeyBeginsWith && idx.Sort[i].Type == types.ScalarAttributeTypeN {
			return "", nil, fieldErr(op, skName, "begins_with needs a string or binary sort-key attribute; it is a number")
		}
		for _, val := range c.sort.vals {
			av, err := sortValue(op, s, skName, sop, val)
			if err != nil {
				return "", nil, err
			}
			svals = append(svals, av)
		}
	}
	var text string
	if idx.MultiKey() {
		parts := make([]expr.KeyPart, len(eqs))
		for i, e := range eqs {
			parts[i] = expr.KeyPart{Name: e.Name, Value: e.Value}
		}
		text, err = x.b.MultiKeyCondition(parts, skName, sop, svals...)
	} else {
		if len(eqs) == 2 { // the sort attribute is set
			skName, sop, svals = eqs[1].Name, expr.KeyEQ, []types.AttributeValue{eqs[1].Value}
		}
		text, err = x.b.KeyCondition(eqs[0].Name, eqs[0].Value, skName, sop, svals...)
	}
	if err != nil {
		return "", nil, wrap(op, err)
	}
	return text, nil, nil
}

// schemaOps and keyOps translate between the sort-key operators of expr
// (the expression) and schema (the key layout).
var (
	schemaOps = map[expr.KeyOp]schema.SortOp{
		expr.KeyEQ: schema.SortEQ, expr.KeyLT: schema.SortLT, expr.KeyLE: schema.SortLE,
		expr.KeyGT: schema.SortGT, expr.KeyGE: schema.SortGE, expr.KeyBetween: schema.SortBetween,
		expr.KeyBeginsWith: schema.SortBeginsWith,
	}
	keyOps = func() map[schema.SortOp]expr.KeyOp {
		m := make(map[schema.SortOp]expr.KeyOp, len(schemaOps))
		for k, v := range schemaOps {
			m[v] = k
		}
		return m
	}()
)

// rawValues reports whether the values of a sort-key condition are given
// as attribute values: the whole sort key as it is stored, used as is.
// wholeSortValue is v as a whole stored sort key: an attribute value as it
// is, a string as S, a []byte as B.
func wholeSortValue(op, skName string, v any) (types.AttributeValue, error) {
	switch x := v.(type) {
	case types.AttributeValue:
		return x, nil
	case string:
		return &types.AttributeValueMemberS{Value: x}, nil
	case []byte:
		return &types.AttributeValueMemberB{Value: x}, nil
	}
	return nil, fieldErr(op, skName, "the whole sort key is a string or []byte; got %T", v)
}

func rawValues(vals []any) bool {
	for _, v := range vals {
		if _, ok := v.(types.AttributeValue); !ok {
			return false
		}
	}
	return len(vals) > 0
}

// sortValue encodes an explicit sort-key value of an index: a value of the
// field's type; a begins_with prefix is a string (or []byte).
func sortValue[T any](op string, s *schema.Schema[T], field string, kop expr.KeyOp, v any) (types.AttributeValue, error) {
	switch x := v.(type) {
	case types.AttributeValue:
		return x, nil
	case nil:
		return nil, fieldErr(op, field, "nil sort-key value")
	}
	if kop == expr.KeyBeginsWith {
		switch x := v.(type) {
		case string:
			return &types.AttributeValueMemberS{Value: x}, nil
		case []byte:
			return &types.AttributeValueMemberB{Value: x}, nil
		}
		return nil, fieldErr(op, field, "begins_with takes a string or []byte; got %T", v)
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

// resumePaging checks ResumeScan's cursor against the scan and decodes
// where each segment starts.
func resumePaging(op string, c *config, p *Paging) error {
	switch {
	case c.resume == nil:
		return errorf(op, "ResumeScan: nil cursor")
	case len(c.startKey) > 0 || c.startErr != nil:
		return errorf(op, "StartAfter with ResumeScan: the cursor says where each segment starts")
	case c.segmentSet:
		return errorf(op, "Segment with ResumeScan: use Parallel")
	}
	if p.Segments == 0 {
		p.Segments = 1
	}
	p.Resume = c.resume
	p.Starts = make([]map[string]types.AttributeValue, p.Segments)
	if len(c.resume.Segments) == 0 {
		return nil // a new scan
	}
	if len(c.resume.Segments) != p.Segments {
		return errorf(op, "ResumeScan: the cursor has %d segments, the scan %d", len(c.resume.Segments), p.Segments)
	}
	for i, sc := range c.resume.Segments {
		key, err := DecodeCursor(sc.After)
		if err != nil {
			return errorf(op, "ResumeScan: segment %d: %v", i, err)
		}
		p.Starts[i] = key
	}
	return nil
}
