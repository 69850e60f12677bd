package eval

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
)

func baseItem() Item {
	return Item{
		"pk": sv("k"),
		"n":  nv("5"),
		"s":  sv("x"),
		"l":  lv(nv("1"), nv("2"), nv("3")),
		"m":  mv(map[string]AV{"a": nv("1"), "in": mv(map[string]AV{"deep": lv(sv("d0"))})}),
		"ss": ssv("a", "b"),
		"ns": nsv("1", "2"),
		"bs": bsv([]byte{1}, []byte{2}),
	}
}

func TestUpdateApply(t *testing.T) {
	tests := []struct {
		expr  string
		names names
		vals  vals
		item  Item // nil: baseItem
		// changes to the item, or the error
		want    Item // attributes expected to differ; a nil value means removed
		wantErr string
	}{
		{expr: "SET s = :v", vals: vals{":v": sv("y")}, want: Item{"s": sv("y")}},
		{expr: "SET fresh = :v", vals: vals{":v": lv()}, want: Item{"fresh": lv()}},
		{expr: "SET n = n + :one", vals: vals{":one": nv("1")}, want: Item{"n": nv("6")}},
		{expr: "SET n = n - :ten", vals: vals{":ten": nv("10")}, want: Item{"n": nv("-5")}},
		{expr: "SET n = :a + :b", vals: vals{":a": nv("0.1"), ":b": nv("0.2")}, want: Item{"n": nv("0.3")}},
		{expr: "SET n = n + :x", vals: vals{":x": nv("-5")}, want: Item{"n": nv("0")}},
		{expr: "SET c = if_not_exists(c, :zero) + :one", vals: vals{":zero": nv("0"), ":one": nv("1")}, want: Item{"c": nv("1")}},
		{expr: "SET n = if_not_exists(n, :zero) + :one", vals: vals{":zero": nv("0"), ":one": nv("1")}, want: Item{"n": nv("6")}},
		{expr: "SET s2 = s", want: Item{"s2": sv("x")}},
		{expr: "SET a = s, s = a", item: Item{"a": sv("1"), "s": sv("2")}, want: Item{"a": sv("2"), "s": sv("1")}},
		{expr: "SET n = n + :one, m.a = n", vals: vals{":one": nv("1")}, want: Item{"n": nv("6"),
			"m": mv(map[string]AV{"a": nv("5"), "in": mv(map[string]AV{"deep": lv(sv("d0"))})})}},
		{expr: "SET l = list_append(l, :more)", vals: vals{":more": lv(nv("4"))}, want: Item{"l": lv(nv("1"), nv("2"), nv("3"), nv("4"))}},
		{expr: "SET l = list_append(:more, l)", vals: vals{":more": lv(nv("0"))}, want: Item{"l": lv(nv("0"), nv("1"), nv("2"), nv("3"))}},
		{expr: "SET q = list_append(if_not_exists(q, :empty), :more)", vals: vals{":empty": lv(), ":more": lv(sv("a"))}, want: Item{"q": lv(sv("a"))}},
		{expr: "SET l[1] = :v", vals: vals{":v": sv("two")}, want: Item{"l": lv(nv("1"), sv("two"), nv("3"))}},
		{expr: "SET l[10] = :v", vals: vals{":v": sv("end")}, want: Item{"l": lv(nv("1"), nv("2"), nv("3"), sv("end"))}},
		{expr: "SET l[7] = :a, l[5] = :b", vals: vals{":a": sv("a"), ":b": sv("b")}, want: Item{"l": lv(nv("1"), nv("2"), nv("3"), sv("b"), sv("a"))}},
		{expr: "SET m.b = :v", vals: vals{":v": sv("new")}, want: Item{"m": mv(map[string]AV{"a": nv("1"), "b": sv("new"), "in": mv(map[string]AV{"deep": lv(sv("d0"))})})}},
		{expr: "SET m.#in.deep[0] = :v", names: names{"#in": "in"}, vals: vals{":v": sv("d1")}, want: Item{"m": mv(map[string]AV{"a": nv("1"), "in": mv(map[string]AV{"deep": lv(sv("d1"))})})}},
		{expr: "SET #a.#b = :v", names: names{"#a": "m", "#b": "x.y"}, vals: vals{":v": sv("dot")}, want: Item{"m": mv(map[string]AV{"a": nv("1"), "x.y": sv("dot"), "in": mv(map[string]AV{"deep": lv(sv("d0"))})})}},
		// errors known only from the item
		{expr: "SET a = b", wantErr: "The provided expression refers to an attribute that does not exist in the item"},
		{expr: "SET a = b + :one", vals: vals{":one": nv("1")}, wantErr: "The provided expression refers to an attribute that does not exist in the item"},
		{expr: "SET x = s + :one", vals: vals{":one": nv("1")}, wantErr: "An operand in the update expression has an incorrect data type"},
		{expr: "SET x = list_append(s, :l)", vals: vals{":l": lv()}, wantErr: "An operand in the update expression has an incorrect data type"},
		{expr: "SET q.r = :v", vals: vals{":v": sv("x")}, wantErr: "The document path provided in the update expression is invalid for update"},
		{expr: "SET s.r = :v", vals: vals{":v": sv("x")}, wantErr: "The document path provided in the update expression is invalid for update"},
		{expr: "SET l.x = :v", vals: vals{":v": sv("x")}, wantErr: "The document path provided in the update expression is invalid for update"},
		{expr: "SET m[0] = :v", vals: vals{":v": sv("x")}, wantErr: "The document path provided in the update expression is invalid for update"},
		{expr: "SET l[5].x = :v", vals: vals{":v": sv("x")}, wantErr: "The document path provided in the update expression is invalid for update"},
		{expr: "SET n = n + :big", vals: vals{":big": nv("9.9999999999999999999999999999999999999E+125")},
			item:    Item{"n": nv("9.9999999999999999999999999999999999999E+125")},
			wantErr: "Number overflow. Attempting to store a number with magnitude larger than supported range"},
		// More than 38 digits from arithmetic is "Number overflow" too
		// (internal/numbers.Add).
		{expr: "SET n = n + :tiny", vals: vals{":tiny": nv("1E-100")},
			wantErr: "Number overflow. Attempting to store a number with magnitude larger than supported range"},
		{expr: "ADD n :tiny", vals: vals{":tiny": nv("1E-100")},
			wantErr: "Number overflow. Attempting to store a number with magnitude larger than supported range"},
		// REMOVE
		{expr: "REMOVE s, n", want: Item{"s": nil, "n": nil}},
		{expr: "REMOVE nope", want: Item{}},
		{expr: "REMOVE m.zz", want: Item{}},
		{expr: "REMOVE m.a", want: Item{"m": mv(map[string]AV{"in": mv(map[string]AV{"deep": lv(sv("d0"))})})}},
		{expr: "REMOVE l[0], l[2]", want: Item{"l": lv(nv("2"))}},
		{expr: "REMOVE l[1]", want: Item{"l": lv(nv("1"), nv("3"))}},
		{expr: "REMOVE l[9]", want: Item{}},
		{expr: "REMOVE q.r", wantErr: "The document path provided in the update expression is invalid for update"},
		// ADD
		{expr: "ADD n :five", vals: vals{":five": nv("5")}, want: Item{"n": nv("10")}},
		{expr: "ADD n :neg", vals: vals{":neg": nv("-7.5")}, want: Item{"n": nv("-2.5")}},
		{expr: "ADD c :five", vals: vals{":five": nv("5")}, want: Item{"c": nv("5")}},
		{expr: "ADD ss :t", vals: vals{":t": ssv("b", "c")}, want: Item{"ss": ssv("a", "b", "c")}},
		{expr: "ADD ns :t", vals: vals{":t": nsv("2.0", "3")}, want: Item{"ns": nsv("1", "2", "3")}},
		{expr: "ADD bs :t", vals: vals{":t": bsv([]byte{3})}, want: Item{"bs": bsv([]byte{1}, []byte{2}, []byte{3})}},
		{expr: "ADD newset :t", vals: vals{":t": ssv("z")}, want: Item{"newset": ssv("z")}},
		{expr: "ADD m.cnt :one", vals: vals{":one": nv("1")}, want: Item{"m": mv(map[string]AV{"a": nv("1"), "cnt": nv("1"), "in": mv(map[string]AV{"deep": lv(sv("d0"))})})}},
		{expr: "ADD ss :n", vals: vals{":n": nsv("1")}, wantErr: "An operand in the update expression has an incorrect data type"},
		{expr: "ADD s :five", vals: vals{":five": nv("5")}, wantErr: "An operand in the update expression has an incorrect data type"},
		{expr: "ADD n :t", vals: vals{":t": ssv("a")}, wantErr: "An operand in the update expression has an incorrect data type"},
		// DELETE
		{expr: "DELETE ss :t", vals: vals{":t": ssv("a", "zz")}, want: Item{"ss": ssv("b")}},
		{expr: "DELETE ss :t", vals: vals{":t": ssv("a", "b")}, want: Item{"ss": nil}},
		{expr: "DELETE ns :t", vals: vals{":t": nsv("2.0")}, want: Item{"ns": nsv("1")}},
		{expr: "DELETE bs :t", vals: vals{":t": bsv([]byte{1})}, want: Item{"bs": bsv([]byte{2})}},
		{expr: "DELETE nope :t", vals: vals{":t": ssv("a")}, want: Item{}},
		{expr: "DELETE ss :t", vals: vals{":t": nsv("1")}, wantErr: "An operand in the update expression has an incorrect data type"},
		{expr: "DELETE s :t", vals: vals{":t": ssv("x")}, wantErr: "An operand in the update expression has an incorrect data type"},
		// indexes name the elements as they were before the update
		{expr: "REMOVE l[0] SET l[2] = :v", vals: vals{":v": sv("x")}, want: Item{"l": lv(nv("2"), sv("x"))}},
		{expr: "SET l[2] = :v REMOVE l[0]", vals: vals{":v": sv("x")}, want: Item{"l": lv(nv("2"), sv("x"))}},
		{expr: "REMOVE l[0] ADD l[2] :v", vals: vals{":v": nv("10")}, want: Item{"l": lv(nv("2"), nv("13"))}},
		{expr: "REMOVE l[0], l[1] SET l[9] = :v", vals: vals{":v": sv("x")}, want: Item{"l": lv(nv("3"), sv("x"))}},
		{expr: "REMOVE a SET b = a", item: Item{"a": sv("hello")}, want: Item{"a": nil, "b": sv("hello")}},
		{expr: "SET x = :v, y = x", vals: vals{":v": nv("4")}, wantErr: "The provided expression refers to an attribute that does not exist in the item"},
		{expr: "REMOVE m.a", item: Item{"m": mv(map[string]AV{"a": nv("1")})}, want: Item{"m": mv(map[string]AV{})}},
		{expr: "REMOVE l[0]", item: Item{"l": lv(nv("1"))}, want: Item{"l": lv()}},
		{expr: "SET l[84] = :a, l[37] = :b, l[17] = :c, l[50] = :d", vals: vals{":a": sv("a1"), ":b": sv("a2"), ":c": sv("a3"), ":d": sv("a4")},
			want: Item{"l": lv(nv("1"), nv("2"), nv("3"), sv("a3"), sv("a2"), sv("a4"), sv("a1"))}},
		{expr: "SET z = m.#in.deep[0]", names: names{"#in": "in"}, want: Item{"z": sv("d0")}},
		{expr: "REMOVE s.c", wantErr: "The document path provided in the update expression is invalid for update"},
		{expr: "REMOVE l.c", wantErr: "The document path provided in the update expression is invalid for update"},
		{expr: "REMOVE s[0]", wantErr: "The document path provided in the update expression is invalid for update"},
		// all four clauses
		{expr: "SET s = :v REMOVE n ADD ss :t DELETE ns :u", vals: vals{":v": sv("y"), ":t": ssv("c"), ":u": nsv("1")},
			want: Item{"s": sv("y"), "n": nil, "ss": ssv("a", "b", "c"), "ns": nsv("2")}},
		// keys may not be touched
		{expr: "SET pk = :v", vals: vals{":v": sv("y")},
			wantErr: "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key"},
		{expr: "REMOVE s, pk",
			wantErr: "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key"},
	}
	for _, tt := range tests {
		item := tt.item
		if item == nil {
			item = baseItem()
		}
		before := deepCopy(item)
		c, err := Compile(Input{Update: str(tt.expr), Names: tt.names, Values: tt.vals})
		if err != nil {
			t.Errorf("Compile(%q): %v", tt.expr, err)
			continue
		}
		got, _, err := c.Update(item, []string{"pk"})
		if !reflect.DeepEqual(item, before) {
			t.Errorf("%q modified the item it was given", tt.expr)
		}
		// On just the attributes ItemAttributes names, updated in place,
		// the same error or the same values of those attributes; the
		// others are the ones the update leaves as they were.
		attrs := c.ItemAttributes(nil)
		part := Item{}
		for _, n := range attrs {
			if v, ok := before[n]; ok {
				part[n] = copyAV(v)
			}
		}
		if _, perr := c.UpdateInPlace(part, []string{"pk"}); fmt.Sprint(perr) != fmt.Sprint(err) {
			t.Errorf("%q in place on %v: error %v, want %v", tt.expr, attrs, perr, err)
		} else if err == nil {
			for k, v := range got {
				if slices.Contains(attrs, k) && !reflect.DeepEqual(part[k], v) || !slices.Contains(attrs, k) && !reflect.DeepEqual(before[k], v) {
					t.Errorf("%q in place on %v: %s = %s", tt.expr, attrs, k, dump(Item{k: part[k]}))
				}
			}
			for k := range part {
				if _, ok := got[k]; !ok {
					t.Errorf("%q in place on %v: %s left", tt.expr, attrs, k)
				}
			}
		}
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("%q: error %v, want %q", tt.expr, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.expr, err)
			continue
		}
		want := deepCopy(item)
		for k, v := range tt.want {
			if v == nil {
				delete(want, k)
			} else {
				want[k] = v
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q:\n got %s\nwant %s", tt.expr, dump(got), dump(want))
		}
	}
}

func TestUpdatedAttributes(t *testing.T) {
	c, err := Compile(Input{Update: str("SET a.b = :v, c = :v REMOVE d[1], e ADD f :n DELETE a2 :s"),
		Values: vals{":v": sv("x"), ":n": nv("1"), ":s": ssv("q")}})
	if err != nil {
		t.Fatal(err)
	}
	_, updated, err := c.Update(Item{"a": mv(map[string]AV{}), "d": lv(sv("0"), sv("1"))}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "c", "d", "e", "f", "a2"}; !reflect.DeepEqual(updated, want) {
		t.Errorf("updated = %v, want %v", updated, want)
	}
}

func TestUpdateNewItem(t *testing.T) {
	c, err := Compile(Input{Update: str("SET #c = if_not_exists(#c, :zero) + :one ADD tags :t"),
		Names: names{"#c": "count"}, Values: vals{":zero": nv("0"), ":one": nv("1"), ":t": ssv("x")}})
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := c.Update(Item{"pk": sv("k")}, []string{"pk"})
	if err != nil {
		t.Fatal(err)
	}
	want := Item{"pk": sv("k"), "count": nv("1"), "tags": ssv("x")}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %s", dump(got))
	}
	none, _ := Compile(Input{})
	if got, up, err := none.Update(want, nil); err != nil || up != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("no update: %v %v %v", got, up, err)
	}
}

func TestUpdatedAttributesProjection(t *testing.T) {
	c, err := Compile(Input{Update: str("SET m.a = :v, s = :v REMOVE l[1] ADD n :one"),
		Values: vals{":v": sv("new"), ":one": nv("1")}})
	if err != nil {
		t.Fatal(err)
	}
	old := baseItem()
	nu, _, err := c.Update(old, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantOld := Item{"m": mv(map[string]AV{"a": nv("1")}), "s": sv("x"), "l": lv(nv("2")), "n": nv("5")}
	if got := c.UpdatedAttributes(old); !reflect.DeepEqual(got, wantOld) {
		t.Errorf("UPDATED_OLD:\n got %s\nwant %s", dump(got), dump(wantOld))
	}
	// After the update, l[1] is the element that was l[2].
	wantNew := Item{"m": mv(map[string]AV{"a": sv("new")}), "s": sv("new"), "l": lv(nv("3")), "n": nv("6")}
	if got := c.UpdatedAttributes(nu); !reflect.DeepEqual(got, wantNew) {
		t.Errorf("UPDATED_NEW:\n got %s\nwant %s", dump(got), dump(wantNew))
	}
	if got := c.UpdatedAttributes(Item{"other": sv("x")}); got != nil {
		t.Errorf("nothing updated present: %s", dump(got))
	}
	none, _ := Compile(Input{})
	if none.UpdatedAttributes(old) != nil {
		t.Error("no update expression, yet updated attributes")
	}
}

// An update of top-level attributes only returns them whole, and none of
// those the item lacks, as the general projection does.
func TestUpdatedAttributesTopLevel(t *testing.T) {
	c, err := Compile(Input{Update: str("SET s = :v, #l = :v REMOVE gone, m ADD n :one, added :one"),
		Names: names{"#l": "l"}, Values: vals{":v": sv("new"), ":one": nv("1")}})
	if err != nil {
		t.Fatal(err)
	}
	old := baseItem()
	nu, _, err := c.Update(old, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantOld := Item{"s": sv("x"), "l": old["l"], "m": old["m"], "n": nv("5")}
	if got := c.UpdatedAttributes(old); !reflect.DeepEqual(got, wantOld) {
		t.Errorf("UPDATED_OLD:\n got %s\nwant %s", dump(got), dump(wantOld))
	}
	wantNew := Item{"s": sv("new"), "l": sv("new"), "n": nv("6"), "added": nv("1")}
	if got := c.UpdatedAttributes(nu); !reflect.DeepEqual(got, wantNew) {
		t.Errorf("UPDATED_NEW:\n got %s\nwant %s", dump(got), dump(wantNew))
	}
	if got := c.UpdatedAttributes(Item{"other": sv("x")}); got != nil {
		t.Errorf("nothing updated present: %s", dump(got))
	}
}

func TestUpdateMissing(t *testing.T) {
	c, err := Compile(Input{Update: str("SET a = :v REMOVE x.y, z[0], w")})
	if err == nil {
		t.Fatal("unused :v accepted")
	}
	c, err = Compile(Input{Update: str("SET a = :v REMOVE x.y, z[0], w"), Values: vals{":v": sv("new")}})
	if err != nil {
		t.Fatal(err)
	}
	key := Item{"pk": sv("k")}
	got, _, err := c.UpdateMissing(key, []string{"pk"})
	if err != nil {
		t.Fatal(err)
	}
	if want := (Item{"pk": sv("k"), "a": sv("new")}); !reflect.DeepEqual(got, want) {
		t.Errorf("got %s", dump(got))
	}
	if len(key) != 1 {
		t.Error("UpdateMissing modified the key it was given")
	}
	// On an existing item the same REMOVE is an error, as in DynamoDB.
	if _, _, err := c.Update(key, []string{"pk"}); err == nil || err.Error() != "The document path provided in the update expression is invalid for update" {
		t.Errorf("Update: %v", err)
	}
	// SET of a nested path under a missing parent fails either way.
	c, _ = Compile(Input{Update: str("SET x.y = :v"), Values: vals{":v": sv("new")}})
	if _, _, err := c.UpdateMissing(key, []string{"pk"}); err == nil {
		t.Error("SET x.y on a new item accepted")
	}
}
