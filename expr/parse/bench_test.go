package parse

import "testing"

func BenchmarkCondition(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Condition("attribute_not_exists(pk) OR (#v = :v AND begins_with(sk, :p))"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUpdate(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Update("SET #s = :s, #t = #t + :d, addr.city = :c ADD tags :tag REMOVE note"); err != nil {
			b.Fatal(err)
		}
	}
}
