package dynamo

import (
	"context"
	"fmt"
	"iter"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/request"
)

// Statement is a PartiQL statement and the Go values bound, in order, to
// its ? placeholders; build it with [PartiQL].
type Statement = request.Statement

// PartiQL returns the statement text with params bound to its ?
// placeholders. Each param is encoded by package codec as a field of its
// type would be (nil is NULL, a codec.Set a set, a struct a map), so a
// statement never splices values into its text.
//
//	dynamo.PartiQL(`SELECT * FROM "app" WHERE pk = ? AND total > ?`, "order#u1", 100)
func PartiQL(text string, params ...any) Statement {
	return Statement{Text: text, Params: params}
}

// InsertStatement is the PartiQL INSERT of v, the item Put would write (its
// generated keys, entity attribute, first version and timestamps at the
// repo's clock included), for a statement batch or transaction; DynamoDB
// refuses it when the key exists.
//
//	ins, err := orders.InsertStatement(o)
//	_, err = repo.ExecuteTransaction(ctx, []dynamo.Statement{ins, other})
func (t *Table[T]) InsertStatement(v T) (Statement, error) {
	st, err := request.InsertStatement(t.schema, v, t.repo.now())
	if err != nil {
		return Statement{}, invalid("ExecuteStatement", err)
	}
	return st, nil
}

// Execute runs one PartiQL statement (ExecuteStatement) and returns one page
// of its rows loaded into T: the items a SELECT read, or the item a write
// returned with RETURNING. As with [Table.Query], rows of other entities
// sharing the table are skipped; a row without the table's partition key (a
// projection that left it out) is an [ErrDecode]: select the keys, or read
// partial rows with [Repo.Execute]. Continue with StartAfter(page.Cursor).
//
// A SELECT is retried like any read; an INSERT, UPDATE or DELETE that may
// have been applied is not, and fails with [ErrOutcomeUnknown]. An INSERT
// of a key that exists fails with [ErrConditionalCheckFailed]
// (DuplicateItemException), like a failed WHERE condition of an UPDATE or
// DELETE.
func (t *Table[T]) Execute(ctx context.Context, st Statement, opts ...StatementOption) (Page[T], error) {
	return executePage(ctx, t.repo, t.tables(), st, opts, t.decodeRow)
}

// ExecuteStream runs a statement lazily, like [Table.QueryStream]: a page
// is fetched only when the loop needs it (page size Limit, total cap
// MaxItems). An error is yielded once and ends the loop.
func (t *Table[T]) ExecuteStream(ctx context.Context, st Statement, opts ...StatementOption) iter.Seq2[T, error] {
	return executeStream(ctx, t.repo, t.tables(), st, opts, t.decodeRow)
}

// decodeRow loads a statement's row: like decodeOwned, but a row without the
// partition key cannot be told apart from another entity's, so it is an
// error rather than silently skipped.
func (t *Table[T]) decodeRow(op string) decodeFunc[T] {
	owned := t.decodeOwned(op)
	pk, _ := t.schema.KeyNames()
	return func(item map[string]types.AttributeValue) (T, bool, error) {
		if _, ok := item[pk]; !ok {
			var zero T
			return zero, false, &Error{Type: ErrDecode, Op: op, Table: t.schema.Table(),
				Message: "row has no partition key " + pk + ": select the key attributes to load it, or use Repo.Execute for raw rows"}
		}
		return owned(item)
	}
}

func (t *Table[T]) tables() []string { return []string{t.schema.Table()} }

// Execute runs one PartiQL statement, as [Table.Execute] does, and returns
// its rows as they are, of any table and shape.
func (r *Repo) Execute(ctx context.Context, st Statement, opts ...StatementOption) (Page[map[string]types.AttributeValue], error) {
	return executePage(ctx, r, nil, st, opts, rawRow)
}

// ExecuteStream runs a statement lazily, as [Table.ExecuteStream] does, and
// yields its rows as they are.
func (r *Repo) ExecuteStream(ctx context.Context, st Statement, opts ...StatementOption) iter.Seq2[map[string]types.AttributeValue, error] {
	return executeStream(ctx, r, nil, st, opts, rawRow)
}

func rawRow(string) decodeFunc[map[string]types.AttributeValue] {
	return func(item map[string]types.AttributeValue) (map[string]types.AttributeValue, bool, error) {
		return item, true, nil
	}
}

func executePage[T any](ctx context.Context, r *Repo, tables []string, st Statement, opts []StatementOption, decode func(op string) decodeFunc[T]) (Page[T], error) {
	const op = "ExecuteStatement"
	var p Page[T]
	err := r.run(ctx, op, tables, func(ctx context.Context) error {
		in, maxItems, err := request.ExecuteStatement(st, opts...)
		if err != nil {
			return invalid(op, err)
		}
		if maxItems > 0 {
			return invalidf(op, "MaxItems applies to ExecuteStream; Execute reads one page (use Limit)")
		}
		out, err := r.api.ExecuteStatement(ctx, in, r.callOpts...)
		if err != nil {
			return mapError(op, oneTable(tables), err)
		}
		p = Page[T]{Items: make([]T, 0, len(out.Items)), Cursor: aws.ToString(out.NextToken), Count: len(out.Items), ConsumedCapacity: out.ConsumedCapacity}
		dec := decode(op)
		for _, item := range out.Items {
			v, ok, err := dec(item)
			if err != nil {
				return err
			}
			if ok {
				p.Items = append(p.Items, v)
			}
		}
		return nil
	})
	if err != nil {
		return Page[T]{}, err
	}
	return p, nil
}

func executeStream[T any](ctx context.Context, r *Repo, tables []string, st Statement, opts []StatementOption, decode func(op string) decodeFunc[T]) iter.Seq2[T, error] {
	const op = "ExecuteStatement"
	return runStream(ctx, r, op, tables, func(ctx context.Context) (iter.Seq2[T, error], error) {
		in, maxItems, err := request.ExecuteStatement(st, opts...)
		if err != nil {
			return nil, invalid(op, err)
		}
		// stream pages by key; a statement pages by NextToken, kept here.
		// The key stream hands back is only "there is a next page".
		next := in.NextToken
		more := map[string]types.AttributeValue{"": &types.AttributeValueMemberNULL{Value: true}}
		fetch := func(ctx context.Context, _ map[string]types.AttributeValue) (rawPage, error) {
			page := *in
			page.NextToken = next
			out, err := r.api.ExecuteStatement(ctx, &page, r.callOpts...)
			if err != nil {
				return rawPage{}, mapError(op, oneTable(tables), err)
			}
			next = out.NextToken
			p := rawPage{items: out.Items}
			if aws.ToString(next) != "" {
				p.last = more
			}
			return p, nil
		}
		return stream(ctx, nil, maxItems, fetch, decode(op)), nil
	})
}

// StatementResult is the outcome of one statement of [Repo.ExecuteBatch].
type StatementResult struct {
	// Item is the item a read found; nil when there was none, and for writes.
	Item map[string]types.AttributeValue
	// Table is the table the statement addressed, when DynamoDB reports it.
	Table string
	// Err is this statement's failure (its Type from DynamoDB's code, e.g.
	// ErrConditionalCheckFailed); nil when it succeeded.
	Err *Error
}

// ExecuteBatch runs up to 25 PartiQL statements, all reads (SELECT of one
// item by its full key) or all writes, in one BatchExecuteStatement. Each
// statement succeeds or fails on its own: the results, one per statement in
// order, carry each failure in Err while the others are applied. The error
// is for the request as a whole (a bad option, more than 25 statements,
// reads mixed with writes). Writes are not retried after they may have been
// applied.
func (r *Repo) ExecuteBatch(ctx context.Context, sts []Statement, opts ...CapacityOption) ([]StatementResult, error) {
	const op = "BatchExecuteStatement"
	var res []StatementResult
	err := r.run(ctx, op, nil, func(ctx context.Context) error {
		in, err := request.BatchExecuteStatement(sts, opts...)
		if err != nil {
			return invalid(op, err)
		}
		out, err := r.api.BatchExecuteStatement(ctx, in, r.callOpts...)
		if err != nil {
			return mapError(op, "", err)
		}
		if len(out.Responses) != len(sts) {
			return &Error{Type: ErrDecode, Op: op, Message: fmt.Sprintf("%d responses to %d statements", len(out.Responses), len(sts))}
		}
		res = make([]StatementResult, len(out.Responses))
		for i, resp := range out.Responses {
			res[i] = StatementResult{Item: resp.Item, Table: aws.ToString(resp.TableName)}
			if e := resp.Error; e != nil {
				res[i].Err = statementError(op, res[i].Table, e)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// statementError is one failed statement of a batch. Its codes are the
// exception names without "Exception", and a few of their own
// (API reference, BatchStatementError).
func statementError(op, table string, e *types.BatchStatementError) *Error {
	code := string(e.Code)
	t, ok := awsCodes[code+"Exception"]
	if !ok {
		t, ok = awsCodes[code]
	}
	if !ok {
		switch code {
		case "ValidationError":
			t = ErrValidation
		case "ThrottlingError":
			t = ErrThrottled
		case "AccessDenied":
			t = ErrAccessDenied
		default:
			t = ErrUnknown
		}
	}
	msg := aws.ToString(e.Message)
	if msg == "" {
		msg = code
	}
	return &Error{Type: t, AWSCode: code, Message: msg, Op: op, Table: table, Retryable: t.Retryable(), Item: e.Item}
}

// ExecuteTransaction runs up to 100 PartiQL statements atomically
// (ExecuteTransaction): all writes (INSERT, UPDATE, DELETE and EXISTS
// checks) or all reads (SELECT). It returns, for a read transaction, the
// item each statement read (nil when none). Like [Repo.Transact], a
// canceled transaction is an *Error of type [ErrTransactionCanceled] whose
// CancellationReasons has one entry per statement, in order; the SDK gives
// each call a ClientRequestToken, so its retries never apply it twice, and
// ClientRequestToken makes your own retries idempotent too.
func (r *Repo) ExecuteTransaction(ctx context.Context, sts []Statement, opts ...TxOption) ([]map[string]types.AttributeValue, error) {
	const op = "ExecuteTransaction"
	var items []map[string]types.AttributeValue
	err := r.run(ctx, op, nil, func(ctx context.Context) error {
		in, err := request.ExecuteTransaction(sts, opts...)
		if err != nil {
			return invalid(op, err)
		}
		out, err := r.api.ExecuteTransaction(ctx, in, r.callOpts...)
		if err != nil {
			return mapError(op, "", err)
		}
		if len(out.Responses) > 0 {
			items = make([]map[string]types.AttributeValue, len(out.Responses))
			for i, resp := range out.Responses {
				items[i] = resp.Item
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return items, nil
}
