package dynamo

import (
	"encoding/json"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/expr/parse"
)

// writeShape is what decides whether a request may be repeated, read from an
// SDK input (shapeOf) or from a raw request's JSON (rawShape).
type writeShape struct {
	action       string
	conditional  bool // ConditionExpression, or the legacy Expected
	legacy       bool // the legacy AttributeUpdates
	returnValues string
	update       string            // UpdateExpression
	names        map[string]string // ExpressionAttributeNames
	sets         map[string]bool   // value placeholders that hold a set (SS, NS, BS)
	token        string            // ClientRequestToken
	statements   []string          // PartiQL statements (ExecuteStatement, BatchExecuteStatement)
}

// repeatable reports whether sending a request again after it may have been
// applied leaves the same data and gives the same answer. Reads are. So are
// a Put or a Delete without a condition and without old values in the
// answer, a batch write (puts and deletes only), a transaction with a client
// request token (DynamoDB applies a token once: the SDK sets one per call),
// and an Update without a condition whose every action sets a constant (or
// if_not_exists of the same path), removes an attribute, or adds to or
// deletes from a set. PartiQL statements follow the same rule by kind: a
// SELECT is a read, a transaction of statements has its token, and an
// INSERT, UPDATE or DELETE is never repeated (a repeated INSERT fails as a
// duplicate, and the others carry their conditions in WHERE). Everything
// else — ADD of a number, arithmetic, list_append, list indexes, any
// condition (a repeat can fail the condition the first attempt satisfied),
// old values in the answer, the control plane — is not.
func repeatable(s writeShape) bool {
	switch s.action {
	case "Query", "Scan", "BatchGetItem", "TransactGetItems", "SearchVectors", "BatchWriteItem":
		return true
	case "TransactWriteItems", "ExecuteTransaction":
		return s.token != ""
	case "ExecuteStatement", "BatchExecuteStatement":
		for _, st := range s.statements {
			if !isSelect(st) {
				return false
			}
		}
		return len(s.statements) > 0
	case "PutItem", "DeleteItem":
		return !s.conditional && (s.returnValues == "" || s.returnValues == string(types.ReturnValueNone))
	case "UpdateItem":
		switch types.ReturnValue(s.returnValues) {
		case "", types.ReturnValueNone, types.ReturnValueAllNew, types.ReturnValueUpdatedNew:
		default:
			return false
		}
		return !s.conditional && !s.legacy && updateRepeatable(s)
	}
	for _, p := range []string{"Get", "Describe", "List"} {
		if strings.HasPrefix(s.action, p) {
			return true
		}
	}
	return false
}

// isSelect reports whether a PartiQL statement is a SELECT: its first word,
// in any case (the dialect has no comments).
func isSelect(statement string) bool {
	st := strings.TrimLeft(statement, " \t\r\n")
	return len(st) > len("SELECT") && strings.EqualFold(st[:len("SELECT")], "SELECT") &&
		strings.IndexByte(" \t\r\n*\"", st[len("SELECT")]) >= 0
}

func updateRepeatable(s writeShape) bool {
	if strings.TrimSpace(s.update) == "" {
		return true
	}
	u, err := parse.Update(s.update)
	if err != nil {
		return false
	}
	for _, a := range u.Set {
		if hasIndex(a.Path) {
			return false
		}
		switch v := a.Value.(type) {
		case *expr.Value:
		case *expr.Func:
			// if_not_exists(path, :v) on the action's own path sets it once.
			if v.Name != "if_not_exists" || len(v.Args) != 2 {
				return false
			}
			p, ok := v.Args[0].(expr.Path)
			if _, isValue := v.Args[1].(*expr.Value); !ok || !isValue || !s.samePath(p, a.Path) {
				return false
			}
		default:
			return false
		}
	}
	for _, p := range u.Remove {
		if hasIndex(p) {
			return false
		}
	}
	for _, a := range u.Add {
		if !s.sets[a.Value.Placeholder] {
			return false
		}
	}
	return true // DELETE removes set elements: repeating it changes nothing
}

func hasIndex(p expr.Path) bool {
	for _, e := range p {
		if e.IsIndex {
			return true
		}
	}
	return false
}

func (s writeShape) samePath(p, q expr.Path) bool {
	if len(p) != len(q) {
		return false
	}
	for i := range p {
		if p[i].IsIndex || q[i].IsIndex || s.name(p[i].Name) != s.name(q[i].Name) {
			return false
		}
	}
	return true
}

func (s writeShape) name(n string) string {
	if strings.HasPrefix(n, "#") {
		if real, ok := s.names[n]; ok {
			return real
		}
	}
	return n
}

// shapeOf reads the SDK input of action.
func shapeOf(action string, params any) writeShape {
	switch v := params.(type) {
	case *dynamodb.PutItemInput:
		return writeShape{action: "PutItem", conditional: v.ConditionExpression != nil || len(v.Expected) > 0,
			returnValues: string(v.ReturnValues)}
	case *dynamodb.DeleteItemInput:
		return writeShape{action: "DeleteItem", conditional: v.ConditionExpression != nil || len(v.Expected) > 0,
			returnValues: string(v.ReturnValues)}
	case *dynamodb.UpdateItemInput:
		s := writeShape{action: "UpdateItem", conditional: v.ConditionExpression != nil || len(v.Expected) > 0,
			legacy: len(v.AttributeUpdates) > 0, returnValues: string(v.ReturnValues), update: deref(v.UpdateExpression),
			names: v.ExpressionAttributeNames, sets: map[string]bool{}}
		for ph, av := range v.ExpressionAttributeValues {
			switch av.(type) {
			case *types.AttributeValueMemberSS, *types.AttributeValueMemberNS, *types.AttributeValueMemberBS:
				s.sets[ph] = true
			}
		}
		return s
	case *dynamodb.TransactWriteItemsInput:
		return writeShape{action: "TransactWriteItems", token: deref(v.ClientRequestToken)}
	case *dynamodb.BatchWriteItemInput:
		return writeShape{action: "BatchWriteItem"}
	case *dynamodb.ExecuteStatementInput:
		return writeShape{action: "ExecuteStatement", statements: []string{deref(v.Statement)}}
	case *dynamodb.BatchExecuteStatementInput:
		s := writeShape{action: "BatchExecuteStatement"}
		for _, st := range v.Statements {
			s.statements = append(s.statements, deref(st.Statement))
		}
		return s
	case *dynamodb.ExecuteTransactionInput:
		return writeShape{action: "ExecuteTransaction", token: deref(v.ClientRequestToken)}
	}
	return writeShape{action: action}
}

// rawShape reads a raw request's JSON payload.
func rawShape(action string, body []byte) writeShape {
	var p struct {
		ConditionExpression       *string
		Expected                  map[string]json.RawMessage
		AttributeUpdates          map[string]json.RawMessage
		ReturnValues              string
		UpdateExpression          string
		ExpressionAttributeNames  map[string]string
		ExpressionAttributeValues map[string]map[string]json.RawMessage
		ClientRequestToken        string
		Statement                 *string
		Statements                []struct{ Statement string }
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return writeShape{}
	}
	s := writeShape{action: action, conditional: p.ConditionExpression != nil || len(p.Expected) > 0,
		legacy: len(p.AttributeUpdates) > 0, returnValues: p.ReturnValues, update: p.UpdateExpression,
		names: p.ExpressionAttributeNames, sets: map[string]bool{}, token: p.ClientRequestToken}
	if p.Statement != nil {
		s.statements = []string{*p.Statement}
	}
	for _, st := range p.Statements {
		s.statements = append(s.statements, st.Statement)
	}
	for ph, av := range p.ExpressionAttributeValues {
		for _, t := range []string{"SS", "NS", "BS"} {
			if _, ok := av[t]; ok {
				s.sets[ph] = true
			}
		}
	}
	return s
}
