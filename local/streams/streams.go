// Package streams is the vocabulary of DynamoDB Streams in the local server:
// sequence numbers, shard ids, shard iterators and stream records as the
// storage engine keeps them. It is pure: the server (package local) owns the
// streams, writes the records in the same engine batch as their items and
// answers the DynamoDBStreams_20120810 actions.
package streams

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Item is a stored item (storage.Item).
type Item = map[string]types.AttributeValue

// Retention is how long records, and disabled streams, stay readable
// (Streams.html: "stores this information in a log for up to 24 hours").
const Retention = 24 * time.Hour

// IteratorTTL is how long a shard iterator stays usable
// (API_streams_GetShardIterator.html: "expires 15 minutes after it is returned").
const IteratorTTL = 15 * time.Minute

// FormatSeq is the SequenceNumber text of n: 21 decimal digits.
func FormatSeq(n uint64) string {
	return "1" + fmt.Sprintf("%020d", n)
}

// ParseSeq reads a SequenceNumber written by FormatSeq.
func ParseSeq(s string) (uint64, bool) {
	if len(s) != 21 || s[0] != '1' {
		return 0, false
	}
	n, err := strconv.ParseUint(s[1:], 10, 64)
	return n, err == nil
}

// ShardID names the shard of the stream labelled label whose first
// sequence number is start, opened at opened: DynamoDB's shape,
// shardId-<20 digits>-<8 hex>.
func ShardID(label string, start uint64, opened time.Time) string {
	h := fnv.New32a()
	fmt.Fprintf(h, "%s/%d", label, start)
	return fmt.Sprintf("shardId-%020d-%08x", opened.UnixMilli(), h.Sum32())
}

// EventID is a record's eventID: 32 hex digits, unique per stream and
// sequence number.
func EventID(streamArn string, seq uint64) string {
	h := fnv.New128a()
	h.Write([]byte(streamArn))
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], seq)
	h.Write(b[:])
	return fmt.Sprintf("%x", h.Sum(nil))
}

// Iterator is a position in a shard: the next record read is the first
// whose sequence number is greater than After.
type Iterator struct {
	StreamArn string
	ShardID   string
	After     uint64
	Created   time.Time
}

// Encode is the ShardIterator text: the stream ARN, then an opaque part
// (the shape of DynamoDB's, "<arn>|1|<base64>").
func (it Iterator) Encode() string {
	p := it.ShardID + "|" + strconv.FormatUint(it.After, 10) + "|" + strconv.FormatInt(it.Created.UnixNano(), 10)
	return it.StreamArn + "|1|" + base64.RawURLEncoding.EncodeToString([]byte(p))
}

// ParseIterator reads an iterator made by Encode; ok is false for anything else.
func ParseIterator(s string) (it Iterator, ok bool) {
	arn, rest, found := strings.Cut(s, "|1|")
	if !found || arn == "" {
		return it, false
	}
	b, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil {
		return it, false
	}
	parts := strings.Split(string(b), "|")
	if len(parts) != 3 || !strings.HasPrefix(parts[0], "shardId-") {
		return it, false
	}
	after, err1 := strconv.ParseUint(parts[1], 10, 64)
	created, err2 := strconv.ParseInt(parts[2], 10, 64)
	if err1 != nil || err2 != nil {
		return it, false
	}
	return Iterator{StreamArn: arn, ShardID: parts[0], After: after, Created: time.Unix(0, created)}, true
}

// Event names (API_streams_Record.html).
const (
	Insert = "INSERT"
	Modify = "MODIFY"
	Remove = "REMOVE"
)

// Record is one change of one item.
type Record struct {
	Event   string    // Insert, Modify or Remove
	Created time.Time // ApproximateCreationDateTime
	// Keys are the item's key attributes. Encode reads only the ones it
	// is told to, so the item itself will do.
	Keys Item
	Old  Item // nil unless the view type keeps old images
	New  Item // nil unless the view type keeps new images
	TTL  bool // deleted by time to live (userIdentity Service)
}

// A stored record is a key and an item. The key holds the sequence number
// (first, so records sort by it), then a flags byte and the creation time;
// the item is the record's image itself when it has one (the very item the
// table stores: items are immutable, so sharing costs nothing). A record
// with both images is two entries: the new image under the record's key,
// the old one under the same key followed by 'o' (OldImageKey), which
// sorts right after it, in the same engine batch. A record with no image
// carries the item's keys at the end of its key (flagKeysInKey) and stores
// the shared empty item keysInKey: one allocation, holding nothing of the
// item. Recording a write thus allocates no map at all: memory held for 24
// hours of records is what DynamoDB would report, and little more.
// (Records written before had both images in one item, under "n" and "o",
// and their keys in an item of their own; Decode still reads them.)
const (
	recordKeyLen = 1 + 8 + 1 + 8

	flagEvent   = 0b11 // 0 Insert, 1 Modify, 2 Remove
	flagPayload = 0b1100
	payloadKeys = 0 << 2
	payloadNew  = 1 << 2
	payloadOld  = 2 << 2
	payloadBoth = 3 << 2
	flagTTL     = 1 << 4
	// flagOldApart marks a payloadBoth record whose item is the new image,
	// the old one being the entry at OldImageKey.
	flagOldApart = 1 << 5
	// flagKeysInKey marks a payloadKeys record whose keys follow the
	// creation time in its key, each as a type byte (S, N or B), a uvarint
	// length and the value.
	flagKeysInKey = 1 << 6

	oldImageSuffix = 'o'
)

// keysInKey is the item stored with a record whose keys are in its key
// (the engine needs an item: nil deletes). It is never handed out.
var keysInKey = Item{}

var events = [...]string{Insert, Modify, Remove}

// Encode returns the stored form of the record with sequence number seq;
// keys names the table's key attributes (hash first), which a record
// without an image keeps in its key. oldKey is nil unless the old image is
// stored apart, under oldKey. The key attributes must be S, N or B, as a
// table's are.
func (r *Record) Encode(seq uint64, keys ...string) (key []byte, item Item, oldKey []byte, err error) {
	flags := byte(slices.Index(events[:], r.Event))
	if flags > flagEvent {
		return nil, nil, nil, fmt.Errorf("streams: unknown event %q", r.Event)
	}
	size := recordKeyLen
	switch {
	case r.New != nil && r.Old != nil:
		flags, item, size = flags|payloadBoth|flagOldApart, r.New, recordKeyLen+1
	case r.New != nil:
		flags, item = flags|payloadNew, r.New
	case r.Old != nil:
		flags, item = flags|payloadOld, r.Old
	default:
		flags, item = flags|payloadKeys|flagKeysInKey, keysInKey
		for _, k := range keys {
			size += keyLen(r.Keys[k])
		}
	}
	if r.TTL {
		flags |= flagTTL
	}
	b := appendRecordKey(make([]byte, 0, size), seq, flags, r.Created.UnixMilli())
	if flags&flagKeysInKey != 0 {
		for _, k := range keys {
			var ok bool
			if b, ok = appendKey(b, r.Keys[k]); !ok {
				return nil, nil, nil, fmt.Errorf("streams: key attribute %q is not S, N or B", k)
			}
		}
	}
	if flags&flagOldApart != 0 {
		return b, item, append(b, oldImageSuffix), nil // one allocation for both keys
	}
	return b, item, nil, nil
}

// appendKey appends a key attribute as Encode stores it; ok is false if v
// cannot be a key attribute.
func appendKey(b []byte, v types.AttributeValue) (_ []byte, ok bool) {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return append(binary.AppendUvarint(append(b, 'S'), uint64(len(v.Value))), v.Value...), true
	case *types.AttributeValueMemberN:
		return append(binary.AppendUvarint(append(b, 'N'), uint64(len(v.Value))), v.Value...), true
	case *types.AttributeValueMemberB:
		return append(binary.AppendUvarint(append(b, 'B'), uint64(len(v.Value))), v.Value...), true
	}
	return b, false
}

// keyLen is what appendKey appends for v.
func keyLen(v types.AttributeValue) int {
	n := 0
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		n = len(v.Value)
	case *types.AttributeValueMemberN:
		n = len(v.Value)
	case *types.AttributeValueMemberB:
		n = len(v.Value)
	}
	w := 1
	for x := uint64(n); x >= 0x80; x >>= 7 {
		w++
	}
	return 1 + w + n
}

func appendRecordKey(b []byte, seq uint64, flags byte, ms int64) []byte {
	b = append(b, 'r')
	b = binary.BigEndian.AppendUint64(b, seq)
	b = append(b, flags)
	return binary.BigEndian.AppendUint64(b, uint64(ms))
}

// OldImageKey is the key of the old image of the record stored under key,
// nil when the record keeps no old image apart.
func OldImageKey(key []byte) []byte {
	if len(key) != recordKeyLen || key[9]&flagOldApart == 0 {
		return nil
	}
	return append(key[:recordKeyLen:recordKeyLen], oldImageSuffix)
}

// IsOldImageKey reports whether k is the key of a record's old image.
func IsOldImageKey(k []byte) bool {
	return len(k) == recordKeyLen+1 && k[0] == 'r' && k[9]&flagOldApart != 0 && k[recordKeyLen] == oldImageSuffix
}

// OldApart reports whether the record stored under key has its old image
// in the entry that follows it (at OldImageKey), for Decode's caller to add.
func OldApart(key []byte) bool { return OldImageKey(key) != nil }

// KeyInfo reads the sequence number, flags and creation time (unix ms) of
// a stored record's key; ok is false for any other key.
func KeyInfo(k []byte) (seq uint64, flags byte, ms int64, ok bool) {
	if len(k) < recordKeyLen || k[0] != 'r' || len(k) > recordKeyLen && k[9]&flagKeysInKey == 0 {
		return 0, 0, 0, false
	}
	return binary.BigEndian.Uint64(k[1:]), k[9], int64(binary.BigEndian.Uint64(k[10:])), true
}

// Decode reads a stored record; keys names the table's key attributes
// (hash first).
func Decode(k []byte, it Item, keys ...string) (seq uint64, r Record, err error) {
	seq, flags, ms, ok := KeyInfo(k)
	if !ok || int(flags&flagEvent) >= len(events) {
		return 0, r, fmt.Errorf("streams: malformed stored record")
	}
	r.Event, r.Created, r.TTL = events[flags&flagEvent], time.UnixMilli(ms), flags&flagTTL != 0
	switch flags & flagPayload {
	case payloadKeys:
		if flags&flagKeysInKey == 0 {
			r.Keys = it
			return seq, r, nil
		}
		if r.Keys, err = decodeKeys(k[recordKeyLen:], keys); err != nil {
			return 0, r, err
		}
		return seq, r, nil
	case payloadNew:
		r.New = it
	case payloadOld:
		r.Old = it
	case payloadBoth:
		if flags&flagOldApart != 0 {
			r.New = it // the caller adds Old, from the next entry
			break
		}
		n, ok1 := it["n"].(*types.AttributeValueMemberM)
		o, ok2 := it["o"].(*types.AttributeValueMemberM)
		if !ok1 || !ok2 {
			return 0, r, fmt.Errorf("streams: malformed stored record images")
		}
		r.New, r.Old = n.Value, o.Value
	}
	src := r.New
	if src == nil {
		src = r.Old
	}
	r.Keys = make(Item, len(keys))
	for _, k := range keys {
		if v, ok := src[k]; ok {
			r.Keys[k] = v
		}
	}
	return seq, r, nil
}

// decodeKeys reads the keys Encode appended to a record's key.
func decodeKeys(b []byte, names []string) (Item, error) {
	keys := make(Item, len(names))
	for _, name := range names {
		if len(b) == 0 {
			return nil, fmt.Errorf("streams: malformed stored record keys")
		}
		t := b[0]
		n, w := binary.Uvarint(b[1:])
		if w <= 0 || n > uint64(len(b)-1-w) {
			return nil, fmt.Errorf("streams: malformed stored record keys")
		}
		v := b[1+w : 1+w+int(n)]
		b = b[1+w+int(n):]
		switch t {
		case 'S':
			keys[name] = &types.AttributeValueMemberS{Value: string(v)}
		case 'N':
			keys[name] = &types.AttributeValueMemberN{Value: string(v)}
		case 'B':
			keys[name] = &types.AttributeValueMemberB{Value: slices.Clone(v)}
		default:
			return nil, fmt.Errorf("streams: malformed stored record keys")
		}
	}
	if len(b) != 0 {
		return nil, fmt.Errorf("streams: malformed stored record keys")
	}
	return keys, nil
}

// Shard is a shard's stored descriptor: its id, its parent's, the range of
// sequence numbers it owns (End 0 while it is open) and when it opened.
type Shard struct {
	ID, Parent string
	Start, End uint64
	Opened     time.Time
}

// Item is the shard descriptor as a storage item.
func (s *Shard) Item() Item {
	it := Item{
		"id": &types.AttributeValueMemberS{Value: s.ID},
		"s":  &types.AttributeValueMemberN{Value: strconv.FormatUint(s.Start, 10)},
		"e":  &types.AttributeValueMemberN{Value: strconv.FormatUint(s.End, 10)},
		"t":  &types.AttributeValueMemberN{Value: strconv.FormatInt(s.Opened.UnixMilli(), 10)},
	}
	if s.Parent != "" {
		it["p"] = &types.AttributeValueMemberS{Value: s.Parent}
	}
	return it
}

// ShardFromItem reads a descriptor stored by Shard.Item.
func ShardFromItem(it Item) (Shard, error) {
	var s Shard
	id, ok := it["id"].(*types.AttributeValueMemberS)
	if !ok {
		return s, fmt.Errorf("streams: malformed stored shard")
	}
	s.ID = id.Value
	if p, ok := it["p"].(*types.AttributeValueMemberS); ok {
		s.Parent = p.Value
	}
	num := func(k string) uint64 {
		n, _ := it[k].(*types.AttributeValueMemberN)
		if n == nil {
			return 0
		}
		v, _ := strconv.ParseUint(n.Value, 10, 64)
		return v
	}
	s.Start, s.End = num("s"), num("e")
	s.Opened = time.UnixMilli(int64(num("t")))
	return s, nil
}

// Keys of a stream's collection: records under 'r' and their sequence
// number, shard descriptors under 's' and their first sequence number (both
// big-endian, so they sort by it), and under "t" the trimmed watermark.

// RecordKey is where the record with sequence number seq sorts: a seek key
// for ranges of records (a stored record's key extends it).
func RecordKey(seq uint64) []byte { return seqKey('r', seq) }

// RecordsEnd bounds the record keys: every record key sorts before it.
var RecordsEnd = []byte{'r' + 1}

// ShardKey is the key of the descriptor of the shard starting at start.
func ShardKey(start uint64) []byte { return seqKey('s', start) }

// TrimmedKey is the key of the trimmed watermark: records up to it were
// deleted.
var TrimmedKey = []byte("t")

func seqKey(prefix byte, seq uint64) []byte {
	b := make([]byte, 9)
	b[0] = prefix
	binary.BigEndian.PutUint64(b[1:], seq)
	return b
}

// Watermark is the trimmed watermark as a storage item.
func Watermark(seq uint64) Item {
	return Item{"n": &types.AttributeValueMemberN{Value: strconv.FormatUint(seq, 10)}}
}

// WatermarkOf reads a Watermark item.
func WatermarkOf(it Item) uint64 {
	n, _ := it["n"].(*types.AttributeValueMemberN)
	if n == nil {
		return 0
	}
	v, _ := strconv.ParseUint(n.Value, 10, 64)
	return v
}
