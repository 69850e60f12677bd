// Package testdir gives tests that run the go command a working directory
// that is the same on every run of a checkout, so the go build cache finds
// what they compiled last time (a package's compile depends on its
// directory). A directory in use by another run is never shared: that run
// gets a temporary directory and compiles everything.
package testdir
