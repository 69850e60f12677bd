package codec

import (
	"testing"
	"time"
)

// Every day of the years 0000 to 9999 is dated as the time package dates
// it, and back: civilDate computes by multiplications that no sample of
// days would take through every branch. (TestTimeTextMatchesTimeFormat
// holds the whole text of sampled times.)
func TestCivilDateEveryDay(t *testing.T) {
	first := time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC)
	if first.Unix() != minTimeUnix {
		t.Fatalf("minTimeUnix is %d, want %d", minTimeUnix, first.Unix())
	}
	last := time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)
	n := (last.Unix()-first.Unix())/86400 + 1 // a Duration spans 292 years at most
	if n != 3652425 {
		t.Fatalf("%d days in 10,000 years, want 3,652,425", n)
	}
	for days := range n {
		wy, wm, wd := time.Unix(minTimeUnix+days*86400, 0).UTC().Date()
		y, m, d := civilDate(days)
		if y != wy || m != int(wm) || d != wd {
			t.Fatalf("civilDate(%d) = %04d-%02d-%02d, want %04d-%02d-%02d", days, y, m, d, wy, wm, wd)
		}
		if back := civilDays(y, m, d); back != days {
			t.Fatalf("civilDays(%04d-%02d-%02d) = %d, want %d", y, m, d, back, days)
		}
	}
}
