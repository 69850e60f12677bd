//go:build !unix

package local

// openFileLimit is a conservative guess where the limit cannot be read.
func openFileLimit() int { return 1024 }
