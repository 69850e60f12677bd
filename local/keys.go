package local

import (
	"encoding/binary"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/internal/avtype"
	"github.com/dynamogo/dynamo/local/storage"
)

// Storage key layout, for a table and for each index collection:
//
//	table:  hash64(part(pk)) part(pk) [part(sk)]
//	index:  hash64(part(ipk)) part(ipk) [part(isk)] part(pk) [part(sk)]
//
// (for a multi-attribute index key, part(ipk) and part(isk) are the parts
// of each attribute in schema order: see multikey.go)
//
// where part is storage.AppendKeyPart (self-delimiting, order preserving).
// The 8-byte big-endian FNV-1a hash of the partition key spreads partitions
// over the key space as DynamoDB's hashing does: Scan walks partitions in
// hash order, and scan segments are disjoint ranges of the hash space. Within
// a partition items are in sort-key order, which Query walks.

// appendPartition appends the hash and the partition key part (the parts of
// every value, in order, for a multi-attribute index partition key).
func appendPartition(dst []byte, pk ...types.AttributeValue) ([]byte, error) {
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0, 0, 0, 0, 0)
	for _, v := range pk {
		var err error
		if dst, err = storage.AppendKeyPart(dst, v); err != nil {
			return dst, err
		}
	}
	// FNV-1a, 64 bits.
	h := uint64(14695981039346656037)
	for _, c := range dst[start+8:] {
		h ^= uint64(c)
		h *= 1099511628211
	}
	binary.BigEndian.PutUint64(dst[start:], h)
	return dst, nil
}

// appendItemKey appends the table storage key of an item (or key map) whose
// key attributes have been validated.
func (m *tableMeta) appendItemKey(dst []byte, item Item) ([]byte, error) {
	dst, err := appendPartition(dst, item[m.Hash.Name])
	if err != nil || m.Range.Name == "" {
		return dst, err
	}
	return storage.AppendKeyPart(dst, item[m.Range.Name])
}

// appendKey appends the table storage key of item (appendItemKey) to
// keys, a buffer of several requests' keys, and returns it and the key
// alone. Keys already in the buffer stay valid as it grows.
func appendKey(keys []byte, m *tableMeta, item Item) ([]byte, []byte, error) {
	start := len(keys)
	keys, err := m.appendItemKey(keys, item)
	return keys, keys[start:len(keys):len(keys)], err
}

// sameKey compares two storage keys of one table, whose first 8 bytes are
// the hash of their partition: comparing those first rules out most keys
// at once.
func sameKey(a, b []byte) bool {
	return len(a) == len(b) && binary.LittleEndian.Uint64(a) == binary.LittleEndian.Uint64(b) && string(a) == string(b)
}

// hasKey reports whether keys holds k (sameKey). A batch has at most 100
// keys: comparing them costs less than a map.
func hasKey(keys [][]byte, k []byte) bool {
	return slices.ContainsFunc(keys, func(o []byte) bool { return sameKey(o, k) })
}

// appendIndexKey appends the index storage key of item; ok is false when the
// item lacks an index key attribute or has one of another type (it is not in
// a sparse index).
func (m *tableMeta) appendIndexKey(dst []byte, ix *indexMeta, item Item) ([]byte, bool, error) {
	hs, rs := ix.hashKeys(), ix.rangeKeys()
	var buf [2 * maxKeyAttrs]types.AttributeValue
	vals := buf[:0]
	for _, ka := range append(hs, rs...) {
		v := item[ka.Name]
		if v == nil || !hasType(v, ka.Type) {
			return dst, false, nil
		}
		vals = append(vals, v)
	}
	dst, err := appendPartition(dst, vals[:len(hs)]...)
	if err != nil {
		return dst, false, err
	}
	for _, v := range vals[len(hs):] {
		if dst, err = storage.AppendKeyPart(dst, v); err != nil {
			return dst, false, err
		}
	}
	dst, err = m.appendItemKey(dst, item)
	return dst, err == nil, err
}

// partitionBounds returns the [start, end) range of one partition.
func partitionBounds(pk types.AttributeValue) (start, end []byte, err error) {
	start, end, _, err = appendPartitionBounds(nil, pk)
	return start, end, err
}

// appendPartitionBounds is partitionBounds in the memory of buf (a
// request's recycled buffer), which it returns grown: both keys in it.
func appendPartitionBounds(buf []byte, pk types.AttributeValue) (start, end, grown []byte, err error) {
	p, err := appendPartition(buf[:0], pk)
	if err != nil {
		return nil, nil, buf, err
	}
	n := len(p)
	grown = append(p, p...)
	return grown[:n:n], successorOf(grown[n:]), grown, nil
}

// successor returns the smallest key greater than every key with prefix p.
func successor(p []byte) []byte { return successorOf(append([]byte(nil), p...)) }

// successorOf is successor in the memory of s, which it overwrites.
func successorOf(s []byte) []byte {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] != 0xFF {
			s[i]++
			return s[:i+1]
		}
	}
	return nil // no upper bound
}

// after returns the smallest key greater than k.
func after(k []byte) []byte { return append(append([]byte(nil), k...), 0) }

func typeOf(av types.AttributeValue) string {
	if t := avtype.Of(av); t != "" {
		return t
	}
	return "?"
}

func hasType(av types.AttributeValue, t string) bool {
	switch av.(type) {
	case *types.AttributeValueMemberS:
		return t == "S"
	case *types.AttributeValueMemberN:
		return t == "N"
	case *types.AttributeValueMemberB:
		return t == "B"
	}
	return false
}
