package eval

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/internal/avtest"
)

var (
	sv, nv, bv, boolv, nullv = avtest.S, avtest.N, avtest.B, avtest.BOOL, avtest.NULL
	ssv, nsv, bsv, lv, mv    = avtest.SS, avtest.NS, avtest.BS, avtest.L, avtest.Map
)

func str(s string) *string { return &s }

type vals = map[string]types.AttributeValue
type names = map[string]string

type AV = types.AttributeValue

var nullFalse = types.AttributeValueMemberNULL{Value: false}

func deepCopy(item Item) Item {
	if item == nil {
		return nil
	}
	out := make(Item, len(item))
	for k, v := range item {
		out[k] = copyAV(v)
	}
	return out
}

func copyAV(av AV) AV {
	switch v := av.(type) {
	case *types.AttributeValueMemberM:
		return mv(deepCopy(v.Value))
	case *types.AttributeValueMemberL:
		l := make([]AV, len(v.Value))
		for i, e := range v.Value {
			l[i] = copyAV(e)
		}
		return lv(l...)
	case *types.AttributeValueMemberSS:
		return ssv(append([]string(nil), v.Value...)...)
	case *types.AttributeValueMemberNS:
		return nsv(append([]string(nil), v.Value...)...)
	case *types.AttributeValueMemberBS:
		return bsv(append([][]byte(nil), v.Value...)...)
	case *types.AttributeValueMemberB:
		return bv(append([]byte(nil), v.Value...)...)
	}
	return av
}

// dump renders an item readably for failure messages.
func dump(item Item) string {
	keys := make([]string, 0, len(item))
	for k := range item {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k + ": " + dumpAV(item[k]))
	}
	b.WriteByte('}')
	return b.String()
}

func dumpAV(av AV) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return strconv.Quote(v.Value)
	case *types.AttributeValueMemberN:
		return "N" + v.Value
	case *types.AttributeValueMemberB:
		return fmt.Sprintf("B%v", v.Value)
	case *types.AttributeValueMemberBOOL:
		return fmt.Sprint(v.Value)
	case *types.AttributeValueMemberNULL:
		return "NULL"
	case *types.AttributeValueMemberM:
		return "M" + dump(v.Value)
	case *types.AttributeValueMemberL:
		parts := make([]string, len(v.Value))
		for i, e := range v.Value {
			parts[i] = dumpAV(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *types.AttributeValueMemberSS:
		return fmt.Sprintf("SS%q", v.Value)
	case *types.AttributeValueMemberNS:
		return fmt.Sprintf("NS%v", v.Value)
	case *types.AttributeValueMemberBS:
		return fmt.Sprintf("BS%v", v.Value)
	}
	return fmt.Sprintf("%T", av)
}
