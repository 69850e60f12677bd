package numbers

import (
	"bytes"
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestParseCanonical(t *testing.T) {
	tests := []struct{ in, want string }{
		{"0", "0"},
		{"-0", "0"},
		{"+0", "0"},
		{"0.0", "0"},
		{"+0.0", "0"},
		{"000", "0"},
		{"0e1000", "0"},
		{"0e-99999999999999999999", "0"},
		{".0", "0"},
		{"0.", "0"},
		{"1", "1"},
		{"+5", "5"},
		{"5.", "5"},
		{"+.5", "0.5"},
		{".123", "0.123"},
		{"-.5", "-0.5"},
		{"1.50", "1.5"},
		{"0100", "100"},
		{"0001.23", "1.23"},
		{"1E+2", "100"},
		{"1e2", "100"},
		{"+1e2", "100"},
		{"1e+5", "100000"},
		{"-17e5", "-1700000"},
		{"-17.4E37", "-174000000000000000000000000000000000000"},
		{"-7.1234", "-7.1234"},
		{"12e-3", "0.012"},
		{"1.23E10", "12300000000"},
		{"-5.5E-50", "-0.000000000000000000000000000000000000000000000000055"},
		{"100.000", "100"},
		{"1000e-3", "1"},
		{"123.456e1", "1234.56"},
		{"123.456e-1", "12.3456"},
		{"123.456e3", "123456"},
		{"123.456e4", "1234560"},
		{"-00042", "-42"},
		{"9223372036854775807", "9223372036854775807"},
		{"18446744073709551616", "18446744073709551616"},
		// 38 significant digits, in every position.
		{"12345678901234567890123456789012345678", "12345678901234567890123456789012345678"},
		{"3.1415926535897932384626433832795028841", "3.1415926535897932384626433832795028841"},
		{"314159265358979323846.26433832795028841", "314159265358979323846.26433832795028841"},
		{"31415926535897932384626433832795028841e30", "31415926535897932384626433832795028841" + strings.Repeat("0", 30)},
		{"99999999999999999999999999999999999999", "99999999999999999999999999999999999999"},
		// Trailing and leading zeros do not count.
		{strings.Repeat("1", 38) + strings.Repeat("0", 88), strings.Repeat("1", 38) + strings.Repeat("0", 88)},
		{"0.000" + strings.Repeat("7", 38) + "000", "0.000" + strings.Repeat("7", 38)},
		{"000000000000000000000000000000000000000001", "1"},
		// The range limits.
		{"1e125", "1" + strings.Repeat("0", 125)},
		{"9.9999999999999999999999999999999999999E+125", strings.Repeat("9", 38) + strings.Repeat("0", 88)},
		{"-9.9999999999999999999999999999999999999E+125", "-" + strings.Repeat("9", 38) + strings.Repeat("0", 88)},
		{"1e-130", "0." + strings.Repeat("0", 129) + "1"},
		{"-1E-130", "-0." + strings.Repeat("0", 129) + "1"},
		{"10e-131", "0." + strings.Repeat("0", 129) + "1"},
		{"0.1e126", "1" + strings.Repeat("0", 125)},
	}
	for _, tt := range tests {
		d, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if got := d.String(); got != tt.want {
			t.Errorf("Parse(%q).String() = %q, want %q", tt.in, got, tt.want)
		}
		if got := len(d.String()); got != d.textLen() {
			t.Errorf("textLen(%q) = %d, want %d", tt.in, d.textLen(), got)
		}
		if c, err := Canonical(tt.in); err != nil || c != tt.want {
			t.Errorf("Canonical(%q) = %q, %v", tt.in, c, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	long := strings.Repeat("1", 39)
	tests := []struct {
		in     string
		reason Reason
		msg    string
	}{
		{"", Invalid, "The parameter cannot be converted to a numeric value"},
		{"abc", Invalid, "The parameter cannot be converted to a numeric value: abc"},
		{"b", Invalid, "The parameter cannot be converted to a numeric value: b"},
		{"1.2.3", Invalid, "The parameter cannot be converted to a numeric value: 1.2.3"},
		{".", Invalid, MsgInvalid + ": ."},
		{"+", Invalid, MsgInvalid + ": +"},
		{"-", Invalid, MsgInvalid + ": -"},
		{"++5", Invalid, MsgInvalid + ": ++5"},
		{"+-5", Invalid, MsgInvalid + ": +-5"},
		{"1+2", Invalid, MsgInvalid + ": 1+2"},
		{"+e2", Invalid, MsgInvalid + ": +e2"},
		{"e2", Invalid, MsgInvalid + ": e2"},
		{".e2", Invalid, MsgInvalid + ": .e2"},
		{"1e", Invalid, MsgInvalid + ": 1e"},
		{"1e+", Invalid, MsgInvalid + ": 1e+"},
		{"1e2.5", Invalid, MsgInvalid + ": 1e2.5"},
		{"1e2e3", Invalid, MsgInvalid + ": 1e2e3"},
		{" 5", Invalid, MsgInvalid + ":  5"},
		{"5 ", Invalid, MsgInvalid + ": 5 "},
		{"NaN", Invalid, MsgInvalid + ": NaN"},
		{"-NaN", Invalid, MsgInvalid + ": -NaN"},
		{"Infinity", Invalid, MsgInvalid + ": Infinity"},
		{"-Infinity", Invalid, MsgInvalid + ": -Infinity"},
		{"inf", Invalid, MsgInvalid + ": inf"},
		{"0x10", Invalid, MsgInvalid + ": 0x10"},
		{"1_000", Invalid, MsgInvalid + ": 1_000"},
		{"1,5", Invalid, MsgInvalid + ": 1,5"},
		{"١", Invalid, MsgInvalid + ": ١"},
		{long, TooPrecise, "Attempting to store more than 38 significant digits in a Number"},
		{"-1.23456789012345678901234567890123456789", TooPrecise, MsgTooPrecise},
		{"3.14159265358979323846264338327950288419", TooPrecise, MsgTooPrecise},
		{"314159265358979323846264338327950288419e30", TooPrecise, MsgTooPrecise},
		{"1" + strings.Repeat("0", 37) + "1", TooPrecise, MsgTooPrecise},
		{"1e126", Overflow, "Number overflow. Attempting to store a number with magnitude larger than supported range"},
		{"-1e126", Overflow, MsgOverflow},
		{"11e125", Overflow, MsgOverflow},
		{"1e99999999999999999999999", Overflow, MsgOverflow},
		{long + "e200", Overflow, MsgOverflow},
		{"1e-131", Underflow, "Number underflow. Attempting to store a number with magnitude smaller than supported range"},
		{"-1e-131", Underflow, MsgUnderflow},
		{"0.9e-130", Underflow, MsgUnderflow},
		{"1e-99999999999999999999999", Underflow, MsgUnderflow},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		var ne *Error
		if !errors.As(err, &ne) {
			t.Errorf("Parse(%q) error = %v, want *Error", tt.in, err)
			continue
		}
		if ne.Reason != tt.reason || ne.Msg != tt.msg || err.Error() != tt.msg {
			t.Errorf("Parse(%q) = {%d %q}, want {%d %q}", tt.in, ne.Reason, ne.Msg, tt.reason, tt.msg)
		}
		if Valid(tt.in) {
			t.Errorf("Valid(%q) = true", tt.in)
		}
	}
}

func TestCompareTable(t *testing.T) {
	ordered := []string{
		"-9.9999999999999999999999999999999999999E+125", "-1e125", "-100", "-10", "-9.99", "-1.5", "-1.05", "-1",
		"-0.1", "-1e-130", "0", "1e-130", "1.1e-130", "0.001", "0.1", "1", "1.000000000000000000000000000000000001",
		"1.05", "1.5", "2", "10", "11", "99999999999999999999999999999999999999", "1e38", "1.1e38", "1e125",
		"9.9999999999999999999999999999999999999E+125",
	}
	for i, x := range ordered {
		for j, y := range ordered {
			a, b := MustParse(x), MustParse(y)
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := Compare(a, b); got != want {
				t.Errorf("Compare(%s, %s) = %d, want %d", x, y, got, want)
			}
			if got := bytes.Compare(AppendKey(nil, a), AppendKey(nil, b)); got != want {
				t.Errorf("key order (%s, %s) = %d, want %d", x, y, got, want)
			}
			if (a == b) != (want == 0) {
				t.Errorf("(%s == %s) = %v", x, y, a == b)
			}
		}
	}
	if MustParse("1.50") != MustParse("15e-1") || !Equal(MustParse("-0"), Dec{}) {
		t.Error("equal numbers are not == as Decs")
	}
}

func TestArithmeticTable(t *testing.T) {
	tests := []struct {
		a, b, sum, diff string
		sumErr, diffErr Reason
	}{
		{a: "1", b: "10000000000000000000000", sum: "10000000000000000000001", diff: "-9999999999999999999999"},
		{a: "0", b: "5", sum: "5", diff: "-5"},
		{a: "5", b: "0", sum: "5", diff: "5"},
		{a: "1.5", b: "1.5", sum: "3", diff: "0"},
		{a: "0.1", b: "0.2", sum: "0.3", diff: "-0.1"},
		{a: "-1.25", b: "1.25", sum: "0", diff: "-2.5"},
		{a: "99999999999999999999999999999999999999", b: "1", sum: "100000000000000000000000000000000000000", diff: "99999999999999999999999999999999999998"},
		{a: "1e125", b: "1e125", sum: "2" + strings.Repeat("0", 125), diff: "0"},
		{a: "9e125", b: "9e125", sumErr: Overflow, diff: "0"},
		{a: "9e125", b: "-9e125", sum: "0", diffErr: Overflow},
		{a: "1e50", b: "1", sumErr: Overflow, diffErr: Overflow},
		{a: "1e-130", b: "1e-130", sum: "0." + strings.Repeat("0", 129) + "2", diff: "0"},
		{a: "1.1e-130", b: "1e-130", sum: "0." + strings.Repeat("0", 129) + "21", diff: "0." + strings.Repeat("0", 130) + "1", diffErr: Underflow},
		{a: "1e125", b: "1e-130", sumErr: Overflow, diffErr: Overflow},
		{a: "12345678901234567890123456789012345678", b: "0.1", sumErr: Overflow, diffErr: Overflow},
		{a: "12345678901234567890123456789012345678", b: "2", sum: "12345678901234567890123456789012345680", diff: "12345678901234567890123456789012345676"},
		{a: "-12345678901234567890123456789012345678", b: "-22", sum: "-12345678901234567890123456789012345700", diff: "-12345678901234567890123456789012345656"},
		{a: "1e38", b: "1e-1", sumErr: Overflow, diffErr: Overflow},
		{a: "1e37", b: "1", sum: "1" + strings.Repeat("0", 36) + "1", diff: strings.Repeat("9", 37)},
		{a: "1e38", b: "1", sumErr: Overflow, diff: strings.Repeat("9", 38)},
	}
	for _, tt := range tests {
		a, b := MustParse(tt.a), MustParse(tt.b)
		check := func(op string, got Dec, err error, want string, reason Reason) {
			t.Helper()
			if reason != 0 {
				var ne *Error
				if !errors.As(err, &ne) || ne.Reason != reason {
					t.Errorf("%s %s %s: got %v, %v; want reason %d", tt.a, op, tt.b, got, err, reason)
				}
				return
			}
			if err != nil || got.String() != want {
				t.Errorf("%s %s %s = %v, %v; want %s", tt.a, op, tt.b, got, err, want)
			}
		}
		s, err := Add(a, b)
		check("+", s, err, tt.sum, tt.sumErr)
		d, err := Sub(a, b)
		check("-", d, err, tt.diff, tt.diffErr)
	}
}

func TestIntConversions(t *testing.T) {
	for _, v := range []int64{0, 1, -1, 10, -100, 123456789, math.MaxInt64, math.MinInt64, 1 << 62} {
		d := FromInt64(v)
		if d.String() != strconv.FormatInt(v, 10) {
			t.Errorf("FromInt64(%d) = %s", v, d)
		}
		if got, ok := d.Int64(); !ok || got != v {
			t.Errorf("Int64(%d) = %d, %v", v, got, ok)
		}
		if MustParse(strconv.FormatInt(v, 10)) != d {
			t.Errorf("FromInt64(%d) != Parse", v)
		}
	}
	if d := FromUint64(math.MaxUint64); d.String() != "18446744073709551615" {
		t.Errorf("FromUint64 = %s", d)
	}
	for _, s := range []string{"1.5", "9223372036854775808", "-9223372036854775809", "1e19", "1e-3"} {
		if v, ok := MustParse(s).Int64(); ok {
			t.Errorf("Int64(%s) = %d, true", s, v)
		}
	}
	if v, ok := MustParse("1.2e3").Int64(); !ok || v != 1200 {
		t.Errorf("Int64(1.2e3) = %d, %v", v, ok)
	}
	if f := MustParse("-1.25e-3").Float64(); f != -0.00125 {
		t.Errorf("Float64 = %v", f)
	}
}

func TestSignAbsNeg(t *testing.T) {
	d := MustParse("-2.5")
	if d.Sign() != -1 || d.Neg().Sign() != 1 || d.Abs().String() != "2.5" || d.IsZero() || d.Digits() != 2 {
		t.Errorf("sign helpers wrong for %v", d)
	}
	var z Dec
	if z.Sign() != 0 || !z.IsZero() || z.Neg() != z || z.String() != "0" {
		t.Error("zero value is not 0")
	}
}

func TestTextMarshaling(t *testing.T) {
	var d Dec
	if err := d.UnmarshalText([]byte("01.10")); err != nil {
		t.Fatal(err)
	}
	b, _ := d.MarshalText()
	if string(b) != "1.1" {
		t.Errorf("MarshalText = %s", b)
	}
	if err := d.UnmarshalText([]byte("x")); err == nil {
		t.Error("UnmarshalText(x) succeeded")
	}
}

func TestDecodeKey(t *testing.T) {
	for _, s := range []string{"0", "1", "-1", "12", "-12", "1.5", "-1e-130", "9.9999999999999999999999999999999999999E+125", "12345678901234567890123456789012345678"} {
		d := MustParse(s)
		k := AppendKey([]byte("x"), d)
		if len(k)-1 != AppendKeyLen(d) || len(k)-1 > MaxKeyLen {
			t.Errorf("key length of %s = %d, AppendKeyLen %d", s, len(k)-1, AppendKeyLen(d))
		}
		got, rest, err := DecodeKey(append(k[1:], "tail"...))
		if err != nil || got != d || string(rest) != "tail" {
			t.Errorf("DecodeKey(AppendKey(%s)) = %v, %q, %v", s, got, rest, err)
		}
	}
	for _, b := range [][]byte{nil, {0}, {keyPos}, {keyPos, 130}, {keyPos, 130, 0}, {keyPos, 130, 101, 0}, {keyPos, 130, 11, 1, 0}, {keyNeg, 1, 2}} {
		if d, _, err := DecodeKey(b); err == nil {
			t.Errorf("DecodeKey(%v) = %v, want error", b, d)
		}
	}
}

// randDec returns a random valid number and its exact value as a big.Rat. Values are drawn
// around a few magnitudes so that comparisons and sums hit equal magnitudes, carries and
// cancellations often.
func randDec(r *rand.Rand) (string, *big.Rat) {
	nd := 1 + r.IntN(MaxDigits)
	if r.IntN(3) == 0 {
		nd = 1 + r.IntN(4)
	}
	var sb strings.Builder
	if r.IntN(2) == 0 {
		sb.WriteByte('-')
	}
	sb.WriteByte(byte('1' + r.IntN(9)))
	for range nd - 1 {
		sb.WriteByte(byte('0' + r.IntN(10)))
	}
	var mag int
	switch r.IntN(4) {
	case 0:
		mag = MinExponent + r.IntN(MaxExponent-MinExponent+1)
	default:
		mag = r.IntN(6) - 3
	}
	exp := mag - nd + 1
	s := sb.String() + "e" + strconv.Itoa(exp)
	q, ok := new(big.Rat).SetString(s)
	if !ok {
		panic(s)
	}
	return s, q
}

// refCanonical formats an exact rational (a terminating decimal) the way DynamoDB would, or
// returns the Reason it is out of range, independently of the package's own code.
func refCanonical(q *big.Rat) (string, Reason) {
	if q.Sign() == 0 {
		return "0", 0
	}
	s := q.FloatString(200)
	s = strings.TrimRight(s, "0")
	s = strings.TrimSuffix(s, ".")
	digits := strings.TrimLeft(strings.NewReplacer("-", "", ".", "").Replace(s), "0")
	digits = strings.TrimRight(digits, "0")
	abs := new(big.Rat).Abs(q)
	maxR, _ := new(big.Rat).SetString("9.9999999999999999999999999999999999999e125")
	minR, _ := new(big.Rat).SetString("1e-130")
	switch {
	case len(digits) > MaxDigits || abs.Cmp(maxR) > 0:
		return "", Overflow
	case abs.Cmp(minR) < 0:
		return "", Underflow
	}
	return s, 0
}

func TestPropertiesAgainstBig(t *testing.T) {
	n := 5000
	if testing.Short() {
		n = 500
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range n {
		sa, qa := randDec(r)
		sb, qb := randDec(r)
		a, err := Parse(sa)
		if err != nil {
			t.Fatalf("Parse(%s): %v", sa, err)
		}
		b := MustParse(sb)
		if want, _ := refCanonical(qa); a.String() != want {
			t.Fatalf("Parse(%s).String() = %s, want %s", sa, a, want)
		}
		if got, want := Compare(a, b), qa.Cmp(qb); got != want {
			t.Fatalf("Compare(%s, %s) = %d, want %d", sa, sb, got, want)
		}
		if got, want := bytes.Compare(AppendKey(nil, a), AppendKey(nil, b)), qa.Cmp(qb); got != want {
			t.Fatalf("key order (%s, %s) = %d, want %d", sa, sb, got, want)
		}
		for _, op := range []string{"+", "-"} {
			var got Dec
			var err error
			q := new(big.Rat)
			if op == "+" {
				got, err = Add(a, b)
				q.Add(qa, qb)
			} else {
				got, err = Sub(a, b)
				q.Sub(qa, qb)
			}
			want, reason := refCanonical(q)
			var ne *Error
			switch {
			case reason != 0:
				if !errors.As(err, &ne) || ne.Reason != reason {
					t.Fatalf("%s %s %s = %v, %v; want reason %d", sa, op, sb, got, err, reason)
				}
			case err != nil || got.String() != want:
				t.Fatalf("%s %s %s = %v, %v; want %s", sa, op, sb, got, err, want)
			}
		}
	}
}

func TestSize(t *testing.T) {
	for s, want := range map[string]int{
		"0": 1, "1": 2, "12": 2, "123": 3, "-1.5": 2, "100000": 2, "0.0001": 2, "1.23e-50": 3,
		strings.Repeat("1", 38) + strings.Repeat("0", 88): 20,
		"1" + strings.Repeat("0", 125):                    2,
		"11111" + strings.Repeat("0", 121):                4,
		"1111111" + strings.Repeat("0", 119):              5,
	} {
		if got := MustParse(s).Size(); got != want {
			t.Errorf("Size(%s) = %d, want %d", s, got, want)
		}
	}
}
