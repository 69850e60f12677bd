package disk_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dynamogo/dynamo/local/storage"
	"github.com/dynamogo/dynamo/local/storage/disk"
)

const childEnv = "DISK_TEST_KILL_CHILD_DIR"

// A child process writes from several goroutines, printing each key once its
// Put has returned, and is killed with SIGKILL mid-stream (compactions
// included). Every key it printed must be in the directory afterwards.
func TestKillDuringWrites(t *testing.T) {
	if dir := os.Getenv(childEnv); dir != "" {
		killChild(dir)
		return
	}
	if testing.Short() {
		t.Skip("starts a child process")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillDuringWrites$")
	cmd.Env = append(os.Environ(), childEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	must(t, err)
	must(t, cmd.Start())
	timer := time.AfterFunc(20*time.Second, func() { cmd.Process.Kill() })
	defer timer.Stop()
	acked := map[string]bool{}
	sc := bufio.NewScanner(out)
	for sc.Scan() && len(acked) < 300 {
		acked[sc.Text()] = true
	}
	cmd.Process.Kill()
	cmd.Wait()
	if len(acked) < 300 {
		t.Fatalf("child acknowledged only %d writes", len(acked))
	}
	e := open(t, dir)
	defer e.Close()
	for k := range acked {
		var w, i int
		fmt.Sscanf(k, "%d/%d", &w, &i)
		if w == 3 && i%3 == 1 {
			continue // deleted by the next batch, which may have been acknowledged
		}
		if _, ok, err := coll(t, e, fmt.Sprint("w", w)).Get([]byte(k)); err != nil || !ok {
			t.Fatalf("acknowledged write %s lost (%v)", k, err)
		}
	}
	// Batches are all or nothing: the two collections writer 3 batched
	// into hold the same keys, whatever the kill cut.
	if a, b := contents(t, coll(t, e, "w3")), contents(t, coll(t, e, "w3x")); !slices.Equal(a, b) {
		t.Fatalf("batched collections differ after the kill: %d keys vs %d", len(a), len(b))
	}
}

func killChild(dir string) {
	e, err := disk.Open(dir, quiet, disk.WithCompactThreshold(4<<10))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var mu sync.Mutex
	for w := range 4 {
		go func() {
			c, _ := e.Collection(fmt.Sprint("w", w))
			x, _ := e.Collection(fmt.Sprint("w", w, "x"))
			for i := 0; ; i++ {
				k := fmt.Sprintf("%d/%d", w, i)
				var err error
				if w == 3 {
					// Writer 3 writes batches: the key in w3 and w3x, and
					// every third batch deletes an earlier key from both.
					ops := []storage.Op{storage.Put(c, []byte(k), item(k)), storage.Put(x, []byte(k), item(k))}
					if i%3 == 2 {
						old := []byte(fmt.Sprintf("%d/%d", w, i-1))
						ops = append(ops, storage.Delete(c, old), storage.Delete(x, old))
					}
					err = e.Apply(ops)
				} else {
					_, _, err = c.Put([]byte(k), item(k))
				}
				if err != nil {
					os.Exit(3)
				}
				mu.Lock()
				fmt.Println(k)
				mu.Unlock()
			}
		}()
	}
	time.Sleep(30 * time.Second) // the parent kills us long before
	os.Exit(4)
}
