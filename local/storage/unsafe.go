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
