package local

// SetShardMaxRecords lowers how many records a stream shard takes before a
// child opens, for a test; it returns the function restoring the default.
func SetShardMaxRecords(n int) (restore func()) {
	old := shardMaxRecords
	shardMaxRecords = n
	return func() { shardMaxRecords = old }
}

// SetStreamMaxRecords lowers the cap on a stream's records, for a test; it
// returns the function restoring the default.
func SetStreamMaxRecords(n int) (restore func()) {
	old := streamMaxRecords
	streamMaxRecords = n
	return func() { streamMaxRecords = old }
}

// StoredStreamRecords is how many records (and shard descriptors) the
// engine holds for a stream, for tests of trimming.
func StoredStreamRecords(s *Server, arn string) int {
	s.streams.mu.Lock()
	st := s.streams.byArn[arn]
	s.streams.mu.Unlock()
	st.mu.RLock()
	defer st.mu.RUnlock()
	return st.coll.Len()
}

// WithSweepHook calls swept on the sweeper's goroutine after each periodic
// sweep, with the number of items it deleted.
func WithSweepHook(swept func(n int)) Option {
	return func(s *Server) { s.sweep.swept = swept }
}

// StoredHistory is how many point-in-time history entries the engine holds
// for a table, for tests of trimming.
func StoredHistory(s *Server, table string) int {
	t, err := s.readTable(nil, table)
	if err != nil {
		return -1
	}
	defer t.mu.RUnlock()
	if t.history == nil {
		return 0
	}
	return t.history.coll.Len()
}
