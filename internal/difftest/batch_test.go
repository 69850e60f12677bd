package difftest

import (
	"fmt"
	"strings"
	"testing"
)

func putReqs(n int, dup bool) string {
	var parts []string
	for i := 0; i < n; i++ {
		k := i
		if dup && i == n-1 {
			k = 0
		}
		parts = append(parts, fmt.Sprintf(`{"PutRequest":{"Item":{"pk":{"S":"k%d"},"v":{"N":"%d"}}}}`, k, i))
	}
	return strings.Join(parts, ",")
}

func keys(n int, dup bool) string {
	var parts []string
	for i := 0; i < n; i++ {
		k := i
		if dup && i == n-1 {
			k = 0
		}
		parts = append(parts, fmt.Sprintf(`{"pk":{"S":"k%d"}}`, k))
	}
	return strings.Join(parts, ",")
}

func bw(body string) req { return r("BatchWriteItem", `{"RequestItems":{"Tbl":[`+body+`]}}`) }
func bg(body string) req { return r("BatchGetItem", `{"RequestItems":{"Tbl":{`+body+`}}}`) }

var batchCases = []dcase{
	{name: "batch/write-get-ok", steps: steps(create(tH), bw(putReqs(25, false)), bg(`"Keys":[`+keys(10, false)+`]`))},
	{name: "batch/write-26", steps: steps(create(tH), bw(putReqs(26, false)))},
	{name: "batch/write-duplicate-puts", steps: steps(create(tH), bw(putReqs(3, true)))},
	{name: "batch/write-put-delete-same-key", steps: steps(create(tH), bw(`{"PutRequest":{"Item":{"pk":{"S":"a"}}}},{"DeleteRequest":{"Key":{"pk":{"S":"a"}}}}`))},
	{name: "batch/write-empty-list", steps: steps(create(tH), bw(``))},
	{name: "batch/write-empty-request-items", steps: steps(create(tH), r("BatchWriteItem", `{"RequestItems":{}}`))},
	{name: "batch/write-missing-table", steps: steps(bw(putReqs(1, false)))},
	{name: "batch/write-both-requests", steps: steps(create(tH), bw(`{"PutRequest":{"Item":{"pk":{"S":"a"}}},"DeleteRequest":{"Key":{"pk":{"S":"b"}}}}`))},
	{name: "batch/write-empty-request", steps: steps(create(tH), bw(`{}`))},
	{name: "batch/write-missing-key", steps: steps(create(tH), bw(`{"PutRequest":{"Item":{"x":{"S":"a"}}}}`))},
	{name: "batch/write-delete-extra-attr", steps: steps(create(tH), bw(`{"DeleteRequest":{"Key":{"pk":{"S":"a"},"x":{"S":"b"}}}}`))},
	{name: "batch/write-empty-set", steps: steps(create(tH), bw(`{"PutRequest":{"Item":{"pk":{"S":"a"},"ss":{"SS":[]}}}}`))},
	{name: "batch/write-consumed", steps: steps(create(tH), r("BatchWriteItem", `{"RequestItems":{"Tbl":[`+putReqs(2, false)+`]},"ReturnConsumedCapacity":"TOTAL"}`))},
	{name: "batch/get-101", steps: steps(create(tH), bg(`"Keys":[`+keys(101, false)+`]`))},
	{name: "batch/get-100-ok", steps: steps(create(tH), bg(`"Keys":[`+keys(100, false)+`]`))},
	{name: "batch/get-duplicates", steps: steps(create(tH), bg(`"Keys":[`+keys(3, true)+`]`))},
	{name: "batch/get-empty-keys", steps: steps(create(tH), bg(`"Keys":[]`))},
	{name: "batch/get-missing-table", steps: steps(bg(`"Keys":[` + keys(1, false) + `]`))},
	{name: "batch/get-projection", steps: steps(create(tH), bw(putReqs(3, false)), bg(`"Keys":[`+keys(3, false)+`],"ProjectionExpression":"v"`))},
	{name: "batch/get-bad-key", steps: steps(create(tH), bg(`"Keys":[{"x":{"S":"a"}}]`))},
	{name: "batch/get-consistent-consumed", steps: steps(create(tH), bw(putReqs(2, false)), r("BatchGetItem", `{"RequestItems":{"Tbl":{"Keys":[`+keys(2, false)+`],"ConsistentRead":true}},"ReturnConsumedCapacity":"TOTAL"}`))},
	{name: "batch/get-unused-names", steps: steps(create(tH), bg(`"Keys":[`+keys(1, false)+`],"ProjectionExpression":"v","ExpressionAttributeNames":{"#x":"x"}`))},
}

func TestDiffBatch(t *testing.T) { run(t, batchCases) }
