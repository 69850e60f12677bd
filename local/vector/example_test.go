package vector_test

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/local/vector"
)

func Example() {
	ix, err := vector.New(vector.Definition{
		Name:       "ByMeaning",
		Attribute:  "embedding",
		Dimensions: 3,
		Distance:   types.VectorDistanceFunctionCosine,
		Partition:  vector.Attr{Name: "tenant", Type: types.ScalarAttributeTypeS},
		Projection: types.ProjectionTypeInclude, NonKeyAttributes: []string{"title"},
		TableKeys: []string{"pk"},
	})
	if err != nil {
		panic(err)
	}
	put := func(pk, tenant, title string, v ...float32) {
		item := vector.Item{"pk": s(pk), "tenant": s(tenant), "title": s(title), "embedding": vec(v...)}
		if err := ix.Check(item); err != nil { // before the write: DynamoDB's rejection
			panic(err)
		}
		ix.Upsert(pk, item) // inside the write: the index follows the table
	}
	put("doc#1", "acme", "Same direction", 2, 0, 0)
	put("doc#2", "acme", "Close", 1, 1, 0)
	put("doc#3", "acme", "Opposite", -1, 0, 0)
	put("doc#4", "globex", "Other tenant", 1, 0, 0)

	// A SearchVectors request as the server decodes it.
	cond := "tenant = :t"
	req := &vector.Request{
		IndexName:           "ByMeaning",
		SearchVector:        nums(1, 0, 0),
		TopK:                2,
		ConditionExpression: &cond,
		Values:              vector.Item{":t": s("acme")},
	}
	if err := vector.CheckRequest(req); err != nil {
		panic(err)
	}
	q, err := ix.Prepare(req)
	if err != nil {
		panic(err)
	}
	res, err := ix.Search(q)
	if err != nil {
		panic(err)
	}
	for _, h := range res.Hits {
		title := h.Item["title"].(*types.AttributeValueMemberS).Value
		fmt.Printf("%s %.4f %s\n", h.Key, h.Score, title)
	}

	// A vector of the wrong length is rejected with DynamoDB's message.
	fmt.Println(ix.Check(vector.Item{"pk": s("doc#5"), "embedding": vec(1, 2)}))
	// Output:
	// doc#1 0.0000 Same direction
	// doc#2 0.2929 Close
	// ValidationException: One or more parameter values were invalid. Invalid size for parameter embedding, Expected: 3, Actual: 2 IndexName: ByMeaning
}

func ExampleFormatFloat32() {
	fmt.Println(vector.FormatFloat32(1), vector.FormatFloat32(16777217), vector.FormatFloat32(0.1), vector.FormatFloat32(1e-7))
	// Output: 1.0 16777216.0 0.1 1e-7
}
