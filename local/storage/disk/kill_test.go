package disk_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

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
		if _, ok, err := coll(t, e, fmt.Sprint("w", w)).Get([]byte(k)); err != nil || !ok {
			t.Fatalf("acknowledged write %s lost (%v)", k, err)
		}
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
			for i := 0; ; i++ {
				k := fmt.Sprintf("%d/%d", w, i)
				if _, _, err := c.Put([]byte(k), item(k)); err != nil {
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
