package schema_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/schema"
)

type FuzzItem struct {
	Tenant string `dynamo:"tenant,pk"`
	ID     int64  `dynamo:"id,pk"`
	Kind   string `dynamo:"kind,sk"`
	Name   string `dynamo:"name,sk"`
	Blob   []byte `dynamo:"blob,sk"`
}

var fuzzSchema = schema.Must[FuzzItem]("app")

// Key generation and recovery are inverse: whatever PrimaryKey accepts, Load
// recovers from the keys alone.
func FuzzKeyRoundTrip(f *testing.F) {
	f.Add("acme", int64(1), "order", "o1", []byte{1, 2})
	f.Add("a#b", int64(-5), "", "x", []byte(nil))
	f.Add("ü", int64(1<<62), "k", "n", []byte("#"))
	f.Fuzz(func(t *testing.T, tenant string, id int64, kind, name string, blob []byte) {
		v := FuzzItem{Tenant: tenant, ID: id, Kind: kind, Name: name, Blob: blob}
		k, err := fuzzSchema.PrimaryKey(v)
		if err != nil {
			return
		}
		got, err := fuzzSchema.Load(k.Map())
		if err != nil {
			t.Fatalf("Load(%s): %v", item(k.Map()), err)
		}
		if got.Tenant != tenant || got.ID != id || got.Kind != kind || got.Name != name || string(got.Blob) != string(blob) {
			t.Fatalf("recovered %+v from %s, want %+v", got, item(k.Map()), v)
		}
	})
}

type FuzzStrings struct {
	A string `dynamo:"a,pk"`
	B string `dynamo:"b,pk"`
	C string `dynamo:"c,sk"`
	D string `dynamo:"d,sk"`
}

var fuzzStrings = schema.Must[FuzzStrings]("app", schema.PrefixSortKey())

// Load never panics on arbitrary keys, and for string fields recovery is
// exact: the keys of what it loads are the keys it was given.
func FuzzLoadKeys(f *testing.F) {
	f.Add("fuzz_strings#a#b", "c#x#d#y")
	f.Add("fuzz_strings#", "")
	f.Add("other#a#b", "c#x#d#y")
	f.Add("fuzz_strings#a#b#c", "c#x#e#y")
	f.Fuzz(func(t *testing.T, pk, sk string) {
		in := map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: pk},
			"sk": &types.AttributeValueMemberS{Value: sk},
		}
		got, err := fuzzStrings.Load(in)
		if err != nil {
			return
		}
		k, err := fuzzStrings.PrimaryKey(got)
		if err != nil {
			return // an empty part loads as an unset field
		}
		if item(k.Map()) != item(in) {
			t.Fatalf("Load(%s) = %+v, whose keys are %s", item(in), got, item(k.Map()))
		}
		if !fuzzStrings.Owns(in) {
			t.Fatalf("Owns(%s) = false for keys Load accepted", item(in))
		}
	})
}
