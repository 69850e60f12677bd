package local

// WithSweepHook calls swept on the sweeper's goroutine after each periodic
// sweep, with the number of items it deleted.
func WithSweepHook(swept func(n int)) Option {
	return func(s *Server) { s.sweep.swept = swept }
}
