package local

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/internal/limits"
	"github.com/dynamogo/dynamo/local/eval"
	"github.com/dynamogo/dynamo/local/storage"
)

// Multi-attribute keys (GSI.DesignPattern.MultiAttributeKeys.html): a global
// secondary index's partition key and sort key may each have up to four
// attributes, typed S, N or B, listed HASH elements first. An item is in
// the index only when it has every one of them with its declared type. The
// storage key concatenates the attributes' key parts in schema order (each
// part is self-delimiting and order preserving), so the partition hashes
// the tuple of partition values and entries sort by the sort values left
// to right, each by its own type.

// maxKeyAttrs is the limit on the attributes of each side of a GSI key,
// shared with the schema's declaration check.
const maxKeyAttrs = limits.MaxGSIKeyAttrs

// hashKeys are the index's partition key attributes, in schema order.
func (ix *indexMeta) hashKeys() []keyAttr {
	return append([]keyAttr{ix.Hash}, ix.MoreHash...)
}

// rangeKeys are the index's sort key attributes, in schema order (none
// without a sort key).
func (ix *indexMeta) rangeKeys() []keyAttr {
	if ix.Range.Name == "" {
		return nil
	}
	return append([]keyAttr{ix.Range}, ix.MoreRange...)
}

// multi reports whether either side of the index key has several
// attributes.
func (ix *indexMeta) multi() bool { return len(ix.MoreHash)+len(ix.MoreRange) > 0 }

// keyNames are the names of every key attribute of the index.
func (ix *indexMeta) keyNames() []string {
	var out []string
	for _, ka := range ix.hashKeys() {
		out = append(out, ka.Name)
	}
	for _, ka := range ix.rangeKeys() {
		out = append(out, ka.Name)
	}
	return out
}

// hasKey reports whether name is a key attribute of the index.
func (ix *indexMeta) hasKey(name string) bool {
	for _, n := range ix.keyNames() {
		if n == name {
			return true
		}
	}
	return false
}

// checkGSIKeySchema checks a global secondary index's key schema: one HASH
// and an optional RANGE element as for any key schema (checkKeySchema
// owns those messages), or up to four of each, HASH elements first.
func checkGSIKeySchema(ks []types.KeySchemaElement, defs map[string]string, defNames []string) (hs, rs []keyAttr, err error) {
	nh, nr := 0, 0
	for _, k := range ks {
		if k.KeyType == types.KeyTypeHash {
			nh++
		} else {
			nr++
		}
	}
	if nh <= 1 && nr <= 1 {
		h, r, err := checkKeySchema(ks, defs, defNames)
		if err != nil {
			return nil, nil, err
		}
		if r.Name != "" {
			rs = []keyAttr{r}
		}
		return []keyAttr{h}, rs, nil
	}
	seen := map[string]bool{}
	for i, k := range ks {
		name := *k.AttributeName
		typ, ok := defs[name]
		if !ok {
			return nil, nil, validation("Invalid KeySchema: Some index key attribute have no definition")
		}
		if seen[name] {
			return nil, nil, validation(msgKeySchemaSameName)
		}
		seen[name] = true
		switch {
		case i == 0 && k.KeyType != types.KeyTypeHash:
			return nil, nil, validation("Invalid KeySchema: The first KeySchemaElement is not a HASH key type")
		case k.KeyType == types.KeyTypeHash && len(rs) > 0:
			return nil, nil, invalidParam(msgKeySchemaHashFirst)
		case k.KeyType == types.KeyTypeHash:
			hs = append(hs, keyAttr{name, typ})
		default:
			rs = append(rs, keyAttr{name, typ})
		}
	}
	if len(hs) > maxKeyAttrs {
		return nil, nil, invalidParam(msgKeySchemaTooManyKey, "HASH")
	}
	if len(rs) > maxKeyAttrs {
		return nil, nil, invalidParam(msgKeySchemaTooManyKey, "RANGE")
	}
	return hs, rs, nil
}

// gsiFromSchema checks a GSI's key schema and projection and returns its
// meta.
func gsiFromSchema(name string, ks []types.KeySchemaElement, p *types.Projection, defs map[string]string, defNames []string) (*indexMeta, error) {
	hs, rs, err := checkGSIKeySchema(ks, defs, defNames)
	if err != nil {
		return nil, err
	}
	var r keyAttr
	if len(rs) > 0 {
		r = rs[0]
	}
	im, err := indexFromProjection(name, hs[0], r, p)
	if err != nil {
		return nil, err
	}
	im.MoreHash = hs[1:]
	if len(rs) > 1 {
		im.MoreRange = rs[1:]
	}
	if len(im.MoreHash) == 0 {
		im.MoreHash = nil
	}
	return im, nil
}

// indexKeySizeError checks an index key value against the key size limits:
// each partition attribute at most 2048 bytes, each sort attribute at most
// 1024 (Constraints.html).
func indexKeySizeError(ix *indexMeta, ka keyAttr, v types.AttributeValue, hash bool) error {
	size := 0
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		size = len(x.Value)
	case *types.AttributeValueMemberB:
		size = len(x.Value)
	case *types.AttributeValueMemberN:
		size = len(x.Value)
	}
	max := limits.MaxSortKeyBytes
	if hash {
		max = limits.MaxPartitionKeyBytes
	}
	if size > max {
		return invalidParam("Size limit exceeded for Index Key %s Actual Size: %d bytes Max Size: %d bytes IndexName: %s", ka.Name, size, max, ix.Name)
	}
	return nil
}

// backfillable reports whether an item already in the table may enter a
// new index: writes never let an empty or oversized value into an index key,
// but an item written before the index existed may hold one, and the service
// leaves such an item out of the index (GSI.OnlineOps.ViolationDetection.html).
func backfillable(ix *indexMeta, item Item) bool {
	nh := len(ix.hashKeys())
	for i, ka := range append(ix.hashKeys(), ix.rangeKeys()...) {
		v := item[ka.Name]
		switch x := v.(type) {
		case *types.AttributeValueMemberS:
			if x.Value == "" {
				return false
			}
		case *types.AttributeValueMemberB:
			if len(x.Value) == 0 {
				return false
			}
		}
		if indexKeySizeError(ix, ka, v, i < nh) != nil {
			return false
		}
	}
	return true
}

// multiKeyBounds checks the key condition of a query of a multi-attribute
// index and returns the range of storage keys it selects: the partition of
// the partition values, narrowed by the sort equalities to a prefix, and by
// the last sort condition within it.
func (src *source) multiKeyBounds(ex *eval.Compiled) (start, end []byte, err error) {
	ix := src.ix.meta
	hs, rs := ix.hashKeys(), ix.rangeKeys()
	hn, rn := make([]string, len(hs)), make([]string, len(rs))
	for i, ka := range hs {
		hn[i] = ka.Name
	}
	for i, ka := range rs {
		rn[i] = ka.Name
	}
	kc, err := ex.MultiKeyCondition(hn, rn)
	if err != nil {
		return nil, nil, evalError(err)
	}
	for i, v := range kc.Partition {
		if !hasType(v, hs[i].Type) {
			return nil, nil, invalidParam("Condition parameter type does not match schema type")
		}
		if err := checkKeyValue(v, hs[i].Name, true); err != nil {
			return nil, nil, err
		}
	}
	p, err := appendPartition(nil, kc.Partition...)
	if err != nil {
		return nil, nil, err
	}
	for i, v := range kc.SortEq {
		if !hasType(v, rs[i].Type) {
			return nil, nil, invalidParam("Condition parameter type does not match schema type")
		}
		if p, err = storage.AppendKeyPart(p, v); err != nil {
			return nil, nil, err
		}
	}
	for _, v := range kc.Sort {
		if !hasType(v, rs[len(kc.SortEq)].Type) {
			return nil, nil, invalidParam("Condition parameter type does not match schema type")
		}
	}
	return prefixBounds(p, successor(p), &kc.KeyCond)
}
