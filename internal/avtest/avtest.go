// Package avtest builds attribute values tersely, for tests: the one set of
// S, N, B, … helpers every package's tests use.
package avtest

import "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

// AV is an attribute value.
type AV = types.AttributeValue

// S is a string.
func S(v string) AV { return &types.AttributeValueMemberS{Value: v} }

// N is a number, in DynamoDB's text.
func N(v string) AV { return &types.AttributeValueMemberN{Value: v} }

// B is a binary value.
func B(v ...byte) AV { return &types.AttributeValueMemberB{Value: v} }

// BOOL is a boolean.
func BOOL(v bool) AV { return &types.AttributeValueMemberBOOL{Value: v} }

// NULL is the null value.
func NULL() AV { return &types.AttributeValueMemberNULL{Value: true} }

// L is a list; with no elements an empty one (as DynamoDB JSON "L": []
// decodes), never nil.
func L(v ...AV) AV {
	if v == nil {
		v = []AV{}
	}
	return &types.AttributeValueMemberL{Value: v}
}

// M is a map of alternating names and values: M("a", S("x"), "b", N("1")).
func M(kv ...any) AV {
	if len(kv)%2 != 0 {
		panic("avtest.M: odd number of arguments")
	}
	m := make(map[string]AV, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1].(AV)
	}
	return &types.AttributeValueMemberM{Value: m}
}

// Map is a map value holding m.
func Map(m map[string]AV) AV { return &types.AttributeValueMemberM{Value: m} }

// SS is a string set.
func SS(v ...string) AV { return &types.AttributeValueMemberSS{Value: v} }

// NS is a number set.
func NS(v ...string) AV { return &types.AttributeValueMemberNS{Value: v} }

// BS is a binary set.
func BS(v ...[]byte) AV { return &types.AttributeValueMemberBS{Value: v} }
