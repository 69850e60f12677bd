package eval

import (
	"strconv"
	"strings"
	"testing"
)

// benchItem is an order of about 1 KB.
func benchItem() Item {
	item := Item{
		"pk":     sv("customer#c-000123"),
		"sk":     sv("order#2024-06-17T10:11:12.000000000Z#o-98765"),
		"status": sv("shipped"),
		"total":  nv("1234.56"),
		"tags":   ssv("gift", "express", "fragile"),
		"addr": mv(map[string]AV{
			"street": sv("221B Baker Street"), "city": sv("London"), "zip": sv("NW1 6XE"), "country": sv("GB"),
		}),
		"note": sv(strings.Repeat("n", 480)), // brings the item to about 1 KB
	}
	var lines []AV
	for i := range 8 {
		lines = append(lines, mv(map[string]AV{
			"sku": sv("sku-" + strconv.Itoa(i)), "qty": nv(strconv.Itoa(i + 1)), "price": nv("19.99"),
		}))
	}
	item["lines"] = lv(lines...)
	return item
}

func BenchmarkFilter(b *testing.B) {
	c, err := Compile(Input{
		Filter: str("#s = :s AND #t > :min AND contains(tags, :tag) AND attribute_exists(addr.city) AND size(#l) BETWEEN :lo AND :hi"),
		Names:  names{"#s": "status", "#t": "total", "#l": "lines"},
		Values: vals{":s": sv("shipped"), ":min": nv("100"), ":tag": sv("express"), ":lo": nv("1"), ":hi": nv("10")},
	})
	if err != nil {
		b.Fatal(err)
	}
	item := benchItem()
	b.ReportAllocs()
	for b.Loop() {
		if ok, _ := c.Filter(item); !ok {
			b.Fatal("filter is false")
		}
	}
}

func BenchmarkCompileCondition(b *testing.B) {
	cond := "attribute_not_exists(pk) OR (#v = :v AND begins_with(sk, :p))"
	in := Input{Condition: &cond, Names: names{"#v": "version"}, Values: vals{":v": nv("3"), ":p": sv("order#")}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compile(in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUpdate(b *testing.B) {
	c, err := Compile(Input{
		Update: str("SET #s = :s, #t = #t + :d, addr.city = :c ADD tags :tag REMOVE note"),
		Names:  names{"#s": "status", "#t": "total"},
		Values: vals{":s": sv("delivered"), ":d": nv("0.44"), ":c": sv("Paris"), ":tag": ssv("late")},
	})
	if err != nil {
		b.Fatal(err)
	}
	item := benchItem()
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := c.Update(item, []string{"pk", "sk"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompileKeyCondition is the Compile of a small Query: "warm" with
// its text in the parse cache (every request after the first), "miss" with
// a text never seen before (parse, copy and insert, evicting once full).
func BenchmarkCompileKeyCondition(b *testing.B) {
	values := vals{":p": sv("p042"), ":a": sv("s03"), ":b": sv("s05")}
	b.Run("warm", func(b *testing.B) {
		kc := "pk = :p AND sk BETWEEN :a AND :b"
		in := Input{KeyCondition: &kc, Values: values}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Compile(in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("miss", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			kc := "pk = :p AND sk" + strconv.Itoa(i) + " BETWEEN :a AND :b"
			if _, err := Compile(Input{KeyCondition: &kc, Values: values}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkCompileUpdate is the Compile of a typical UpdateItem, warm.
func BenchmarkCompileUpdate(b *testing.B) {
	u, c := "SET #s = :s, #t = #t + :d ADD tags :tag REMOVE note", "attribute_exists(pk)"
	in := Input{Update: &u, Condition: &c, Names: names{"#s": "status", "#t": "total"},
		Values: vals{":s": sv("delivered"), ":d": nv("0.44"), ":tag": ssv("late")}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compile(in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkKeyCondition matches a compiled key condition to the key schema,
// as every Query does.
func BenchmarkKeyCondition(b *testing.B) {
	kc := "pk = :p AND sk BETWEEN :a AND :b"
	c, err := Compile(Input{KeyCondition: &kc, Values: vals{":p": sv("p042"), ":a": sv("s03"), ":b": sv("s05")}})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.KeyCondition("pk", "sk"); err != nil {
			b.Fatal(err)
		}
	}
}
