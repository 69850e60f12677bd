package dynamo

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"

	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"

	"github.com/dynamogo/dynamo/internal/sdkhttp"
)

// A write must not be retried once it may have been applied, unless
// repeating it is harmless (repeatable decides that). The pieces:
//
//   - outcomeInit remembers the call's input;
//   - outcomeAttempt, inside the retry loop, gives each attempt a wire record
//     and, when the attempt failed after the request may have reached
//     DynamoDB, turns the error into an outcomeUnknownError, which no
//     retryer retries;
//   - guardedClient, the HTTP client under the SDK, fills the wire record:
//     whether the whole request body was handed to the connection and the
//     status of the answer. It also hides the body's io.WriterTo (see
//     internal/sdkhttp), so that a fast answer cannot lose its connection.

type outcomeCallKey struct{}

// outcomeCall is the state one call shares between its attempts.
type outcomeCall struct {
	action string
	params any
	raw    *rawAction // a raw Request, which travels on a carrier input

	once   sync.Once
	repeat bool
}

// repeatable decides lazily: only a failed attempt needs it.
func (c *outcomeCall) repeatable() bool {
	c.once.Do(func() {
		if c.raw != nil {
			c.repeat = repeatable(rawShape(c.raw.action, c.raw.body))
		} else {
			c.repeat = repeatable(shapeOf(c.action, c.params))
		}
	})
	return c.repeat
}

type wireKey struct{}

// wire is what the HTTP client saw of one attempt.
type wire struct {
	watched bool        // the request went through guardedClient
	sent    atomic.Bool // the whole body was read by the transport
	status  int         // the answer's HTTP status; 0 without one
}

// mayHaveApplied reports whether an attempt that failed with err may have
// been applied by DynamoDB. Only failures a retryer would retry matter.
//
// An answer in the 400s is DynamoDB refusing the request (throttling
// included): nothing was applied. A 500 is "DynamoDB could not process your
// request", without saying how far it got, and a 503 may come from any layer
// on the way, so a 5xx is an unknown outcome
// (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Programming.Errors.html).
// A 2xx whose body was lost was applied. Without an answer, the request can
// have been applied only if it was sent whole: a failure to connect, or a
// write cut short, cannot; after that (a reset, a timeout waiting for the
// answer) nobody knows. A client that bypasses guardedClient proves nothing.
func mayHaveApplied(err error, w *wire) bool {
	t, _, status := classifyAttempt(err)
	if !t.Retryable() {
		return false
	}
	if status == 0 {
		status = w.status
	}
	switch {
	case status >= 500:
		return true
	case status >= 400:
		return false
	case status > 0:
		return true
	}
	return !w.watched || w.sent.Load()
}

// outcomeUnknownError marks an attempt that may have been applied and must
// not be repeated. RetryableError makes every aws-sdk-go-v2 retryer stop,
// including a client's own retryer behind FromClient.
type outcomeUnknownError struct{ err error }

func (e *outcomeUnknownError) Error() string        { return e.err.Error() }
func (e *outcomeUnknownError) Unwrap() error        { return e.err }
func (e *outcomeUnknownError) RetryableError() bool { return false }

// addOutcomeGuard installs the two middlewares on a client's stack.
func addOutcomeGuard(stack *middleware.Stack) error {
	if _, ok := stack.Initialize.Get(outcomeInit{}.ID()); ok {
		return nil // a client the repo built, passed to FromClient
	}
	if err := stack.Initialize.Add(outcomeInit{}, middleware.After); err != nil {
		return err
	}
	return stack.Finalize.Insert(outcomeAttempt{}, "Retry", middleware.After)
}

type outcomeInit struct{}

func (outcomeInit) ID() string { return "DynamoOutcomeCall" }

func (outcomeInit) HandleInitialize(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (
	middleware.InitializeOutput, middleware.Metadata, error,
) {
	call := &outcomeCall{action: awsmiddleware.GetOperationName(ctx), params: in.Parameters}
	if a, ok := ctx.Value(rawActionKey{}).(rawAction); ok {
		call.raw = &a
	}
	out, md, err := next.HandleInitialize(context.WithValue(ctx, outcomeCallKey{}, call), in)
	return out, md, callerDone(ctx, err)
}

type outcomeAttempt struct{}

func (outcomeAttempt) ID() string { return "DynamoOutcomeAttempt" }

func (outcomeAttempt) HandleFinalize(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (
	middleware.FinalizeOutput, middleware.Metadata, error,
) {
	call, _ := ctx.Value(outcomeCallKey{}).(*outcomeCall)
	w := &wire{}
	out, md, err := next.HandleFinalize(context.WithValue(ctx, wireKey{}, w), in)
	if err != nil && call != nil && mayHaveApplied(err, w) && !call.repeatable() {
		err = &outcomeUnknownError{err}
	}
	return out, md, err
}

// guardedClient is the HTTP client the SDK sends through: see above.
type guardedClient struct{ inner HTTPClient }

func (c guardedClient) Do(req *http.Request) (*http.Response, error) {
	w, _ := req.Context().Value(wireKey{}).(*wire)
	var sent *atomic.Bool
	if w != nil {
		w.watched = true
		sent = &w.sent
	}
	resp, err := c.inner.Do(sdkhttp.Request(req, sent))
	if w != nil && resp != nil {
		w.status = resp.StatusCode
	}
	return resp, err
}

// guardClient wraps an SDK client's options: the HTTP client and the stack.
// It serves FromClient, whose client was configured elsewhere.
func guardClient(o *dynamodb.Options) {
	if _, ok := o.HTTPClient.(guardedClient); !ok && o.HTTPClient != nil {
		o.HTTPClient = guardedClient{o.HTTPClient}
	}
	o.APIOptions = append(o.APIOptions, addOutcomeGuard)
}
