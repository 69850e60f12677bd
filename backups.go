package dynamo

import (
	"context"
	"iter"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// backupAPI is the part of *dynamodb.Client that on-demand backups and
// point-in-time recovery use; a FromClient stub need not implement it.
type backupAPI interface {
	CreateBackup(ctx context.Context, in *dynamodb.CreateBackupInput, optFns ...func(*dynamodb.Options)) (*dynamodb.CreateBackupOutput, error)
	DescribeBackup(ctx context.Context, in *dynamodb.DescribeBackupInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeBackupOutput, error)
	ListBackups(ctx context.Context, in *dynamodb.ListBackupsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ListBackupsOutput, error)
	DeleteBackup(ctx context.Context, in *dynamodb.DeleteBackupInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteBackupOutput, error)
	RestoreTableFromBackup(ctx context.Context, in *dynamodb.RestoreTableFromBackupInput, optFns ...func(*dynamodb.Options)) (*dynamodb.RestoreTableFromBackupOutput, error)
	DescribeContinuousBackups(ctx context.Context, in *dynamodb.DescribeContinuousBackupsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DescribeContinuousBackupsOutput, error)
	UpdateContinuousBackups(ctx context.Context, in *dynamodb.UpdateContinuousBackupsInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateContinuousBackupsOutput, error)
	RestoreTableToPointInTime(ctx context.Context, in *dynamodb.RestoreTableToPointInTimeInput, optFns ...func(*dynamodb.Options)) (*dynamodb.RestoreTableToPointInTimeOutput, error)
}

var _ backupAPI = (*dynamodb.Client)(nil)

// backupCall runs one backup action: fn gets the repo's backupAPI, and its
// SDK error is mapped as op on table.
func (r *Repo) backupCall(ctx context.Context, op, table string, fn func(ctx context.Context, api backupAPI) error) error {
	var tables []string
	if table != "" {
		tables = []string{table}
	}
	return r.run(ctx, op, tables, func(ctx context.Context) error {
		api, ok := r.api.(backupAPI)
		if !ok {
			return invalidf(op, "the client given to FromClient does not implement %s", op)
		}
		return mapError(op, table, fn(ctx, api))
	})
}

// CreateBackup takes an on-demand backup of the table, named name, and
// returns its details (BackupArn names it in the other calls). The backup is
// a consistent snapshot; writes go on while it is taken.
func (r *Repo) CreateBackup(ctx context.Context, table, name string) (*types.BackupDetails, error) {
	var d *types.BackupDetails
	err := r.backupCall(ctx, "CreateBackup", table, func(ctx context.Context, api backupAPI) error {
		out, err := api.CreateBackup(ctx, &dynamodb.CreateBackupInput{TableName: aws.String(table), BackupName: aws.String(name)}, r.callOpts...)
		if err == nil {
			d = out.BackupDetails
		}
		return err
	})
	return d, err
}

// DescribeBackup returns the backup's description: its details, and the
// source table's key, indexes and billing at the time it was taken.
func (r *Repo) DescribeBackup(ctx context.Context, arn string) (*types.BackupDescription, error) {
	var d *types.BackupDescription
	err := r.backupCall(ctx, "DescribeBackup", "", func(ctx context.Context, api backupAPI) error {
		out, err := api.DescribeBackup(ctx, &dynamodb.DescribeBackupInput{BackupArn: aws.String(arn)}, r.callOpts...)
		if err == nil {
			d = out.BackupDescription
		}
		return err
	})
	return d, err
}

// DeleteBackup deletes the backup. A backup that is being created or
// restored from is ErrResourceInUse.
func (r *Repo) DeleteBackup(ctx context.Context, arn string) error {
	return r.backupCall(ctx, "DeleteBackup", "", func(ctx context.Context, api backupAPI) error {
		_, err := api.DeleteBackup(ctx, &dynamodb.DeleteBackupInput{BackupArn: aws.String(arn)}, r.callOpts...)
		return err
	})
}

// BackupFilter selects the backups ListBackups yields; its zero value
// selects every user backup of every table.
type BackupFilter struct {
	Table string // only this table's backups
	// Only backups created in [After, Before); zero times leave that side open.
	After, Before time.Time
	Type          types.BackupTypeFilter // default USER
}

// ListBackups yields the summaries of the backups f selects, following
// ListBackups' pagination, and stops at the first error.
func (r *Repo) ListBackups(ctx context.Context, f BackupFilter) iter.Seq2[types.BackupSummary, error] {
	const op = "ListBackups"
	return func(yield func(types.BackupSummary, error) bool) {
		in := &dynamodb.ListBackupsInput{BackupType: f.Type}
		if f.Table != "" {
			in.TableName = aws.String(f.Table)
		}
		if !f.After.IsZero() {
			in.TimeRangeLowerBound = aws.Time(f.After)
		}
		if !f.Before.IsZero() {
			in.TimeRangeUpperBound = aws.Time(f.Before)
		}
		for {
			var out *dynamodb.ListBackupsOutput
			err := r.backupCall(ctx, op, f.Table, func(ctx context.Context, api backupAPI) error {
				var err error
				out, err = api.ListBackups(ctx, in, r.callOpts...)
				return err
			})
			if err != nil {
				yield(types.BackupSummary{}, err)
				return
			}
			for _, s := range out.BackupSummaries {
				if !yield(s, nil) {
					return
				}
			}
			if out.LastEvaluatedBackupArn == nil {
				return
			}
			in.ExclusiveStartBackupArn = out.LastEvaluatedBackupArn
		}
	}
}

// RestoreOption changes the table a restore creates; without options it
// has the source's indexes and billing.
type RestoreOption func(*restoreOverrides)

type restoreOverrides struct {
	billing    types.BillingMode
	throughput *types.ProvisionedThroughput
	gsis       []types.GlobalSecondaryIndex
	lsis       []types.LocalSecondaryIndex
}

// RestoreBilling restores the table with this billing mode; throughput is
// the table's capacity for PROVISIONED (nil for PAY_PER_REQUEST).
func RestoreBilling(mode types.BillingMode, throughput *types.ProvisionedThroughput) RestoreOption {
	return func(o *restoreOverrides) { o.billing, o.throughput = mode, throughput }
}

// RestoreIndexes restores the table with exactly these secondary indexes
// instead of the source's: each must be one of the source's (by name, key
// and projection), and empty slices restore none.
func RestoreIndexes(gsis []types.GlobalSecondaryIndex, lsis []types.LocalSecondaryIndex) RestoreOption {
	return func(o *restoreOverrides) {
		o.gsis = append([]types.GlobalSecondaryIndex{}, gsis...)
		o.lsis = append([]types.LocalSecondaryIndex{}, lsis...)
	}
}

func restoreOptions(opts []RestoreOption) restoreOverrides {
	var o restoreOverrides
	for _, f := range opts {
		f(&o)
	}
	return o
}

// RestoreTableFromBackup creates the table target from the backup and
// returns its description; the table may still be CREATING (see
// WaitForTable).
func (r *Repo) RestoreTableFromBackup(ctx context.Context, arn, target string, opts ...RestoreOption) (*types.TableDescription, error) {
	o := restoreOptions(opts)
	in := &dynamodb.RestoreTableFromBackupInput{
		BackupArn: aws.String(arn), TargetTableName: aws.String(target),
		BillingModeOverride: o.billing, ProvisionedThroughputOverride: o.throughput,
		GlobalSecondaryIndexOverride: o.gsis, LocalSecondaryIndexOverride: o.lsis,
	}
	var d *types.TableDescription
	err := r.backupCall(ctx, "RestoreTableFromBackup", target, func(ctx context.Context, api backupAPI) error {
		out, err := api.RestoreTableFromBackup(ctx, in, r.callOpts...)
		if err == nil {
			d = out.TableDescription
		}
		return err
	})
	return d, err
}

// DescribeContinuousBackups returns the table's continuous-backup and
// point-in-time recovery status, with the restorable time range when
// recovery is enabled.
func (r *Repo) DescribeContinuousBackups(ctx context.Context, table string) (*types.ContinuousBackupsDescription, error) {
	var d *types.ContinuousBackupsDescription
	err := r.backupCall(ctx, "DescribeContinuousBackups", table, func(ctx context.Context, api backupAPI) error {
		out, err := api.DescribeContinuousBackups(ctx, &dynamodb.DescribeContinuousBackupsInput{TableName: aws.String(table)}, r.callOpts...)
		if err == nil {
			d = out.ContinuousBackupsDescription
		}
		return err
	})
	return d, err
}

// SetPointInTimeRecovery enables or disables point-in-time recovery of the
// table and returns the new status. Disabling it discards the history:
// enabling it again starts a new window.
func (r *Repo) SetPointInTimeRecovery(ctx context.Context, table string, enabled bool) (*types.ContinuousBackupsDescription, error) {
	var d *types.ContinuousBackupsDescription
	err := r.backupCall(ctx, "UpdateContinuousBackups", table, func(ctx context.Context, api backupAPI) error {
		out, err := api.UpdateContinuousBackups(ctx, &dynamodb.UpdateContinuousBackupsInput{
			TableName: aws.String(table),
			PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{
				PointInTimeRecoveryEnabled: aws.Bool(enabled),
			},
		}, r.callOpts...)
		if err == nil {
			d = out.ContinuousBackupsDescription
		}
		return err
	})
	return d, err
}

// RestoreTableToPointInTime creates the table target with the items source
// had at the instant at (to the second; the zero time is the latest
// restorable time) and returns its description; the table may still be
// CREATING (see WaitForTable). The source must have point-in-time recovery
// enabled, and at must lie in its restorable range.
func (r *Repo) RestoreTableToPointInTime(ctx context.Context, source, target string, at time.Time, opts ...RestoreOption) (*types.TableDescription, error) {
	o := restoreOptions(opts)
	in := &dynamodb.RestoreTableToPointInTimeInput{
		SourceTableName: aws.String(source), TargetTableName: aws.String(target),
		BillingModeOverride: o.billing, ProvisionedThroughputOverride: o.throughput,
		GlobalSecondaryIndexOverride: o.gsis, LocalSecondaryIndexOverride: o.lsis,
	}
	if at.IsZero() {
		in.UseLatestRestorableTime = aws.Bool(true)
	} else {
		in.RestoreDateTime = aws.Time(at)
	}
	var d *types.TableDescription
	err := r.backupCall(ctx, "RestoreTableToPointInTime", target, func(ctx context.Context, api backupAPI) error {
		out, err := api.RestoreTableToPointInTime(ctx, in, r.callOpts...)
		if err == nil {
			d = out.TableDescription
		}
		return err
	})
	return d, err
}
