package streams_test

import (
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
// whole, keys included.
func TestRecordRoundTrip(t *testing.T) {
	keys := streams.Item{"pk": &types.AttributeValueMemberS{Value: "a"}}
	img := streams.Item{"pk": &types.AttributeValueMemberS{Value: "a"}, "v": &types.AttributeValueMemberN{Value: "1"}}
	now := time.UnixMilli(1_780_000_000_123)
	for i, r := range []streams.Record{
		{Event: streams.Insert, Created: now, Keys: keys},
		{Event: streams.Insert, Created: now, New: img},
		{Event: streams.Modify, Created: now, New: img, Old: img},
		{Event: streams.Remove, Created: now, Old: img, TTL: true},
	} {
		key, item, oldKey := r.Encode(uint64(i + 7))
		if r.New != nil && len(item) != len(img) {
			t.Fatalf("%d: stored item %v", i, item)
		}
		if both := r.New != nil && r.Old != nil; both != (oldKey != nil) || both != streams.OldApart(key) ||
			both && (!streams.IsOldImageKey(oldKey) || string(streams.OldImageKey(key)) != string(oldKey) || string(oldKey[:len(key)]) != string(key)) {
			t.Fatalf("%d: old image key %q for key %q", i, oldKey, key)
		}
		seq, got, err := streams.Decode(key, item, "pk")
		if oldKey != nil {
			got.Old = r.Old // the caller adds the entry at oldKey
		}
		if err != nil || seq != uint64(i+7) || got.Event != r.Event || !got.Created.Equal(now) || got.TTL != r.TTL ||
			len(got.Keys) != 1 || (got.New == nil) != (r.New == nil) || (got.Old == nil) != (r.Old == nil) {
			t.Fatalf("%d %s: %d %+v, %v", i, r.Event, seq, got, err)
		}
	}
	if _, _, err := streams.Decode([]byte("rgarbage"), streams.Item{}); err == nil {
		t.Fatal("garbage key decoded")
	}
}
