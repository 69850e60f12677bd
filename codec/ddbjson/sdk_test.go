package ddbjson

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// fakeDynamo is an HTTP client for the SDK that records the request body and answers with a
// canned response body, so tests can run the SDK's own serializer and deserializer.
type fakeDynamo struct {
	request  []byte
	response []byte
}

func (f *fakeDynamo) Do(r *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	f.request = body
	resp := f.response
	if resp == nil {
		resp = []byte("{}")
	}
	return &http.Response{
		StatusCode:    200,
		Header:        http.Header{"Content-Type": {"application/x-amz-json-1.0"}},
		Body:          io.NopCloser(bytes.NewReader(resp)),
		ContentLength: int64(len(resp)),
		Request:       r,
	}, nil
}

func sdkClient(f *fakeDynamo) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:           "us-east-1",
		BaseEndpoint:     aws.String("http://127.0.0.1:1"),
		Credentials:      credentials.NewStaticCredentialsProvider("AKID", "SECRET", ""),
		HTTPClient:       f,
		RetryMaxAttempts: 1,
	})
}

// sdkEncode returns the bytes the SDK puts on the wire for one attribute value.
func sdkEncode(t *testing.T, av types.AttributeValue) []byte {
	t.Helper()
	f := &fakeDynamo{}
	_, err := sdkClient(f).PutItem(context.Background(), &dynamodb.PutItemInput{
		TableName: aws.String("t"),
		Item:      map[string]types.AttributeValue{"v": av},
	})
	if err != nil {
		t.Fatalf("PutItem: %v", err)
	}
	var body struct{ Item map[string]json.RawMessage }
	if err := json.Unmarshal(f.request, &body); err != nil {
		t.Fatalf("SDK body %s: %v", f.request, err)
	}
	return body.Item["v"]
}

// sdkDecode has the SDK decode a GetItem response carrying item.
func sdkDecode(t *testing.T, item []byte) map[string]types.AttributeValue {
	t.Helper()
	f := &fakeDynamo{response: append(append([]byte(`{"Item":`), item...), '}')}
	out, err := sdkClient(f).GetItem(context.Background(), &dynamodb.GetItemInput{
		TableName: aws.String("t"),
		Key:       map[string]types.AttributeValue{"pk": &avS{Value: "k"}},
	})
	if err != nil {
		t.Fatalf("GetItem: %v", err)
	}
	return out.Item
}

// TestMatchesSDKBytes checks that strings are escaped exactly as the SDK escapes them.
func TestMatchesSDKBytes(t *testing.T) {
	var tricky []string
	for c := range 0x80 {
		tricky = append(tricky, "a"+string(rune(c))+"b")
	}
	tricky = append(tricky, "\u2028\u2029", "é世🎉", "a\xffb", "\xc3", "\xed\xa0\x80", "<>&'", "\u0085\u00a0\ufeff", "\U0010FFFF")
	for _, s := range tricky {
		for _, av := range []types.AttributeValue{&avS{Value: s}, &avSS{Value: []string{s, "x"}}, &avN{Value: s}} {
			want := sdkEncode(t, av)
			got, err := Marshal(av)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Marshal(%q) = %s, SDK sends %s", s, got, want)
			}
		}
	}
	for _, av := range []types.AttributeValue{
		&avB{Value: []byte{0, 1, 2, 0xff}}, &avBS{Value: [][]byte{{1}, {2, 3}, {4, 5, 6}}},
		&avBOOL{Value: true}, &avNULL{Value: true}, &avNS{Value: []string{"1", "2"}},
		&avL{Value: []types.AttributeValue{&avS{Value: "x"}, &avL{Value: []types.AttributeValue{}}}},
		&avM{Value: map[string]types.AttributeValue{"only": &avN{Value: "1"}}},
	} {
		if got, want := mustMarshal(t, av), sdkEncode(t, av); !bytes.Equal(got, want) {
			t.Errorf("Marshal = %s, SDK sends %s", got, want)
		}
	}
}

func mustMarshal(t *testing.T, av types.AttributeValue) []byte {
	t.Helper()
	b, err := Marshal(av)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRoundTripWithSDK: what the SDK sends, this package decodes to the same value; what this
// package encodes, the SDK decodes to the same value.
func TestRoundTripWithSDK(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	n := 200
	if testing.Short() {
		n = 30
	}
	for range n {
		item := randItem(r, 3)
		f := &fakeDynamo{}
		if _, err := sdkClient(f).PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("t"), Item: item}); err != nil {
			t.Fatal(err)
		}
		var body struct{ Item json.RawMessage }
		if err := json.Unmarshal(f.request, &body); err != nil {
			t.Fatal(err)
		}
		got, err := UnmarshalItem(body.Item)
		if err != nil {
			t.Fatalf("UnmarshalItem(SDK bytes %s): %v", body.Item, err)
		}
		if !reflect.DeepEqual(got, item) {
			t.Fatalf("decoding the SDK's bytes\n%s\ngave %#v", body.Item, got)
		}

		ours, err := MarshalItem(item)
		if err != nil {
			t.Fatal(err)
		}
		if back := sdkDecode(t, ours); !reflect.DeepEqual(back, item) {
			t.Fatalf("the SDK decoded our bytes\n%s\nto %#v", ours, back)
		}
	}
}

// randString mixes ASCII, escapes and multi-byte text (valid UTF-8: invalid bytes are replaced
// on encoding and cannot round-trip).
func randString(r *rand.Rand) string {
	alphabet := []string{"a", "b", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\x00", "\x1f", "é", "世", "🎉", "\u2028", "<", "&", "\x7f"}
	n := r.IntN(8)
	var sb strings.Builder
	for range n {
		sb.WriteString(alphabet[r.IntN(len(alphabet))])
	}
	return sb.String()
}

func randBytes(r *rand.Rand) []byte {
	b := make([]byte, 1+r.IntN(6))
	for i := range b {
		b[i] = byte(r.UintN(256))
	}
	return b
}

func randValue(r *rand.Rand, depth int) types.AttributeValue {
	k := r.IntN(10)
	if depth <= 0 && k >= 8 {
		k = r.IntN(8)
	}
	switch k {
	case 0:
		return &avS{Value: randString(r)}
	case 1:
		return &avN{Value: []string{"0", "1", "-2.5", "1E+10", "123456789012345678901234567890"}[r.IntN(5)]}
	case 2:
		return &avB{Value: randBytes(r)}
	case 3:
		return &avBOOL{Value: r.IntN(2) == 0}
	case 4:
		return &avNULL{Value: true}
	case 5:
		ss := make([]string, 1+r.IntN(3))
		for i := range ss {
			ss[i] = randString(r) + "x"
		}
		return &avSS{Value: ss}
	case 6:
		return &avNS{Value: []string{"1", "2", "3"}[:1+r.IntN(3)]}
	case 7:
		bs := make([][]byte, 1+r.IntN(3))
		for i := range bs {
			bs[i] = randBytes(r)
		}
		return &avBS{Value: bs}
	case 8:
		l := make([]types.AttributeValue, r.IntN(4))
		for i := range l {
			l[i] = randValue(r, depth-1)
		}
		return &avL{Value: l}
	default:
		return &avM{Value: randItem(r, depth-1)}
	}
}

func randItem(r *rand.Rand, depth int) map[string]types.AttributeValue {
	m := map[string]types.AttributeValue{}
	for range r.IntN(5) {
		m[randString(r)] = randValue(r, depth)
	}
	return m
}

// plain converts an attribute value to the shape encoding/json gives for the same JSON
// (map[string]any), independently of this package.
func plain(av types.AttributeValue) any {
	switch v := av.(type) {
	case *avS:
		return map[string]any{"S": v.Value}
	case *avN:
		return map[string]any{"N": v.Value}
	case *avB:
		b, _ := json.Marshal(v.Value) // encoding/json writes []byte as standard base64
		var s string
		_ = json.Unmarshal(b, &s)
		return map[string]any{"B": s}
	case *avBOOL:
		return map[string]any{"BOOL": v.Value}
	case *avNULL:
		return map[string]any{"NULL": v.Value}
	case *avSS:
		return map[string]any{"SS": strs(v.Value)}
	case *avNS:
		return map[string]any{"NS": strs(v.Value)}
	case *avBS:
		l := []any{}
		for _, b := range v.Value {
			l = append(l, plain(&avB{Value: b}).(map[string]any)["B"])
		}
		return map[string]any{"BS": l}
	case *avL:
		l := []any{}
		for _, e := range v.Value {
			l = append(l, plain(e))
		}
		return map[string]any{"L": l}
	case *avM:
		return map[string]any{"M": plainItem(v.Value)}
	}
	panic("unknown")
}

func strs(ss []string) []any {
	l := []any{}
	for _, s := range ss {
		l = append(l, s)
	}
	return l
}

func plainItem(m map[string]types.AttributeValue) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = plain(v)
	}
	return out
}

func TestAgainstEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		item := randItem(r, 4)
		b, err := MarshalItem(item)
		if err != nil {
			t.Fatal(err)
		}
		var generic map[string]any
		if err := json.Unmarshal(b, &generic); err != nil {
			t.Fatalf("encoding/json rejects %s: %v", b, err)
		}
		if want := plainItem(item); !reflect.DeepEqual(generic, want) {
			t.Fatalf("encoding/json reads %s as %#v, want %#v", b, generic, want)
		}
		// encoding/json's own encoding of the same shape decodes to the same item.
		std, _ := json.Marshal(generic)
		back, err := UnmarshalItem(std)
		if err != nil || !reflect.DeepEqual(back, item) {
			t.Fatalf("UnmarshalItem(%s) = %#v, %v", std, back, err)
		}
		again, _ := MarshalItem(back)
		if !bytes.Equal(again, b) {
			t.Fatalf("re-encoding differs:\n%s\n%s", b, again)
		}
	}
}
