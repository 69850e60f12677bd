package local_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/dynamogo/dynamo/codec/ddbjson"
	"github.com/dynamogo/dynamo/internal/avtest"
	"github.com/dynamogo/dynamo/internal/itemsize"
)

// richItem is an item with every attribute type, nested maps and lists,
// sets, numbers at DynamoDB's limits and in non-canonical form, binary and
// escaped text, and the same item as the server stores it (numbers
// canonical).
func richItem(pk, sk, g string, n int) (sent, stored item) {
	esc := "tab\t quote\" backslash\\ é 🎉 " + strings.Repeat("x", n%7)
	sent = item{
		"pk": S(pk), "sk": S(sk), "g": S(g),
		"s": S(esc), "empty": S(""),
		"n": N("0012.500"), "big": N("123456789012345678901234567890123456.78"), "tiny": N("-1E-130"),
		"b": B(0, 1, 2, 255, byte(n)), "t": avtest.BOOL(true), "f": avtest.BOOL(false), "z": avtest.NULL(),
		"ss": avtest.SS("b", "a", esc), "ns": avtest.NS("1.0", "-2", "3e2"), "bs": avtest.BS([]byte{0}, []byte{1, 2}),
		"l": avtest.L(S("x"), N("1"), avtest.M("in", avtest.L(avtest.SS("p"), avtest.NULL())), avtest.L()),
		"m": avtest.M("a", avtest.M("b", avtest.M("c", N(strconv.Itoa(n)))), "e", avtest.M(), "bs", avtest.BS([]byte("q"))),
	}
	stored = item{
		"pk": S(pk), "sk": S(sk), "g": S(g),
		"s": S(esc), "empty": S(""),
		"n": N("12.5"), "big": N("123456789012345678901234567890123456.78"), "tiny": N("-0." + strings.Repeat("0", 129) + "1"),
		"b": B(0, 1, 2, 255, byte(n)), "t": avtest.BOOL(true), "f": avtest.BOOL(false), "z": avtest.NULL(),
		"ss": avtest.SS("b", "a", esc), "ns": avtest.NS("1", "-2", "300"), "bs": avtest.BS([]byte{0}, []byte{1, 2}),
		"l": avtest.L(S("x"), N("1"), avtest.M("in", avtest.L(avtest.SS("p"), avtest.NULL())), avtest.L()),
		"m": avtest.M("a", avtest.M("b", avtest.M("c", N(strconv.Itoa(n)))), "e", avtest.M(), "bs", avtest.BS([]byte("q"))),
	}
	return sent, stored
}

// sameItem compares items by their DynamoDB JSON (sorted, exact).
func sameItem(t *testing.T, what string, got, want item) {
	t.Helper()
	g, err := ddbjson.MarshalItem(got)
	if err != nil {
		t.Fatal(err)
	}
	w, _ := ddbjson.MarshalItem(want)
	if string(g) != string(w) {
		t.Fatalf("%s:\n got %s\nwant %s", what, g, w)
	}
}

// TestBatchWriteStoresEveryItemExactly writes items of every type with
// BatchWriteItem into a table with a GSI and a NEW_AND_OLD_IMAGES stream, a
// plain table and a table with vector indexes, in batches that reuse the
// server's request buffers (each batch overwrites part of the last), and
// reads every item back through GetItem, BatchGetItem, the GSI, the stream
// and the vector index: nothing a batch writes is lost, changed, or left
// pointing at the memory of a later request.
func TestBatchWriteStoresEveryItemExactly(t *testing.T) {
	srv, c := newServer(t)
	srv.CreateTable(t, &dynamodb.CreateTableInput{
		TableName: aws.String("rich"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: "S"},
			{AttributeName: aws.String("sk"), AttributeType: "S"}, {AttributeName: aws.String("g"), AttributeType: "S"}},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: "HASH"}, {AttributeName: aws.String("sk"), KeyType: "RANGE"}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byG"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: "HASH"}, {AttributeName: aws.String("pk"), KeyType: "RANGE"}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
		BillingMode:         types.BillingModePayPerRequest,
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
	})
	hashRangeTable(t, srv, "plain")
	docsTable(t, srv)

	want := map[string]item{}  // "table/pk" → the item stored
	gsi := map[string]string{} // pk → g, in "rich"
	vecs := map[string][]float32{}
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 6 {
		var rich, plain, docs []types.WriteRequest
		for i := range 8 {
			id := (round*5 + i) % 20 // each round overwrites some items of the last
			pk := fmt.Sprintf("p%02d", id)
			g := fmt.Sprintf("g%d", (id+round)%3) // an overwrite may move the GSI entry
			sent, stored := richItem(pk, "s", g, round*10+i)
			rich = append(rich, putReq(sent))
			want["rich/"+pk], gsi[pk] = stored, g
			sent, stored = richItem(pk, "s", g, round*10+i+1)
			plain = append(plain, putReq(sent))
			want["plain/"+pk] = stored
			v := []float32{float32(r.IntN(9) + 1), float32(r.IntN(9)), float32(r.IntN(9)), float32(round)}
			docs = append(docs, putReq(item{"pk": S(pk), "tenant": S("acme"), "kind": S("a"), "title": S("t" + strconv.Itoa(round) + pk), "emb": vecAV(v)}))
			want["docs/"+pk], vecs[pk] = item{"pk": S(pk), "title": S("t" + strconv.Itoa(round) + pk)}, v
		}
		if round == 4 { // deletes, whose old items a plain table decodes
			plain = append(plain, delReq(item{"pk": S("p18"), "sk": S("s")}), delReq(item{"pk": S("p21"), "sk": S("s")}))
			delete(want, "plain/p18")
		}
		for _, batch := range [][2][]types.WriteRequest{{rich, plain}, {docs, nil}} {
			in := map[string][]types.WriteRequest{"rich": batch[0], "plain": batch[1]}
			if batch[1] == nil {
				in = map[string][]types.WriteRequest{"docs": batch[0]}
			}
			out, err := c.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: in})
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
			if len(out.UnprocessedItems) != 0 {
				t.Fatalf("round %d: unprocessed %v", round, out.UnprocessedItems)
			}
		}
	}

	size := 0
	for key, it := range want {
		table, pk, _ := strings.Cut(key, "/")
		k := item{"pk": S(pk)}
		if table != "docs" {
			k["sk"] = S("s")
		}
		g, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: k, ConsistentRead: aws.Bool(true)})
		if err != nil {
			t.Fatal(err)
		}
		if table == "docs" {
			sameItem(t, key, item{"pk": g.Item["pk"], "title": g.Item["title"]}, it)
			continue
		}
		sameItem(t, key, g.Item, it)
		b, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{table: {Keys: []map[string]types.AttributeValue{k}}}})
		if err != nil || len(b.Responses[table]) != 1 {
			t.Fatalf("BatchGetItem %s: %v %v", key, b, err)
		}
		sameItem(t, key+" (BatchGetItem)", b.Responses[table][0], it)
		if table == "plain" {
			size += itemsize.Item(it)
		}
	}
	// The plain table's size follows the old items' sizes, which its batch
	// puts take from the stored encoding without decoding it.
	d, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("plain")})
	if err != nil {
		t.Fatal(err)
	}
	if got := aws.ToInt64(d.Table.TableSizeBytes); got != int64(size) || aws.ToInt64(d.Table.ItemCount) != 19 {
		t.Fatalf("plain: %d items of %d bytes, want 19 of %d", aws.ToInt64(d.Table.ItemCount), got, size)
	}

	// The GSI holds each item once, under its latest g.
	for gv := range 3 {
		q, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("rich"), IndexName: aws.String("byG"),
			KeyConditionExpression: aws.String("g = :g"), ExpressionAttributeValues: item{":g": S(fmt.Sprintf("g%d", gv))}})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range q.Items {
			pk := sval(it["pk"])
			if gsi[pk] != fmt.Sprintf("g%d", gv) {
				t.Fatalf("GSI g%d holds %s, whose g is %s", gv, pk, gsi[pk])
			}
			sameItem(t, "GSI "+pk, it, want["rich/"+pk])
			delete(gsi, pk)
		}
	}
	if len(gsi) != 0 {
		t.Fatalf("missing from the GSI: %v", gsi)
	}

	// The stream's last record of each item has it as its new image, and
	// an overwrite's record has the item it replaced.
	d, _ = c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("rich")})
	last := map[string]stypes.Record{}
	modified := 0
	for _, rec := range readStream(t, streamsClient(t, srv), aws.ToString(d.Table.LatestStreamArn)) {
		pk := rec.Dynamodb.Keys["pk"].(*stypes.AttributeValueMemberS).Value
		last[pk] = rec
		if rec.EventName == stypes.OperationTypeModify {
			modified++
			if len(rec.Dynamodb.OldImage) != len(want["rich/"+pk]) {
				t.Fatalf("%s: old image of %d attributes", pk, len(rec.Dynamodb.OldImage))
			}
		}
	}
	if len(last) != 20 || modified == 0 {
		t.Fatalf("stream: %d items, %d overwrites", len(last), modified)
	}
	for pk, rec := range last {
		w := want["rich/"+pk]
		img := rec.Dynamodb.NewImage
		if len(img) != len(w) || img["s"].(*stypes.AttributeValueMemberS).Value != sval(w["s"]) || img["n"].(*stypes.AttributeValueMemberN).Value != "12.5" {
			t.Fatalf("%s: new image %v", pk, img)
		}
	}

	// The vector index finds each document by its latest vector, with the
	// attributes of its latest write.
	for pk, v := range vecs {
		out, err := c.SearchVectors(ctx, &dynamodb.SearchVectorsInput{TableName: aws.String("docs"), IndexName: aws.String("byL2"),
			SearchVector: searchVec(v), TopK: aws.Int32(1)})
		if err != nil {
			t.Fatal(err)
		}
		h := out.SearchResults
		if len(h) != 1 || h[0].Score != 0 {
			t.Fatalf("%s: hits %v", pk, h)
		}
		if got := sval(h[0].Item["pk"]); got != pk && !reflect.DeepEqual(vecs[got], v) {
			t.Fatalf("%s: nearest is %s", pk, got)
		}
		if got := sval(h[0].Item["pk"]); got == pk && sval(h[0].Item["title"]) != sval(want["docs/"+pk]["title"]) {
			t.Fatalf("%s: the index holds title %q, want %q", pk, sval(h[0].Item["title"]), sval(want["docs/"+pk]["title"]))
		}
	}
}
