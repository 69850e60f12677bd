// Package dynamo is a DynamoDB library for Go built for single-table design:
// typed schemas with generated composite keys, pure request builders, and a
// [Repo] over aws-sdk-go-v2 with one error type.
//
// A program uses four packages, each for one kind of name:
//
//   - schema declares items: schema.Must[Order]("app", schema.GSI(…)).
//   - codec holds the field types: codec.Set, codec.Number, codec.Date, ….
//   - expr builds conditions and update changes: expr.Eq, expr.Set, ….
//   - dynamo (this package) runs operations: the repo, the typed table, the
//     operation options, the results and the errors.
//
// # Opening a repo
//
// [Open] loads the standard AWS configuration, [New] takes an aws.Config,
// [FromClient] takes any [API] (a *dynamodb.Client or a stub). The SDK does
// the work it is good at — SigV4, credential caching, endpoint rules
// (including routing SearchVectors to the search host), retries with
// backoff — configured by the With… options, not rewritten:
//
//   - Retries: throttling, 5xx and transport failures (timeouts included),
//     up to [WithMaxRetries] (3) with full-jitter exponential backoff
//     ([WithBackoff], 50 ms base, 5 s cap). Nothing else is retried. A
//     write that may already have been applied (its answer was lost, it
//     timed out, DynamoDB answered 5xx) is retried only when repeating it is
//     harmless; otherwise it fails with [ErrOutcomeUnknown] and is never
//     applied twice (docs/data-modelling.md says how to recover).
//   - Timeouts: [WithTimeouts] (connect 5 s, receive 30 s).
//   - Telemetry: a [Tracer] sees every HTTP attempt; one that is also an
//     [OperationTracer] sees the operations around them (the dynamootel
//     module does both for OpenTelemetry, package dynamoslog for log/slog).
//     Item contents never reach it.
//
// # Operations
//
// [Bind] ties a schema to a repo; the [Table] it returns runs the typed
// operations. Each returns what its name says: Put and Delete an error,
// PutReturningOld and DeleteReturningOld the item that was there, Update the
// item after the update, Get the item or [ErrNotFound]:
//
//	orders := dynamo.Bind(repo, Orders)
//	err := orders.Put(ctx, o, dynamo.If(expr.NotExists("pk")))
//	o, err := orders.Get(ctx, key, dynamo.Consistent())
//	o, err = orders.Update(ctx, key, expr.Set("status", "paid"), expr.Increment("version", 1))
//	page, err := orders.Query(ctx, Order{UserID: "u"}, dynamo.SortBeginsWith("2024-06"), dynamo.Limit(50))
//	next, err := orders.Query(ctx, Order{UserID: "u"}, dynamo.StartAfter(page.Cursor))
//	for o, err := range orders.QueryStream(ctx, Order{UserID: "u"}, dynamo.Limit(100)) { … }
//	all, err := orders.ScanAll(ctx, dynamo.Parallel(8, 4), dynamo.MaxItems(10_000))
//	res, err := repo.BatchWrite(ctx, []dynamo.WriteOp{orders.PutOp(o1), orders.DeleteOp(o2)})
//	err = repo.Transact(ctx, []dynamo.TxOp{accts.TxUpdate(a, expr.Decrement("balance", 5), dynamo.If(cond)), ledger.TxPut(l)},
//		dynamo.ClientRequestToken("idem-1"))
//	hits, err := docs.SearchVectors(ctx, "Semantic", embedding, dynamo.TopK(5), dynamo.Filter(expr.Eq("tenant", "t")))
//
// Query, QueryAll and QueryStream mirror Scan, ScanAll and ScanStream: one
// page, every item, and a lazy iterator. [Limit] is DynamoDB's Limit in all
// six (for the last four, the page size); [MaxItems] caps the total of the
// All and Stream forms and [Parallel] splits a whole scan into segments.
// Queries and scans over a table shared by several entities load only the
// items of the bound schema's entity and skip the others. Streams fetch a
// page only when the loop needs it; a parallel scan holds about one page per
// segment, and when the loop ends every goroutine it started has exited.
//
// Options are typed per operation: an option that makes no sense for an
// operation does not compile there (MaxItems on a single Query, Descending
// on a Scan). One whose value is wrong for the call (a consistent read on a
// GSI, a Limit of 0) is a validation error before any request.
//
// # Errors
//
// Every failure is an [*Error]: an [ErrorType], DynamoDB's message and
// exception name, the HTTP status, whether it is retryable, the
// cancellation reasons of a canceled transaction, and its cause through
// errors.Unwrap. Each ErrorType is also the value to test for:
// errors.Is(err, dynamo.ErrConditionalCheckFailed). Local validation
// failures (schema, request builders, bad options) are [ErrValidation] and
// happen before any request is sent.
//
// # PartiQL
//
// [PartiQL] makes a statement whose ? placeholders take Go values, encoded
// by package codec. [Table.Execute] and [Table.ExecuteStream] load its rows
// into T (skipping other entities' items, as a Query does); [Repo.Execute]
// and [Repo.ExecuteStream] return them raw; [Repo.ExecuteBatch] reports
// each statement's failure on its own and [Repo.ExecuteTransaction] is all
// or nothing. A SELECT is retried like a read; an INSERT, UPDATE or DELETE
// is not repeated once it may have been applied.
//
// # Raw requests
//
// [Repo.Request] sends any action with a JSON payload through the same
// signing, retries, telemetry and error mapping.
package dynamo
