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
