package cli

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/dynamogo/dynamo/codec/ddbjson"
)

// FuzzGenerate feeds arbitrary sampled items (DynamoDB JSON, one per line)
// to the generator: it must never panic, and whatever it emits must be
// valid, gofmt'd Go.
func FuzzGenerate(f *testing.F) {
	for _, s := range []string{
		`{"pk":{"S":"order#u1"},"sk":{"S":"2024-06-01T10:00:00Z#o1"},"user_id":{"S":"u1"},"placed_at":{"S":"2024-06-01T10:00:00Z"},"order_id":{"S":"o1"}}`,
		`{"pk":{"S":"user#u1"},"sk":{"S":"kind#profile"},"kind":{"S":"profile"},"Ω weird":{"N":"1e5"}}` + "\n" + `{"pk":{"S":"user#u1"},"sk":{"S":"x"},"a,b":{"L":[{"N":"1"}]}}`,
		`{"pk":{"S":"a"},"sk":{"S":"b"},"1":{"NS":["1","2.5"]},"_":{"BS":["AQ=="]},"type":{"M":{}}}`,
		`{"pk":{"S":"é#\u0000"},"sk":{"S":"#"},"x":{"NULL":true}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		var sample []item
		for _, line := range strings.Split(data, "\n") {
			it, err := ddbjson.UnmarshalItem([]byte(line))
			if err != nil {
				continue
			}
			if _, ok := it["pk"]; !ok {
				continue
			}
			if _, ok := it["sk"]; !ok {
				continue
			}
			sample = append(sample, it)
		}
		d := desc("app", "pk:S:HASH", "sk:S:RANGE")
		src, typs, err := generate(genConfig{Table: "app", Package: "p"}, d, sample)
		if err != nil {
			t.Fatalf("generate: %v", err)
		}
		if len(typs) == 0 {
			t.Fatal("no type generated")
		}
		if _, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0); err != nil {
			t.Fatalf("generated source does not parse: %v\n%s", err, src)
		}
		for _, ty := range typs {
			if !token.IsIdentifier(ty.Name) || !token.IsExported(ty.Name) {
				t.Fatalf("type name %q", ty.Name)
			}
		}
	})
}

func FuzzSplitSchemaRef(f *testing.F) {
	for _, s := range []string{"./models.Order", "example.com/m/pkg.Orders", ".Order", "x", "a.b.C", "./dir.v2/pkg.T"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, arg string) {
		pkg, name, err := splitSchemaRef(arg)
		if err != nil {
			return
		}
		if pkg == "" || !token.IsIdentifier(name) || !token.IsExported(name) {
			t.Fatalf("splitSchemaRef(%q) = %q, %q", arg, pkg, name)
		}
	})
}
