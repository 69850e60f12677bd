package dynamo_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo"
)

func TestCursorRoundTrip(t *testing.T) {
	key := map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: "order#u1"},
		"sk": &types.AttributeValueMemberS{Value: "2024-06-01T10:00:00.000000000Z#o1"},
		"n":  &types.AttributeValueMemberN{Value: "12.50"},
		"b":  &types.AttributeValueMemberB{Value: []byte{0, 1, 2}},
	}
	c, err := dynamo.CursorFromKey(key)
	if err != nil || c == "" {
		t.Fatalf("CursorFromKey = %q, %v", c, err)
	}
	back, err := c.Key()
	if err != nil || len(back) != 4 || back["n"].(*types.AttributeValueMemberN).Value != "12.50" {
		t.Fatalf("Key = %v, %v", back, err)
	}
	if c2, _ := dynamo.CursorFromKey(back); c2 != c {
		t.Errorf("not deterministic: %q vs %q", c, c2)
	}
	if c, err := dynamo.CursorFromKey(nil); c != "" || err != nil {
		t.Errorf("empty key: %q %v", c, err)
	}
	if k, err := dynamo.Cursor("").Key(); k != nil || err != nil {
		t.Errorf("empty cursor: %v %v", k, err)
	}
}

func FuzzParseCursor(f *testing.F) {
	c, _ := dynamo.CursorFromKey(map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "a"}})
	f.Add(string(c))
	f.Add("")
	f.Add("e30")
	f.Add("%%%")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := dynamo.ParseCursor(s)
		if err != nil {
			return
		}
		key, err := c.Key()
		if err != nil {
			t.Fatalf("ParseCursor accepted %q but Key fails: %v", s, err)
		}
		if s != "" && len(key) == 0 {
			t.Fatalf("ParseCursor accepted %q with an empty key", s)
		}
		if _, err := dynamo.CursorFromKey(key); err != nil {
			t.Fatalf("re-encode %q: %v", s, err)
		}
	})
}
