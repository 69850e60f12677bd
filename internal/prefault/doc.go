// Package prefault prepares memory that is about to be filled at once, as
// a durable restart fills its tree and its buffers: it asks the system for
// transparent huge pages over the memory and maps it in, in two calls,
// rather than taking a page fault on each 4 KB as it is first written.
//
// On Linux this is madvise with MADV_HUGEPAGE over the 2 MB blocks the
// memory touches, then MADV_POPULATE_WRITE over its pages. A first touch is
// what filling fresh memory costs most: on a virtual machine each new 4 KB
// page costs an exit to the hypervisor even once mapped (24 MB mapped in
// and written: 30–40 ms in 4 KB pages, 2–5 ms in huge ones, 45 ms when the
// kernel must first compact memory to find them), and a huge page is also
// one TLB entry for 512 pages when the memory is then read out of order.
// The blocks at either end may hold other objects of the heap; the advice
// only changes how memory not yet touched is backed. Kernels without
// either call refuse it, and the pages fault in as written; where
// transparent huge pages are off, the advice does nothing. Elsewhere
// Slice does nothing.
package prefault

import "unsafe"

// Slice prepares the backing array of s, up to its capacity, for being
// filled. It does not change what s holds.
func Slice[T any](s []T) {
	if cap(s) == 0 {
		return
	}
	var zero T
	region(unsafe.Pointer(unsafe.SliceData(s)), uintptr(cap(s))*unsafe.Sizeof(zero))
}
