package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo"
)

func init() {
	Register(&Command{
		Name:    "backup create",
		Summary: "take an on-demand backup of a table",
		Usage:   "TABLE [--name NAME] [--output text|json] [flags]",
		Help: `Takes an on-demand backup of TABLE, named NAME (default TABLE-<UTC time>,
e.g. app-20261202T031500Z), and prints its ARN, which the other backup
commands take.`,
		Example:  "dynamo backup create orders --name before-migration",
		TableArg: true,
		Flags:    func() *flag.FlagSet { fs, _ := backupCreateFlags(); return fs },
		Run:      runBackupCreate,
	})
	Register(&Command{
		Name:    "backup list",
		Summary: "list the backups of a table, or of every table",
		Usage:   "[TABLE] [--after TIME] [--before TIME] [--output text|json] [flags]",
		Help: `Lists the user backups of TABLE (every table's without it), following
ListBackups pagination. TIME is RFC 3339 (2026-12-02T03:15:00Z): --after keeps
backups created at or after it, --before those created before it. Text output
is one backup per line: table, name, creation time, status, size in bytes and
ARN ("no backups" goes to stderr when there are none); json output is an
array of DynamoDB's backup summaries.`,
		Example:  "dynamo backup list orders --after 2026-12-01T00:00:00Z --output json",
		TableArg: true,
		Flags:    func() *flag.FlagSet { fs, _ := backupListFlags(); return fs },
		Run:      runBackupList,
	})
	Register(&Command{
		Name:    "backup restore",
		Summary: "restore a backup, or a table at a point in time, into a new table",
		Usage: "BACKUP_ARN TARGET [--no-indexes] [--billing-mode MODE] [--no-wait] [flags]\n" +
			"       dynamo backup restore --time TIME|latest SOURCE_TABLE TARGET [flags]",
		Help: `Creates the table TARGET from a backup, or with --time from SOURCE_TABLE as
it was at TIME (RFC 3339, to the second; "latest" is the latest restorable
time), which needs point-in-time recovery enabled on the source. TARGET has
the source's indexes and billing unless --no-indexes or --billing-mode say
otherwise. The command waits until TARGET is ACTIVE (progress on a terminal)
unless --no-wait, and prints "restored table TARGET (STATUS)".`,
		Example: "dynamo backup restore \"$arn\" orders-restored\n" +
			"dynamo backup restore --time latest orders orders-now",
		Flags: func() *flag.FlagSet { fs, _ := backupRestoreFlags(); return fs },
		Run:   runBackupRestore,
	})
	Register(&Command{
		Name:    "backup delete",
		Summary: "delete a backup, after confirmation",
		Usage:   "BACKUP_ARN [--force] [--output text|json] [flags]",
		Help: `Shows the backup's table, name and creation time and, on a terminal, asks
you to type the backup's name to confirm. Without a terminal it refuses
unless --force is given. Prints "deleted backup NAME".`,
		Example: "dynamo backup delete \"$arn\" --force",
		Flags:   func() *flag.FlagSet { fs, _ := backupDeleteFlags(); return fs },
		Run:     runBackupDelete,
	})
}

// backupJSON is the --output json view of one backup.
type backupJSON struct {
	BackupArn, BackupName, BackupStatus string
	TableName                           string    `json:",omitempty"`
	BackupCreationDateTime              time.Time `json:",omitzero"`
	BackupSizeBytes                     *int64    `json:",omitempty"`
}

// --- create ---

type backupCreateOpts struct {
	aws    awsFlags
	output outputFlag
	name   string
}

func backupCreateFlags() (*flag.FlagSet, *backupCreateOpts) {
	o := &backupCreateOpts{}
	fs := newFlagSet("backup create")
	o.aws.register(fs)
	o.output.register(fs)
	fs.StringVar(&o.name, "name", "", "backup name: 3-255 of a-z A-Z 0-9 _ - . (default TABLE-<UTC time>)")
	return fs, o
}

func runBackupCreate(ctx context.Context, env *Env, args []string) error {
	fs, o := backupCreateFlags()
	table, err := parseTableArg(fs, args)
	if err != nil {
		return err
	}
	name := o.name
	if name == "" {
		name = table + "-" + time.Now().UTC().Format("20060102T150405Z")
	}
	repo, err := o.aws.open(ctx)
	if err != nil {
		return err
	}
	b, err := repo.CreateBackup(ctx, table, name)
	if err != nil {
		return err
	}
	if o.output == "json" {
		return writeJSON(env.Stdout, backupJSON{
			BackupArn: aws.ToString(b.BackupArn), BackupName: aws.ToString(b.BackupName), BackupStatus: string(b.BackupStatus),
			TableName: table, BackupCreationDateTime: aws.ToTime(b.BackupCreationDateTime), BackupSizeBytes: b.BackupSizeBytes,
		})
	}
	fmt.Fprintln(env.Stdout, aws.ToString(b.BackupArn))
	return nil
}

// --- list ---

type backupListOpts struct {
	aws           awsFlags
	output        outputFlag
	after, before timeFlag
}

// timeFlag is an RFC 3339 time; "latest" is allowed where latest is set.
type timeFlag struct {
	t      time.Time
	latest bool // "latest" was given
	allow  bool // "latest" is a valid value
}

func (f *timeFlag) String() string {
	if f.latest {
		return "latest"
	}
	if f.t.IsZero() {
		return ""
	}
	return f.t.Format(time.RFC3339)
}

func (f *timeFlag) Set(s string) error {
	if f.allow && s == "latest" {
		f.latest = true
		return nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return fmt.Errorf("not an RFC 3339 time such as 2026-12-02T03:15:00Z")
	}
	f.t = t
	return nil
}

func backupListFlags() (*flag.FlagSet, *backupListOpts) {
	o := &backupListOpts{}
	fs := newFlagSet("backup list")
	o.aws.register(fs)
	o.output.register(fs)
	fs.Var(&o.after, "after", "only backups created at or after this RFC 3339 time")
	fs.Var(&o.before, "before", "only backups created before this RFC 3339 time")
	return fs, o
}

func runBackupList(ctx context.Context, env *Env, args []string) error {
	fs, o := backupListFlags()
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	f := dynamo.BackupFilter{After: o.after.t, Before: o.before.t}
	switch len(pos) {
	case 0:
	case 1:
		f.Table = pos[0]
	default:
		return usagef("unexpected argument %q", pos[1])
	}
	if !f.After.IsZero() && !f.Before.IsZero() && !f.After.Before(f.Before) {
		return usagef("--after must be before --before")
	}
	repo, err := o.aws.open(ctx)
	if err != nil {
		return err
	}
	backups := []backupJSON{}
	for s, err := range repo.ListBackups(ctx, f) {
		if err != nil {
			return err
		}
		backups = append(backups, backupJSON{
			BackupArn: aws.ToString(s.BackupArn), BackupName: aws.ToString(s.BackupName), BackupStatus: string(s.BackupStatus),
			TableName: aws.ToString(s.TableName), BackupCreationDateTime: aws.ToTime(s.BackupCreationDateTime), BackupSizeBytes: s.BackupSizeBytes,
		})
	}
	if o.output == "json" {
		return writeJSON(env.Stdout, backups)
	}
	if len(backups) == 0 {
		fmt.Fprintln(env.Stderr, "no backups")
		return nil
	}
	w := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	for _, b := range backups {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d\t%s\n", b.TableName, b.BackupName,
			b.BackupCreationDateTime.UTC().Format(time.RFC3339), b.BackupStatus, aws.ToInt64(b.BackupSizeBytes), b.BackupArn)
	}
	return w.Flush()
}

// --- restore ---

type backupRestoreOpts struct {
	aws         awsFlags
	output      outputFlag
	at          timeFlag
	noIndexes   bool
	billing     string
	read, write int64
	noWait      bool
	timeout     time.Duration
	fs          *flag.FlagSet
}

func backupRestoreFlags() (*flag.FlagSet, *backupRestoreOpts) {
	o := &backupRestoreOpts{at: timeFlag{allow: true}}
	fs := newFlagSet("backup restore")
	o.fs = fs
	o.aws.register(fs)
	o.output.register(fs)
	fs.Var(&o.at, "time", `restore SOURCE_TABLE as it was at this RFC 3339 time, or "latest"`)
	fs.BoolVar(&o.noIndexes, "no-indexes", false, "restore without the source's secondary indexes")
	fs.StringVar(&o.billing, "billing-mode", "", "PAY_PER_REQUEST or PROVISIONED (default: the source's)")
	fs.Int64Var(&o.read, "read-capacity", 5, "read capacity units with --billing-mode PROVISIONED")
	fs.Int64Var(&o.write, "write-capacity", 5, "write capacity units with --billing-mode PROVISIONED")
	fs.BoolVar(&o.noWait, "no-wait", false, "return once the restore is accepted, without waiting for ACTIVE")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Minute, "how long to wait for ACTIVE")
	return fs, o
}

// restoreOptions turns the override flags into the library's options.
func (o *backupRestoreOpts) restoreOptions() ([]dynamo.RestoreOption, error) {
	var opts []dynamo.RestoreOption
	if o.noIndexes {
		opts = append(opts, dynamo.RestoreIndexes(nil, nil))
	}
	capacity := isSet(o.fs, "read-capacity") || isSet(o.fs, "write-capacity")
	switch mode := types.BillingMode(o.billing); mode {
	case "":
		if capacity {
			return nil, usagef("--read-capacity and --write-capacity need --billing-mode PROVISIONED")
		}
	case types.BillingModePayPerRequest:
		if capacity {
			return nil, usagef("--read-capacity and --write-capacity need --billing-mode PROVISIONED")
		}
		opts = append(opts, dynamo.RestoreBilling(mode, nil))
	case types.BillingModeProvisioned:
		if o.read < 1 || o.write < 1 {
			return nil, usagef("--read-capacity and --write-capacity must be at least 1")
		}
		opts = append(opts, dynamo.RestoreBilling(mode, &types.ProvisionedThroughput{
			ReadCapacityUnits: aws.Int64(o.read), WriteCapacityUnits: aws.Int64(o.write)}))
	default:
		return nil, usagef("--billing-mode must be PAY_PER_REQUEST or PROVISIONED, not %q", o.billing)
	}
	return opts, nil
}

func runBackupRestore(ctx context.Context, env *Env, args []string) error {
	fs, o := backupRestoreFlags()
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	pitr := isSet(fs, "time")
	source := "BACKUP_ARN"
	if pitr {
		source = "SOURCE_TABLE"
	}
	switch {
	case len(pos) == 0:
		return usagef("missing %s and TARGET", source)
	case len(pos) == 1:
		return usagef("missing TARGET table name")
	case len(pos) > 2:
		return usagef("unexpected argument %q", pos[2])
	}
	if !pitr && !strings.HasPrefix(pos[0], "arn:") {
		return usagef("%q is not a backup ARN (to restore a table at a point in time, pass --time)", pos[0])
	}
	if o.timeout <= 0 {
		return usagef("--timeout must be positive")
	}
	opts, err := o.restoreOptions()
	if err != nil {
		return err
	}
	repo, err := o.aws.open(ctx)
	if err != nil {
		return err
	}
	target := pos[1]
	var desc *types.TableDescription
	if pitr {
		desc, err = repo.RestoreTableToPointInTime(ctx, pos[0], target, o.at.t, opts...)
	} else {
		desc, err = repo.RestoreTableFromBackup(ctx, pos[0], target, opts...)
	}
	if err != nil {
		return err
	}
	if !o.noWait {
		p := &progress{w: env.Stderr, on: env.terminal()}
		desc, err = waitActive(ctx, repo, target, o.timeout, p)
		p.done()
		if err != nil {
			return err
		}
	}
	if o.output == "json" {
		return writeJSON(env.Stdout, tableSummary(desc))
	}
	fmt.Fprintf(env.Stdout, "restored table %s (%s)\n", target, desc.TableStatus)
	return nil
}

// --- delete ---

type backupDeleteOpts struct {
	aws    awsFlags
	output outputFlag
	force  bool
}

func backupDeleteFlags() (*flag.FlagSet, *backupDeleteOpts) {
	o := &backupDeleteOpts{}
	fs := newFlagSet("backup delete")
	o.aws.register(fs)
	o.output.register(fs)
	fs.BoolVar(&o.force, "force", false, "delete without asking for confirmation")
	return fs, o
}

func runBackupDelete(ctx context.Context, env *Env, args []string) error {
	fs, o := backupDeleteFlags()
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) == 0:
		return usagef("missing BACKUP_ARN")
	case len(pos) > 1:
		return usagef("unexpected argument %q", pos[1])
	}
	arn := pos[0]
	terminal := env.terminal()
	if !o.force && !terminal {
		return fmt.Errorf("refusing to delete backup %s without confirmation: not a terminal (pass --force)", arn)
	}
	repo, err := o.aws.open(ctx)
	if err != nil {
		return err
	}
	d, err := repo.DescribeBackup(ctx, arn)
	if err != nil {
		return err
	}
	b := d.BackupDetails
	name := aws.ToString(b.BackupName)
	if o.output == "text" || !o.force {
		fmt.Fprintf(env.Stderr, "backup %s of table %s, created %s (%s)\n", name,
			aws.ToString(d.SourceTableDetails.TableName), aws.ToTime(b.BackupCreationDateTime).UTC().Format(time.RFC3339), b.BackupStatus)
	}
	if !o.force {
		if err := confirm(ctx, env, "backup", name); err != nil {
			return err
		}
	}
	if err := repo.DeleteBackup(ctx, arn); err != nil {
		return err
	}
	if o.output == "json" {
		return writeJSON(env.Stdout, backupJSON{BackupArn: arn, BackupName: name, BackupStatus: "DELETED",
			TableName: aws.ToString(d.SourceTableDetails.TableName)})
	}
	fmt.Fprintf(env.Stdout, "deleted backup %s\n", name)
	return nil
}
