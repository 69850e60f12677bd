package codec_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo/codec"
)

// sixtyFour fills the bits of DecodeFound, so that the fields declared after
// it have none.
type sixtyFour struct {
	A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, A12, A13, A14, A15, A16, A17, A18, A19, A20, A21, A22, A23, A24, A25, A26, A27, A28, A29, A30, A31, A32, A33, A34, A35, A36, A37, A38, A39, A40, A41, A42, A43, A44, A45, A46, A47, A48, A49, A50, A51, A52, A53, A54, A55, A56, A57, A58, A59, A60, A61, A62, A63 int
}

type pastTheMask struct {
	sixtyFour
	Far  string `dynamo:"far"`
	Late string `dynamo:"late,default=x"`
}

func TestDecodeFound(t *testing.T) {
	st, err := codec.StructOf(reflect.TypeFor[Order]())
	if err != nil {
		t.Fatal(err)
	}
	bit := func(attr string) uint64 {
		for i, f := range st.Fields {
			if f.Name == attr {
				return 1 << i
			}
		}
		t.Fatalf("no field %s", attr)
		return 0
	}
	var o Order
	found, err := st.DecodeFound(map[string]types.AttributeValue{
		"user_id":  &types.AttributeValueMemberS{Value: "u"},
		"order_id": &types.AttributeValueMemberS{Value: "o"},
		"version":  &types.AttributeValueMemberN{Value: "3"},
		"total":    &types.AttributeValueMemberNULL{Value: true},
		"tags":     nil, // present, but no value: not found
		"pk":       &types.AttributeValueMemberS{Value: "undeclared"},
	}, reflect.ValueOf(&o))
	if err != nil {
		t.Fatal(err)
	}
	// status takes its default, which is not the item's: no bit.
	if want := bit("user_id") | bit("order_id") | bit("version") | bit("total"); found != want {
		t.Errorf("found = %b, want %b", found, want)
	}
	if o.UserID != "u" || o.OrderID != "o" || o.Version != 3 || o.Status != "pending" {
		t.Errorf("decoded %+v", o)
	}

	// A bad value is an error naming the field, as Decode's.
	_, err = st.DecodeFound(map[string]types.AttributeValue{"version": &types.AttributeValueMemberS{Value: "x"}}, reflect.ValueOf(&o))
	if err == nil || !strings.Contains(err.Error(), "version") || strings.Contains(err.Error(), `"x"`) {
		t.Errorf("error %v, want one naming the field and not the value", err)
	}
	if _, err := st.DecodeFound(nil, reflect.ValueOf(o)); err == nil {
		t.Error("decoded into an unaddressable value")
	}
}

// Fields past the 64th decode as the others do and have no bit.
func TestDecodeFoundPastSixtyFour(t *testing.T) {
	st, err := codec.StructOf(reflect.TypeFor[pastTheMask]())
	if err != nil {
		t.Fatal(err)
	}
	item := map[string]types.AttributeValue{"far": &types.AttributeValueMemberS{Value: "f"}}
	for i := range 64 {
		if i != 5 {
			item[st.Fields[i].Name] = &types.AttributeValueMemberN{Value: "1"}
		}
	}
	var v pastTheMask
	found, err := st.DecodeFound(item, reflect.ValueOf(&v))
	if err != nil {
		t.Fatal(err)
	}
	if want := ^uint64(0) &^ (1 << 5); found != want {
		t.Errorf("found = %x, want %x", found, want)
	}
	if v.Far != "f" || v.Late != "x" || v.A63 != 1 || v.A5 != 0 {
		t.Errorf("decoded Far %q, Late %q, A63 %d, A5 %d", v.Far, v.Late, v.A63, v.A5)
	}
}

// Loud decodes itself, and is reached again through the plan of LoudBox
// while its own codec is being built: the plans' decode tables must call
// its method, not the struct decoder its codec held for a while.
type Loud struct {
	Seen string
	Next *LoudBox `dynamo:"next"`
}

func (l *Loud) UnmarshalDynamo(types.AttributeValue) error {
	l.Seen = "custom"
	return nil
}

type LoudBox struct {
	L Loud `dynamo:"l"`
}

type LoudTop struct {
	L Loud `dynamo:"l"`
}

func TestDecodeTableOfRecursiveCustomType(t *testing.T) {
	item := map[string]types.AttributeValue{"l": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
		"Seen": &types.AttributeValueMemberS{Value: "plan"},
	}}}
	var top LoudTop
	if err := codec.UnmarshalItem(item, &top); err != nil || top.L.Seen != "custom" {
		t.Fatalf("LoudTop: %+v, %v", top, err)
	}
	var box LoudBox
	if err := codec.UnmarshalItem(item, &box); err != nil || box.L.Seen != "custom" {
		t.Fatalf("LoudBox: %+v, %v", box, err)
	}
}

// A Struct put together by hand, not by StructOf, has no tables: decoding
// or encoding with it is an error, not an item silently left unfilled.
func TestDecodeNeedsABuiltPlan(t *testing.T) {
	built, err := codec.StructOf(reflect.TypeFor[struct {
		A string `dynamo:"a"`
	}]())
	if err != nil {
		t.Fatal(err)
	}
	byHand := codec.Struct{Type: built.Type, Fields: built.Fields}
	var v struct {
		A string `dynamo:"a"`
	}
	item := map[string]types.AttributeValue{"a": &types.AttributeValueMemberS{Value: "x"}}
	if err := byHand.Decode(item, reflect.ValueOf(&v)); err == nil || !strings.Contains(err.Error(), "StructOf") {
		t.Fatalf("Decode with a hand-built plan: %v, want an error naming StructOf", err)
	}
	if err := built.Decode(item, reflect.ValueOf(&v)); err != nil || v.A != "x" {
		t.Fatalf("Decode with StructOf's plan: %v, %q", err, v.A)
	}
	if _, err := byHand.Encode(reflect.ValueOf(&v), true); err == nil || !strings.Contains(err.Error(), "StructOf") {
		t.Fatalf("Encode with a hand-built plan: %v, want an error naming StructOf", err)
	}
	if got, err := built.Encode(reflect.ValueOf(&v), true); err != nil || js(got["a"]) != `{"S":"x"}` {
		t.Fatalf("Encode with StructOf's plan: %v, %v", err, got)
	}
}
