package numbers

import "math/bits"

// u128 is an unsigned 128-bit integer; 10^38 < 2^127, so every coefficient fits.
type u128 struct{ hi, lo uint64 }

// pow10 holds 10^0 … 10^38.
var pow10 = func() (t [MaxDigits + 1]u128) {
	t[0] = u128{0, 1}
	for i := 1; i < len(t); i++ {
		t[i], _ = t[i-1].mul64(10)
	}
	return t
}()

func (a u128) isZero() bool { return a.hi|a.lo == 0 }

func (a u128) cmp(b u128) int {
	switch {
	case a.hi < b.hi:
		return -1
	case a.hi > b.hi:
		return 1
	case a.lo < b.lo:
		return -1
	case a.lo > b.lo:
		return 1
	}
	return 0
}

// mul64 returns a·m and whether it overflowed 128 bits.
func (a u128) mul64(m uint64) (u128, bool) {
	h0, l0 := bits.Mul64(a.lo, m)
	h1, l1 := bits.Mul64(a.hi, m)
	hi, carry := bits.Add64(h0, l1, 0)
	return u128{hi, l0}, h1 != 0 || carry != 0
}

// mulPow10 returns a·10^k (0 ≤ k ≤ 38) and whether it overflowed 128 bits.
func (a u128) mulPow10(k int) (u128, bool) {
	if k == 0 || a.isZero() {
		return a, false
	}
	if k > MaxDigits {
		return u128{}, true
	}
	p := pow10[k]
	if p.hi == 0 {
		return a.mul64(p.lo)
	}
	if a.hi != 0 {
		return u128{}, true
	}
	// a < 2^64, p ≥ 2^64: a·p = a·p.lo + (a·p.hi)<<64.
	h0, l0 := bits.Mul64(a.lo, p.lo)
	h1, l1 := bits.Mul64(a.lo, p.hi)
	hi, carry := bits.Add64(h0, l1, 0)
	return u128{hi, l0}, h1 != 0 || carry != 0
}

func (a u128) add(b u128) (u128, bool) {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	hi, c := bits.Add64(a.hi, b.hi, c)
	return u128{hi, lo}, c != 0
}

// sub returns a-b for a ≥ b.
func (a u128) sub(b u128) u128 {
	lo, borrow := bits.Sub64(a.lo, b.lo, 0)
	hi, _ := bits.Sub64(a.hi, b.hi, borrow)
	return u128{hi, lo}
}

// divmod returns a/m and a%m.
func (a u128) divmod(m uint64) (u128, uint64) {
	qhi, r := a.hi/m, a.hi%m
	qlo, r := bits.Div64(r, a.lo, m)
	return u128{qhi, qlo}, r
}

// digits returns the number of decimal digits of a > 0 (at most 39).
func (a u128) digits() int {
	n := 128 - bits.LeadingZeros64(a.hi)
	if a.hi == 0 {
		n = 64 - bits.LeadingZeros64(a.lo)
	}
	t := n * 1233 >> 12 // ≈ n·log10(2): the digit count is t or t+1
	if t >= len(pow10) {
		return t + 1 // only for values ≥ 10^38·… never held in a Dec
	}
	if a.cmp(pow10[t]) >= 0 {
		return t + 1
	}
	return t
}
