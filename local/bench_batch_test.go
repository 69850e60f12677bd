package local_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// The data-plane benchmarks behind docs/performance.md's request figures:
// each reports cpu-ns/op (process CPU per request), which a loaded machine
// inflates less than ns/op.

// cpuPerOp reports the process CPU time of the loop that follows, per op.
func cpuPerOp(b *testing.B) {
	start := cpuTime()
	b.Cleanup(func() {
		if b.N > 0 {
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		}
	})
}

// batchWriteBody is a BatchWriteItem of 25 puts, and batchGetBody a
// BatchGetItem of 25 keys, of the items from first on.
func batchWriteBody(first int) string {
	var sb strings.Builder
	sb.WriteString(`{"RequestItems":{"bench":[`)
	for j := range 25 {
		if j > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"PutRequest":{"Item":{"pk":{"S":"k%07d"},"sk":{"S":"s"},"v":{"S":"%s"},"n":{"N":"%d"}}}}`, (first+j)%10000, payload, j)
	}
	sb.WriteString(`]}}`)
	return sb.String()
}

func batchGetBody(first int) string {
	var sb strings.Builder
	sb.WriteString(`{"RequestItems":{"bench":{"Keys":[`)
	for j := range 25 {
		if j > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"pk":{"S":"k%07d"},"sk":{"S":"s"}}`, (first+j)%10000)
	}
	sb.WriteString(`]}}}`)
	return sb.String()
}

func BenchmarkBatchWriteItem25(b *testing.B) {
	_, c := benchServer(b)
	bodies := make([]string, 400)
	for i := range bodies {
		bodies[i] = batchWriteBody(i * 25)
	}
	b.ReportAllocs()
	cpuPerOp(b)
	for i := 0; b.Loop(); i++ {
		c.call(b, "BatchWriteItem", bodies[i%len(bodies)])
	}
}

func BenchmarkBatchGetItem25(b *testing.B) {
	_, c := benchServer(b)
	for i := range 400 {
		c.call(b, "BatchWriteItem", batchWriteBody(i*25))
	}
	bodies := make([]string, 400)
	for i := range bodies {
		bodies[i] = batchGetBody(i * 25)
	}
	b.ReportAllocs()
	cpuPerOp(b)
	for i := 0; b.Loop(); i++ {
		c.call(b, "BatchGetItem", bodies[i%len(bodies)])
	}
}

// BenchmarkQuery10 reads 10 items per Query.
func BenchmarkQuery10(b *testing.B) {
	benchQuery10(b, func(p string) string {
		return `{"TableName":"bench","KeyConditionExpression":"pk = :p","FilterExpression":"n >= :z","ExpressionAttributeValues":{":p":{"S":"` + p + `"},":z":{"N":"0"}}}`
	})
}

// BenchmarkQuery10Plain is the Query the load generator sends: 10 items,
// no filter or projection, so that the answer is the items as stored.
func BenchmarkQuery10Plain(b *testing.B) {
	benchQuery10(b, func(p string) string {
		return `{"TableName":"bench","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"` + p + `"}}}`
	})
}

// benchQuery10 stores 100 partitions of 10 items and runs the Query body
// gives for a partition key on each in turn.
func benchQuery10(b *testing.B, body func(pk string) string) {
	_, c := benchServer(b)
	for p := range 100 {
		for s := range 10 {
			c.call(b, "PutItem", putBody(fmt.Sprintf("p%03d", p), fmt.Sprintf("s%02d", s), s))
		}
	}
	bodies := make([]string, 100)
	for p := range bodies {
		bodies[p] = body(fmt.Sprintf("p%03d", p))
	}
	b.ReportAllocs()
	cpuPerOp(b)
	for i := 0; b.Loop(); i++ {
		c.call(b, "Query", bodies[i%len(bodies)])
	}
}

// BenchmarkUpdateItem is an ADD on one of 10,000 items.
func BenchmarkUpdateItem(b *testing.B) {
	_, c := benchServer(b)
	bodies := make([]string, 10000)
	for i := range bodies {
		k := fmt.Sprintf("k%07d", i)
		c.call(b, "PutItem", putBody(k, "s", i))
		bodies[i] = `{"TableName":"bench","Key":{"pk":{"S":"` + k + `"},"sk":{"S":"s"}},"UpdateExpression":"ADD n :one SET v = :v","ExpressionAttributeValues":{":one":{"N":"1"},":v":{"S":"x"}}}`
	}
	b.ReportAllocs()
	cpuPerOp(b)
	for i := 0; b.Loop(); i++ {
		c.call(b, "UpdateItem", bodies[i%len(bodies)])
	}
}

// BenchmarkUpdateItemCounter is the update the whole-server measurements
// send (docs/performance.md): ADD n :one with ReturnValues UPDATED_NEW on
// one of 10,000 items of a table with a hash key only.
func BenchmarkUpdateItemCounter(b *testing.B) {
	updateCounter(b, `"UpdateExpression":"ADD n :one"`)
}

// BenchmarkUpdateItemCounterNamed is BenchmarkUpdateItemCounter with the
// attribute named by a placeholder, byte for byte the UpdateItem of the load
// generator behind docs/performance.md's whole-server figures.
func BenchmarkUpdateItemCounterNamed(b *testing.B) {
	updateCounter(b, `"UpdateExpression":"ADD #n :one","ExpressionAttributeNames":{"#n":"n"}`)
}

// updateCounter adds 1 to n of one of 10,000 items per request, with the
// update members given.
func updateCounter(b *testing.B, update string) {
	_, c := benchServer(b)
	c.call(b, "CreateTable", `{"TableName":"counters","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`)
	bodies := make([]string, 10000)
	for i := range bodies {
		k := fmt.Sprintf("k%07d", i)
		c.call(b, "PutItem", `{"TableName":"counters","Item":{"pk":{"S":"`+k+`"},"v":{"S":"`+payload+`"},"n":{"N":"`+strconv.Itoa(i)+`"}}}`)
		bodies[i] = `{"TableName":"counters","Key":{"pk":{"S":"` + k + `"}},` + update + `,"ExpressionAttributeValues":{":one":{"N":"1"}},"ReturnValues":"UPDATED_NEW"}`
	}
	b.ReportAllocs()
	cpuPerOp(b)
	for i := 0; b.Loop(); i++ {
		c.call(b, "UpdateItem", bodies[i%len(bodies)])
	}
}

// BenchmarkDeleteItem deletes items of 10,000 in turn (past 10,000
// iterations the keys are gone, and the deletes find nothing).
func BenchmarkDeleteItem(b *testing.B) {
	_, c := benchServer(b)
	bodies := make([]string, 10000)
	for i := range bodies {
		k := fmt.Sprintf("k%07d", i)
		c.call(b, "PutItem", putBody(k, "s", i))
		bodies[i] = `{"TableName":"bench","Key":{"pk":{"S":"` + k + `"},"sk":{"S":"s"}}}`
	}
	b.ReportAllocs()
	cpuPerOp(b)
	for i := 0; b.Loop(); i++ {
		c.call(b, "DeleteItem", bodies[i%len(bodies)])
	}
}
