package disk

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

const (
	manifestName = "MANIFEST"
	manifestTmp  = "MANIFEST.tmp"
	manifestHead = "dynamo disk manifest 1"
)

// manifest records which files the directory must hold, so that a file
// deleted by hand, or a wrong directory, is an error rather than a smaller
// or empty database: the snapshot (if snap > 0) covering the logs up to
// generation snap, and every log from the one after the snapshot's to
// newest. It is rewritten (to a temporary file, fsynced and renamed) when
// a compaction starts a new log and when it installs a snapshot.
type manifest struct {
	snap   uint64 // the log generation the snapshot covers; 0: no snapshot
	newest uint64 // the newest log generation
}

// encode is the manifest's text: readable, ending in a CRC-32C of the lines
// before it.
func (m manifest) encode() []byte {
	b := fmt.Appendf(nil, "%s\nsnapshot %d\nlog %d\n", manifestHead, m.snap, m.newest)
	return fmt.Appendf(b, "crc32c %08x\n", crc32.Checksum(b, castagnoli))
}

func parseManifest(b []byte) (manifest, error) {
	i := bytes.LastIndex(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
	if i < 0 {
		return manifest{}, errors.New("too short")
	}
	body, sum := b[:i+1], strings.TrimSpace(string(b[i+1:]))
	if sum != fmt.Sprintf("crc32c %08x", crc32.Checksum(body, castagnoli)) {
		return manifest{}, errors.New("checksum mismatch")
	}
	lines := strings.Split(strings.TrimSuffix(string(body), "\n"), "\n")
	if len(lines) != 3 || lines[0] != manifestHead {
		return manifest{}, errors.New("unknown format")
	}
	var m manifest
	for _, f := range []struct {
		line, name string
		v          *uint64
	}{{lines[1], "snapshot", &m.snap}, {lines[2], "log", &m.newest}} {
		rest, ok := strings.CutPrefix(f.line, f.name+" ")
		n, err := strconv.ParseUint(rest, 10, 64)
		if !ok || err != nil {
			return manifest{}, fmt.Errorf("bad %s line", f.name)
		}
		*f.v = n
	}
	if m.newest <= m.snap {
		return manifest{}, errors.New("the newest log is not after the snapshot")
	}
	return m, nil
}

// readManifest reads the directory's manifest; ok is false if there is none.
func (e *Engine) readManifest() (m manifest, ok bool, err error) {
	path := filepath.Join(e.dir, manifestName)
	f, err := e.fs.OpenFile(path, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return manifest{}, false, nil
	}
	if err != nil {
		return manifest{}, false, fmt.Errorf("disk: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 4<<10))
	if err != nil {
		return manifest{}, false, fmt.Errorf("disk: read %s: %w", path, err)
	}
	if m, err = parseManifest(b); err != nil {
		return manifest{}, false, fmt.Errorf("%w: %s: %v (restore it from a backup, or move the directory aside to start empty)", ErrDamaged, path, err)
	}
	return m, true, nil
}

// writeManifest durably replaces the manifest with m.
func (e *Engine) writeManifest(m manifest) error {
	tmp := filepath.Join(e.dir, manifestTmp)
	err := e.writeFileSync(tmp, m.encode())
	if err == nil {
		err = e.fs.Rename(tmp, filepath.Join(e.dir, manifestName))
	}
	if err == nil {
		err = e.fs.SyncDir(e.dir)
	}
	if err != nil {
		e.fs.Remove(tmp)
		return fmt.Errorf("disk: write %s: %w", manifestName, err)
	}
	return nil
}

// writeFileSync creates path with b as its content, fsynced.
func (e *Engine) writeFileSync(path string, b []byte) error {
	f, err := e.fs.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, filePerm)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
