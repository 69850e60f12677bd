package eval

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func sv(v string) types.AttributeValue     { return &types.AttributeValueMemberS{Value: v} }
func nv(v string) types.AttributeValue     { return &types.AttributeValueMemberN{Value: v} }
func bv(v ...byte) types.AttributeValue    { return &types.AttributeValueMemberB{Value: v} }
func boolv(v bool) types.AttributeValue    { return &types.AttributeValueMemberBOOL{Value: v} }
func nullv() types.AttributeValue          { return &types.AttributeValueMemberNULL{Value: true} }
func ssv(v ...string) types.AttributeValue { return &types.AttributeValueMemberSS{Value: v} }
func nsv(v ...string) types.AttributeValue { return &types.AttributeValueMemberNS{Value: v} }
func bsv(v ...[]byte) types.AttributeValue { return &types.AttributeValueMemberBS{Value: v} }
func lv(v ...types.AttributeValue) types.AttributeValue {
	return &types.AttributeValueMemberL{Value: v}
}
func mv(v map[string]types.AttributeValue) types.AttributeValue {
	return &types.AttributeValueMemberM{Value: v}
}

func str(s string) *string { return &s }

type vals = map[string]types.AttributeValue
type names = map[string]string

type AV = types.AttributeValue

var nullFalse = types.AttributeValueMemberNULL{Value: false}
