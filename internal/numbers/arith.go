package numbers

import "math/big"

// Add returns a+b exactly. As in DynamoDB's update expressions, a result that needs more than
// 38 significant digits, or whose magnitude exceeds 9.99…E+125, is an Overflow error (DynamoDB
// says "Number overflow" for both); a nonzero result below 1E-130 is an Underflow error.
func Add(a, b Dec) (Dec, error) {
	switch {
	case a.nd == 0:
		return b, nil
	case b.nd == 0:
		return a, nil
	}
	// Align both coefficients on the smaller exponent. When the scaled values stay below 2^127
	// the sum fits in 128 bits; otherwise fall back to math/big (rare: the operands are more
	// than ~38 orders of magnitude apart, and the exact result is then usually too precise).
	e := min(a.exp, b.exp)
	ca, oa := u128{a.hi, a.lo}.mulPow10(int(a.exp - e))
	cb, ob := u128{b.hi, b.lo}.mulPow10(int(b.exp - e))
	if oa || ob || ca.hi>>63 != 0 || cb.hi>>63 != 0 {
		return addBig(a, b)
	}
	var c u128
	neg := a.neg
	if a.neg == b.neg {
		c, _ = c.add(ca)
		c, _ = c.add(cb)
	} else {
		switch ca.cmp(cb) {
		case 0:
			return Dec{}, nil
		case 1:
			c = ca.sub(cb)
		default:
			c = cb.sub(ca)
			neg = b.neg
		}
	}
	return checked(c, int(e), neg)
}

// Sub returns a-b exactly, with Add's errors.
func Sub(a, b Dec) (Dec, error) { return Add(a, b.Neg()) }

// checked normalizes an arithmetic result and applies DynamoDB's limits to it.
func checked(c u128, exp int, neg bool) (Dec, error) {
	if c.isZero() {
		return Dec{}, nil
	}
	for {
		q, r := c.divmod(10)
		if r != 0 {
			break
		}
		c = q
		exp++
	}
	nd := c.digits()
	mag := exp + nd - 1
	switch {
	case nd > MaxDigits || mag > MaxExponent:
		return Dec{}, errOverflow
	case mag < MinExponent:
		return Dec{}, errUnderflow
	}
	return Dec{hi: c.hi, lo: c.lo, exp: int16(exp), nd: uint8(nd), neg: neg}, nil
}

func (d Dec) bigCoef() *big.Int {
	var b big.Int
	b.SetUint64(d.hi)
	b.Lsh(&b, 64)
	b.Or(&b, new(big.Int).SetUint64(d.lo))
	if d.neg {
		b.Neg(&b)
	}
	return &b
}

var bigTen = big.NewInt(10)

func bigPow10(k int) *big.Int {
	return new(big.Int).Exp(bigTen, big.NewInt(int64(k)), nil)
}

// addBig is Add for operands far apart in magnitude. The exponents are bounded (−167…125), so
// the intermediate has at most ~330 digits.
func addBig(a, b Dec) (Dec, error) {
	e := min(a.exp, b.exp)
	x := a.bigCoef()
	x.Mul(x, bigPow10(int(a.exp-e)))
	y := b.bigCoef()
	y.Mul(y, bigPow10(int(b.exp-e)))
	x.Add(x, y)
	return fromBig(x, int(e))
}

// fromBig converts v·10^exp to a Dec, with checked's limits.
func fromBig(v *big.Int, exp int) (Dec, error) {
	if v.Sign() == 0 {
		return Dec{}, nil
	}
	neg := v.Sign() < 0
	m := new(big.Int).Abs(v)
	var r big.Int
	for {
		q, rem := new(big.Int).QuoRem(m, bigTen, &r)
		if rem.Sign() != 0 {
			break
		}
		m = q
		exp++
	}
	if m.BitLen() > 127 {
		return Dec{}, errOverflow // ≥ 2^127 > 10^38: more than 38 digits
	}
	var c u128
	buf := make([]byte, 16)
	m.FillBytes(buf)
	for i := range 8 {
		c.hi = c.hi<<8 | uint64(buf[i])
		c.lo = c.lo<<8 | uint64(buf[8+i])
	}
	return checked(c, exp, neg)
}
