package avtype_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
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
