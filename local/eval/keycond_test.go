package eval

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestKeyCondition(t *testing.T) {
	v := vals{":p": sv("u#1"), ":s": sv("2024"), ":t": sv("2025")}
	tests := []struct {
		expr    string
		names   names
		vals    vals
		hash    string
		rng     string
		want    *KeyCond
		wantErr string
	}{
		{expr: "pk = :p", vals: vals{":p": sv("u#1")}, hash: "pk", rng: "sk",
			want: &KeyCond{PartitionName: "pk", Partition: sv("u#1")}},
		{expr: "pk = :p AND sk = :s", hash: "pk", rng: "sk",
			want: &KeyCond{PartitionName: "pk", Partition: sv("u#1"), SortName: "sk", SortOp: "EQ", Sort: []AV{sv("2024")}}},
		{expr: "sk < :s AND pk = :p", hash: "pk", rng: "sk",
			want: &KeyCond{PartitionName: "pk", Partition: sv("u#1"), SortName: "sk", SortOp: "LT", Sort: []AV{sv("2024")}}},
		{expr: ":p = pk AND :s < sk", hash: "pk", rng: "sk",
			want: &KeyCond{PartitionName: "pk", Partition: sv("u#1"), SortName: "sk", SortOp: "GT", Sort: []AV{sv("2024")}}},
		{expr: "#p = :p AND #s >= :s", names: names{"#p": "pk", "#s": "sk"}, hash: "pk", rng: "sk",
			want: &KeyCond{PartitionName: "pk", Partition: sv("u#1"), SortName: "sk", SortOp: "GE", Sort: []AV{sv("2024")}}},
		{expr: "pk = :p AND sk BETWEEN :s AND :t", hash: "pk", rng: "sk",
			want: &KeyCond{PartitionName: "pk", Partition: sv("u#1"), SortName: "sk", SortOp: "BETWEEN", Sort: []AV{sv("2024"), sv("2025")}}},
		{expr: "pk = :p AND begins_with(sk, :s)", hash: "pk", rng: "sk",
			want: &KeyCond{PartitionName: "pk", Partition: sv("u#1"), SortName: "sk", SortOp: "BEGINS_WITH", Sort: []AV{sv("2024")}}},
		{expr: "(pk = :p) AND (sk <= :s)", hash: "pk", rng: "sk",
			want: &KeyCond{PartitionName: "pk", Partition: sv("u#1"), SortName: "sk", SortOp: "LE", Sort: []AV{sv("2024")}}},
		{expr: "gpk = :p AND gsk > :s", hash: "gpk", rng: "gsk",
			want: &KeyCond{PartitionName: "gpk", Partition: sv("u#1"), SortName: "gsk", SortOp: "GT", Sort: []AV{sv("2024")}}},
		// what DynamoDB rejects
		{expr: "pk = :p OR sk = :s", hash: "pk", rng: "sk", wantErr: "Invalid operator used in KeyConditionExpression: OR"},
		{expr: "NOT pk = :p", hash: "pk", rng: "sk", wantErr: "Invalid operator used in KeyConditionExpression: NOT"},
		{expr: "pk = :p AND sk <> :s", hash: "pk", rng: "sk", wantErr: "Invalid operator used in KeyConditionExpression: <>"},
		{expr: "pk IN (:p)", hash: "pk", rng: "sk", wantErr: "Invalid operator used in KeyConditionExpression: IN"},
		{expr: "pk = :p AND attribute_exists(sk)", hash: "pk", rng: "sk", wantErr: "Invalid operator used in KeyConditionExpression: attribute_exists"},
		{expr: "pk = :p AND contains(sk, :s)", hash: "pk", rng: "sk", wantErr: "Invalid operator used in KeyConditionExpression: contains"},
		{expr: "pk = :p AND pk = :s", hash: "pk", rng: "sk", wantErr: "Invalid KeyConditionExpression: KeyConditionExpressions must only contain one condition per key"},
		{expr: "pk = :p AND sk > :s AND foo < :t", hash: "pk", rng: "sk", wantErr: "The number of query conditions (3) exceeds the number of key attributes defined in the schema (2)"},
		{expr: "((sk = :s) AND (pk = :p))", hash: "pk", rng: "sk",
			want: &KeyCond{PartitionName: "pk", Partition: sv("u#1"), SortName: "sk", SortOp: "EQ", Sort: []AV{sv("2024")}}},
		{expr: "pk = :p AnD sk BeTwEeN :s aNd :t", hash: "pk", rng: "sk",
			want: &KeyCond{PartitionName: "pk", Partition: sv("u#1"), SortName: "sk", SortOp: "BETWEEN", Sort: []AV{sv("2024"), sv("2025")}}},
		{expr: ":p = :s", hash: "pk", rng: "sk", wantErr: "Invalid condition in KeyConditionExpression: No key attribute specified"},
		{expr: "sk = :s", hash: "pk", rng: "sk", wantErr: "Query condition missed key schema element: pk"},
		{expr: "pk < :p", hash: "pk", rng: "sk", wantErr: "Query key condition not supported"},
		{expr: "begins_with(pk, :p)", hash: "pk", rng: "sk", wantErr: "Query key condition not supported"},
		{expr: "pk = :p AND foo = :s", hash: "pk", rng: "sk", wantErr: "Query condition missed key schema element: sk"},
		{expr: "pk = :p AND sk = :s", hash: "pk", rng: "", wantErr: "The number of query conditions (2) exceeds the number of key attributes defined in the schema (1)"},
		{expr: "pk = :p AND sk > :s AND sk < :t", hash: "pk", rng: "sk", wantErr: "Invalid KeyConditionExpression: KeyConditionExpressions must only contain one condition per key"},
		{expr: "pk.x > :p", hash: "pk", rng: "sk", wantErr: "Invalid KeyConditionExpression: KeyConditionExpressions cannot have conditions on nested attributes"},
		{expr: "foo.bar = :p", hash: "pk", rng: "sk", wantErr: "Invalid KeyConditionExpression: KeyConditionExpressions cannot have conditions on nested attributes"},
		{expr: "foo = :p", hash: "pk", rng: "sk", wantErr: "Query condition missed key schema element: pk"},
		{expr: "pk = :p AND :s <= sk", hash: "pk", rng: "sk",
			want: &KeyCond{PartitionName: "pk", Partition: sv("u#1"), SortName: "sk", SortOp: "GE", Sort: []AV{sv("2024")}}},
		{expr: "pk = sk", vals: vals(nil), hash: "pk", rng: "sk", wantErr: "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition"},
		{expr: "pk.x = :p", hash: "pk", rng: "sk", wantErr: "Invalid KeyConditionExpression: KeyConditionExpressions cannot have conditions on nested attributes"},
		{expr: "pk = :p AND size(sk) > :s", vals: vals{":p": sv("u#1"), ":s": nv("1")}, hash: "pk", rng: "sk", wantErr: "Invalid KeyConditionExpression: KeyConditionExpressions cannot contain nested operations"},
	}
	for _, tt := range tests {
		values := tt.vals
		if values == nil {
			values = vals{}
			for k, av := range v {
				if containsPlaceholder(tt.expr, k) {
					values[k] = av
				}
			}
			if len(values) == 0 {
				values = nil
			}
		}
		c, err := Compile(Input{KeyCondition: str(tt.expr), Names: tt.names, Values: values})
		if err != nil {
			t.Errorf("Compile(%q): %v", tt.expr, err)
			continue
		}
		got, err := c.KeyCondition(tt.hash, tt.rng)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("%q: error %v, want %q", tt.expr, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: %+v, %v; want %+v", tt.expr, got, err, tt.want)
		}
	}
	none, _ := Compile(Input{})
	if _, err := none.KeyCondition("pk", ""); err == nil {
		t.Error("KeyCondition without an expression: no error")
	}
}

func containsPlaceholder(expr, k string) bool {
	for i := 0; i+len(k) <= len(expr); i++ {
		if expr[i:i+len(k)] == k && (i+len(k) == len(expr) || !isWordByte(expr[i+len(k)])) {
			return true
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func TestKeyCondMatches(t *testing.T) {
	tests := []struct {
		op   string
		vals []AV
		sort AV
		want bool
	}{
		{"", nil, nil, true},
		{"EQ", []AV{nv("10")}, nv("10.0"), true},
		{"EQ", []AV{nv("10")}, sv("10"), false},
		{"LT", []AV{sv("b")}, sv("a"), true},
		{"LE", []AV{sv("b")}, sv("b"), true},
		{"GT", []AV{bv(1)}, bv(1, 0), true},
		{"GE", []AV{nv("2")}, nv("1"), false},
		{"BETWEEN", []AV{nv("1"), nv("3")}, nv("3"), true},
		{"BETWEEN", []AV{nv("1"), nv("3")}, nv("3.5"), false},
		{"BEGINS_WITH", []AV{sv("2024-")}, sv("2024-06-01"), true},
		{"BEGINS_WITH", []AV{sv("2024-")}, sv("2023-06-01"), false},
		{"EQ", []AV{sv("x")}, nil, false},
	}
	for _, tt := range tests {
		k := &KeyCond{SortOp: tt.op, Sort: tt.vals}
		if got := k.Matches(tt.sort); got != tt.want {
			t.Errorf("%s %v matches %v = %v", tt.op, tt.vals, tt.sort, got)
		}
	}
}

// A key condition's kept plan must not change an answer: each request
// below, compiled after another with the same text stored its plan, gets
// what it gets from a cold cache (its Compile error, or its KeyCondition
// and MultiKeyCondition), whatever its names and values. The valid ones
// are served by the plan.
func TestKeyPlanSameAnswers(t *testing.T) {
	boolv := func(b bool) AV { return &types.AttributeValueMemberBOOL{Value: b} }
	const between = "#k = :p AND sk BETWEEN :a AND :b"
	ok := vals{":p": sv("u"), ":a": sv("a"), ":b": sv("b")}
	cases := []struct {
		text    string
		names   names
		vals    vals
		planned bool // served by the plan
	}{
		{between, names{"#k": "pk"}, ok, false},  // the first: no plan yet
		{between, names{"#k": "gpk"}, ok, false}, // other names: a new plan
		{between, names{"#k": "gpk"}, vals{":p": nv("1"), ":a": nv("1"), ":b": nv("2")}, true},
		{between, names{"#k": "gpk"}, vals{":p": sv("u"), ":a": sv("b"), ":b": sv("a")}, false},
		{between, names{"#k": "gpk"}, vals{":p": sv("u"), ":a": sv("a"), ":b": nv("1")}, false},
		{between, names{"#k": "gpk"}, vals{":p": sv("u"), ":a": sv("a")}, false},
		{between, names{"#k": "gpk"}, vals{":p": sv("u"), ":a": sv("a"), ":b": sv("b"), ":c": sv("c")}, false},
		{between, names{"#k": "gpk", "#x": "x"}, ok, false},
		{between, names{"#j": "gpk"}, ok, false},
		{between, names{"#k": "gpk"}, vals{":p": boolv(true), ":a": sv("a"), ":b": sv("b")}, true},
		{"pk = :p AND begins_with(sk, :a)", nil, vals{":p": sv("u"), ":a": sv("x")}, false},
		{"pk = :p AND begins_with(sk, :a)", nil, vals{":p": sv("u"), ":a": nv("1")}, false},
		{"pk = :p AND begins_with(sk, :a)", nil, vals{":p": sv("v"), ":a": sv("y")}, true},
		{"pk = :p AND sk < :a", nil, vals{":p": sv("u"), ":a": boolv(true)}, false},
		{"pk = :p AND sk < :a", nil, vals{":p": sv("u"), ":a": sv("a")}, false},
		{"pk = :p AND sk < :a", nil, vals{":p": sv("u"), ":a": boolv(true)}, false},
		{"pk = :p AND pk = :a", nil, vals{":p": sv("u"), ":a": sv("a")}, false},
		{"pk = :p AND pk = :a", nil, vals{":p": sv("u"), ":a": sv("b")}, true},
		{"(pk = :p) AND (sk <> :a)", nil, vals{":p": sv("u"), ":a": sv("a")}, false},
		{"(pk = :p) AND (sk <> :a)", nil, vals{":p": sv("u"), ":a": sv("b")}, true},
		{"pk = :p OR sk = :a", nil, vals{":p": sv("u"), ":a": sv("a")}, false},
		{"pk = :p OR sk = :a", nil, vals{":p": sv("u"), ":a": sv("a")}, false},
	}
	answer := func(c *Compiled, err error) string {
		if err != nil {
			return "Compile: " + err.Error()
		}
		out := ""
		for _, keys := range [][2]string{{"pk", "sk"}, {"gpk", "sk"}, {"pk", ""}} {
			kc, err := c.KeyCondition(keys[0], keys[1])
			out += fmt.Sprintf("%+v %v; ", kc, err)
		}
		mk, err := c.MultiKeyCondition([]string{"gpk"}, []string{"sk"})
		return out + fmt.Sprintf("%+v %v", mk, err)
	}
	for i, tc := range cases {
		in := Input{KeyCondition: str(tc.text), Names: tc.names, Values: tc.vals}
		resetParseCache()
		cold := answer(Compile(in))
		resetParseCache()
		for _, before := range cases[:i] { // the requests before, with the same text
			if before.text == tc.text {
				Compile(Input{KeyCondition: str(before.text), Names: before.names, Values: before.vals})
			}
		}
		c, err := Compile(in)
		if warm := answer(c, err); warm != cold {
			t.Errorf("%d %q %v %v:\n warm %s\n cold %s", i, tc.text, tc.names, tc.vals, warm, cold)
		}
		if planned := err == nil && c.keyPlan != nil; planned != tc.planned {
			t.Errorf("%d %q %v %v: planned %v, want %v", i, tc.text, tc.names, tc.vals, planned, tc.planned)
		}
	}
}
