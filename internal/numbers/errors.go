package numbers

// Reason classifies an Error.
type Reason uint8

const (
	// Invalid: the text is not a number in DynamoDB's syntax.
	Invalid Reason = iota + 1
	// TooPrecise: more than 38 significant digits.
	TooPrecise
	// Overflow: magnitude above 9.99…E+125, or an arithmetic result that cannot be held
	// exactly (DynamoDB reports both as overflow).
	Overflow
	// Underflow: nonzero magnitude below 1E-130.
	Underflow
)

// DynamoDB's ValidationException texts for numbers, verbatim. An invalid number's message is
// MsgInvalid followed by ": " and the text as sent; an empty one gets MsgInvalid alone.
const (
	MsgInvalid    = "The parameter cannot be converted to a numeric value"
	MsgTooPrecise = "Attempting to store more than 38 significant digits in a Number"
	MsgOverflow   = "Number overflow. Attempting to store a number with magnitude larger than supported range"
	MsgUnderflow  = "Number underflow. Attempting to store a number with magnitude smaller than supported range"
)

// Error is a number DynamoDB would reject. Msg is the message of DynamoDB's
// ValidationException, ready to be sent as is.
type Error struct {
	Reason Reason
	Msg    string
}

func (e *Error) Error() string { return e.Msg }

var (
	errEmpty      = &Error{Reason: Invalid, Msg: MsgInvalid}
	errTooPrecise = &Error{Reason: TooPrecise, Msg: MsgTooPrecise}
	errOverflow   = &Error{Reason: Overflow, Msg: MsgOverflow}
	errUnderflow  = &Error{Reason: Underflow, Msg: MsgUnderflow}
)

func invalid(s string) *Error {
	if s == "" {
		return errEmpty
	}
	return &Error{Reason: Invalid, Msg: MsgInvalid + ": " + s}
}
