package jsonscan

import (
	"strings"
	"testing"
)

// Plain stops exactly at the first word holding a byte that is not plain,
// for every byte value at every position of a word.
func TestPlain(t *testing.T) {
	plain := func(c byte) bool { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\' }
	base := strings.Repeat("a", 24)
	for c := range 256 {
		for pos := range 24 {
			b := []byte(base)
			b[pos] = byte(c)
			want := 24
			if !plain(byte(c)) {
				want = pos / 8 * 8
			}
			if got := PlainBytes(b, 0); got != want {
				t.Fatalf("byte %#x at %d: Plain = %d, want %d", c, pos, got, want)
			}
			if got := Plain(string(b), 0); got != want {
				t.Fatalf("byte %#x at %d: Plain(string) = %d, want %d", c, pos, got, want)
			}
		}
	}
	// Plain bytes next to every other value, as the borrow of one byte's
	// subtraction reaches the next.
	for c := range 256 {
		for d := range 256 {
			w := uint64(c) | uint64(d)<<8 | uint64(0x41414141_4141)<<16
			if got, want := plainWord(w), plain(byte(c)) && plain(byte(d)); got != want {
				t.Fatalf("bytes %#x %#x: plainWord = %v, want %v", c, d, got, want)
			}
		}
	}
	if got := Plain("short", 0); got != 0 {
		t.Fatalf("Plain(short) = %d, want 0", got)
	}
	if got := Plain("0123456789abcdefXYZ", 3); got != 19 {
		t.Fatalf("Plain from 3 = %d, want 19", got)
	}
}

func BenchmarkPlain(b *testing.B) {
	s := strings.Repeat("v", 100)
	for b.Loop() {
		Plain(s, 0)
	}
}
