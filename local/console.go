package local

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// The hooks of the web console (package local/console): the console is
// served under ConsolePath on the server's own handler, after the Host
// check and before CORS (no other origin may read it), runs every action
// in-process through Invoke — the same handlers, validation, streams and
// capacity as the API — and shows the API calls the server answered
// (RecentCalls).

// ConsolePath is where WithConsole serves the console: /console/ and
// everything under it. Every other path answers as without it.
const ConsolePath = "/console/"

// WithConsole serves console(s) under ConsolePath on the server's handler
// and keeps the last RecentCallsKept API calls for it (RecentCalls). Package
// local/console provides the console (console.Enable). The console sees the
// shared tables: New refuses it together with WithTenancy.
func WithConsole(console func(*Server) http.Handler) Option {
	return func(s *Server) { s.consoleNew = console }
}

// RecentCallsKept is how many API calls RecentCalls keeps.
const RecentCallsKept = 200

// RecentCall is one API call the server answered, as the console lists it:
// what a developer needs to see what their program sent, never an item
// value or a credential.
type RecentCall struct {
	Time      time.Time     // when it arrived (the host's clock)
	Action    string        // e.g. "PutItem"; empty when the target was unknown
	Tables    []string      // the tables the request names, when it is readable JSON
	Status    int           // the HTTP status answered
	ErrorType string        // the error's type (e.g. "ValidationException"), empty on success
	Latency   time.Duration // from arrival to the end of the answer
	// Capacity is the capacity units consumed, summed over tables and
	// indexes, when the request asked for them (ReturnConsumedCapacity);
	// HasCapacity tells 0 from not reported.
	Capacity    float64
	HasCapacity bool
}

// RecentCalls returns the last API calls answered over HTTP, oldest first
// (none without WithConsole). Calls made through Invoke are not listed.
func (s *Server) RecentCalls() []RecentCall {
	if s.recent == nil {
		return nil
	}
	return s.recent.list()
}

// Invoke runs one action in-process, as if its JSON body had arrived over
// HTTP after authentication: action is the name after the target prefix
// (e.g. "Query", or a DynamoDB Streams action such as "GetRecords"). It
// returns the JSON answer, or the *Error the API would answer.
func (s *Server) Invoke(action string, body []byte) ([]byte, error) {
	if s.closed.Load() {
		return nil, &Error{Type: "ServiceUnavailableException", Message: "The server is closed", Status: http.StatusServiceUnavailable}
	}
	h := actions[action]
	if h == nil {
		h = streamActions[action]
	}
	if h == nil {
		return nil, &Error{Type: "UnknownOperationException", Message: "Unknown operation " + action}
	}
	if t := bytes.TrimSpace(body); len(t) == 0 || t[0] != '{' {
		return nil, serialization("Start of structure or map found where not expected.")
	}
	out, err := s.run(h, &call{action: action, body: body, now: s.now()})
	if err != nil {
		return nil, apiError(err)
	}
	switch v := out.(type) {
	case rawJSON:
		b := bytes.Clone(v.b)
		putRespBuf(v)
		return b, nil
	case emptyBody:
		return []byte("{}"), nil
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, internalError()
	}
	return b, nil
}

// RequiresCredentials reports whether API calls must be signed
// (WithAccessKeys): the console then asks for a key too.
func (s *Server) RequiresCredentials() bool { return s.auth.keys != nil }

// CheckAccessKey reports whether id, secret and sessionToken are one of the
// keys of WithAccessKeys (the session token must match when the key has
// one, and be empty when it has none), comparing in constant time.
func (s *Server) CheckAccessKey(id, secret, sessionToken string) bool {
	k, ok := s.auth.keys[id]
	sameSecret := subtle.ConstantTimeCompare([]byte(k.Secret), []byte(secret)) == 1
	sameToken := subtle.ConstantTimeCompare([]byte(k.SessionToken), []byte(sessionToken)) == 1
	return ok && sameSecret && sameToken
}

// serveConsole answers r when it is the console's (reports false
// otherwise).
func (s *Server) serveConsole(w http.ResponseWriter, r *http.Request) bool {
	if s.console == nil || !(r.URL.Path == "/console" || strings.HasPrefix(r.URL.Path, ConsolePath)) {
		return false
	}
	s.console.ServeHTTP(w, r)
	return true
}

// recorded serves r through ServeHTTP again, noting the call in the recent
// calls; it reports false when r is already being recorded (or nothing
// records).
func (s *Server) recorded(w http.ResponseWriter, r *http.Request) bool {
	if s.recent == nil || r.Method != http.MethodPost || r.URL.Path != "/" {
		return false
	}
	if _, ok := w.(*callRecorder); ok {
		return false
	}
	var body bytes.Buffer
	rec := &callRecorder{ResponseWriter: w, status: http.StatusOK, req: &body}
	if r.Body != nil {
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.TeeReader(r.Body, &body), r.Body}
	}
	start := time.Now()
	target := r.Header.Get("X-Amz-Target")
	s.ServeHTTP(rec, r)
	c := RecentCall{Time: start, Status: rec.status, Latency: time.Since(start)}
	if a, h := route(target); h != nil {
		c.Action = a
	}
	if r.Header.Get("Content-Encoding") == "" {
		c.Tables = namedTables(body.Bytes())
		if rec.status < 300 && askedCapacity(body.Bytes()) {
			c.Capacity, c.HasCapacity = consumed(rec.body.Bytes())
		}
	}
	if rec.status >= 300 {
		var e struct {
			Type string `json:"__type"`
		}
		json.Unmarshal(rec.body.Bytes(), &e)
		c.ErrorType = e.Type[strings.LastIndexByte(e.Type, '#')+1:]
	}
	s.recent.add(c)
	return true
}

// callRecorder notes a response's status and keeps its body when it is
// an error or carries the consumed capacity the request asked for.
type callRecorder struct {
	http.ResponseWriter
	req    *bytes.Buffer // the request body, read by the time the answer is written
	status int
	keep   bool
	body   bytes.Buffer
}

func (c *callRecorder) WriteHeader(status int) {
	c.status = status
	c.keep = status >= 300 || askedCapacity(c.req.Bytes())
	c.ResponseWriter.WriteHeader(status)
}

func askedCapacity(body []byte) bool {
	return bytes.Contains(body, []byte(`"ReturnConsumedCapacity"`))
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (c *callRecorder) Unwrap() http.ResponseWriter { return c.ResponseWriter }

func (c *callRecorder) Write(b []byte) (int, error) {
	if c.keep {
		c.body.Write(b)
	}
	return c.ResponseWriter.Write(b)
}

// namedTables returns the tables a request body names (TableName, the
// tables of a batch or transaction), without reading any item value.
func namedTables(body []byte) []string {
	var in struct {
		TableName     string
		RequestItems  map[string]json.RawMessage
		TransactItems []map[string]struct{ TableName string }
	}
	if json.Unmarshal(body, &in) != nil {
		return nil
	}
	var names []string
	add := func(n string) {
		if n != "" && !containsString(names, n) {
			names = append(names, n)
		}
	}
	add(in.TableName)
	for n := range in.RequestItems {
		add(n)
	}
	for _, ti := range in.TransactItems {
		for _, op := range ti {
			add(op.TableName)
		}
	}
	return names
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// consumed sums the CapacityUnits of an answer's ConsumedCapacity (one
// object, or a list for batches and transactions).
func consumed(answer []byte) (float64, bool) {
	var out struct{ ConsumedCapacity json.RawMessage }
	if json.Unmarshal(answer, &out) != nil || len(out.ConsumedCapacity) == 0 {
		return 0, false
	}
	type units struct{ CapacityUnits float64 }
	var list []units
	if json.Unmarshal(out.ConsumedCapacity, &list) != nil {
		var one units
		if json.Unmarshal(out.ConsumedCapacity, &one) != nil {
			return 0, false
		}
		list = []units{one}
	}
	var sum float64
	for _, u := range list {
		sum += u.CapacityUnits
	}
	return sum, true
}

// recentCalls is a ring of the last RecentCallsKept calls.
type recentCalls struct {
	mu    sync.Mutex
	calls [RecentCallsKept]RecentCall
	next  int // where the next call goes
	full  bool
}

func (r *recentCalls) add(c RecentCall) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls[r.next] = c
	r.next = (r.next + 1) % len(r.calls)
	r.full = r.full || r.next == 0
}

func (r *recentCalls) list() []RecentCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.full {
		return append([]RecentCall(nil), r.calls[:r.next]...)
	}
	return append(append([]RecentCall(nil), r.calls[r.next:]...), r.calls[:r.next]...)
}
