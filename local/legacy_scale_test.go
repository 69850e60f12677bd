package local_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The legacy parameters are translated in linear time (30,000 attributes
// took 15 to 25 s before). The bound is a generous ratio of the fastest of
// a few runs, so a loaded machine does not fail it.
func TestLegacyParametersScaleLinearly(t *testing.T) {
	if testing.Short() {
		t.Skip("sends requests of 30,000 attributes")
	}
	srv, c := newServer(t)
	hashRangeTable(t, srv, "wide")
	key := item{"pk": S("a"), "sk": S("b")}
	forms := map[string]func(n int) error{
		"Expected": func(n int) error {
			exp := map[string]types.ExpectedAttributeValue{}
			for i := range n {
				exp[fmt.Sprint("a", i)] = types.ExpectedAttributeValue{Exists: aws.Bool(false)}
			}
			_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("wide"), Item: key, Expected: exp})
			return err
		},
		"AttributeUpdates": func(n int) error {
			ups := map[string]types.AttributeValueUpdate{}
			for i := range n {
				ups[fmt.Sprint("a", i)] = types.AttributeValueUpdate{Action: types.AttributeActionDelete}
			}
			_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("wide"), Key: key, AttributeUpdates: ups})
			return err
		},
		"ScanFilter": func(n int) error {
			f := map[string]types.Condition{}
			for i := range n {
				f[fmt.Sprint("a", i)] = types.Condition{ComparisonOperator: types.ComparisonOperatorNotNull}
			}
			_, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("wide"), ScanFilter: f})
			return err
		},
		"QueryFilter": func(n int) error {
			f := map[string]types.Condition{}
			for i := range n {
				f[fmt.Sprint("a", i)] = types.Condition{ComparisonOperator: types.ComparisonOperatorNotNull}
			}
			_, err := c.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("wide"), QueryFilter: f,
				KeyConditions: map[string]types.Condition{"pk": {ComparisonOperator: types.ComparisonOperatorEq, AttributeValueList: []types.AttributeValue{S("a")}}}})
			return err
		},
		"AttributesToGet": func(n int) error {
			names := make([]string, n)
			for i := range names {
				names[i] = fmt.Sprint("a", i)
			}
			_, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("wide"), Key: key, AttributesToGet: names})
			return err
		},
	}
	// now is the process's CPU time, which other processes loading the
	// machine do not inflate as they do wall time (wall time where CPU
	// time is not measured).
	epoch := time.Now()
	now := func() time.Duration {
		if c := cpuTime(); c > 0 {
			return c
		}
		return time.Since(epoch)
	}
	// fastest is the best of runs of sending reqs requests of n attributes.
	fastest := func(send func(int) error, n, reqs, runs int) time.Duration {
		best := time.Duration(1<<63 - 1)
		for range runs {
			runtime.GC()
			start := now()
			for range reqs {
				// Many attributes make the translated expression too long:
				// the answer is then that ValidationException.
				if err := send(n); err != nil || n > 1000 {
					wantErrContains(t, err, "ValidationException", "Expression size has exceeded the maximum allowed size")
				}
			}
			best = min(best, now()-start)
		}
		return best
	}
	for name, send := range forms {
		// The same 20,000 attributes in a hundred requests and in one:
		// linear work costs about the same (a little more for the larger
		// maps), quadratic work a hundred times more.
		small, large := fastest(send, 200, 100, 2), fastest(send, 20000, 1, 2)
		if large > 10*small {
			t.Errorf("%s: one request of 20,000 attributes took %v, a hundred of 200 took %v: %.1f times, want about 1 (linear)", name, large, small, float64(large)/float64(small))
		}
	}
}
