package streams_test

import (
	"encoding/binary"
	"maps"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/local/streams"
)

// Sequence numbers are 21 digits whose text sorts as their value.
func TestSequenceNumbers(t *testing.T) {
	prev := ""
	for _, n := range []uint64{1, 9, 10, 99, 1 << 40, 1<<63 - 1} {
		s := streams.FormatSeq(n)
		if len(s) != 21 || s <= prev {
			t.Fatalf("FormatSeq(%d) = %q after %q", n, s, prev)
		}
		if got, ok := streams.ParseSeq(s); !ok || got != n {
			t.Fatalf("ParseSeq(%q) = %d, %v", s, got, ok)
		}
		prev = s
	}
	for _, bad := range []string{"", "1", "200000000000000000001", "1000000000000000000x1", "1000000000000000000000"} {
		if _, ok := streams.ParseSeq(bad); ok {
			t.Fatalf("ParseSeq(%q) accepted", bad)
		}
	}
}

func TestIteratorRoundTripAndGarbage(t *testing.T) {
	it := streams.Iterator{StreamArn: "arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/2026-01-01T00:00:00.000",
		ShardID: "shardId-00000000000000000001-0000abcd", After: 42, Created: time.Unix(0, 1234567890)}
	got, ok := streams.ParseIterator(it.Encode())
	if !ok || got != it {
		t.Fatalf("round trip: %+v, %v", got, ok)
	}
	for _, bad := range []string{"", "x", "arn|1|", "arn|1|!!", it.StreamArn + "|1|" + "c2hhcmQ", it.Encode() + "x"} {
		if _, ok := streams.ParseIterator(bad); ok {
			t.Fatalf("ParseIterator(%q) accepted", bad)
		}
	}
}

// A stored record shares its image with the table (no copy) and comes back
// whole, keys included; a record without an image keeps the item's keys in
// its storage key and stores nothing of the item.
func TestRecordRoundTrip(t *testing.T) {
	img := streams.Item{"pk": &types.AttributeValueMemberS{Value: "a"}, "v": &types.AttributeValueMemberN{Value: "1"}}
	now := time.UnixMilli(1_780_000_000_123)
	for i, r := range []streams.Record{
		{Event: streams.Insert, Created: now, Keys: img},
		{Event: streams.Remove, Created: now, Keys: img, TTL: true},
		{Event: streams.Insert, Created: now, New: img},
		{Event: streams.Modify, Created: now, New: img, Old: img},
		{Event: streams.Remove, Created: now, Old: img, TTL: true},
	} {
		key, item, oldKey, err := r.Encode(uint64(i+7), "pk")
		if err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		if r.New != nil && len(item) != len(img) || r.New == nil && r.Old == nil && len(item) != 0 {
			t.Fatalf("%d: stored item %v", i, item)
		}
		if both := r.New != nil && r.Old != nil; both != (oldKey != nil) || both != streams.OldApart(key) ||
			both && (!streams.IsOldImageKey(oldKey) || string(streams.OldImageKey(key)) != string(oldKey) || string(oldKey[:len(key)]) != string(key)) {
			t.Fatalf("%d: old image key %q for key %q", i, oldKey, key)
		}
		if streams.IsOldImageKey(key) {
			t.Fatalf("%d: record key %q taken for an old image's", i, key)
		}
		seq, got, err := streams.Decode(key, item, "pk")
		if oldKey != nil {
			got.Old = r.Old // the caller adds the entry at oldKey
		}
		if err != nil || seq != uint64(i+7) || got.Event != r.Event || !got.Created.Equal(now) || got.TTL != r.TTL ||
			len(got.Keys) != 1 || got.Keys["pk"].(*types.AttributeValueMemberS).Value != "a" ||
			(got.New == nil) != (r.New == nil) || (got.Old == nil) != (r.Old == nil) {
			t.Fatalf("%d %s: %d %+v, %v", i, r.Event, seq, got, err)
		}
	}
	if _, _, err := streams.Decode([]byte("rgarbage"), streams.Item{}); err == nil {
		t.Fatal("garbage key decoded")
	}
}

// Keys of each type, a hash and a range, long and empty values, come back
// from the record key as they went in; a damaged key is an error.
func TestRecordKeysInKey(t *testing.T) {
	long := strings.Repeat("x", 300) // a length of two varint bytes
	for _, keys := range []streams.Item{
		{"h": &types.AttributeValueMemberS{Value: long}, "r": &types.AttributeValueMemberN{Value: "-1.5E+3"}},
		{"h": &types.AttributeValueMemberB{Value: []byte{0, 'o', 0xff}}, "r": &types.AttributeValueMemberS{Value: ""}},
		{"h": &types.AttributeValueMemberN{Value: "7"}, "r": &types.AttributeValueMemberB{Value: []byte("o")}},
	} {
		item := streams.Item{"other": &types.AttributeValueMemberS{Value: "not a key"}}
		maps.Copy(item, keys)
		r := streams.Record{Event: streams.Modify, Created: time.UnixMilli(1), Keys: item}
		key, stored, _, err := r.Encode(1<<40, "h", "r")
		if err != nil {
			t.Fatal(err)
		}
		_, got, err := streams.Decode(key, stored, "h", "r")
		if err != nil || !reflect.DeepEqual(got.Keys, keys) {
			t.Fatalf("keys %v came back as %v, %v", keys, got.Keys, err)
		}
		if _, _, err := streams.Decode(key[:len(key)-1], stored, "h", "r"); err == nil {
			t.Fatalf("a cut key decoded")
		}
		if _, _, err := streams.Decode(append(key, 0), stored, "h", "r"); err == nil {
			t.Fatalf("a key with a byte more decoded")
		}
	}
	r := streams.Record{Event: streams.Insert, Keys: streams.Item{"h": &types.AttributeValueMemberBOOL{Value: true}}}
	if _, _, _, err := r.Encode(1, "h"); err == nil {
		t.Fatal("a BOOL key attribute encoded")
	}
}

// Records stored before keys moved into the record key (their keys as an
// item, both images in one item under "n" and "o") still decode.
func TestRecordEarlierForms(t *testing.T) {
	keys := streams.Item{"pk": &types.AttributeValueMemberS{Value: "a"}}
	img := streams.Item{"pk": &types.AttributeValueMemberS{Value: "a"}, "v": &types.AttributeValueMemberN{Value: "1"}}
	key := func(flags byte) []byte {
		b := binary.BigEndian.AppendUint64([]byte{'r'}, 9)
		return binary.BigEndian.AppendUint64(append(b, flags), 1_780_000_000_123)
	}
	_, got, err := streams.Decode(key(0), keys, "pk") // INSERT, keys only
	if err != nil || got.Event != streams.Insert || !reflect.DeepEqual(got.Keys, keys) || got.New != nil || got.Old != nil {
		t.Fatalf("keys only: %+v, %v", got, err)
	}
	both := streams.Item{"n": &types.AttributeValueMemberM{Value: img}, "o": &types.AttributeValueMemberM{Value: img}}
	_, got, err = streams.Decode(key(1|3<<2), both, "pk") // MODIFY, both images
	if err != nil || got.Event != streams.Modify || !reflect.DeepEqual(got.Keys, keys) || len(got.New) != 2 || len(got.Old) != 2 {
		t.Fatalf("both images: %+v, %v", got, err)
	}
}
