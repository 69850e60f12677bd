package eval

import (
	"reflect"
	"testing"
)

func TestProject(t *testing.T) {
	item := Item{
		"pk": sv("k"),
		"a":  sv("x"),
		"m": mv(map[string]AV{
			"x": nv("1"),
			"y": mv(map[string]AV{"z": sv("deep"), "w": sv("other")}),
			"l": lv(sv("l0"), mv(map[string]AV{"k": sv("v"), "j": sv("u")}), sv("l2")),
		}),
		"l": lv(sv("e0"), sv("e1"), sv("e2"), sv("e3")),
	}
	tests := []struct {
		proj  string
		names names
		want  Item
	}{
		{proj: "a", want: Item{"a": sv("x")}},
		{proj: "a, pk", want: Item{"a": sv("x"), "pk": sv("k")}},
		{proj: "nope", want: Item{}},
		{proj: "a, nope", want: Item{"a": sv("x")}},
		{proj: "m.x", want: Item{"m": mv(map[string]AV{"x": nv("1")})}},
		{proj: "m.y.z, m.x", want: Item{"m": mv(map[string]AV{"x": nv("1"), "y": mv(map[string]AV{"z": sv("deep")})})}},
		{proj: "m.nope", want: Item{}},
		{proj: "a.b", want: Item{}},
		{proj: "l[1]", want: Item{"l": lv(sv("e1"))}},
		{proj: "l[3], l[0]", want: Item{"l": lv(sv("e0"), sv("e3"))}},
		{proj: "l[9]", want: Item{}},
		{proj: "l[9], l[2]", want: Item{"l": lv(sv("e2"))}},
		{proj: "m.l[1].k", want: Item{"m": mv(map[string]AV{"l": lv(mv(map[string]AV{"k": sv("v")}))})}},
		{proj: "m.l[1].k, m.l[2], m.l[1].j", want: Item{"m": mv(map[string]AV{"l": lv(
			mv(map[string]AV{"k": sv("v"), "j": sv("u")}), sv("l2"))})}},
		{proj: "#m.#y", names: names{"#m": "m", "#y": "y"}, want: Item{"m": mv(map[string]AV{"y": mv(map[string]AV{"z": sv("deep"), "w": sv("other")})})}},
	}
	for _, tt := range tests {
		c, err := Compile(Input{Projection: str(tt.proj), Names: tt.names})
		if err != nil {
			t.Errorf("Compile(%q): %v", tt.proj, err)
			continue
		}
		if got := c.Project(item); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Project(%q):\n got %s\nwant %s", tt.proj, dump(got), dump(tt.want))
		}
	}
	none, _ := Compile(Input{})
	if got := none.Project(item); !reflect.DeepEqual(got, item) {
		t.Error("no projection changed the item")
	}
}
