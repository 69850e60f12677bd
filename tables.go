package dynamo

import (
	"context"
	"errors"
	"iter"
	"maps"
	"slices"
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
		if err := r.createTable(ctx, in, nil); err != nil {
			return err
		}
	}
	return nil
}

// TableChange is one thing SyncTables did to a table, or found and left
// alone. Action is one of:
//
//	"create table"
//	"create index", "keep index"  Index names it ("keep": an index no schema declares; SyncTables never drops one)
//	"enable stream"               Detail is the view type
//	"enable ttl"                  Detail is the TTL attribute
//	"set tag"                     Detail is the tag key
//	"enable deletion protection"
//	"set table class"             Detail is the class
type TableChange struct {
	Table, Index, Action string
	Detail               string
}

// String renders the change as "table: action [index] [detail]".
func (c TableChange) String() string {
	s := c.Table + ": " + c.Action
	for _, x := range []string{c.Index, c.Detail} {
		if x != "" {
			s += " " + x
		}
	}
	return s
}

// SyncTables brings the tables in line with the schemas (merged per table
// as CreateTables merges them) and waits until each is ACTIVE: it creates a
// missing table, and adds each missing GSI with UpdateTable, one at a time
// as DynamoDB requires, waiting for it to become ACTIVE. It then turns on
// what the schemas declare and the table lacks: the stream (schema.Stream),
// Time to Live (schema.TTL), tags (schema.Tag), deletion protection and the
// table class. It returns what it did, nothing when everything was in
// place, so a program may call it on every start.
//
// It never drops or turns off anything: not a table, an index, a stream,
// TTL, a tag or deletion protection that no schema declares (use
// UpdateTable, UpdateTTL and UntagTable for that), and it never changes a
// key. A table or index whose key differs from its schema's, a missing LSI
// or vector index (which UpdateTable cannot add), a stream of another view
// type or TTL on another attribute (which would have to be turned off
// first) is a validation error naming the table and what differs.
func (r *Repo) SyncTables(ctx context.Context, schemas ...schema.Described) ([]TableChange, error) {
	return r.SyncTablesWith(ctx, schemas)
}

// SyncTablesWith is SyncTables with options for its waits (OnProgress).
func (r *Repo) SyncTablesWith(ctx context.Context, schemas []schema.Described, opts ...WaitOption) ([]TableChange, error) {
	const op = "SyncTables"
	ins, err := tableInputs(schemas)
	if err != nil {
		return nil, err
	}
	var changes []TableChange
	for _, in := range ins {
		name := aws.ToString(in.TableName)
		ttl := ""
		for _, s := range schemas {
			if d := s.Describe(); d.Table == name && d.TTL != "" {
				ttl = d.TTL
			}
		}
		d, err := r.DescribeTable(ctx, name)
		if errors.Is(err, ErrResourceNotFound) {
			if err := r.createTable(ctx, in, opts); err != nil {
				return changes, err
			}
			changes = append(changes, TableChange{Table: name, Action: "create table"})
			if ttl != "" {
				if err := r.UpdateTTL(ctx, name, ttl, true); err != nil {
					return changes, err
				}
				changes = append(changes, TableChange{Table: name, Action: "enable ttl", Detail: ttl})
			}
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
			if err := r.createIndex(ctx, in, g, opts); err != nil {
				return changes, err
			}
			changes = append(changes, TableChange{Table: name, Index: idx, Action: "create index"})
		}
		for _, g := range d.GlobalSecondaryIndexes {
			if idx := aws.ToString(g.IndexName); !wanted[idx] {
				changes = append(changes, TableChange{Table: name, Index: idx, Action: "keep index"})
			}
		}
		settings, err := r.syncSettings(ctx, in, d, ttl, opts)
		changes = append(changes, settings...)
		if err != nil {
			return changes, err
		}
	}
	return changes, nil
}

// syncSettings turns on the stream, deletion protection, table class, TTL
// and tags that in (and the TTL attribute ttl) declare and the table d
// lacks, one UpdateTable at a time, waiting for the table to be ACTIVE
// after each.
func (r *Repo) syncSettings(ctx context.Context, in *dynamodb.CreateTableInput, d *types.TableDescription, ttl string, opts []WaitOption) ([]TableChange, error) {
	const op = "SyncTables"
	name := aws.ToString(in.TableName)
	var changes []TableChange
	var updates []*dynamodb.UpdateTableInput
	if want := in.StreamSpecification; want != nil {
		have := d.StreamSpecification
		switch {
		case have == nil || !aws.ToBool(have.StreamEnabled):
			updates = append(updates, &dynamodb.UpdateTableInput{TableName: in.TableName, StreamSpecification: want})
			changes = append(changes, TableChange{Table: name, Action: "enable stream", Detail: string(want.StreamViewType)})
		case have.StreamViewType != want.StreamViewType:
			return nil, invalidf(op, "table %s has a %s stream, the schema declares %s; SyncTables never replaces a stream (turn it off with UpdateTable first)", name, have.StreamViewType, want.StreamViewType)
		}
	}
	if aws.ToBool(in.DeletionProtectionEnabled) && !aws.ToBool(d.DeletionProtectionEnabled) {
		updates = append(updates, &dynamodb.UpdateTableInput{TableName: in.TableName, DeletionProtectionEnabled: aws.Bool(true)})
		changes = append(changes, TableChange{Table: name, Action: "enable deletion protection"})
	}
	if in.TableClass != "" {
		have := types.TableClassStandard
		if d.TableClassSummary != nil && d.TableClassSummary.TableClass != "" {
			have = d.TableClassSummary.TableClass
		}
		if have != in.TableClass {
			updates = append(updates, &dynamodb.UpdateTableInput{TableName: in.TableName, TableClass: in.TableClass})
			changes = append(changes, TableChange{Table: name, Action: "set table class", Detail: string(in.TableClass)})
		}
	}
	for i, up := range updates {
		if _, err := r.UpdateTable(ctx, up); err != nil {
			return changes[:i], err
		}
		if _, err := r.WaitForTable(ctx, name, opts...); err != nil {
			return changes[:i+1], err
		}
	}
	if ttl != "" {
		t, err := r.DescribeTTL(ctx, name)
		if err != nil {
			return changes, err
		}
		switch have := aws.ToString(t.AttributeName); {
		case t.TimeToLiveStatus == types.TimeToLiveStatusDisabled || have == "":
			if err := r.UpdateTTL(ctx, name, ttl, true); err != nil {
				return changes, err
			}
			changes = append(changes, TableChange{Table: name, Action: "enable ttl", Detail: ttl})
		case have != ttl:
			return changes, invalidf(op, "table %s has TTL on attribute %s, the schema declares %s; SyncTables never turns TTL off (use UpdateTTL)", name, have, ttl)
		}
	}
	if len(in.Tags) > 0 {
		have, err := r.TableTags(ctx, name)
		if err != nil {
			return changes, err
		}
		set := map[string]string{}
		for _, t := range in.Tags {
			k, v := aws.ToString(t.Key), aws.ToString(t.Value)
			if hv, ok := have[k]; !ok || hv != v {
				set[k] = v
			}
		}
		if len(set) > 0 {
			if err := r.TagTable(ctx, name, set); err != nil {
				return changes, err
			}
			for _, k := range slices.Sorted(maps.Keys(set)) {
				changes = append(changes, TableChange{Table: name, Action: "set tag", Detail: k})
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
func (r *Repo) createTable(ctx context.Context, in *dynamodb.CreateTableInput, opts []WaitOption) error {
	if _, err := r.CreateTable(ctx, in); err != nil {
		return err
	}
	_, err := r.WaitForTable(ctx, aws.ToString(in.TableName), opts...)
	return err
}

// createIndex adds the GSI g of the table in to the existing table and
// waits until it is ACTIVE (DynamoDB creates one GSI per UpdateTable).
func (r *Repo) createIndex(ctx context.Context, in *dynamodb.CreateTableInput, g types.GlobalSecondaryIndex, opts []WaitOption) error {
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
	_, err = r.WaitForTable(ctx, name, opts...)
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

// WaitOption configures the waits of WaitForTable and SyncTablesWith.
type WaitOption func(*waitConfig)

type waitConfig struct {
	progress func(*types.TableDescription)
}

// OnProgress calls fn with each description a wait reads, the last one
// ACTIVE: a tool can show the table's and its indexes' status (and an
// index's backfill) while it waits. fn runs on the waiting goroutine.
func OnProgress(fn func(*types.TableDescription)) WaitOption {
	return func(c *waitConfig) { c.progress = fn }
}

// WaitForTable polls until the table and all its indexes are ACTIVE, or ctx
// ends, and returns the last description.
func (r *Repo) WaitForTable(ctx context.Context, name string, opts ...WaitOption) (*types.TableDescription, error) {
	var c waitConfig
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	for {
		d, err := r.DescribeTable(ctx, name)
		if err != nil && !errors.Is(err, ErrResourceNotFound) {
			return nil, err
		}
		if err == nil && c.progress != nil {
			c.progress(d)
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
		return callerDone(ctx, ctx.Err())
	case <-t.C:
		return nil
	}
}

// UpdateTable changes a table (UpdateTableInput: billing mode and
// throughput, GSIs to create, update or delete, the stream, deletion
// protection, table class) and returns its description as DynamoDB
// answered it, usually UPDATING: see WaitForTable. DynamoDB takes one GSI
// change per call.
func (r *Repo) UpdateTable(ctx context.Context, in *dynamodb.UpdateTableInput) (*types.TableDescription, error) {
	var d *types.TableDescription
	err := tableCall(r, ctx, "UpdateTable", aws.ToString(in.TableName), func(ctx context.Context, api TableAPI) error {
		out, err := api.UpdateTable(ctx, in, r.callOpts...)
		if err == nil {
			d = out.TableDescription
		}
		return err
	})
	return d, err
}

type ttlAPI interface {
	UpdateTimeToLive(ctx context.Context, in *dynamodb.UpdateTimeToLiveInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateTimeToLiveOutput, error)
	DescribeTimeToLive(ctx context.Context, in *dynamodb.DescribeTimeToLiveInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error)
}

type tagAPI interface {
	TagResource(ctx context.Context, in *dynamodb.TagResourceInput, optFns ...func(*dynamodb.Options)) (*dynamodb.TagResourceOutput, error)
	UntagResource(ctx context.Context, in *dynamodb.UntagResourceInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UntagResourceOutput, error)
	ListTagsOfResource(ctx context.Context, in *dynamodb.ListTagsOfResourceInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ListTagsOfResourceOutput, error)
}

// UpdateTTL turns the table's Time to Live on (enabled, on attribute) or
// off. DynamoDB refuses a change of attribute while TTL is on, and a second
// change within an hour of the last.
func (r *Repo) UpdateTTL(ctx context.Context, table, attribute string, enabled bool) error {
	in := &dynamodb.UpdateTimeToLiveInput{
		TableName:               aws.String(table),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String(attribute), Enabled: aws.Bool(enabled)},
	}
	return tableCall(r, ctx, "UpdateTimeToLive", table, func(ctx context.Context, api ttlAPI) error {
		_, err := api.UpdateTimeToLive(ctx, in, r.callOpts...)
		return err
	})
}

// DescribeTTL returns the table's Time to Live status and attribute.
func (r *Repo) DescribeTTL(ctx context.Context, table string) (*types.TimeToLiveDescription, error) {
	var d *types.TimeToLiveDescription
	err := tableCall(r, ctx, "DescribeTimeToLive", table, func(ctx context.Context, api ttlAPI) error {
		out, err := api.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(table)}, r.callOpts...)
		if err == nil {
			d = out.TimeToLiveDescription
		}
		return err
	})
	return d, err
}

// TagTable sets tags on the table (adding keys, replacing the values of
// keys it has).
func (r *Repo) TagTable(ctx context.Context, table string, tags map[string]string) error {
	arn, err := r.tableARN(ctx, table)
	if err != nil {
		return err
	}
	in := &dynamodb.TagResourceInput{ResourceArn: aws.String(arn)}
	for _, k := range slices.Sorted(maps.Keys(tags)) {
		in.Tags = append(in.Tags, types.Tag{Key: aws.String(k), Value: aws.String(tags[k])})
	}
	return tableCall(r, ctx, "TagResource", table, func(ctx context.Context, api tagAPI) error {
		_, err := api.TagResource(ctx, in, r.callOpts...)
		return err
	})
}

// UntagTable removes the tags with the given keys from the table.
func (r *Repo) UntagTable(ctx context.Context, table string, keys ...string) error {
	arn, err := r.tableARN(ctx, table)
	if err != nil {
		return err
	}
	in := &dynamodb.UntagResourceInput{ResourceArn: aws.String(arn), TagKeys: keys}
	return tableCall(r, ctx, "UntagResource", table, func(ctx context.Context, api tagAPI) error {
		_, err := api.UntagResource(ctx, in, r.callOpts...)
		return err
	})
}

// TableTags returns the table's tags, following ListTagsOfResource's
// pagination.
func (r *Repo) TableTags(ctx context.Context, table string) (map[string]string, error) {
	arn, err := r.tableARN(ctx, table)
	if err != nil {
		return nil, err
	}
	tags := map[string]string{}
	in := &dynamodb.ListTagsOfResourceInput{ResourceArn: aws.String(arn)}
	err = tableCall(r, ctx, "ListTagsOfResource", table, func(ctx context.Context, api tagAPI) error {
		for {
			out, err := api.ListTagsOfResource(ctx, in, r.callOpts...)
			if err != nil {
				return err
			}
			for _, t := range out.Tags {
				tags[aws.ToString(t.Key)] = aws.ToString(t.Value)
			}
			if out.NextToken == nil {
				return nil
			}
			in.NextToken = out.NextToken
		}
	})
	return tags, err
}

// tableARN is the table's ARN, which the tag actions take.
func (r *Repo) tableARN(ctx context.Context, table string) (string, error) {
	d, err := r.DescribeTable(ctx, table)
	if err != nil {
		return "", err
	}
	return aws.ToString(d.TableArn), nil
}

// tableCall runs one control-plane action through the part I of the
// repo's client that has it (a FromClient stub may lack it: a validation
// error), mapping its error.
func tableCall[I any](r *Repo, ctx context.Context, op, table string, fn func(context.Context, I) error) error {
	return r.run(ctx, op, []string{table}, func(ctx context.Context) error {
		api, ok := r.api.(I)
		if !ok {
			return invalidf(op, "the client given to FromClient does not implement %s", op)
		}
		return mapError(op, table, fn(ctx, api))
	})
}
