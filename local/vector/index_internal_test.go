package vector

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestCodebookForgetsUnusedValues: filter values no row holds any more
// leave the codebook, so one item rewritten with ever new values (a
// timestamp, say) keeps it at one entry.
func TestCodebookForgetsUnusedValues(t *testing.T) {
	ix, err := New(Definition{Name: "vix", Attribute: "embedding", Dimensions: 2, Distance: types.VectorDistanceFunctionDotProduct,
		Projection: types.ProjectionTypeKeysOnly, Filters: []Attr{{Name: "at", Type: types.ScalarAttributeTypeN}}})
	if err != nil {
		t.Fatal(err)
	}
	emb := vectorValue([]float32{1, 2})
	for i := range 1000 {
		ix.Upsert("k", Item{"embedding": emb, "at": &types.AttributeValueMemberN{Value: fmt.Sprint(i)}})
		ix.Upsert("other", Item{"embedding": emb, "at": &types.AttributeValueMemberN{Value: "7"}})
	}
	b := &ix.codes[0]
	if len(b.code) != 2 || len(b.keys) > 4 {
		t.Fatalf("codebook holds %d values in %d codes, want the 2 values held", len(b.code), len(b.keys))
	}
	ix.Delete("k")
	ix.Delete("other")
	if len(b.code) != 0 {
		t.Fatalf("codebook holds %d values after every row left", len(b.code))
	}
}
