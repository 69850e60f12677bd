//go:build unix

package disk_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The data directory and every file in it are created owner-only.
func TestFileModes(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	parent := t.TempDir()
	dir := filepath.Join(parent, "a", "data")
	e := open(t, dir)
	writeSome(t, e, "x")
	must(t, e.Compact())
	writeSome(t, e, "y")
	must(t, e.Close())
	log := must2(os.ReadFile(filepath.Join(dir, "wal.2")))
	must(t, os.WriteFile(filepath.Join(dir, "wal.2"), append(log, 1, 0, 0, 0, 9, 9, 9, 9, 7), 0o600)) // a torn tail, kept aside
	must(t, open(t, dir).Close())
	for _, d := range []string{filepath.Join(parent, "a"), dir} {
		if st := must2(os.Stat(d)); st.Mode().Perm() != 0o700 {
			t.Errorf("%s: mode %v, want 0700", d, st.Mode().Perm())
		}
	}
	var names []string
	for _, ent := range must2(os.ReadDir(dir)) {
		names = append(names, ent.Name())
		if st := must2(ent.Info()); st.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", ent.Name(), st.Mode().Perm())
		}
	}
	if len(names) != 5 || !strings.HasPrefix(names[4], "wal.2.torn-") {
		t.Fatalf("files %v", names)
	}
}
