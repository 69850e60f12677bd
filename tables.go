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
	UpdateTable(ctx context.Context, in *dynamodb.UpdateTableInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateTableOutput, error)
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
// them), and waits until each is ACTIVE. It fails if a table exists; see
// SyncTables for the form a program can run any number of times.
func (r *Repo) CreateTables(ctx context.Context, schemas ...schema.Described) error {
	ins, err := tableInputs(schemas)
	if err != nil {
		return err
	}
	for _, in := range ins {
		if err := r.createTable(ctx, in); err != nil {
			return err
		}
	}
	return nil
}

// TableChange is one thing SyncTables did to a table, or found and left
// alone. Action is "create table", "create index" or "keep index" (an index
// on the table that no schema declares: SyncTables never drops one); Index
// is "" for "create table".
type TableChange struct {
	Table, Index, Action string
}

// String renders the change as "table: action [index]".
func (c TableChange) String() string {
	if c.Index == "" {
		return c.Table + ": " + c.Action
	}
	return c.Table + ": " + c.Action + " " + c.Index
}

// SyncTables brings the tables in line with the schemas (merged per table
// as CreateTables merges them) and waits until each is ACTIVE: it creates a
// missing table, and adds each missing GSI with UpdateTable, one at a time
// as DynamoDB requires, waiting for it to become ACTIVE. It returns what it
// did, nothing when everything was in place, so a program may call it on
// every start. It never drops a table or an index, and it never changes a
// key: a table or index whose key differs from its schema's, or a missing
// LSI or vector index (which UpdateTable cannot add), is a validation error
// naming the table and the attribute or index.
func (r *Repo) SyncTables(ctx context.Context, schemas ...schema.Described) ([]TableChange, error) {
	const op = "SyncTables"
	ins, err := tableInputs(schemas)
	if err != nil {
		return nil, err
	}
	var changes []TableChange
	for _, in := range ins {
		name := aws.ToString(in.TableName)
		d, err := r.DescribeTable(ctx, name)
		if errors.Is(err, ErrResourceNotFound) {
			if err := r.createTable(ctx, in); err != nil {
				return changes, err
			}
			changes = append(changes, TableChange{Table: name, Action: "create table"})
			continue
		}
		if err != nil {
			return changes, err
		}
		if err := sameKey(op, name, "", in.KeySchema, in.AttributeDefinitions, d.KeySchema, d.AttributeDefinitions); err != nil {
			return changes, err
		}
		have := map[string][]types.KeySchemaElement{}
		for _, g := range d.GlobalSecondaryIndexes {
			have[aws.ToString(g.IndexName)] = g.KeySchema
		}
		for _, l := range d.LocalSecondaryIndexes {
			have[aws.ToString(l.IndexName)] = l.KeySchema
		}
		for _, l := range in.LocalSecondaryIndexes {
			idx := aws.ToString(l.IndexName)
			ks, ok := have[idx]
			if !ok {
				return changes, invalidf(op, "table %s has no local secondary index %s, and an LSI can only be created with its table", name, idx)
			}
			if err := sameKey(op, name, idx, l.KeySchema, in.AttributeDefinitions, ks, d.AttributeDefinitions); err != nil {
				return changes, err
			}
		}
		vectors := map[string]bool{}
		for _, v := range d.VectorIndexes {
			vectors[aws.ToString(v.IndexName)] = true
		}
		for _, v := range in.VectorIndexes {
			if idx := aws.ToString(v.IndexName); !vectors[idx] {
				return changes, invalidf(op, "table %s has no vector index %s; SyncTables adds global secondary indexes only", name, idx)
			}
		}
		wanted := map[string]bool{}
		for _, g := range in.GlobalSecondaryIndexes {
			idx := aws.ToString(g.IndexName)
			wanted[idx] = true
			if ks, ok := have[idx]; ok {
				if err := sameKey(op, name, idx, g.KeySchema, in.AttributeDefinitions, ks, d.AttributeDefinitions); err != nil {
					return changes, err
				}
				continue
			}
			if err := r.createIndex(ctx, in, g); err != nil {
				return changes, err
			}
			changes = append(changes, TableChange{Table: name, Index: idx, Action: "create index"})
		}
		for _, g := range d.GlobalSecondaryIndexes {
			if idx := aws.ToString(g.IndexName); !wanted[idx] {
				changes = append(changes, TableChange{Table: name, Index: idx, Action: "keep index"})
			}
		}
	}
	return changes, nil
}

// tableInputs merges the schemas into one CreateTable request per table
// name, in the order the names first appear.
func tableInputs(schemas []schema.Described) ([]*dynamodb.CreateTableInput, error) {
	var names []string
	byTable := map[string][]schema.Described{}
	for _, s := range schemas {
		name := s.Describe().Table
		if _, ok := byTable[name]; !ok {
			names = append(names, name)
		}
		byTable[name] = append(byTable[name], s)
	}
	ins := make([]*dynamodb.CreateTableInput, len(names))
	for i, name := range names {
		in, err := schema.CreateTableInput(byTable[name]...)
		if err != nil {
			return nil, invalid("CreateTable", err)
		}
		ins[i] = in
	}
	return ins, nil
}

// createTable creates the table and waits until it is ACTIVE.
func (r *Repo) createTable(ctx context.Context, in *dynamodb.CreateTableInput) error {
	if _, err := r.CreateTable(ctx, in); err != nil {
		return err
	}
	_, err := r.WaitForTable(ctx, aws.ToString(in.TableName))
	return err
}

// createIndex adds the GSI g of the table in to the existing table and
// waits until it is ACTIVE (DynamoDB creates one GSI per UpdateTable).
func (r *Repo) createIndex(ctx context.Context, in *dynamodb.CreateTableInput, g types.GlobalSecondaryIndex) error {
	const op = "UpdateTable"
	name := aws.ToString(in.TableName)
	up := &dynamodb.UpdateTableInput{
		TableName:            in.TableName,
		AttributeDefinitions: keyDefs(in.AttributeDefinitions, g.KeySchema),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName:             g.IndexName,
			KeySchema:             g.KeySchema,
			Projection:            g.Projection,
			ProvisionedThroughput: g.ProvisionedThroughput,
		}}},
	}
	err := r.run(ctx, op, []string{name}, func(ctx context.Context) error {
		api, err := r.tables(op)
		if err != nil {
			return err
		}
		if _, err := api.UpdateTable(ctx, up, r.callOpts...); err != nil {
			return mapError(op, name, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	_, err = r.WaitForTable(ctx, name)
	return err
}

// keyDefs returns the attribute definitions of the key's attributes.
func keyDefs(defs []types.AttributeDefinition, key []types.KeySchemaElement) []types.AttributeDefinition {
	var out []types.AttributeDefinition
	for _, k := range key {
		for _, d := range defs {
			if aws.ToString(d.AttributeName) == aws.ToString(k.AttributeName) {
				out = append(out, d)
			}
		}
	}
	return out
}

// sameKey checks that the table's key (index "") or index's key is the one
// the schema declares: same attributes, roles and types, in order.
func sameKey(op, table, index string, want []types.KeySchemaElement, wantDefs []types.AttributeDefinition, got []types.KeySchemaElement, gotDefs []types.AttributeDefinition) error {
	where := "table " + table
	if index != "" {
		where += " index " + index
	}
	for i, w := range want {
		attr := aws.ToString(w.AttributeName)
		if i >= len(got) || got[i].KeyType != w.KeyType {
			return invalidf(op, "%s has no %s key, the schema's is attribute %s; SyncTables never changes a key", where, w.KeyType, attr)
		}
		if have := aws.ToString(got[i].AttributeName); have != attr {
			return invalidf(op, "%s: its %s key is attribute %s, the schema's is %s; SyncTables never changes a key", where, w.KeyType, have, attr)
		}
		wt, gt := attrType(wantDefs, attr), attrType(gotDefs, attr)
		if gt != "" && wt != gt {
			return invalidf(op, "%s: key attribute %s is %s in the schema but %s in the table", where, attr, wt, gt)
		}
	}
	if len(got) > len(want) {
		return invalidf(op, "%s has a %s key, attribute %s, the schema has none; SyncTables never changes a key", where, got[len(want)].KeyType, aws.ToString(got[len(want)].AttributeName))
	}
	return nil
}

func attrType(defs []types.AttributeDefinition, name string) types.ScalarAttributeType {
	for _, d := range defs {
		if aws.ToString(d.AttributeName) == name {
			return d.AttributeType
		}
	}
	return ""
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
