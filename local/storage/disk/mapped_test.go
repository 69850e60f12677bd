package disk_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dynamogo/dynamo/local/storage"
	"github.com/dynamogo/dynamo/local/storage/disk"
)

// Open reads the same items whether it maps the files (and reads them
// through one buffer) or reads them into blocks: puts, updates, deletes,
// drops and batches of several collections, items of every size up to
// records longer than the buffer, in a snapshot and the logs after it.
func TestReadMappedMatchesBlocks(t *testing.T) {
	dir := t.TempDir()
	opts := []disk.Option{disk.WithSyncMode(disk.SyncPeriodic), disk.WithCompactThreshold(1 << 40)}
	r := rand.New(rand.NewPCG(31, 32))
	names := []string{"a", "b", "c"}
	value := func(i int) storage.Value {
		n := r.IntN(400)
		switch r.IntN(200) {
		case 0:
			n = 100<<10 + r.IntN(300<<10) // a batch of several is longer than the buffer
		case 1:
			n = r.IntN(5)
		}
		return item(fmt.Sprintf("%d:%s", i, strings.Repeat("v", n)))
	}
	e := open(t, dir, opts...)
	write := func(n int) {
		for i := range n {
			c := coll(t, e, names[r.IntN(len(names))])
			k := fmt.Appendf(nil, "k%05d", r.IntN(4000))
			switch x := r.IntN(100); {
			case x == 0:
				var ops []storage.Op
				for j := range 1 + r.IntN(12) {
					c := coll(t, e, names[r.IntN(len(names))])
					k := fmt.Appendf(nil, "k%05d", r.IntN(4000))
					if j%5 == 4 {
						ops = append(ops, storage.Op{Coll: c, Key: k})
					} else {
						ops = append(ops, storage.Put(c, k, value(i*100+j)))
					}
				}
				must(t, e.Apply(ops))
			case x < 20:
				_, _, err := c.Delete(k)
				must(t, err)
			default:
				_, _, err := c.Put(k, value(i))
				must(t, err)
			}
		}
	}
	write(6000)
	big := strings.Repeat("x", 300<<10)
	must(t, e.Apply([]storage.Op{ // one record longer than the buffer
		storage.Put(coll(t, e, "a"), []byte("big1"), item(big)),
		storage.Put(coll(t, e, "b"), []byte("big2"), item(big)),
	}))
	must(t, e.Drop("c")) // and written again after
	write(2000)
	must(t, e.Compact())
	write(6000)
	must(t, e.Close())

	read := func(opts ...disk.Option) map[string][]string {
		e := open(t, dir, opts...)
		defer e.Close()
		got := map[string][]string{}
		for _, name := range names {
			c := coll(t, e, name)
			must(t, c.Ascend(nil, nil, func(k []byte, v storage.Value) bool {
				got[name] = append(got[name], fmt.Sprintf("%s=%d:%x", k, v.Size(), v.Encoded()))
				return true
			}))
		}
		return got
	}
	mapped, blocks := read(), read(disk.WithoutMapping())
	for _, name := range names {
		if len(mapped[name]) == 0 || !slices.Equal(mapped[name], blocks[name]) {
			t.Fatalf("collection %s: %d items mapped, %d read into blocks, or they differ", name, len(mapped[name]), len(blocks[name]))
		}
	}
}
