package eval

import (
	"testing"
)

func sampleItem() Item {
	return Item{
		"pk":    sv("u#1"),
		"n":     nv("10"),
		"f":     nv("1.5"),
		"s":     sv("hello world"),
		"b":     bv(1, 2, 3),
		"t":     boolv(true),
		"z":     nullv(),
		"tags":  ssv("a", "b"),
		"nums":  nsv("1", "2.0"),
		"bins":  bsv([]byte{1}, []byte{2}),
		"l":     lv(sv("x"), nv("2"), mv(map[string]AV{"k": sv("v")})),
		"m":     mv(map[string]AV{"a": mv(map[string]AV{"b": lv(nv("1"), nv("2"))}), "status": sv("open"), "e": sv("é")}),
		"blank": sv(""),
	}
}

func TestConditionEval(t *testing.T) {
	tests := []struct {
		expr  string
		names names
		vals  vals
		item  Item // nil: sampleItem
		want  bool
	}{
		// = and <>: same type and value; numbers numerically, sets unordered.
		{expr: "n = :v", vals: vals{":v": nv("10")}, want: true},
		{expr: "n = :v", vals: vals{":v": nv("1E1")}, want: true},
		{expr: "n = :v", vals: vals{":v": nv("10.000")}, want: true},
		{expr: "n = :v", vals: vals{":v": sv("10")}, want: false},
		{expr: "n <> :v", vals: vals{":v": nv("11")}, want: true},
		{expr: "n <> :v", vals: vals{":v": nv("10")}, want: false},
		{expr: "n <> :v", vals: vals{":v": sv("10")}, want: true},
		{expr: "nope <> :v", vals: vals{":v": sv("x")}, want: true},
		{expr: "nope = :v", vals: vals{":v": sv("x")}, want: false},
		{expr: "tags = :v", vals: vals{":v": ssv("b", "a")}, want: true},
		{expr: "tags = :v", vals: vals{":v": ssv("a")}, want: false},
		{expr: "nums = :v", vals: vals{":v": nsv("2", "1.0")}, want: true},
		{expr: "z = :v", vals: vals{":v": nullv()}, want: true},
		{expr: "t = :v", vals: vals{":v": boolv(true)}, want: true},
		{expr: "t = :v", vals: vals{":v": boolv(false)}, want: false},
		{expr: "b = :v", vals: vals{":v": bv(1, 2, 3)}, want: true},
		{expr: "l[2] = :v", vals: vals{":v": mv(map[string]AV{"k": sv("v")})}, want: true},
		{expr: "l = :v", vals: vals{":v": lv(sv("x"), nv("2.0"), mv(map[string]AV{"k": sv("v")}))}, want: true},
		{expr: "l = :v", vals: vals{":v": lv(nv("2"), sv("x"), mv(map[string]AV{"k": sv("v")}))}, want: false},
		{expr: "blank = :v", vals: vals{":v": sv("")}, want: true},
		{expr: "n = f", want: false},
		// ordering: only between S, N or B of the same type
		{expr: "n < :v", vals: vals{":v": nv("11")}, want: true},
		{expr: "n < :v", vals: vals{":v": nv("9")}, want: false},
		{expr: "n <= :v", vals: vals{":v": nv("10")}, want: true},
		{expr: "n > :v", vals: vals{":v": nv("-1E100")}, want: true},
		{expr: "n >= :v", vals: vals{":v": nv("10.000000000000000000000000000000000001")}, want: false},
		{expr: "n < :v", vals: vals{":v": sv("z")}, want: false},
		{expr: "n >= :v", vals: vals{":v": sv("1")}, want: false},
		{expr: "s > :v", vals: vals{":v": sv("hello")}, want: true},
		{expr: "s < :v", vals: vals{":v": sv("hello")}, want: false},
		{expr: "m.e > :v", vals: vals{":v": sv("z")}, want: true}, // UTF-8 bytes: é (C3 A9) > z
		{expr: "b >= :v", vals: vals{":v": bv(1, 2)}, want: true},
		{expr: "b >= :v", vals: vals{":v": bv(1, 2, 4)}, want: false},
		{expr: "f > n", want: false},
		{expr: ":a < :b", vals: vals{":a": nv("2"), ":b": nv("10")}, want: true},
		{expr: "nope < :v", vals: vals{":v": nv("1")}, want: false},
		// BETWEEN is inclusive
		{expr: "f BETWEEN :lo AND :hi", vals: vals{":lo": nv("1"), ":hi": nv("2")}, want: true},
		{expr: "n BETWEEN :lo AND :hi", vals: vals{":lo": nv("1"), ":hi": nv("2")}, want: false},
		{expr: "n BETWEEN :lo AND :hi", vals: vals{":lo": nv("10"), ":hi": nv("10")}, want: true},
		{expr: "s BETWEEN :lo AND :hi", vals: vals{":lo": sv("h"), ":hi": sv("i")}, want: true},
		{expr: "s BETWEEN :lo AND :hi", vals: vals{":lo": nv("1"), ":hi": nv("2")}, want: false},
		{expr: "s BETWEEN f AND n", want: false},
		// IN
		{expr: "s IN (:a, :b)", vals: vals{":a": sv("x"), ":b": sv("hello world")}, want: true},
		{expr: "s IN (:a, :b)", vals: vals{":a": sv("x"), ":b": sv("y")}, want: false},
		{expr: "n IN (:a)", vals: vals{":a": nv("10.0")}, want: true},
		{expr: "nope IN (:a)", vals: vals{":a": nv("10.0")}, want: false},
		// functions
		{expr: "attribute_exists(m.a.b[1])", want: true},
		{expr: "attribute_exists(m.a.b[2])", want: false},
		{expr: "attribute_exists(l[2].k)", want: true},
		{expr: "attribute_exists(s.x)", want: false},
		{expr: "attribute_exists(s[0])", want: false},
		{expr: "attribute_exists(m.a[0])", want: false},
		{expr: "attribute_exists(z)", want: true},
		{expr: "attribute_not_exists(nope)", want: true},
		{expr: "attribute_not_exists(#s)", names: names{"#s": "s"}, want: false},
		{expr: "attribute_type(tags, :t)", vals: vals{":t": sv("SS")}, want: true},
		{expr: "attribute_type(tags, :t)", vals: vals{":t": sv("S")}, want: false},
		{expr: "attribute_type(z, :t)", vals: vals{":t": sv("NULL")}, want: true},
		{expr: "attribute_type(m.a, :t)", vals: vals{":t": sv("M")}, want: true},
		{expr: "attribute_type(nope, :t)", vals: vals{":t": sv("S")}, want: false},
		{expr: "begins_with(s, :p)", vals: vals{":p": sv("hell")}, want: true},
		{expr: "begins_with(s, :p)", vals: vals{":p": sv("world")}, want: false},
		{expr: "begins_with(s, :p)", vals: vals{":p": sv("")}, want: true},
		{expr: "begins_with(b, :p)", vals: vals{":p": bv(1, 2)}, want: true},
		{expr: "begins_with(b, :p)", vals: vals{":p": sv("a")}, want: false},
		{expr: "begins_with(n, :p)", vals: vals{":p": sv("1")}, want: false},
		{expr: "contains(s, :x)", vals: vals{":x": sv("lo w")}, want: true},
		{expr: "contains(s, :x)", vals: vals{":x": sv("low")}, want: false},
		{expr: "contains(tags, :x)", vals: vals{":x": sv("a")}, want: true},
		{expr: "contains(tags, :x)", vals: vals{":x": sv("c")}, want: false},
		{expr: "contains(tags, :x)", vals: vals{":x": ssv("a")}, want: false},
		{expr: "contains(nums, :x)", vals: vals{":x": nv("2")}, want: true},
		{expr: "contains(nums, :x)", vals: vals{":x": sv("2")}, want: false},
		{expr: "contains(bins, :x)", vals: vals{":x": bv(2)}, want: true},
		{expr: "contains(l, :x)", vals: vals{":x": sv("x")}, want: true},
		{expr: "contains(l, :x)", vals: vals{":x": nv("2.0")}, want: true},
		{expr: "contains(l, :x)", vals: vals{":x": mv(map[string]AV{"k": sv("v")})}, want: true},
		{expr: "contains(l, :x)", vals: vals{":x": sv("v")}, want: false},
		{expr: "contains(b, :x)", vals: vals{":x": bv(2, 3)}, want: true},
		{expr: "contains(b, :x)", vals: vals{":x": bv(3, 2)}, want: false},
		{expr: "contains(b, :x)", vals: vals{":x": sv("a")}, want: false},
		{expr: "contains(l, :x)", vals: vals{":x": lv(sv("x"))}, want: false},
		{expr: "attribute_type(:v, :t)", vals: vals{":v": nv("0"), ":t": sv("N")}, want: true},
		{expr: "attribute_type(size(s), :t)", vals: vals{":t": sv("N")}, want: true},
		{expr: "begins_with(:str, s)", vals: vals{":str": sv("hello world!")}, want: true},
		{expr: "NOT NOT NOT NOT n = :v", vals: vals{":v": nv("10")}, want: true},
		{expr: "nope = nope2", want: false},
		{expr: "nope <> nope2", want: true},
		{expr: "contains(s, pk)", item: Item{"s": sv("user u#1"), "pk": sv("u#1")}, want: true},
		// size: bytes of UTF-8 for strings, bytes for binaries, element counts
		{expr: "size(s) = :n", vals: vals{":n": nv("11")}, want: true},
		{expr: "size(m.e) = :n", vals: vals{":n": nv("1")}, want: true},                          // é: one UTF-16 unit
		{expr: "size(u) = :n", vals: vals{":n": nv("3")}, item: Item{"u": sv("é𝄞")}, want: true}, // 1 + a surrogate pair
		{expr: "size(u) = :n", vals: vals{":n": nv("6")}, item: Item{"u": sv("é𝄞")}, want: false},
		{expr: "n BETWEEN f AND :v", vals: vals{":v": nv("1")}, want: false}, // lo > hi from the item: false, no error
		{expr: "size(b) = :n", vals: vals{":n": nv("3")}, want: true},
		{expr: "size(tags) = :n", vals: vals{":n": nv("2")}, want: true},
		{expr: "size(l) = :n", vals: vals{":n": nv("3")}, want: true},
		{expr: "size(m) = :n", vals: vals{":n": nv("3")}, want: true},
		{expr: "size(blank) = :n", vals: vals{":n": nv("0")}, want: true},
		{expr: "size(n) >= :n", vals: vals{":n": nv("0")}, want: false},
		{expr: "size(nope) >= :n", vals: vals{":n": nv("0")}, want: false},
		{expr: "size(nope) <> :n", vals: vals{":n": nv("0")}, want: true},
		{expr: "size(s) BETWEEN size(tags) AND size(m.a.b[0])", want: false},
		{expr: "size(l) > size(tags)", want: true},
		{expr: "size(:v) = :n", vals: vals{":v": sv("abc"), ":n": nv("3")}, want: true},
		// logic
		{expr: "NOT n = :v", vals: vals{":v": nv("10")}, want: false},
		{expr: "NOT NOT n = :v", vals: vals{":v": nv("10")}, want: true},
		{expr: "n = :v AND s = :v", vals: vals{":v": nv("10")}, want: false},
		{expr: "n = :v OR s = :v", vals: vals{":v": nv("10")}, want: true},
		{expr: "s = :v OR n = :w AND t = :t", vals: vals{":v": sv("no"), ":w": nv("10"), ":t": boolv(false)}, want: false},
		{expr: "(s = :v OR n = :w) AND t = :t", vals: vals{":v": sv("no"), ":w": nv("10"), ":t": boolv(true)}, want: true},
		{expr: "NOT (attribute_exists(nope) OR attribute_exists(pk))", want: false},
		// names and nested paths
		{expr: "#m.#st = :v", names: names{"#m": "m", "#st": "status"}, vals: vals{":v": sv("open")}, want: true},
		{expr: "#dotted = :v", names: names{"#dotted": "a.b"}, vals: vals{":v": sv("x")}, item: Item{"a.b": sv("x")}, want: true},
		{expr: "m.a.b[0] = :v", vals: vals{":v": nv("1")}, want: true},
		{expr: "#l[1] = :v", names: names{"#l": "l"}, vals: vals{":v": nv("2")}, want: true},
		// a missing item
		{expr: "attribute_not_exists(pk)", item: Item{}, want: true},
	}
	for _, tt := range tests {
		item := tt.item
		if item == nil {
			item = sampleItem()
		}
		c, err := Compile(Input{Condition: str(tt.expr), Names: tt.names, Values: tt.vals})
		if err != nil {
			t.Errorf("Compile(%q): %v", tt.expr, err)
			continue
		}
		got, err := c.Condition(item)
		if err != nil || got != tt.want {
			t.Errorf("%q on item = %v, %v; want %v", tt.expr, got, err, tt.want)
		}
		// The same expression as a filter gives the same answer.
		f, err := Compile(Input{Filter: str(tt.expr), Names: tt.names, Values: tt.vals})
		if err != nil {
			t.Errorf("Compile(Filter %q): %v", tt.expr, err)
			continue
		}
		if got, _ := f.Filter(item); got != tt.want {
			t.Errorf("filter %q = %v; want %v", tt.expr, got, tt.want)
		}
	}
}

func TestConditionOnMissingItem(t *testing.T) {
	c, err := Compile(Input{Condition: str("attribute_not_exists(pk) OR v < :v"), Values: vals{":v": nv("1")}})
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := c.Condition(nil); !ok || err != nil {
		t.Errorf("Condition(nil) = %v, %v", ok, err)
	}
	c, _ = Compile(Input{Condition: str("v < :v"), Values: vals{":v": nv("1")}})
	if ok, _ := c.Condition(nil); ok {
		t.Error("v < :v on no item is true")
	}
	none, _ := Compile(Input{})
	if ok, _ := none.Condition(nil); !ok {
		t.Error("no condition is false")
	}
	if ok, _ := none.Filter(Item{}); !ok {
		t.Error("no filter is false")
	}
}
