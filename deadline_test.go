package dynamo_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/expr"
)

// A call still waiting for DynamoDB when the caller's deadline passes is
// the caller's cancellation: ErrCanceled, errors.Is context.DeadlineExceeded,
// not retryable and not retried. A write that may have been applied stays
// ErrOutcomeUnknown, and still says why.
func TestCallerDeadline(t *testing.T) {
	srv := newCanned(t, func(string, int, []byte) reply { return reply{delay: time.Hour, body: `{}`} })
	orders := dynamo.Bind(fastRepo(t, srv.URL), Orders)
	within := func() (context.Context, context.CancelFunc) {
		// The deadline is what the test is about; the server never answers.
		return context.WithTimeout(context.Background(), 100*time.Millisecond)
	}

	ctx, cancel := within()
	defer cancel()
	_, err := orders.Get(ctx, order("u1", 1))
	var e *dynamo.Error
	if !errors.As(err, &e) || e.Type != dynamo.ErrCanceled || e.Retryable || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Get past the deadline: %#v", err)
	}
	if got := srv.count("GetItem"); got != 1 {
		t.Errorf("GetItem attempts = %d, want 1", got)
	}

	ctx, cancel = within()
	defer cancel()
	_, err = orders.Update(ctx, order("u1", 1), expr.Increment("total", 1))
	if !errors.Is(err, dynamo.ErrOutcomeUnknown) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Update past the deadline: %v", err)
	}
}

// The waits of the table API end with the caller's deadline the same way.
func TestWaitDeadline(t *testing.T) {
	srv := dynamotest.NewServer(t)
	if err := srv.Repo(t).CreateTables(context.Background(), Orders); err != nil {
		t.Fatal(err)
	}
	repo, err := dynamo.FromClient(&creatingClient{Client: srv.Client(), pending: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err = repo.WaitForTable(ctx, "app")
	var e *dynamo.Error
	if !errors.As(err, &e) || e.Type != dynamo.ErrCanceled || e.Retryable || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("WaitForTable past the deadline: %#v", err)
	}
}
