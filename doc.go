// Package dynamo is a DynamoDB library for Go built for single-table design:
// typed schemas with generated composite keys, pure request builders, and a
// [Repo] over aws-sdk-go-v2 with one normalised error type.
//
// # The repo
//
// [Open] loads the standard AWS configuration, [New] takes an aws.Config,
// [FromClient] takes any [API] (a *dynamodb.Client or a stub). The SDK does
// the work it is good at — SigV4, credential caching, endpoint rules
// (including routing SearchVectors to the search host), retries with
// backoff — configured, not rewritten:
//
//   - Retries: throttling, 5xx and transport failures (timeouts included),
//     up to [WithMaxRetries] (3) with full-jitter exponential backoff
//     ([WithBackoff], 50 ms base, 5 s cap). Nothing else is retried. A
//     retried timeout may apply a write twice: guard counters with a
//     condition or use a transaction with a client request token.
//   - Timeouts: [WithTimeouts] (connect 5 s, receive 30 s).
//   - Telemetry: a [Tracer] sees every attempt (see the dynamootel module for
//     OpenTelemetry). Item contents never reach it.
//
// # Operations
//
// [Bind] ties a schema to a repo; the [Table] it returns runs the typed
// operations. Writes return the item DynamoDB sent back (ReturnValues) or
// nil; Get returns [ErrNotFound] for a missing item:
//
//	orders := dynamo.Bind(repo, Orders)
//	_, err := orders.Put(ctx, o, dynamo.If(dynamo.NotExists("pk")))
//	o, err := orders.Get(ctx, key, dynamo.Consistent())
//	_, err = orders.Update(ctx, key, []dynamo.Change{dynamo.SetAttr("status", "paid"), dynamo.Increment("version", 1)})
//	page, err := orders.Query(ctx, Order{UserID: "u"}, dynamo.SortBeginsWith("2024-06"), dynamo.Limit(50))
//	next, err := orders.Query(ctx, Order{UserID: "u"}, dynamo.StartAfter(page.Cursor))
//	for o, err := range orders.Stream(ctx, Order{UserID: "u"}, dynamo.PageSize(100)) { … }
//	all, err := orders.ScanAll(ctx, dynamo.Segments(8), dynamo.MaxConcurrency(4))
//	res, err := repo.BatchWrite(ctx, []dynamo.WriteOp{orders.PutOp(o1), orders.DeleteOp(o2)})
//	err = repo.Transact(ctx, []dynamo.TxOp{accts.TxUpdate(a, changes, dynamo.If(cond)), ledger.TxPut(l)},
//		dynamo.ClientRequestToken("idem-1"))
//	hits, err := docs.SearchVectors(ctx, "Semantic", embedding, dynamo.TopK(5), dynamo.Filter(dynamo.Eq("tenant", "t")))
//
// Queries and scans over a table shared by several entities load only the
// items of the bound schema's entity and skip the others. Streams fetch a
// page only when the loop needs it; a parallel scan holds about one page per
// segment, and when the loop ends every goroutine it started has exited.
//
// Options are typed per operation family (an option that makes no sense for
// an operation does not compile there); one whose value is wrong for the call
// (a consistent read on a GSI, PageSize on a single-page Query) is a
// validation error before any request. The schema, condition, update and
// option constructors of the packages schema, expr, request and codec are
// re-exported here; the update action SET is [SetAttr] because [Set] is the
// set type.
//
// # Errors
//
// Every failure is an [*Error]: a [ErrorType], DynamoDB's message and
// exception name, the HTTP status, whether it is retryable, cancellation
// reasons for canceled transactions, and the cause through Unwrap. Branch with
// errors.Is(err, dynamo.ErrConditionalCheckFailed) and friends. Local
// validation failures (schema, request builders, bad options) are
// TypeValidation and happen before any request is sent.
//
// # Raw requests
//
// [Repo.Request] sends any action with a JSON payload through the same
// signing, retries, telemetry and error mapping.
package dynamo
