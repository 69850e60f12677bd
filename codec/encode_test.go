package codec_test

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/codec"
	"github.com/shopspring/decimal"
)

var errBadText = errors.New("bad text id")

type upper string

type textID struct{ a, b byte }

func (t textID) MarshalText() ([]byte, error) { return []byte{t.a, '-', t.b}, nil }
func (t *textID) UnmarshalText(b []byte) error {
	if len(b) != 3 || b[1] != '-' {
		return errBadText
	}
	t.a, t.b = b[0], b[2]
	return nil
}

type mine struct{ v string }

func (m mine) MarshalDynamo() (types.AttributeValue, error) {
	return &types.AttributeValueMemberS{Value: "mine:" + m.v}, nil
}

type awsStyle struct{ n int }

func (a *awsStyle) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	return &types.AttributeValueMemberN{Value: "42"}, nil
}

func TestMarshalWireForms(t *testing.T) {
	s := "p"
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"string", "héllo", `{"S":"héllo"}`},
		{"empty string", "", `{"S":""}`},
		{"named string", upper("X"), `{"S":"X"}`},
		{"int", 42, `{"N":"42"}`},
		{"negative int8", int8(-128), `{"N":"-128"}`},
		{"max uint64", uint64(math.MaxUint64), `{"N":"18446744073709551615"}`},
		{"float", 0.1, `{"N":"0.1"}`},
		{"float32 shortest", float32(0.1), `{"N":"0.1"}`},
		{"float integral", 3.0, `{"N":"3"}`},
		{"negative zero", math.Copysign(0, -1), `{"N":"0"}`},
		{"float large", 1e21, `{"N":"1E+21"}`},
		{"float below 1e21", 123456789012345680000.0, `{"N":"123456789012345680000"}`},
		{"float small", 1e-7, `{"N":"0.0000001"}`},
		{"float smaller", 1.5e-8, `{"N":"1.5E-8"}`},
		{"float max range", 9.99e125, `{"N":"9.99E+125"}`},
		{"float min range", -1e-130, `{"N":"-1E-130"}`},
		{"Number", codec.Number("1.50"), `{"N":"1.50"}`},
		{"decimal", decimal.RequireFromString("-0.000123"), `{"N":"-0.000123"}`},
		{"bool", true, `{"BOOL":true}`},
		{"bytes", []byte("hi"), `{"B":"aGk="}`},
		{"byte array", [2]byte{1, 2}, `{"B":"AQI="}`},
		{"nil", nil, `{"NULL":true}`},
		{"nil pointer", (*string)(nil), `{"NULL":true}`},
		{"pointer", &s, `{"S":"p"}`},
		{"time", time.Date(2024, 1, 15, 10, 0, 0, 0, time.UTC), `{"S":"2024-01-15T10:00:00.000000000Z"}`},
		{"time non-UTC", time.Date(2024, 1, 15, 12, 0, 0, 5, time.FixedZone("CEST", 7200)), `{"S":"2024-01-15T10:00:00.000000005Z"}`},
		{"date", codec.Date{Year: 2024, Month: 2, Day: 29}, `{"S":"2024-02-29"}`},
		{"time of day", codec.TimeOfDay{Hour: 9, Minute: 5, Second: 7}, `{"S":"09:05:07"}`},
		{"date time", codec.DateTime{Date: codec.Date{Year: 2024, Month: 1, Day: 2}, Time: codec.TimeOfDay{Hour: 3}}, `{"S":"2024-01-02T03:00:00"}`},
		{"zero date is absent", codec.Date{}, `{"NULL":true}`},
		{"string set sorted", codec.NewSet("b", "c", "a"), `{"SS":["a","b","c"]}`},
		{"int set numeric order", codec.NewSet(10, -1, 2), `{"NS":["-1","2","10"]}`},
		{"float set", codec.NewSet(2.5, 0.5), `{"NS":["0.5","2.5"]}`},
		{"Number set", codec.NewSet[codec.Number]("10", "9.5"), `{"NS":["9.5","10"]}`},
		{"empty set is absent", codec.NewSet[string](), `{"NULL":true}`},
		{"binary set sorted", codec.BinarySet{[]byte("b"), []byte("a")}, `{"BS":["YQ==","Yg=="]}`},
		{"list", []string{"a", "b"}, `{"L":[{"S":"a"},{"S":"b"}]}`},
		{"empty list", []int{}, `{"L":[]}`},
		{"nil list", []int(nil), `{"NULL":true}`},
		{"list of pointers", []*string{nil, &s}, `{"L":[{"NULL":true},{"S":"p"}]}`},
		{"array", [2]int{1, 2}, `{"L":[{"N":"1"},{"N":"2"}]}`},
		{"map", map[string]int{"b": 2, "a": 1}, `{"M":{"a":{"N":"1"},"b":{"N":"2"}}}`},
		{"int keys", map[int]bool{7: true}, `{"M":{"7":{"BOOL":true}}}`},
		{"text keys", map[textID]int{{'a', 'b'}: 1}, `{"M":{"a-b":{"N":"1"}}}`},
		{"map looking like an attribute value is data", map[string]any{"S": "x"}, `{"M":{"S":{"S":"x"}}}`},
		{"any list", []any{"s", 1, 2.5, true, nil, []byte{0}, map[string]any{"k": int64(-3)}}, `{"L":[{"S":"s"},{"N":"1"},{"N":"2.5"},{"BOOL":true},{"NULL":true},{"B":"AA=="},{"M":{"k":{"N":"-3"}}}]}`},
		{"raw", codec.Raw{Value: &types.AttributeValueMemberSS{Value: []string{"x"}}}, `{"SS":["x"]}`},
		{"raw in any list", []any{codec.Raw{Value: &types.AttributeValueMemberN{Value: "1"}}}, `{"L":[{"N":"1"}]}`},
		{"attribute value in any", []any{&types.AttributeValueMemberBOOL{Value: false}}, `{"L":[{"BOOL":false}]}`},
		{"text marshaler", textID{'x', 'y'}, `{"S":"x-y"}`},
		{"Marshaler", mine{"v"}, `{"S":"mine:v"}`},
		{"aws Marshaler on pointer receiver", awsStyle{}, `{"N":"42"}`},
		{"struct", struct {
			A string `dynamo:"a"`
			B *int   `dynamo:"b"`
		}{A: "x"}, `{"M":{"a":{"S":"x"}}}`},
	}
	for _, tt := range tests {
		av, err := codec.Marshal(tt.v)
		if err != nil {
			t.Errorf("%s: Marshal(%#v): %v", tt.name, tt.v, err)
			continue
		}
		if got := js(av); got != tt.want {
			t.Errorf("%s: Marshal(%#v) = %s, want %s", tt.name, tt.v, got, tt.want)
		}
	}
}

type cents int64

func (c cents) MarshalText() ([]byte, error) {
	return []byte(strconv.FormatInt(int64(c)/100, 10) + "." + fmt.Sprintf("%02d", int64(c)%100)), nil
}

func (c *cents) UnmarshalText(b []byte) error {
	d, err := decimal.NewFromString(string(b))
	if err != nil {
		return err
	}
	*c = cents(d.Shift(2).IntPart())
	return nil
}

type tagged struct {
	S     time.Time         `dynamo:"s,precision=s"`
	MS    time.Time         `dynamo:"ms,precision=ms"`
	US    time.Time         `dynamo:"us,precision=us"`
	TTL   time.Time         `dynamo:"ttl,unixtime"`
	Clock codec.TimeOfDay   `dynamo:"clock,precision=ms"`
	DT    codec.DateTime    `dynamo:"dt,precision=us"`
	Bin   string            `dynamo:"bin,binary"`
	BinS  codec.Set[string] `dynamo:"bins,binary"`
	Num   string            `dynamo:"num,number"`
	Price cents             `dynamo:"price,number"`
	SS    []string          `dynamo:"ss,set"`
	NS    []int             `dynamo:"ns,set"`
	BS    [][]byte          `dynamo:"bs,set"`
	Empty string            `dynamo:"empty,omitempty"`
	Zero  int               `dynamo:"zero,omitempty"`
	Keep  int               `dynamo:"keep"`
	Def   *int              `dynamo:"def,default=5"`
	DefT  *time.Time        `dynamo:"deft,precision=s,default=2024-01-01T02:00:00+02:00"`
	DefZ  *int              `dynamo:"defz,default=5"`
	DefV  int               `dynamo:"defv,default=5"`
	DefB  bool              `dynamo:"defb,default=true"`
	DefS  string            `dynamo:"defs,default=x"`
}

func TestTagWireForms(t *testing.T) {
	at := time.Date(2024, 3, 4, 5, 6, 7, 0, time.UTC)
	v := tagged{S: at, MS: at.Add(8 * time.Millisecond), US: at.Add(9 * time.Microsecond), TTL: at,
		Clock: codec.TimeOfDay{Hour: 1, Minute: 2, Second: 3, Nanosecond: 4e6},
		DT:    codec.DateTime{Date: codec.Date{Year: 2020, Month: 12, Day: 31}, Time: codec.TimeOfDay{Hour: 23, Nanosecond: 5000}},
		Bin:   "hi", BinS: codec.NewSet("b", "a"), Num: "12.50", Price: 1999,
		SS: []string{"z", "y"}, NS: []int{3, 1}, BS: [][]byte{{2}, {1}}, DefZ: new(int)}
	item, err := codec.MarshalItem(v)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"bin":{"B":"aGk="},"bins":{"BS":["YQ==","Yg=="]},"bs":{"BS":["AQ==","Ag=="]},"clock":{"S":"01:02:03.004"},"def":{"N":"5"},"defb":{"BOOL":false},"defs":{"S":""},"deft":{"S":"2024-01-01T00:00:00Z"},"defv":{"N":"0"},"defz":{"N":"0"},"dt":{"S":"2020-12-31T23:00:00.000005"},"keep":{"N":"0"},"ms":{"S":"2024-03-04T05:06:07.008Z"},"ns":{"NS":["1","3"]},"num":{"N":"12.50"},"price":{"N":"19.99"},"s":{"S":"2024-03-04T05:06:07Z"},"ss":{"SS":["y","z"]},"ttl":{"N":"1709528767"},"us":{"S":"2024-03-04T05:06:07.000009Z"}}`
	if got := jsItem(item); got != want {
		t.Errorf("MarshalItem =\n%s\nwant\n%s", got, want)
	}
	var back tagged
	if err := codec.UnmarshalItem(item, &back); err != nil {
		t.Fatal(err)
	}
	// Only the nil pointers took their defaults; explicit zeros stay zero.
	five, deft := 5, time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	v.Def, v.DefT = &five, &deft
	// Set-tagged slices load in wire (sorted) order.
	v.SS, v.NS, v.BS = []string{"y", "z"}, []int{1, 3}, [][]byte{{1}, {2}}
	if !reflect.DeepEqual(back, v) {
		t.Errorf("round trip:\n%+v\nwant\n%+v", back, v)
	}
}
