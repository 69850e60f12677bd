package console_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/dynamotest"
)

// The front page lists every table with its figures.
func TestTablesPage(t *testing.T) {
	srv, c, b := startConsole(t)
	createTable(t, srv, "orders")
	put(t, c, "orders", map[string]types.AttributeValue{"pk": s("u1"), "sk": s("a")})
	page := text(b.page("/console/"))
	mustContain(t, "the table list", page, `href="/console/t/orders"`, "pk (S) · sk (S, sort)",
		"byStatus (GSI)", "NEW_AND_OLD_IMAGES", "expires (enabled)", ">1<")
	if a := b.get("/console"); a.status != http.StatusSeeOther || a.header.Get("Location") != "/console/" {
		t.Errorf("GET /console: %d to %q, want a redirect to /console/", a.status, a.header.Get("Location"))
	}
}

// A table's items show every type exactly, in the grid and as DynamoDB
// JSON: sets as sets, 38-digit numbers whole, binary as base64, the entity
// marker as the entity.
func TestItemsPageShowsTypesExactly(t *testing.T) {
	srv, c, b := startConsole(t)
	createTable(t, srv, "tbl")
	put(t, c, "tbl", map[string]types.AttributeValue{
		"pk": s("u1"), "sk": s("a"), "_entity": s("order"),
		"tags":  &types.AttributeValueMemberSS{Value: []string{"red", "blue"}},
		"sizes": &types.AttributeValueMemberNS{Value: []string{"1", "2.5"}},
		"big":   n(digits38),
		"blob":  &types.AttributeValueMemberB{Value: []byte{0, 1, 2, 255}},
		"doc":   &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"n": n("12.5")}},
	})
	page := text(b.page("/console/t/tbl"))
	mustContain(t, "the grid", page, `{"red", "blue"}`, "{1, 2.5}", digits38, "AAEC/w==", `<span class="t">M</span> {"n":{"N":"12.5"}}`,
		"<th>entity</th>", "order", "/console/t/tbl/item?key=")
	if strings.Contains(page, "<th>_entity</th>") {
		t.Error("the entity marker is shown as an attribute, not as the entity")
	}
	js := text(b.page("/console/t/tbl?view=json"))
	mustContain(t, "the JSON view", js, `"N": "`+digits38+`"`, `"SS": [`, `"B": "AAEC/w=="`)
}

// Items come in pages of 25 with a link to the next.
func TestItemsPaging(t *testing.T) {
	srv, c, b := startConsole(t)
	createTable(t, srv, "tbl")
	for i := range 30 {
		put(t, c, "tbl", map[string]types.AttributeValue{"pk": s("p"), "sk": s(string(rune('A' + i)))})
	}
	first := b.page("/console/t/tbl")
	next := regexpFind(t, first, `id="next" href="\?start=([^"]+)"`)
	second := b.page("/console/t/tbl?start=" + next)
	if got := strings.Count(first, "class=\"open\""); got != 25 {
		t.Errorf("first page: %d items, want 25", got)
	}
	if got := strings.Count(second, "class=\"open\""); got != 5 {
		t.Errorf("second page: %d items, want 5", got)
	}
	if a := b.get("/console/t/tbl?start=%21%21"); a.status != http.StatusBadRequest {
		t.Errorf("damaged page token: %d, want 400", a.status)
	}
}

// Create, edit, duplicate and delete an item, each checked through the API.
func TestItemLifecycle(t *testing.T) {
	srv, c, b := startConsole(t)
	createTable(t, srv, "tbl")
	// The new-item page starts from the table's key, typed.
	mustContain(t, "the new-item page", text(b.page("/console/t/tbl/item")), `name="mode" value="create"`, `"pk": {
    "S": ""
  }`, `"sk": {`)
	item := `{"pk": {"S": "u1"}, "sk": {"S": "a"}, "tags": {"SS": ["x", "y"]}, "big": {"N": "` + digits38 + `"}}`
	a := b.post("/console/t/tbl/item", url.Values{"mode": {"create"}, "item": {item}})
	if a.status != http.StatusSeeOther {
		t.Fatalf("create: %d\n%s", a.status, a.body)
	}
	got := get(t, c, "tbl", "u1", "a")
	if ss, ok := got["tags"].(*types.AttributeValueMemberSS); !ok || !slices.Equal(ss.Value, []string{"x", "y"}) {
		t.Errorf("stored tags: %#v, want the string set [x y]", got["tags"])
	}
	if nv, ok := got["big"].(*types.AttributeValueMemberN); !ok || nv.Value != digits38 {
		t.Errorf("stored big: %#v, want N %s", got["big"], digits38)
	}
	// The redirect goes to the item's page, showing it.
	loc := a.header.Get("Location")
	page := text(b.page(loc))
	mustContain(t, "the item page", page, "Item created.", `"`+digits38+`"`, `"SS": [`)
	key := regexpFind(t, page, `name="key" value="([^"]+)"`)

	// Creating it again is refused: a create never overwrites.
	if a := b.post("/console/t/tbl/item", url.Values{"mode": {"create"}, "item": {item}}); a.status != http.StatusBadRequest ||
		!strings.Contains(a.body, "ConditionalCheckFailedException") {
		t.Errorf("second create: %d, want 400 ConditionalCheckFailedException\n%s", a.status, a.body)
	}

	// Edit: a number set replaces the string set.
	edited := `{"pk": {"S": "u1"}, "sk": {"S": "a"}, "tags": {"NS": ["1", "` + digits38 + `"]}}`
	if a := b.post("/console/t/tbl/item", url.Values{"mode": {"edit"}, "key": {key}, "item": {edited}}); a.status != http.StatusSeeOther {
		t.Fatalf("edit: %d\n%s", a.status, a.body)
	}
	got = get(t, c, "tbl", "u1", "a")
	if ns, ok := got["tags"].(*types.AttributeValueMemberNS); !ok || !slices.Equal(ns.Value, []string{"1", digits38}) {
		t.Errorf("edited tags: %#v, want NS [1 %s]", got["tags"], digits38)
	}
	if _, ok := got["big"]; ok {
		t.Error("an edit replaces the item: big should be gone")
	}
	// An edit cannot change the key.
	moved := `{"pk": {"S": "u2"}, "sk": {"S": "a"}}`
	if a := b.post("/console/t/tbl/item", url.Values{"mode": {"edit"}, "key": {key}, "item": {moved}}); a.status != http.StatusBadRequest ||
		!strings.Contains(a.body, "cannot change the item&#39;s key") {
		t.Errorf("edit changing the key: %d\n%s", a.status, a.body)
	}
	if get(t, c, "tbl", "u2", "a") != nil {
		t.Error("the key-changing edit stored an item")
	}

	// Duplicate: the item's text, to create under another key.
	dup := text(b.page("/console/t/tbl/item?from=" + key))
	mustContain(t, "the duplicate page", dup, `name="mode" value="create"`, `"`+digits38+`"`)

	// Delete needs its confirmation.
	if a := b.post("/console/t/tbl/delete-item", url.Values{"key": {key}}); a.status != http.StatusBadRequest {
		t.Errorf("delete without confirmation: %d, want 400", a.status)
	}
	if get(t, c, "tbl", "u1", "a") == nil {
		t.Fatal("the unconfirmed delete deleted")
	}
	if a := b.post("/console/t/tbl/delete-item", url.Values{"key": {key}, "confirm": {"yes"}}); a.status != http.StatusSeeOther {
		t.Fatalf("delete: %d\n%s", a.status, a.body)
	}
	if get(t, c, "tbl", "u1", "a") != nil {
		t.Error("the item is still there after delete")
	}
	// Editing an item deleted meanwhile does not bring it back.
	if a := b.post("/console/t/tbl/item", url.Values{"mode": {"edit"}, "key": {key}, "item": {edited}}); a.status != http.StatusBadRequest {
		t.Errorf("edit of a deleted item: %d, want 400", a.status)
	}
	if get(t, c, "tbl", "u1", "a") != nil {
		t.Error("the edit brought the deleted item back")
	}
}

// An item is checked before it is sent; what is not DynamoDB JSON with the
// table's key never reaches the table, and the text typed is kept.
func TestItemValidation(t *testing.T) {
	srv, c, b := startConsole(t)
	createTable(t, srv, "tbl")
	for _, tc := range []struct{ item, want string }{
		{`{"pk": {"S": "u1"}, "sk": {"S": "a"}`, "not DynamoDB JSON"},
		{`{"pk": {"S": "u1"}, "sk": {"S": "a"}, "x": {"Q": "1"}}`, "not DynamoDB JSON"},
		{`{"pk": {"S": "u1"}, "x": {"S": "1"}}`, "has no &#34;sk&#34;"},
		{`{"pk": {"S": "u1"}, "sk": {"S": "a"}, "n": {"N": "one"}}`, "ValidationException"},
		{`{"pk": {"S": "u1"}, "sk": {"S": "a"}, "e": {"SS": []}}`, "ValidationException"},
	} {
		a := b.post("/console/t/tbl/item", url.Values{"mode": {"create"}, "item": {tc.item}})
		if a.status != http.StatusBadRequest || !strings.Contains(a.body, tc.want) {
			t.Errorf("%s: %d, want 400 with %q\n%s", tc.item, a.status, tc.want, a.body)
		}
		if !strings.Contains(text(a.body), tc.item) {
			t.Errorf("%s: the page lost the text typed", tc.item)
		}
	}
	out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl")})
	if err != nil || out.Count != 0 {
		t.Errorf("after refused items the table holds %d items (%v)", out.Count, err)
	}
}

// The query builder runs a Query on the table or an index, or a Scan, and
// shows the same request as an AWS CLI command and aws-sdk-go-v2 code.
func TestQueryBuilder(t *testing.T) {
	srv, c, b := startConsole(t)
	createTable(t, srv, "tbl")
	for _, sk := range []string{"a#1", "a#2", "b#1"} {
		put(t, c, "tbl", map[string]types.AttributeValue{"pk": s("u1"), "sk": s(sk), "status": s("open"), "n": n(digits38)})
	}
	put(t, c, "tbl", map[string]types.AttributeValue{"pk": s("u2"), "sk": s("a#9"), "status": s("closed")})

	q := url.Values{"run": {"1"}, "k.pk": {"u1"}, "op": {"begins_with"}, "k.sk": {"a#"}, "desc": {"1"}, "limit": {"25"},
		"filter": {"#n = :n"}, "names": {`{"#n": "n"}`}, "values": {`{":n": {"N": "` + digits38 + `"}}`}}
	page := text(b.page("/console/t/tbl/query?" + q.Encode()))
	mustContain(t, "the query result", page, `<span id="count">2</span>`,
		`--key-condition-expression '#k0 = :k0 AND begins_with(#k1, :k1)'`, "--no-scan-index-forward",
		`--filter-expression '#n = :n'`, `"#k0":"pk"`, `":n":{"N":"`+digits38+`"}`, "--limit 25",
		`KeyConditionExpression: aws.String("#k0 = :k0 AND begins_with(#k1, :k1)")`,
		`":k0": &types.AttributeValueMemberS{Value: "u1"}`, `":n": &types.AttributeValueMemberN{Value: "`+digits38+`"}`,
		`ScanIndexForward: aws.Bool(false)`)
	if i, j := strings.Index(page, "a#2"), strings.Index(page, "a#1"); i < 0 || j < 0 || i > j {
		t.Error("descending: a#2 should come before a#1")
	}
	if strings.Contains(page, "b#1") {
		t.Error("begins_with a# returned b#1")
	}

	// The Go code is Go.
	code := regexpFind(t, page, `(?s)<pre class="code" id="go">(.*?)</pre>`)
	if _, err := parser.ParseFile(token.NewFileSet(), "snippet.go", "package p\nfunc f() {\n"+code+"\n_, _ = out, err\n}", 0); err != nil {
		t.Errorf("the Go snippet does not parse: %v\n%s", err, code)
	}

	// The CLI's JSON arguments are what the request sent.
	cli := regexpFind(t, page, `(?s)<pre class="code" id="cli">(.*?)</pre>`)
	vals := regexpFind(t, cli, `--expression-attribute-values '([^']*)'`)
	var decoded map[string]map[string]string
	if err := json.Unmarshal([]byte(vals), &decoded); err != nil || decoded[":k0"]["S"] != "u1" || decoded[":k1"]["S"] != "a#" {
		t.Errorf("CLI values %s: %v", vals, err)
	}

	// An index, paged one item at a time.
	q = url.Values{"run": {"1"}, "index": {"byStatus"}, "k.status": {"open"}, "limit": {"1"}}
	page = b.page("/console/t/tbl/query?" + q.Encode())
	mustContain(t, "the index query", text(page), `--index-name 'byStatus'`, `<span id="count">1</span>`)
	next := text(regexpFind(t, page, `id="next" href="\?([^"]+)"`))
	seen := 1
	for next != "" && seen < 10 {
		p := b.page("/console/t/tbl/query?" + next)
		seen += strings.Count(p, `class="open"`)
		next = ""
		if m := nextRE.FindStringSubmatch(p); m != nil {
			next = text(m[1])
		}
	}
	if seen != 3 {
		t.Errorf("paging the index: %d items, want 3", seen)
	}

	// No partition key: a scan.
	page = text(b.page("/console/t/tbl/query?run=1&k.pk="))
	mustContain(t, "the scan", page, "aws dynamodb scan", "Scan: <span id=\"count\">4</span>")

	// Mistakes are named.
	for query, want := range map[string]string{
		"run=1&k.sk=a":                    "sk: a sort key condition needs the partition key",
		"run=1&k.pk=u1&values=%7B":        "attribute values",
		"run=1&k.pk=u1&limit=0":           "limit",
		"run=1&k.pk=u1&k.sk=a&op=between": "between needs a second value",
		"run=1&k.pk=u1&filter=bad+%3D":    "ValidationException",
	} {
		if a := b.get("/console/t/tbl/query?" + query); a.status != http.StatusBadRequest || !strings.Contains(text(a.body), want) {
			t.Errorf("%s: %d, want 400 with %q", query, a.status, want)
		}
	}
}

// Tables and global secondary indexes are created and deleted, deletions
// only once confirmed by typing the name.
func TestTableAndIndexLifecycle(t *testing.T) {
	_, c, b := startConsole(t)
	a := b.post("/console/new-table", url.Values{"name": {"made"}, "pk": {"id"}, "pk_type": {"S"}, "sk": {"n"}, "sk_type": {"N"}, "stream": {"KEYS_ONLY"}})
	if a.status != http.StatusSeeOther {
		t.Fatalf("create table: %d\n%s", a.status, a.body)
	}
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("made")})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Table.KeySchema) != 2 || d.Table.StreamSpecification == nil || d.Table.StreamSpecification.StreamViewType != types.StreamViewTypeKeysOnly {
		t.Errorf("created table: %+v", d.Table)
	}
	if a := b.post("/console/new-table", url.Values{"name": {"made"}, "pk": {"id"}, "pk_type": {"S"}}); a.status != http.StatusBadRequest ||
		!strings.Contains(a.body, "ResourceInUseException") {
		t.Errorf("second create: %d\n%s", a.status, a.body)
	}

	if a := b.post("/console/t/made/gsi", url.Values{"index": {"byOwner"}, "pk": {"owner"}, "pk_type": {"S"}}); a.status != http.StatusSeeOther {
		t.Fatalf("create index: %d\n%s", a.status, a.body)
	}
	d, _ = c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("made")})
	if len(d.Table.GlobalSecondaryIndexes) != 1 || aws.ToString(d.Table.GlobalSecondaryIndexes[0].IndexName) != "byOwner" {
		t.Fatalf("indexes after create: %+v", d.Table.GlobalSecondaryIndexes)
	}
	if a := b.post("/console/t/made/delete-gsi", url.Values{"index": {"byOwner"}, "confirm": {"byowner"}}); a.status != http.StatusBadRequest {
		t.Errorf("delete index with a wrong confirmation: %d, want 400", a.status)
	}
	if a := b.post("/console/t/made/delete-gsi", url.Values{"index": {"byOwner"}, "confirm": {"byOwner"}}); a.status != http.StatusSeeOther {
		t.Fatalf("delete index: %d\n%s", a.status, a.body)
	}
	d, _ = c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("made")})
	if len(d.Table.GlobalSecondaryIndexes) != 0 {
		t.Errorf("indexes after delete: %+v", d.Table.GlobalSecondaryIndexes)
	}

	if a := b.post("/console/t/made/delete", url.Values{"confirm": {"mad"}}); a.status != http.StatusBadRequest {
		t.Errorf("delete table with a wrong confirmation: %d, want 400", a.status)
	}
	if _, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("made")}); err != nil {
		t.Fatalf("the unconfirmed delete deleted: %v", err)
	}
	if a := b.post("/console/t/made/delete", url.Values{"confirm": {"made"}}); a.status != http.StatusSeeOther {
		t.Fatalf("delete table: %d\n%s", a.status, a.body)
	}
	if _, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("made")}); err == nil {
		t.Error("the table is still there after delete")
	}
	if a := b.get("/console/t/made"); a.status != http.StatusNotFound || !strings.Contains(a.body, "ResourceNotFoundException") {
		t.Errorf("page of a deleted table: %d", a.status)
	}
}

// PartiQL statements run as ExecuteStatement.
func TestPartiQL(t *testing.T) {
	srv, c, b := startConsole(t)
	createTable(t, srv, "tbl")
	b.page("/console/partiql")
	a := b.post("/console/partiql", url.Values{"statement": {`INSERT INTO "tbl" VALUE {'pk': 'u1', 'sk': 'a', 'tags': <<'x', 'y'>>}`}})
	if a.status != http.StatusOK {
		t.Fatalf("INSERT: %d\n%s", a.status, a.body)
	}
	if _, ok := get(t, c, "tbl", "u1", "a")["tags"].(*types.AttributeValueMemberSS); !ok {
		t.Error("the inserted item has no string set")
	}
	a = b.post("/console/partiql", url.Values{"statement": {`SELECT * FROM "tbl" WHERE pk = 'u1'`}})
	mustContain(t, "the SELECT result", text(a.body), `{"x", "y"}`, "u1")
	a = b.post("/console/partiql", url.Values{"statement": {`SELEKT`}})
	if a.status != http.StatusBadRequest || !strings.Contains(a.body, "ValidationException") {
		t.Errorf("a bad statement: %d", a.status)
	}
}

// Recent requests list the API calls sent over HTTP: action, table,
// status, latency and consumed capacity; never an item value.
func TestRecentRequests(t *testing.T) {
	srv, c, b := startConsole(t)
	createTable(t, srv, "tbl")
	_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
		Item: map[string]types.AttributeValue{"pk": s("u1"), "sk": s("a"), "secret": s("value-never-shown")}})
	if err != nil {
		t.Fatal(err)
	}
	c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("missing"), Key: map[string]types.AttributeValue{"pk": s("value-never-shown")}})
	b.page("/console/t/tbl") // the console's own calls are not listed
	page := text(b.page("/console/requests"))
	mustContain(t, "the recent requests", page, "<td>PutItem</td><td>tbl</td>", "200", "<td>GetItem</td><td>missing</td>",
		"400 ResourceNotFoundException", `<td class="num">1</td>`)
	if strings.Contains(page, "value-never-shown") {
		t.Error("the recent requests show an item value")
	}
	if strings.Contains(page, "<td>Scan</td>") {
		t.Error("the console's own Scan is listed")
	}
	calls := srv.Local.RecentCalls()
	last := calls[len(calls)-1]
	if last.Action != "GetItem" || last.Status != 400 || last.ErrorType != "ResourceNotFoundException" || last.Latency <= 0 {
		t.Errorf("last call: %+v", last)
	}
}

// The stream view reads the table's stream like a consumer; the fragment
// the script polls is the records alone.
func TestStreamView(t *testing.T) {
	srv, c, b := startConsole(t)
	createTable(t, srv, "tbl")
	put(t, c, "tbl", map[string]types.AttributeValue{"pk": s("u1"), "sk": s("a")})
	put(t, c, "tbl", map[string]types.AttributeValue{"pk": s("u1"), "sk": s("a"), "v": n(digits38)})
	page := text(b.page("/console/t/tbl/stream"))
	mustContain(t, "the stream", page, "INSERT", "MODIFY", `{"pk":{"S":"u1"},"sk":{"S":"a"}}`, digits38)
	if i, j := strings.Index(page, "MODIFY"), strings.Index(page, "INSERT"); i > j {
		t.Error("the newest record should come first")
	}
	frag := b.page("/console/t/tbl/stream?fragment=1")
	if strings.Contains(frag, "<html") || !strings.Contains(frag, "MODIFY") {
		t.Errorf("the fragment: %s", frag)
	}
}

// The vector playground returns the nearest items with their scores.
func TestVectorSearch(t *testing.T) {
	srv, c, b := startConsole(t)
	srv.CreateTable(t, &dynamodb.CreateTableInput{
		TableName: aws.String("docs"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		VectorIndexes: []types.VectorIndex{{IndexName: aws.String("byVec"),
			VectorAttribute: &types.VectorAttributeDefinition{AttributeName: aws.String("vec")},
			Dimensions:      aws.Int64(2), DistanceFunction: types.VectorDistanceFunctionEuclidean,
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
	})
	vec := func(x, y string) types.AttributeValue {
		return &types.AttributeValueMemberL{Value: []types.AttributeValue{n(x), n(y)}}
	}
	put(t, c, "docs", map[string]types.AttributeValue{"pk": s("near"), "vec": vec("1", "1")})
	put(t, c, "docs", map[string]types.AttributeValue{"pk": s("far"), "vec": vec("9", "9")})
	mustContain(t, "the table page", b.page("/console/t/docs"), "/console/t/docs/search", "byVec (vector: vec, 2 dimensions")
	page := b.page("/console/t/docs/search?run=1&index=byVec&k=2&vector=" + url.QueryEscape("[1, 1.5]"))
	i, j := strings.Index(page, "near"), strings.Index(page, "far")
	if i < 0 || j < 0 || i > j {
		t.Errorf("nearest first: near at %d, far at %d", i, j)
	}
	if strings.Count(page, `class="score"`) != 2 {
		t.Error("want two scores")
	}
	if a := b.get("/console/t/docs/search?run=1&index=byVec&vector=1,x"); a.status != http.StatusBadRequest || !strings.Contains(a.body, "element 2 is not a number") {
		t.Errorf("a bad vector: %d", a.status)
	}
	if a := b.get("/console/t/docs/search?run=1&index=byVec&vector=1,2,3"); a.status != http.StatusBadRequest || !strings.Contains(a.body, "ValidationException") {
		t.Errorf("a vector of the wrong length: %d\n%s", a.status, a.body)
	}
}

var nextRE = regexpMust(`id="next" href="\?([^"]+)"`)

// The console is only on when asked for: without it /console/ answers as
// before, an API error.
func TestConsoleOff(t *testing.T) {
	srv := dynamotest.NewServer(t)
	resp, err := http.Get(srv.URL + "/console/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound || resp.Header.Get("X-Amzn-Requestid") == "" {
		t.Errorf("GET /console/ without the console: %d", resp.StatusCode)
	}
}

// Binary keys travel in links as base64 of their DynamoDB JSON.
func TestBinaryKeyLinks(t *testing.T) {
	srv, c, b := startConsole(t)
	srv.CreateTable(t, &dynamodb.CreateTableInput{
		TableName: aws.String("bin"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeB}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
	})
	put(t, c, "bin", map[string]types.AttributeValue{"id": &types.AttributeValueMemberB{Value: []byte{0xff, 0x00}}})
	key := regexpFind(t, b.page("/console/t/bin"), `/console/t/bin/item\?key=([^"]+)"`)
	raw, _ := base64.RawURLEncoding.DecodeString(key)
	if string(raw) != `{"id":{"B":"/wA="}}` {
		t.Errorf("key token: %s", raw)
	}
	mustContain(t, "the item page", text(b.page("/console/t/bin/item?key="+key)), `"B": "/wA="`)
}

// The stream view shows the latest records even when the stream has rolled
// over to a new shard (a shard takes 10,000 records).
func TestStreamViewShowsTheLatest(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 10,050 items")
	}
	srv, _, b := startConsole(t)
	createTable(t, srv, "tbl")
	for i := range 10050 {
		body := fmt.Sprintf(`{"TableName":"tbl","Item":{"pk":{"S":"p"},"sk":{"S":"%05d"}}}`, i)
		if _, err := srv.Local.Invoke("PutItem", []byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	page := b.page("/console/t/tbl/stream?fragment=1")
	for _, want := range []string{"10049", "09950"} {
		if !strings.Contains(page, `&#34;sk&#34;:{&#34;S&#34;:&#34;`+want+`&#34;}`) {
			t.Errorf("the stream view lacks sk %s", want)
		}
	}
	if strings.Contains(page, "09949") {
		t.Error("the stream view shows more than the latest 100 records")
	}
}
