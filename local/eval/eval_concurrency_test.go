package eval

import (
	"sync"
	"testing"
)

// A Compiled is shared by every item of a Query or Scan: it must be safe
// for concurrent use (run with -race).
func TestConcurrentUse(t *testing.T) {
	c, err := Compile(Input{
		Filter:     str("n > :v AND contains(tags, :t)"),
		Update:     str("SET n = n + :one, m.a = :v REMOVE l[0]"),
		Projection: str("n, m.a, l[1]"),
		Values:     vals{":v": nv("1"), ":t": sv("a"), ":one": nv("1")},
	})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				item := sampleItem()
				if ok, _ := c.Filter(item); !ok {
					t.Error("filter false")
					return
				}
				if _, _, err := c.Update(item, nil); err != nil {
					t.Error(err)
					return
				}
				c.Project(item)
				c.UpdatedAttributes(item)
			}
		}()
	}
	wg.Wait()
}
