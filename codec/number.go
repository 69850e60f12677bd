package codec

import (
	"bytes"
	"math"
	"strconv"
	"strings"

	"github.com/dynamogo/dynamo/internal/numbers"
)

// DynamoDB's number rules (38 significant digits, magnitude 1E-130 to
// 9.99…E+125) belong to internal/numbers; codec asks it for every verdict and
// keeps only its own formatting (shortest float text, the E form for large
// exponents) and the error texts, which name the field path.

// rangeError is codec's text for a number outside DynamoDB's range or
// precision, by numbers' reason.
func rangeError(r numbers.Reason) *Error {
	switch r {
	case numbers.TooPrecise:
		return errorf("number has more than %d significant digits", numbers.MaxDigits)
	case numbers.Overflow:
		return errorf("number overflow: magnitude larger than DynamoDB supports (9.99…E+125)")
	default:
		return errorf("number underflow: magnitude smaller than DynamoDB supports (1E-130)")
	}
}

// magnitudeError is rangeError for a nonzero number whose leading digit has
// power of ten e, or nil if e is within DynamoDB's range. Formatters whose
// digits are few enough need only this check.
func magnitudeError(e int) *Error {
	switch {
	case e > numbers.MaxExponent:
		return rangeError(numbers.Overflow)
	case e < numbers.MinExponent:
		return rangeError(numbers.Underflow)
	}
	return nil
}

// checkNumber validates s as a number DynamoDB accepts.
func checkNumber(s string) error {
	_, err := numbers.Parse(s)
	if err == nil {
		return nil
	}
	if r := err.(*numbers.Error).Reason; r != numbers.Invalid {
		return rangeError(r)
	}
	return errorf("not a number")
}

// isNumberSyntax reports whether s is written as a number, in range or not;
// it tells "not an integer" from "not a number" when decoding.
func isNumberSyntax(s string) bool {
	_, err := numbers.Parse(s)
	return err == nil || err.(*numbers.Error).Reason != numbers.Invalid
}

// dec is a parsed decimal: value = digits × 10^exp, digits without leading
// or trailing zeros ("" for zero); nd is len(digits), also when digits was
// not kept.
type dec struct {
	neg    bool
	digits string
	nd     int
	exp    int
}

// adjExp is the exponent of the leading digit (scientific notation).
func (d dec) adjExp() int { return d.exp + d.nd - 1 }

// parseDec splits a number into its significant digits and exponent for
// formatting. It checks syntax only: callers validate with checkNumber, or
// hold a number DynamoDB sent.
func parseDec(s string) (dec, bool) {
	var d dec
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		d.neg = s[i] == '-'
		i++
	}
	var buf [64]byte
	digits := buf[:0]
	nd, zeros := 0, 0 // significant digits so far, trailing zeros among them
	seen, point, frac := false, false, 0
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			seen = true
			if point {
				frac++
			}
			if c == '0' {
				if nd == 0 {
					continue // leading zero
				}
				zeros++
			} else {
				zeros = 0
			}
			nd++
			digits = append(digits, c) // past 64 digits it grows to the heap
		case c == '.' && !point:
			point = true
		default:
			goto exponent
		}
	}
exponent:
	if !seen {
		return dec{}, false
	}
	exp := 0
	if i < len(s) {
		if s[i] != 'e' && s[i] != 'E' {
			return dec{}, false
		}
		i++
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		if i == len(s) {
			return dec{}, false
		}
		for ; i < len(s); i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return dec{}, false
			}
			if exp < 100000 {
				exp = exp*10 + int(c-'0')
			}
		}
		if eneg {
			exp = -exp
		}
	}
	// Trailing zeros move into the exponent.
	d.nd = nd - zeros
	d.exp = exp + zeros - frac
	d.digits = string(digits[:d.nd])
	if d.nd == 0 {
		d.neg, d.exp = false, 0
	}
	return d, true
}

// canonical renders d in the form formatFloat uses: plain decimal for
// leading-digit exponents in [-7, 21), else d.dddE±x.
func (d dec) canonical() string {
	if d.nd == 0 {
		return "0"
	}
	var b []byte
	if d.neg {
		b = append(b, '-')
	}
	return string(appendDigits(b, []byte(d.digits), d.adjExp()))
}

// appendDigits writes the significand digits D with leading-digit exponent e.
func appendDigits(b []byte, D []byte, e int) []byte {
	switch {
	case e >= 0 && e < 21:
		if len(D) <= e+1 {
			b = append(b, D...)
			for range e + 1 - len(D) {
				b = append(b, '0')
			}
			return b
		}
		b = append(b, D[:e+1]...)
		b = append(b, '.')
		return append(b, D[e+1:]...)
	case e < 0 && e >= -7:
		b = append(b, '0', '.')
		for range -e - 1 {
			b = append(b, '0')
		}
		return append(b, D...)
	default:
		b = append(b, D[0])
		if len(D) > 1 {
			b = append(b, '.')
			b = append(b, D[1:]...)
		}
		b = append(b, 'E')
		if e >= 0 {
			b = append(b, '+')
		}
		return strconv.AppendInt(b, int64(e), 10)
	}
}

// appendFloat formats f with the fewest digits that round-trip (for its
// bit size), in a syntax DynamoDB accepts; NaN, ±Inf and values outside
// DynamoDB's range are errors.
func appendFloat(b []byte, f float64, bits int) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, errorf("cannot store %v: DynamoDB numbers are finite", f)
	}
	if f == 0 {
		return append(b, '0'), nil
	}
	if bits == 64 {
		if out, ok := appendShortFloat(b, f); ok {
			return out, nil
		}
	}
	// Rounding is monotonic, so the shortest digits of f lie in [1e-7, 1e21)
	// exactly when |f| lies in [float(1e-7), float(1e21)) at f's precision:
	// the plain form, which 'f' writes.
	if a := math.Abs(f); bits == 32 && float32(a) >= 1e-7 && float32(a) < 1e21 || bits == 64 && a >= 1e-7 && a < 1e21 {
		return strconv.AppendFloat(b, f, 'f', -1, bits), nil
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, bits) // -d.ddde±XX
	if e[0] == '-' {
		b = append(b, '-')
		e = e[1:]
	}
	x := bytes.IndexByte(e, 'e')
	exp, _ := strconv.Atoi(string(e[x+1:]))
	var dbuf [24]byte
	D := append(dbuf[:0], e[0])
	if x > 1 {
		D = append(D, e[2:x]...)
	}
	if magnitudeError(exp) != nil {
		return b, errorf("cannot store a number outside DynamoDB's range (1E-130 to 9.99…E+125)")
	}
	return appendDigits(b, D, exp), nil
}

// appendShortFloat writes a nonzero float64 that is the nearest to a
// decimal of at most maxShortFrac fraction digits and fewer than 2^40 units
// of its last digit (prices, quantities, measures) without strconv's
// search for the shortest digits; ok is false for every other float.
//
// For k = 0, 1, … it takes n, the integer nearest to |f|×10^k, and keeps it
// if n/10^k, correctly rounded as ParseFloat rounds the text, is |f|. The
// first k that holds gives the shortest digits, the ones strconv writes:
// a decimal with k fraction digits that reads back as f lies within
// 2^-12 of |f|×10^k (the product's rounding and f's own are each below
// 2^-13 there), so n is the only candidate, and it is found whenever one
// exists; and of two decimals that read back as f, the one with fewer
// fraction digits has no more significant digits.
func appendShortFloat(b []byte, f float64) ([]byte, bool) {
	a := math.Abs(f)
	for k := 0; k <= maxShortFrac; k++ {
		x := a * shortPow10[k]
		if x >= 1<<40 {
			return b, false
		}
		n := float64(int64(x + 0.5))
		if d := x - n; n == 0 || d > 1e-3 || d < -1e-3 || n/shortPow10[k] != a {
			continue
		}
		if f < 0 {
			b = append(b, '-')
		}
		var buf [24]byte
		digits := strconv.AppendUint(buf[:0], uint64(n), 10)
		if k == 0 {
			return append(b, digits...), true
		}
		if whole := len(digits) - k; whole > 0 {
			b = append(b, digits[:whole]...)
			b = append(b, '.')
			return append(b, digits[whole:]...), true
		}
		b = append(b, '0', '.')
		for range k - len(digits) {
			b = append(b, '0')
		}
		return append(b, digits...), true
	}
	return b, false
}

const maxShortFrac = 4

var shortPow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// parseShortFloat reads a float64 written as an optional minus, digits and
// an optional point followed by digits, 15 digits at most, without
// strconv: the digits are then an exact float64, and so is 10^(fraction
// digits), and one correctly rounded division gives the float nearest
// the text, as ParseFloat gives. ok is false for every other form.
func parseShortFloat(s string) (float64, bool) {
	i, neg := 0, false
	if len(s) > 0 && s[0] == '-' {
		i, neg = 1, true
	}
	var m uint64
	nd, frac := 0, -1 // digits; digits after the point, -1 before it
	for ; i < len(s); i++ {
		c := s[i]
		if c == '.' {
			if frac >= 0 || nd == 0 {
				return 0, false
			}
			frac = 0
			continue
		}
		if c < '0' || c > '9' {
			return 0, false
		}
		m = m*10 + uint64(c-'0')
		nd++
		if frac >= 0 {
			frac++
		}
	}
	if nd == 0 || nd > 15 || frac == 0 {
		return 0, false
	}
	f := float64(m)
	if frac > 0 {
		f /= shortPow10[frac]
	}
	if neg {
		f = -f
	}
	return f, true
}

func formatFloat(f float64, bits int) (string, error) {
	var buf [32]byte
	b, err := appendFloat(buf[:0], f, bits)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// intText returns the integer digits of an N that is integral but not in
// plain form ("1E+2", "100.0"), or ok=false if it has a fraction.
func intText(s string) (string, bool) {
	d, ok := parseDec(s)
	if !ok || d.exp < 0 {
		return "", false
	}
	if d.nd == 0 {
		return "0", true
	}
	if d.exp > 40 {
		return "", false
	}
	var b strings.Builder
	if d.neg {
		b.WriteByte('-')
	}
	b.WriteString(d.digits)
	for range d.exp {
		b.WriteByte('0')
	}
	return b.String(), true
}

func parseInt(s string, bits int) (int64, error) {
	if n, ok := smallInt(s); ok && (bits == 64 || n >= -1<<(bits-1) && n < 1<<(bits-1)) {
		return n, nil
	}
	n, err := strconv.ParseInt(s, 10, bits)
	if err == nil {
		return n, nil
	}
	if t, ok := intText(s); ok {
		if n, err = strconv.ParseInt(t, 10, bits); err == nil {
			return n, nil
		}
		return 0, errorf("number overflows int%d", bits)
	}
	if isNumberSyntax(s) {
		return 0, errorf("number is not an integer")
	}
	return 0, errorf("not a number")
}

func parseUint(s string, bits int) (uint64, error) {
	if n, ok := smallInt(s); ok && n >= 0 && (bits == 64 || n < 1<<bits) {
		return uint64(n), nil
	}
	n, err := strconv.ParseUint(s, 10, bits)
	if err == nil {
		return n, nil
	}
	if t, ok := intText(s); ok {
		if strings.HasPrefix(t, "-") {
			return 0, errorf("number is negative, field is unsigned")
		}
		if n, err = strconv.ParseUint(t, 10, bits); err == nil {
			return n, nil
		}
		return 0, errorf("number overflows uint%d", bits)
	}
	if isNumberSyntax(s) {
		return 0, errorf("number is not an integer")
	}
	return 0, errorf("not a number")
}

// smallInt parses the common form of an integer N, an optional minus and
// 1 to 18 digits, which cannot overflow an int64; ok=false sends anything
// else to strconv and the slower forms.
func smallInt(s string) (int64, bool) {
	digits := s
	if len(s) > 0 && s[0] == '-' {
		digits = s[1:]
	}
	if len(digits) == 0 || len(digits) > 18 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(digits); i++ {
		c := digits[i] - '0'
		if c > 9 {
			return 0, false
		}
		n = n*10 + int64(c)
	}
	if len(digits) < len(s) {
		n = -n
	}
	return n, true
}

func parseFloat(s string, bits int) (float64, error) {
	if bits == 64 {
		if f, ok := parseShortFloat(s); ok {
			return f, nil
		}
	}
	f, err := strconv.ParseFloat(s, bits)
	if err != nil {
		if isNumberSyntax(s) {
			return 0, errorf("number overflows float%d", bits)
		}
		return 0, errorf("not a number")
	}
	return f, nil
}
