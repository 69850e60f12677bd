package dynamo

import (
	"math/rand/v2"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
)

// newRetryer configures the SDK's standard retryer; it does not replace it.
//
// The SDK's default retryable set is wider than this library's contract:
// it also retries LimitExceededException, TransactionInProgressException,
// RequestTimeout codes and any 429. Here the retryable set is exactly what
// classify calls retryable (throttling, 5xx, transport failures; never a
// write that may have been applied and is unsafe to repeat, see outcome.go), plus the
// SDK's clock-skew correction (a signature rejected because the local clock is
// off is retried once the SDK has measured the skew: that is part of SigV4,
// not an error policy). A canceled context is never retried. The token-bucket
// retry quota of the standard retryer is kept: it stops retry storms when the
// service is down.
func newRetryer(c *config) aws.Retryer {
	return retry.NewStandard(func(o *retry.StandardOptions) {
		o.MaxAttempts = c.maxRetries + 1
		o.MaxBackoff = c.maxBackoff
		o.Backoff = fullJitter{base: c.baseBackoff, max: c.maxBackoff}
		o.Retryables = []retry.IsErrorRetryable{
			retry.NoRetryCanceledError{},
			retry.RetryableError{}, // clock skew (the SDK's retryableClockSkewError)
			retry.IsErrorRetryableFunc(func(err error) aws.Ternary {
				t, _, _ := classify(err)
				return aws.BoolTernary(t.Retryable())
			}),
		}
	})
}

// fullJitter is "exponential backoff with full jitter": a uniformly random
// delay in [0, min(max, base·2^(attempt-1))].
type fullJitter struct{ base, max time.Duration }

func (j fullJitter) BackoffDelay(attempt int, _ error) (time.Duration, error) {
	return j.delay(attempt), nil
}

func (j fullJitter) delay(attempt int) time.Duration {
	ceiling := j.max
	if attempt < 1 {
		attempt = 1
	}
	if attempt <= 32 {
		if d := j.base << (attempt - 1); d > 0 && d < ceiling {
			ceiling = d
		}
	}
	return time.Duration(rand.Int64N(int64(ceiling) + 1))
}
