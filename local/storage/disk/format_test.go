package disk

import (
	"encoding/binary"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/local/storage"
)

// format1 records, as the engine wrote them before items carried their
// size: a put is the collection, the key and the encoding.
func appendPut1(dst []byte, coll, key string, v storage.Value) []byte {
	dst, start := beginRecord(dst, opPut)
	dst = appendBytes(appendString(dst, coll), []byte(key))
	return finishRecord(append(dst, v.Encoded()...), start)
}

func appendBatch1(dst []byte, coll string, puts, deletes []string, v storage.Value) []byte {
	dst, start := beginRecord(dst, opBatch)
	dst = binary.AppendUvarint(dst, uint64(len(puts)+len(deletes)))
	for _, k := range puts {
		dst = appendBytes(appendString(append(dst, opPut), coll), []byte(k))
		dst = append(dst, v.Encoded()...)
	}
	for _, k := range deletes {
		dst = appendBytes(appendString(append(dst, opDelete), coll), []byte(k))
	}
	return finishRecord(dst, start)
}

func item1(s string) storage.Value {
	return storage.MustEncode(storage.Item{"v": &types.AttributeValueMemberS{Value: s}})
}

func keysOf(t *testing.T, e *Engine, name string) []string {
	t.Helper()
	c, err := e.Collection(name)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	c.Ascend(nil, nil, func(k []byte, v storage.Value) bool {
		it, err := v.Item()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(k)+"="+it["v"].(*types.AttributeValueMemberS).Value)
		return true
	})
	return out
}

// A data directory written in format1 (a snapshot and a log) opens with
// every item, checked as before; new writes go to a new log in the
// current format, never appended to the old one, and a compaction leaves
// only current files.
func TestOpensFormat1(t *testing.T) {
	dir := t.TempDir()
	snap := []byte("dynsnp01")
	snap = appendMeta(snap, "table/t", []byte("{}"))
	snap = appendPut1(snap, "t", "a", item1("a0"))
	snap = appendPut1(snap, "t", "b", item1("b0"))
	snap = appendEnd(snap, 3, 1)
	wal := []byte("dynwal01")
	wal = appendPut1(wal, "t", "c", item1("c0"))
	wal = appendBatch1(wal, "t", []string{"a", "d"}, []string{"b"}, item1("batch"))
	for name, b := range map[string][]byte{"snapshot": snap, "wal.2": wal} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"a=batch", "c=c0", "d=batch"}
	e, err := Open(dir, quietOpt)
	if err != nil {
		t.Fatal(err)
	}
	if got := keysOf(t, e, "t"); !slices.Equal(got, want) {
		t.Fatalf("format1 directory opens with %v, want %v", got, want)
	}
	c, _ := e.Collection("t")
	if _, _, err := c.Put([]byte("e"), item1("e1")); err != nil {
		t.Fatal(err)
	}
	want = append(want, "e=e1")
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if old, _ := os.ReadFile(filepath.Join(dir, "wal.2")); !slices.Equal(old, wal) {
		t.Fatal("the format1 log changed")
	}
	if head, _ := os.ReadFile(filepath.Join(dir, "wal.3")); !strings.HasPrefix(string(head), "dynwal02") {
		t.Fatalf("the new log starts %q", head[:min(8, len(head))])
	}
	for range 2 { // again, then after a compaction
		e, err = Open(dir, quietOpt)
		if err != nil {
			t.Fatal(err)
		}
		if got := keysOf(t, e, "t"); !slices.Equal(got, want) {
			t.Fatalf("reopened with %v, want %v", got, want)
		}
		if err := e.Compact(); err != nil {
			t.Fatal(err)
		}
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, n := range names {
		b, _ := os.ReadFile(n)
		if base := filepath.Base(n); (base == "snapshot" || strings.HasPrefix(base, "wal.")) && !strings.HasSuffix(string(b[:8]), "02") {
			t.Errorf("%s is still in format1 after a compaction", base)
		}
	}
}

// A file in a format this version does not know is refused, naming it.
func TestRefusesNewerFormat(t *testing.T) {
	for _, name := range []string{"wal.1", "snapshot"} {
		dir := t.TempDir()
		magic := "dynwal09"
		if name == "snapshot" {
			magic = "dynsnp09"
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(magic), 0o600); err != nil {
			t.Fatal(err)
		}
		if e, err := Open(dir, quietOpt); err == nil || !strings.Contains(err.Error(), "record format 9") {
			if e != nil {
				e.Close()
			}
			t.Fatalf("%s of format 9: %v", name, err)
		}
	}
}

var quietOpt = WithLogger(slog.New(slog.DiscardHandler))
