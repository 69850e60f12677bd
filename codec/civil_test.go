package codec_test

import (
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/dynamogo/dynamo/codec"
)

func TestCivilParse(t *testing.T) {
	good := []struct {
		in, out string
	}{
		{"2024-02-29", "2024-02-29"},
		{"0001-01-01", "0001-01-01"},
	}
	for _, g := range good {
		d, err := codec.ParseDate(g.in)
		if err != nil || d.String() != g.out {
			t.Errorf("ParseDate(%q) = %v, %v", g.in, d, err)
		}
	}
	for _, bad := range []string{"", "2023-02-29", "2024-13-01", "2024-1-01", "24-01-01", "2024/01/01", "2024-01-01T00:00:00"} {
		if _, err := codec.ParseDate(bad); err == nil {
			t.Errorf("ParseDate(%q) accepted", bad)
		}
	}
	clocks := []struct {
		in  string
		out codec.TimeOfDay
	}{
		{"00:00:00", codec.TimeOfDay{}},
		{"23:59:59.999999999", codec.TimeOfDay{Hour: 23, Minute: 59, Second: 59, Nanosecond: 999999999}},
		{"12:30:00.1", codec.TimeOfDay{Hour: 12, Minute: 30, Nanosecond: 1e8}},
	}
	for _, c := range clocks {
		got, err := codec.ParseTimeOfDay(c.in)
		if err != nil || got != c.out {
			t.Errorf("ParseTimeOfDay(%q) = %v, %v", c.in, got, err)
		}
		if got.String() != c.in {
			t.Errorf("String() = %q, want %q", got.String(), c.in)
		}
	}
	for _, bad := range []string{"24:00:00", "12:60:00", "12:00:60", "12:00", "12:00:00.", "12:00:00.1234567890", "12:00:00Z", "1:00:00"} {
		if _, err := codec.ParseTimeOfDay(bad); err == nil {
			t.Errorf("ParseTimeOfDay(%q) accepted", bad)
		}
	}
	dt, err := codec.ParseDateTime("2024-06-01T08:00:00.5")
	if err != nil || dt.String() != "2024-06-01T08:00:00.5" || !dt.In(time.UTC).Equal(time.Date(2024, 6, 1, 8, 0, 0, 5e8, time.UTC)) {
		t.Errorf("ParseDateTime = %v, %v", dt, err)
	}
	for _, bad := range []string{"2024-06-01 08:00:00", "2024-06-01T08:00:00Z", "2024-06-01T08:00:00+02:00", "2024-06-01"} {
		if _, err := codec.ParseDateTime(bad); err == nil {
			t.Errorf("ParseDateTime(%q) accepted", bad)
		}
	}
}

func TestCivilText(t *testing.T) {
	var d codec.Date
	if err := d.UnmarshalText([]byte("1999-12-31")); err != nil || d != (codec.Date{Year: 1999, Month: 12, Day: 31}) {
		t.Fatalf("UnmarshalText = %v, %v", d, err)
	}
	if b, err := d.MarshalText(); err != nil || string(b) != "1999-12-31" {
		t.Errorf("MarshalText = %s, %v", b, err)
	}
	if _, err := (codec.Date{Year: 2023, Month: 2, Day: 30}).MarshalText(); err == nil {
		t.Error("invalid date marshalled")
	}
	var tod codec.TimeOfDay
	if err := tod.UnmarshalText([]byte("07:08:09.010")); err != nil || tod.Nanosecond != 1e7 {
		t.Fatalf("TimeOfDay UnmarshalText = %v, %v", tod, err)
	}
	if b, _ := tod.MarshalText(); string(b) != "07:08:09.01" {
		t.Errorf("TimeOfDay MarshalText = %s", b)
	}
	var dt codec.DateTime
	if err := dt.UnmarshalText([]byte("2000-01-01T00:00:00")); err != nil {
		t.Fatal(err)
	}
	if b, _ := dt.MarshalText(); string(b) != "2000-01-01T00:00:00" {
		t.Errorf("DateTime MarshalText = %s", b)
	}
	if got := codec.DateTimeOf(time.Date(2020, 5, 6, 7, 8, 9, 0, time.UTC)); got.String() != "2020-05-06T07:08:09" {
		t.Errorf("DateTimeOf = %s", got)
	}
}

// Precision is enforced for civil times as for time.Time.
func TestCivilPrecision(t *testing.T) {
	type T struct {
		At codec.TimeOfDay `dynamo:"at"`
	}
	_, err := codec.MarshalItem(T{At: codec.TimeOfDay{Hour: 1, Nanosecond: 1}})
	if err == nil || err.Error() != "dynamo: T.at: time of day is finer than precision=s (refusing to truncate)" {
		t.Errorf("err = %v", err)
	}
}

// Plans are built once even when many goroutines ask at the same time.
func TestStructOfConcurrent(t *testing.T) {
	type fresh struct {
		A string                `dynamo:"a"`
		B []map[string]*float64 `dynamo:"b"`
	}
	var wg sync.WaitGroup
	plans := make([]*codec.Struct, 8)
	for i := range plans {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := codec.StructOf(reflect.TypeFor[fresh]())
			if err != nil {
				t.Error(err)
			}
			plans[i] = s
			if _, err := codec.MarshalItem(fresh{A: "x"}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for _, p := range plans {
		if p != plans[0] {
			t.Fatal("two plans for one type")
		}
	}
}

func FuzzParseCivil(f *testing.F) {
	for _, s := range []string{"2024-02-29", "23:59:59.5", "2024-01-02T03:04:05.123456789", "0000-00-00", "99:99:99"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d, err := codec.ParseDate(s); err == nil {
			if d2, err := codec.ParseDate(d.String()); err != nil || d2 != d {
				t.Fatalf("date %q: %v %v", s, d2, err)
			}
		}
		if c, err := codec.ParseTimeOfDay(s); err == nil {
			if c2, err := codec.ParseTimeOfDay(c.String()); err != nil || c2 != c {
				t.Fatalf("time %q: %v %v", s, c2, err)
			}
		}
		if dt, err := codec.ParseDateTime(s); err == nil {
			if dt2, err := codec.ParseDateTime(dt.String()); err != nil || dt2 != dt {
				t.Fatalf("date-time %q: %v %v", s, dt2, err)
			}
		}
	})
}

// FuzzNumberText loads arbitrary N text into every numeric kind: no panic,
// and whatever loads into any and re-encodes keeps its value.
func FuzzNumberText(f *testing.F) {
	for _, s := range []string{"0", "-1.5E+3", "1e-130", "9.9999999999999999999999999999999999999E+125", "00.100", "+7", "1E+99999999", ".5", "5."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		av := N(s)
		var (
			i   int64
			u   uint32
			fl  float64
			num codec.Number
			a   any
		)
		_ = codec.Unmarshal(av, &i)
		_ = codec.Unmarshal(av, &u)
		_ = codec.Unmarshal(av, &fl)
		_ = codec.Unmarshal(av, &num)
		var dd struct {
			D codec.Set[float64] `dynamo:"d"`
		}
		_ = codec.Unmarshal(NS(s, s), &dd.D)
		if err := codec.Unmarshal(av, &a); err != nil {
			return
		}
		back, err := codec.Marshal(a)
		if err != nil {
			return // e.g. out of DynamoDB's range
		}
		var again any
		if err := codec.Unmarshal(back, &again); err != nil || !reflect.DeepEqual(again, a) {
			t.Fatalf("%q → %#v → %s → %#v (%v)", s, a, js(back), again, err)
		}
	})
}
