package numbers

import (
	"math/bits"
	"strconv"
)

// Limits of the DynamoDB Number type. Developer guide, "Supported data types and naming rules
// in Amazon DynamoDB" (HowItWorks.NamingRulesDataTypes) and "Quotas: Data types"
// (Constraints.html#limits-data-types): up to 38 digits of precision; positive range 1E-130 to
// 9.9999999999999999999999999999999999999E+125, the same negative, and zero.
const (
	MaxDigits   = 38   // significant digits
	MaxExponent = 125  // largest power of ten of the leading digit
	MinExponent = -130 // smallest power of ten of the leading digit
)

// Dec is one DynamoDB number: sign × coefficient × 10^exp, held exactly.
//
// A Dec is always canonical (the coefficient has no trailing zeros; zero is the zero Dec), so two
// Decs that denote the same number are equal under ==, and a Dec can be a map key. The zero
// value is the number 0.
type Dec struct {
	hi, lo uint64 // coefficient, < 10^38 < 2^127
	exp    int16  // power of ten of the coefficient's last digit
	nd     uint8  // number of digits in the coefficient; 0 for zero
	neg    bool
}

// IsZero reports whether d is 0.
func (d Dec) IsZero() bool { return d.nd == 0 }

// Sign returns -1, 0 or +1.
func (d Dec) Sign() int {
	switch {
	case d.nd == 0:
		return 0
	case d.neg:
		return -1
	}
	return 1
}

// Neg returns -d.
func (d Dec) Neg() Dec {
	if d.nd != 0 {
		d.neg = !d.neg
	}
	return d
}

// Abs returns |d|.
func (d Dec) Abs() Dec { d.neg = false; return d }

// Digits returns the number of significant digits of d (0 for zero).
func (d Dec) Digits() int { return int(d.nd) }

// magnitude is the power of ten of the leading digit; meaningless for zero.
func (d Dec) magnitude() int { return int(d.exp) + int(d.nd) - 1 }

// FromInt64 returns v as a Dec. Every int64 is a valid DynamoDB number.
func FromInt64(v int64) Dec {
	if v == 0 {
		return Dec{}
	}
	neg := v < 0
	u := uint64(v)
	if neg {
		u = -u
	}
	return normalize(u128{0, u}, 0, neg)
}

// FromUint64 returns v as a Dec.
func FromUint64(v uint64) Dec {
	if v == 0 {
		return Dec{}
	}
	return normalize(u128{0, v}, 0, false)
}

// Int64 returns d as an int64 when d is an integer in range; ok is false otherwise.
func (d Dec) Int64() (v int64, ok bool) {
	if d.nd == 0 {
		return 0, true
	}
	if d.exp < 0 || d.magnitude() > 18 {
		return 0, false
	}
	c, over := u128{d.hi, d.lo}.mulPow10(int(d.exp))
	if over || c.hi != 0 {
		return 0, false
	}
	if d.neg {
		if c.lo > 1<<63 {
			return 0, false
		}
		return -int64(c.lo), true
	}
	if c.lo > 1<<63-1 {
		return 0, false
	}
	return int64(c.lo), true
}

// Float64 returns the float64 nearest to d.
func (d Dec) Float64() float64 {
	var buf [48]byte
	b := buf[:0]
	if d.neg {
		b = append(b, '-')
	}
	b = d.coefDigits(b)
	b = append(b, 'e')
	b = strconv.AppendInt(b, int64(d.exp), 10)
	f, _ := strconv.ParseFloat(string(b), 64) // range is within float64's; rounding is intended
	return f
}

// normalize builds a canonical Dec from a nonzero coefficient and exponent. The caller
// guarantees c < 10^38·10^k for the trailing zeros k it strips.
func normalize(c u128, exp int, neg bool) Dec {
	if c.isZero() {
		return Dec{}
	}
	for {
		q, r := c.divmod(10)
		if r != 0 {
			break
		}
		c = q
		exp++
	}
	return Dec{hi: c.hi, lo: c.lo, exp: int16(exp), nd: uint8(c.digits()), neg: neg}
}

// String returns d as DynamoDB returns a stored number: no exponent, no trailing fraction
// zeros, no leading zeros, "-" for negatives, "0" for zero.
func (d Dec) String() string {
	if d.nd == 0 {
		return "0"
	}
	var buf [64]byte
	if d.exp >= -10 && d.exp <= 10 {
		return string(d.AppendText(buf[:0]))
	}
	return string(d.AppendText(make([]byte, 0, d.textLen())))
}

// textLen is the exact length of d's canonical text.
func (d Dec) textLen() int {
	if d.nd == 0 {
		return 1
	}
	n := int(d.nd)
	switch {
	case d.exp >= 0:
		n += int(d.exp)
	case -int(d.exp) < int(d.nd):
		n++ // the point
	default:
		n = 2 + -int(d.exp) // "0." then the fraction digits
	}
	if d.neg {
		n++
	}
	return n
}

// AppendText appends d's canonical text (see String) to dst.
func (d Dec) AppendText(dst []byte) []byte {
	if d.nd == 0 {
		return append(dst, '0')
	}
	if d.neg {
		dst = append(dst, '-')
	}
	var buf [40]byte
	digits := d.coefDigits(buf[:0])
	nd, exp := len(digits), int(d.exp)
	switch {
	case exp >= 0:
		dst = append(dst, digits...)
		for range exp {
			dst = append(dst, '0')
		}
	case -exp < nd:
		point := nd + exp
		dst = append(dst, digits[:point]...)
		dst = append(dst, '.')
		dst = append(dst, digits[point:]...)
	default:
		dst = append(dst, '0', '.')
		for range -exp - nd {
			dst = append(dst, '0')
		}
		dst = append(dst, digits...)
	}
	return dst
}

// MarshalText implements encoding.TextMarshaler with the canonical text.
func (d Dec) MarshalText() ([]byte, error) { return d.AppendText(nil), nil }

// UnmarshalText implements encoding.TextUnmarshaler with Parse.
func (d *Dec) UnmarshalText(b []byte) error {
	v, err := Parse(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// coefDigits appends the coefficient's decimal digits (at most 38).
func (d Dec) coefDigits(dst []byte) []byte {
	c := u128{d.hi, d.lo}
	if c.hi == 0 {
		return strconv.AppendUint(dst, c.lo, 10)
	}
	// c < 10^38, so c / 10^19 < 10^19 fits in 64 bits.
	q, r := bits.Div64(c.hi, c.lo, 1e19)
	dst = strconv.AppendUint(dst, q, 10)
	var tmp [19]byte
	t := strconv.AppendUint(tmp[:0], r, 10)
	for range 19 - len(t) {
		dst = append(dst, '0')
	}
	return append(dst, t...)
}

// Canonical parses s and returns its canonical text: Parse followed by String.
func Canonical(s string) (string, error) {
	d, err := Parse(s)
	if err != nil {
		return "", err
	}
	return d.String(), nil
}

// Compare returns -1, 0 or +1 as a is less than, equal to or greater than b.
func Compare(a, b Dec) int {
	sa, sb := a.Sign(), b.Sign()
	if sa != sb {
		if sa < sb {
			return -1
		}
		return 1
	}
	if sa == 0 {
		return 0
	}
	c := compareAbs(a, b)
	if sa < 0 {
		return -c
	}
	return c
}

// compareAbs compares |a| and |b|, both nonzero.
func compareAbs(a, b Dec) int {
	ma, mb := a.magnitude(), b.magnitude()
	if ma != mb {
		if ma < mb {
			return -1
		}
		return 1
	}
	ca, cb := u128{a.hi, a.lo}, u128{b.hi, b.lo}
	// Same leading power: align the digit strings. Both have at most 38 digits, so scaling the
	// shorter up to the longer's length stays below 10^38.
	switch {
	case a.nd < b.nd:
		ca, _ = ca.mulPow10(int(b.nd - a.nd))
	case a.nd > b.nd:
		cb, _ = cb.mulPow10(int(a.nd - b.nd))
	}
	return ca.cmp(cb)
}

// Equal reports whether a and b denote the same number (the same as a == b).
func Equal(a, b Dec) bool { return a == b }

// Size is the number of bytes DynamoDB counts for d in an item's size: one byte per two
// significant digits, rounded up, plus one (developer guide, "DynamoDB item sizes and formats",
// CapacityUnitCalculations.html: "(1 byte per two significant digits) + (1 byte)"). Leading and
// trailing zeros do not count; zero is 1 byte.
func (d Dec) Size() int { return (int(d.nd)+1)/2 + 1 }
