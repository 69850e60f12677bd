package sdkhttp

import (
	"io"
	"net/http"
	"sync/atomic"
)

// Body wraps a request body so that it offers only Read and Close. When read
// is not nil it is set once all of the body has been read (size bytes, or
// io.EOF when size is unknown): from then on the whole request may have
// reached the server.
func Body(rc io.ReadCloser, size int64, read *atomic.Bool) io.ReadCloser {
	return &body{rc: rc, size: size, read: read}
}

type body struct {
	rc   io.ReadCloser
	size int64
	n    int64 // bytes read; only the transport's writer goroutine reads
	read *atomic.Bool
}

func (b *body) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	b.n += int64(n)
	if b.read != nil && (err == io.EOF || (b.size > 0 && b.n >= b.size)) {
		b.read.Store(true)
	}
	return n, err
}

func (b *body) Close() error { return b.rc.Close() }

// Request returns req with its body (and GetBody's) wrapped by Body; req
// itself is not modified. Without a body, read is set at once.
func Request(req *http.Request, read *atomic.Bool) *http.Request {
	if req.Body == nil || req.Body == http.NoBody {
		if read != nil {
			read.Store(true)
		}
		return req
	}
	r := new(http.Request)
	*r = *req
	r.Body = Body(req.Body, req.ContentLength, read)
	if get := req.GetBody; get != nil {
		r.GetBody = func() (io.ReadCloser, error) {
			rc, err := get()
			if err != nil || rc == nil || rc == http.NoBody {
				return rc, err
			}
			return Body(rc, req.ContentLength, read), nil
		}
	}
	return r
}

// Transport is an http.RoundTripper that sends every request through Base
// (http.DefaultTransport when nil) with its body wrapped by Body.
type Transport struct{ Base http.RoundTripper }

// RoundTrip implements http.RoundTripper.
func (t Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	return base.RoundTrip(Request(req, nil))
}

// CloseIdleConnections closes Base's idle connections.
func (t Transport) CloseIdleConnections() {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	if c, ok := base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}
