package vector_test

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/internal/numbers"
	"github.com/dynamogo/dynamo/local/vector"
)

// FuzzFormatFloat32: the text is a DynamoDB number that reads back as the
// same float32, with a fractional part or an exponent.
func FuzzFormatFloat32(f *testing.F) {
	for _, v := range []float32{0, 1, -1, 0.1, 16777217, 1e-7, 1e20, math.MaxFloat32, math.SmallestNonzeroFloat32, 9.999999e15, 1e16, 0.0001} {
		f.Add(math.Float32bits(v))
	}
	f.Fuzz(func(t *testing.T, bits uint32) {
		v := math.Float32frombits(bits)
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return
		}
		text := vector.FormatFloat32(v)
		if _, err := numbers.Parse(text); err != nil {
			t.Fatalf("%q (from %g) is no DynamoDB number: %v", text, v, err)
		}
		back, err := strconv.ParseFloat(text, 32)
		if err != nil || float32(back) != v && !(v == 0 && back == 0) {
			t.Fatalf("%q reads back as %v, want %v", text, back, v)
		}
		if !strings.ContainsAny(text, ".e") {
			t.Fatalf("%q has neither a fractional part nor an exponent", text)
		}
	})
}

// FuzzSearchVectors: any condition text, vector and TopK is either rejected
// with a ValidationException or searched; nothing panics, and results obey
// TopK and the score direction.
func FuzzSearchVectors(f *testing.F) {
	f.Add("tenant = :t", "1,0,0", int32(5), "acme")
	f.Add("tenant = :t AND category = :t", "1,2", int32(0), "")
	f.Add("tenant.a = :t OR x < :t", "1e39,0,0", int32(101), "x")
	f.Add("#t = :t", "-0,0.5,nan", int32(3), "acme")
	ix := schemaIndex(f)
	for i, t := range []string{"acme", "acme", "globex", "acme"} {
		ix.Upsert(keyOf(i), vector.Item{"tenant": s(t), "category": s("c"), "embedding": vec(float32(i), 1, -float32(i))})
	}
	f.Fuzz(func(t *testing.T, cond, vecText string, topK int32, tenant string) {
		r := &vector.Request{IndexName: "schema", TopK: topK, Values: vector.Item{":t": s(tenant)}, Names: map[string]string{"#t": "tenant"}}
		for _, e := range strings.Split(vecText, ",") {
			r.SearchVector = append(r.SearchVector, &types.AttributeValueMemberN{Value: e})
		}
		r.ConditionExpression = &cond
		if err := vector.CheckRequest(r); err != nil {
			return
		}
		q, err := ix.Prepare(r)
		if err != nil {
			return
		}
		res, err := ix.Search(q)
		if err != nil {
			t.Fatalf("Prepare accepted what Search rejects: %v", err)
		}
		if len(res.Hits) > int(topK) {
			t.Fatalf("%d hits for TopK %d", len(res.Hits), topK)
		}
		for i := 1; i < len(res.Hits); i++ {
			if res.Hits[i].Score < res.Hits[i-1].Score {
				t.Fatalf("COSINE scores not ascending: %+v", res.Hits)
			}
		}
	})
}
