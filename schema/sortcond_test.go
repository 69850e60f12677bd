package schema_test

import (
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/schema"
)

// The composed key conditions, operator by operator: the rule of the
// package documentation ("Sort-key conditions").
func TestSortCondition(t *testing.T) {
	type Item struct {
		Bin  string    `dynamo:"bin,pk"`
		Kind string    `dynamo:"kind,sk,default=item"`
		Name string    `dynamo:"name,sk"`
		At   time.Time `dynamo:"at,sk,precision=s"`
	}
	type Plain struct {
		Bin  string    `dynamo:"bin"`
		Kind string    `dynamo:"kind,default=item"`
		Name string    `dynamo:"name"`
		At   time.Time `dynamo:"at,precision=s"`
	}
	plainOf := schema.Must[Plain]("tbl", schema.PartitionKey("bin"), schema.SortKey("name", "at"))
	kinds := schema.Must[Item]("tbl")
	labels := schema.Must[Item]("tbl", schema.PrefixSortKey())
	wide := schema.Must[Item]("tbl", schema.Separator("::"))
	at := time.Date(2024, 7, 1, 10, 0, 0, 0, time.UTC)
	const ts = "2024-07-01T10:00:00Z"
	type cond func(schema.SortOp, ...any) (schema.SortRange, error)
	on := func(s *schema.Schema[Item], v Item) cond {
		return func(op schema.SortOp, vals ...any) (schema.SortRange, error) { return s.SortCondition(v, op, vals...) }
	}
	plain := func(v Plain) cond {
		return func(op schema.SortOp, vals ...any) (schema.SortRange, error) {
			return plainOf.SortCondition(v, op, vals...)
		}
	}
	cases := []struct {
		name string
		c    cond
		op   schema.SortOp
		vals []any
		want string // op values… [| exclude]
	}{
		{"first field eq", plain(Plain{Bin: "b"}), schema.SortEQ, []any{"ab"}, "begins_with ab#"},
		{"first field gt", plain(Plain{Bin: "b"}), schema.SortGT, []any{"ab"}, ">= ab$"},
		{"first field le", plain(Plain{Bin: "b"}), schema.SortLE, []any{"ab"}, "< ab$"},
		{"first field lt", plain(Plain{Bin: "b"}), schema.SortLT, []any{"ab"}, "< ab"},
		{"first field between", plain(Plain{Bin: "b"}), schema.SortBetween, []any{"a", "b"}, "between a b$"},
		{"last field eq", plain(Plain{Bin: "b", Name: "n"}), schema.SortEQ, []any{at}, "= n#" + ts},
		{"last field gt", plain(Plain{Bin: "b", Name: "n"}), schema.SortGT, []any{at}, "between n#" + ts + " n$ | " + ts},
		{"last field ge", plain(Plain{Bin: "b", Name: "n"}), schema.SortGE, []any{at}, "between n#" + ts + " n$"},
		{"last field lt", plain(Plain{Bin: "b", Name: "n"}), schema.SortLT, []any{at}, "between n# n#" + ts + " | " + ts},
		{"last field le", plain(Plain{Bin: "b", Name: "n"}), schema.SortLE, []any{at}, "between n# n#" + ts},
		{"last field begins_with", plain(Plain{Bin: "b", Name: "n"}), schema.SortBeginsWith, []any{"2024-07"}, "begins_with n#2024-07"},
		{"behind a default, middle field gt", on(kinds, Item{Bin: "b"}), schema.SortGT, []any{"ab"}, "between item#ab$ item$"},
		{"behind a default, middle field lt", on(kinds, Item{Bin: "b"}), schema.SortLT, []any{"ab"}, "between item# item#ab"},
		{"behind a default, middle field eq", on(kinds, Item{Bin: "b"}), schema.SortEQ, []any{"ab"}, "begins_with item#ab#"},
		{"labels", on(labels, Item{Bin: "b"}), schema.SortGE, []any{"ab"}, "between kind#item#name#ab kind#item#name$"},
		{"labels last", on(labels, Item{Bin: "b", Name: "n"}), schema.SortGT, []any{at}, "between kind#item#name#n#at#" + ts + " kind#item#name#n#at$ | " + ts},
		{"two-byte separator", on(wide, Item{Bin: "b"}), schema.SortGT, []any{"ab"}, "between item::ab:; item:;"},
	}
	ops := map[schema.SortOp]string{schema.SortEQ: "=", schema.SortLT: "<", schema.SortLE: "<=", schema.SortGT: ">",
		schema.SortGE: ">=", schema.SortBetween: "between", schema.SortBeginsWith: "begins_with"}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := tc.c(tc.op, tc.vals...)
			if err != nil {
				t.Fatal(err)
			}
			got := []string{ops[r.Op]}
			for _, v := range r.Values {
				got = append(got, v.(*types.AttributeValueMemberS).Value)
			}
			if r.Exclude != nil {
				got = append(got, "|", r.Exclude.(*types.AttributeValueMemberS).Value)
			}
			if g := strings.Join(got, " "); g != tc.want {
				t.Fatalf("got %q, want %q", g, tc.want)
			}
		})
	}
}
