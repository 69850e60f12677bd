package codec_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/codec"
	"github.com/dynamogo/dynamo/codec/ddbjson"
)

type withRest struct {
	ID    string                          `dynamo:"id"`
	N     int                             `dynamo:"n"`
	In    *inner                          `dynamo:"in"`
	Extra map[string]types.AttributeValue `dynamo:",unknown"`
}

type inner struct {
	A    string                          `dynamo:"a"`
	More map[string]types.AttributeValue `dynamo:",unknown"`
}

// Every undeclared attribute, at the top and in a nested struct, goes into
// the catch-all field on load and comes back out unchanged on write.
func TestUnknownRoundTrip(t *testing.T) {
	src := `{"id":{"S":"x"},"n":{"N":"0"},"odd":{"NS":["1","12345678901234567890123456789012345678"]},` +
		`"bin":{"B":"AAEC"},"null":{"NULL":true},"deep":{"M":{"l":{"L":[{"SS":["a","b"]},{"BS":["AQ=="]}]}}},` +
		`"in":{"M":{"a":{"S":"y"},"zz":{"BOOL":false}}}}`
	item, err := ddbjson.UnmarshalItem([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var v withRest
	if err := codec.UnmarshalItem(item, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Extra) != 4 || v.Extra["id"] != nil || v.In == nil || len(v.In.More) != 1 {
		t.Fatalf("loaded %+v (inner %+v)", v, v.In)
	}
	back, err := codec.MarshalItem(v)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, item) {
		t.Fatalf("round trip\n got %s\nwant %s", jsItem(back), jsItem(item))
	}

	// An item with nothing undeclared leaves the field nil.
	var plain withRest
	if err := codec.UnmarshalItem(map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: "x"}}, &plain); err != nil || plain.Extra != nil {
		t.Fatalf("Extra = %v, %v", plain.Extra, err)
	}
}

// A catch-all entry that names a declared field is refused, naming both.
func TestUnknownClashIsAnError(t *testing.T) {
	v := withRest{ID: "x", Extra: map[string]types.AttributeValue{"n": &types.AttributeValueMemberN{Value: "5"}}}
	_, err := codec.MarshalItem(v)
	if err == nil || err.Error() != `dynamo: withRest.Extra: attribute "n" is a declared field; set the field instead` {
		t.Fatalf("err = %v", err)
	}
	v.Extra = map[string]types.AttributeValue{"gone": nil}
	if _, err := codec.MarshalItem(v); err == nil || !strings.Contains(err.Error(), `attribute "gone" has a nil value`) {
		t.Fatalf("err = %v", err)
	}
}

func TestUnknownDeclarationErrors(t *testing.T) {
	type wrongType struct {
		Rest map[string]any `dynamo:",unknown"`
	}
	type named struct {
		Rest map[string]types.AttributeValue `dynamo:"rest,unknown"`
	}
	type two struct {
		A map[string]types.AttributeValue `dynamo:",unknown"`
		B map[string]types.AttributeValue `dynamo:",unknown"`
	}
	for typ, want := range map[reflect.Type]string{
		reflect.TypeFor[wrongType](): `dynamo: wrongType.Rest: the unknown flag needs a map[string]types.AttributeValue field, not map[string]interface {}`,
		reflect.TypeFor[named]():     `dynamo: named.Rest: a catch-all field takes no attribute name or other flags: tag it dynamo:",unknown"`,
		reflect.TypeFor[two]():       `dynamo: two.B: a second catch-all field; A is one`,
	} {
		if _, err := codec.StructOf(typ); err == nil || err.Error() != want {
			t.Errorf("StructOf(%v) = %v\nwant %s", typ, err, want)
		}
	}
}
