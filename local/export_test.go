package local

// SetShardMaxRecords lowers how many records a stream shard takes before a
// child opens, for a test; it returns the function restoring the default.
func SetShardMaxRecords(n int) (restore func()) {
	old := shardMaxRecords
	shardMaxRecords = n
	return func() { shardMaxRecords = old }
}
