package sdkhttp

import (
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// closedWriterTo behaves as smithy-go's request body: once closed, WriteTo
// answers io.EOF (an error to io.Copy) and Read answers io.EOF (the end).
type closedWriterTo struct {
	io.Reader
	closed bool
}

func (b *closedWriterTo) Close() error { b.closed = true; return nil }
func (b *closedWriterTo) Read(p []byte) (int, error) {
	if b.closed {
		return 0, io.EOF
	}
	return b.Reader.Read(p)
}
func (b *closedWriterTo) WriteTo(w io.Writer) (int64, error) {
	if b.closed {
		return 0, io.EOF
	}
	return io.Copy(w, b.Reader)
}

// net/http copies what is left of a body after ContentLength bytes to
// check there is nothing more; after the SDK closed it, that copy must end
// quietly instead of failing the request (and its connection).
func TestTrailingCopyAfterClose(t *testing.T) {
	raw := &closedWriterTo{Reader: strings.NewReader("")}
	raw.Close()
	if _, err := io.Copy(io.Discard, raw); err != io.EOF {
		t.Fatalf("the bare body: io.Copy = %v, want io.EOF (the upstream race)", err)
	}
	if _, err := io.Copy(io.Discard, Body(raw, 0, nil)); err != nil {
		t.Fatalf("the wrapped body: io.Copy = %v, want nil", err)
	}
}

func TestReadFlag(t *testing.T) {
	var read atomic.Bool
	b := Body(io.NopCloser(strings.NewReader("0123456789")), 10, &read)
	if _, err := io.ReadFull(b, make([]byte, 9)); err != nil || read.Load() {
		t.Fatalf("after 9 of 10 bytes: err %v, read %v", err, read.Load())
	}
	if _, err := io.ReadFull(b, make([]byte, 1)); err != nil || !read.Load() {
		t.Fatalf("after 10 of 10 bytes: err %v, read %v", err, read.Load())
	}

	var unknown atomic.Bool
	b = Body(io.NopCloser(strings.NewReader("ab")), -1, &unknown)
	io.ReadFull(b, make([]byte, 2))
	if unknown.Load() {
		t.Fatal("unknown length: read before EOF")
	}
	io.Copy(io.Discard, b)
	if !unknown.Load() {
		t.Fatal("unknown length: not read at EOF")
	}

	var none atomic.Bool
	req, _ := http.NewRequest(http.MethodGet, "http://example.invalid/", nil)
	if Request(req, &none); !none.Load() {
		t.Fatal("a request without a body is not read at once")
	}
}
