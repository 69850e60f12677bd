package avtype_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/internal/avtest"
	"github.com/dynamogo/dynamo/internal/avtype"
)

func TestOf(t *testing.T) {
	for _, tt := range []struct {
		av   types.AttributeValue
		want string
	}{
		{&types.AttributeValueMemberS{}, "S"},
		{&types.AttributeValueMemberN{}, "N"},
		{&types.AttributeValueMemberB{}, "B"},
		{&types.AttributeValueMemberBOOL{}, "BOOL"},
		{&types.AttributeValueMemberNULL{}, "NULL"},
		{&types.AttributeValueMemberM{}, "M"},
		{&types.AttributeValueMemberL{}, "L"},
		{&types.AttributeValueMemberSS{}, "SS"},
		{&types.AttributeValueMemberNS{}, "NS"},
		{&types.AttributeValueMemberBS{}, "BS"},
		{&types.UnknownUnionMember{Tag: "X"}, ""},
		{nil, ""},
	} {
		if got := avtype.Of(tt.av); got != tt.want {
			t.Errorf("Of(%T) = %q, want %q", tt.av, got, tt.want)
		}
	}
}

func TestEqual(t *testing.T) {
	n, s := avtest.N, avtest.S
	for _, tt := range []struct {
		name string
		a, b types.AttributeValue
		want bool
	}{
		{"same string", s("a"), s("a"), true},
		{"other string", s("a"), s("b"), false},
		{"numbers by value", n("1"), n("1.00"), true},
		{"other number", n("1"), n("2"), false},
		{"string is not number", s("1"), n("1"), false},
		{"bad number equals itself", n("x"), n("x"), true},
		{"bad number", n("x"), n("y"), false},
		{"NULLs", &types.AttributeValueMemberNULL{Value: true}, &types.AttributeValueMemberNULL{Value: true}, true},
		{"BOOL", &types.AttributeValueMemberBOOL{Value: true}, &types.AttributeValueMemberBOOL{}, false},
		{"binary", &types.AttributeValueMemberB{Value: []byte{1}}, &types.AttributeValueMemberB{Value: []byte{1}}, true},
		{"string set any order", &types.AttributeValueMemberSS{Value: []string{"a", "b"}}, &types.AttributeValueMemberSS{Value: []string{"b", "a"}}, true},
		{"string set other", &types.AttributeValueMemberSS{Value: []string{"a", "b"}}, &types.AttributeValueMemberSS{Value: []string{"a", "c"}}, false},
		{"number set by value", &types.AttributeValueMemberNS{Value: []string{"1", "2.0"}}, &types.AttributeValueMemberNS{Value: []string{"2", "1.0"}}, true},
		{"binary set", &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2}}}, &types.AttributeValueMemberBS{Value: [][]byte{{2}, {1}}}, true},
		{"list in order", &types.AttributeValueMemberL{Value: []types.AttributeValue{n("1"), s("a")}}, &types.AttributeValueMemberL{Value: []types.AttributeValue{n("1.0"), s("a")}}, true},
		{"list order matters", &types.AttributeValueMemberL{Value: []types.AttributeValue{n("1"), s("a")}}, &types.AttributeValueMemberL{Value: []types.AttributeValue{s("a"), n("1")}}, false},
		{"map", &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k": n("5")}}, &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k": n("5.0")}}, true},
		{"map other key", &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k": n("5")}}, &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"j": n("5")}}, false},
		{"nil", nil, nil, false},
	} {
		if got := avtype.Equal(tt.a, tt.b); got != tt.want {
			t.Errorf("%s: Equal = %v, want %v", tt.name, got, tt.want)
		}
	}
}
