package local

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/codec/ddbjson"
	"github.com/dynamogo/dynamo/expr"
)

// The legacy (pre-expression) parameters: Expected and ConditionalOperator
// on PutItem, UpdateItem and DeleteItem, AttributeUpdates on UpdateItem,
// KeyConditions and QueryFilter on Query, ScanFilter on Scan, and
// AttributesToGet on GetItem, Query, Scan and BatchGetItem
// (LegacyConditionalParameters.html and its sub-pages).
//
// Each request's legacy parameters are translated into the expr AST, with
// generated placeholders ("#__l0", ":__l0") that no user expression can
// collide with, printed with expr.Print (whose output expr/parse reads back
// to the same tree), and handed to the handler as if the client had sent
// expressions: from there on local/eval evaluates them like any other, so
// both forms have exactly one semantics. The rules for mixing the two forms
// and the legacy-specific validation come first, with DynamoDB's messages.

type legacyCondition struct {
	Value              *ddbjson.Value
	Exists             *bool
	ComparisonOperator *string
	AttributeValueList []ddbjson.Value
}

type legacyUpdate struct {
	Value  *ddbjson.Value
	Action *string
}

// legacyBuilder accumulates the generated names and values of one request.
type legacyBuilder struct {
	prefix string
	names  map[string]string
	values map[string]types.AttributeValue
	placed map[string]string // attribute → its generated name: one map lookup keeps a request of n attributes linear
}

func newLegacyBuilder(prefix string, names map[string]string, values map[string]types.AttributeValue) *legacyBuilder {
	return &legacyBuilder{prefix: prefix, names: names, values: values}
}

func (b *legacyBuilder) path(attr string) expr.Path {
	if b.names == nil {
		b.names = map[string]string{}
	}
	if ph, ok := b.placed[attr]; ok {
		return expr.Path{{Name: ph}}
	}
	if b.placed == nil {
		b.placed = map[string]string{}
	}
	ph := "#__" + b.prefix + strconv.Itoa(len(b.names))
	b.names[ph] = attr
	b.placed[attr] = ph
	return expr.Path{{Name: ph}}
}

// grow makes room for n attribute names (values stay nil until one is
// placed: an empty ExpressionAttributeValues is an error).
func (b *legacyBuilder) grow(n int) {
	if b.names == nil {
		b.names = make(map[string]string, n)
	}
	if b.placed == nil {
		b.placed = make(map[string]string, n)
	}
}

func (b *legacyBuilder) value(av types.AttributeValue) *expr.Value {
	if b.values == nil {
		b.values = map[string]types.AttributeValue{}
	}
	ph := ":__" + b.prefix + strconv.Itoa(len(b.values))
	b.values[ph] = av
	return &expr.Value{Placeholder: ph, AV: av}
}

// mixing applies DynamoDB's rule on the two forms (the order of the names
// in the message is the service's parameter order for the action).
func mixing(exprs, nonExprs []string, set map[string]bool) error {
	var e, n []string
	for _, x := range exprs {
		if set[x] {
			e = append(e, x)
		}
	}
	for _, x := range nonExprs {
		if set[x] {
			n = append(n, x)
		}
	}
	if len(e) > 0 && len(n) > 0 {
		return validation("Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {" +
			strings.Join(n, ", ") + "} Expression parameters: {" + strings.Join(e, ", ") + "}")
	}
	return nil
}

// placeholdersWithoutExpressions rejects ExpressionAttributeNames/Values
// in a request that uses only legacy parameters (valueExprs are the
// action's expressions that take values).
func placeholdersWithoutExpressions(names map[string]string, values Item, valueExprs []string) error {
	if names != nil {
		return validation("ExpressionAttributeNames can only be specified when using expressions")
	}
	if values != nil {
		verb := "is"
		if len(valueExprs) > 1 {
			verb = "are"
		}
		return validation("ExpressionAttributeValues can only be specified when using expressions: " + strings.Join(valueExprs, " and ") + " " + verb + " null")
	}
	return nil
}

func decodeLegacy(raw json.RawMessage, v any) error {
	if !isSet(raw) {
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		var se *ddbjson.SyntaxError
		if errors.As(err, &se) {
			return jsonError(err)
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return serialization(typeErrorMessage(te))
		}
		return serialization("Start of structure or map found where not expected.")
	}
	return nil
}

// conditionalOperators is ConditionalOperator's enum in the order the service
// lists it (observed 2026-10-09, paritysuite/dynamodb-conformance,
// tests/tier3/validation-ordering/updateItem.test.ts).
var conditionalOperators = []string{"OR", "AND"}

// conditionalOperator decodes ConditionalOperator, which joins the n
// conditions of Expected, QueryFilter or ScanFilter: it needs two or more
// of them (the service's wording, observed; API_Scan.html calls it legacy).
func conditionalOperator(raw json.RawMessage, n int) (string, error) {
	if !isSet(raw) {
		return "AND", nil
	}
	var op string
	if err := json.Unmarshal(raw, &op); err != nil {
		return "", serialization("STRING_VALUE cannot be converted to String")
	}
	var cs constraints
	if cs.enum(&op, "conditionalOperator", conditionalOperators...); cs.err() != nil {
		return "", cs.err()
	}
	switch n {
	case 0:
		return "", validation(msgCondOpAlone)
	case 1:
		return "", validation(msgCondOpOne)
	}
	return op, nil
}

func avList(l []ddbjson.Value) []types.AttributeValue {
	out := make([]types.AttributeValue, len(l))
	for i, v := range l {
		out[i] = v.AttributeValue
	}
	return out
}

func checkLegacyValues(avs ...types.AttributeValue) error {
	for _, av := range avs {
		if av == nil {
			continue
		}
		it := Item{"v": av}
		if err := checkValues(it); err != nil {
			return err
		}
	}
	return nil
}

// argCounts is how many values each ComparisonOperator takes (-1: one or
// more).
var argCounts = map[string]int{
	"EQ": 1, "NE": 1, "LE": 1, "LT": 1, "GE": 1, "GT": 1, "CONTAINS": 1, "NOT_CONTAINS": 1,
	"BEGINS_WITH": 1, "NULL": 0, "NOT_NULL": 0, "IN": -1, "BETWEEN": 2,
}

// operandTypes are the value types each ComparisonOperator accepts; EQ and
// NE accept every type, lists, maps and booleans included (API_Condition.html).
var operandTypes = map[string]string{
	"LE": "S N B", "LT": "S N B", "GE": "S N B", "GT": "S N B",
	"CONTAINS": "S N B", "NOT_CONTAINS": "S N B", "BEGINS_WITH": "S B", "IN": "S N B", "BETWEEN": "S N B",
}

const enumComparison = "Member must satisfy enum value set: [IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]"

// compareCond builds attr <op> values as a condition, after checking the
// operator, the number and the types of its values.
func (b *legacyBuilder) compareCond(attr, op string, vals []types.AttributeValue, path string) (expr.Cond, error) {
	n, ok := argCounts[op]
	if !ok {
		var cs constraints
		cs.add(op, path, enumComparison)
		return nil, cs.err()
	}
	if (n >= 0 && len(vals) != n) || (n < 0 && len(vals) == 0) {
		return nil, invalidParam("Invalid number of argument(s) for the %s ComparisonOperator", op)
	}
	if err := checkLegacyValues(vals...); err != nil {
		return nil, err
	}
	for _, v := range vals {
		if typeOf(v) != typeOf(vals[0]) {
			return nil, invalidParam("AttributeValues inside AttributeValueList must be of same type")
		}
		if ts, ok := operandTypes[op]; ok && !strings.Contains(" "+ts+" ", " "+typeOf(v)+" ") {
			return nil, invalidParam("ComparisonOperator %s is not valid for %s AttributeValue type", op, typeOf(v))
		}
	}
	if op == "BETWEEN" && compareScalars(vals[0], vals[1]) > 0 {
		return nil, validation("The BETWEEN condition was provided a range where the lower bound is greater than the upper bound")
	}
	p := b.path(attr)
	switch op {
	case "NULL":
		return &expr.CondFunc{Name: "attribute_not_exists", Args: []expr.Operand{p}}, nil
	case "NOT_NULL":
		return &expr.CondFunc{Name: "attribute_exists", Args: []expr.Operand{p}}, nil
	case "CONTAINS":
		return &expr.CondFunc{Name: "contains", Args: []expr.Operand{p, b.value(vals[0])}}, nil
	case "NOT_CONTAINS":
		// A missing attribute does not "contain the absence": the legacy
		// operator is false there (LegacyConditionalParameters.Conditions).
		return &expr.And{Conds: []expr.Cond{
			&expr.CondFunc{Name: "attribute_exists", Args: []expr.Operand{p}},
			&expr.Not{Cond: &expr.CondFunc{Name: "contains", Args: []expr.Operand{p, b.value(vals[0])}}},
		}}, nil
	case "BEGINS_WITH":
		return &expr.CondFunc{Name: "begins_with", Args: []expr.Operand{p, b.value(vals[0])}}, nil
	case "IN":
		list := make([]expr.Operand, len(vals))
		for i, v := range vals {
			list[i] = b.value(v)
		}
		return &expr.In{X: p, List: list}, nil
	case "BETWEEN":
		return &expr.Between{X: p, Lo: b.value(vals[0]), Hi: b.value(vals[1])}, nil
	}
	cmp := map[string]expr.CompareOp{"EQ": expr.EQ, "NE": expr.NE, "LE": expr.LE, "LT": expr.LT, "GE": expr.GE, "GT": expr.GT}[op]
	return &expr.Compare{Op: cmp, L: p, R: b.value(vals[0])}, nil
}

// compareScalars orders two values of one scalar type (numbers by value).
func compareScalars(a, b types.AttributeValue) int {
	switch x := a.(type) {
	case *types.AttributeValueMemberN:
		y := b.(*types.AttributeValueMemberN)
		fa, _ := strconv.ParseFloat(x.Value, 64)
		fb, _ := strconv.ParseFloat(y.Value, 64)
		switch {
		case fa < fb:
			return -1
		case fa > fb:
			return 1
		}
		return 0
	case *types.AttributeValueMemberS:
		return strings.Compare(x.Value, b.(*types.AttributeValueMemberS).Value)
	case *types.AttributeValueMemberB:
		return strings.Compare(string(x.Value), string(b.(*types.AttributeValueMemberB).Value))
	}
	return 0
}

// join combines conditions with the ConditionalOperator.
func join(conds []expr.Cond, op string) expr.Cond {
	switch {
	case len(conds) == 0:
		return nil
	case len(conds) == 1:
		return conds[0]
	case op == "OR":
		return &expr.Or{Conds: conds}
	}
	return &expr.And{Conds: conds}
}

// expectedCond translates Expected (API_ExpectedAttributeValue.html).
func (b *legacyBuilder) expectedCond(raw, opRaw json.RawMessage) (expr.Cond, error) {
	var exp map[string]*legacyCondition
	if err := decodeLegacy(raw, &exp); err != nil {
		return nil, err
	}
	op, err := conditionalOperator(opRaw, len(exp))
	if err != nil {
		return nil, err
	}
	b.grow(len(exp))
	var conds []expr.Cond
	for _, attr := range sortedKeys(exp) {
		c := exp[attr]
		if c == nil {
			c = &legacyCondition{}
		}
		switch {
		case c.AttributeValueList != nil && c.Value != nil:
			return nil, invalidParam("Value and AttributeValueList cannot be used together for Attribute: %s", attr)
		case c.ComparisonOperator != nil:
			if c.Exists != nil {
				return nil, invalidParam("Exists and ComparisonOperator cannot be used together for Attribute: %s", attr)
			}
			cop := *c.ComparisonOperator
			vals := avList(c.AttributeValueList)
			if c.Value != nil {
				vals = []types.AttributeValue{c.Value.AttributeValue}
			}
			if cop != "NULL" && cop != "NOT_NULL" && c.AttributeValueList == nil && c.Value == nil {
				return nil, invalidParam("Value or AttributeValueList must be used with ComparisonOperator: %s for Attribute: %s", cop, attr)
			}
			cond, err := b.compareCond(attr, cop, vals, "expected."+attr+".member.comparisonOperator")
			if err != nil {
				return nil, err
			}
			conds = append(conds, cond)
		case c.AttributeValueList != nil:
			return nil, invalidParam("AttributeValueList can only be used with a ComparisonOperator for Attribute: %s", attr)
		default:
			exists := c.Exists == nil || *c.Exists
			switch {
			case exists && c.Value == nil:
				word := "null"
				if c.Exists != nil {
					word = "true"
				}
				return nil, invalidParam("Value must be provided when Exists is %s for Attribute: %s", word, attr)
			case !exists && c.Value != nil:
				return nil, invalidParam("Value cannot be used when Exists is false for Attribute: %s", attr)
			case !exists:
				conds = append(conds, &expr.CondFunc{Name: "attribute_not_exists", Args: []expr.Operand{b.path(attr)}})
			default:
				if err := checkLegacyValues(c.Value.AttributeValue); err != nil {
					return nil, err
				}
				conds = append(conds, &expr.Compare{Op: expr.EQ, L: b.path(attr), R: b.value(c.Value.AttributeValue)})
			}
		}
	}
	return join(conds, op), nil
}

// filterCond translates QueryFilter or ScanFilter (API_Condition.html).
func (b *legacyBuilder) filterCond(raw, opRaw json.RawMessage, member string) (expr.Cond, error) {
	var conds map[string]*legacyCondition
	if err := decodeLegacy(raw, &conds); err != nil {
		return nil, err
	}
	op, err := conditionalOperator(opRaw, len(conds))
	if err != nil {
		return nil, err
	}
	b.grow(len(conds))
	var out []expr.Cond
	for _, attr := range sortedKeys(conds) {
		c := conds[attr]
		if c == nil || c.ComparisonOperator == nil {
			var cs constraints
			cs.add(nil, member+"."+attr+".member.comparisonOperator", ruleNotNull)
			return nil, cs.err()
		}
		cond, err := b.compareCond(attr, *c.ComparisonOperator, avList(c.AttributeValueList), member+"."+attr+".member.comparisonOperator")
		if err != nil {
			return nil, err
		}
		out = append(out, cond)
	}
	return join(out, op), nil
}

// projection translates AttributesToGet.
func (b *legacyBuilder) projection(raw json.RawMessage) (*string, error) {
	var attrs []string
	if err := decodeLegacy(raw, &attrs); err != nil {
		return nil, err
	}
	if len(attrs) == 0 {
		var cs constraints
		cs.add("[]", "attributesToGet", "Member must have length greater than or equal to 1")
		return nil, cs.err()
	}
	b.grow(len(attrs))
	seen := make(map[string]bool, len(attrs))
	paths := make([]expr.Path, 0, len(attrs))
	for _, a := range attrs {
		if seen[a] {
			return nil, invalidParam("Duplicate value in attribute name: %s", a)
		}
		seen[a] = true
		paths = append(paths, b.path(a))
	}
	s := expr.PrintProjection(paths)
	return &s, nil
}

func printed(c expr.Cond) *string {
	if c == nil {
		return nil
	}
	s := expr.Print(c)
	return &s
}

func present(pairs ...any) map[string]bool {
	set := map[string]bool{}
	for i := 0; i < len(pairs); i += 2 {
		name := pairs[i].(string)
		switch v := pairs[i+1].(type) {
		case *string:
			set[name] = v != nil
		case json.RawMessage:
			set[name] = isSet(v)
		}
	}
	return set
}

// --- per action ---

// translateLegacy handles Expected and ConditionalOperator of PutItem and
// DeleteItem.
func (o *writeOptions) translateLegacy() error {
	if !isSet(o.Expected) && !isSet(o.ConditionalOperator) {
		return nil // no legacy parameter: nothing to mix or translate
	}
	set := present("ConditionExpression", o.ConditionExpression, "Expected", o.Expected, "ConditionalOperator", o.ConditionalOperator)
	if err := mixing([]string{"ConditionExpression"}, []string{"Expected", "ConditionalOperator"}, set); err != nil {
		return err
	}
	if !set["Expected"] && !set["ConditionalOperator"] {
		return nil
	}
	if err := placeholdersWithoutExpressions(o.ExpressionAttributeNames, Item(o.ExpressionAttributeValues), []string{"ConditionExpression"}); err != nil {
		return err
	}
	b := newLegacyBuilder("l", nil, nil)
	cond, err := b.expectedCond(o.Expected, o.ConditionalOperator)
	if err != nil {
		return err
	}
	o.ConditionExpression = printed(cond)
	o.ExpressionAttributeNames, o.ExpressionAttributeValues = b.names, b.values
	o.Expected, o.ConditionalOperator = nil, nil
	return nil
}

// translateLegacy handles Expected, ConditionalOperator and
// AttributeUpdates of UpdateItem (API_AttributeValueUpdate.html).
func (in *updateItemInput) translateLegacy() error {
	if !isSet(in.AttributeUpdates) && !isSet(in.Expected) && !isSet(in.ConditionalOperator) {
		return nil // no legacy parameter: nothing to mix or translate
	}
	set := present("UpdateExpression", in.UpdateExpression, "ConditionExpression", in.ConditionExpression,
		"AttributeUpdates", in.AttributeUpdates, "Expected", in.Expected, "ConditionalOperator", in.ConditionalOperator)
	if err := mixing([]string{"UpdateExpression", "ConditionExpression"}, []string{"AttributeUpdates", "Expected", "ConditionalOperator"}, set); err != nil {
		return err
	}
	if !set["AttributeUpdates"] && !set["Expected"] && !set["ConditionalOperator"] {
		return nil
	}
	if err := placeholdersWithoutExpressions(in.ExpressionAttributeNames, Item(in.ExpressionAttributeValues), []string{"UpdateExpression", "ConditionExpression"}); err != nil {
		return err
	}
	b := newLegacyBuilder("l", nil, nil)
	if set["Expected"] || set["ConditionalOperator"] {
		cond, err := b.expectedCond(in.Expected, in.ConditionalOperator)
		if err != nil {
			return err
		}
		in.ConditionExpression = printed(cond)
	}
	if set["AttributeUpdates"] {
		var ups map[string]*legacyUpdate
		if err := decodeLegacy(in.AttributeUpdates, &ups); err != nil {
			return err
		}
		b.grow(len(ups))
		u := &expr.UpdateAST{}
		for _, attr := range sortedKeys(ups) {
			up := ups[attr]
			if up == nil {
				up = &legacyUpdate{}
			}
			action := "PUT"
			if up.Action != nil {
				action = *up.Action
			}
			var av types.AttributeValue
			if up.Value != nil {
				av = up.Value.AttributeValue
				if err := checkLegacyValues(av); err != nil {
					return err
				}
			}
			switch action {
			case "PUT":
				if av == nil {
					return invalidParam("Only DELETE action is allowed when no attribute value is specified")
				}
				u.Set = append(u.Set, expr.SetAction{Path: b.path(attr), Value: b.value(av)})
			case "DELETE":
				switch av.(type) {
				case nil:
					u.Remove = append(u.Remove, b.path(attr))
				case *types.AttributeValueMemberSS, *types.AttributeValueMemberNS, *types.AttributeValueMemberBS:
					u.Delete = append(u.Delete, expr.PathValue{Path: b.path(attr), Value: b.value(av)})
				default:
					return invalidParam("DELETE action with value is not supported for the type %s", typeOf(av))
				}
			case "ADD":
				switch av.(type) {
				case nil:
					return invalidParam("Only DELETE action is allowed when no attribute value is specified")
				case *types.AttributeValueMemberN, *types.AttributeValueMemberSS, *types.AttributeValueMemberNS, *types.AttributeValueMemberBS:
					u.Add = append(u.Add, expr.PathValue{Path: b.path(attr), Value: b.value(av)})
				case *types.AttributeValueMemberL:
					// ADD to a list appends; to a missing attribute it sets the list.
					p := b.path(attr)
					empty := b.value(&types.AttributeValueMemberL{Value: []types.AttributeValue{}})
					u.Set = append(u.Set, expr.SetAction{Path: p, Value: &expr.Func{Name: "list_append", Args: []expr.Operand{
						&expr.Func{Name: "if_not_exists", Args: []expr.Operand{p, empty}}, b.value(av)}}})
				default:
					return invalidParam("ADD action is not supported for the type %s", typeOf(av))
				}
			default:
				var cs constraints
				cs.add(action, "attributeUpdates."+attr+".member.action", "Member must satisfy enum value set: [ADD, PUT, DELETE]")
				return cs.err()
			}
		}
		if len(u.Set)+len(u.Remove)+len(u.Add)+len(u.Delete) > 0 {
			s := expr.PrintUpdate(u)
			in.UpdateExpression = &s
		}
	}
	in.ExpressionAttributeNames, in.ExpressionAttributeValues = b.names, b.values
	in.Expected, in.ConditionalOperator, in.AttributeUpdates = nil, nil, nil
	return nil
}

// translateLegacy handles AttributesToGet of GetItem.
func (in *getItemInput) translateLegacy() error {
	if !isSet(in.AttributesToGet) {
		return nil // no legacy parameter: nothing to mix or translate
	}
	set := present("ProjectionExpression", in.ProjectionExpression, "AttributesToGet", in.AttributesToGet)
	if err := mixing([]string{"ProjectionExpression"}, []string{"AttributesToGet"}, set); err != nil {
		return err
	}
	if !set["AttributesToGet"] {
		return nil
	}
	if in.ExpressionAttributeNames != nil {
		return validation("ExpressionAttributeNames can only be specified when using expressions")
	}
	b := newLegacyBuilder("l", nil, nil)
	p, err := b.projection(in.AttributesToGet)
	if err != nil {
		return err
	}
	in.ProjectionExpression, in.ExpressionAttributeNames, in.AttributesToGet = p, b.names, nil
	return nil
}

// translateLegacy handles AttributesToGet of one table of BatchGetItem.
func (ka *keysAndAttributes) translateLegacy() error {
	g := getItemInput{ProjectionExpression: ka.ProjectionExpression, ExpressionAttributeNames: ka.ExpressionAttributeNames, AttributesToGet: ka.AttributesToGet}
	if err := g.translateLegacy(); err != nil {
		return err
	}
	ka.ProjectionExpression, ka.ExpressionAttributeNames, ka.AttributesToGet = g.ProjectionExpression, g.ExpressionAttributeNames, nil
	return nil
}

// selectWithAttributesToGet applies the Select rules to AttributesToGet,
// as checkSelect does to ProjectionExpression.
func (in *readInput) selectWithAttributesToGet() error {
	switch sel := str(in.Select); sel {
	case "", "SPECIFIC_ATTRIBUTES":
		return nil
	case "COUNT":
		return validation("Cannot specify the AttributesToGet when choosing to get only the Count")
	default:
		return validationf("Cannot specify the AttributesToGet when choosing to get %s", sel)
	}
}

// translateRead handles the legacy parameters Query and Scan share; cond
// is the translated QueryFilter or ScanFilter.
func (in *readInput) translateRead(b *legacyBuilder, filterMember string, filter json.RawMessage) error {
	if isSet(in.AttributesToGet) {
		if err := in.selectWithAttributesToGet(); err != nil {
			return err
		}
		p, err := b.projection(in.AttributesToGet)
		if err != nil {
			return err
		}
		in.ProjectionExpression = p
	}
	if isSet(filter) || isSet(in.ConditionalOperator) {
		cond, err := b.filterCond(filter, in.ConditionalOperator, filterMember)
		if err != nil {
			return err
		}
		in.FilterExpression = printed(cond)
	}
	in.AttributesToGet, in.ConditionalOperator = nil, nil
	return nil
}

// translateLegacy handles KeyConditions, QueryFilter, ConditionalOperator
// and AttributesToGet of Query. KeyConditions may go with
// FilterExpression and ProjectionExpression (the service allows that one
// mix); the generated placeholders then join the request's own.
func (in *queryInput) translateLegacy() error {
	if !isSet(in.AttributesToGet) && !isSet(in.QueryFilter) && !isSet(in.ConditionalOperator) && !isSet(in.KeyConditions) {
		return nil // no legacy parameter: nothing to mix or translate
	}
	set := present("ProjectionExpression", in.ProjectionExpression, "FilterExpression", in.FilterExpression,
		"KeyConditionExpression", in.KeyConditionExpression, "AttributesToGet", in.AttributesToGet,
		"QueryFilter", in.QueryFilter, "ConditionalOperator", in.ConditionalOperator, "KeyConditions", in.KeyConditions)
	exprs := []string{"ProjectionExpression", "FilterExpression", "KeyConditionExpression"}
	nonExprs := []string{"AttributesToGet", "QueryFilter", "ConditionalOperator", "KeyConditions"}
	if set["KeyConditions"] && !set["KeyConditionExpression"] {
		nonExprs = nonExprs[:3]
	}
	if err := mixing(exprs, nonExprs, set); err != nil {
		return err
	}
	legacyOnly := !set["ProjectionExpression"] && !set["FilterExpression"] && !set["KeyConditionExpression"]
	if !set["AttributesToGet"] && !set["QueryFilter"] && !set["ConditionalOperator"] && !set["KeyConditions"] {
		return nil
	}
	if legacyOnly {
		if err := placeholdersWithoutExpressions(in.ExpressionAttributeNames, Item(in.ExpressionAttributeValues), []string{"FilterExpression", "KeyConditionExpression"}); err != nil {
			return err
		}
	}
	b := newLegacyBuilder("l", in.ExpressionAttributeNames, in.ExpressionAttributeValues)
	if set["KeyConditions"] {
		var kcs map[string]*legacyCondition
		if err := decodeLegacy(in.KeyConditions, &kcs); err != nil {
			return err
		}
		var conds []expr.Cond
		for _, attr := range sortedKeys(kcs) {
			c := kcs[attr]
			if c == nil || c.ComparisonOperator == nil {
				var cs constraints
				cs.add(nil, "keyConditions."+attr+".member.comparisonOperator", ruleNotNull)
				return cs.err()
			}
			switch *c.ComparisonOperator {
			case "EQ", "LE", "LT", "GE", "GT", "BEGINS_WITH", "BETWEEN":
			default:
				if _, known := argCounts[*c.ComparisonOperator]; known {
					return validation("Attempted conditional constraint is not an indexable operation")
				}
			}
			cond, err := b.compareCond(attr, *c.ComparisonOperator, avList(c.AttributeValueList), "keyConditions."+attr+".member.comparisonOperator")
			if err != nil {
				return err
			}
			conds = append(conds, cond)
		}
		in.KeyConditionExpression = printed(join(conds, "AND"))
		in.KeyConditions = nil
	}
	if err := in.translateRead(b, "queryFilter", in.QueryFilter); err != nil {
		return err
	}
	// QueryFilter stays set (nothing else reads it) so filterKeysError
	// can word its error as the legacy parameter.
	in.ExpressionAttributeNames, in.ExpressionAttributeValues = b.names, b.values
	return nil
}

// filterKeysError words the "filter on a key attribute" error for
// QueryFilter when the filter came from it.
func (in *queryInput) filterKeysError(err error) error {
	if e, ok := err.(*Error); ok && isSet(in.QueryFilter) {
		if rest, ok := strings.CutPrefix(e.Message, "Filter Expression can only contain"); ok {
			return validation("QueryFilter can only contain" + rest)
		}
	}
	return err
}

// translateLegacy handles ScanFilter, ConditionalOperator and
// AttributesToGet of Scan.
func (in *scanInput) translateLegacy() error {
	if !isSet(in.AttributesToGet) && !isSet(in.ScanFilter) && !isSet(in.ConditionalOperator) {
		return nil // no legacy parameter: nothing to mix or translate
	}
	set := present("ProjectionExpression", in.ProjectionExpression, "FilterExpression", in.FilterExpression,
		"AttributesToGet", in.AttributesToGet, "ScanFilter", in.ScanFilter, "ConditionalOperator", in.ConditionalOperator)
	if err := mixing([]string{"ProjectionExpression", "FilterExpression"}, []string{"AttributesToGet", "ScanFilter", "ConditionalOperator"}, set); err != nil {
		return err
	}
	if !set["AttributesToGet"] && !set["ScanFilter"] && !set["ConditionalOperator"] {
		return nil
	}
	if err := placeholdersWithoutExpressions(in.ExpressionAttributeNames, Item(in.ExpressionAttributeValues), []string{"FilterExpression"}); err != nil {
		return err
	}
	b := newLegacyBuilder("l", nil, nil)
	if err := in.translateRead(b, "scanFilter", in.ScanFilter); err != nil {
		return err
	}
	in.ScanFilter = nil
	in.ExpressionAttributeNames, in.ExpressionAttributeValues = b.names, b.values
	return nil
}
