package vector

// Error is a failure the server reports to the client as is: Type is the
// error's DynamoDB name (without the namespace) and Message its exact text.
type Error struct {
	Type    string // "ValidationException"
	Message string
}

func (e *Error) Error() string { return e.Type + ": " + e.Message }

// ValidationException is the Type of every Error this package returns.
const ValidationException = "ValidationException"

func validation(msg string) *Error { return &Error{Type: ValidationException, Message: msg} }

// invalid prefixes the service's usual "One or more parameter values were
// invalid: " (with a colon; the write-path messages use a full stop and are
// written out in full where they are made).
func invalid(msg string) *Error {
	return validation("One or more parameter values were invalid: " + msg)
}
