package codec_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/codec"
)

// avReader builds attribute value trees from fuzz bytes.
type avReader struct{ b []byte }

func (r *avReader) byte() byte {
	if len(r.b) == 0 {
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *avReader) str() string {
	n := int(r.byte() % 12)
	if n > len(r.b) {
		n = len(r.b)
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

var fuzzWords = []string{"s", "i", "i8", "u", "f", "f32", "t", "ts", "ttl", "d", "tod", "dt", "num", "ss", "nsi", "nsf", "bs",
	"list", "plist", "map", "any", "one", "lines", "by_id", "vec", "p", "pp", "arr", "bytes", "bin", "bool", "sku", "qty", "price", "note",
	"1", "-0", "1E+2", "1.5", "9.99E+125", "1E-130", "2024-01-02T03:04:05Z", "2024-02-29", "23:59:59.999", "2024-01-02T03:04:05.5", "x"}

func (r *avReader) word() string {
	if c := r.byte(); c < 200 {
		return fuzzWords[int(c)%len(fuzzWords)]
	}
	return r.str()
}

func (r *avReader) value(depth int) types.AttributeValue {
	k := r.byte() % 11
	if depth > 4 && k >= 5 {
		k %= 5
	}
	switch k {
	case 0:
		return &types.AttributeValueMemberS{Value: r.word()}
	case 1:
		return &types.AttributeValueMemberN{Value: r.word()}
	case 2:
		return &types.AttributeValueMemberB{Value: []byte(r.str())}
	case 3:
		return &types.AttributeValueMemberBOOL{Value: r.byte()%2 == 0}
	case 4:
		return &types.AttributeValueMemberNULL{Value: r.byte()%2 == 0}
	case 5:
		return &types.AttributeValueMemberM{Value: r.item(depth + 1)}
	case 6:
		l := make([]types.AttributeValue, r.byte()%5)
		for i := range l {
			l[i] = r.value(depth + 1)
		}
		return &types.AttributeValueMemberL{Value: l}
	case 7:
		ss := make([]string, r.byte()%4)
		for i := range ss {
			ss[i] = r.word()
		}
		return &types.AttributeValueMemberSS{Value: ss}
	case 8:
		ns := make([]string, r.byte()%4)
		for i := range ns {
			ns[i] = r.word()
		}
		return &types.AttributeValueMemberNS{Value: ns}
	case 9:
		bs := make([][]byte, r.byte()%4)
		for i := range bs {
			bs[i] = []byte(r.str())
		}
		return &types.AttributeValueMemberBS{Value: bs}
	default:
		if r.byte()%4 == 0 {
			return nil
		}
		return &types.AttributeValueMemberS{Value: r.str()}
	}
}

func (r *avReader) item(depth int) map[string]types.AttributeValue {
	m := map[string]types.AttributeValue{}
	for range r.byte() % 8 {
		m[r.word()] = r.value(depth)
	}
	return m
}

// FuzzUnmarshal decodes random attribute value trees into a struct with
// every kind of field and into any: it must never panic, and whatever
// decodes must encode again without panicking.
func FuzzUnmarshal(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{5, 10, 0, 0})
	f.Add([]byte{7, 13, 1, 35, 24, 6, 3, 5, 2, 31, 0, 32})
	f.Add([]byte("\x07\x0a\x01\x24\x18\x06\x03\x05\x02\x1f\x00\x20\x03\x00\x04\x01\x1c\x06\x02\x01\x25"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &avReader{b: data}
		item := r.item(0)
		var v Rich
		if err := codec.UnmarshalItem(item, &v); err == nil {
			_, _ = codec.MarshalItem(v)
		}
		var a any
		if err := codec.Unmarshal(&types.AttributeValueMemberM{Value: item}, &a); err == nil {
			_, _ = codec.Marshal(a)
		}
		var m map[string]Line
		_ = codec.UnmarshalItem(item, &m)
	})
}
