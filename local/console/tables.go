package console

import (
	"fmt"
	"net/http"
	"strings"
)

// The parts of DescribeTable's answer the console shows.
type tableDesc struct {
	TableName              string
	TableStatus            string
	ItemCount              int64
	TableSizeBytes         int64
	KeySchema              []keyElem
	AttributeDefinitions   []struct{ AttributeName, AttributeType string }
	GlobalSecondaryIndexes []indexDesc
	LocalSecondaryIndexes  []indexDesc
	VectorIndexes          []vectorDesc
	StreamSpecification    *struct {
		StreamEnabled  bool
		StreamViewType string
	}
	LatestStreamArn    string
	BillingModeSummary *struct{ BillingMode string }
	TTL                ttlDesc `json:"-"` // from DescribeTimeToLive
}

type keyElem struct{ AttributeName, KeyType string }

type indexDesc struct {
	IndexName  string
	KeySchema  []keyElem
	Projection struct {
		ProjectionType   string
		NonKeyAttributes []string
	}
	ItemCount int64
}

type vectorDesc struct {
	IndexName        string
	VectorAttribute  struct{ AttributeName string }
	Dimensions       int64
	DistanceFunction string
	ItemCount        int64
}

type ttlDesc struct {
	TimeToLiveStatus string
	AttributeName    string
}

// attrType is the type (S, N or B) of a key attribute.
func (t *tableDesc) attrType(name string) string {
	for _, d := range t.AttributeDefinitions {
		if d.AttributeName == name {
			return d.AttributeType
		}
	}
	return "S"
}

// keyNames lists the attributes of a key schema, partition key parts first.
func keyNames(ks []keyElem) []string {
	var names []string
	for _, want := range []string{"HASH", "RANGE"} {
		for _, k := range ks {
			if k.KeyType == want {
				names = append(names, k.AttributeName)
			}
		}
	}
	return names
}

// KeyText is a key schema as a line: "pk (S) · sk (S, sort)".
func (t *tableDesc) KeyText(ks []keyElem) string {
	var parts []string
	for _, n := range keyNames(ks) {
		role := ""
		for _, k := range ks {
			if k.AttributeName == n && k.KeyType == "RANGE" {
				role = ", sort"
			}
		}
		parts = append(parts, fmt.Sprintf("%s (%s%s)", n, t.attrType(n), role))
	}
	return strings.Join(parts, " · ")
}

// IndexNames lists every index of the table: GSIs, LSIs and vector indexes.
func (t *tableDesc) IndexNames() []string {
	var names []string
	for _, ix := range t.GlobalSecondaryIndexes {
		names = append(names, ix.IndexName+" (GSI)")
	}
	for _, ix := range t.LocalSecondaryIndexes {
		names = append(names, ix.IndexName+" (LSI)")
	}
	for _, ix := range t.VectorIndexes {
		names = append(names, ix.IndexName+" (vector)")
	}
	return names
}

// StreamText says whether the table has a stream, and its view type.
func (t *tableDesc) StreamText() string {
	if t.StreamSpecification == nil || !t.StreamSpecification.StreamEnabled {
		return "off"
	}
	return t.StreamSpecification.StreamViewType
}

// TTLText says whether time to live is on, and on which attribute.
func (t *tableDesc) TTLText() string {
	if t.TTL.TimeToLiveStatus == "" || t.TTL.TimeToLiveStatus == "DISABLED" {
		return "off"
	}
	return t.TTL.AttributeName + " (" + strings.ToLower(t.TTL.TimeToLiveStatus) + ")"
}

// describe returns a table's description with its TTL.
func (c *Console) describe(name string) (*tableDesc, error) {
	var out struct{ Table tableDesc }
	if err := c.call("DescribeTable", map[string]string{"TableName": name}, &out); err != nil {
		return nil, err
	}
	var ttl struct{ TimeToLiveDescription ttlDesc }
	if err := c.call("DescribeTimeToLive", map[string]string{"TableName": name}, &ttl); err != nil {
		return nil, err
	}
	out.Table.TTL = ttl.TimeToLiveDescription
	return &out.Table, nil
}

// tables is the front page: every table with its figures.
func (c *Console) tables(w http.ResponseWriter, r *http.Request) {
	var list []*tableDesc
	var start *string
	for {
		var out struct {
			TableNames             []string
			LastEvaluatedTableName *string
		}
		in := map[string]any{}
		if start != nil {
			in["ExclusiveStartTableName"] = *start
		}
		if err := c.call("ListTables", in, &out); err != nil {
			c.renderError(w, r, statusOf(err), "tables", "Tables", list, err)
			return
		}
		for _, n := range out.TableNames {
			d, err := c.describe(n)
			if err != nil {
				continue // deleted since it was listed
			}
			list = append(list, d)
		}
		if start = out.LastEvaluatedTableName; start == nil {
			break
		}
	}
	c.render(w, r, http.StatusOK, "tables", "Tables", list)
}

type newTableForm struct {
	Name, PK, PKType, SK, SKType, Stream string
}

func (c *Console) newTablePage(w http.ResponseWriter, r *http.Request) {
	c.render(w, r, http.StatusOK, "new-table", "New table", newTableForm{PK: "pk", PKType: "S", SK: "sk", SKType: "S"})
}

// createTable creates an on-demand table from the form.
func (c *Console) createTable(w http.ResponseWriter, r *http.Request) {
	f := newTableForm{Name: r.PostFormValue("name"), PK: r.PostFormValue("pk"), PKType: r.PostFormValue("pk_type"),
		SK: r.PostFormValue("sk"), SKType: r.PostFormValue("sk_type"), Stream: r.PostFormValue("stream")}
	defs := []map[string]string{{"AttributeName": f.PK, "AttributeType": f.PKType}}
	keys := []map[string]string{{"AttributeName": f.PK, "KeyType": "HASH"}}
	if f.SK != "" {
		defs = append(defs, map[string]string{"AttributeName": f.SK, "AttributeType": f.SKType})
		keys = append(keys, map[string]string{"AttributeName": f.SK, "KeyType": "RANGE"})
	}
	in := map[string]any{"TableName": f.Name, "AttributeDefinitions": defs, "KeySchema": keys, "BillingMode": "PAY_PER_REQUEST"}
	if f.Stream != "" {
		in["StreamSpecification"] = map[string]any{"StreamEnabled": true, "StreamViewType": f.Stream}
	}
	if err := c.call("CreateTable", in, nil); err != nil {
		c.renderError(w, r, statusOf(err), "new-table", "New table", f, err)
		return
	}
	redirect(w, r, tablePath(f.Name), "table-created")
}

// deleteTable deletes a table once its name is typed again.
func (c *Console) deleteTable(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("table")
	if r.PostFormValue("confirm") != name {
		http.Error(w, "console: type the table's name to confirm its deletion", http.StatusBadRequest)
		return
	}
	if err := c.call("DeleteTable", map[string]string{"TableName": name}, nil); err != nil {
		http.Error(w, errorText(err), statusOf(err))
		return
	}
	redirect(w, r, "/console/", "table-deleted")
}

// createIndex adds a global secondary index (projecting all attributes).
func (c *Console) createIndex(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("table")
	ix, pk, pkType := r.PostFormValue("index"), r.PostFormValue("pk"), r.PostFormValue("pk_type")
	sk, skType := r.PostFormValue("sk"), r.PostFormValue("sk_type")
	defs := []map[string]string{{"AttributeName": pk, "AttributeType": pkType}}
	keys := []map[string]string{{"AttributeName": pk, "KeyType": "HASH"}}
	if sk != "" {
		defs = append(defs, map[string]string{"AttributeName": sk, "AttributeType": skType})
		keys = append(keys, map[string]string{"AttributeName": sk, "KeyType": "RANGE"})
	}
	in := map[string]any{
		"TableName":            name,
		"AttributeDefinitions": defs,
		"GlobalSecondaryIndexUpdates": []any{map[string]any{"Create": map[string]any{
			"IndexName": ix, "KeySchema": keys, "Projection": map[string]string{"ProjectionType": "ALL"},
		}}},
	}
	if err := c.call("UpdateTable", in, nil); err != nil {
		http.Error(w, errorText(err), statusOf(err))
		return
	}
	redirect(w, r, tablePath(name), "gsi-created")
}

// deleteIndex deletes a global secondary index once its name is typed
// again.
func (c *Console) deleteIndex(w http.ResponseWriter, r *http.Request) {
	name, ix := r.PathValue("table"), r.PostFormValue("index")
	if ix == "" || r.PostFormValue("confirm") != ix {
		http.Error(w, "console: type the index's name to confirm its deletion", http.StatusBadRequest)
		return
	}
	in := map[string]any{"TableName": name, "GlobalSecondaryIndexUpdates": []any{
		map[string]any{"Delete": map[string]string{"IndexName": ix}},
	}}
	if err := c.call("UpdateTable", in, nil); err != nil {
		http.Error(w, errorText(err), statusOf(err))
		return
	}
	redirect(w, r, tablePath(name), "gsi-deleted")
}
