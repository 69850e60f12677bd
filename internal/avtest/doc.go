// Package avtest builds attribute values tersely, for tests: the one set of
// S, N, B, … helpers every package's tests use.
package avtest
