package request_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/codec/ddbjson"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// render serialises an SDK input struct as DynamoDB JSON: exported fields
// with their SDK names, zero values left out, AttributeValues in their wire
// form, map keys sorted. It is what the SDK would send, minus its own
// member-name quirks, and it is deterministic.
func render(t *testing.T, action string, in any) []byte {
	t.Helper()
	doc := map[string]any{"Action": action, "Input": tree(t, reflect.ValueOf(in))}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // keep "#sk > :sk" readable
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var avType = reflect.TypeFor[types.AttributeValue]()

func tree(t *testing.T, v reflect.Value) any {
	t.Helper()
	if v.Kind() == reflect.Interface && v.Type() == avType {
		if v.IsNil() {
			return nil
		}
		b, err := ddbjson.Marshal(v.Interface().(types.AttributeValue))
		if err != nil {
			t.Fatal(err)
		}
		return json.RawMessage(b)
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return tree(t, v.Elem())
	case reflect.Struct:
		m := map[string]any{}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			fv := v.Field(i)
			if fv.IsZero() {
				continue
			}
			m[f.Name] = tree(t, fv)
		}
		return m
	case reflect.Map:
		m := map[string]any{}
		for _, k := range v.MapKeys() {
			m[k.String()] = tree(t, v.MapIndex(k))
		}
		return m
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return v.Bytes()
		}
		l := make([]any, v.Len())
		for i := range l {
			l[i] = tree(t, v.Index(i))
		}
		return l
	case reflect.String:
		return v.String()
	case reflect.Bool:
		return v.Bool()
	case reflect.Int, reflect.Int32, reflect.Int64:
		return v.Int()
	}
	t.Fatalf("render: unexpected %s", v.Type())
	return nil
}

// golden compares got with testdata/<name>.json, rewriting it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".json")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./request -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func TestGoldenNamesAreFileSafe(t *testing.T) {
	for _, c := range cheatSheet() {
		if strings.ContainsAny(c.name, "/ ") {
			t.Errorf("golden name %q", c.name)
		}
	}
}
