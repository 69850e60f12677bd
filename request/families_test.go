package request_test

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/request"
)

// Which option belongs to which family, checked by the compiler. The
// absent pairs are the point: request.Query(s, v, request.Segment(0, 2))
// or request.Get(s, k, request.Descending()) does not compile.
var (
	_ request.GetOption      = request.Consistent()
	_ request.QueryOption    = request.Consistent()
	_ request.ScanOption     = request.Consistent()
	_ request.BatchGetOption = request.Consistent()

	_ request.PutOption    = request.If(expr.Exists("pk"))
	_ request.DeleteOption = request.If(expr.Exists("pk"))
	_ request.UpdateOption = request.If(expr.Exists("pk"))
	_ request.TxOpOption   = request.If(expr.Exists("pk"))

	_ request.QueryOption  = request.Filter(expr.Exists("a"))
	_ request.ScanOption   = request.Filter(expr.Exists("a"))
	_ request.SearchOption = request.Filter(expr.Exists("a"))

	_ request.GetOption      = request.Project("a")
	_ request.QueryOption    = request.Project("a")
	_ request.ScanOption     = request.Project("a")
	_ request.BatchGetOption = request.Project("a")
	_ request.SearchOption   = request.Project("a")
	_ request.GetOption      = request.Project(expr.Attr("a", "b"))

	_ request.PutOption    = request.ReturnValues(types.ReturnValueAllOld)
	_ request.DeleteOption = request.ReturnValues(types.ReturnValueAllOld)
	_ request.UpdateOption = request.ReturnValues(types.ReturnValueAllNew)

	_ request.PutOption    = request.ReturnOldOnConditionFail()
	_ request.DeleteOption = request.ReturnOldOnConditionFail()
	_ request.UpdateOption = request.ReturnOldOnConditionFail()
	_ request.TxOpOption   = request.ReturnOldOnConditionFail()

	_ request.BatchWriteOption = request.ConsumedCapacity(types.ReturnConsumedCapacityTotal)
	_ request.TxOption         = request.ConsumedCapacity(types.ReturnConsumedCapacityTotal)
	_ request.SearchOption     = request.ConsumedCapacity(types.ReturnConsumedCapacityTotal)

	_ request.QueryOption = request.Index("i")
	_ request.ScanOption  = request.Index("i")
	_ request.QueryOption = request.Limit(1)
	_ request.ScanOption  = request.Limit(1)
	_ request.QueryOption = request.StartKey(nil)
	_ request.ScanOption  = request.StartKey(nil)
	_ request.QueryOption = request.Select(types.SelectCount)
	_ request.ScanOption  = request.Select(types.SelectCount)

	_ request.QueryOption  = request.Descending()
	_ request.QueryOption  = request.SortNone()
	_ request.ScanOption   = request.Segment(0, 2)
	_ request.TxOption     = request.ClientRequestToken("t")
	_ request.SearchOption = request.TopK(5)
	_ request.TxGetOption  = request.Project("a")

	// The whole-read families take every option of the one-page reads, and
	// their own: MaxItems and Parallel are no QueryOption or ScanOption.
	_ request.QueryAllOption = request.Descending()
	_ request.QueryAllOption = request.StartAfter("")
	_ request.QueryAllOption = request.MaxItems(10)
	_ request.ScanAllOption  = request.Segment(0, 2)
	_ request.ScanAllOption  = request.MaxItems(10)
	_ request.ScanAllOption  = request.Parallel(4, 2)

	// A change is an argument of Update and TxUpdate, and of nothing else.
	_ request.UpdateOption   = expr.Set("a", 1)
	_ request.TxUpdateOption = expr.Set("a", 1)
	_ request.TxUpdateOption = request.If(expr.Exists("pk"))
)

// A statement takes the read, paging and capacity options that apply to it.
var (
	_ request.StatementOption = request.Consistent()
	_ request.StatementOption = request.Limit(1)
	_ request.StatementOption = request.StartAfter("")
	_ request.StatementOption = request.MaxItems(10)
	_ request.StatementOption = request.ConsumedCapacity(types.ReturnConsumedCapacityTotal)
)
