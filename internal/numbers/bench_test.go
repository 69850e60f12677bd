package numbers

import "testing"

var (
	sinkDec  Dec
	sinkInt  int
	sinkKey  []byte
	benchIns = []string{"42", "-17.25", "1234567890.0987654321", "3.1415926535897932384626433832795028841", "1e-100"}
)

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for i := range b.N {
		sinkDec, _ = Parse(benchIns[i%len(benchIns)])
	}
}

func BenchmarkString(b *testing.B) {
	ds := make([]Dec, len(benchIns))
	for i, s := range benchIns[:4] {
		ds[i] = MustParse(s)
	}
	b.ReportAllocs()
	for i := range b.N {
		_ = ds[i%4].String()
	}
}

func BenchmarkCompare(b *testing.B) {
	ds := make([]Dec, len(benchIns))
	for i, s := range benchIns {
		ds[i] = MustParse(s)
	}
	b.ReportAllocs()
	for i := range b.N {
		sinkInt = Compare(ds[i%len(ds)], ds[(i+1)%len(ds)])
	}
}

func BenchmarkAdd(b *testing.B) {
	x, y := MustParse("1234567.891"), MustParse("-0.000123")
	b.ReportAllocs()
	for range b.N {
		sinkDec, _ = Add(x, y)
	}
}

func BenchmarkAppendKey(b *testing.B) {
	ds := make([]Dec, len(benchIns))
	for i, s := range benchIns {
		ds[i] = MustParse(s)
	}
	buf := make([]byte, 0, MaxKeyLen)
	b.ReportAllocs()
	for i := range b.N {
		sinkKey = AppendKey(buf[:0], ds[i%len(ds)])
	}
}
