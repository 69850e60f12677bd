package local

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestHasLoneSurrogate(t *testing.T) {
	for text, want := range map[string]bool{
		`"plain"`: false, `"\ud83d\ude00"`: false, `"\\ud800"`: false, `"\n\"\\"`: false, `"\u00e9"`: false,
		`"\udc00"`: true, `"\ud800"`: true, `"\ud800\u0041"`: true, `"\ud800\\udc00"`: true, `"x\uDBFF`: true,
		`"\u12`: false, `\`: false, `"\ud83d\ude00\udc00"`: true,
	} {
		if got := hasLoneSurrogate([]byte(text)); got != want {
			t.Errorf("hasLoneSurrogate(%s) = %v, want %v", text, got, want)
		}
	}
}

// BenchmarkBodyTextCheck is what the UTF-8 and surrogate checks add to a
// small PutItem (the body of BenchmarkPutItem).
func BenchmarkBodyTextCheck(b *testing.B) {
	body := []byte(`{"TableName":"bench","Item":{"pk":{"S":"k0000001"},"sk":{"S":"s"},"v":{"S":"` + strings.Repeat("v", 100) + `"},"n":{"N":"1"}}}`)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if !utf8.Valid(body) || hasLoneSurrogate(body) {
			b.Fatal("rejected")
		}
	}
}
