package storage

import "unsafe"

// unsafeBytes views a stored key as bytes without copying; Collection
// documents that callers must not keep or modify it.
func unsafeBytes(s string) []byte {
	if s == "" {
		return []byte{}
	}
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// unsafeString views b as a string without copying, for lookups and for
// keys the tree copies before it keeps them; b must not change meanwhile.
func unsafeString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}
