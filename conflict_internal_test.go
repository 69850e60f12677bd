package dynamo

import "testing"

// conflicted: only a refusal that applied nothing, for a conflict alone.
func TestConflicted(t *testing.T) {
	reasons := func(codes ...string) *Error {
		e := &Error{Type: ErrTransactionCanceled}
		for _, c := range codes {
			e.CancellationReasons = append(e.CancellationReasons, CancellationReason{Code: c})
		}
		return e
	}
	for _, tc := range []struct {
		name      string
		err       error
		sameToken bool
		want      bool
	}{
		{"conflict", &Error{Type: ErrTransactionConflict, AWSCode: "TransactionConflictException"}, false, true},
		{"in progress, new token", &Error{Type: ErrTransactionConflict, AWSCode: "TransactionInProgressException"}, false, false},
		{"in progress, same token", &Error{Type: ErrTransactionConflict, AWSCode: "TransactionInProgressException"}, true, true},
		{"canceled for a conflict", reasons("None", "TransactionConflict"), false, true},
		{"canceled for a condition too", reasons("TransactionConflict", "ConditionalCheckFailed"), false, false},
		{"canceled, no reason", reasons("None"), false, false},
		{"outcome unknown", &Error{Type: ErrOutcomeUnknown}, true, false},
		{"throttled", &Error{Type: ErrThrottled}, true, false},
	} {
		if got := conflicted(tc.err, tc.sameToken); got != tc.want {
			t.Errorf("%s: conflicted = %v, want %v", tc.name, got, tc.want)
		}
	}
}
