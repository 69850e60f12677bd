package bench

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/dynamogo/dynamo/codec"
)

// BenchmarkVersus runs the two sides of each codec comparison, this
// library and attributevalue, in alternating blocks of versusBlock
// operations, and charges each side the process CPU time of its own
// blocks: both see the same machine load, which on a shared machine moves
// the separate sub-benchmarks above by more than the difference measured.
// ratio is attributevalue's CPU time over ours; one iteration is one block
// of each side.
//
//	GOMAXPROCS=1 go test -run XXX -bench Versus -benchtime 400x -count 5
func BenchmarkVersus(b *testing.B) {
	orderItem, _ := codec.MarshalItem(&order)
	awsOrderItem, _ := attributevalue.MarshalMap(&awsOrd)
	nestedItem, _ := codec.MarshalItem(&nested)
	var floor floorEncoder
	for _, c := range []struct {
		name         string
		ours, theirs func() error
	}{
		{"MarshalOrder",
			func() error { _, err := codec.MarshalItem(&order); return err },
			func() error { _, err := attributevalue.MarshalMap(&awsOrd); return err }},
		{"UnmarshalOrder",
			func() error { var o Order; return codec.UnmarshalItem(orderItem, &o) },
			func() error { var o awsOrder; return attributevalue.UnmarshalMap(awsOrderItem, &o) }},
		{"MarshalNested",
			func() error { _, err := codec.MarshalItem(&nested); return err },
			func() error { _, err := attributevalue.MarshalMap(&awsNest); return err }},
		{"UnmarshalNested",
			func() error { var n Nested; return codec.UnmarshalItem(nestedItem, &n) },
			func() error { var n awsNested; return attributevalue.UnmarshalMap(nestedItem, &n) }},
		// The floor (floor_test.go): the same result as MarshalOrder and
		// MarshalNested, built by hand.
		{"FloorOrder",
			func() error { _, err := floor.order(&order); return err },
			func() error { _, err := attributevalue.MarshalMap(&awsOrd); return err }},
		{"FloorNested",
			func() error { _, err := floor.nested(&nested); return err },
			func() error { _, err := attributevalue.MarshalMap(&awsNest); return err }},
	} {
		b.Run(c.name, func(b *testing.B) {
			var ours, theirs int64
			block := func(f func() error, total *int64) {
				start := cpuNanos()
				for range versusBlock {
					if err := f(); err != nil {
						b.Fatal(err)
					}
				}
				*total += cpuNanos() - start
			}
			i := 0
			for b.Loop() {
				if i%2 == 0 {
					block(c.ours, &ours)
					block(c.theirs, &theirs)
				} else {
					block(c.theirs, &theirs)
					block(c.ours, &ours)
				}
				i++
			}
			if ours > 0 && theirs > 0 {
				n := float64(b.N * versusBlock)
				b.ReportMetric(float64(ours)/n, "ours-cpu-ns/op")
				b.ReportMetric(float64(theirs)/n, "attributevalue-cpu-ns/op")
				b.ReportMetric(float64(theirs)/float64(ours), "ratio")
			}
		})
	}
}

// versusBlock is long enough that the two CPU-time readings around a
// block cost little next to it, short enough that the load seldom changes
// within one.
const versusBlock = 256
