package codec

import (
	"strconv"
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

// parseTimeUTCByParts is parseTimeUTC as it was written first, from the
// general parsers of dates and clocks: the reference the straight-line
// version is held to.
func parseTimeUTCByParts(s string) (time.Time, bool) {
	if len(s) < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[len(s)-1] != 'Z' {
		return time.Time{}, false
	}
	y, ok1 := atoiFixed(s[0:4])
	m, ok2 := atoiFixed(s[5:7])
	d, ok3 := atoiFixed(s[8:10])
	c, ok4 := parseClock(s[11 : len(s)-1])
	if !ok1 || !ok2 || !ok3 || !ok4 || m < 1 || m > 12 || d < 1 || d > daysIn(time.Month(m), y) {
		return time.Time{}, false
	}
	sec := civilDays(y, m, d)*86400 + int64(c.Hour*3600+c.Minute*60+c.Second) + minTimeUnix
	return time.Unix(sec, int64(c.Nanosecond)).UTC(), true
}

// checkParseTimeUTC holds parseTimeUTC to its reference, and what it accepts
// to time.Parse.
func checkParseTimeUTC(t *testing.T, s string) (accepted bool) {
	t.Helper()
	got, ok := parseTimeUTC(s)
	want, wantOK := parseTimeUTCByParts(s)
	if ok != wantOK || !got.Equal(want) || got.Location() != want.Location() {
		t.Fatalf("parseTimeUTC(%q) = %v, %v; the reference %v, %v", s, got, ok, want, wantOK)
	}
	if ok {
		std, err := time.Parse(time.RFC3339Nano, s)
		if err != nil || !std.Equal(got) {
			t.Fatalf("parseTimeUTC(%q) = %v; time.Parse %v, %v", s, got, std, err)
		}
	}
	return ok
}

// The fast time parser accepts and rejects exactly what the general one
// did, over the edges of every part and every single-byte change of them:
// a rejected text goes on to time.Parse, so agreeing on rejection keeps
// every error as it was.
func TestParseTimeUTCMatchesReference(t *testing.T) {
	valid := []string{
		"2024-01-15T10:00:00Z",
		"2024-01-15T10:00:00.123456789Z",
		"2024-02-29T23:59:59.999999999Z",
		"2023-02-28T00:00:00.5Z",
		"2000-02-29T12:34:56.12345678Z",
		"1900-02-28T01:02:03.1234567Z",
		"0000-01-01T00:00:00.000000000Z",
		"9999-12-31T23:59:59.999999999Z",
		"1970-01-01T00:00:00.000001Z",
		"2024-12-31T08:09:10.010Z",
		"2024-04-30T19:29:39.9Z",
	}
	for _, s := range valid {
		if !checkParseTimeUTC(t, s) {
			t.Fatalf("%q rejected", s)
		}
		for i := range len(s) {
			for c := range 256 {
				b := []byte(s)
				b[i] = byte(c)
				checkParseTimeUTC(t, string(b))
			}
			checkParseTimeUTC(t, s[:i])                     // cut short
			checkParseTimeUTC(t, s[:i]+s[i+1:])             // a byte left out
			checkParseTimeUTC(t, s[:i]+"0"+s[i:])           // a digit more
			checkParseTimeUTC(t, s[:len(s)-1]+s[i:i+1]+"Z") // a longer fraction
		}
	}
	// Every month's last day and the next, in leap and common years;
	// every hour, minute and second at the edge.
	for _, y := range []string{"1900", "2000", "2023", "2024", "0004"} {
		for m := 1; m <= 13; m++ {
			for _, d := range []string{"00", "01", "28", "29", "30", "31", "32"} {
				checkParseTimeUTC(t, y+"-"+twoDigits(m)+"-"+d+"T00:00:00Z")
			}
		}
	}
	for _, clock := range []string{"23:59:59", "24:00:00", "00:60:00", "00:00:60", "19:59:59", "20:00:00"} {
		checkParseTimeUTC(t, "2024-01-15T"+clock+"Z")
		checkParseTimeUTC(t, "2024-01-15T"+clock+".000000001Z")
	}
	// Fractions of every length, with every digit in every place.
	for k := 1; k <= 10; k++ {
		for p := range k {
			for c := '0'; c <= '9'; c++ {
				f := []byte("0000000000"[:k])
				f[p] = byte(c)
				checkParseTimeUTC(t, "2024-01-15T10:00:00."+string(f)+"Z")
			}
		}
	}
}

func twoDigits(n int) string { return string([]byte{byte('0' + n/10), byte('0' + n%10)}) }

// eightDigits reads every group of eight digits as strconv does; a sample
// of them, with every byte in every place.
func TestEightDigits(t *testing.T) {
	pack := func(s string) uint64 {
		var x uint64
		for i := range 8 {
			x |= uint64(s[i]) << (8 * i)
		}
		return x
	}
	for _, s := range []string{"00000000", "99999999", "12345678", "87654321", "00000001", "10000000", "09090909"} {
		for i := range 8 {
			for c := range 256 {
				b := []byte(s)
				b[i] = byte(c)
				got, ok := eightDigits(pack(string(b)))
				want, err := strconv.Atoi(string(b))
				wantOK := err == nil && b[0] != '+' && b[0] != '-'
				if ok != wantOK || ok && got != want {
					t.Fatalf("eightDigits(%q) = %d, %v; want %d, %v", b, got, ok, want, wantOK)
				}
			}
		}
	}
}

// Any text, not only the edges above: the fast parser agrees with its
// reference, and with time.Parse wherever it accepts.
func FuzzParseTimeUTC(f *testing.F) {
	for _, s := range []string{"2024-01-15T10:00:00Z", "2024-02-29T23:59:59.999999999Z", "0000-01-01T00:00:00.5Z", "2024-01-15T10:00:00+01:00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkParseTimeUTC(t, s) })
}
