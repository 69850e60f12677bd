package partiql

import (
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/expr"
)

func TestParseTranslatesToTheExpressionAST(t *testing.T) {
	st, err := Parse(`update "T" set a.b[2] = ? - 1 SET s = set_delete(s, <<'x'>>) remove c where pk = 'k' and d is null returning modified old *`,
		[]types.AttributeValue{&types.AttributeValueMemberN{Value: "5"}})
	if err != nil {
		t.Fatal(err)
	}
	if st.Kind != Update || st.Table != "T" || st.Returning != "UPDATED_OLD" {
		t.Fatalf("statement %+v", st)
	}
	if got := expr.PrintUpdate(st.Update); got != "SET a.b[2] =  -  REMOVE c DELETE s " {
		t.Fatalf("update %q", got) // values print as their (empty) placeholders
	}
	if n := st.Update.Set[0].Value.(*expr.Arith).L.(*expr.Value).AV; !reflect.DeepEqual(n, &types.AttributeValueMemberN{Value: "5"}) {
		t.Fatalf("parameter bound to %#v", n)
	}
	isNull := st.Where.(*expr.And).Conds[1].(*expr.Or)
	if f := isNull.Conds[0].(*expr.CondFunc); f.Name != "attribute_not_exists" {
		t.Fatalf("IS NULL = %#v", isNull)
	}
}

func TestParseErrorPositions(t *testing.T) {
	for src, want := range map[string]string{
		"SELECT *\n  FROM t\n  WHERE a = = 1": `unexpected token "=" at line 3, column 13`,
		"SELECT * FROM t WHERE \"é\" = 'é":    `unterminated string literal at line 1, column 29`,
		"":                                    `unexpected end of statement at line 1, column 1`,
	} {
		_, err := Parse(src, nil)
		se, ok := err.(*SyntaxError)
		if !ok || se.Error() != "Statement wasn't well formed, can't be processed: "+want {
			t.Errorf("%q: %v, want %s", src, err, want)
		}
	}
}
