package numbers

// Key encoding (AppendKey): an order-preserving, self-delimiting byte form of a Dec, so that
// bytes.Compare on encodings agrees with Compare on numbers, and an encoding can be followed by
// other bytes (composite storage keys) without changing the order.
//
//	negative: 0x01, ^(magnitude+130), ^(digit pairs…), 0xFF
//	zero:     0x02
//	positive: 0x03, magnitude+130, digit pairs…, 0x00
//
// magnitude+130 is the power of ten of the leading digit shifted to 0…255 (the whole DynamoDB
// range fits one byte). The coefficient's digits are packed two per byte as 1+10·d1+d2 (1…100;
// an odd last digit is paired with 0), then a terminator below every pair byte. Canonical
// coefficients have no trailing zeros, so a shorter digit string that is a prefix of a longer
// one is the smaller number, and the terminator sorts it first. Negatives complement every byte
// after the tag, reversing the order. At most 22 bytes.
const (
	keyNeg  = 0x01
	keyZero = 0x02
	keyPos  = 0x03

	// MaxKeyLen is the longest encoding AppendKey produces.
	MaxKeyLen = 1 + 1 + (MaxDigits+1)/2 + 1
)

// AppendKey appends the order-preserving encoding of d to dst:
// bytes.Compare(AppendKey(nil, a), AppendKey(nil, b)) == Compare(a, b).
func AppendKey(dst []byte, d Dec) []byte {
	if d.nd == 0 {
		return append(dst, keyZero)
	}
	var flip byte
	tag := byte(keyPos)
	if d.neg {
		flip, tag = 0xFF, keyNeg
	}
	dst = append(dst, tag, byte(d.magnitude()-MinExponent)^flip)
	var buf [40]byte
	digits := d.coefDigits(buf[:0])
	for i := 0; i < len(digits); i += 2 {
		p := 10 * (digits[i] - '0')
		if i+1 < len(digits) {
			p += digits[i+1] - '0'
		}
		dst = append(dst, (1+p)^flip)
	}
	return append(dst, flip)
}

// DecodeKey reads one AppendKey encoding from the front of b and returns the number and the
// bytes that follow it.
func DecodeKey(b []byte) (d Dec, rest []byte, err error) {
	bad := &Error{Reason: Invalid, Msg: "numbers: malformed key encoding"}
	if len(b) == 0 {
		return Dec{}, nil, bad
	}
	var flip byte
	switch b[0] {
	case keyZero:
		return Dec{}, b[1:], nil
	case keyPos:
	case keyNeg:
		flip = 0xFF
	default:
		return Dec{}, nil, bad
	}
	if len(b) < 3 {
		return Dec{}, nil, bad
	}
	mag := int(b[1]^flip) + MinExponent
	var c u128
	nd := 0
	i := 2
	for ; ; i++ {
		if i >= len(b) {
			return Dec{}, nil, bad
		}
		p := b[i] ^ flip
		if p == 0 {
			break
		}
		if p > 100 || nd >= MaxDigits {
			return Dec{}, nil, bad
		}
		p--
		c, _ = c.mul64(100)
		c, _ = c.add(u128{0, uint64(p)})
		nd += 2
	}
	if nd == 0 {
		return Dec{}, nil, bad
	}
	// nd counts the padded digit; normalize strips it (and rejects nothing else: a well-formed
	// encoding has no other trailing zeros).
	v := normalize(c, mag-nd+1, flip != 0)
	if v.magnitude() != mag || AppendKeyLen(v) != i+1 {
		return Dec{}, nil, bad
	}
	return v, b[i+1:], nil
}

// AppendKeyLen returns len(AppendKey(nil, d)).
func AppendKeyLen(d Dec) int {
	if d.nd == 0 {
		return 1
	}
	return 2 + (int(d.nd)+1)/2 + 1
}
