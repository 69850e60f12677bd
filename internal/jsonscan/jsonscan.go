// Package jsonscan skips the plain text of JSON strings eight bytes at a
// time: the bytes that stand for themselves both when a string is decoded
// and when it is encoded as aws-sdk-go-v2 encodes it (printable ASCII but
// '"' and '\\'; DEL, which the encoder escapes, is not plain). Most
// strings of a DynamoDB request or answer are plain through and through,
// so the decoders and the encoder test a word before they test bytes.
package jsonscan

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// Plain returns the first offset at or after i where fewer than eight
// bytes are left or the next eight are not all plain; every byte of s[i:]
// before it is plain. A short string costs one comparison (Plain inlines).
func Plain(s string, i int) int {
	if len(s)-i < 8 {
		return i
	}
	return words(s, i)
}

// PlainBytes is Plain for a byte slice.
func PlainBytes(b []byte, i int) int {
	if len(b)-i < 8 {
		return i
	}
	return wordsBytes(b, i)
}

func words(s string, i int) int {
	for i+8 <= len(s) {
		b := s[i : i+8] // one bounds check: the compiler loads the word at once
		if !plainWord(uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
			uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56) {
			break
		}
		i += 8
	}
	return i
}

func wordsBytes(s []byte, i int) int {
	for i+8 <= len(s) {
		b := s[i : i+8]
		if !plainWord(uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
			uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56) {
			break
		}
		i += 8
	}
	return i
}

// plainWord reports whether every byte of w is plain: none has its high bit
// set or is below 0x20 (the borrow trick finds a byte below n in a word of
// ASCII bytes), and none is DEL, '"' or '\\' (a zero byte of w XOR the
// byte repeated).
func plainWord(w uint64) bool {
	return (w|(w-ones*0x20))&highs == 0 &&
		!hasZero(w^(ones*0x7f)) && !hasZero(w^(ones*'"')) && !hasZero(w^(ones*'\\'))
}

// hasZero reports whether a byte of v is zero.
func hasZero(v uint64) bool { return (v-ones)&^v&highs != 0 }
