package eval

import (
	"strconv"
	"strings"
	"testing"
)

func TestCompileErrors(t *testing.T) {
	const (
		ce = "Invalid ConditionExpression: "
		ue = "Invalid UpdateExpression: "
		pe = "Invalid ProjectionExpression: "
	)
	var manyIn []string
	inVals := vals{":x": nv("1")}
	for range 101 {
		manyIn = append(manyIn, ":x")
	}
	tests := []struct {
		name string
		in   Input
		want string
	}{
		// the placeholder maps
		{"empty names", Input{Condition: str("a = :v"), Names: names{}, Values: vals{":v": sv("x")}},
			"ExpressionAttributeNames must not be empty"},
		{"empty values", Input{Condition: str("a = b"), Values: vals{}},
			"ExpressionAttributeValues must not be empty"},
		{"names without expressions", Input{Names: names{"#a": "a"}},
			"ExpressionAttributeNames can only be specified when using expressions"},
		{"values without expressions", Input{Values: vals{":a": sv("a")}},
			"ExpressionAttributeValues can only be specified when using expressions"},
		{"bad name key", Input{Condition: str("a = :v"), Names: names{"n": "x"}, Values: vals{":v": sv("x")}},
			`ExpressionAttributeNames contains invalid key: Syntax error; key: "n"`},
		{"bad value key", Input{Condition: str("a = :v"), Values: vals{":v": sv("x"), ":a-b": sv("y")}},
			`ExpressionAttributeValues contains invalid key: Syntax error; key: ":a-b"`},
		{"long name key", Input{Projection: str("#a"), Names: names{"#" + strings.Repeat("a", 255): "foo", "#a": "a"}},
			"ExpressionAttributeNames contains invalid key: The expression attribute map contains a key that is too long; size of key: 256"},
		{"long bad name key", Input{Projection: str("#a"), Names: names{"#" + strings.Repeat("a", 255) + "-x": "foo"}},
			"ExpressionAttributeNames contains invalid key: The expression attribute map contains a key that is too long; size of key: 258"},
		{"long value key", Input{Filter: str("a = :v"), Values: vals{":" + strings.Repeat("a", 255): sv("x")}},
			"ExpressionAttributeValues contains invalid key: The expression attribute map contains a key that is too long;"},
		{"prefix-only name key", Input{Projection: str("#a"), Names: names{"#": "foo"}},
			`ExpressionAttributeNames contains invalid key: Syntax error; key: "#"`},
		{"empty name", Input{Projection: str("#a"), Names: names{"#a": ""}},
			"ExpressionAttributeNames contains invalid value: Empty attribute name for key #a"},
		{"bad number", Input{Condition: str("a = :v"), Values: vals{":v": nv("abc")}},
			"ExpressionAttributeValues contains invalid value: The parameter cannot be converted to a numeric value: abc for key :v"},
		{"empty set", Input{Condition: str("a = :v"), Values: vals{":v": ssv()}},
			"ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: An string set  may not be empty for key :v"},
		{"empty number set", Input{Condition: str("a = :v"), Values: vals{":v": nsv()}},
			"ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: An number set  may not be empty for key :v"},
		{"empty binary set", Input{Condition: str("a = :v"), Values: vals{":v": bsv()}},
			"ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: Binary sets should not be empty for key :v"},
		{"duplicate set elements", Input{Condition: str("a = :v"), Values: vals{":v": ssv("x", "x")}},
			"ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: Input collection [x, x] contains duplicates. for key :v"},
		{"NULL false", Input{Condition: str("a = :v"), Values: vals{":v": &nullFalse}},
			"ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: Null attribute value types must have the value of true for key :v"},
		{"nil value", Input{Condition: str("a = :v"), Values: vals{":v": nil}},
			"ExpressionAttributeValues contains invalid value: Supplied AttributeValue is empty, must contain exactly one of the supported datatypes for key :v"},
		// syntax, named after the expression
		{"syntax", Input{Condition: str("a =")}, ce + `Syntax error; token: "<EOF>", near: "="`},
		{"filter syntax", Input{Filter: str("a =")}, `Invalid FilterExpression: Syntax error; token: "<EOF>", near: "="`},
		{"key syntax", Input{KeyCondition: str("a =")}, `Invalid KeyConditionExpression: Syntax error; token: "<EOF>", near: "="`},
		{"reserved", Input{Filter: str("status = :v"), Values: vals{":v": sv("x")}},
			"Invalid FilterExpression: Attribute name is a reserved keyword; reserved keyword: status"},
		// undefined and unused placeholders
		{"undefined name", Input{Condition: str("#x = :v"), Values: vals{":v": sv("x")}},
			ce + "An expression attribute name used in the document path is not defined; attribute name: #x"},
		{"undefined value", Input{Condition: str("a = :v")},
			ce + "An expression attribute value used in expression is not defined; attribute value: :v"},
		{"undefined in nested path", Input{Condition: str("a.#b[1] = :v"), Names: names{"#a": "a"}, Values: vals{":v": sv("x")}},
			ce + "An expression attribute name used in the document path is not defined; attribute name: #b"},
		{"unused name", Input{Condition: str("a = :v"), Names: names{"#n": "x"}, Values: vals{":v": sv("x")}},
			"Value provided in ExpressionAttributeNames unused in expressions: keys: {#n}"},
		{"unused values", Input{Condition: str("a = :v"), Values: vals{":v": sv("x"), ":b": sv("y"), ":a": sv("z")}},
			"Value provided in ExpressionAttributeValues unused in expressions: keys: {:a, :b}"},
		{"unused names before values", Input{Condition: str("a = b"), Names: names{"#n": "x"}, Values: vals{":v": sv("x")}},
			"Value provided in ExpressionAttributeNames unused in expressions: keys: {#n}"},
		{"unused across expressions", Input{Update: str("SET #a = :v"), Condition: str("#b = :w"),
			Names: names{"#a": "a", "#b": "b", "#c": "c"}, Values: vals{":v": sv("x"), ":w": sv("y")}},
			"Value provided in ExpressionAttributeNames unused in expressions: keys: {#c}"},
		// operand counts, repeated operands, types
		{"count", Input{Condition: str("attribute_exists(a, b)")},
			ce + "Incorrect number of operands for operator or function; operator or function: attribute_exists, number of operands: 2"},
		{"count begins_with", Input{Condition: str("begins_with(a)")},
			ce + "Incorrect number of operands for operator or function; operator or function: begins_with, number of operands: 1"},
		{"count size", Input{Condition: str("size(a, b) > :v"), Values: vals{":v": nv("1")}},
			ce + "Incorrect number of operands for operator or function; operator or function: size, number of operands: 2"},
		{"undefined before count", Input{Condition: str("attribute_exists(a, :x)")},
			ce + "An expression attribute value used in expression is not defined; attribute value: :x"},
		{"leaves in order", Input{Condition: str("attribute_exists(a, b) AND c = :x")},
			ce + "Incorrect number of operands for operator or function; operator or function: attribute_exists, number of operands: 2"},
		{"distinct", Input{Condition: str("a = a")},
			ce + "The first operand must be distinct from the remaining operands for this operator or function; operator: =, first operand: [a]"},
		{"distinct names", Input{Condition: str("contains(#a, #a)"), Names: names{"#a": "data"}},
			ce + "The first operand must be distinct from the remaining operands for this operator or function; operator: contains, first operand: [data]"},
		{"distinct nested", Input{Condition: str("a.b[1] IN (:v, a.b[1])"), Values: vals{":v": sv("x")}},
			ce + "The first operand must be distinct from the remaining operands for this operator or function; operator: IN, first operand: [a, b, [1]]"},
		{"distinct between", Input{Condition: str("a BETWEEN :v AND a"), Values: vals{":v": sv("x")}},
			ce + "The first operand must be distinct from the remaining operands for this operator or function; operator: BETWEEN, first operand: [a]"},
		{"between types", Input{Condition: str("a BETWEEN :lo AND :hi"), Values: vals{":lo": nv("5"), ":hi": sv("x")}},
			ce + "The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: AttributeValue: {N:5}, upper bound operand: AttributeValue: {S:x}"},
		{"between order", Input{Condition: str("a BETWEEN :lo AND :hi"), Values: vals{":lo": nv("9"), ":hi": nv("5")}},
			ce + "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {N:9}, upper bound operand: AttributeValue: {N:5}"},
		{"between order strings", Input{Condition: str("a BETWEEN :lo AND :hi"), Values: vals{":lo": sv("b"), ":hi": sv("a")}},
			ce + "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {S:b}, upper bound operand: AttributeValue: {S:a}"},
		{"between bool", Input{Condition: str("a BETWEEN :lo AND :hi"), Values: vals{":lo": boolv(false), ":hi": boolv(true)}},
			ce + "Incorrect operand type for operator or function; operator or function: BETWEEN, operand type: BOOL"},
		{"type name", Input{Condition: str("attribute_type(a, :t)"), Values: vals{":t": sv("X")}},
			ce + "Invalid attribute type name found; type: X, valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}"},
		{"type operand", Input{Condition: str("attribute_type(a, :t)"), Values: vals{":t": nv("1")}},
			ce + "Incorrect operand type for operator or function; operator or function: attribute_type, operand type: N"},
		{"type path", Input{Condition: str("attribute_type(a, b)")},
			ce + "Incorrect operand type for operator or function; operator or function: attribute_type, operand type: {NS,SS,L,BS,N,M,B,BOOL,NULL,S}"},
		{"exists value", Input{Condition: str("attribute_exists(:v)"), Values: vals{":v": sv("x")}},
			ce + "Operator or function requires a document path; operator or function: attribute_exists"},
		{"begins_with number", Input{Condition: str("begins_with(a, :n)"), Values: vals{":n": nv("1")}},
			ce + "Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"},
		{"begins_with size", Input{Condition: str("begins_with(size(a), :s)"), Values: vals{":s": sv("1")}},
			ce + "Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"},
		{"size of number", Input{Condition: str("size(:n) > :m"), Values: vals{":n": nv("1"), ":m": nv("1")}},
			ce + "Incorrect operand type for operator or function; operator or function: size, operand type: N"},
		{"size of size", Input{Condition: str("size(size(a)) > :m"), Values: vals{":m": nv("1")}},
			ce + "Incorrect operand type for operator or function; operator or function: size, operand type: N"},
		{"less than bool", Input{Condition: str("a < :b"), Values: vals{":b": boolv(true)}},
			ce + "Incorrect operand type for operator or function; operator or function: <, operand type: BOOL"},
		{"less than list", Input{Condition: str(":b >= a"), Values: vals{":b": lv()}},
			ce + "Incorrect operand type for operator or function; operator or function: >=, operand type: L"},
		{"too many IN", Input{Condition: str("a IN (" + strings.Join(manyIn, ",") + ")"), Values: inVals},
			ce + "The IN operator is provided with too many operands; number of operands: 101"},
		// updates
		{"overlap", Input{Update: str("SET a = :v, a.b = :v"), Values: vals{":v": sv("x")}},
			ue + "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a, b]"},
		{"same path", Input{Update: str("SET a = :v REMOVE a"), Values: vals{":v": sv("x")}},
			ue + "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a]"},
		{"same path via names", Input{Update: str("SET #a = :v ADD a :n"), Names: names{"#a": "a"}, Values: vals{":v": sv("x"), ":n": nv("1")}},
			ue + "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a]"},
		{"conflict", Input{Update: str("SET a[0] = :v REMOVE a.b"), Values: vals{":v": sv("x")}},
			ue + "Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [a, [0]], path two: [a, b]"},
		{"ADD string", Input{Update: str("ADD a :s"), Values: vals{":s": sv("x")}},
			ue + "Incorrect operand type for operator or function; operator: ADD, operand type: STRING, typeSet: ALLOWED_FOR_ADD_OPERAND"},
		{"ADD list", Input{Update: str("ADD a :s"), Values: vals{":s": lv(sv("x"))}},
			ue + "Incorrect operand type for operator or function; operator: ADD, operand type: LIST, typeSet: ALLOWED_FOR_ADD_OPERAND"},
		{"DELETE number", Input{Update: str("DELETE a :n"), Values: vals{":n": nv("1")}},
			ue + "Incorrect operand type for operator or function; operator: DELETE, operand type: NUMBER, typeSet: ALLOWED_FOR_DELETE_OPERAND"},
		{"plus string", Input{Update: str("SET a = :s + :n"), Values: vals{":s": sv("x"), ":n": nv("1")}},
			ue + "Incorrect operand type for operator or function; operator or function: +, operand type: S"},
		{"minus list_append", Input{Update: str("SET a = list_append(a, :l) - :n"), Values: vals{":l": lv(), ":n": nv("1")}},
			ue + "The function is not allowed to be used this way in an expression; function: list_append"},
		{"list_append string", Input{Update: str("SET a = list_append(a, :s)"), Values: vals{":s": sv("x")}},
			ue + "Incorrect operand type for operator or function; operator or function: list_append, operand type: S"},
		{"list_append count", Input{Update: str("SET a = list_append(a)")},
			ue + "Incorrect number of operands for operator or function; operator or function: list_append, number of operands: 1"},
		{"if_not_exists value", Input{Update: str("SET a = if_not_exists(:v, a)"), Values: vals{":v": sv("x")}},
			ue + "Operator or function requires a document path; operator or function: if_not_exists"},
		{"if_not_exists distinct", Input{Update: str("SET a = if_not_exists(b, b)")},
			ue + "The first operand must be distinct from the remaining operands for this operator or function; operator: if_not_exists, first operand: [b]"},
		{"update undefined value", Input{Update: str("SET a = :v")},
			ue + "An expression attribute value used in expression is not defined; attribute value: :v"},
		{"update undefined name", Input{Update: str("REMOVE #a")},
			ue + "An expression attribute name used in the document path is not defined; attribute name: #a"},
		{"update function", Input{Update: str("SET a = size(b)")},
			ue + "The function is not allowed in an update expression; function: size"},
		// projections
		{"projection overlap", Input{Projection: str("a, a.b")},
			pe + "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a, b]"},
		{"projection repeated", Input{Projection: str("#a, a"), Names: names{"#a": "a"}},
			pe + "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a]"},
		{"projection conflict", Input{Projection: str("l[0], l.x")},
			pe + "Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [l, [0]], path two: [l, x]"},
		{"projection undefined", Input{Projection: str("a, #b")},
			pe + "An expression attribute name used in the document path is not defined; attribute name: #b"},
		// checks run in post-order: size's operand count before the value after it
		{"post-order", Input{Condition: str("size(a, b) > :undefined")},
			ce + "Incorrect number of operands for operator or function; operator or function: size, number of operands: 2"},
		{"types before distinct", Input{Condition: str("begins_with(a, a) AND begins_with(a, :n)"), Values: vals{":n": nv("1")}},
			ce + "The first operand must be distinct from the remaining operands for this operator or function; operator: begins_with, first operand: [a]"},
		{"update paths before values", Input{Update: str("SET a = :undefined, a.b = :v"), Values: vals{":v": sv("x")}},
			ue + "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a, b]"},
		{"projection in order", Input{Projection: str("a, a.b, #undefined")},
			pe + "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a, b]"},
		// limits
		{"path depth", Input{Condition: str("attribute_exists(a" + strings.Repeat(".b", 32) + ")")},
			ce + "The document path has too many nesting levels; nesting levels: 33"},
		{"path depth with indexes", Input{Projection: str("a" + strings.Repeat("[0]", 32))},
			pe + "The document path has too many nesting levels; nesting levels: 33"},
		{"operators", Input{Condition: str(strings.Repeat("attribute_exists(a) AND ", 150) + "attribute_exists(a)")},
			ce + "The expression contains too many operators; operator count: 301"},
		{"update operators", Input{Update: str("SET " + manySets(301))},
			ue + "The expression contains too many operators; operator count: 301"},
		// order between expressions: update first, then condition
		{"update before condition", Input{Update: str("SET a ="), Condition: str("b =")},
			ue + `Syntax error; token: "<EOF>", near: "="`},
	}
	for _, tt := range tests {
		if tt.in.Update != nil && len(*tt.in.Update) > 4096 {
			t.Fatalf("%s: expression too long for the test", tt.name)
		}
		_, err := Compile(tt.in)
		if err == nil {
			t.Errorf("%s: no error, want %q", tt.name, tt.want)
			continue
		}
		e, ok := err.(*Error)
		if !ok || e.Type != "ValidationException" || e.Message != tt.want {
			t.Errorf("%s:\n got %v\nwant %q", tt.name, err, tt.want)
		}
	}
}

func TestCheckFilterKeys(t *testing.T) {
	c, err := Compile(Input{Filter: str("a = :v AND (size(#k) > :n OR contains(b, :v))"),
		Names: names{"#k": "sk"}, Values: vals{":v": sv("x"), ":n": nv("1")}})
	if err != nil {
		t.Fatal(err)
	}
	want := "Filter Expression can only contain non-primary key attributes: Primary key attribute: sk"
	if err := c.CheckFilterKeys("pk", "sk"); err == nil || err.Error() != want {
		t.Errorf("got %v", err)
	}
	if err := c.CheckFilterKeys("pk", "gsk"); err != nil {
		t.Errorf("no key in the filter: %v", err)
	}
	none, _ := Compile(Input{})
	if err := none.CheckFilterKeys("pk"); err != nil {
		t.Error(err)
	}
}

// manySets is n SET actions with one + each: x0=b+c,x1=b+c,...
func manySets(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = "x" + strconv.Itoa(i) + "=b+c"
	}
	return strings.Join(parts, ",")
}

func TestLimitsAccepted(t *testing.T) {
	for _, in := range []Input{
		{Update: str("SET " + manySets(300))},
		{Condition: str("attribute_exists(a" + strings.Repeat(".b", 31) + ")")},
		{Projection: str("a" + strings.Repeat("[0]", 31))},
		{Condition: str("a IN (" + strings.Repeat(":x,", 98) + ":x)"), Values: vals{":x": nv("1")}},
	} {
		if _, err := Compile(in); err != nil {
			t.Errorf("%v", err)
		}
	}
}

// Deeply nested expressions within the size limit get DynamoDB's answers
// (as recorded against DynamoDB by ScyllaDB's Alternator tests).
func TestDeepExpressions(t *testing.T) {
	const ce = "Invalid ConditionExpression: "
	orChain := func(depth int) string {
		return "a<b " + strings.Repeat("or (a<b ", depth) + strings.Repeat(")", depth)
	}
	if _, err := Compile(Input{Condition: str(orChain(149))}); err != nil {
		t.Errorf("299 operators: %v", err)
	}
	tests := []struct{ cond, want string }{
		{orChain(454), ce + "The expression contains too many operators; operator count: 301"},
		{strings.Repeat("not ", 1000) + "a<b", ce + "The expression contains too many operators; operator count: 301"},
		{strings.Repeat("(", 2046) + "a<b" + strings.Repeat(")", 2046), ce + "The expression has redundant parentheses;"},
		{"a < " + strings.Repeat("f(", 1355) + "b" + strings.Repeat(")", 1355), ce + "Invalid function name; function: f"},
		{"a < " + strings.Repeat("size(", 680) + "b" + strings.Repeat(")", 680),
			ce + "Incorrect operand type for operator or function; operator or function: size, operand type: N"},
		{"a<b " + strings.Repeat("and (a<b ", 20000) + strings.Repeat(")", 20000),
			ce + "Expression size has exceeded the maximum allowed size; expression size: 200004"},
	}
	for _, tt := range tests {
		_, err := Compile(Input{Condition: str(tt.cond)})
		if err == nil || err.Error() != tt.want {
			t.Errorf("%.40q...: %v, want %q", tt.cond, err, tt.want)
		}
	}
}

func TestCheckKeyPaths(t *testing.T) {
	const msg = "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: "
	tests := []struct {
		in   Input
		want string
	}{
		{Input{Projection: str("#a.b.c"), Names: names{"#a": "pk"}}, msg + "Key: pk"},
		{Input{Projection: str("pk, sk[0]")}, msg + "Key: sk"},
		{Input{Filter: str("d[1] = :b"), Values: vals{":b": nv("1")}}, msg + "IndexKey: d"},
		{Input{Condition: str("size(g.x) > :b"), Values: vals{":b": nv("1")}}, msg + "IndexKey: g"},
		{Input{Update: str("SET g.y = :v"), Values: vals{":v": sv("x")}}, msg + "IndexKey: g"},
		{Input{Update: str("SET a = if_not_exists(pk.x, :v)"), Values: vals{":v": sv("x")}}, msg + "Key: pk"},
		// A table key written nested is Update's to refuse; plain paths are fine.
		{Input{Update: str("SET pk.x = :v"), Values: vals{":v": sv("x")}}, ""},
		{Input{Condition: str("pk = :v AND d = :v AND w.x = :v"), Projection: str("pk, g, z.y"), Values: vals{":v": sv("x")}}, ""},
	}
	for _, tt := range tests {
		c, err := Compile(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		err = c.CheckKeyPaths([]string{"pk", "sk"}, []string{"d", "g"})
		if tt.want == "" {
			if err != nil {
				t.Errorf("%+v: %v", tt.in, err)
			}
		} else if err == nil || err.Error() != tt.want {
			t.Errorf("got %v, want %q", err, tt.want)
		}
	}
}
