package partiql

import (
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/expr"
)

var seeds = []string{
	`SELECT * FROM "t" WHERE pk = 'a' AND sk BETWEEN 1 AND 2 ORDER BY sk DESC`,
	`SELECT a.b[1], "c" FROM t."i" WHERE NOT (x IN [1, 2] OR y IS NOT MISSING) AND begins_with(s, ?)`,
	`INSERT INTO t VALUE {'pk': ?, 'l': [1, -2.5e3, 'x', TRUE, NULL], 'm': {'k': <<'a', 'b'>>}}`,
	`UPDATE t SET a = a + 1, b = list_append(b, [1]) SET c = set_add(c, <<1>>) REMOVE d[0] WHERE pk = 'a' RETURNING ALL NEW *`,
	`DELETE FROM t WHERE pk = 'a' AND size(l) > 2 RETURNING ALL OLD *`,
	`EXISTS(SELECT * FROM t WHERE pk = 'a' AND contains(s, 'x'))`,
	`SELECT * FROM t WHERE a = 'it''s' AND "we""ird" IS NULL`,
	`SELECT * FROM t WHERE (((a = 1`,
	`INSERT INTO t VALUE {'a': <<>>}`,
	"SELECT *\nFROM t WHERE ¤",
}

// FuzzParse checks that Parse never panics, that every error is a
// positioned SyntaxError or the parameter count error, and that a parsed
// statement has a table and printable expressions.
func FuzzParse(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	params := []types.AttributeValue{&types.AttributeValueMemberS{Value: "p"}}
	f.Fuzz(func(t *testing.T, src string) {
		st, err := Parse(src, params)
		if err != nil {
			var se *SyntaxError
			switch {
			case errors.As(err, &se):
				if se.Line < 1 || se.Column < 1 || !strings.HasPrefix(se.Error(), "Statement wasn't well formed, can't be processed: ") {
					t.Fatalf("%q: bad syntax error %+v", src, se)
				}
			case errors.Is(err, ErrParameterCount):
			default:
				t.Fatalf("%q: unexpected error %T %v", src, err, err)
			}
			return
		}
		if st.Table == "" || st.Kind == 0 {
			t.Fatalf("%q: parsed %+v", src, st)
		}
		if st.Where != nil {
			_ = expr.Print(st.Where)
		}
		if st.Update != nil {
			_ = expr.PrintUpdate(st.Update)
		}
	})
}
