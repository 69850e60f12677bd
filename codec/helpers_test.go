package codec_test

import (
	"encoding/base64"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// js renders an attribute value as DynamoDB JSON with sorted map keys, so
// tests can compare exact wire forms.
func js(av types.AttributeValue) string {
	var b strings.Builder
	writeJS(&b, av)
	return b.String()
}

func jsItem(m map[string]types.AttributeValue) string {
	return js(&types.AttributeValueMemberM{Value: m})[len(`{"M":`) : len(js(&types.AttributeValueMemberM{Value: m}))-1]
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ",") + "]"
}

func writeJS(b *strings.Builder, av types.AttributeValue) {
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		b.WriteString(`{"S":` + strconv.Quote(x.Value) + `}`)
	case *types.AttributeValueMemberN:
		b.WriteString(`{"N":` + strconv.Quote(x.Value) + `}`)
	case *types.AttributeValueMemberB:
		b.WriteString(`{"B":"` + base64.StdEncoding.EncodeToString(x.Value) + `"}`)
	case *types.AttributeValueMemberBOOL:
		b.WriteString(`{"BOOL":` + strconv.FormatBool(x.Value) + `}`)
	case *types.AttributeValueMemberNULL:
		b.WriteString(`{"NULL":` + strconv.FormatBool(x.Value) + `}`)
	case *types.AttributeValueMemberSS:
		b.WriteString(`{"SS":` + quoteAll(x.Value) + `}`)
	case *types.AttributeValueMemberNS:
		b.WriteString(`{"NS":` + quoteAll(x.Value) + `}`)
	case *types.AttributeValueMemberBS:
		var q []string
		for _, e := range x.Value {
			q = append(q, base64.StdEncoding.EncodeToString(e))
		}
		b.WriteString(`{"BS":` + quoteAll(q) + `}`)
	case *types.AttributeValueMemberL:
		b.WriteString(`{"L":[`)
		for i, e := range x.Value {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJS(b, e)
		}
		b.WriteString(`]}`)
	case *types.AttributeValueMemberM:
		keys := make([]string, 0, len(x.Value))
		for k := range x.Value {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteString(`{"M":{`)
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Quote(k) + ":")
			writeJS(b, x.Value[k])
		}
		b.WriteString(`}}`)
	case nil:
		b.WriteString("nil")
	default:
		b.WriteString("?")
	}
}
