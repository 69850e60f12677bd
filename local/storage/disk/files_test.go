package disk_test

import (
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/dynamogo/dynamo/local/storage/disk"
)

// filledDir returns a data directory holding a snapshot (covering wal.1),
// wal.2 (kept by a compaction whose snapshot failed) and wal.3, with items
// in all three, and the items.
func filledDir(t *testing.T) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	fail := false
	e := open(t, dir, disk.WithFaults(func(op, name string) error {
		if fail && op == "open" && name == "snapshot.tmp" {
			return syscall.ENOSPC
		}
		return nil
	}))
	writeSome(t, e, "x")
	must(t, e.Compact())
	writeSome(t, e, "y")
	fail = true
	if err := e.Compact(); err == nil {
		t.Fatal("the second compaction did not fail")
	}
	writeSome(t, e, "z")
	want := contents(t, coll(t, e, "a"))
	must(t, e.Close())
	var names []string
	for _, ent := range must2(os.ReadDir(dir)) {
		names = append(names, ent.Name())
	}
	if w := []string{"LOCK", "MANIFEST", "snapshot", "wal.2", "wal.3"}; !slices.Equal(names, w) {
		t.Fatalf("files %v, want %v", names, w)
	}
	return dir, want
}

func must2[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// A data directory that lost a file (deleted by hand, or a wrong
// directory) is an error naming the file, never a smaller or empty
// database; the MANIFEST says which files must be there.
func TestMissingFileFailsOpen(t *testing.T) {
	filled, _ := filledDir(t)
	for _, tc := range []struct {
		remove []string
		want   string // in the error
	}{
		{[]string{"snapshot"}, "snapshot is missing"},
		{[]string{"wal.2"}, "wal.2 is missing"},
		{[]string{"wal.3"}, "wal.3 is missing"},
		{[]string{"snapshot", "wal.2", "wal.3"}, "snapshot is missing"},
		{[]string{"wal.2", "wal.3"}, "wal.2 is missing"},
		// Without the MANIFEST, the files still have to fit together.
		{[]string{"MANIFEST", "snapshot"}, "wal.1 is missing (or the snapshot covering the logs before wal.2)"},
		{[]string{"MANIFEST", "wal.2"}, "wal.2 is missing"},
		{[]string{"MANIFEST", "wal.3", "wal.2"}, "wal.2 is missing"},
	} {
		dir := copyDir(t, filled)
		for _, name := range tc.remove {
			must(t, os.Remove(filepath.Join(dir, name)))
		}
		_, err := disk.Open(dir, quiet)
		if !errors.Is(err, disk.ErrDamaged) || !strings.Contains(err.Error(), filepath.Join(dir, tc.want)) {
			t.Errorf("without %v: Open = %v, want ErrDamaged naming %s", tc.remove, err, tc.want)
		}
	}
}

// A directory written before there was a MANIFEST (or whose MANIFEST
// alone was deleted) whose files fit together is served, and gets one.
func TestDirectoryWithoutManifest(t *testing.T) {
	dir, want := filledDir(t)
	must(t, os.Remove(filepath.Join(dir, "MANIFEST")))
	var msgs logBuffer
	e := open(t, dir, disk.WithLogger(slog.New(slog.NewTextHandler(&msgs, nil))))
	if got := contents(t, coll(t, e, "a")); !slices.Equal(got, want) {
		t.Fatalf("a = %v, want %v", got, want)
	}
	must(t, e.Close())
	if !strings.Contains(msgs.String(), "no MANIFEST") {
		t.Fatalf("messages: %s", msgs.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "MANIFEST")); err != nil {
		t.Fatal(err)
	}
	must(t, os.Remove(filepath.Join(dir, "wal.3")))
	if _, err := disk.Open(dir, quiet); !errors.Is(err, disk.ErrDamaged) {
		t.Fatalf("after losing wal.3: %v", err)
	}
}

// Open initialises only a new or empty directory: one holding other files
// is not a data directory (a wrong path), and a damaged MANIFEST is damage.
func TestOpenWhichDirectories(t *testing.T) {
	root := t.TempDir()
	for _, dir := range []string{filepath.Join(root, "new", "data"), t.TempDir()} {
		e := open(t, dir)
		must(t, e.Close())
		e = open(t, dir) // and again, now that it holds data
		must(t, e.Close())
	}
	foreign := t.TempDir()
	must(t, os.WriteFile(filepath.Join(foreign, "notes.txt"), []byte("x"), 0o600))
	if _, err := disk.Open(foreign, quiet); err == nil || !strings.Contains(err.Error(), `"notes.txt"`) || !strings.Contains(err.Error(), "not a data directory") {
		t.Fatalf("Open of a directory of other files: %v", err)
	}
	if _, err := os.Stat(filepath.Join(foreign, "wal.1")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Open wrote into a directory of other files: %v", err)
	}
	dir, _ := filledDir(t)
	path := filepath.Join(dir, "MANIFEST")
	b := must2(os.ReadFile(path))
	must(t, os.WriteFile(path, []byte(strings.Replace(string(b), "log 3", "log 4", 1)), 0o600))
	if _, err := disk.Open(dir, quiet); !errors.Is(err, disk.ErrDamaged) || !strings.Contains(err.Error(), "MANIFEST: checksum mismatch") {
		t.Fatalf("Open with a damaged MANIFEST: %v", err)
	}
}
