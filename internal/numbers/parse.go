package numbers

// Parse reads a number in DynamoDB's syntax: an optional sign, digits with an optional
// fraction (either side of the point may be empty, not both), and an optional exponent
// "e"/"E" with an optional sign and at least one digit. Leading and trailing zeros are not
// significant; no spaces, hex, "Infinity" or "NaN". Zero is accepted with any exponent
// ("0e1000").
//
// Errors are *Error with DynamoDB's ValidationException text. When a number is out of range in
// several ways, the magnitude is reported before the precision, as DynamoDB does.
func Parse(s string) (Dec, error) {
	i, n := 0, len(s)
	if n == 0 {
		return Dec{}, errEmpty
	}
	neg := false
	if s[0] == '+' || s[0] == '-' {
		neg = s[0] == '-'
		i++
	}

	var (
		c         u128
		ndigits   int  // mantissa digits seen, point excluded
		point     = -1 // digits before the point
		first     = -1 // index of the first nonzero digit
		last      = -1 // index of the last nonzero digit
		tooManySD bool
	)
	for ; i < n; i++ {
		ch := s[i]
		if ch == '.' {
			if point >= 0 {
				return Dec{}, invalid(s)
			}
			point = ndigits
			continue
		}
		if ch < '0' || ch > '9' {
			break
		}
		if ch != '0' {
			switch {
			case first < 0:
				first = ndigits
				c = u128{0, uint64(ch - '0')}
			case !tooManySD:
				if ndigits-first+1 > MaxDigits {
					tooManySD = true
					break
				}
				c, _ = c.mulPow10(ndigits - last) // stays below 10^38
				c, _ = c.add(u128{0, uint64(ch - '0')})
			}
			last = ndigits
		}
		ndigits++
	}
	if ndigits == 0 {
		return Dec{}, invalid(s)
	}
	if point < 0 {
		point = ndigits
	}

	var e int64
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := false
		if i < n && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		start := i
		for ; i < n && s[i] >= '0' && s[i] <= '9'; i++ {
			if e < 1e12 { // saturate: anything this large is out of range anyway
				e = e*10 + int64(s[i]-'0')
			}
		}
		if i == start {
			return Dec{}, invalid(s)
		}
		if eneg {
			e = -e
		}
	}
	if i != n {
		return Dec{}, invalid(s)
	}
	if first < 0 {
		return Dec{}, nil
	}

	mag := int64(point) - 1 - int64(first) + e
	switch {
	case mag > MaxExponent:
		return Dec{}, errOverflow
	case mag < MinExponent:
		return Dec{}, errUnderflow
	case tooManySD:
		return Dec{}, errTooPrecise
	}
	exp := int64(point) - 1 - int64(last) + e
	return Dec{hi: c.hi, lo: c.lo, exp: int16(exp), nd: uint8(last - first + 1), neg: neg}, nil
}

// MustParse is Parse for constants in tests and package variables; it panics on error.
func MustParse(s string) Dec {
	d, err := Parse(s)
	if err != nil {
		panic("numbers: " + err.Error())
	}
	return d
}

// Valid reports whether DynamoDB accepts s as a number.
func Valid(s string) bool {
	_, err := Parse(s)
	return err == nil
}
