package eval

import (
	"strconv"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// MultiKeyCond is a KeyConditionExpression matched to a global secondary
// index key of several attributes (GSI.DesignPattern.MultiAttributeKeys.html).
type MultiKeyCond struct {
	Partition []types.AttributeValue // one per partition attribute, in schema order
	// SortEq holds the equalities on the first sort attributes, in schema
	// order; Last, when SortOp is set, is the condition on the next one.
	SortEq []types.AttributeValue
	KeyCond
}

// MultiKeyCondition matches the KeyConditionExpression to a multi-attribute
// key schema: an equality on every partition attribute, then, on the sort
// attributes left to right without gaps, equalities and at most one other
// condition (<, <=, >, >=, BETWEEN, begins_with) on the last attribute
// used. The condition shapes are checked as KeyCondition checks them; the
// caller checks the values' types. The service documents no wording for
// the new shapes, so a missing or skipped attribute and a condition after
// the range condition reuse its single-key messages.
func (c *Compiled) MultiKeyCondition(hashKeys, rangeKeys []string) (*MultiKeyCond, error) {
	leaves, err := c.keyLeaves(nil)
	if err != nil {
		return nil, err
	}
	byName := map[string]keyLeaf{}
	for _, kl := range leaves {
		byName[kl.name] = kl
	}
	if keys := len(hashKeys) + len(rangeKeys); len(byName) > keys {
		return nil, validation("The number of query conditions (" + strconv.Itoa(len(byName)) +
			") exceeds the number of key attributes defined in the schema (" + strconv.Itoa(keys) + ")")
	}
	kc := &MultiKeyCond{}
	for _, n := range hashKeys {
		l, ok := byName[n]
		if !ok {
			return nil, validation("Query condition missed key schema element: " + n)
		}
		if l.op != "EQ" {
			return nil, validation("Query key condition not supported")
		}
		kc.Partition = append(kc.Partition, l.vals[0])
		delete(byName, n)
	}
	kc.PartitionName = hashKeys[0]
	for i, n := range rangeKeys {
		l, ok := byName[n]
		if !ok {
			// A later sort attribute with a condition is a gap.
			for _, later := range rangeKeys[i+1:] {
				if _, ok := byName[later]; ok {
					return nil, validation("Query condition missed key schema element: " + n)
				}
			}
			break
		}
		delete(byName, n)
		if kc.SortOp != "" {
			// A condition after the range condition.
			return nil, validation("Query key condition not supported")
		}
		if l.op == "EQ" && i < len(rangeKeys)-1 {
			if _, next := byName[rangeKeys[i+1]]; next {
				kc.SortEq = append(kc.SortEq, l.vals[0])
				continue
			}
		}
		kc.SortName, kc.SortOp = n, l.op
		kc.Sort = append([]types.AttributeValue(nil), l.vals[:l.nvals]...)
	}
	for n := range byName {
		// A condition on an attribute that is no key of the index.
		return nil, validation("Query condition missed key schema element: " + firstMissing(rangeKeys, n))
	}
	return kc, nil
}

// firstMissing names the key attribute a stray condition on name stands
// for: the first sort attribute, or name itself without a sort key.
func firstMissing(rangeKeys []string, name string) string {
	if len(rangeKeys) > 0 {
		return rangeKeys[0]
	}
	return name
}
