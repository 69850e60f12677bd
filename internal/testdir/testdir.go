// Package testdir gives tests that run the go command a working directory
// that is the same on every run of a checkout, so the go build cache finds
// what they compiled last time (a package's compile depends on its
// directory). A directory in use by another run is never shared: that run
// gets a temporary directory and compiles everything.
package testdir

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Stable returns the directory named after name and the checkout holding
// the calling package's source, emptied except for the entries in keep
// (for example a binary go build can leave alone when it is up to date).
// It stays locked until the test ends.
func Stable(t testing.TB, name string, keep ...string) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("%s-%x", name, sha256.Sum256([]byte(wd))))
	lock := dir + ".lock"
	if err := os.Mkdir(lock, 0o700); err != nil {
		t.Logf("%s is in use (or left by a run that was killed: remove it); using a temporary directory", lock)
		return t.TempDir()
	}
	t.Cleanup(func() { os.Remove(lock) })
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !slices.Contains(keep, e.Name()) {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}
