package local

import (
	"errors"
	"net/http"
	"strings"
	"sync"

	"github.com/dynamogo/dynamo/local/storage"
)

// Per-account separation (WithTenancy): each access key id and region has
// its own tables, as in DynamoDB Local without -sharedDb, which keeps one
// database file per access key id and region ("DynamoDB local usage notes"
// in the developer guide, DynamoDBLocal.UsageNotes.html).
//
// An account is a Server of its own (its tables, its transaction tokens,
// its region in ARNs) over a view of the shared engine that prefixes every
// collection and catalog name with "a/<access key id>/<region>/". Key ids
// are letters and digits and regions letters, digits and '-', table and
// index names have no '/', so the names of two accounts cannot collide, and
// a restart finds each account's tables under its prefix.

// WithTenancy separates tables by access key id and region: two clients
// with different keys, or one key in two regions, never see each other's
// tables, ListTables included, and ARNs carry the request's region. With
// WithAccessKeys the key id is the verified signer's; without it, it is
// read from the Authorization header unverified (as DynamoDB Local does), so
// separation is a convenience between cooperating clients, not security.
//
// A durable engine must always be opened in the same mode: New refuses an
// engine holding shared tables with WithTenancy, and one holding separated
// tables without it, rather than hide them.
func WithTenancy() Option { return func(s *Server) { s.tenants.on = true } }

// tenants is the accounts of a server with WithTenancy, by
// "<access key id>/<region>".
type tenants struct {
	on bool
	mu sync.Mutex
	m  map[string]*Server
}

// tenantPrefix starts the engine names of the accounts.
const tenantPrefix = "a/"

// maxTenants bounds the accounts of one server: regions are the client's
// choice.
const maxTenants = 10_000

// maxRegionLen bounds a region name (the longest AWS region has 14
// characters).
const maxRegionLen = 64

// authenticate is the first step of a call: with WithAccessKeys it verifies
// the request's signature, and it returns the server that answers the call
// (the account's with WithTenancy, s otherwise). Without either option it
// returns s: credentials are not checked.
func (s *Server) authenticate(r *http.Request, body []byte) (*Server, *Error) {
	if s.auth.keys == nil && !s.tenants.on {
		return s, nil
	}
	var c *credential
	var e *Error
	if s.auth.keys != nil {
		c, e = s.auth.verify(r, body, s.now())
	} else {
		c, e = parseCredential(r)
	}
	if e != nil {
		return nil, e
	}
	if !s.tenants.on {
		return s, nil
	}
	if !validKeyID(c.keyID) {
		return nil, invalidKeyID()
	}
	if !validRegion(c.region) {
		return nil, incompleteSignature("Credential should be scoped to a valid region.")
	}
	t, err := s.tenant(c.keyID, c.region)
	if err != nil {
		var ae *Error
		if errors.As(err, &ae) {
			return nil, ae
		}
		return nil, internalError()
	}
	return t, nil
}

func validRegion(r string) bool {
	if r == "" || len(r) > maxRegionLen {
		return false
	}
	for i := 0; i < len(r); i++ {
		c := r[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// tenant returns the account of keyID in region, creating it empty on
// first use.
func (s *Server) tenant(keyID, region string) (*Server, error) {
	id := keyID + "/" + region
	s.tenants.mu.Lock()
	defer s.tenants.mu.Unlock()
	if t := s.tenants.m[id]; t != nil {
		return t, nil
	}
	if len(s.tenants.m) >= maxTenants {
		return nil, &Error{Type: "LimitExceededException", Message: "Too many accounts: this server keeps the tables of at most 10000 access key and region pairs"}
	}
	return s.openTenant(id, region)
}

// openTenant makes the account id's server and loads its tables; the
// caller holds s.tenants.mu. Handlers read only the fields set here.
func (s *Server) openTenant(id, region string) (*Server, error) {
	var eng storage.Engine = tenantEngine{Engine: s.engine, prefix: tenantPrefix + id + "/"}
	if d, ok := s.engine.(storage.Deferred); ok {
		eng = deferredTenantEngine{eng.(tenantEngine), d}
	}
	t := &Server{
		engine:   eng,
		region:   region,
		account:  s.account,
		now:      s.now,
		tables:   map[string]*table{},
		idPrefix: s.idPrefix,
	}
	if err := t.loadTables(); err != nil {
		return nil, err
	}
	if s.tenants.m == nil {
		s.tenants.m = map[string]*Server{}
	}
	s.tenants.m[id] = t
	return t, nil
}

// openAccounts checks the authentication options and, with WithTenancy,
// restores the accounts found in the engine's catalog; it refuses an engine
// written in the other mode.
func (s *Server) openAccounts() error {
	if s.auth.err != nil {
		return s.auth.err
	}
	metas, err := s.engine.Meta()
	if err != nil {
		return err
	}
	s.tenants.mu.Lock()
	defer s.tenants.mu.Unlock()
	for k := range metas {
		rest, separated := strings.CutPrefix(k, tenantPrefix)
		switch {
		case separated && !s.tenants.on:
			return errors.New("local: the engine holds tables separated by access key and region: open it with per-account separation (WithTenancy, dynamo local --per-account)")
		case !separated && s.tenants.on && strings.HasPrefix(k, "table/"):
			return errors.New("local: the engine holds tables shared by all access keys: open it without per-account separation (WithTenancy, dynamo local --per-account)")
		case !separated:
			continue
		}
		parts := strings.SplitN(rest, "/", 3)
		if len(parts) != 3 || !validKeyID(parts[0]) || !validRegion(parts[1]) {
			return errors.New("local: the engine's catalog has an entry of no account: " + k)
		}
		id := parts[0] + "/" + parts[1]
		if s.tenants.m[id] == nil {
			if _, err := s.openTenant(id, parts[1]); err != nil {
				return err
			}
		}
	}
	return nil
}

// sweepTenants is SweepExpired over every account.
func (s *Server) sweepTenants() int {
	s.tenants.mu.Lock()
	ts := make([]*Server, 0, len(s.tenants.m))
	for _, t := range s.tenants.m {
		ts = append(ts, t)
	}
	s.tenants.mu.Unlock()
	n := 0
	for _, t := range ts {
		n += t.SweepExpired()
	}
	return n
}

// tenantEngine is one account's view of the server's engine: the same
// engine, every collection and catalog name prefixed. Batches go to the
// engine unchanged (their collections were opened through the view).
type tenantEngine struct {
	storage.Engine
	prefix string
}

func (e tenantEngine) Collection(name string) (storage.Collection, error) {
	return e.Engine.Collection(e.prefix + name)
}

func (e tenantEngine) Drop(name string) error { return e.Engine.Drop(e.prefix + name) }

func (e tenantEngine) PutMeta(key string, value []byte) error {
	return e.Engine.PutMeta(e.prefix+key, value)
}

func (e tenantEngine) Meta() (map[string][]byte, error) {
	all, err := e.Engine.Meta()
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for k, v := range all {
		if rest, ok := strings.CutPrefix(k, e.prefix); ok {
			out[rest] = v
		}
	}
	return out, nil
}

// Close does nothing: the server owns the engine, not its accounts.
func (e tenantEngine) Close() error { return nil }

// deferredTenantEngine is the view of a Deferred engine: an account's
// writers share its group commit as the shared tables' writers do. Its
// tickets are the engine's, whichever account wrote.
type deferredTenantEngine struct {
	tenantEngine
	storage.Deferred
}
