package codec

import (
	"fmt"
	"strconv"
	"strings"
)

// Error is the codec's error: Path names where in the value the problem is
// ("Order.items[2].sku"), Msg what it is. Err is the underlying error of a
// user Marshaler/Unmarshaler, if any.
type Error struct {
	Path string
	Msg  string
	Err  error
}

func (e *Error) Error() string {
	if e.Path == "" {
		return "dynamo: " + e.Msg
	}
	return "dynamo: " + e.Path + ": " + e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

func errorf(format string, args ...any) *Error {
	return &Error{Msg: fmt.Sprintf(format, args...)}
}

// within prefixes the path of err with seg (a field or attribute name, or
// an index "[3]"). Errors that are not *Error (from user code) are wrapped.
func within(err error, seg string) error {
	e, ok := err.(*Error)
	if !ok {
		return &Error{Path: seg, Msg: err.Error(), Err: err}
	}
	switch {
	case e.Path == "":
		e.Path = seg
	case e.Path[0] == '[':
		e.Path = seg + e.Path
	default:
		e.Path = seg + "." + e.Path
	}
	return e
}

func withinIndex(err error, i int) error {
	return within(err, "["+strconv.Itoa(i)+"]")
}

// mapSeg renders a map key as a path segment: plain names as they are,
// anything else quoted in brackets.
func mapSeg(k string) string {
	if k != "" && strings.IndexFunc(k, func(r rune) bool {
		return !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) < 0 {
		return k
	}
	return "[" + strconv.Quote(k) + "]"
}
