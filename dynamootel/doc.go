// Package dynamootel reports the requests of a [dynamo.Repo] as OpenTelemetry
// spans: one client span per HTTP attempt, retries included.
//
//	repo, err := dynamo.Open(ctx, dynamo.WithTracer(dynamootel.New()))
//
// Spans are named "DynamoDB.<Action>" and carry the attributes of the
// OpenTelemetry semantic conventions for AWS SDK and DynamoDB calls
// (rpc.system, rpc.service, rpc.method, aws.dynamodb.table_names,
// aws.dynamodb.consumed_capacity, http.response.status_code, error.type)
// plus dynamo.attempt. Item contents, keys and expression values never
// reach a span.
//
// This is a separate module so that the core library does not depend on
// OpenTelemetry.
package dynamootel
