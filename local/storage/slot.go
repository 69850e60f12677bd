package storage

// The btree's side of Finder: a lookup that says where it found its key,
// and the replacement of the value found there. (Kept apart from btree.go,
// whose layout they only read.)

// lookup returns the node and index of key's entry, or a nil node if key
// is absent.
func (t *btree) lookup(key string) (*node, int) {
	for n := t.root; n != nil; {
		i, found := n.find(key)
		if found {
			return n, i
		}
		if len(n.children) == 0 {
			return nil, 0
		}
		n = n.children[i]
	}
	return nil, 0
}

// replaceAt stores a copy of key and v in entry i of n, which holds key,
// and returns the Value it held. The tree's shape does not change.
func (t *btree) replaceAt(n *node, i int, key string, v Value) Value {
	old := n.items[i].value()
	n.items[i] = newEntry(key, v)
	t.size += int64(v.size) - int64(old.size)
	return old
}
