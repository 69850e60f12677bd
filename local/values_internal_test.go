package local

import (
	"testing"

	"github.com/dynamogo/dynamo/internal/numbers"
)

func TestNumberSizeFastPath(t *testing.T) {
	for _, s := range []string{"0", "1", "-1", "10", "100", "123", "1234", "0.5", "-0.001", "1.5", "12345678901234567890123456789012345678",
		"100.001", "-98765.4321", "1E+2", "1.5e-10", "99999999999999999999999999999999999999E+88"} {
		d, err := numbers.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, form := range []string{s, d.String()} {
			if got, want := numberSize(form), d.Size(); got != want {
				t.Errorf("numberSize(%s) = %d, want %d", form, got, want)
			}
		}
	}
}
