package disk_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dynamogo/dynamo/local/storage"
	"github.com/dynamogo/dynamo/local/storage/disk"
)

// residentKB is how much of the mappings of dir's files is in this
// process's page tables (/proc/self/smaps Rss): pages it touched.
func residentKB(t *testing.T, dir string) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	// smaps names a mapped file by its path with symbolic links resolved.
	dir, err = filepath.EvalSymlinks(dir)
	must(t, err)
	kb, in, mappings := 0, false, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) >= 5 && !strings.HasSuffix(fields[0], ":"): // a mapping's first line
			in = len(fields) >= 6 && strings.HasPrefix(fields[5], dir+string(filepath.Separator))
			if in {
				mappings++
			}
		case in && len(fields) == 3 && fields[0] == "Rss:":
			n, err := strconv.Atoi(fields[1])
			must(t, err)
			kb += n
		}
	}
	must(t, sc.Err())
	if mappings == 0 {
		t.Fatalf("no mapping of the files in %s", dir)
	}
	return kb
}

// A restart whose logs only put keys after every key stored before (in
// the snapshot or earlier in the log) never reads a stored key or item:
// Open checks each record where it read it, and leaves the files' mappings
// untouched, until a Get reads an item.
func TestRestartAppendsOnlyAfterEveryKey(t *testing.T) {
	dir := t.TempDir()
	opts := []disk.Option{disk.WithSyncMode(disk.SyncPeriodic), disk.WithCompactThreshold(1 << 40)}
	e := open(t, dir, opts...)
	value := func(i int) storage.Value { return item(fmt.Sprintf("%d%s", i, strings.Repeat("v", 100+i%200))) }
	const n = 30000
	a, b := coll(t, e, "a"), coll(t, e, "b")
	for i := range n {
		if i == n/2 {
			must(t, e.Compact())
		}
		k := fmt.Appendf(nil, "k%06d", i)
		if i%10 == 0 {
			must(t, e.Apply([]storage.Op{storage.Put(a, k, value(i)), storage.Put(b, k, value(i+1))}))
			continue
		}
		_, _, err := a.Put(k, value(i))
		must(t, err)
	}
	must(t, e.Close())

	e = open(t, dir, opts...)
	defer e.Close()
	if kb := residentKB(t, dir); kb != 0 {
		t.Fatalf("Open touched %d KB of the files' mappings", kb)
	}
	a = coll(t, e, "a")
	for _, i := range []int{0, n / 2, n - 1} {
		got, ok, err := a.Get(fmt.Appendf(nil, "k%06d", i))
		must(t, err)
		if !ok || val(got) != val(value(i)) {
			t.Fatalf("item %d is not what was written", i)
		}
	}
	if a.Len() != n || coll(t, e, "b").Len() != n/10 {
		t.Fatalf("%d and %d items", a.Len(), coll(t, e, "b").Len())
	}
	if kb := residentKB(t, dir); kb == 0 {
		t.Fatal("reading items touched none of the mappings: the measure cannot see a touch")
	}
}
