package local

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// decodeEquivalence decodes body with the fast decoder and with
// encoding/json (call.decode): where the fast one accepts a body (that
// cannot nest too deep), json must accept it too and give the same value;
// through decodeFast, the two paths must give the same value or the same
// error.
func decodeEquivalence[T any](t *testing.T, body []byte, fast func(*T, []byte) error) {
	t.Helper()
	c := &call{body: body}
	var want T
	wantErr := c.decode(&want)
	if len(body) > 200 {
		body = append(body[:100:100], "..."...) // for the messages
	}
	var got T
	if !mayNestTooDeep(c.body) && fast(&got, c.body) == nil {
		if wantErr != nil {
			t.Fatalf("%T %q: fast decoder accepted a body encoding/json rejects: %v", got, body, wantErr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%T %q: fast %+v, encoding/json %+v", got, body, got, want)
		}
	}
	var via T
	err := decodeFast(c, &via, fast)
	if !reflect.DeepEqual(err, wantErr) || !reflect.DeepEqual(via, want) {
		t.Fatalf("%T %q: decodeFast (%+v, %v), encoding/json (%+v, %v)", via, body, via, err, want, wantErr)
	}
}

var decodeSeeds = []string{
	`{"RequestItems":{"t":[{"PutRequest":{"Item":{"pk":{"S":"a"},"n":{"N":"1"}}}},{"DeleteRequest":{"Key":{"pk":{"S":"b"}}}}]},"ReturnConsumedCapacity":"TOTAL","ReturnItemCollectionMetrics":"SIZE"}`,
	`{"RequestItems":{"t":{"Keys":[{"pk":{"S":"a"}},null],"ProjectionExpression":"#n","ExpressionAttributeNames":{"#n":"n"},"ConsistentRead":true,"AttributesToGet":["a"]}}}`,
	`{"TableName":"t","IndexName":"i","Select":"COUNT","Limit":3,"ConsistentRead":false,"FilterExpression":"a = :a","ExpressionAttributeValues":{":a":{"S":"x"}},"ExclusiveStartKey":{"pk":{"S":"a"}},"Segment":0,"TotalSegments":2,"ScanFilter":{}}`,
	`{"requestitems":{"t":[]},"RequestItems":{"u":[null]}}`,
	`{"RequestItems":{"t":[{"PutRequest":{"Item":{}},"PutRequest":{"Item":null}}]}}`,
	`{"RequestItems":{"t":{"Keys":[]},"t":null}, "RequestItems":{"u":{}}}`,
	`{"TableName":"t","Limit":"3","Segment":1.5,"TotalSegments":1e2}`,
	`{"TableName":"t","Other":"\q"}`,
	`{"TableName":"\u0074","x":["\ud83d\ude00",{"y":[1,-2.5e3,true,false,null]}]}`,
	`{"TableName":7,"RequestItems":[],"Limit":true}`,
	`{"ſegment":1,"tableName":"t"}`,
	`{"RequestItems":{"t":[{"PutRequest":{"Item":{"pk":{"Q":"a"}}}}]}}`,
	`{"TransactItems":[{"ConditionCheck":{"TableName":"t","Key":{"pk":{"S":"a"}},"ConditionExpression":"attribute_exists(#p)","ExpressionAttributeNames":{"#p":"pk"},"ReturnValuesOnConditionCheckFailure":"ALL_OLD"}},{"Put":{"TableName":"t","Item":{"pk":{"S":"b"}}}},{"Update":{"TableName":"t","Key":{"pk":{"S":"c"}},"UpdateExpression":"SET a = :a","ExpressionAttributeValues":{":a":{"N":"1"}}}},{"Delete":{"TableName":"t","Key":{"pk":{"S":"d"}}}},null],"ClientRequestToken":"tok","ReturnConsumedCapacity":"TOTAL","ReturnItemCollectionMetrics":"SIZE"}`,
	`{"TransactItems":[{"Get":{"TableName":"t","Key":{"pk":{"S":"a"}},"ProjectionExpression":"a"}},{"Get":null},null]}`,
	`{"TransactItems":[{"Put":{"TableName":"t"},"put":{}}]}`,
	// Escaped quotes and backslashes, and scalars, where the checked walk
	// only looks for the end of a value.
	`{"RequestItems":{"t\"]}\\":[{"PutRequest":{"Item":{"p\\":{"S":"a\\\"}]"}}, "x" : "\\" }} , null ]}}`,
	`{"RequestItems":{"t":{"Keys":[ {"pk":{"S":"\\"}} ,{"pk":{"N":"1"}}],"ConsistentRead": true ,"x":[1 ,-2e3 ,false]}}}`,
	`{"TransactItems":[{"Get":{"TableName":"\u0074\"","Key":{"pk":{"S":"]"}},"x":1.5e-3}}, 7 ]}`,
	// Batches read with one cursor: every type, whitespace everywhere,
	// several tables, a repeated table, items the ddbjson decoder rejects.
	` { "RequestItems" : { "b" : [ { "PutRequest" : { "Item" : { "s" : { "S" : "x" } , "n" : { "N" : "-1.50E+3" } , "b" : { "B" : "AQI=" } , "t" : { "BOOL" : true } , "z" : { "NULL" : true } , "ss" : { "SS" : [ "a" , "b" ] } , "ns" : { "NS" : [ "1" , "2" ] } , "bs" : { "BS" : [ "AA==" ] } , "m" : { "M" : { "l" : { "L" : [ { "M" : { } } , { "L" : [ ] } ] } } } } } } , { "DeleteRequest" : { "Key" : { "pk" : { "S" : "k" } } , "x" : null } } ] , "a" : [ ] , "b" : [ { "PutRequest" : null } ] } } `,
	`{"RequestItems":{"t":[{"PutRequest":{"Item":{"a":{"S":1}}}}]}}`,
	`{"RequestItems":{"t":[{"PutRequest":{"Item":{"a":{}}}},{"PutRequest":{"Item":[]}}]}}`,
	`{"RequestItems":{"t":[{"DeleteRequest":{"Key":{"a":{"S":"x","N":"1"}}}}, "x"]}}`,
	`{"RequestItems":{"a":{"Keys":[{"k":{"B":"AA=="}},{"k":{"N":"12345678901234567890123456789012345678"}}]},"b":{"Keys":null,"ProjectionExpression":null},"c":null,"d":{"Keys":[{"k":{"S":"x"}}],"keys":[]}}}`,
	`{"RequestItems":{"t":{"Keys":[{"a":{"S":"x"}}, 1]}}}`,
	`{"RequestItems":{"t":[{"PutRequest":{"Item":{"a":{"S":"x"}},"Item":{}}}]},"ReturnConsumedCapacity":null}`,
	// UpdateItem: a key and values of every shape, repeated, null, empty,
	// of the wrong type or malformed.
	`{"TableName":"t","Key":{"pk":{"S":"a\"b"},"sk":{"N":"1"}},"UpdateExpression":"ADD n :one SET v = :v","ExpressionAttributeValues": {":one":{"N":"1"},":v":{"M":{"l":{"L":[{"S":"x"},{"BOOL":true}]}}}},"ReturnValues":"UPDATED_NEW"}`,
	`{"Key":{"pk":{"S":"a"}},"Key":{"pk":{"S":"b"}},"ExpressionAttributeValues":{},"ExpressionAttributeValues":null}`,
	`{"Key":null,"ExpressionAttributeValues":[]}`,
	`{"Key":"k"}`,
	`{"Key":{"pk":{}},"ExpressionAttributeValues":{":a":{"S":"x","N":"1"}}}`,
	`{"Key":{"pk":{"S":1}}}`,
	`{"ExpressionAttributeValues":{":a":{"SS":["a",7]}},"Key":{"pk":{"Q":"a"}}}`,
	`{"TableName":"t","KeyConditionExpression":"pk = :p","FilterExpression":"n >= :z","ExpressionAttributeValues":{":p":{"S":"p001"},":z":{"N":"0"}},"ExclusiveStartKey":{"pk":{"S":"a"}}}`,
}

// FuzzDecodeEquivalence checks the Scan, batch and transaction decoders against
// encoding/json on arbitrary bodies.
func FuzzDecodeEquivalence(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add(s)
	}
	// The handlers' batch decoders, whose maps and decoder memory one
	// decoding reuses from the last (each result is compared before the
	// next decoding).
	sc := new(batchScratch)
	f.Fuzz(func(t *testing.T, body string) {
		b := []byte(body)
		decodeEquivalence(t, b, (*scanInput).decode)
		decodeEquivalence(t, b, (*batchWriteInput).decode)
		decodeEquivalence(t, b, (*batchGetInput).decode)
		decodeEquivalence(t, b, func(in *batchWriteInput, b []byte) error { sc.clear(); return in.decodeWith(b, sc) })
		decodeEquivalence(t, b, func(in *batchGetInput, b []byte) error { sc.clear(); return in.decodeWith(b, sc) })
		decodeEquivalence(t, b, (*transactWriteInput).decode)
		decodeEquivalence(t, b, (*transactGetInput).decode)
		// UpdateItem's and Query's own decoders, with their items in the
		// scratch: the same result and error as into new maps.
		sameWithScratch(t, b, sc, (*updateItemInput).decode, (*updateItemInput).decodeWith)
		sameWithScratch(t, b, sc, (*queryInput).decode, (*queryInput).decodeWith)
	})
}

func sameWithScratch[T any](t *testing.T, b []byte, sc *batchScratch, decode func(*T, []byte) error, with func(*T, []byte, *batchScratch) error) {
	t.Helper()
	var want, got T
	wantErr := decode(&want, b)
	sc.clear()
	if err := with(&got, b, sc); !reflect.DeepEqual(err, wantErr) || !reflect.DeepEqual(got, want) {
		t.Fatalf("%T %q: with a scratch (%+v, %v), without (%+v, %v)", got, b, got, err, want, wantErr)
	}
}

// TestDecodeDeepNesting: encoding/json rejects a body nested deeper than
// 10,000 levels, also inside a member the fast decoder skips.
func TestDecodeDeepNesting(t *testing.T) {
	for _, n := range []int{9998, 9999, 10000, 10001} {
		deep := strings.Repeat("[", n) + strings.Repeat("]", n)
		for _, body := range []string{
			`{"TableName":"t","x":` + deep + `}`,
			`{"RequestItems":{"t":[{"PutRequest":{"Item":{"pk":{"S":"a"}},"x":` + deep + `}}]}}`,
			`{"RequestItems":{"t":{"Keys":[{"pk":{"S":"a"}}],"x":` + deep + `}}}`,
			`{"TransactItems":[{"Get":{"TableName":"t","x":` + deep + `}}]}`,
		} {
			decodeEquivalence(t, []byte(body), (*scanInput).decode)
			decodeEquivalence(t, []byte(body), (*batchWriteInput).decode)
			decodeEquivalence(t, []byte(body), (*batchGetInput).decode)
			decodeEquivalence(t, []byte(body), (*transactGetInput).decode)
		}
	}
}

// TestSkipRejectsBadEscapes: a string with an escape JSON does not allow is
// malformed in any member, also one the decoder skips.
func TestSkipRejectsBadEscapes(t *testing.T) {
	for _, body := range []string{`{"x":"\q"}`, `{"x":"\u12"}`, `{"x":{"\a":1}}`, `{"x":"\`} {
		var in getItemInput
		if err := in.decode([]byte(body)); err == nil {
			t.Errorf("%s: accepted", body)
		}
	}
}

// BenchmarkDecodeBatch compares the two decoders on the body of
// BenchmarkBatchWriteItem25 and BenchmarkBatchGetItem25.
func BenchmarkDecodeBatch(b *testing.B) {
	var w, g strings.Builder
	w.WriteString(`{"RequestItems":{"bench":[`)
	g.WriteString(`{"RequestItems":{"bench":{"Keys":[`)
	for j := range 25 {
		if j > 0 {
			w.WriteByte(',')
			g.WriteByte(',')
		}
		fmt.Fprintf(&w, `{"PutRequest":{"Item":{"pk":{"S":"k%07d"},"sk":{"S":"s"},"v":{"S":"%s"},"n":{"N":"%d"}}}}`, j, strings.Repeat("v", 100), j)
		fmt.Fprintf(&g, `{"pk":{"S":"k%07d"},"sk":{"S":"s"}}`, j)
	}
	w.WriteString(`]}}`)
	g.WriteString(`]}}}`)
	write, get := &call{body: []byte(w.String())}, &call{body: []byte(g.String())}
	b.Run("BatchWriteItem/encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var in batchWriteInput
			if err := write.decode(&in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("BatchWriteItem/fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var in batchWriteInput
			if err := in.decode(write.body); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("BatchGetItem/encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var in batchGetInput
			if err := get.decode(&in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("BatchGetItem/fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var in batchGetInput
			if err := in.decode(get.body); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestValueEnd: the checked walk finds the end of every kind of value,
// past escaped quotes and backslashes and brackets inside strings.
func TestValueEnd(t *testing.T) {
	for _, v := range []string{`"a"`, `"a\"b"`, `"\\"`, `"\\\""`, `"]}\u0022"`, `{}`, `[]`, `{"a":"}\"","b":[1,{"c":"\\"}]}`,
		`[ "]" , [ ] ,{ } ]`, `1`, `-2.5e+3`, `true`, `false`, `null`,
		// Longer than the bytes walked one by one: quotes searched for.
		`"0123456789abcdef\"0123\\"`, `"0123456789abcdefgh\\\"x\\\\"`, `{"k":"0123456789abcdefghij\"}"}`} {
		for _, after := range []string{"", ",", "}", "]", " ,"} {
			if end := valueEnd([]byte(v+after), 0); end != len(v) {
				t.Errorf("valueEnd(%s) = %d, want %d", v+after, end, len(v))
			}
		}
	}
}
