package disk

import (
	"bytes"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/local/storage"
)

// A failed log write breaks the engine: that write and every later call
// fail (memory may hold a change the disk does not), and reopening the
// directory recovers the durable state.
func TestWriteFailureBreaksEngine(t *testing.T) {
	dir := t.TempDir()
	quiet := WithLogger(slog.New(slog.DiscardHandler))
	e, err := Open(dir, quiet)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := e.Collection("c")
	item := storage.MustEncode(storage.Item{"v": &types.AttributeValueMemberS{Value: "x"}})
	if _, _, err := c.Put([]byte("ok"), item); err != nil {
		t.Fatal(err)
	}
	e.file.Close() // the disk goes away
	if _, _, err := c.Put([]byte("lost"), item); err == nil || !strings.Contains(err.Error(), "reopen") {
		t.Fatalf("Put on a failed log: %v", err)
	}
	if _, _, err := c.Get([]byte("ok")); err == nil {
		t.Fatal("Get on a broken engine succeeded")
	}
	if err := e.PutMeta("k", []byte("v")); err == nil {
		t.Fatal("PutMeta on a broken engine succeeded")
	}
	if err := e.Close(); err == nil {
		t.Fatal("Close of a broken engine reported success")
	}
	e, err = Open(dir, quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	c, _ = e.Collection("c")
	if _, ok, _ := c.Get([]byte("ok")); !ok {
		t.Fatal("acknowledged write lost")
	}
	if _, ok, _ := c.Get([]byte("lost")); ok {
		t.Fatal("failed write came back")
	}
}

func FuzzDecodeRecord(f *testing.F) {
	put, _ := appendPut(nil, "t/x", []byte("k\x00"), storage.MustEncode(storage.Item{
		"m": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
			"l":  &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberN{Value: "1"}}},
			"bs": &types.AttributeValueMemberBS{Value: [][]byte{{1}}},
			"ss": &types.AttributeValueMemberSS{Value: []string{"a"}},
			"b":  &types.AttributeValueMemberBOOL{Value: true},
			"n":  &types.AttributeValueMemberNULL{Value: true},
		}},
	}))
	batch, _ := appendBatch(nil, []string{"t", "t/ix"}, []storage.Op{
		{Key: []byte("k"), Value: storage.MustEncode(storage.Item{"a": &types.AttributeValueMemberS{Value: "v"}})},
		{Key: []byte("old\x00")},
	})
	for _, rec := range [][]byte{put, batch, appendDelete(nil, "c", []byte("k")), appendDrop(nil, "c"), appendMeta(nil, "k", []byte("v")), appendMeta(nil, "k", nil), appendEnd(nil, 3, 7)} {
		f.Add(rec[frameHeader:])
	}
	long, _ := appendPut(nil, strings.Repeat("c", 200), []byte(strings.Repeat("k", 300)), storage.MustEncode(storage.Item{"a": &types.AttributeValueMemberS{Value: strings.Repeat("v", 20000)}}))
	f.Add(long[frameHeader:])                                                                                    // varints of two and three bytes
	f.Add([]byte{opPut, 1, 'c', 0x82, 0x00, 1, 1, 'k', 0})                                                       // a varint of more bytes than it needs
	f.Add([]byte{opPut, 1, 'c', 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 1, 1, 'k', 0}) // a varint past 64 bits
	f.Fuzz(func(t *testing.T, payload []byte) {
		for _, form := range []format{format1, format2} {
			checkKept(t, payload, form)
		}
		r, err := decodeRecord(payload, format2, nil)
		if err == nil && r.op == opBatch {
			checkBatchRoundTrip(t, r)
		}
		if err != nil || r.op != opPut {
			return
		}
		// What decodes re-encodes, and that decodes to a record of the same
		// encoded size (the input itself may use non-minimal varints).
		again, err := appendPut(nil, r.coll, r.key, r.item)
		if err != nil {
			t.Fatalf("decoded item does not re-encode: %v", err)
		}
		r2, err := decodeRecord(again[frameHeader:], format2, nil)
		if err != nil {
			t.Fatalf("re-encoded record does not decode: %v", err)
		}
		third, _ := appendPut(nil, r2.coll, r2.key, r2.item)
		if len(third) != len(again) {
			t.Fatalf("round trip changed the record: %d then %d bytes", len(again), len(third))
		}
	})
}

// checkKept decodes payload as read with its bytes kept elsewhere, as a
// mapped file is: the outcome is decoding the kept bytes', and the puts'
// kv and items alias the kept bytes.
func checkKept(t *testing.T, payload []byte, form format) {
	t.Helper()
	kept := bytes.Clone(payload)
	want, werr := decodeRecord(kept, form, nil)
	var got record
	err := decodeKept(&got, payload, kept, form, nil)
	if (err == nil) != (werr == nil) {
		t.Fatalf("format%d: decoding as kept: %v; decoding the kept bytes: %v", form, err, werr)
	}
	var fast record
	if ok := form == format2 && decodePut(&fast, payload, kept, nil); form == format2 && ok != (err == nil && got.op == opPut) {
		t.Fatalf("decodePut says %v; decodeKept decodes op %d, %v", ok, got.op, err)
	} else if ok && (fast.coll != got.coll || string(fast.key) != string(got.key) || unsafe.SliceData(fast.kv) != unsafe.SliceData(got.kv) ||
		len(fast.kv) != len(got.kv) || fast.item != got.item || unsafe.StringData(fast.item.Encoded()) != unsafe.StringData(got.item.Encoded())) {
		t.Fatal("decodePut decodes another put than decodeKept")
	}
	if err != nil {
		return
	}
	puts := []batchOp{{coll: got.coll, key: got.key, kv: got.kv, item: got.item}}
	wants := []batchOp{{coll: want.coll, key: want.key, kv: want.kv, item: want.item}}
	if got.op == opBatch {
		puts, wants = got.ops, want.ops
	} else if got.op != opPut {
		return
	}
	inKept := func(b []byte) bool {
		p, k := uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(unsafe.Pointer(unsafe.SliceData(kept)))
		return p >= k && p+uintptr(len(b)) <= k+uintptr(len(kept))
	}
	for i, p := range puts {
		w := wants[i]
		if p.coll != w.coll || string(p.key) != string(w.key) || p.item.Encoded() != w.item.Encoded() || p.item.Size() != w.item.Size() {
			t.Fatalf("format%d op %d: decoded as kept differently", form, i)
		}
		if p.item.IsZero() {
			continue
		}
		if string(p.kv) != string(w.kv) || !inKept(p.kv) || string(p.kv[:len(p.key)]) != string(p.key) {
			t.Fatalf("format%d op %d: the key and item are not where they are kept", form, i)
		}
		if enc := p.item.Encoded(); form == format2 && !inKept(unsafe.Slice(unsafe.StringData(enc), len(enc))) {
			t.Fatalf("format%d op %d: the item is not where it is kept", form, i)
		}
	}
}

// checkBatchRoundTrip re-encodes a decoded batch and decodes it again: the
// same ops, in order.
func checkBatchRoundTrip(t *testing.T, r record) {
	t.Helper()
	names := make([]string, len(r.ops))
	ops := make([]storage.Op, len(r.ops))
	for i, op := range r.ops {
		names[i], ops[i] = op.coll, storage.Op{Key: op.key, Value: op.item}
	}
	again, err := appendBatch(nil, names, ops)
	if err != nil {
		t.Fatalf("decoded batch does not re-encode: %v", err)
	}
	r2, err := decodeRecord(again[frameHeader:], format2, nil)
	if err != nil || r2.op != opBatch || len(r2.ops) != len(r.ops) {
		t.Fatalf("re-encoded batch decodes to %d ops, %v; want %d", len(r2.ops), err, len(r.ops))
	}
	for i := range r.ops {
		a, b := r.ops[i], r2.ops[i]
		if a.coll != b.coll || string(a.key) != string(b.key) || a.item != b.item {
			t.Fatalf("op %d changed in the round trip: %+v then %+v", i, a, b)
		}
	}
}

func TestBatchRecordRoundTrip(t *testing.T) {
	rec, err := appendBatch(nil, []string{"a", "b", "a"}, []storage.Op{
		{Key: []byte("k1"), Value: storage.MustEncode(storage.Item{"v": &types.AttributeValueMemberN{Value: "1"}})},
		{Key: []byte{}},
		{Key: []byte("k\x00"), Value: storage.MustEncode(storage.Item{})},
	})
	if err != nil {
		t.Fatal(err)
	}
	r, err := decodeRecord(rec[frameHeader:], format2, nil)
	if err != nil || r.op != opBatch || len(r.ops) != 3 {
		t.Fatalf("decoded %+v, %v", r, err)
	}
	if !r.ops[1].item.IsZero() || r.ops[2].item.IsZero() || r.ops[2].coll != "a" || string(r.ops[2].key) != "k\x00" {
		t.Fatalf("ops %+v", r.ops)
	}
	checkBatchRoundTrip(t, r)
	// A batch op that is not a put or delete is damage.
	bad := append([]byte(nil), rec[frameHeader:]...)
	bad[2] = opDrop
	if _, err := decodeRecord(bad, format2, nil); err == nil {
		t.Fatal("a batch holding a drop decoded")
	}
}

// Records whose fields do not fit together are damage, in either format.
// A format1 item is checked as storage.ReadValue checks it; a format2 item
// is taken as its checksum vouches, so only its lengths are checked.
func TestDecodeRejects(t *testing.T) {
	deep := []byte{opPut, 1, 'c', 0, 1, 1, 'a'}
	for range 64 + 2 { // deeper than storage's limit
		deep = append(deep, 'L', 1)
	}
	deep = append(deep, '0')
	cases := map[string][]byte{
		"empty":      {},
		"unknown op": {99},
		"short":      {opPut, 5, 'a'},
		"huge count": {opPut, 1, 'c', 0, 0xff, 0xff, 0xff, 0xff, 0x0f},
		"bad tag":    {opPut, 1, 'c', 0, 1, 1, 'a', 'Z'},
		"stray":      {opDrop, 1, 'c', 0},
		"too deep":   deep,
	}
	for name, b := range cases {
		if _, err := decodeRecord(b, format1, nil); err == nil {
			t.Errorf("format1 %s: decoded", name)
		}
	}
	good, _ := appendPut(nil, "c", []byte("k"), storage.MustEncode(storage.Item{"a": &types.AttributeValueMemberS{Value: "v"}}))
	good = good[frameHeader:]
	if r, err := decodeRecord(good, format2, nil); err != nil || r.coll != "c" || string(r.key) != "k" || r.item.Size() != 2 {
		t.Fatalf("format2 put decodes to %+v, %v", r, err)
	}
	cases = map[string][]byte{
		"empty":        {},
		"unknown op":   {99},
		"short":        {opPut, 1, 'c', 2, 5, 1, 'k', 1},
		"empty item":   {opPut, 1, 'c', 0, 0, 1, 'k'},
		"huge size":    {opPut, 1, 'c', 0xff, 0xff, 0xff, 0xff, 0x0f, 1, 1, 'k', 0},
		"huge length":  {opPut, 1, 'c', 2, 0xff, 0xff, 0xff, 0xff, 0x0f, 1, 'k', 0},
		"stray":        append(append([]byte{}, good...), 0),
		"cut short":    good[:len(good)-1],
		"batch of one": {opBatch, 1, opPut, 1, 'c', 2, 5, 1, 'k', 1},
	}
	for name, b := range cases {
		if _, err := decodeRecord(b, format2, nil); err == nil {
			t.Errorf("format2 %s: decoded", name)
		}
	}
}

// syncFS counts the log's full fsyncs and its data-only ones.
type syncFS struct {
	osFS
	full, data *int
}

func (fs syncFS) OpenFile(name string, flag int, perm os.FileMode) (file, error) {
	f, err := fs.osFS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return syncFile{f, fs}, nil
}

type syncFile struct {
	file
	fs syncFS
}

func (f syncFile) Sync() error     { *f.fs.full++; return f.file.Sync() }
func (f syncFile) Datasync() error { *f.fs.data++; return datasync(f.file) }

// Where the platform preallocates, a write over the zeros ahead of the
// records syncs only its data, and a write past them (the file grows) is a
// full fsync, which makes the new size durable; a crash then recovers
// every write. Elsewhere every sync is a full one.
func TestAppendsOverZerosSyncOnlyData(t *testing.T) {
	dir := t.TempDir()
	var full, data int
	e, err := Open(dir, WithLogger(slog.New(slog.DiscardHandler)), func(o *options) { o.fs = syncFS{full: &full, data: &data} })
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	c, _ := e.Collection("c")
	item := storage.MustEncode(storage.Item{"v": &types.AttributeValueMemberS{Value: strings.Repeat("x", 1000)}})
	full = 0
	writes := 0
	for e.Stats().LogBytes < 200<<10 { // past the first two preallocations
		if _, _, err := c.Put(fmt.Appendf(nil, "%04d", writes), item); err != nil {
			t.Fatal(err)
		}
		writes++
	}
	// 64 KiB ahead at the first write, then as much as the log holds: the
	// full fsyncs are the first write's and one per growth.
	if want := 3; preallocMax > 0 && (full != want || data != writes-want) {
		t.Fatalf("%d writes: %d full fsyncs and %d fdatasyncs, want %d and %d", writes, full, data, want, writes-want)
	}
	if preallocMax == 0 && (full != writes || data != 0) {
		t.Fatalf("%d writes: %d full fsyncs and %d fdatasyncs, want %d and none", writes, full, data, writes)
	}
	crash := t.TempDir()
	for _, name := range []string{"wal.1", manifestName} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(crash, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	e2, err := Open(crash, WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	if c2, _ := e2.Collection("c"); c2.Len() != writes {
		t.Fatalf("a crash kept %d of %d writes", c2.Len(), writes)
	}
}

// snapshotCovers finds the trailer of every snapshot a compaction writes,
// whatever the lengths of its counts, and nothing in a snapshot whose end
// is cut off or damaged.
func TestSnapshotCovers(t *testing.T) {
	dir := t.TempDir()
	e, err := Open(dir, WithSyncMode(SyncPeriodic), WithCompactThreshold(1<<40))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	c, _ := e.Collection("c")
	for round := range 140 { // counts and generations of one and two uvarint bytes
		if _, _, err := c.Put([]byte(fmt.Sprint(round)), storage.MustEncode(storage.Item{})); err != nil {
			t.Fatal(err)
		}
		if err := e.Compact(); err != nil {
			t.Fatal(err)
		}
		if gen, ok := e.snapshotCovers(); !ok || gen != e.snapGen {
			t.Fatalf("round %d: snapshotCovers = %d, %v; the snapshot covers wal.%d", round, gen, ok, e.snapGen)
		}
	}
	path := filepath.Join(dir, snapshotName)
	whole, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, damage := range []func([]byte) []byte{
		func(b []byte) []byte { return b[:len(b)-1] },                                   // cut
		func(b []byte) []byte { b[len(b)-1] ^= 1; return b },                            // a bit flipped
		func(b []byte) []byte { return append(b, 0) },                                   // a byte after
		func(b []byte) []byte { return b[:len(snapshotMagic)+2] },                       // the records gone
		func(b []byte) []byte { return append(b[:len(b)-5:len(b)-5], b[len(b)-4:]...) }, // a byte of it gone
	} {
		if err := os.WriteFile(path, damage(slices.Clone(whole)), 0o600); err != nil {
			t.Fatal(err)
		}
		if gen, ok := e.snapshotCovers(); ok {
			t.Errorf("a damaged snapshot's trailer read as covering wal.%d", gen)
		}
	}
}

// sortByPrefix orders writes as sorting their integers does, given them
// in index order: by prefix, then index.
func TestSortByPrefix(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	var scratch []uint64
	for _, n := range []int{0, 1, 2, 3, 100, 5000} {
		for _, prefixes := range []uint32{1, 7, 1 << 8, 1 << 16, math.MaxUint32} {
			a := make([]uint64, n)
			for i := range a {
				a[i] = uint64(r.Uint32N(prefixes)+r.Uint32N(2)<<31)<<32 | uint64(i)
			}
			want := slices.Clone(a)
			slices.Sort(want)
			scratch = sortByPrefix(a, scratch)
			if !slices.Equal(a, want) {
				t.Fatalf("%d writes of %d prefixes: sortByPrefix differs from slices.Sort", n, prefixes)
			}
		}
	}
}
