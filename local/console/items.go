package console

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/dynamogo/dynamo/codec/ddbjson"
)

// pageSize is how many items a page of a table shows.
const pageSize = 25

type itemsData struct {
	Table *tableDesc
	Grid  grid
	JSON  bool   // show DynamoDB JSON instead of the grid
	Start string // this page's start token ("" for the first)
	Next  string // the next page's start token ("" on the last)
}

// items shows a table: its figures, a page of its items, and its forms.
func (c *Console) items(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("table")
	q := r.URL.Query()
	t, err := c.describe(name)
	if err != nil {
		c.renderError(w, r, statusOf(err), "items", name, itemsData{Table: &tableDesc{TableName: name}}, err)
		return
	}
	d := itemsData{Table: t, JSON: q.Get("view") == "json", Start: q.Get("start")}
	start, err := parseToken(d.Start)
	if err != nil {
		c.renderError(w, r, http.StatusBadRequest, "items", name, d, err)
		return
	}
	in := map[string]any{"TableName": name, "Limit": pageSize}
	if start != nil {
		in["ExclusiveStartKey"] = start
	}
	var out struct {
		Items            []item
		LastEvaluatedKey item
	}
	if err := c.call("Scan", in, &out); err != nil {
		c.renderError(w, r, statusOf(err), "items", name, d, err)
		return
	}
	d.Grid = makeGrid(out.Items, name, keyNames(t.KeySchema))
	if out.LastEvaluatedKey != nil {
		d.Next = keyToken(out.LastEvaluatedKey, keyNames(t.KeySchema))
	}
	c.render(w, r, http.StatusOK, "items", name, d)
}

type itemData struct {
	Table *tableDesc
	Mode  string // "create" or "edit"
	Key   string // the key token of the item edited
	Text  string // the item as DynamoDB JSON
}

// itemPage shows one item for editing (?key=), a blank one to create, or a
// copy of one to create (?from=, duplicate).
func (c *Console) itemPage(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("table")
	t, err := c.describe(name)
	if err != nil {
		c.renderError(w, r, statusOf(err), "item", name, itemData{Table: &tableDesc{TableName: name}}, err)
		return
	}
	q := r.URL.Query()
	d := itemData{Table: t, Mode: "create"}
	tok := q.Get("from")
	if q.Get("key") != "" {
		d.Mode, d.Key, tok = "edit", q.Get("key"), q.Get("key")
	}
	if tok == "" {
		blank := map[string]map[string]string{}
		for _, k := range keyNames(t.KeySchema) {
			blank[k] = map[string]string{t.attrType(k): ""}
		}
		d.Text = pretty(blank)
		c.render(w, r, http.StatusOK, "item", name+": new item", d)
		return
	}
	key, err := parseToken(tok)
	if err != nil {
		c.renderError(w, r, http.StatusBadRequest, "item", name, d, err)
		return
	}
	var out struct{ Item item }
	if err := c.call("GetItem", map[string]any{"TableName": name, "Key": key, "ConsistentRead": true}, &out); err != nil {
		c.renderError(w, r, statusOf(err), "item", name, d, err)
		return
	}
	if out.Item == nil {
		c.renderError(w, r, http.StatusNotFound, "item", name, d, consoleError("the item is not in the table (deleted since the link was made?)"))
		return
	}
	d.Text = pretty(marshalItem(out.Item))
	title := name + ": item"
	if d.Mode == "create" {
		title = name + ": duplicate item"
	}
	c.render(w, r, http.StatusOK, "item", title, d)
}

// putItem creates or replaces an item from its DynamoDB JSON, checked
// before it is sent: the text must be DynamoDB JSON with the table's key.
// A create refuses to overwrite an item, an edit to change the key or to
// bring back an item deleted meanwhile (conditions, so the check and the
// write are one).
func (c *Console) putItem(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("table")
	t, err := c.describe(name)
	if err != nil {
		http.Error(w, errorText(err), statusOf(err))
		return
	}
	d := itemData{Table: t, Mode: r.PostFormValue("mode"), Key: r.PostFormValue("key"), Text: r.PostFormValue("item")}
	if d.Mode != "edit" {
		d.Mode = "create"
	}
	fail := func(err error) { c.renderError(w, r, statusOf(err), "item", name, d, err) }
	if _, err := ddbjson.UnmarshalItem([]byte(d.Text)); err != nil {
		fail(consoleError("the item is not DynamoDB JSON: " + err.Error()))
		return
	}
	var it item
	if err := json.Unmarshal([]byte(d.Text), &it); err != nil {
		fail(consoleError("the item is not a JSON object of attributes"))
		return
	}
	keys := keyNames(t.KeySchema)
	for _, k := range keys {
		if _, ok := it[k]; !ok {
			fail(consoleError(fmt.Sprintf("the item has no %s: every item needs the table's key attributes (%s)", strconv.Quote(k), t.KeyText(t.KeySchema))))
			return
		}
	}
	cond, names := "attribute_not_exists(#k0)", map[string]string{"#k0": keys[0]}
	notice := "created"
	if d.Mode == "edit" {
		if keyToken(it, keys) != d.Key {
			fail(consoleError("an edit cannot change the item's key; duplicate the item to store it under another key"))
			return
		}
		cond, notice = "attribute_exists(#k0)", "saved"
	}
	in := map[string]any{"TableName": name, "Item": json.RawMessage(d.Text), "ConditionExpression": cond, "ExpressionAttributeNames": names}
	if err := c.call("PutItem", in, nil); err != nil {
		fail(err)
		return
	}
	redirect(w, r, tablePath(name)+"/item?key="+keyToken(it, keys), notice)
}

// deleteItem deletes one item, once the form's confirmation is checked.
func (c *Console) deleteItem(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("table")
	if r.PostFormValue("confirm") != "yes" {
		http.Error(w, "console: check the confirmation to delete the item", http.StatusBadRequest)
		return
	}
	key, err := parseToken(r.PostFormValue("key"))
	if err != nil || key == nil {
		http.Error(w, "console: "+errBadToken.Error(), http.StatusBadRequest)
		return
	}
	if err := c.call("DeleteItem", map[string]any{"TableName": name, "Key": key}, nil); err != nil {
		http.Error(w, errorText(err), statusOf(err))
		return
	}
	redirect(w, r, tablePath(name), "deleted")
}
