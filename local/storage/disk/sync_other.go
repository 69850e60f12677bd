//go:build !linux

package disk

import "os"

// preallocMax is 0: without fdatasync, zeros written ahead of the records
// would save nothing, so the log grows with each write.
const preallocMax = 0

// datasyncFile is a full fsync here.
func datasyncFile(f *os.File) error { return f.Sync() }
