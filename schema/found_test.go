package schema_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/schema"
)

// wide64 takes the 64 bits of codec.Struct.DecodeFound, so that the key
// fields declared after it have none.
type wide64 struct {
	A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, A12, A13, A14, A15, A16, A17, A18, A19, A20, A21, A22, A23, A24, A25, A26, A27, A28, A29, A30, A31, A32, A33, A34, A35, A36, A37, A38, A39, A40, A41, A42, A43, A44, A45, A46, A47, A48, A49, A50, A51, A52, A53, A54, A55, A56, A57, A58, A59, A60, A61, A62, A63 int
}

type FarKeys struct {
	Tenant string `dynamo:"tenant,pk"` // has a bit, the sort fields none
	wide64
	Kind string `dynamo:"kind,sk,default=order"`
	ID   int    `dynamo:"id,sk"`
	Note string `dynamo:"note"`
}

type NearKeys struct {
	Tenant string `dynamo:"tenant,pk"`
	Kind   string `dynamo:"kind,sk,default=order"`
	ID     int    `dynamo:"id,sk"`
	Note   string `dynamo:"note"`
}

// Load skips key recovery only when the decoder saw every key field; key
// fields past the 64th, and attributes present with a nil value, are looked
// up in the item as before.
func TestKeyRecoveryPastTheFoundMask(t *testing.T) {
	far := schema.Must[FarKeys]("app")
	got := roundTrip(t, far, FarKeys{Tenant: "a", Kind: "line", ID: 7})
	if got.Tenant != "a" || got.Kind != "line" || got.ID != 7 {
		t.Fatalf("recovered %+v", got)
	}
	// The partition field's bit alone does not skip the sort fields.
	item := keysOnly(t, far, FarKeys{Tenant: "a", Kind: "line", ID: 7})
	item["tenant"] = &types.AttributeValueMemberS{Value: "b"}
	if v, err := far.Load(item); err != nil || v.Tenant != "b" || v.Kind != "line" || v.ID != 7 {
		t.Fatalf("Load = %+v, %v", v, err)
	}
	// Present key fields win over the generated keys, past the mask too.
	item["tenant"] = &types.AttributeValueMemberS{Value: "b"}
	item["id"] = &types.AttributeValueMemberN{Value: "8"}
	item["kind"] = &types.AttributeValueMemberS{Value: "other"}
	v, err := far.Load(item)
	if err != nil || v.Tenant != "b" || v.ID != 8 || v.Kind != "other" {
		t.Fatalf("Load = %+v, %v", v, err)
	}

	near := schema.Must[NearKeys]("app")
	for _, tt := range []struct {
		name string
		edit func(map[string]types.AttributeValue)
		want NearKeys
	}{
		{"every key field", func(m map[string]types.AttributeValue) {
			m["tenant"] = &types.AttributeValueMemberS{Value: "b"}
			m["kind"] = &types.AttributeValueMemberS{Value: "other"}
			m["id"] = &types.AttributeValueMemberN{Value: "8"}
		}, NearKeys{Tenant: "b", Kind: "other", ID: 8}},
		{"keys only", func(map[string]types.AttributeValue) {}, NearKeys{Tenant: "a", Kind: "line", ID: 7}},
		{"one sort field", func(m map[string]types.AttributeValue) {
			m["tenant"] = &types.AttributeValueMemberS{Value: "b"}
			m["id"] = &types.AttributeValueMemberN{Value: "8"}
		}, NearKeys{Tenant: "b", Kind: "line", ID: 8}},
		// A nil value counts as present, as it always did: the field keeps
		// its default rather than the key's part.
		{"nil sort field", func(m map[string]types.AttributeValue) {
			m["tenant"] = &types.AttributeValueMemberS{Value: "b"}
			m["kind"] = nil
			m["id"] = &types.AttributeValueMemberN{Value: "8"}
		}, NearKeys{Tenant: "b", Kind: "order", ID: 8}},
	} {
		item := keysOnly(t, near, NearKeys{Tenant: "a", Kind: "line", ID: 7})
		tt.edit(item)
		got, err := near.Load(item)
		if err != nil || got != tt.want {
			t.Errorf("%s: Load = %+v, %v; want %+v", tt.name, got, err, tt.want)
		}
	}
}
