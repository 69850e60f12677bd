package request

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/codec"
	"github.com/dynamogo/dynamo/internal/limits"
	"github.com/dynamogo/dynamo/schema"
)

// MaxBatchStatements is the number of statements one BatchExecuteStatement
// takes (API reference, BatchExecuteStatement).
const MaxBatchStatements = limits.MaxBatchStatements

// Statement is one PartiQL statement and the Go values bound, in order, to
// its ? placeholders. Each value is encoded by package codec as a field of
// its type would be (nil is NULL).
type Statement struct {
	Text   string
	Params []any
}

// params encodes the statement's parameters.
func (s Statement) params(op string) ([]types.AttributeValue, error) {
	if s.Text == "" {
		return nil, errorf(op, "empty statement")
	}
	if len(s.Params) == 0 {
		return nil, nil
	}
	out := make([]types.AttributeValue, len(s.Params))
	for i, p := range s.Params {
		av, err := codec.Marshal(p)
		if err != nil {
			return nil, &Error{Op: op, Msg: "parameter " + strconv.Itoa(i+1), Err: err}
		}
		out[i] = av
	}
	return out, nil
}

// ExecuteStatement builds an ExecuteStatement. Cursor (StartAfter) is the
// previous page's NextToken; MaxItems is returned for the caller that pages.
func ExecuteStatement(st Statement, opts ...StatementOption) (in *dynamodb.ExecuteStatementInput, maxItems int, err error) {
	const op = "ExecuteStatement"
	c := collect(opts)
	if err := checkCapacity(op, c); err != nil {
		return nil, 0, err
	}
	if err := checkPaging(op, c); err != nil {
		return nil, 0, err
	}
	params, err := st.params(op)
	if err != nil {
		return nil, 0, err
	}
	in = &dynamodb.ExecuteStatementInput{Statement: aws.String(st.Text), Parameters: params, ReturnConsumedCapacity: c.capacity}
	if c.consistent {
		in.ConsistentRead = aws.Bool(true)
	}
	if c.limitSet {
		in.Limit = aws.Int32(int32(min(c.limit, 1<<31-1)))
	}
	if c.cursor != "" {
		in.NextToken = aws.String(c.cursor)
	}
	return in, c.maxItems, nil
}

// BatchExecuteStatement builds a BatchExecuteStatement of 1 to 25
// statements, all reads or all writes (DynamoDB checks that).
func BatchExecuteStatement(sts []Statement, opts ...CapacityOption) (*dynamodb.BatchExecuteStatementInput, error) {
	const op = "BatchExecuteStatement"
	c := collect(opts)
	if err := checkCapacity(op, c); err != nil {
		return nil, err
	}
	if len(sts) == 0 {
		return nil, errorf(op, "no statements")
	}
	if len(sts) > MaxBatchStatements {
		return nil, errorf(op, "%d statements: at most %d per request", len(sts), MaxBatchStatements)
	}
	in := &dynamodb.BatchExecuteStatementInput{Statements: make([]types.BatchStatementRequest, len(sts)), ReturnConsumedCapacity: c.capacity}
	for i, st := range sts {
		params, err := st.params(op)
		if err != nil {
			return nil, &Error{Op: op, Msg: "statement " + strconv.Itoa(i), Err: err}
		}
		in.Statements[i] = types.BatchStatementRequest{Statement: aws.String(st.Text), Parameters: params}
	}
	return in, nil
}

// ExecuteTransaction builds an ExecuteTransaction of 1 to 100 statements,
// all reads or all writes. ClientRequestToken makes it idempotent.
func ExecuteTransaction(sts []Statement, opts ...TxOption) (*dynamodb.ExecuteTransactionInput, error) {
	const op = "ExecuteTransaction"
	c := collect(opts)
	if err := checkCapacity(op, c); err != nil {
		return nil, err
	}
	if len(sts) == 0 {
		return nil, errorf(op, "no statements")
	}
	if len(sts) > MaxTxItems {
		return nil, errorf(op, "%d statements: at most %d per transaction", len(sts), MaxTxItems)
	}
	if n := len(c.token); n > limits.MaxClientTokenLen {
		return nil, errorf(op, "ClientRequestToken of %d characters: at most %d", n, limits.MaxClientTokenLen)
	}
	in := &dynamodb.ExecuteTransactionInput{TransactStatements: make([]types.ParameterizedStatement, len(sts)), ReturnConsumedCapacity: c.capacity}
	for i, st := range sts {
		params, err := st.params(op)
		if err != nil {
			return nil, &Error{Op: op, Msg: "statement " + strconv.Itoa(i), Err: err}
		}
		in.TransactStatements[i] = types.ParameterizedStatement{Statement: aws.String(st.Text), Parameters: params}
	}
	if c.token != "" {
		in.ClientRequestToken = aws.String(c.token)
	}
	return in, nil
}

// InsertStatement builds the PartiQL INSERT of v as s stores it at now:
// every attribute Put would write (the generated keys, the entity attribute,
// the next version and the timestamps among them) bound as a parameter.
// DynamoDB refuses an INSERT of an existing key, so a versioned v must carry
// no version (0): an insert only ever creates the item.
func InsertStatement[T any](s *schema.Schema[T], v T, now time.Time) (Statement, error) {
	const op = "ExecuteStatement"
	if read := s.VersionOf(v); read != 0 {
		version, _, _ := s.Lifecycle()
		return Statement{}, fieldErr(op, version, "an INSERT creates the item, so the version must be 0 (it holds %d); update the item instead", read)
	}
	item, err := s.DumpPut(v, now)
	if err != nil {
		return Statement{}, wrap(op, err)
	}
	names := make([]string, 0, len(item))
	for name := range item {
		names = append(names, name)
	}
	slices.Sort(names)
	var b strings.Builder
	b.WriteString(`INSERT INTO "` + strings.ReplaceAll(s.Table(), `"`, `""`) + `" VALUE {`)
	params := make([]any, len(names))
	for i, name := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("'" + strings.ReplaceAll(name, "'", "''") + "': ?")
		params[i] = codec.Raw{Value: item[name]}
	}
	b.WriteString("}")
	return Statement{Text: b.String(), Params: params}, nil
}
