package local

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// HTTPLimits bound what clients can hold of an http.Server serving the
// local server: connections, and the time a request may take to arrive or a
// connection may wait. Zero fields are not limited.
type HTTPLimits struct {
	// MaxConns caps the open connections. At the cap, a new connection
	// closes the oldest one that is idle between requests or has not sent a
	// whole request header yet; when every connection is serving a request
	// it waits for one to end. Keep it below the process's open-file limit
	// so that parked connections cannot lock other clients out.
	MaxConns int
	// ReadHeaderTimeout is the time a request's header may take to arrive.
	ReadHeaderTimeout time.Duration
	// ReadTimeout is the time a whole request, body included, may take to
	// arrive: a body trickled in is cut.
	ReadTimeout time.Duration
	// WriteTimeout is the time from the end of the request header to the end
	// of the response.
	WriteTimeout time.Duration
	// IdleTimeout closes a keep-alive connection waiting for its next
	// request.
	IdleTimeout time.Duration
	// MaxHeaderBytes bounds a request's header (net/http's
	// MaxHeaderBytes: 0 is its default of 1 MB); a larger one is answered
	// 431 Request Header Fields Too Large and the connection closed.
	MaxHeaderBytes int
}

// DefaultMaxHeaderBytes is the header bound dynamo local serves with.
// DynamoDB documents no header limit, and an API call's header is small
// (a SigV4 authorization, a session token of a few KB, a user agent);
// 64 KB is far above any SDK's and bounds what a client can make the
// server hold before the body limit applies.
const DefaultMaxHeaderBytes = 64 << 10

// DefaultHTTPLimits are the limits dynamo local serves with: a minute to
// send a request (16 MB at a slow 300 KB/s), two to answer, two minutes
// idle (longer than the SDKs' own idle timeouts, so clients close first),
// headers of at most DefaultMaxHeaderBytes, and connections capped at half
// the open-file limit (at most 4096).
func DefaultHTTPLimits() HTTPLimits {
	return HTTPLimits{
		MaxConns:          max(8, min(4096, openFileLimit()/2)),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		WriteTimeout:      2 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    DefaultMaxHeaderBytes,
	}
}

// NewHTTPServer returns an http.Server for h with lim's timeouts, and ln
// wrapped to keep at most lim.MaxConns connections open; serve it with
// hs.Serve(wrapped). Shutting the server down closes the wrapped listener.
func NewHTTPServer(h http.Handler, ln net.Listener, lim HTTPLimits) (hs *http.Server, wrapped net.Listener) {
	hs = &http.Server{
		Handler:           h,
		ReadHeaderTimeout: lim.ReadHeaderTimeout,
		ReadTimeout:       lim.ReadTimeout,
		WriteTimeout:      lim.WriteTimeout,
		IdleTimeout:       lim.IdleTimeout,
		MaxHeaderBytes:    lim.MaxHeaderBytes,
	}
	if lim.MaxConns <= 0 {
		return hs, ln
	}
	l := &connLimiter{Listener: ln, max: lim.MaxConns, conns: map[*limitedConn]*connState{}}
	l.cond = sync.NewCond(&l.mu)
	hs.ConnState = l.track
	return hs, l
}

// connLimiter is a listener that keeps at most max connections open,
// closing the oldest idle or parked one to make room.
type connLimiter struct {
	net.Listener
	max int

	mu     sync.Mutex
	cond   *sync.Cond // signalled when a connection closes or the listener does
	conns  map[*limitedConn]*connState
	seq    uint64
	closed bool
}

type connState struct {
	seq  uint64 // accept order: lower is older
	busy bool   // serving a request
}

type limitedConn struct {
	net.Conn
	l    *connLimiter
	once sync.Once
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		c.l.mu.Lock()
		delete(c.l.conns, c)
		c.l.cond.Broadcast()
		c.l.mu.Unlock()
	})
	return err
}

func (l *connLimiter) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for len(l.conns) >= l.max && !l.closed {
		if victim := l.oldestIdle(); victim != nil {
			delete(l.conns, victim)
			victim.Conn.Close() // its server goroutine sees the close and ends
			continue
		}
		l.cond.Wait()
	}
	if l.closed {
		c.Close()
		return nil, net.ErrClosed
	}
	l.seq++
	lc := &limitedConn{Conn: c, l: l}
	l.conns[lc] = &connState{seq: l.seq}
	return lc, nil
}

// oldestIdle is the oldest connection not serving a request, or nil.
func (l *connLimiter) oldestIdle() *limitedConn {
	var victim *limitedConn
	for c, st := range l.conns {
		if !st.busy && (victim == nil || st.seq < l.conns[victim].seq) {
			victim = c
		}
	}
	return victim
}

// track follows the http.Server's view of each connection.
func (l *connLimiter) track(c net.Conn, state http.ConnState) {
	lc, ok := c.(*limitedConn)
	if !ok {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if st := l.conns[lc]; st != nil {
		st.busy = state == http.StateActive
		if state == http.StateHijacked || state == http.StateClosed {
			delete(l.conns, lc)
			l.cond.Broadcast()
		}
	}
}

func (l *connLimiter) Close() error {
	l.mu.Lock()
	l.closed = true
	l.cond.Broadcast()
	l.mu.Unlock()
	return l.Listener.Close()
}
