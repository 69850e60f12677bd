package request_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/request"
)

func TestCursorKeepsEveryKeyType(t *testing.T) {
	key := map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: "order#u1"},
		"sk": &types.AttributeValueMemberS{Value: "2024-06-01T10:00:00.000000000Z#o1"},
		"n":  &types.AttributeValueMemberN{Value: "12.50"},
		"b":  &types.AttributeValueMemberB{Value: []byte{0, 1, 2}},
	}
	c, err := request.EncodeCursor(key)
	if err != nil || c == "" {
		t.Fatalf("EncodeCursor = %q, %v", c, err)
	}
	back, err := request.DecodeCursor(c)
	if err != nil || len(back) != 4 || back["n"].(*types.AttributeValueMemberN).Value != "12.50" {
		t.Fatalf("DecodeCursor = %v, %v", back, err)
	}
	if c2, _ := request.EncodeCursor(back); c2 != c {
		t.Errorf("not deterministic: %q vs %q", c, c2)
	}
	if k, err := request.DecodeCursor(""); k != nil || err != nil {
		t.Errorf("empty cursor: %v %v", k, err)
	}
}

func FuzzDecodeCursor(f *testing.F) {
	c, _ := request.EncodeCursor(map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "a"}})
	f.Add(c)
	f.Add("")
	f.Add("e30")
	f.Add("%%%")
	f.Fuzz(func(t *testing.T, s string) {
		key, err := request.DecodeCursor(s)
		if err != nil {
			return
		}
		if s != "" && len(key) == 0 {
			t.Fatalf("DecodeCursor accepted %q with an empty key", s)
		}
		again, err := request.EncodeCursor(key)
		if err != nil {
			t.Fatalf("re-encode %q: %v", s, err)
		}
		if back, err := request.DecodeCursor(again); err != nil || len(back) != len(key) {
			t.Fatalf("round trip of %q: %v, %v", s, back, err)
		}
	})
}
