// Package local is a DynamoDB-compatible server: an http.Handler that speaks
// DynamoDB's awsJson1.0 protocol (POST /, X-Amz-Target:
// DynamoDB_20120810.<Action>) closely enough that the AWS SDKs, the AWS CLI
// and this module's library cannot tell it from the service for the actions
// it implements. It is the embedded default of the project: tests, the demo
// and `dynamo local` run against it.
//
//	srv, _ := local.New()
//	defer srv.Close()
//	http.ListenAndServe("127.0.0.1:8000", srv)
//
// Package dynamotest wraps it for tests.
//
// # Behaviour
//
// Requests are validated as DynamoDB validates them, in the same order, with
// the same error types and messages (ValidationException texts are
// DynamoDB's; the rule's source page in the AWS API reference or developer
// guide is cited where it is subtle). Every response carries
// x-amzn-RequestId and X-Amz-Crc32.
//
// Credentials are not checked unless WithAccessKeys is given: then every
// request must carry a valid AWS Signature Version 4 by one of the keys,
// within 15 minutes of the server's clock, or it is answered DynamoDB's
// authentication errors (auth.go). Tables are shared by every client unless
// WithTenancy separates them by access key id and region, as DynamoDB Local
// does without -sharedDb (tenant.go).
//
// Tables and indexes are ACTIVE as soon as CreateTable or UpdateTable
// returns: nothing is provisioned, and a new GSI is backfilled inside the
// call. ItemCount and sizes are exact and current (DynamoDB refreshes them
// about every six hours). Single-item writes are atomic and conditional
// writes linearizable: each table has one lock, held while a write reads the
// old item, checks its condition and updates the item and every index entry.
//
// # Layout, and where new actions go
//
// One file per action family: table.go (control plane), item.go (single
// items), query.go (Query, Scan), batch.go (batches), transact.go
// (TransactWriteItems, TransactGetItems), ttl.go (time to live and its
// sweeper), tags.go (tagging), search.go (vector indexes and
// SearchVectors, over package local/vector), stream.go (DynamoDB Streams,
// over package local/streams: the DynamoDBStreams_20120810 actions, with
// their own actions table), backup.go and backup_pitr.go (on-demand backups,
// point-in-time recovery and the restores of both), legacy.go (the pre-expression parameters,
// translated into expressions) and partiql.go (ExecuteStatement,
// BatchExecuteStatement, ExecuteTransaction, over the parser of package
// local/partiql, run through the JSON operations' code) and console.go (the
// hooks of the web console of package local/console: WithConsole, Invoke,
// which runs an action in-process through its handler, and RecentCalls).
// Each action is one
// line in the actions table of server.go and one handler method; handlers decode
// with call.decode (or a hand-written decoder on hot paths, decode.go),
// return a value for encoding/json or a rawJSON, or an *Error.
//
// All writes to a table go through (*table).apply in write.go with the table
// locked (writeTable, or writeTables for several tables in name order — what
// TransactWriteItems needs to be atomic across tables). An item's write with
// its index entries, stream record and point-in-time history entry, and a
// whole transaction, reach the engine as one
// storage.Engine.Apply batch, all or nothing even across a crash of a
// durable engine. On a durable engine that implements storage.Deferred the
// batch is applied without waiting for its fsync, so the table's lock is
// released first and concurrent writers share fsyncs; the table and the
// call note the write's ticket, every call that locks a table notes the
// table's, and Server.run answers only once the greatest ticket a call
// noted is durable: no answer shows a write a crash could lose. A TTL
// sweep and a table's stream and history maintenance go the same way:
// their fsyncs are never waited for under the table's lock.
// Table definitions are
// tableMeta (meta.go), persisted in the engine's catalog; it has room for
// tags, the TTL specification and other extensions (Ext). Storage is behind
// storage.Engine (package storage); every engine passes storagetest.
package local
