package difftest

import (
	"fmt"
	"testing"
)

func putN(n string) req { return put(fmt.Sprintf(`{"pk":{"S":"a"},"n":{"N":%q}}`, n)) }

// numberCase puts n and reads it back: the stored (canonical) form or the error.
func numberCase(name, n string) dcase {
	return dcase{name: "number/" + name, steps: steps(create(tH), putN(n), get(k1))}
}

// bigItem is an item whose attribute v is a string of n bytes.
func bigItem(n int) string { return fmt.Sprintf(`{"pk":{"S":"a"},"v":{"S":"%s"}}`, rep("x", n)) }

func nested(depth int) string {
	s := `{"S":"x"}`
	for i := 0; i < depth; i++ {
		s = `{"M":{"a":` + s + `}}`
	}
	return `{"pk":{"S":"a"},"d":` + s + `}`
}

func nestedList(depth int) string {
	s := `{"S":"x"}`
	for i := 0; i < depth; i++ {
		s = `{"L":[` + s + `]}`
	}
	return `{"pk":{"S":"a"},"d":` + s + `}`
}

var valueCases = []dcase{
	numberCase("trailing-zeros", "1.50"),
	numberCase("leading-zeros", "0100"),
	numberCase("negative-zero", "-0"),
	numberCase("exponent", "1E+2"),
	numberCase("small-exponent", "0.0001e3"),
	numberCase("fraction-exponent", "123.456E-2"),
	numberCase("min-magnitude", "1E-130"),
	numberCase("underflow", "1E-131"),
	numberCase("max-magnitude", "9.9999999999999999999999999999999999999E+125"),
	numberCase("overflow", "1E+126"),
	numberCase("38-digits", "12345678901234567890123456789012345678"),
	numberCase("39-digits", "123456789012345678901234567890123456789"),
	numberCase("39-digits-trailing-zeros", "123456789012345678901234567890123456780"),
	numberCase("not-a-number", "abc"),
	numberCase("empty", ""),
	numberCase("plus-sign", "+1"),
	numberCase("leading-dot", ".5"),
	numberCase("trailing-dot", "5."),
	numberCase("whitespace", " 1"),
	numberCase("hex", "0x10"),
	numberCase("nan", "NaN"),
	numberCase("infinity", "Infinity"),
	numberCase("double-exponent", "1e5e5"),
	numberCase("zero-exponent", "0E+200"),
	{name: "number/set-canonical", steps: steps(create(tH), put(`{"pk":{"S":"a"},"ns":{"NS":["1.10","02","3E0"]}}`), get(k1))},
	{name: "number/set-invalid", steps: steps(create(tH), put(`{"pk":{"S":"a"},"ns":{"NS":["1","x"]}}`))},
	{name: "number/key-canonical", steps: steps(create(tHR), put(`{"pk":{"S":"p"},"sk":{"N":"1.0"}}`), get(`{"pk":{"S":"p"},"sk":{"N":"1"}}`))},
	{name: "number/key-invalid", steps: steps(create(tHR), get(`{"pk":{"S":"p"},"sk":{"N":"1e200"}}`))},
	{name: "number/value-placeholder-invalid", steps: steps(create(tH), upd(k1, "SET n = :v", vals(`{":v":{"N":"1x"}}`)))},
	{name: "size/item-at-limit", steps: steps(create(tH), put(bigItem(400*1024-3)), r("GetItem", `{"TableName":"Tbl","Key":`+k1+`,"ProjectionExpression":"pk"}`))},
	{name: "size/item-over-limit", steps: steps(create(tH), put(bigItem(400*1024-2)))},
	{name: "size/update-over-limit", steps: steps(create(tH), put(bigItem(400*1024-10)), upd(k1, "SET w = :v", vals(`{":v":{"S":"0123456789"}}`)))},
	{name: "size/hash-key-2048", steps: steps(create(tH), put(`{"pk":{"S":"`+rep("k", 2048)+`"}}`), put(`{"pk":{"S":"`+rep("k", 2049)+`"}}`))},
	{name: "size/range-key-1024", steps: steps(createWith(ksHR+","+adHR+","+ppr), put(`{"pk":{"S":"p"},"sk":{"S":"`+rep("k", 1024)+`"}}`), put(`{"pk":{"S":"p"},"sk":{"S":"`+rep("k", 1025)+`"}}`))},
	{name: "size/nesting-32", steps: steps(create(tH), put(nested(31)), put(nested(32)))},
	{name: "size/nesting-list-33", steps: steps(create(tH), put(nestedList(33)))},
	{name: "size/attribute-name-long", steps: steps(create(tH), put(`{"pk":{"S":"a"},"`+rep("n", 65536)+`":{"S":"x"}}`))},
	{name: "empty/attribute-name", steps: steps(create(tH), put(`{"pk":{"S":"a"},"":{"S":"x"}}`))},
	{name: "empty/name-placeholder-value", steps: steps(create(tH), upd(k1, "SET #e = :one", `,"ExpressionAttributeNames":{"#e":""}`+vals(one)))},
	{name: "empty/string-in-list-map", steps: steps(create(tH), put(`{"pk":{"S":"a"},"l":{"L":[{"S":""}]},"m":{"M":{"e":{"S":""}}}}`), get(k1))},
	{name: "empty/binary-set", steps: steps(create(tH), put(`{"pk":{"S":"a"},"bs":{"BS":[]}}`))},
	{name: "empty/key-condition-empty-string", steps: steps(create(tHR), query(`"KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":""}}`))},
	{name: "empty/gsi-key-empty-string", steps: steps(create(tIdx), put(`{"pk":{"S":"p"},"sk":{"S":"a"},"gpk":{"S":""}}`))},
}

func TestDiffValues(t *testing.T) { run(t, valueCases) }
