package ddbjson

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// benchItem is an order-like item of about 1 KB with nested M, L and SS.
func benchItem() map[string]types.AttributeValue {
	lines := make([]types.AttributeValue, 4)
	for i := range lines {
		lines[i] = &avM{Value: map[string]types.AttributeValue{
			"sku":   &avS{Value: "SKU-" + strconv.Itoa(1000+i)},
			"qty":   &avN{Value: strconv.Itoa(i + 1)},
			"price": &avN{Value: "19.99"},
			"name":  &avS{Value: "Widget \"deluxe\" édition " + strconv.Itoa(i)},
		}}
	}
	return map[string]types.AttributeValue{
		"pk":        &avS{Value: "order#u-12345"},
		"sk":        &avS{Value: "2024-06-01T12:00:00.000000000Z#o-98765"},
		"status":    &avS{Value: "paid"},
		"total":     &avN{Value: "79.96"},
		"version":   &avN{Value: "3"},
		"gift":      &avBOOL{Value: false},
		"note":      &avNULL{Value: true},
		"tags":      &avSS{Value: []string{"express", "fragile", "gift-wrap", "priority"}},
		"lines":     &avL{Value: lines},
		"thumbnail": &avB{Value: []byte("\x89PNG\r\n\x1a\n0123456789abcdef")},
		"shipping": &avM{Value: map[string]types.AttributeValue{
			"street":  &avS{Value: "1 Infinite Loop"},
			"city":    &avS{Value: "Cupertino"},
			"zip":     &avS{Value: "95014"},
			"country": &avS{Value: "US"},
			"geo":     &avL{Value: []types.AttributeValue{&avN{Value: "37.33182"}, &avN{Value: "-122.03118"}}},
		}},
	}
}

func BenchmarkMarshalItem(b *testing.B) {
	item := benchItem()
	buf, _ := AppendItem(nil, item)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for range b.N {
		buf, _ = AppendItem(buf[:0], item)
	}
}

func BenchmarkUnmarshalItem(b *testing.B) {
	data, _ := MarshalItem(benchItem())
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for range b.N {
		if _, err := UnmarshalItem(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUnmarshalSmall decodes the shapes of a small PutItem request: a four-attribute item
// and a two-attribute key, each decoded on its own as the server does.
func BenchmarkUnmarshalSmall(b *testing.B) {
	for _, bc := range []struct{ name, data string }{
		{"Item", `{"pk":{"S":"k0000123"},"sk":{"S":"s"},"v":{"S":"` + strings.Repeat("v", 100) + `"},"n":{"N":"123"}}`},
		{"Key", `{"pk":{"S":"k0000123"},"sk":{"S":"s"}}`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			data := []byte(bc.data)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := UnmarshalItem(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEncodingJSONUnmarshalAny is the baseline: encoding/json decoding the same bytes into
// map[string]any (no AttributeValue types at all).
func BenchmarkEncodingJSONUnmarshalAny(b *testing.B) {
	data, _ := MarshalItem(benchItem())
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for range b.N {
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncodingJSONMarshalAny is encoding/json encoding the equivalent map[string]any.
func BenchmarkEncodingJSONMarshalAny(b *testing.B) {
	data, _ := MarshalItem(benchItem())
	var m map[string]any
	_ = json.Unmarshal(data, &m)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for range b.N {
		if _, err := json.Marshal(m); err != nil {
			b.Fatal(err)
		}
	}
}
