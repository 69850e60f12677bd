package itemsize_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/internal/itemsize"
	"github.com/dynamogo/dynamo/internal/numbers"
)

// The plain-decimal fast path agrees with numbers.Dec.Size for every form.
func TestNumberFastPath(t *testing.T) {
	for _, s := range []string{"0", "1", "-1", "10", "100", "123", "1234", "0.5", "-0.001", "1.5", "12345678901234567890123456789012345678",
		"100.001", "-98765.4321", "1E+2", "1.5e-10", "99999999999999999999999999999999999999E+88"} {
		d, err := numbers.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, form := range []string{s, d.String()} {
			if got, want := itemsize.Number(form), d.Size(); got != want {
				t.Errorf("Number(%s) = %d, want %d", form, got, want)
			}
		}
	}
}

func TestItem(t *testing.T) {
	item := map[string]types.AttributeValue{
		"pk":   &types.AttributeValueMemberS{Value: "user#1"},                                                          // 2 + 6
		"n":    &types.AttributeValueMemberN{Value: "12345"},                                                           // 1 + 4
		"ok":   &types.AttributeValueMemberBOOL{Value: true},                                                           // 2 + 1
		"none": &types.AttributeValueMemberNULL{Value: true},                                                           // 4 + 1
		"b":    &types.AttributeValueMemberB{Value: []byte{1, 2, 3}},                                                   // 1 + 3
		"ss":   &types.AttributeValueMemberSS{Value: []string{"a", "bc"}},                                              // 2 + 3
		"ns":   &types.AttributeValueMemberNS{Value: []string{"1", "100"}},                                             // 2 + 2 + 2
		"bs":   &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2, 3}}},                                            // 2 + 3
		"l":    &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberS{Value: "xy"}}}, // 1 + 3 + 1 + 2
		"m": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
			"k": &types.AttributeValueMemberN{Value: "7"}, // 1 + 1 + 2
		}}, // 1 + 3 + 4
	}
	want := 8 + 5 + 3 + 5 + 4 + 5 + 6 + 5 + 7 + 8
	if got := itemsize.Item(item); got != want {
		t.Errorf("Item = %d, want %d", got, want)
	}
	if got := itemsize.Value(nil); got != 0 {
		t.Errorf("Value(nil) = %d, want 0", got)
	}
}
