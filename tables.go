package dynamo

import (
	"context"
	"errors"
	"iter"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/schema"
)

// TableAPI is the part of *dynamodb.Client that table management uses. It is
// kept apart from API so that a FromClient stub of the data operations need
// not implement it; the table calls of a repo over such a stub return a
// validation error.
type TableAPI interface {
	CreateTable(ctx context.Context, in *dynamodb.CreateTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error)
	DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error)
	DeleteTable(ctx context.Context, in *dynamodb.DeleteTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteTableOutput, error)
	ListTables(ctx context.Context, in *dynamodb.ListTablesInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ListTablesOutput, error)
}

var _ TableAPI = (*dynamodb.Client)(nil)

// tables returns the table API of the repo's client.
func (r *Repo) tables(op string) (TableAPI, error) {
	t, ok := r.api.(TableAPI)
	if !ok {
		return nil, invalidf(op, "the client given to FromClient does not implement dynamo.TableAPI")
	}
	return t, nil
}

// CreateTable creates a table and returns its description as DynamoDB
// answered it (the table may still be CREATING: see WaitForTable).
func (r *Repo) CreateTable(ctx context.Context, in *dynamodb.CreateTableInput) (*types.TableDescription, error) {
	const op = "CreateTable"
	var d *types.TableDescription
	err := r.run(ctx, op, tablesOf(in), func(ctx context.Context) error {
		api, err := r.tables(op)
		if err != nil {
			return err
		}
		out, err := api.CreateTable(ctx, in, r.callOpts...)
		if err != nil {
			return mapError(op, aws.ToString(in.TableName), err)
		}
		d = out.TableDescription
		return nil
	})
	return d, err
}

// CreateTables creates the tables the schemas describe, one per table name
// (schemas sharing a table are merged as schema.CreateTableInput merges
// them), and waits until each is ACTIVE.
func (r *Repo) CreateTables(ctx context.Context, schemas ...schema.Described) error {
	var names []string
	byTable := map[string][]schema.Described{}
	for _, s := range schemas {
		name := s.Describe().Table
		if _, ok := byTable[name]; !ok {
			names = append(names, name)
		}
		byTable[name] = append(byTable[name], s)
	}
	for _, name := range names {
		in, err := schema.CreateTableInput(byTable[name]...)
		if err != nil {
			return invalid("CreateTable", err)
		}
		if _, err := r.CreateTable(ctx, in); err != nil {
			return err
		}
		if _, err := r.WaitForTable(ctx, name); err != nil {
			return err
		}
	}
	return nil
}

// DescribeTable returns the table's description.
func (r *Repo) DescribeTable(ctx context.Context, name string) (*types.TableDescription, error) {
	const op = "DescribeTable"
	var d *types.TableDescription
	err := r.run(ctx, op, []string{name}, func(ctx context.Context) error {
		api, err := r.tables(op)
		if err != nil {
			return err
		}
		out, err := api.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}, r.callOpts...)
		if err != nil {
			return mapError(op, name, err)
		}
		d = out.Table
		return nil
	})
	return d, err
}

// DeleteTable deletes a table (see WaitForTableDeleted).
func (r *Repo) DeleteTable(ctx context.Context, name string) error {
	const op = "DeleteTable"
	return r.run(ctx, op, []string{name}, func(ctx context.Context) error {
		api, err := r.tables(op)
		if err != nil {
			return err
		}
		if _, err := api.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)}, r.callOpts...); err != nil {
			return mapError(op, name, err)
		}
		return nil
	})
}

// ListTables yields the names of all tables, following ListTables'
// pagination, and stops at the first error.
func (r *Repo) ListTables(ctx context.Context) iter.Seq2[string, error] {
	const op = "ListTables"
	return func(yield func(string, error) bool) {
		api, err := r.tables(op)
		if err != nil {
			yield("", err)
			return
		}
		in := &dynamodb.ListTablesInput{}
		for {
			out, err := api.ListTables(ctx, in, r.callOpts...)
			if err != nil {
				yield("", mapError(op, "", err))
				return
			}
			for _, name := range out.TableNames {
				if !yield(name, nil) {
					return
				}
			}
			if out.LastEvaluatedTableName == nil {
				return
			}
			in.ExclusiveStartTableName = out.LastEvaluatedTableName
		}
	}
}

// tablePoll is how often the waits ask DynamoDB; the context bounds them.
const tablePoll = 250 * time.Millisecond

// WaitForTable polls until the table and all its indexes are ACTIVE, or ctx
// ends, and returns the last description.
func (r *Repo) WaitForTable(ctx context.Context, name string) (*types.TableDescription, error) {
	for {
		d, err := r.DescribeTable(ctx, name)
		if err != nil && !errors.Is(err, ErrResourceNotFound) {
			return nil, err
		}
		if err == nil && tableActive(d) {
			return d, nil
		}
		if err := sleepCtx(ctx, tablePoll); err != nil {
			return d, mapError("DescribeTable", name, err)
		}
	}
}

// WaitForTableDeleted polls until DescribeTable answers ResourceNotFound, or
// ctx ends.
func (r *Repo) WaitForTableDeleted(ctx context.Context, name string) error {
	for {
		_, err := r.DescribeTable(ctx, name)
		if errors.Is(err, ErrResourceNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := sleepCtx(ctx, tablePoll); err != nil {
			return mapError("DescribeTable", name, err)
		}
	}
}

func tableActive(d *types.TableDescription) bool {
	if d.TableStatus != types.TableStatusActive {
		return false
	}
	for _, g := range d.GlobalSecondaryIndexes {
		if g.IndexStatus != types.IndexStatusActive {
			return false
		}
	}
	for _, v := range d.VectorIndexes {
		if s := string(v.IndexStatus); s != "" && !strings.EqualFold(s, "ACTIVE") {
			return false
		}
	}
	return true
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
