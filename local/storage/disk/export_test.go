package disk

// WithoutGroupCommit makes every write do its own write and fsync, holding
// the log lock throughout: the baseline the benchmarks compare group commit
// against.
func WithoutGroupCommit() Option { return func(o *options) { o.noGroup = true } }
