package dynamo

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/dynamogo/dynamo/schema"
)

// ErrorType classifies every failure the library reports. Each type is
// also the value to test for: errors.Is(err, dynamo.ErrConditionalCheckFailed)
// holds when err is an [*Error] of that type. The string values are stable
// and safe to log or use as metric labels.
type ErrorType string

// The error types.
const (
	ErrValidation                    ErrorType = "validation_error"                // refused, by this library before sending or by DynamoDB
	ErrNotFound                      ErrorType = "not_found"                       // Get found no item (not an AWS error)
	ErrEntityMismatch                ErrorType = "entity_mismatch"                 // the item at the key is another entity's (not an AWS error)
	ErrResourceNotFound              ErrorType = "resource_not_found"              // no such table, index or backup
	ErrConditionalCheckFailed        ErrorType = "conditional_check_failed"        // an If condition (or a statement's WHERE) did not hold, or an INSERT's key exists
	ErrVersionConflict               ErrorType = "version_conflict"                // the stored version is not the one the write read (a schema's version field)
	ErrProvisionedThroughputExceeded ErrorType = "provisioned_throughput_exceeded" // over the table's provisioned capacity (retried)
	ErrThrottled                     ErrorType = "throttled"                       // throttled by DynamoDB (retried)
	ErrAccessDenied                  ErrorType = "access_denied"                   // the credentials may not do this
	ErrAuthentication                ErrorType = "authentication_error"            // the signature or credentials were rejected
	ErrTransactionCanceled           ErrorType = "transaction_canceled"            // see Error.CancellationReasons
	ErrTransactionConflict           ErrorType = "transaction_conflict"            // another transaction holds an item
	ErrItemCollectionSizeExceeded    ErrorType = "item_collection_size_exceeded"   // an LSI's item collection is over 10 GB
	ErrResourceInUse                 ErrorType = "resource_in_use"                 // the table exists or is changing, the backup is in use
	ErrLimitExceeded                 ErrorType = "limit_exceeded"                  // too many control-plane operations at once
	ErrInternalServer                ErrorType = "internal_server_error"           // a 5xx answer (retried)
	ErrTransport                     ErrorType = "transport_error"                 // no answer: connection failure or timeout (retried)
	ErrDecode                        ErrorType = "decode_error"                    // an answer this library could not load
	ErrNoCredentials                 ErrorType = "no_credentials"                  // the credential chain found none
	ErrCanceled                      ErrorType = "canceled"                        // the caller's context was canceled or its deadline passed
	// ErrOutcomeUnknown: a write that is not safe to repeat failed after it
	// may have reached DynamoDB (its answer was lost, it timed out waiting,
	// or DynamoDB answered 5xx). It may or may not have been applied, and it
	// was not retried. See docs/data-modelling.md for how to recover.
	ErrOutcomeUnknown ErrorType = "outcome_unknown"
	ErrUnknown        ErrorType = "unknown_error" // anything else
)

// Error returns the type's value, so that a type is the target of
// errors.Is and prints as its label.
func (t ErrorType) Error() string { return string(t) }

// Retryable reports whether the client retries failures of this type:
// throttling, 5xx and transport failures, and nothing else. A 5xx or
// transport failure of a write that may have been applied and is not safe to
// repeat is not retried: it becomes ErrOutcomeUnknown.
func (t ErrorType) Retryable() bool {
	switch t {
	case ErrThrottled, ErrProvisionedThroughputExceeded, ErrInternalServer, ErrTransport:
		return true
	}
	return false
}

// Error is the one error type every operation returns. The error it comes
// from — the SDK's (a smithy.APIError such as
// *types.TransactionCanceledException, or a transport error) or, for a local
// validation failure, the builder's (*schema.Error, *request.Error,
// *codec.Error) — is its cause, through errors.Unwrap and errors.As.
type Error struct {
	Type    ErrorType
	Message string // human-readable; DynamoDB's own message for service errors
	AWSCode string // DynamoDB's exception name without namespace, e.g. "ConditionalCheckFailedException"
	Status  int    // HTTP status, 0 when no response was received

	// Retryable reports whether the client retries this kind of failure. A
	// returned retryable error means the retries were used up.
	Retryable bool

	Op        string // DynamoDB action, e.g. "PutItem"; "" for local validation before any action
	Table     string // table name when the action has one table
	RequestID string // x-amzn-RequestId of the failed response

	// CancellationReasons holds one entry per transaction operation, in request
	// order, when Type is ErrTransactionCanceled.
	CancellationReasons []CancellationReason

	// Item is the item as stored when a conditional write failed and the
	// request asked for ReturnValuesOnConditionCheckFailure=ALL_OLD.
	Item map[string]types.AttributeValue

	// Keys are the primary keys of the items that could not be loaded, when
	// Type is ErrDecode: one for a single item, every one for QueryAll and
	// ScanAll. The message never shows an item's values.
	Keys []map[string]types.AttributeValue

	cause error
}

// CancellationReason is DynamoDB's verdict on one operation of a canceled
// transaction. Code is "None" for operations that were fine.
type CancellationReason struct {
	Code    string
	Message string
	Item    map[string]types.AttributeValue // the current item, when ReturnValuesOnConditionCheckFailure=ALL_OLD
	// Value is Item loaded through the operation's schema (a T, as any), set
	// by Repo.Transact when Item is present.
	Value any
}

// Error renders "dynamo: <op> <table>: <message> (<AWSCode>)".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("dynamo: ")
	if e.Op != "" {
		b.WriteString(e.Op)
		if e.Table != "" {
			b.WriteString(" ")
			b.WriteString(strconv.Quote(e.Table))
		}
		b.WriteString(": ")
	}
	msg := e.Message
	if msg == "" {
		msg = string(e.Type)
	}
	b.WriteString(msg)
	if e.AWSCode != "" {
		b.WriteString(" (")
		b.WriteString(e.AWSCode)
		if e.Status != 0 {
			b.WriteString(", HTTP ")
			b.WriteString(strconv.Itoa(e.Status))
		}
		b.WriteString(")")
	}
	return b.String()
}

// Unwrap returns the cause: the SDK error, a builder error (*schema.Error,
// *request.Error, *codec.Error, …) or a transport error.
func (e *Error) Unwrap() error { return e.cause }

// Is reports whether target is e's [ErrorType] (errors.Is(err,
// dynamo.ErrConditionalCheckFailed)) or an *Error of the same type.
func (e *Error) Is(target error) bool {
	switch t := target.(type) {
	case ErrorType:
		return t == e.Type || e.versionCanceled(t)
	case *Error:
		return t.Type == e.Type || e.versionCanceled(t.Type)
	}
	return false
}

// versionCanceled reports whether t is ErrTransactionCanceled and e a
// transaction canceled by a version conflict, which is both.
func (e *Error) versionCanceled(t ErrorType) bool {
	return t == ErrTransactionCanceled && e.Type == ErrVersionConflict && e.CancellationReasons != nil
}

// versionConflict turns the failed condition of a versioned write into
// ErrVersionConflict when the stored item (returned by the ALL_OLD that the
// builder asks for on versioned writes) does not carry the version read:
// the lock failed, not the caller's own condition.
func versionConflict[T any](s *schema.Schema[T], expected int64, err error) error {
	var e *Error
	if v, _, _ := s.Lifecycle(); v == "" || !errors.As(err, &e) || e.Type != ErrConditionalCheckFailed || s.StoredVersion(e.Item) == expected {
		return err
	}
	c := *e
	c.Type, c.Message = ErrVersionConflict, versionMessage
	return &c
}

const versionMessage = "version conflict: the item was written or deleted since it was read"

// invalid wraps a pure-layer error (schema, codec, request builders) as a
// validation error: nothing has been sent. An *Error passes through.
func invalid(op string, cause error) *Error {
	var e *Error
	if errors.As(cause, &e) {
		return e
	}
	msg := trimPrefix(cause.Error())
	if op != "" {
		msg = strings.TrimPrefix(msg, op+": ")
	}
	return &Error{Type: ErrValidation, Message: msg, Op: op, cause: cause}
}

func trimPrefix(msg string) string { return strings.TrimPrefix(msg, "dynamo: ") }

// invalidf states a local validation failure.
func invalidf(op, format string, args ...any) *Error {
	return &Error{Type: ErrValidation, Message: fmt.Sprintf(format, args...), Op: op}
}

// noCredentialsError marks a failure of the credential chain so that the
// mapping can tell it apart from the transport errors the providers
// themselves return (IMDS and container endpoints are HTTP calls).
type noCredentialsError struct{ err error }

func (e *noCredentialsError) Error() string { return "no AWS credentials: " + e.err.Error() }
func (e *noCredentialsError) Unwrap() error { return e.err }

// doneError is a failure because the caller's context ended (canceled or
// past its deadline): ErrCanceled, never retryable, and errors.Is finds
// both the context's error and the failure it caused. It tells the caller's
// deadline apart from the HTTP client's own timeouts, which net/http also
// reports as context.DeadlineExceeded.
type doneError struct{ ctx, err error }

func (e *doneError) Error() string {
	if e.err == nil || e.err == e.ctx {
		return "the caller's context ended: " + e.ctx.Error()
	}
	return "the caller's context ended: " + e.ctx.Error() + " (" + innermostMessage(e.err) + ")"
}

func (e *doneError) Unwrap() []error {
	if e.err == nil {
		return []error{e.ctx}
	}
	return []error{e.ctx, e.err}
}

// callerDone marks err as the caller's context ending when ctx has ended
// and DynamoDB did not answer (an answer is the answer, whatever the
// context did since).
func callerDone(ctx context.Context, err error) error {
	if err == nil || ctx.Err() == nil {
		return err
	}
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		return err
	}
	return &doneError{ctx: ctx.Err(), err: err}
}

// awsCodes maps DynamoDB exception names to error types.
// Source: DynamoDB API reference, "Common Errors" and each action's Errors.
var awsCodes = map[string]ErrorType{
	"ConditionalCheckFailedException":          ErrConditionalCheckFailed,
	"ResourceNotFoundException":                ErrResourceNotFound,
	"TableNotFoundException":                   ErrResourceNotFound,
	"IndexNotFoundException":                   ErrResourceNotFound,
	"ProvisionedThroughputExceededException":   ErrProvisionedThroughputExceeded,
	"ThrottlingException":                      ErrThrottled,
	"RequestLimitExceeded":                     ErrThrottled,
	"ValidationException":                      ErrValidation,
	"SerializationException":                   ErrValidation,
	"UnknownOperationException":                ErrValidation,
	"IdempotentParameterMismatchException":     ErrValidation,
	"DuplicateItemException":                   ErrConditionalCheckFailed, // a PartiQL INSERT of an existing key
	"AccessDeniedException":                    ErrAccessDenied,
	"UnrecognizedClientException":              ErrAuthentication,
	"InvalidSignatureException":                ErrAuthentication,
	"IncompleteSignatureException":             ErrAuthentication,
	"MissingAuthenticationToken":               ErrAuthentication,
	"MissingAuthenticationTokenException":      ErrAuthentication,
	"ExpiredTokenException":                    ErrAuthentication,
	"InvalidClientTokenId":                     ErrAuthentication,
	"SignatureDoesNotMatch":                    ErrAuthentication,
	"TransactionCanceledException":             ErrTransactionCanceled,
	"TransactionConflictException":             ErrTransactionConflict,
	"TransactionInProgressException":           ErrTransactionConflict,
	"ReplicatedWriteConflictException":         ErrTransactionConflict,
	"ItemCollectionSizeLimitExceededException": ErrItemCollectionSizeExceeded,
	"InternalServerError":                      ErrInternalServer,
	"InternalFailure":                          ErrInternalServer,
	"ServiceUnavailable":                       ErrInternalServer,
	"ServiceUnavailableException":              ErrInternalServer,
	"ResourceInUseException":                   ErrResourceInUse,
	"TableInUseException":                      ErrResourceInUse,
	"LimitExceededException":                   ErrLimitExceeded,
	"BackupNotFoundException":                  ErrResourceNotFound,
	"BackupInUseException":                     ErrResourceInUse,
	"TableAlreadyExistsException":              ErrResourceInUse,
	"ContinuousBackupsUnavailableException":    ErrValidation,
	"PointInTimeRecoveryUnavailableException":  ErrValidation,
	"InvalidRestoreTimeException":              ErrValidation,
}

// classify is the single reader of SDK and transport errors. It is cheap (no
// allocation) because the retryer calls it on every failed attempt.
func classify(err error) (t ErrorType, code string, status int) {
	t, code, status = classifyAttempt(err)
	var ou *outcomeUnknownError
	if errors.As(err, &ou) {
		t = ErrOutcomeUnknown
	}
	return t, code, status
}

// classifyAttempt classifies the failure itself, whether or not it may have
// been applied.
func classifyAttempt(err error) (t ErrorType, code string, status int) {
	var re *smithyhttp.ResponseError
	if errors.As(err, &re) {
		status = re.HTTPStatusCode()
	}
	var nc *noCredentialsError
	if errors.As(err, &nc) {
		return ErrNoCredentials, "", status
	}
	var done *doneError
	if errors.As(err, &done) {
		return ErrCanceled, "", status
	}
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		code = apiErr.ErrorCode()
		if i := strings.LastIndexByte(code, '#'); i >= 0 {
			code = code[i+1:]
		}
		if t, ok := awsCodes[code]; ok {
			return t, code, status
		}
		return typeOfStatus(status), code, status
	}
	if errors.Is(err, context.Canceled) {
		return ErrCanceled, "", status
	}
	var mr *aws.MissingRegionError
	if errors.As(err, &mr) {
		return ErrValidation, "", status
	}
	if isTransport(err) {
		return ErrTransport, "", status
	}
	var de *smithy.DeserializationError
	if errors.As(err, &de) {
		return ErrDecode, "", status
	}
	if status != 0 {
		return typeOfStatus(status), "", status
	}
	return ErrUnknown, "", status
}

func typeOfStatus(status int) ErrorType {
	switch {
	case status >= 500:
		return ErrInternalServer
	case status == 429:
		return ErrThrottled
	case status == 401:
		return ErrAuthentication
	case status == 403:
		return ErrAccessDenied
	}
	return ErrUnknown
}

// isTransport recognises failures to send a request or read its response:
// dial/connection errors, resets, timeouts (including the receive timeout and
// the caller's context deadline).
func isTransport(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var se *smithyhttp.RequestSendError
	if errors.As(err, &se) {
		return true
	}
	var rt *awshttp.ResponseTimeoutError
	if errors.As(err, &rt) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return true
	}
	var ce interface{ ConnectionError() bool }
	if errors.As(err, &ce) && ce.ConnectionError() {
		return true
	}
	s := err.Error()
	return strings.Contains(s, "connection reset") || strings.Contains(s, "use of closed network connection") ||
		strings.Contains(s, "unexpected EOF")
}

// mapError turns any failure of an SDK call into an *Error. op and table name
// the action; a nil err gives nil.
func mapError(op, table string, err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		if e.Op == "" && e.Type != ErrValidation {
			c := *e
			c.Op, c.Table = op, table
			return &c
		}
		return e
	}
	t, code, status := classify(err)
	e = &Error{Type: t, AWSCode: code, Status: status, Retryable: t.Retryable(), Op: op, Table: table, cause: err}
	var apiErr smithy.APIError
	switch {
	case errors.As(err, &apiErr):
		e.Message = apiErr.ErrorMessage()
		if e.Message == "" || e.Message == "UnknownError" {
			e.Message = code
		}
	case t == ErrNoCredentials:
		var nc *noCredentialsError
		errors.As(err, &nc)
		e.Message = nc.Error()
	case t == ErrTransport:
		e.Message = transportMessage(err)
	case t == ErrOutcomeUnknown:
		if inner, _, _ := classifyAttempt(err); inner == ErrTransport {
			e.Message = transportMessage(err)
		} else {
			e.Message = innermostMessage(err)
		}
	default:
		e.Message = innermostMessage(err)
	}
	var rid interface{ ServiceRequestID() string }
	if errors.As(err, &rid) {
		e.RequestID = rid.ServiceRequestID()
	}
	var tce *types.TransactionCanceledException
	if errors.As(err, &tce) {
		e.CancellationReasons = make([]CancellationReason, len(tce.CancellationReasons))
		for i, r := range tce.CancellationReasons {
			e.CancellationReasons[i] = CancellationReason{Code: aws.ToString(r.Code), Message: aws.ToString(r.Message), Item: r.Item}
		}
	}
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		e.Item = ccf.Item
	}
	if t == ErrOutcomeUnknown {
		e.Message += "; the request may have been applied and was not retried, as repeating it could apply it twice"
	}
	return e
}

// transportMessage is a transport failure as the network error behind it
// ("dial tcp 127.0.0.1:1: connect: connection refused (after 4 attempts)")
// rather than the SDK's layers of HTTP and retry wrapping around it.
func transportMessage(err error) string {
	var msg string
	var ne *net.OpError
	var ue *url.Error
	switch {
	case errors.As(err, &ne):
		msg = ne.Error()
	case errors.As(err, &ue):
		msg = ue.Err.Error()
	default:
		return innermostMessage(err)
	}
	// The retryer's error is the only record of how many attempts were made.
	var ma *retry.MaxAttemptsError
	if errors.As(err, &ma) {
		msg += fmt.Sprintf(" (after %d attempts)", ma.Attempt)
	}
	return msg
}

// innermostMessage drops the SDK's "operation error DynamoDB: PutItem, …"
// wrapping, which repeats what Op already says.
func innermostMessage(err error) string {
	var oe *smithy.OperationError
	if errors.As(err, &oe) && oe.Err != nil {
		err = oe.Err
	}
	return err.Error()
}
