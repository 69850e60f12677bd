package prefault

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestSliceAdvisesHugePages checks that a prefaulted slice lies in a
// mapping advised to take transparent huge pages ("hg" in its flags),
// which nothing else in the process asks for.
func TestSliceAdvisesHugePages(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("no transparent huge pages here")
	}
	type entry struct {
		p    *byte
		a, b uint64
	}
	s := make([]entry, 3*hugePage/int(unsafe.Sizeof(entry{})))
	Slice(s)
	first := uintptr(unsafe.Pointer(&s[0]))
	last := uintptr(unsafe.Pointer(&s[len(s)-1]))
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	// A mapping's header line is "lo-hi perms ..."; its VmFlags line ends it.
	var lo, hi uint64
	flags := map[uintptr]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "VmFlags:"); ok {
			for _, p := range []uintptr{first, last} {
				if uint64(p) >= lo && uint64(p) < hi {
					flags[p] = rest
				}
			}
			continue
		}
		field, _, _ := strings.Cut(line, " ")
		if a, b, ok := strings.Cut(field, "-"); ok {
			l, err1 := strconv.ParseUint(a, 16, 64)
			h, err2 := strconv.ParseUint(b, 16, 64)
			if err1 == nil && err2 == nil {
				lo, hi = l, h
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []uintptr{first, last} {
		fl, ok := flags[p]
		if !ok {
			t.Fatalf("no mapping in smaps holds %#x", p)
		}
		if !strings.Contains(" "+fl+" ", " hg ") {
			t.Errorf("the mapping holding %#x has flags %q, without hg", p, fl)
		}
	}
	for i := range s { // the slice is still the zeros it was made as
		if s[i] != (entry{}) {
			t.Fatalf("entry %d is %+v after prefault", i, s[i])
		}
	}
}
