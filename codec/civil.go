package codec

import (
	"errors"
	"strconv"
	"time"
)

// Date is a civil calendar date, without time or zone. Its text form is
// ISO 8601 "2006-01-02".
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// DateOf returns the date of t in t's location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{y, m, d}
}

// String returns "YYYY-MM-DD".
func (d Date) String() string { return string(d.appendText(nil)) }

func (d Date) appendText(b []byte) []byte {
	b = appendPad(b, d.Year, 4)
	b = append(b, '-')
	b = appendPad(b, int(d.Month), 2)
	b = append(b, '-')
	return appendPad(b, d.Day, 2)
}

// IsValid reports whether d is a real calendar date with a four-digit year.
func (d Date) IsValid() bool {
	return d.Year >= 0 && d.Year <= 9999 && DateOf(d.In(time.UTC)) == d
}

// In returns midnight of d in loc.
func (d Date) In(loc *time.Location) time.Time {
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, loc)
}

// MarshalText implements encoding.TextMarshaler.
func (d Date) MarshalText() ([]byte, error) {
	if !d.IsValid() {
		return nil, errors.New("invalid date: month or day out of range")
	}
	return d.appendText(nil), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Date) UnmarshalText(b []byte) error {
	v, err := ParseDate(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// ParseDate parses "YYYY-MM-DD".
func ParseDate(s string) (Date, error) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return Date{}, errors.New("cannot parse a date: want YYYY-MM-DD")
	}
	y, ok1 := atoiFixed(s[0:4])
	m, ok2 := atoiFixed(s[5:7])
	dd, ok3 := atoiFixed(s[8:10])
	d := Date{y, time.Month(m), dd}
	if !ok1 || !ok2 || !ok3 || !d.IsValid() {
		return Date{}, errors.New("cannot parse a date: want YYYY-MM-DD")
	}
	return d, nil
}

// TimeOfDay is a civil time of day, without date or zone. Its text form is
// "15:04:05" followed by a fraction when Nanosecond is not zero.
type TimeOfDay struct {
	Hour, Minute, Second, Nanosecond int
}

// TimeOfDayOf returns the time of day of t in t's location.
func TimeOfDayOf(t time.Time) TimeOfDay {
	h, m, s := t.Clock()
	return TimeOfDay{h, m, s, t.Nanosecond()}
}

// IsValid reports whether every component is in range.
func (t TimeOfDay) IsValid() bool {
	return t.Hour >= 0 && t.Hour < 24 && t.Minute >= 0 && t.Minute < 60 &&
		t.Second >= 0 && t.Second < 60 && t.Nanosecond >= 0 && t.Nanosecond < 1e9
}

// String returns "HH:MM:SS" with the shortest fraction that keeps the value.
func (t TimeOfDay) String() string { return string(t.appendText(nil, -1)) }

// appendText writes t with digits fraction digits (0, 3, 6, 9), or the
// shortest exact fraction when digits < 0.
func (t TimeOfDay) appendText(b []byte, digits int) []byte {
	b = appendPad(b, t.Hour, 2)
	b = append(b, ':')
	b = appendPad(b, t.Minute, 2)
	b = append(b, ':')
	b = appendPad(b, t.Second, 2)
	return appendFrac(b, t.Nanosecond, digits)
}

// MarshalText implements encoding.TextMarshaler.
func (t TimeOfDay) MarshalText() ([]byte, error) {
	if !t.IsValid() {
		return nil, errors.New("invalid time of day: a part is out of range")
	}
	return t.appendText(nil, -1), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (t *TimeOfDay) UnmarshalText(b []byte) error {
	v, err := ParseTimeOfDay(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// ParseTimeOfDay parses "HH:MM:SS" with an optional fraction of 1 to 9 digits.
func ParseTimeOfDay(s string) (TimeOfDay, error) {
	t, ok := parseClock(s)
	if !ok {
		return TimeOfDay{}, errors.New("cannot parse a time of day: want HH:MM:SS[.fraction]")
	}
	return t, nil
}

func parseClock(s string) (TimeOfDay, bool) {
	if len(s) < 8 || s[2] != ':' || s[5] != ':' {
		return TimeOfDay{}, false
	}
	h, ok1 := atoiFixed(s[0:2])
	m, ok2 := atoiFixed(s[3:5])
	sec, ok3 := atoiFixed(s[6:8])
	if !ok1 || !ok2 || !ok3 {
		return TimeOfDay{}, false
	}
	ns := 0
	if len(s) > 8 {
		f := s[9:]
		if s[8] != '.' || len(f) == 0 || len(f) > 9 {
			return TimeOfDay{}, false
		}
		n, ok := atoiFixed(f)
		if !ok {
			return TimeOfDay{}, false
		}
		for range 9 - len(f) {
			n *= 10
		}
		ns = n
	}
	t := TimeOfDay{h, m, sec, ns}
	return t, t.IsValid()
}

// DateTime is a civil ("naive") date and time, without zone. Its text form
// is "2006-01-02T15:04:05" followed by a fraction when there is one.
type DateTime struct {
	Date Date
	Time TimeOfDay
}

// DateTimeOf returns the civil date and time of t in t's location.
func DateTimeOf(t time.Time) DateTime { return DateTime{DateOf(t), TimeOfDayOf(t)} }

// In returns the instant dt denotes in loc.
func (dt DateTime) In(loc *time.Location) time.Time {
	return time.Date(dt.Date.Year, dt.Date.Month, dt.Date.Day,
		dt.Time.Hour, dt.Time.Minute, dt.Time.Second, dt.Time.Nanosecond, loc)
}

// IsValid reports whether both parts are valid.
func (dt DateTime) IsValid() bool { return dt.Date.IsValid() && dt.Time.IsValid() }

// String returns "YYYY-MM-DDTHH:MM:SS" with the shortest exact fraction.
func (dt DateTime) String() string { return string(dt.appendText(nil, -1)) }

func (dt DateTime) appendText(b []byte, digits int) []byte {
	b = dt.Date.appendText(b)
	b = append(b, 'T')
	return dt.Time.appendText(b, digits)
}

// MarshalText implements encoding.TextMarshaler.
func (dt DateTime) MarshalText() ([]byte, error) {
	if !dt.IsValid() {
		return nil, errors.New("invalid date-time: a part is out of range")
	}
	return dt.appendText(nil, -1), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (dt *DateTime) UnmarshalText(b []byte) error {
	v, err := ParseDateTime(string(b))
	if err != nil {
		return err
	}
	*dt = v
	return nil
}

// ParseDateTime parses "YYYY-MM-DDTHH:MM:SS[.fraction]" (no zone offset).
func ParseDateTime(s string) (DateTime, error) {
	if len(s) < 19 || s[10] != 'T' {
		return DateTime{}, errors.New("cannot parse a date-time: want YYYY-MM-DDTHH:MM:SS[.fraction]")
	}
	d, err := ParseDate(s[:10])
	if err != nil {
		return DateTime{}, errors.New("cannot parse a date-time: want YYYY-MM-DDTHH:MM:SS[.fraction]")
	}
	t, ok := parseClock(s[11:])
	if !ok {
		return DateTime{}, errors.New("cannot parse a date-time: want YYYY-MM-DDTHH:MM:SS[.fraction]")
	}
	return DateTime{d, t}, nil
}

func appendPad(b []byte, n, width int) []byte {
	switch {
	case width == 2 && n >= 0 && n < 100:
		return append(b, byte('0'+n/10), byte('0'+n%10))
	case width == 4 && n >= 0 && n < 10000:
		return append(b, byte('0'+n/1000), byte('0'+n/100%10), byte('0'+n/10%10), byte('0'+n%10))
	}
	if n < 0 {
		b = append(b, '-')
		n = -n
	}
	var buf [20]byte
	s := strconv.AppendInt(buf[:0], int64(n), 10)
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

// appendFrac writes ".fffffffff" cut to digits (0 writes nothing), or the
// shortest exact fraction when digits < 0.
func appendFrac(b []byte, ns, digits int) []byte {
	if digits < 0 {
		if ns == 0 {
			return b
		}
		digits = 9
		for x := ns; x%10 == 0; x /= 10 {
			digits--
		}
	}
	if digits == 0 {
		return b
	}
	var buf [9]byte
	for i, x := 8, ns; i >= 0; i-- {
		buf[i] = byte('0' + x%10)
		x /= 10
	}
	b = append(b, '.')
	return append(b, buf[:digits]...)
}

func atoiFixed(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// parseTimeUTC parses the form this package writes, "YYYY-MM-DDTHH:MM:SS"
// with an optional fraction of 1 to 9 digits and "Z", as time.Parse with
// RFC3339Nano would, without its generality; ok=false for anything else
// (offsets, other forms, out-of-range parts), which time.Parse then reads
// or rejects. The layout is fixed, so its digits are read in place, and
// the fraction's first eight at once.
func parseTimeUTC(s string) (time.Time, bool) {
	n := len(s)
	if n < 20 || n == 21 || n > 30 || s[n-1] != 'Z' ||
		s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' || n > 20 && s[19] != '.' {
		return time.Time{}, false
	}
	d0, d1, d2, d3 := digit(s[0]), digit(s[1]), digit(s[2]), digit(s[3])
	m0, m1, dd0, dd1 := digit(s[5]), digit(s[6]), digit(s[8]), digit(s[9])
	h0, h1, mi0, mi1 := digit(s[11]), digit(s[12]), digit(s[14]), digit(s[15])
	s0, s1 := digit(s[17]), digit(s[18])
	// A digit is 0 to 9, so d|(9-d) is negative exactly for a non-digit.
	if d0|(9-d0)|d1|(9-d1)|d2|(9-d2)|d3|(9-d3)|m0|(9-m0)|m1|(9-m1)|dd0|(9-dd0)|dd1|(9-dd1)|
		h0|(9-h0)|h1|(9-h1)|mi0|(9-mi0)|mi1|(9-mi1)|s0|(9-s0)|s1|(9-s1) < 0 {
		return time.Time{}, false
	}
	y := d0*1000 + d1*100 + d2*10 + d3
	m, d := m0*10+m1, dd0*10+dd1
	hour, minute, sec := h0*10+h1, mi0*10+mi1, s0*10+s1
	if m < 1 || m > 12 || d < 1 || d > daysIn(time.Month(m), y) || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	ns := 0
	if n > 20 {
		f := s[20 : n-1] // 1 to 9 digits
		i := 0
		if len(f) >= 8 {
			x := uint64(f[0]) | uint64(f[1])<<8 | uint64(f[2])<<16 | uint64(f[3])<<24 |
				uint64(f[4])<<32 | uint64(f[5])<<40 | uint64(f[6])<<48 | uint64(f[7])<<56
			v, ok := eightDigits(x)
			if !ok {
				return time.Time{}, false
			}
			ns, i = v, 8
		}
		for ; i < len(f); i++ {
			c := digit(f[i])
			if c|(9-c) < 0 {
				return time.Time{}, false
			}
			ns = ns*10 + c
		}
		ns *= fracScale[len(f)]
	}
	unix := civilDays(y, m, d)*86400 + int64(hour*3600+minute*60+sec) + minTimeUnix
	return time.Unix(unix, int64(ns)).UTC(), true
}

// digit is c's value when c is a decimal digit, and otherwise a number
// outside 0 to 9.
func digit(c byte) int { return int(c) - '0' }

// fracScale[k] turns k fraction digits into nanoseconds.
var fracScale = [10]int{1e9, 1e8, 1e7, 1e6, 1e5, 1e4, 1e3, 100, 10, 1}

// eightDigits reads eight decimal digits packed in x, the first in its
// lowest byte, with three multiplications instead of eight steps
// (ok=false when a byte is not a digit).
func eightDigits(x uint64) (int, bool) {
	// A byte is a digit when its high nibble is 3 and adding 6 keeps it 3.
	if x&0xF0F0F0F0F0F0F0F0|(x+0x0606060606060606)&0xF0F0F0F0F0F0F0F0>>4 != 0x3333333333333333 {
		return 0, false
	}
	x &= 0x0F0F0F0F0F0F0F0F
	x = x * (1 + 10<<8) >> 8 // pairs of digits
	x = (x & 0x00FF00FF00FF00FF) * (1 + 100<<16) >> 16
	x = (x & 0x0000FFFF0000FFFF) * (1 + 10000<<32) >> 32
	return int(x), true
}

// daysIn is the number of days of month m in year y.
func daysIn(m time.Month, y int) int {
	switch m {
	case time.February:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case time.April, time.June, time.September, time.November:
		return 30
	}
	return 31
}
