package dynamo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/smithy-go"
)

func TestFullJitterBounds(t *testing.T) {
	j := fullJitter{base: 50 * time.Millisecond, max: 5 * time.Second}
	for attempt, ceiling := range map[int]time.Duration{1: 50 * time.Millisecond, 2: 100 * time.Millisecond, 4: 400 * time.Millisecond, 8: 5 * time.Second, 40: 5 * time.Second} {
		var maxSeen time.Duration
		for range 2000 {
			d := j.delay(attempt)
			if d < 0 || d > ceiling {
				t.Fatalf("attempt %d: delay %v outside [0, %v]", attempt, d, ceiling)
			}
			maxSeen = max(maxSeen, d)
		}
		if maxSeen < ceiling/2 {
			t.Errorf("attempt %d: delays never came near the ceiling %v (max %v): not full jitter", attempt, ceiling, maxSeen)
		}
	}
}

func TestClassifyWrappedErrors(t *testing.T) {
	dial := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	cases := []struct {
		name string
		err  error
		want ErrorType
	}{
		{"max attempts around throttling", &retry.MaxAttemptsError{Attempt: 4, Err: &smithy.GenericAPIError{Code: "ThrottlingException"}}, ErrThrottled},
		{"namespaced code", &smithy.GenericAPIError{Code: "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException"}, ErrResourceNotFound},
		{"url error", &url.Error{Op: "Post", URL: "http://x", Err: dial}, ErrTransport},
		{"deadline", fmt.Errorf("op: %w", context.DeadlineExceeded), ErrTransport},
		{"canceled", fmt.Errorf("op: %w", context.Canceled), ErrCanceled},
		{"body cut short", &smithy.DeserializationError{Err: io.ErrUnexpectedEOF}, ErrTransport},
		{"bad json", &smithy.DeserializationError{Err: errors.New("invalid character '<'")}, ErrDecode},
		{"no credentials", fmt.Errorf("get identity: %w", &noCredentialsError{errors.New("no EC2 IMDS role found")}), ErrNoCredentials},
		{"unknown", errors.New("something else"), ErrUnknown},
	}
	for _, tc := range cases {
		if got, _, _ := classify(tc.err); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
		e := mapError("GetItem", "t", tc.err).(*Error)
		if e.Type != tc.want || !errors.Is(e, tc.err) && e.Unwrap() != tc.err {
			t.Errorf("%s: mapped %+v", tc.name, e)
		}
	}
}
