package console

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/codec/ddbjson"
)

// request is a Query or Scan input, its members in the order the snippets
// show them.
type request struct {
	TableName                 string
	IndexName                 string                     `json:",omitempty"`
	KeyConditionExpression    string                     `json:",omitempty"`
	FilterExpression          string                     `json:",omitempty"`
	ProjectionExpression      string                     `json:",omitempty"`
	ExpressionAttributeNames  map[string]string          `json:",omitempty"`
	ExpressionAttributeValues map[string]json.RawMessage `json:",omitempty"`
	ScanIndexForward          *bool                      `json:",omitempty"`
	Limit                     int                        `json:",omitempty"`
	ExclusiveStartKey         item                       `json:",omitempty"`
}

// keyField is one key attribute of the index queried, as the form shows it.
type keyField struct {
	Name, Type, Value string
	Sort              bool
}

type queryData struct {
	Table    *tableDesc
	Form     url.Values
	Index    string
	Indexes  []string // the table's GSIs and LSIs
	Keys     []keyField
	Ran      bool
	Action   string // Query or Scan
	CLI, Go  string // the request as an AWS CLI command and aws-sdk-go-v2 code
	Grid     grid
	Count    int
	Scanned  int
	Next     template.URL // the address of the next page ("" on the last)
	JSONView bool
}

// sortOps are the sort key conditions the builder offers.
var sortOps = map[string]bool{"=": true, "<": true, "<=": true, ">": true, ">=": true, "begins_with": true, "between": true}

// query is the query and scan builder: a plain GET form (its address is
// the query, to bookmark or share), the result, and the same request as an
// AWS CLI command and as aws-sdk-go-v2 code.
func (c *Console) query(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("table")
	t, err := c.describe(name)
	if err != nil {
		c.renderError(w, r, statusOf(err), "query", name, queryData{Table: &tableDesc{TableName: name}}, err)
		return
	}
	f := r.URL.Query()
	d := queryData{Table: t, Form: f, Index: f.Get("index"), JSONView: f.Get("view") == "json"}
	schema := t.KeySchema
	for _, ix := range append(append([]indexDesc(nil), t.GlobalSecondaryIndexes...), t.LocalSecondaryIndexes...) {
		d.Indexes = append(d.Indexes, ix.IndexName)
		if ix.IndexName == d.Index {
			schema = ix.KeySchema
		}
	}
	for _, n := range keyNames(schema) {
		kf := keyField{Name: n, Type: t.attrType(n), Value: f.Get("k." + n)}
		for _, k := range schema {
			kf.Sort = kf.Sort || (k.AttributeName == n && k.KeyType == "RANGE")
		}
		d.Keys = append(d.Keys, kf)
	}
	if f.Get("run") == "" {
		c.render(w, r, http.StatusOK, "query", name+": query", d)
		return
	}
	d.Ran = true
	req, action, err := buildRequest(t, d.Index, d.Keys, f)
	if err != nil {
		c.renderError(w, r, http.StatusBadRequest, "query", name+": query", d, err)
		return
	}
	d.Action = action
	d.CLI = cliCommand(action, req, "http://"+r.Host)
	d.Go = goSnippet(action, req)
	var out struct {
		Items            []item
		Count            int
		ScannedCount     int
		LastEvaluatedKey item
	}
	if err := c.call(action, req, &out); err != nil {
		c.renderError(w, r, statusOf(err), "query", name+": query", d, err)
		return
	}
	d.Grid = makeGrid(out.Items, name, keyNames(t.KeySchema))
	d.Count, d.Scanned = out.Count, out.ScannedCount
	if out.LastEvaluatedKey != nil {
		next := url.Values{}
		for k, v := range f {
			next[k] = v
		}
		next.Set("start", base64.RawURLEncoding.EncodeToString(marshalItem(out.LastEvaluatedKey)))
		d.Next = template.URL("?" + next.Encode()) // a query string made here, not a URL given by the request
	}
	c.render(w, r, http.StatusOK, "query", name+": query", d)
}

// buildRequest turns the builder's form into a Query (when the partition
// key is given) or a Scan. Errors name the field.
func buildRequest(t *tableDesc, index string, keys []keyField, f url.Values) (*request, string, error) {
	req := &request{TableName: t.TableName, IndexName: index, FilterExpression: strings.TrimSpace(f.Get("filter")),
		ProjectionExpression: strings.TrimSpace(f.Get("projection"))}
	if s := f.Get("names"); strings.TrimSpace(s) != "" {
		if err := json.Unmarshal([]byte(s), &req.ExpressionAttributeNames); err != nil {
			return nil, "", consoleError(`attribute names: want a JSON object such as {"#n": "name"}`)
		}
	}
	if s := f.Get("values"); strings.TrimSpace(s) != "" {
		if _, err := ddbjson.UnmarshalItem([]byte(s)); err != nil {
			return nil, "", consoleError(`attribute values: want DynamoDB JSON such as {":v": {"S": "x"}}: ` + err.Error())
		}
		json.Unmarshal([]byte(s), &req.ExpressionAttributeValues)
	}
	if s := f.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return nil, "", consoleError("limit: want a whole number of at least 1")
		}
		req.Limit = n
	}
	if s := f.Get("start"); s != "" {
		start, err := parseToken(s)
		if err != nil {
			return nil, "", err
		}
		req.ExclusiveStartKey = start
	}
	// The key condition: every partition key attribute equal to its value,
	// then the sort key attributes given, in order: equal, the last one
	// compared with the chosen operator.
	var conds []string
	var sorts []keyField
	given := 0
	for _, k := range keys {
		if k.Sort {
			sorts = append(sorts, k)
			continue
		}
		if k.Value != "" {
			given++
		}
	}
	if given == 0 {
		for _, k := range keys {
			if k.Value != "" {
				return nil, "", consoleError(fmt.Sprintf("%s: a sort key condition needs the partition key", k.Name))
			}
		}
		return req, "Scan", nil
	}
	n := 0
	clash := false // the filter's placeholders must not be the key condition's
	value := func(k keyField, v string) string {
		p := ":k" + strconv.Itoa(n)
		n++
		_, taken := req.values()[p]
		clash = clash || taken
		req.values()[p] = typed(k.Type, v)
		return p
	}
	placeholder := func(k keyField, v string) (string, string) {
		p := "#k" + strconv.Itoa(n)
		_, taken := req.names()[p]
		clash = clash || taken
		req.names()[p] = k.Name
		return p, value(k, v)
	}
	for _, k := range keys {
		if k.Sort {
			continue
		}
		if k.Value == "" {
			return nil, "", consoleError(fmt.Sprintf("%s: a query needs every partition key attribute", k.Name))
		}
		nm, vl := placeholder(k, k.Value)
		conds = append(conds, nm+" = "+vl)
	}
	last := -1
	for i, k := range sorts {
		if k.Value != "" {
			if last != i-1 {
				return nil, "", consoleError(fmt.Sprintf("%s: the sort key attributes before it need values too", k.Name))
			}
			last = i
		}
	}
	op := f.Get("op")
	if op == "" {
		op = "="
	}
	if !sortOps[op] {
		return nil, "", consoleError("sort key condition: unknown operator")
	}
	for i := 0; i <= last; i++ {
		k := sorts[i]
		nm, vl := placeholder(k, k.Value)
		switch {
		case i < last || op == "=" || op == "<" || op == "<=" || op == ">" || op == ">=":
			o := op
			if i < last {
				o = "="
			}
			conds = append(conds, nm+" "+o+" "+vl)
		case op == "begins_with":
			conds = append(conds, "begins_with("+nm+", "+vl+")")
		case op == "between":
			v2 := f.Get("k2")
			if v2 == "" {
				return nil, "", consoleError(k.Name + ": between needs a second value")
			}
			vl2 := value(k, v2)
			conds = append(conds, nm+" BETWEEN "+vl+" AND "+vl2)
		}
	}
	if clash {
		return nil, "", consoleError("attribute names and values: #k0, :k0, #k1, :k1… are the key condition's; name the filter's otherwise")
	}
	req.KeyConditionExpression = strings.Join(conds, " AND ")
	if f.Get("desc") != "" {
		forward := false
		req.ScanIndexForward = &forward
	}
	return req, "Query", nil
}

func (r *request) names() map[string]string {
	if r.ExpressionAttributeNames == nil {
		r.ExpressionAttributeNames = map[string]string{}
	}
	return r.ExpressionAttributeNames
}

func (r *request) values() map[string]json.RawMessage {
	if r.ExpressionAttributeValues == nil {
		r.ExpressionAttributeValues = map[string]json.RawMessage{}
	}
	return r.ExpressionAttributeValues
}

// typed is a key value as DynamoDB JSON of the attribute's type.
func typed(typ, v string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{typ: v})
	return b
}

// cliCommand is req as an AWS CLI command against endpoint.
func cliCommand(action string, req *request, endpoint string) string {
	var b strings.Builder
	b.WriteString("aws dynamodb " + strings.ToLower(action) + " \\\n  --endpoint-url " + endpoint + " \\\n  --table-name " + shellQuote(req.TableName))
	arg := func(flag, v string) {
		if v != "" {
			b.WriteString(" \\\n  --" + flag + " " + shellQuote(v))
		}
	}
	arg("index-name", req.IndexName)
	arg("key-condition-expression", req.KeyConditionExpression)
	arg("filter-expression", req.FilterExpression)
	arg("projection-expression", req.ProjectionExpression)
	if len(req.ExpressionAttributeNames) > 0 {
		j, _ := json.Marshal(req.ExpressionAttributeNames)
		arg("expression-attribute-names", string(j))
	}
	if len(req.ExpressionAttributeValues) > 0 {
		j, _ := json.Marshal(req.ExpressionAttributeValues)
		arg("expression-attribute-values", string(j))
	}
	if req.ScanIndexForward != nil && !*req.ScanIndexForward {
		b.WriteString(" \\\n  --no-scan-index-forward")
	}
	if req.Limit > 0 {
		b.WriteString(" \\\n  --limit " + strconv.Itoa(req.Limit))
	}
	if req.ExclusiveStartKey != nil {
		arg("exclusive-start-key", string(marshalItem(req.ExclusiveStartKey)))
	}
	return b.String()
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// goSnippet is req as aws-sdk-go-v2 code.
func goSnippet(action string, req *request) string {
	var b strings.Builder
	fmt.Fprintf(&b, "out, err := client.%s(ctx, &dynamodb.%sInput{\n", action, action)
	str := func(field, v string) {
		if v != "" {
			fmt.Fprintf(&b, "\t%s: aws.String(%s),\n", field, strconv.Quote(v))
		}
	}
	str("TableName", req.TableName)
	str("IndexName", req.IndexName)
	str("KeyConditionExpression", req.KeyConditionExpression)
	str("FilterExpression", req.FilterExpression)
	str("ProjectionExpression", req.ProjectionExpression)
	if len(req.ExpressionAttributeNames) > 0 {
		b.WriteString("\tExpressionAttributeNames: map[string]string{\n")
		for _, k := range slices.Sorted(maps.Keys(req.ExpressionAttributeNames)) {
			fmt.Fprintf(&b, "\t\t%s: %s,\n", strconv.Quote(k), strconv.Quote(req.ExpressionAttributeNames[k]))
		}
		b.WriteString("\t},\n")
	}
	if len(req.ExpressionAttributeValues) > 0 {
		b.WriteString("\tExpressionAttributeValues: " + goItem(req.ExpressionAttributeValues, "\t") + ",\n")
	}
	if req.ScanIndexForward != nil {
		fmt.Fprintf(&b, "\tScanIndexForward: aws.Bool(%t),\n", *req.ScanIndexForward)
	}
	if req.Limit > 0 {
		fmt.Fprintf(&b, "\tLimit: aws.Int32(%d),\n", req.Limit)
	}
	if req.ExclusiveStartKey != nil {
		b.WriteString("\tExclusiveStartKey: " + goItem(req.ExclusiveStartKey, "\t") + ",\n")
	}
	b.WriteString("})")
	return b.String()
}

// goItem is DynamoDB JSON attributes as a map[string]types.AttributeValue
// literal.
func goItem(m map[string]json.RawMessage, indent string) string {
	var b strings.Builder
	b.WriteString("map[string]types.AttributeValue{\n")
	for _, k := range slices.Sorted(maps.Keys(m)) {
		av, err := ddbjson.Unmarshal(m[k])
		v := "nil /* not DynamoDB JSON */"
		if err == nil {
			v = goValue(av, indent+"\t")
		}
		fmt.Fprintf(&b, "%s\t%s: %s,\n", indent, strconv.Quote(k), v)
	}
	return b.String() + indent + "}"
}

// goValue is one attribute value as a Go literal of aws-sdk-go-v2's types.
func goValue(av types.AttributeValue, indent string) string {
	quoteAll := func(list []string) string {
		q := make([]string, len(list))
		for i, s := range list {
			q[i] = strconv.Quote(s)
		}
		return strings.Join(q, ", ")
	}
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return "&types.AttributeValueMemberS{Value: " + strconv.Quote(v.Value) + "}"
	case *types.AttributeValueMemberN:
		return "&types.AttributeValueMemberN{Value: " + strconv.Quote(v.Value) + "}"
	case *types.AttributeValueMemberB:
		return "&types.AttributeValueMemberB{Value: []byte(" + strconv.Quote(string(v.Value)) + ")}"
	case *types.AttributeValueMemberBOOL:
		return "&types.AttributeValueMemberBOOL{Value: " + strconv.FormatBool(v.Value) + "}"
	case *types.AttributeValueMemberNULL:
		return "&types.AttributeValueMemberNULL{Value: true}"
	case *types.AttributeValueMemberSS:
		return "&types.AttributeValueMemberSS{Value: []string{" + quoteAll(v.Value) + "}}"
	case *types.AttributeValueMemberNS:
		return "&types.AttributeValueMemberNS{Value: []string{" + quoteAll(v.Value) + "}}"
	case *types.AttributeValueMemberBS:
		bs := make([]string, len(v.Value))
		for i, e := range v.Value {
			bs[i] = "[]byte(" + strconv.Quote(string(e)) + ")"
		}
		return "&types.AttributeValueMemberBS{Value: [][]byte{" + strings.Join(bs, ", ") + "}}"
	case *types.AttributeValueMemberL:
		var b strings.Builder
		b.WriteString("&types.AttributeValueMemberL{Value: []types.AttributeValue{\n")
		for _, e := range v.Value {
			b.WriteString(indent + "\t" + goValue(e, indent+"\t") + ",\n")
		}
		return b.String() + indent + "}}"
	case *types.AttributeValueMemberM:
		m := map[string]json.RawMessage{}
		for k, e := range v.Value {
			m[k], _ = ddbjson.Marshal(e)
		}
		return "&types.AttributeValueMemberM{Value: " + goItem(m, indent) + "}"
	}
	return "nil"
}
