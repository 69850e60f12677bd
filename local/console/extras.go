package console

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dynamogo/dynamo/local"
)

// requests lists the recent API calls to the server, newest first.
func (c *Console) requests(w http.ResponseWriter, r *http.Request) {
	calls := c.srv.RecentCalls()
	slices.Reverse(calls)
	c.render(w, r, http.StatusOK, "requests", "Recent requests", requestsData{Calls: calls, Kept: local.RecentCallsKept})
}

type requestsData struct {
	Calls []local.RecentCall
	Kept  int
}

type partiqlData struct {
	Statement string
	Ran       bool
	Grid      grid
	NextToken string
}

func (c *Console) partiqlPage(w http.ResponseWriter, r *http.Request) {
	c.render(w, r, http.StatusOK, "partiql", "PartiQL", partiqlData{Statement: r.URL.Query().Get("statement")})
}

// partiql runs one statement (ExecuteStatement): a POST, since a
// statement may write.
func (c *Console) partiql(w http.ResponseWriter, r *http.Request) {
	d := partiqlData{Statement: r.PostFormValue("statement"), Ran: true}
	in := map[string]any{"Statement": d.Statement}
	if tok := r.PostFormValue("next"); tok != "" {
		in["NextToken"] = tok
	}
	var out struct {
		Items     []item
		NextToken string
	}
	if err := c.call("ExecuteStatement", in, &out); err != nil {
		d.Ran = false
		c.renderError(w, r, statusOf(err), "partiql", "PartiQL", d, err)
		return
	}
	d.Grid, d.NextToken = makeGrid(out.Items, "", nil), out.NextToken
	c.render(w, r, http.StatusOK, "partiql", "PartiQL", d)
}

// streamShown is how many of a stream's latest records the view shows, and
// streamRead how many it reads at most to find them (a shard holds at most
// 10,000 records before a child shard opens).
const (
	streamShown = 100
	streamRead  = 20000
)

type streamData struct {
	Table   *tableDesc
	Records []streamRecord // newest first
}

type streamRecord struct {
	EventName string
	Time      string
	Keys      string
	Images    string // the new and old images, as the view type gives them
}

// stream shows the latest records of a table's stream, read through
// DescribeStream, GetShardIterator and GetRecords like any consumer;
// ?fragment=1 answers the records table alone (the script polls it).
func (c *Console) stream(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("table")
	t, err := c.describe(name)
	if err != nil {
		c.renderError(w, r, statusOf(err), "stream", name+": stream", streamData{Table: &tableDesc{TableName: name}}, err)
		return
	}
	d := streamData{Table: t}
	if t.LatestStreamArn != "" {
		d.Records, err = c.readStream(t.LatestStreamArn)
	}
	if r.URL.Query().Get("fragment") != "" {
		if err != nil {
			http.Error(w, errorText(err), statusOf(err))
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		c.pages["stream"].ExecuteTemplate(w, "records", d)
		return
	}
	if err != nil {
		c.renderError(w, r, statusOf(err), "stream", name+": stream", d, err)
		return
	}
	c.render(w, r, http.StatusOK, "stream", name+": stream", d)
}

// readStream returns the latest streamShown records of a stream, newest
// first: it reads whole shards, the newest first (DescribeStream lists a
// child after its parent), until it has enough.
func (c *Console) readStream(arn string) ([]streamRecord, error) {
	var desc struct {
		StreamDescription struct{ Shards []struct{ ShardId string } }
	}
	if err := c.call("DescribeStream", map[string]string{"StreamArn": arn}, &desc); err != nil {
		return nil, err
	}
	type rawRecord struct {
		EventName string
		Dynamodb  struct {
			ApproximateCreationDateTime float64
			SequenceNumber              string
			Keys, NewImage, OldImage    item
		}
	}
	var all []rawRecord
	shards := desc.StreamDescription.Shards
	for i := len(shards) - 1; i >= 0 && len(all) < streamShown; i-- {
		var it struct{ ShardIterator *string }
		in := map[string]string{"StreamArn": arn, "ShardId": shards[i].ShardId, "ShardIteratorType": "TRIM_HORIZON"}
		if err := c.call("GetShardIterator", in, &it); err != nil {
			return nil, err
		}
		for it.ShardIterator != nil && len(all) < streamRead {
			var out struct {
				Records           []rawRecord
				NextShardIterator *string
			}
			if err := c.call("GetRecords", map[string]any{"ShardIterator": *it.ShardIterator, "Limit": 1000}, &out); err != nil {
				return nil, err
			}
			all = append(all, out.Records...)
			if len(out.Records) == 0 {
				break // the shard's end, for now
			}
			it.ShardIterator = out.NextShardIterator
		}
	}
	slices.SortStableFunc(all, func(a, b rawRecord) int {
		return cmpSequence(a.Dynamodb.SequenceNumber, b.Dynamodb.SequenceNumber)
	})
	var recs []streamRecord
	for i := len(all) - 1; i >= 0 && len(recs) < streamShown; i-- {
		rr := all[i]
		sec := int64(rr.Dynamodb.ApproximateCreationDateTime)
		sr := streamRecord{EventName: rr.EventName, Time: time.Unix(sec, 0).UTC().Format(time.DateTime),
			Keys: string(marshalItem(rr.Dynamodb.Keys))}
		var images []string
		if rr.Dynamodb.NewImage != nil {
			images = append(images, "new: "+string(marshalItem(rr.Dynamodb.NewImage)))
		}
		if rr.Dynamodb.OldImage != nil {
			images = append(images, "old: "+string(marshalItem(rr.Dynamodb.OldImage)))
		}
		sr.Images = strings.Join(images, "\n")
		recs = append(recs, sr)
	}
	return recs, nil
}

// cmpSequence orders sequence numbers (decimal strings of any length).
func cmpSequence(a, b string) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}

type searchData struct {
	Table   *tableDesc
	Index   string
	Vector  string
	TopK    string
	Ran     bool
	Results []searchHit
	Keys    []string
}

type searchHit struct {
	Score float64
	Grid  grid
}

// search is the vector search playground: a vector in, the nearest items
// with their scores out (SearchVectors).
func (c *Console) search(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("table")
	q := r.URL.Query()
	d := searchData{Table: &tableDesc{TableName: name}, Index: q.Get("index"), Vector: q.Get("vector"), TopK: q.Get("k")}
	t, err := c.describe(name)
	if err != nil {
		c.renderError(w, r, statusOf(err), "search", name+": vector search", d, err)
		return
	}
	d.Table = t
	if d.TopK == "" {
		d.TopK = "10"
	}
	if d.Index == "" && len(t.VectorIndexes) > 0 {
		d.Index = t.VectorIndexes[0].IndexName
	}
	if q.Get("run") == "" {
		c.render(w, r, http.StatusOK, "search", name+": vector search", d)
		return
	}
	vec, err := parseVector(d.Vector)
	if err != nil {
		c.renderError(w, r, http.StatusBadRequest, "search", name+": vector search", d, err)
		return
	}
	k, err := strconv.Atoi(d.TopK)
	if err != nil {
		c.renderError(w, r, http.StatusBadRequest, "search", name+": vector search", d, consoleError("results: want a whole number"))
		return
	}
	var out struct {
		SearchResults []struct {
			Item  item
			Score float64
		}
	}
	in := map[string]any{"TableName": name, "IndexName": d.Index, "SearchVector": vec, "TopK": k}
	if err := c.call("SearchVectors", in, &out); err != nil {
		c.renderError(w, r, statusOf(err), "search", name+": vector search", d, err)
		return
	}
	d.Ran = true
	for _, h := range out.SearchResults {
		d.Results = append(d.Results, searchHit{Score: h.Score, Grid: makeGrid([]item{h.Item}, name, keyNames(t.KeySchema))})
	}
	c.render(w, r, http.StatusOK, "search", name+": vector search", d)
}

// parseVector reads a vector as numbers separated by commas or spaces, in
// brackets or not ("[0.1, 0.2]"), into DynamoDB JSON numbers.
func parseVector(s string) ([]json.RawMessage, error) {
	s = strings.Trim(strings.TrimSpace(s), "[]")
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\t' || r == '\r' })
	if len(fields) == 0 {
		return nil, consoleError("vector: want numbers such as [0.1, 0.2, 0.3]")
	}
	vec := make([]json.RawMessage, len(fields))
	for i, f := range fields {
		if _, err := strconv.ParseFloat(f, 64); err != nil {
			return nil, consoleError(fmt.Sprintf("vector: element %d is not a number", i+1))
		}
		vec[i] = typed("N", f)
	}
	return vec, nil
}
