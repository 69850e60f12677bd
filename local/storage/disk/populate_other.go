//go:build unix && !linux

package disk

// populate is 0 where mmap has no MAP_POPULATE: pages fault in as read.
const populate = 0
