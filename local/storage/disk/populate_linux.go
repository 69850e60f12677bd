package disk

import "syscall"

// populate asks mmap to fault the whole mapping in when it is made.
const populate = syscall.MAP_POPULATE
