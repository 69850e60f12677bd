package local

import (
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// compactItem copies the strings of an item decoded from a request (names
// and S, N, SS, NS values, at any depth) into one exactly sized buffer and
// returns the item with them. The decoder packs the strings of a request
// into shared chunks of at least 512 bytes, so an attribute map kept after
// its request (a vector index's view of an item) would keep its request's
// whole chunk alive. Tables store items encoded (storage.Encode copies
// them), so only such maps need it. It rewrites the decoded values in place
// (with the same content): call it with the table locked for writing.
func compactItem(it Item) Item {
	n := 0
	for k, v := range it {
		n += len(k) + stringBytes(v)
	}
	c := compactor{buf: make([]byte, 0, n)}
	return c.item(it)
}

type compactor struct{ buf []byte }

// str copies s into the buffer, which never grows (it was sized exactly),
// so earlier strings stay valid.
func (c *compactor) str(s string) string {
	if s == "" {
		return ""
	}
	start := len(c.buf)
	c.buf = append(c.buf, s...)
	return unsafe.String(&c.buf[start], len(s))
}

func (c *compactor) item(it Item) Item {
	out := make(Item, len(it))
	for k, v := range it {
		out[c.str(k)] = c.value(v)
	}
	return out
}

func (c *compactor) value(av types.AttributeValue) types.AttributeValue {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		v.Value = c.str(v.Value)
	case *types.AttributeValueMemberN:
		v.Value = c.str(v.Value)
	case *types.AttributeValueMemberSS:
		for i, s := range v.Value {
			v.Value[i] = c.str(s)
		}
	case *types.AttributeValueMemberNS:
		for i, s := range v.Value {
			v.Value[i] = c.str(s)
		}
	case *types.AttributeValueMemberM:
		v.Value = c.item(v.Value)
	case *types.AttributeValueMemberL:
		for i, e := range v.Value {
			v.Value[i] = c.value(e)
		}
	}
	return av
}

// stringBytes is the number of string bytes compactItem copies for av (S, N,
// SS, NS values and map keys, at any depth). It is not itemsize.Value,
// although it walks the same shape: that is DynamoDB's billed size (numbers
// by digit pairs, binaries, booleans, NULL and per-element overhead
// counted), this is the exact buffer the compactor needs, and either one
// changed to serve the other would be wrong.
func stringBytes(av types.AttributeValue) int {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return len(v.Value)
	case *types.AttributeValueMemberN:
		return len(v.Value)
	case *types.AttributeValueMemberSS:
		n := 0
		for _, s := range v.Value {
			n += len(s)
		}
		return n
	case *types.AttributeValueMemberNS:
		n := 0
		for _, s := range v.Value {
			n += len(s)
		}
		return n
	case *types.AttributeValueMemberM:
		n := 0
		for k, e := range v.Value {
			n += len(k) + stringBytes(e)
		}
		return n
	case *types.AttributeValueMemberL:
		n := 0
		for _, e := range v.Value {
			n += stringBytes(e)
		}
		return n
	}
	return 0
}
