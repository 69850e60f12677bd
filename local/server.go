package local

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"hash/crc32"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dynamogo/dynamo/local/storage"
)

// Server is a DynamoDB-compatible endpoint: an http.Handler speaking the
// awsJson1.0 protocol of DynamoDB_20120810. Create one with New.
type Server struct {
	engine    storage.Engine
	ownEngine bool
	region    string
	account   string
	now       func() time.Time
	faults    FaultFunc
	hosts     *hostCheck  // nil: any Host (hostcheck.go)
	cors      *corsPolicy // nil: no CORS headers (cors.go)

	mu     sync.RWMutex // guards tables (the map; each table has its own lock)
	tables map[string]*table

	tokens tokenStore // TransactWriteItems ClientRequestTokens (transact.go)
	sweep  sweeper    // the TTL sweeper (ttl.go)

	auth    authConfig // WithAccessKeys (auth.go)
	tenants tenants    // WithTenancy: the accounts (tenant.go)
	streams streamSet  // DynamoDB Streams (stream.go)
	backups backupSet  // on-demand backups (backup.go)

	consoleNew func(*Server) http.Handler // WithConsole (console.go)
	console    http.Handler
	recent     *recentCalls

	idPrefix [20]byte
	idSeq    atomic.Uint64
	closed   atomic.Bool
}

// Option configures a Server.
type Option func(*Server)

// WithEngine stores tables in e instead of a fresh in-memory engine; tables
// already in e's catalog are loaded. The caller keeps ownership of e.
func WithEngine(e storage.Engine) Option {
	return func(s *Server) { s.engine, s.ownEngine = e, false }
}

// WithRegion sets the region used in ARNs (default us-east-1).
func WithRegion(region string) Option { return func(s *Server) { s.region = region } }

// WithAccountID sets the account used in ARNs (default 000000000000).
func WithAccountID(id string) Option { return func(s *Server) { s.account = id } }

// WithClock replaces time.Now (creation times, TTL).
func WithClock(now func() time.Time) Option { return func(s *Server) { s.now = now } }

// WithFaults installs a fault hook consulted before every call.
func WithFaults(f FaultFunc) Option { return func(s *Server) { s.faults = f } }

// New returns a ready server. It does no I/O beyond loading tables from the
// engine's catalog.
func New(opts ...Option) (*Server, error) {
	s := &Server{
		region:  "us-east-1",
		account: "000000000000",
		now:     time.Now,
		tables:  map[string]*table{},
	}
	for _, o := range opts {
		o(s)
	}
	if s.engine == nil {
		s.engine, s.ownEngine = storage.NewMemory(), true
	}
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	rand.Read(s.idPrefix[:])
	for i, b := range s.idPrefix {
		s.idPrefix[i] = alphabet[int(b)%len(alphabet)]
	}
	if err := s.loadTables(); err != nil {
		return nil, err
	}
	if err := s.openAccounts(); err != nil {
		return nil, err
	}
	if s.consoleNew != nil {
		if s.tenants.on {
			return nil, errors.New("local: the console shows the shared tables: it cannot be used with per-account separation (WithTenancy)")
		}
		s.recent = &recentCalls{}
		s.console = s.consoleNew(s)
	}
	s.startSweeper()
	return s, nil
}

// Close stops accepting calls (they answer 500) and closes the engine if the
// server created it.
func (s *Server) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	s.stopSweeper()
	if s.ownEngine {
		return s.engine.Close()
	}
	return nil
}

// handler runs one action. It returns the response body value, marshalled
// with encoding/json unless it is a rawJSON.
type handler func(s *Server, c *call) (any, error)

// rawJSON is a response body a handler encoded itself (the hot paths), in
// its pooled builder (wire.go): a pointer, so that neither returning it as
// an any nor pooling it again once written allocates.
type rawJSON = *resp

// actions is the dispatch table: one entry per supported action. New action
// families add a file and a line here.
var actions = map[string]handler{
	// control plane (table.go)
	"CreateTable":       (*Server).createTable,
	"DescribeTable":     (*Server).describeTable,
	"ListTables":        (*Server).listTables,
	"DeleteTable":       (*Server).deleteTable,
	"UpdateTable":       (*Server).updateTable,
	"DescribeLimits":    (*Server).describeLimits,
	"DescribeEndpoints": (*Server).describeEndpoints,
	// items (item.go)
	"PutItem":    (*Server).putItem,
	"GetItem":    (*Server).getItem,
	"UpdateItem": (*Server).updateItem,
	"DeleteItem": (*Server).deleteItem,
	// reads (query.go)
	"Query": (*Server).query,
	"Scan":  (*Server).scan,
	// batches (batch.go)
	"BatchGetItem":   (*Server).batchGetItem,
	"BatchWriteItem": (*Server).batchWriteItem,
	// transactions (transact.go)
	"TransactWriteItems": (*Server).transactWriteItems,
	"TransactGetItems":   (*Server).transactGetItems,
	// time to live (ttl.go)
	"UpdateTimeToLive":   (*Server).updateTimeToLive,
	"DescribeTimeToLive": (*Server).describeTimeToLive,
	// tags (tags.go)
	"TagResource":        (*Server).tagResource,
	"UntagResource":      (*Server).untagResource,
	"ListTagsOfResource": (*Server).listTagsOfResource,
	// vector search (search.go)
	"SearchVectors": (*Server).searchVectors,
	// PartiQL (partiql.go)
	"ExecuteStatement":      (*Server).executeStatement,
	"BatchExecuteStatement": (*Server).batchExecuteStatement,
	"ExecuteTransaction":    (*Server).executeTransaction,
	// backups and point-in-time recovery (backup.go, backup_pitr.go)
	"CreateBackup":              (*Server).createBackup,
	"DescribeBackup":            (*Server).describeBackup,
	"ListBackups":               (*Server).listBackups,
	"DeleteBackup":              (*Server).deleteBackup,
	"RestoreTableFromBackup":    (*Server).restoreTableFromBackup,
	"DescribeContinuousBackups": (*Server).describeContinuousBackups,
	"UpdateContinuousBackups":   (*Server).updateContinuousBackups,
	"RestoreTableToPointInTime": (*Server).restoreTableToPointInTime,
}

// call is one request being served.
type call struct {
	action string
	host   string // the request's Host once checked (else ""), for DescribeEndpoints
	body   []byte
	now    time.Time
	fault  Fault
	// ticket is the greatest storage.Ticket of what the call wrote or saw:
	// run waits until it is durable before the call is answered.
	ticket storage.Ticket
}

// see notes that c wrote or saw the write of ticket tk. A nil call is
// background work, which answers no one.
func (c *call) see(tk storage.Ticket) {
	if c != nil && tk > c.ticket {
		c.ticket = tk
	}
}

// seeTable notes that c sees t, which the caller holds locked: every
// change to t so far, which a Deferred engine may not yet have made
// durable. Whatever locks a table to answer from its items, sizes or
// stream records calls it.
func (c *call) seeTable(t *table) { c.see(t.ticket) }

// decode unmarshals the request body into v; malformed JSON or a value of the
// wrong JSON type is a SerializationException, as DynamoDB answers.
func (c *call) decode(v any) error {
	err := json.Unmarshal(c.body, v)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Value == "string" && isInteger(te.Type.Kind()) {
		// An integer member sent as a JSON string ("3"), as dynamodb-admin
		// sends capacity units: accepted, as DynamoDB Local accepts it
		// (docs/local-server.md, "Numbers as strings").
		if body, ok := integersFromStrings(c.body, reflect.TypeOf(v)); ok {
			err = json.Unmarshal(body, v)
		}
	}
	if err != nil {
		var ae *Error
		if errors.As(err, &ae) {
			return ae
		}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return serialization("Start of structure or map found where not expected.")
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return serialization(typeErrorMessage(te))
		}
		return serialization(err.Error())
	}
	return nil
}

func isInteger(k reflect.Kind) bool {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

// integersFromStrings rewrites body so that each string holding an integer
// where t has an integer member is that number; ok is false when body is
// not a JSON object.
func integersFromStrings(body []byte, t reflect.Type) ([]byte, bool) {
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var doc any
	if d.Decode(&doc) != nil {
		return nil, false
	}
	out, err := json.Marshal(coerceIntegers(doc, t))
	return out, err == nil
}

func coerceIntegers(v any, t reflect.Type) any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch x := v.(type) {
	case string:
		if isInteger(t.Kind()) {
			if _, err := strconv.ParseInt(x, 10, 64); err == nil {
				return json.Number(x)
			}
		}
	case []any:
		if t.Kind() == reflect.Slice {
			for i := range x {
				x[i] = coerceIntegers(x[i], t.Elem())
			}
		}
	case map[string]any:
		switch t.Kind() {
		case reflect.Map:
			for k, e := range x {
				x[k] = coerceIntegers(e, t.Elem())
			}
		case reflect.Struct:
			for k, e := range x {
				// encoding/json matches member names case-insensitively.
				if f, ok := t.FieldByNameFunc(func(n string) bool { return strings.EqualFold(n, k) }); ok {
					x[k] = coerceIntegers(e, f.Type)
				}
			}
		}
	}
	return v
}

func typeErrorMessage(te *json.UnmarshalTypeError) string {
	switch te.Value {
	case "number":
		return "NUMBER_VALUE cannot be converted to " + goKindName(te.Type.Kind().String())
	case "string":
		return "STRING_VALUE cannot be converted to " + goKindName(te.Type.Kind().String())
	case "bool":
		return "TRUE_VALUE cannot be converted to " + goKindName(te.Type.Kind().String())
	case "array":
		return "Unexpected list element termination"
	case "object":
		return "Start of structure or map found where not expected."
	}
	return "Unexpected value"
}

func goKindName(k string) string {
	switch k {
	case "string", "ptr":
		return "String"
	case "bool":
		return "Boolean"
	case "int", "int32", "int64":
		return "Long"
	}
	return strings.ToUpper(k[:1]) + k[1:]
}

const targetPrefix = "DynamoDB_20120810."

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// ServeHTTP implements the awsJson1.0 protocol: POST, X-Amz-Target, JSON in
// and out, and on every response x-amzn-RequestId and X-Amz-Crc32 (the CRC32
// of the body; the Go SDK verifies it).
//
// The front door comes first, in this order: the Host header names this
// server, the console's paths go to the console (WithConsole), CORS
// headers (and preflights) for allowed origins, the server is open, only
// POST / is an API call, the body is bounded, the caller is authenticated
// (when keys are configured), and the body is decompressed and UTF-8.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.recorded(w, r) { // WithConsole: the call is served and noted (console.go)
		return
	}
	id := s.requestID()
	if !s.hosts.allows(r.Host) {
		s.writeError(w, id, errHostNotAllowed)
		return
	}
	if s.serveConsole(w, r) {
		return
	}
	if s.cors.apply(w, r) {
		return
	}
	if s.closed.Load() {
		s.writeError(w, id, &Error{Type: "ServiceUnavailableException", Message: "The server is closed", Status: http.StatusServiceUnavailable})
		return
	}
	if r.Method != http.MethodPost || r.URL.Path != "/" {
		// DynamoDB answers a GET on / with a health line.
		if r.Method == http.MethodGet && r.URL.Path == "/" {
			s.serveHealth(w, id)
			return
		}
		s.writeError(w, id, &Error{Type: "UnknownOperationException", Message: "Only POST / is an API call", Status: http.StatusNotFound})
		return
	}
	bp := bufPool.Get().(*[]byte)
	defer bufPool.Put(bp)
	body, rerr := readBody(r, (*bp)[:0])
	*bp = body[:0]
	if rerr != nil {
		s.writeError(w, id, rerr)
		return
	}
	// Authentication and per-account separation (auth.go, tenant.go): srv
	// is the server whose tables answer the call. The signature covers the
	// body as sent, so it is checked before the body is decompressed.
	srv, aerr := s.authenticate(r, body)
	if aerr != nil {
		s.writeError(w, id, aerr)
		return
	}
	body, rerr = decodeBody(r, body)
	*bp = body[:0]
	if rerr != nil {
		s.writeError(w, id, rerr)
		return
	}
	target := r.Header.Get("X-Amz-Target")
	action, h := route(target)
	if h == nil {
		s.writeError(w, id, &Error{Type: "UnknownOperationException", Message: "Unknown operation " + strconv.Quote(target)})
		return
	}
	c := &call{action: action, host: s.hosts.checked(r.Host), body: body, now: s.now()}
	if s.faults != nil {
		c.fault = s.faults(action)
		if c.fault.Delay > 0 {
			select {
			case <-time.After(c.fault.Delay):
			case <-r.Context().Done():
				return
			}
		}
		if c.fault.Err != nil {
			s.writeError(w, id, c.fault.Err)
			return
		}
	}
	if len(bytes.TrimSpace(body)) == 0 {
		s.writeError(w, id, serialization("Request body is empty"))
		return
	}
	if string(bytes.TrimSpace(body)) == "null" {
		// The input is a structure: null is not one (the framework's
		// wording for any other value where a structure belongs).
		s.writeError(w, id, serialization("Start of structure or map found where not expected."))
		return
	}
	out, err := srv.run(h, c)
	if err != nil {
		s.writeError(w, id, apiError(err))
		return
	}
	var resp []byte
	switch v := out.(type) {
	case rawJSON:
		resp = v.b
	case emptyBody:
	default:
		if resp, err = json.Marshal(v); err != nil {
			s.writeError(w, id, internalError())
			return
		}
	}
	s.write(w, id, http.StatusOK, resp, contentType)
	if raw, ok := out.(rawJSON); ok {
		putRespBuf(raw)
	}
}

// apiError is a handler's error as the API answers it: its *Error, or an
// InternalServerError for anything else (never its text).
func apiError(err error) *Error {
	var ae *Error
	if !errors.As(err, &ae) {
		ae = internalError()
	}
	return ae
}

// run calls h, turning a panic into an InternalServerError: a bug must not
// take the whole server down. It returns once everything the call wrote or
// saw is durable (write.go): if the engine fails first, the call fails as a
// write failing in the engine does.
func (s *Server) run(h handler, c *call) (out any, err error) {
	out, err = s.runHandler(h, c)
	if werr := s.durable(c); werr != nil {
		if raw, ok := out.(rawJSON); ok {
			putRespBuf(raw)
		}
		return nil, werr
	}
	return out, err
}

// durable returns once everything c wrote or saw is durable, or the error
// that broke the engine; the caller holds no table's lock, so the writes
// of others join the same fsync.
func (s *Server) durable(c *call) error {
	if d, ok := s.engine.(storage.Deferred); ok && c.ticket != 0 {
		return d.WaitDurable(c.ticket)
	}
	return nil
}

func (s *Server) runHandler(h handler, c *call) (out any, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, internalError()
		}
	}()
	return h(s, c)
}

const contentType = "application/x-amz-json-1.0"

// emptyBody is the answer of an action whose output has no members and which
// DynamoDB answers with no body at all, not "{}" (TagResource, UntagResource).
type emptyBody struct{}

func (s *Server) write(w http.ResponseWriter, id reqID, status int, body []byte, ctype string) {
	h := w.Header()
	// Two allocations: the four header values, and the bytes of the three
	// built here.
	var buf [len(reqID{}) + 2*20]byte
	b := append(buf[:0], id[:]...)
	b = strconv.AppendUint(b, uint64(crc32.ChecksumIEEE(body)), 10)
	nid, ncrc := len(id), len(b)
	b = strconv.AppendInt(b, int64(len(body)), 10)
	built := string(b)
	vals := make([]string, 4)
	vals[0], vals[1], vals[2], vals[3] = ctype, built[:nid], built[nid:ncrc], built[ncrc:]
	h["Content-Type"] = vals[0:1:1]
	h["X-Amzn-Requestid"] = vals[1:2:2]
	h["X-Amz-Crc32"] = vals[2:3:3]
	h["Content-Length"] = vals[3:4:4]
	if s.auth.keys != nil {
		// The SDKs correct their clock skew from Date: it must be this
		// server's clock (WithClock), not the host's.
		h["Date"] = []string{s.now().UTC().Format(http.TimeFormat)}
	}
	w.WriteHeader(status)
	w.Write(body)
}

func (s *Server) writeError(w http.ResponseWriter, id reqID, e *Error) {
	b := make([]byte, 0, 128)
	b = append(b, `{"__type":`...)
	b = appendJSONString(b, e.namespace()+e.Type)
	if e.Message != "" {
		b = append(b, `,"message":`...)
		b = appendJSONString(b, e.Message)
	}
	if e.item != nil {
		b = append(b, `,"Item":`...)
		b = append(b, e.item...)
	}
	b = append(b, e.members...)
	b = append(b, '}')
	s.write(w, id, e.status(), b, contentType)
}

func appendJSONString(b []byte, s string) []byte {
	q, _ := json.Marshal(s)
	return append(b, q...)
}

// reqID is a DynamoDB-shaped request id: 52 characters of [A-Z0-9], a
// random per-server prefix and a sequence number, unique per server. It
// becomes a string with the other header values it is written with.
type reqID [52]byte

func (s *Server) requestID() reqID {
	var b reqID
	copy(b[:], s.idPrefix[:])
	n := s.idSeq.Add(1)
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	i := len(b)
	for ; n > 0; n /= 36 { // at most 13 digits: 36^13 > 2^64
		i--
		b[i] = alphabet[n%36]
	}
	for i > len(s.idPrefix) { // leading zeros
		i--
		b[i] = alphabet[0]
	}
	return b
}
