package numbers

import (
	"bytes"
	"math/big"
	"testing"
)

func FuzzParse(f *testing.F) {
	for _, s := range []string{"0", "-0", "1.50", "0100", "1E+2", "+.5", "5.", "1.2.3", "", ".", "+", "NaN",
		"Infinity", "0x10", "1e-130", "9.9999999999999999999999999999999999999E+125", "1e126", "1e-131",
		"123456789012345678901234567890123456789", "0e99999", "-12.345e-67"} {
		f.Add(s, "1")
	}
	f.Fuzz(func(t *testing.T, s, u string) {
		d, err := Parse(s)
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
