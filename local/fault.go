package local

import (
	"net/http"
	"time"
)

// Fault tells the server what to do to one call; the zero Fault serves it
// normally.
type Fault struct {
	// Delay sleeps before the call is served (or fails).
	Delay time.Duration
	// Err answers the call with this error instead of serving it.
	Err *Error
	// Unprocessed makes BatchWriteItem and BatchGetItem leave the last
	// Unprocessed requests (write requests or keys, counted over all tables
	// in request order) unprocessed: they are not executed and come back in
	// UnprocessedItems / UnprocessedKeys, as under throttling.
	Unprocessed int
}

// FaultFunc is consulted before every call with the action name
// ("PutItem", ...). It may be called concurrently.
type FaultFunc func(action string) Fault

// ThrottlingError is the error DynamoDB answers when the account's request
// rate is exceeded (retryable; the SDK backs off).
func ThrottlingError() *Error {
	return &Error{Type: "ThrottlingException", Message: "Rate of requests exceeds the allowed throughput."}
}

// ProvisionedThroughputExceededError is the error of a table whose capacity
// is exhausted (retryable).
func ProvisionedThroughputExceededError() *Error {
	return &Error{Type: "ProvisionedThroughputExceededException", Message: "The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API."}
}

// RequestLimitExceededError is the error of an account over its on-demand
// throughput quota (retryable).
func RequestLimitExceededError() *Error {
	return &Error{Type: "RequestLimitExceeded", Message: "Throughput exceeds the current throughput limit for your account. Please contact AWS Support at https://aws.amazon.com/support request a limit increase"}
}

// InternalServerError is a 500 (retryable).
func InternalServerError() *Error { return internalError() }

// ServiceUnavailableError is a 503 (retryable).
func ServiceUnavailableError() *Error {
	return &Error{Type: "ServiceUnavailableException", Message: "Service Unavailable", Status: http.StatusServiceUnavailable}
}
