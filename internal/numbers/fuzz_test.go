package numbers

import (
	"bytes"
	"errors"
	"math/big"
	"regexp"
	"strconv"
	"testing"
)

// numberSyntax is DynamoDB's number syntax, written independently of Parse.
var numberSyntax = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?([0-9]+))?$`)

// refParse is a slow reference for Parse's verdict: 0 when s is a valid number, else the
// Reason it is rejected for.
func refParse(s string) (Reason, bool) {
	m := numberSyntax.FindStringSubmatch(s)
	if m == nil {
		return Invalid, true
	}
	if m[3] != "" {
		if e, err := strconv.Atoi(m[3]); err != nil || e > 400 {
			return 0, false // too costly for big.Rat; skip
		}
	}
	q, ok := new(big.Rat).SetString(s)
	if !ok {
		return 0, false
	}
	if q.Sign() == 0 {
		return 0, true
	}
	q.Abs(q)
	hi, _ := new(big.Rat).SetString("1e126")
	lo, _ := new(big.Rat).SetString("1e-130")
	if q.Cmp(hi) >= 0 {
		return Overflow, true
	}
	if q.Cmp(lo) < 0 {
		return Underflow, true
	}
	// Significant digits: scale to an integer, strip the trailing zeros.
	n := new(big.Int).Set(q.Num())
	den := new(big.Int).Set(q.Denom())
	ten := big.NewInt(10)
	for new(big.Int).Mod(n, den).Sign() != 0 || den.Cmp(big.NewInt(1)) != 0 {
		n.Mul(n, ten)
		g := new(big.Int).GCD(nil, nil, n, den)
		n.Quo(n, g)
		den.Quo(den, g)
	}
	digits := n.String()
	for len(digits) > 1 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	if len(digits) > MaxDigits {
		return TooPrecise, true
	}
	return 0, true
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"0", "-0", "1.50", "0100", "1E+2", "+.5", "5.", "1.2.3", "", ".", "+", "NaN",
		"Infinity", "0x10", "1e-130", "9.9999999999999999999999999999999999999E+125", "1e126", "1e-131",
		"123456789012345678901234567890123456789", "0e99999", "-12.345e-67"} {
		f.Add(s, "1")
	}
	f.Fuzz(func(t *testing.T, s, u string) {
		d, err := Parse(s)
		if want, ok := refParse(s); ok {
			var ne *Error
			switch {
			case want == 0 && err != nil:
				t.Fatalf("Parse(%q) = %v, want success", s, err)
			case want != 0 && (!errors.As(err, &ne) || ne.Reason != want):
				t.Fatalf("Parse(%q) = %v, %v; want reason %d", s, d, err, want)
			}
		}
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("Parse(%q) error %T", s, err)
			}
			return
		}
		c := d.String()
		d2, err := Parse(c)
		if err != nil || d2 != d || d2.String() != c {
			t.Fatalf("Canonical not idempotent: %q -> %q -> %v, %v", s, c, d2, err)
		}
		// The canonical text denotes the same value as the input.
		q1, ok1 := new(big.Rat).SetString(s)
		q2, ok2 := new(big.Rat).SetString(c)
		if ok1 && ok2 && q1.Cmp(q2) != 0 {
			t.Fatalf("Canonical(%q) = %q changes the value", s, c)
		}
		k, rest, err := DecodeKey(AppendKey(nil, d))
		if err != nil || k != d || len(rest) != 0 {
			t.Fatalf("DecodeKey(AppendKey(%q)) = %v, %v", s, k, err)
		}
		e, err := Parse(u)
		if err != nil {
			return
		}
		if got, want := bytes.Compare(AppendKey(nil, d), AppendKey(nil, e)), Compare(d, e); got != want {
			t.Fatalf("key order (%q, %q) = %d, Compare = %d", s, u, got, want)
		}
		if Compare(d, e) != -Compare(e, d) {
			t.Fatalf("Compare not antisymmetric on %q, %q", s, u)
		}
		sum, err1 := Add(d, e)
		diff, err2 := Sub(sum, e)
		if err1 == nil && err2 == nil && diff != d {
			t.Fatalf("(%q + %q) - %q = %v", s, u, u, diff)
		}
	})
}
