package local_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/local"
)

// pq runs one statement and fails the test on an error.
func pq(t *testing.T, c *dynamodb.Client, st string, params ...types.AttributeValue) *dynamodb.ExecuteStatementOutput {
	t.Helper()
	out, err := pqErr(c, st, params...)
	if err != nil {
		t.Fatalf("%s: %v", st, err)
	}
	return out
}

func pqErr(c *dynamodb.Client, st string, params ...types.AttributeValue) (*dynamodb.ExecuteStatementOutput, error) {
	return c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(st), Parameters: params})
}

// ids lists the items' "pk/sk" (or "pk"), in order.
func ids(items []item) []string {
	out := []string{}
	for _, it := range items {
		id := sval(it["pk"])
		if sk, ok := it["sk"]; ok {
			id += "/" + sval(sk)
		}
		out = append(out, id)
	}
	return out
}

func sorted(s []string) []string { slices.Sort(s); return s }

func TestPartiQLStatementForms(t *testing.T) {
	srv, c := newServer(t)
	hashRangeTable(t, srv, "music")

	pq(t, c, `INSERT INTO "music" VALUE {'pk': 'a', 'sk': '1', 'n': 1, 'l': [1, 'x'], 'm': {'k': 'v', 'deep': {'x': 7}}, 's': <<'p', 'q'>>, 'ns': <<1, 2>>, 'b': TRUE, 'z': NULL}`)
	pq(t, c, `insert into music value {'pk': 'a', 'sk': '2', 'n': 2}`)
	got := getItem(t, c, "music", item{"pk": S("a"), "sk": S("1")})
	want := item{"pk": S("a"), "sk": S("1"), "n": N("1"),
		"l": &types.AttributeValueMemberL{Value: []types.AttributeValue{N("1"), S("x")}},
		"m": &types.AttributeValueMemberM{Value: item{"k": S("v"), "deep": &types.AttributeValueMemberM{Value: item{"x": N("7")}}}},
		"s": &types.AttributeValueMemberSS{Value: []string{"p", "q"}}, "ns": &types.AttributeValueMemberNS{Value: []string{"1", "2"}},
		"b": &types.AttributeValueMemberBOOL{Value: true}, "z": &types.AttributeValueMemberNULL{Value: true}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("INSERT stored %#v\nwant %#v", got, want)
	}

	// A second INSERT of the key fails and changes nothing.
	_, err := pqErr(c, `INSERT INTO music VALUE {'pk': 'a', 'sk': '1', 'n': 9}`)
	wantErr(t, err, "DuplicateItemException", "Duplicate primary key exists in table")
	if n := sval(getItem(t, c, "music", item{"pk": S("a"), "sk": S("1")})["n"]); n != "1" {
		t.Fatalf("n = %s after a failed INSERT", n)
	}

	// SELECT: *, projections of nested paths and list elements.
	if got := ids(pq(t, c, `SELECT * FROM "music" WHERE "pk" = 'a'`).Items); !reflect.DeepEqual(got, []string{"a/1", "a/2"}) {
		t.Fatalf("SELECT * = %v", got)
	}
	out := pq(t, c, `SELECT n, l[1], m.deep.x, m."k" FROM music WHERE pk = 'a' AND sk = '1'`)
	wantProj := item{"n": N("1"), "l": &types.AttributeValueMemberL{Value: []types.AttributeValue{S("x")}},
		"m": &types.AttributeValueMemberM{Value: item{"k": S("v"), "deep": &types.AttributeValueMemberM{Value: item{"x": N("7")}}}}}
	if len(out.Items) != 1 || !reflect.DeepEqual(out.Items[0], wantProj) {
		t.Fatalf("projection = %#v", out.Items)
	}
	if got := ids(pq(t, c, `SELECT * FROM music WHERE pk = 'a' ORDER BY sk DESC`).Items); !reflect.DeepEqual(got, []string{"a/2", "a/1"}) {
		t.Fatalf("ORDER BY sk DESC = %v", got)
	}

	// UPDATE: SET (+, -, list_append, set_add, set_delete), REMOVE, RETURNING.
	out = pq(t, c, `UPDATE music SET n = n + 5 SET l = list_append(l, [3]), ns = set_delete(ns, <<1>>) SET s = set_add(s, <<'r'>>) REMOVE z WHERE pk = 'a' AND sk = '1' RETURNING MODIFIED NEW *`)
	wantMod := item{"n": N("6"), "l": &types.AttributeValueMemberL{Value: []types.AttributeValue{N("1"), S("x"), N("3")}},
		"ns": &types.AttributeValueMemberNS{Value: []string{"2"}}, "s": &types.AttributeValueMemberSS{Value: []string{"p", "q", "r"}}}
	if len(out.Items) != 1 || !reflect.DeepEqual(out.Items[0], wantMod) {
		t.Fatalf("RETURNING MODIFIED NEW = %#v", out.Items)
	}
	out = pq(t, c, `UPDATE music SET n = n - 2 WHERE pk = 'a' AND sk = '1' RETURNING ALL OLD *`)
	if len(out.Items) != 1 || sval(out.Items[0]["n"]) != "6" || out.Items[0]["l"] == nil {
		t.Fatalf("RETURNING ALL OLD = %#v", out.Items)
	}
	if out := pq(t, c, `UPDATE music SET n = 10 WHERE pk = 'a' AND sk = '1'`); len(out.Items) != 0 {
		t.Fatalf("UPDATE without RETURNING returned %v", out.Items)
	}

	// UPDATE of a missing item and UPDATE whose extra condition is false
	// fail; ReturnValuesOnConditionCheckFailure returns the item.
	_, err = pqErr(c, `UPDATE music SET n = 1 WHERE pk = 'a' AND sk = 'missing'`)
	wantErr(t, err, "ConditionalCheckFailedException", "The conditional request failed")
	if getItem(t, c, "music", item{"pk": S("a"), "sk": S("missing")}) != nil {
		t.Fatal("UPDATE of a missing item created it")
	}
	_, err = c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{
		Statement:                           aws.String(`UPDATE music SET n = 1 WHERE pk = 'a' AND sk = '1' AND n > 100`),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	})
	var ccf *types.ConditionalCheckFailedException
	if !errorsAs(err, &ccf) || sval(ccf.Item["n"]) != "10" {
		t.Fatalf("UPDATE with a false condition: %v (item %v)", err, ccf)
	}

	// UPDATE and DELETE need the whole key.
	_, err = pqErr(c, `UPDATE music SET n = 1 WHERE pk = 'a'`)
	wantErr(t, err, "ValidationException", "Where clause does not contain a mandatory equality on all key attributes")
	_, err = pqErr(c, `DELETE FROM music WHERE pk = 'a' OR sk = '1'`)
	wantErr(t, err, "ValidationException", "Where clause does not contain a mandatory equality on all key attributes")

	// DELETE: a false condition fails, a missing item is a no-op, RETURNING
	// ALL OLD returns the deleted item.
	_, err = pqErr(c, `DELETE FROM music WHERE pk = 'a' AND sk = '2' AND n = 99`)
	wantErr(t, err, "ConditionalCheckFailedException", "The conditional request failed")
	pq(t, c, `DELETE FROM music WHERE pk = 'a' AND sk = 'none' AND n = 99`)
	out = pq(t, c, `DELETE FROM music WHERE pk = 'a' AND sk = '2' AND n = 2 RETURNING ALL OLD *`)
	if len(out.Items) != 1 || sval(out.Items[0]["n"]) != "2" {
		t.Fatalf("DELETE RETURNING ALL OLD = %#v", out.Items)
	}
	if getItem(t, c, "music", item{"pk": S("a"), "sk": S("2")}) != nil {
		t.Fatal("DELETE left the item")
	}
	_, err = pqErr(c, `DELETE FROM music WHERE pk = 'a' AND sk = '1' RETURNING ALL NEW *`)
	wantErr(t, err, "ValidationException", "DELETE supports only RETURNING ALL OLD *")

	// A missing table.
	_, err = pqErr(c, `SELECT * FROM nosuchtable`)
	wantErr(t, err, "ResourceNotFoundException", "")
	_, err = pqErr(c, `INSERT INTO nosuchtable VALUE {'pk': 'a'}`)
	wantErr(t, err, "ResourceNotFoundException", "")
}

func errorsAs[T error](err error, target *T) bool {
	for err != nil {
		if e, ok := err.(T); ok {
			*target = e
			return true
		}
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		err = u.Unwrap()
	}
	return false
}

// TestPartiQLOperators runs every WHERE operator as a Scan and as a Query
// and checks which items match.
func TestPartiQLOperators(t *testing.T) {
	srv, c := newServer(t)
	hashRangeTable(t, srv, "ops")
	pq(t, c, `INSERT INTO ops VALUE {'pk': 'p', 'sk': 'a', 'n': 1, 's': 'apple', 'tags': <<'x', 'y'>>, 'l': [1, 2, 3], 'z': NULL}`)
	pq(t, c, `INSERT INTO ops VALUE {'pk': 'p', 'sk': 'b', 'n': 2, 's': 'banana', 'tags': <<'y'>>, 'm': {'k': 1}}`)
	pq(t, c, `INSERT INTO ops VALUE {'pk': 'p', 'sk': 'c', 'n': 3, 's': 'cherry'}`)
	pq(t, c, `INSERT INTO ops VALUE {'pk': 'q', 'sk': 'a', 'n': 4, 's': 'apricot'}`)
	cases := []struct {
		where string
		want  []string
	}{
		{`n = 2`, []string{"p/b"}},
		{`n <> 2`, []string{"p/a", "p/c", "q/a"}},
		{`n != 2`, []string{"p/a", "p/c", "q/a"}},
		{`n < 2`, []string{"p/a"}},
		{`n <= 2`, []string{"p/a", "p/b"}},
		{`n > 2`, []string{"p/c", "q/a"}},
		{`n >= 2`, []string{"p/b", "p/c", "q/a"}},
		{`n BETWEEN 2 AND 3`, []string{"p/b", "p/c"}},
		{`n NOT BETWEEN 2 AND 3`, []string{"p/a", "q/a"}},
		{`n IN [1, 4]`, []string{"p/a", "q/a"}},
		{`s IN ('banana', 'cherry')`, []string{"p/b", "p/c"}},
		{`n = 1 OR n = 3`, []string{"p/a", "p/c"}},
		{`n > 1 AND s <> 'cherry'`, []string{"p/b", "q/a"}},
		{`NOT n = 1`, []string{"p/b", "p/c", "q/a"}},
		{`NOT (n = 1 OR n = 2) AND pk = 'p'`, []string{"p/c"}},
		{`m IS MISSING`, []string{"p/a", "p/c", "q/a"}},
		{`m IS NOT MISSING`, []string{"p/b"}},
		{`z IS NULL AND l IS NOT MISSING`, []string{"p/a"}},
		{`tags IS NOT NULL`, []string{"p/a", "p/b"}},
		{`begins_with(s, 'ap')`, []string{"p/a", "q/a"}},
		{`BEGINS_WITH("s", 'ch')`, []string{"p/c"}},
		{`contains(tags, 'x')`, []string{"p/a"}},
		{`contains(s, 'an')`, []string{"p/b"}},
		{`attribute_type(m, 'M')`, []string{"p/b"}},
		{`attribute_type(n, 'S')`, []string{}},
		{`size(s) > 5`, []string{"p/b", "p/c", "q/a"}},
		{`size(l) = 3`, []string{"p/a"}},
		{`l[1] = 2`, []string{"p/a"}},
		{`m.k = 1`, []string{"p/b"}},
		{`'banana' = s`, []string{"p/b"}},
	}
	for _, tc := range cases {
		got := sorted(ids(pq(t, c, `SELECT * FROM ops WHERE `+tc.where).Items))
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Scan WHERE %s = %v, want %v", tc.where, got, tc.want)
		}
		// The same condition with the partition key pinned is a Query.
		var want []string
		for _, id := range tc.want {
			if strings.HasPrefix(id, "p/") {
				want = append(want, id)
			}
		}
		got = sorted(ids(pq(t, c, `SELECT * FROM ops WHERE pk = 'p' AND (`+tc.where+`)`).Items))
		if !reflect.DeepEqual(got, append([]string{}, want...)) {
			t.Errorf("Query WHERE %s = %v, want %v", tc.where, got, want)
		}
	}

	// Key conditions on the sort key, both ways round.
	for where, want := range map[string][]string{
		`pk = 'p' AND sk > 'a'`:                  {"p/b", "p/c"},
		`pk = 'p' AND 'b' >= sk`:                 {"p/a", "p/b"},
		`pk = 'p' AND sk BETWEEN 'b' AND 'c'`:    {"p/b", "p/c"},
		`pk = 'p' AND begins_with(sk, 'c')`:      {"p/c"},
		`pk IN ['q', 'p'] AND sk = 'a'`:          {"q/a", "p/a"},
		`pk = 'p' AND sk > 'a' AND sk < 'c'`:     {"p/b"},
		`pk = 'nope'`:                            {},
		`pk = 1`:                                 {},
		`pk = 'p' AND sk = 'a' AND n = 2`:        {},
		`pk IN ('p') AND sk IN ('a', 'c', 'zz')`: {"p/a", "p/c"},
	} {
		if got := ids(pq(t, c, `SELECT * FROM ops WHERE `+where).Items); !reflect.DeepEqual(got, want) {
			t.Errorf("WHERE %s = %v, want %v", where, got, want)
		}
	}

	// ORDER BY needs the partitions pinned (an OR of equalities pins them
	// too) and orders by the partition key, then the sort key.
	for st, want := range map[string][]string{
		`SELECT * FROM ops WHERE pk = 'q' OR pk = 'p' ORDER BY pk`:                         {"p/a", "p/b", "p/c", "q/a"},
		`SELECT * FROM ops WHERE pk IN ['p', 'q'] ORDER BY pk DESC, sk DESC`:               {"q/a", "p/c", "p/b", "p/a"},
		`SELECT * FROM ops WHERE (pk = 'q' AND n = 4) OR (pk = 'p' AND n > 1) ORDER BY pk`: {"p/b", "p/c", "q/a"},
		`SELECT * FROM ops WHERE pk = 'p' ORDER BY sk ASC`:                                 {"p/a", "p/b", "p/c"},
	} {
		if got := ids(pq(t, c, st).Items); !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %v, want %v", st, got, want)
		}
	}
	_, err := pqErr(c, `SELECT * FROM ops WHERE pk = 'p' AND sk BETWEEN 'c' AND 'b'`)
	wantErr(t, err, "ValidationException", "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {S:c}, upper bound operand: AttributeValue: {S:b}")
	_, err = pqErr(c, `UPDATE ops SET n = n + 'x' WHERE pk = 'p' AND sk = 'a'`)
	wantErr(t, err, "ValidationException", "Incorrect operand type for operator or function; operator or function: +, operand type: S")
	_, err = pqErr(c, `SELECT * FROM ops WHERE pk = 'p' OR n = 1 ORDER BY pk`)
	wantErr(t, err, "ValidationException", "Must have WHERE clause in the statement when using ORDER BY clause.")
	many := make([]string, 51)
	for i := range many {
		many[i] = fmt.Sprintf("'%d'", i)
	}
	_, err = pqErr(c, `SELECT * FROM ops WHERE pk IN [`+strings.Join(many, ", ")+`]`)
	wantErr(t, err, "ValidationException", "IN takes at most 50 partition key values")
	if got := ids(pq(t, c, `SELECT * FROM ops WHERE pk IN [`+strings.Join(many[:49], ", ")+`, 'p']`).Items); len(got) != 3 {
		t.Fatalf("IN of 50 partitions = %v", got)
	}
	_, err = pqErr(c, `SELECT * FROM ops WHERE pk = 'p' ORDER BY n`)
	wantErr(t, err, "ValidationException", "ORDER BY is supported only on the key attributes of the table or index read: n")
}

// TestPartiQLParameters binds a parameter of every attribute type, in an
// INSERT and in a WHERE, and checks the item round-trips.
func TestPartiQLParameters(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "params")
	vals := []types.AttributeValue{
		S("k"), N("1.5"), B(1, 2), &types.AttributeValueMemberBOOL{Value: true}, &types.AttributeValueMemberNULL{Value: true},
		&types.AttributeValueMemberL{Value: []types.AttributeValue{S("x"), N("2")}},
		&types.AttributeValueMemberM{Value: item{"a": S("b")}},
		&types.AttributeValueMemberSS{Value: []string{"s1", "s2"}},
		&types.AttributeValueMemberNS{Value: []string{"1", "2"}},
		&types.AttributeValueMemberBS{Value: [][]byte{{1}, {2}}},
	}
	pq(t, c, `INSERT INTO params VALUE {'pk': ?, 'n': ?, 'b': ?, 'bool': ?, 'null': ?, 'l': ?, 'm': ?, 'ss': ?, 'ns': ?, 'bs': ?}`, vals...)
	want := item{"pk": vals[0], "n": vals[1], "b": vals[2], "bool": vals[3], "null": vals[4], "l": vals[5], "m": vals[6], "ss": vals[7], "ns": vals[8], "bs": vals[9]}
	if got := getItem(t, c, "params", item{"pk": S("k")}); !reflect.DeepEqual(got, want) {
		t.Fatalf("stored %#v\nwant %#v", got, want)
	}
	names := []string{"pk", "n", "b", "bool", "null", "l", "m", "ss", "ns", "bs"}
	for i, v := range vals {
		out := pq(t, c, `SELECT pk FROM params WHERE "`+names[i]+`" = ?`, v)
		if got := ids(out.Items); !reflect.DeepEqual(got, []string{"k"}) {
			t.Errorf("WHERE %s = ? (%T) = %v", names[i], v, got)
		}
	}
	// A parameter inside a set literal, a list and a map.
	pq(t, c, `UPDATE params SET bs = set_add(bs, <<?>>), l = [?, 'y'], m = {'a': ?} WHERE pk = ?`,
		&types.AttributeValueMemberB{Value: []byte{3}}, N("7"), S("c"), S("k"))
	got := getItem(t, c, "params", item{"pk": S("k")})
	if len(got["bs"].(*types.AttributeValueMemberBS).Value) != 3 || sval(got["l"].(*types.AttributeValueMemberL).Value[0]) != "7" ||
		sval(got["m"].(*types.AttributeValueMemberM).Value["a"]) != "c" {
		t.Fatalf("after UPDATE with parameters: %#v", got)
	}

	_, err := pqErr(c, `SELECT * FROM params WHERE pk = ?`)
	wantErr(t, err, "ValidationException", "Number of parameters in request and statement don't match.")
	_, err = pqErr(c, `SELECT * FROM params WHERE pk = ?`, S("a"), S("b"))
	wantErr(t, err, "ValidationException", "Number of parameters in request and statement don't match.")
	_, err = pqErr(c, `INSERT INTO params VALUE {'pk': 'x', 'n': ?}`, &types.AttributeValueMemberNS{Value: []string{"1", "1"}})
	wantErrContains(t, err, "ValidationException", "contains duplicates")
}

// TestPartiQLPagination pages a Scan and a multi-partition Query with Limit
// and NextToken, and checks every item comes once.
func TestPartiQLPagination(t *testing.T) {
	srv, c := newServer(t)
	hashRangeTable(t, srv, "pages")
	var all []string
	for _, pk := range []string{"a", "b", "c"} {
		for i := range 4 {
			sk := fmt.Sprint(i)
			pq(t, c, `INSERT INTO pages VALUE {'pk': ?, 'sk': ?}`, S(pk), S(sk))
			all = append(all, pk+"/"+sk)
		}
	}
	walk := func(st string, limit int32) (got []string, pages int) {
		var token *string
		for {
			out, err := c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(st), Limit: aws.Int32(limit), NextToken: token})
			if err != nil {
				t.Fatalf("%s: %v", st, err)
			}
			if len(out.Items) > int(limit) {
				t.Fatalf("%s: %d items over Limit %d", st, len(out.Items), limit)
			}
			got = append(got, ids(out.Items)...)
			pages++
			if out.NextToken == nil {
				if out.LastEvaluatedKey != nil {
					t.Fatalf("LastEvaluatedKey without NextToken")
				}
				return got, pages
			}
			token = out.NextToken
			if pages > 20 {
				t.Fatal("pagination does not end")
			}
		}
	}
	got, pages := walk(`SELECT * FROM pages`, 5)
	if !reflect.DeepEqual(sorted(got), sorted(slices.Clone(all))) || pages != 3 {
		t.Fatalf("Scan pages: %v in %d pages", got, pages)
	}
	want := []string{"c/3", "c/2", "c/1", "c/0", "a/3", "a/2", "a/1", "a/0"}
	for _, limit := range []int32{1, 2, 3, 4, 5, 8, 100} {
		got, pages = walk(`SELECT * FROM pages WHERE pk IN ['c', 'a'] ORDER BY sk DESC`, limit)
		if !reflect.DeepEqual(got, want) || pages < len(want)/int(limit) {
			t.Fatalf("Query pages of %d: %v in %d pages, want %v", limit, got, pages, want)
		}
	}
	// Limit counts the items read, not the ones matched.
	out, err := c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM pages WHERE pk = 'b' AND sk <> '0'`), Limit: aws.Int32(2)})
	if err != nil || !reflect.DeepEqual(ids(out.Items), []string{"b/1"}) || out.NextToken == nil {
		t.Fatalf("Limit 2 of a filtered Query: %v %v", err, out)
	}

	// A page holds at most 1 MB read, over all the partitions it reads.
	big := S(strings.Repeat("x", 350<<10))
	for _, k := range []string{"x/1", "x/2", "y/1", "y/2"} {
		pk, sk, _ := strings.Cut(k, "/")
		pq(t, c, `INSERT INTO pages VALUE {'pk': ?, 'sk': ?, 'big': ?}`, S(pk), S(sk), big)
	}
	out, err = c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT pk, sk FROM pages WHERE pk IN ['x', 'y']`)})
	if err != nil || !reflect.DeepEqual(ids(out.Items), []string{"x/1", "x/2", "y/1"}) || out.NextToken == nil {
		t.Fatalf("first page of 1 MB: %v %v", err, ids(out.Items))
	}
	out, err = c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT pk, sk FROM pages WHERE pk IN ['x', 'y']`), NextToken: out.NextToken})
	if err != nil || !reflect.DeepEqual(ids(out.Items), []string{"y/2"}) || out.NextToken != nil {
		t.Fatalf("second page: %v %v", err, ids(out.Items))
	}

	_, err = c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM pages`), NextToken: aws.String("garbage")})
	wantErr(t, err, "ValidationException", "The provided NextToken is invalid")
	_, err = c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM pages`), Limit: aws.Int32(0)})
	wantErr(t, err, "ValidationException", "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1")
	_, err = pqErr(c, `SELECT * FROM pages ORDER BY sk`)
	wantErr(t, err, "ValidationException", "Must have WHERE clause in the statement when using ORDER BY clause.")
}

// TestPartiQLIndexAndCapacity reads a global index and checks that the
// capacity of statements is the one of their JSON twins.
func TestPartiQLIndexAndCapacity(t *testing.T) {
	srv, c := newServer(t)
	srv.CreateTable(t, &dynamodb.CreateTableInput{
		TableName: aws.String("idx"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"},
			{AttributeName: aws.String("g"), AttributeType: "S"}, {AttributeName: aws.String("n"), AttributeType: "N"}},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: "HASH"}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byG"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: "HASH"}, {AttributeName: aws.String("n"), KeyType: "RANGE"}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
		BillingMode: types.BillingModePayPerRequest,
	})
	big := strings.Repeat("x", 3000)
	out, err := c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{
		Statement:              aws.String(`INSERT INTO idx VALUE {'pk': 'a', 'g': 'G', 'n': 2, 'big': ?}`),
		Parameters:             []types.AttributeValue{S(big)},
		ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
	})
	if err != nil {
		t.Fatal(err)
	}
	put, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("idx"),
		Item: item{"pk": S("b"), "g": S("G"), "n": N("1"), "big": S(big)}, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out.ConsumedCapacity, put.ConsumedCapacity) {
		t.Fatalf("INSERT capacity %+v, PutItem's %+v", out.ConsumedCapacity, put.ConsumedCapacity)
	}
	sel, err := c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{
		Statement: aws.String(`SELECT pk, n FROM "idx"."byG" WHERE g = 'G' ORDER BY n`), ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
	})
	if err != nil {
		t.Fatal(err)
	}
	q, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("idx"), IndexName: aws.String("byG"),
		KeyConditionExpression: aws.String("g = :g"), ProjectionExpression: aws.String("pk, n"),
		ExpressionAttributeValues: item{":g": S("G")}, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(sel.Items, q.Items) || !reflect.DeepEqual(ids(sel.Items), []string{"b", "a"}) {
		t.Fatalf("index SELECT %v, Query %v", sel.Items, q.Items)
	}
	if !reflect.DeepEqual(sel.ConsumedCapacity, q.ConsumedCapacity) {
		t.Fatalf("index SELECT capacity %+v, Query's %+v", sel.ConsumedCapacity, q.ConsumedCapacity)
	}
	_, err = c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "idx"."byG" WHERE g = 'G'`), ConsistentRead: aws.Bool(true)})
	// PartiQL words these its own way, and finds the index missing first.
	wantErr(t, err, "ValidationException", "Strongly consistent read is not supported on Global Secondary Indexes")
	_, err = pqErr(c, `SELECT * FROM "idx"."nope"`)
	wantErr(t, err, "ValidationException", "The table does not have the specified index")
	_, err = c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "idx"."nope"`), ConsistentRead: aws.Bool(true)})
	wantErr(t, err, "ValidationException", "The table does not have the specified index")
}

// TestPartiQLSyntaxErrors checks that each class of bad statement is a
// ValidationException naming the position, never a 500.
func TestPartiQLSyntaxErrors(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "syn")
	const pre = "Statement wasn't well formed, can't be processed: "
	for st, want := range map[string]string{
		`SELEC * FROM syn`:                                    `unexpected token "SELEC" at line 1, column 1`,
		`SELECT * FORM syn`:                                   `unexpected token "FORM" at line 1, column 10`,
		`SELECT * FROM syn WHERE`:                             `unexpected end of statement at line 1, column 24`,
		`SELECT * FROM syn WHERE pk = 'abc`:                   `unterminated string literal at line 1, column 30`,
		`SELECT * FROM "syn WHERE pk = 1`:                     `unterminated quoted identifier at line 1, column 15`,
		"SELECT * FROM syn\nWHERE pk = 1 §":                   `invalid character "§" at line 2, column 14`,
		`SELECT * FROM syn WHERE pk = 1 pk`:                   `unexpected token "pk" at line 1, column 32`,
		`SELECT * FROM syn WHERE (pk = 1`:                     `unexpected end of statement at line 1, column 32`,
		`SELECT * FROM syn WHERE pk IN 1`:                     `unexpected number at line 1, column 31`,
		`SELECT * FROM syn WHERE pk = 'secret' 'x'`:           `unexpected string literal at line 1, column 39`,
		`SELECT * FROM syn WHERE a[x] = 1`:                    `unexpected token "x" at line 1, column 27`,
		`SELECT * FROM syn WHERE a[1.5] = 1`:                  `invalid list index "1.5" at line 1, column 27`,
		`INSERT INTO syn VALUE ['a']`:                         `VALUE must be a tuple {'attribute': value, ...} at line 1, column 23`,
		`INSERT INTO syn VALUE {'pk': 'a', 'pk': 'b'}`:        `duplicate attribute "pk" at line 1, column 35`,
		`INSERT INTO syn VALUE {pk: 'a'}`:                     `unexpected token "pk" at line 1, column 24`,
		`INSERT INTO syn VALUE {'pk': <<'a', 1>>}`:            `set elements must all be of one type at line 1, column 30`,
		`INSERT INTO syn VALUE {'pk': <<>>}`:                  `unexpected token ">>" at line 1, column 32`,
		`UPDATE syn WHERE pk = 'a'`:                           `unexpected token "WHERE" at line 1, column 12`,
		`UPDATE syn SET a = 1`:                                `unexpected end of statement at line 1, column 21`,
		`UPDATE syn SET a = set_add(b, <<1>>) WHERE pk = 'a'`: `set_add must name the attribute it sets at line 1, column 20`,
		`DELETE FROM syn WHERE pk = 'a' RETURNING ALL *`:      `unexpected token "*" at line 1, column 46`,
		`SELECT * FROM syn WHERE begins_with(pk) `:            `function begins_with takes 2 arguments at line 1, column 25`,
		`SELECT * FROM syn WHERE 1 IS MISSING`:                `IS takes an attribute path at line 1, column 30`,
		`SELECT * FROM select`:                                `unexpected token "select" at line 1, column 15`,
	} {
		_, err := pqErr(c, st)
		wantErr(t, err, "ValidationException", pre+want)
	}
	_, err := pqErr(c, strings.Repeat("x", 8193))
	wantErrContains(t, err, "ValidationException", "Member must have length less than or equal to 8192")
	_, err = pqErr(c, `EXISTS(SELECT * FROM syn WHERE pk = 'a')`)
	wantErr(t, err, "ValidationException", "EXISTS is only supported in ExecuteTransaction")
}

func TestBatchExecuteStatement(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "bat")
	put(t, c, "bat", item{"pk": S("taken"), "n": N("1")})
	put(t, c, "bat", item{"pk": S("guarded"), "n": N("5")})
	put(t, c, "bat", item{"pk": S("guarded2"), "n": N("5")})
	stmt := func(s string, params ...types.AttributeValue) types.BatchStatementRequest {
		return types.BatchStatementRequest{Statement: aws.String(s), Parameters: params}
	}
	out, err := c.BatchExecuteStatement(ctx, &dynamodb.BatchExecuteStatementInput{
		Statements: []types.BatchStatementRequest{
			stmt(`INSERT INTO bat VALUE {'pk': 'new1'}`),
			stmt(`INSERT INTO bat VALUE {'pk': 'taken'}`),
			stmt(`UPDATE bat SET n = n + 1 WHERE pk = 'guarded' AND n > 10`),
			stmt(`INSERT INTO bat VALUE {'pk': ?, 'n': 2}`, S("new2")),
			stmt(`INSERT INTO bat VALUE {'pk': 'x'`),
			stmt(`DELETE FROM nosuch WHERE pk = 'a'`),
			{Statement: aws.String(`UPDATE bat SET n = 0 WHERE pk = 'guarded2' AND n = 0`), ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld},
		},
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	})
	if err != nil {
		t.Fatal(err)
	}
	type res struct{ code, table string }
	var got []res
	for _, r := range out.Responses {
		if r.Error != nil {
			got = append(got, res{string(r.Error.Code), aws.ToString(r.TableName)})
		} else {
			got = append(got, res{"", aws.ToString(r.TableName)})
		}
	}
	want := []res{{"", "bat"}, {"DuplicateItem", ""}, {"ConditionalCheckFailed", ""}, {"", "bat"}, {"ValidationError", ""}, {"ResourceNotFound", ""}, {"ConditionalCheckFailed", ""}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("responses %v\nwant      %v", got, want)
	}
	if e := out.Responses[6].Error; sval(e.Item["n"]) != "5" {
		t.Fatalf("ALL_OLD item of a failed statement: %v", e.Item)
	}
	if !strings.Contains(aws.ToString(out.Responses[4].Error.Message), "at line 1, column 33") {
		t.Fatalf("syntax error message %q", aws.ToString(out.Responses[4].Error.Message))
	}
	if getItem(t, c, "bat", item{"pk": S("new1")}) == nil || sval(getItem(t, c, "bat", item{"pk": S("new2")})["n"]) != "2" {
		t.Fatal("the statements that succeeded did not write")
	}
	if len(out.ConsumedCapacity) != 1 || aws.ToFloat64(out.ConsumedCapacity[0].CapacityUnits) != 2 {
		t.Fatalf("ConsumedCapacity %+v, want 2 units on bat", out.ConsumedCapacity)
	}

	// Reads: one item per statement, with the whole key.
	rd, err := c.BatchExecuteStatement(ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
		stmt(`SELECT pk, n FROM bat WHERE pk = 'guarded'`),
		stmt(`SELECT * FROM bat WHERE pk = 'absent'`),
		stmt(`SELECT * FROM bat WHERE n = 1`),
	}})
	if err != nil {
		t.Fatal(err)
	}
	if r := rd.Responses; sval(r[0].Item["n"]) != "5" || r[1].Item != nil || r[1].Error != nil || aws.ToString(r[1].TableName) != "bat" ||
		r[2].Error == nil || aws.ToString(r[2].Error.Message) != "Where clause does not contain a mandatory equality on all key attributes" {
		t.Fatalf("batch reads: %+v", rd.Responses)
	}

	_, err = c.BatchExecuteStatement(ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
		stmt(`SELECT * FROM bat WHERE pk = 'a'`), stmt(`DELETE FROM bat WHERE pk = 'b'`)}})
	wantErr(t, err, "ValidationException", "Read and write requests together in the same batch is not supported.")
	_, err = c.BatchExecuteStatement(ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
		stmt(`DELETE FROM bat WHERE pk = 'a'`), stmt(`UPDATE bat SET n = 1 WHERE pk = 'a'`)}})
	wantErr(t, err, "ValidationException", "Provided list of item keys contains duplicates")
	many := make([]types.BatchStatementRequest, 26)
	for i := range many {
		many[i] = stmt(fmt.Sprintf(`DELETE FROM bat WHERE pk = '%d'`, i))
	}
	_, err = c.BatchExecuteStatement(ctx, &dynamodb.BatchExecuteStatementInput{Statements: many})
	wantErr(t, err, "ValidationException", "1 validation error detected: Value '26 statements' at 'statements' failed to satisfy constraint: Member must have length less than or equal to 25")
}

func TestExecuteTransaction(t *testing.T) {
	srv, c := newServer(t)
	hashTable(t, srv, "acct")
	put(t, c, "acct", item{"pk": S("a"), "bal": N("10")})
	put(t, c, "acct", item{"pk": S("b"), "bal": N("0")})
	put(t, c, "acct", item{"pk": S("c"), "open": &types.AttributeValueMemberBOOL{Value: true}})
	ps := func(s string, params ...types.AttributeValue) types.ParameterizedStatement {
		return types.ParameterizedStatement{Statement: aws.String(s), Parameters: params}
	}
	transfer := []types.ParameterizedStatement{
		ps(`UPDATE acct SET bal = bal - ? WHERE pk = 'a' AND bal >= ?`, N("4"), N("4")),
		ps(`UPDATE acct SET bal = bal + 4 WHERE pk = 'b'`),
		ps(`EXISTS(SELECT * FROM acct WHERE pk = 'c' AND open = TRUE)`),
		ps(`INSERT INTO acct VALUE {'pk': 'log1'}`),
	}
	tx := func(token string, stmts ...types.ParameterizedStatement) (*dynamodb.ExecuteTransactionOutput, error) {
		in := &dynamodb.ExecuteTransactionInput{TransactStatements: stmts}
		if token != "" {
			in.ClientRequestToken = aws.String(token)
		}
		return c.ExecuteTransaction(ctx, in)
	}
	if _, err := tx("tok-1", transfer...); err != nil {
		t.Fatal(err)
	}
	// The same token and request again: nothing is applied twice.
	if _, err := tx("tok-1", transfer...); err != nil {
		t.Fatal(err)
	}
	if a, b := sval(getItem(t, c, "acct", item{"pk": S("a")})["bal"]), sval(getItem(t, c, "acct", item{"pk": S("b")})["bal"]); a != "6" || b != "4" {
		t.Fatalf("balances a=%s b=%s, want 6 and 4", a, b)
	}
	_, err := tx("tok-1", transfer[:2]...)
	wantErr(t, err, "IdempotentParameterMismatchException", "")

	// A transaction that cannot complete changes nothing and gives a reason
	// per statement.
	_, err = tx("", append([]types.ParameterizedStatement{}, transfer[0], transfer[1],
		ps(`EXISTS(SELECT * FROM acct WHERE pk = 'c' AND open = FALSE)`),
		ps(`INSERT INTO acct VALUE {'pk': 'log1'}`))...)
	_, reasons := cancelReasons(t, err)
	var codes []string
	for _, r := range reasons {
		codes = append(codes, aws.ToString(r.Code))
	}
	if want := []string{"None", "None", "ConditionalCheckFailed", "DuplicateItem"}; !reflect.DeepEqual(codes, want) {
		t.Fatalf("reasons %v, want %v", codes, want)
	}
	if a := sval(getItem(t, c, "acct", item{"pk": S("a")})["bal"]); a != "6" {
		t.Fatalf("a cancelled transaction changed a to %s", a)
	}

	// Reads: one item per statement, in order, if the rest of its WHERE
	// holds.
	out, err := tx("", ps(`SELECT bal FROM acct WHERE pk = 'b'`), ps(`SELECT * FROM acct WHERE pk = 'none'`), ps(`SELECT pk FROM acct WHERE pk = 'a' AND bal > 5`),
		ps(`SELECT * FROM acct WHERE pk = 'c' AND open = FALSE`))
	if err != nil {
		t.Fatal(err)
	}
	if r := out.Responses; len(r) != 4 || sval(r[0].Item["bal"]) != "4" || r[0].Item["pk"] != nil || r[1].Item != nil ||
		sval(r[2].Item["pk"]) != "a" || r[2].Item["bal"] != nil || r[3].Item != nil {
		t.Fatalf("transaction reads: %+v", out.Responses)
	}
	_, err = tx("", ps(`SELECT * FROM acct WHERE pk > 'a'`))
	wantErr(t, err, "ValidationException", "Where clause does not contain a mandatory equality on all key attributes")

	_, err = tx("", ps(`SELECT * FROM acct WHERE pk = 'a'`), ps(`DELETE FROM acct WHERE pk = 'b'`))
	wantErr(t, err, "ValidationException", "Read and write statements together in the same transaction is not supported.")
	_, err = tx("", ps(`DELETE FROM acct WHERE pk = 'a'`), ps(`UPDATE acct SET x = 1 WHERE pk = 'a'`))
	wantErr(t, err, "ValidationException", "Transaction request cannot include multiple operations on one item")
	_, err = tx("", ps(`DELETE FROM acct WHERE pk = 'a'`), ps(`SELEC`))
	wantErrContains(t, err, "ValidationException", "at line 1, column 1")
	many := make([]types.ParameterizedStatement, 101)
	for i := range many {
		many[i] = ps(fmt.Sprintf(`DELETE FROM acct WHERE pk = '%d'`, i))
	}
	_, err = tx("", many...)
	wantErr(t, err, "ValidationException", "1 validation error detected: Value '101 items' at 'transactStatements' failed to satisfy constraint: Member must have length less than or equal to 100")
}

// FuzzPartiQL sends arbitrary statements, alone, in a batch and in a
// transaction, to a table holding items: the server must answer each with
// a 200 or a 400, never a 500.
func FuzzPartiQL(f *testing.F) {
	for _, s := range []string{
		`SELECT * FROM fuzz WHERE pk = 'a' AND n > 1 ORDER BY pk`,
		`SELECT l[0], m.k FROM fuzz WHERE pk IN ['a', 'b'] OR size(l) = 1`,
		`INSERT INTO fuzz VALUE {'pk': 'c', 's': <<'x'>>, 'l': [1, {'k': NULL}]}`,
		`UPDATE fuzz SET n = n + 1, l = list_append(l, [2]) REMOVE m WHERE pk = 'a' RETURNING ALL NEW *`,
		`UPDATE fuzz SET s = set_add(s, <<'y'>>) WHERE pk = 'b' AND s IS NOT MISSING`,
		`DELETE FROM fuzz WHERE pk = 'b' AND begins_with(s, 'x') RETURNING ALL OLD *`,
		`EXISTS(SELECT * FROM fuzz WHERE pk = 'a' AND attribute_type(n, 'N'))`,
		`SELECT * FROM fuzz."nope" WHERE pk = ?`,
	} {
		f.Add(s)
	}
	srv, err := local.New()
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { srv.Close() })
	c := newCaller(srv)
	c.call(f, "CreateTable", `{"TableName":"fuzz","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`)
	c.call(f, "PutItem", `{"TableName":"fuzz","Item":{"pk":{"S":"a"},"n":{"N":"1"},"l":{"L":[{"N":"1"}]},"m":{"M":{"k":{"S":"v"}}}}}`)
	c.call(f, "PutItem", `{"TableName":"fuzz","Item":{"pk":{"S":"b"},"s":{"SS":["x"]}}}`)
	f.Fuzz(func(t *testing.T, st string) {
		q, _ := json.Marshal(st)
		p := `,"Parameters":[{"S":"a"}]`
		for _, r := range [][2]string{
			{"ExecuteStatement", `{"Statement":` + string(q) + `}`},
			{"ExecuteStatement", `{"Statement":` + string(q) + p + `,"Limit":1}`},
			{"BatchExecuteStatement", `{"Statements":[{"Statement":` + string(q) + `},{"Statement":` + string(q) + p + `}]}`},
			{"ExecuteTransaction", `{"TransactStatements":[{"Statement":` + string(q) + `}]}`},
		} {
			c.req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+r[0])
			c.br.Reset([]byte(r[1]))
			c.req.Body = &c.br
			c.req.ContentLength = int64(len(r[1]))
			c.w.status = 0
			clear(c.w.h)
			c.h.ServeHTTP(&c.w, c.req)
			if c.w.status != 200 && c.w.status != 400 {
				t.Fatalf("%s %s: status %d", r[0], r[1], c.w.status)
			}
		}
	})
}

// A SELECT by full primary key is answered by one lookup: the same item,
// projection and consumed capacity as GetItem, and the general read's
// answer for the statements that only look like one.
func TestPartiQLSelectByKeyLookup(t *testing.T) {
	srv, c := newServer(t)
	hashRangeTable(t, srv, "music")
	pq(t, c, `INSERT INTO music VALUE {'pk': 'a', 'sk': '1', 'n': 1, 'm': {'x': 2, 'y': 3}, 'pad': ?}`, S(strings.Repeat("p", 5000)))
	pq(t, c, `INSERT INTO music VALUE {'pk': 'a', 'sk': '2', 'n': 2}`)

	for _, consistent := range []bool{false, true} {
		get, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("music"), Key: item{"pk": S("a"), "sk": S("1")},
			ConsistentRead: aws.Bool(consistent), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
		if err != nil {
			t.Fatal(err)
		}
		sel, err := c.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM music WHERE sk = '1' AND pk = ?`),
			Parameters: []types.AttributeValue{S("a")}, ConsistentRead: aws.Bool(consistent), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
		if err != nil {
			t.Fatal(err)
		}
		if len(sel.Items) != 1 || !reflect.DeepEqual(sel.Items[0], get.Item) {
			t.Fatalf("consistent %v: SELECT %v, GetItem %v", consistent, sel.Items, get.Item)
		}
		if *sel.ConsumedCapacity.CapacityUnits != *get.ConsumedCapacity.CapacityUnits || *get.ConsumedCapacity.CapacityUnits != map[bool]float64{false: 1, true: 2}[consistent] {
			t.Fatalf("consistent %v: SELECT consumed %v, GetItem %v", consistent, *sel.ConsumedCapacity.CapacityUnits, *get.ConsumedCapacity.CapacityUnits)
		}
	}
	cases := []struct {
		st   string
		want []item
	}{
		{`SELECT n, m.y FROM music WHERE pk = 'a' AND sk = '1'`, []item{{"n": N("1"), "m": &types.AttributeValueMemberM{Value: item{"y": N("3")}}}}},
		{`SELECT * FROM music WHERE pk = 'a' AND sk = '9'`, nil},
		{`SELECT n FROM music WHERE pk = 'a' AND sk = '2' AND n = 2`, []item{{"n": N("2")}}}, // a filter: not a lookup
		{`SELECT n FROM music WHERE pk = 'a' AND sk = '2' AND n = 3`, nil},
		{`SELECT n FROM music WHERE pk = 'a' AND sk = '1' AND sk = '2'`, nil},       // pinned twice
		{`SELECT n FROM music WHERE pk = 'a' AND sk = 1`, nil},                      // a value of another type selects nothing
		{`SELECT n FROM music WHERE pk = 'a' AND sk >= '2'`, []item{{"n": N("2")}}}, // not an equality
	}
	for _, tc := range cases {
		out := pq(t, c, tc.st)
		if len(out.Items) != len(tc.want) || (len(tc.want) > 0 && !reflect.DeepEqual(out.Items, tc.want)) {
			t.Errorf("%s = %v, want %v", tc.st, out.Items, tc.want)
		}
	}
	_, err := pqErr(c, `SELECT * FROM music WHERE pk = 'a' AND sk = '1'`+"\n", S("extra"))
	wantErr(t, err, "ValidationException", "Number of parameters in request and statement don't match.")
}

// BenchmarkPartiQLSelectByKey is GetItem's work as a SELECT (compare with
// BenchmarkGetItem): the statement is parsed, planned as a Query and run.
func BenchmarkPartiQLSelectByKey(b *testing.B) {
	_, c := benchServer(b)
	for i := 0; i < 10000; i++ {
		c.call(b, "PutItem", putBody(fmt.Sprintf("k%07d", i), "s", i))
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c.call(b, "ExecuteStatement", `{"Statement":"SELECT * FROM bench WHERE pk = ? AND sk = 's'","Parameters":[{"S":"k`+fmt.Sprintf("%07d", i%10000)+`"}]}`)
	}
}

// BenchmarkPartiQLUpdate is an UPDATE by key with a counter and a
// condition, run through UpdateItem.
func BenchmarkPartiQLUpdate(b *testing.B) {
	_, c := benchServer(b)
	for i := 0; i < 1000; i++ {
		c.call(b, "PutItem", putBody(fmt.Sprintf("k%07d", i), "s", i))
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c.call(b, "ExecuteStatement", `{"Statement":"UPDATE bench SET n = n + 1 WHERE pk = ? AND sk = 's' AND n >= 0","Parameters":[{"S":"k`+fmt.Sprintf("%07d", i%1000)+`"}]}`)
	}
}

// BenchmarkKeyLookup runs GetItem, the equivalent Query and the same read
// as a SELECT by full primary key against one server, so the three can be
// compared in one run.
// cpu-ns/op is the process's CPU time per request (GC included), steadier
// than wall time on a shared machine.
func BenchmarkKeyLookup(b *testing.B) {
	_, c := benchServer(b)
	for i := 0; i < 10000; i++ {
		c.call(b, "PutItem", putBody(fmt.Sprintf("k%07d", i), "s", i))
	}
	bodies := func(f func(k string) string) []string {
		out := make([]string, 10000)
		for i := range out {
			out[i] = f(fmt.Sprintf("k%07d", i))
		}
		return out
	}
	run := func(action string, bodies []string) func(b *testing.B) {
		return func(b *testing.B) {
			b.ReportAllocs()
			start := cpuTime()
			for i := 0; b.Loop(); i++ {
				c.call(b, action, bodies[i%len(bodies)])
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		}
	}
	b.Run("GetItem", run("GetItem", bodies(func(k string) string {
		return `{"TableName":"bench","Key":{"pk":{"S":"` + k + `"},"sk":{"S":"s"}}}`
	})))
	b.Run("Query", run("Query", bodies(func(k string) string {
		return `{"TableName":"bench","KeyConditionExpression":"pk = :p AND sk = :s","ExpressionAttributeValues":{":p":{"S":"` + k + `"},":s":{"S":"s"}}}`
	})))
	b.Run("SelectByKey", run("ExecuteStatement", bodies(func(k string) string {
		return `{"Statement":"SELECT * FROM bench WHERE pk = ? AND sk = 's'","Parameters":[{"S":"` + k + `"}]}`
	})))
}
