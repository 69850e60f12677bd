package console

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/dynamogo/dynamo/local"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Enable is the local.Option that serves the console under /console/.
func Enable() local.Option {
	return local.WithConsole(func(s *local.Server) http.Handler { return New(s) })
}

// New returns the console of srv, to serve under local.ConsolePath
// (local.WithConsole does, through Enable).
func New(srv *local.Server) http.Handler {
	c := &Console{srv: srv, sessions: map[string]session{}, now: time.Now}
	rand.Read(c.secret[:])
	c.pages = parsePages()
	m := http.NewServeMux()
	static, _ := fs.Sub(staticFS, "static")
	m.Handle("GET /console/static/", http.StripPrefix("/console/static/", http.FileServerFS(static)))
	m.HandleFunc("GET /console/{$}", c.tables)
	m.HandleFunc("GET /console/login", c.loginPage)
	m.HandleFunc("POST /console/login", c.login)
	m.HandleFunc("POST /console/logout", c.logout)
	m.HandleFunc("GET /console/new-table", c.newTablePage)
	m.HandleFunc("POST /console/new-table", c.createTable)
	m.HandleFunc("GET /console/requests", c.requests)
	m.HandleFunc("GET /console/partiql", c.partiqlPage)
	m.HandleFunc("POST /console/partiql", c.partiql)
	m.HandleFunc("GET /console/t/{table}", c.items)
	m.HandleFunc("GET /console/t/{table}/query", c.query)
	m.HandleFunc("GET /console/t/{table}/item", c.itemPage)
	m.HandleFunc("POST /console/t/{table}/item", c.putItem)
	m.HandleFunc("POST /console/t/{table}/delete-item", c.deleteItem)
	m.HandleFunc("POST /console/t/{table}/delete", c.deleteTable)
	m.HandleFunc("POST /console/t/{table}/gsi", c.createIndex)
	m.HandleFunc("POST /console/t/{table}/delete-gsi", c.deleteIndex)
	m.HandleFunc("GET /console/t/{table}/stream", c.stream)
	m.HandleFunc("GET /console/t/{table}/search", c.search)
	c.mux = m
	return c
}

// Console is the console's handler (New).
type Console struct {
	srv    *local.Server
	mux    *http.ServeMux
	pages  map[string]*template.Template
	secret [32]byte // keys the CSRF tokens; new in every process
	now    func() time.Time

	mu       sync.Mutex
	sessions map[string]session // sign-ins by session cookie, when the server requires credentials
}

type session struct {
	keyID   string
	expires time.Time
}

// sessionLife is how long a sign-in lasts.
const sessionLife = 12 * time.Hour

const (
	csrfCookie    = "dynamo_console_csrf"
	sessionCookie = "dynamo_console_session"
	csrfField     = "csrf"
)

// ServeHTTP applies the console's rules, in order: security headers on
// every answer, a change (POST) only from the console's own origin and with
// a valid CSRF token (403), a sign-in when the server requires credentials
// (a redirect for a page, 401 otherwise), then the page.
func (c *Console) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
	if r.URL.Path == "/console" {
		http.Redirect(w, r, "/console/", http.StatusSeeOther)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		if !sameOrigin(r) {
			http.Error(w, "console: a change must come from the console's own page (cross-origin request refused)", http.StatusForbidden)
			return
		}
		if !c.validCSRF(r) {
			http.Error(w, "console: missing or wrong CSRF token; reload the page and try again", http.StatusForbidden)
			return
		}
	}
	if c.srv.RequiresCredentials() && !strings.HasPrefix(r.URL.Path, "/console/static/") && r.URL.Path != "/console/login" {
		if c.signedIn(r) == "" {
			if r.Method == http.MethodGet {
				http.Redirect(w, r, "/console/login?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
				return
			}
			http.Error(w, "console: sign in with an access key of the server", http.StatusUnauthorized)
			return
		}
	}
	c.mux.ServeHTTP(w, r)
}

// sameOrigin reports whether a browser says r comes from the console's
// own origin; requests without Origin and Sec-Fetch-Site (not from a
// browser, or an old one) rely on the CSRF token alone.
func sameOrigin(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default:
		return false
	}
	o := r.Header.Get("Origin")
	if o == "" {
		return true
	}
	u, err := url.Parse(o)
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return err == nil && u.Scheme == scheme && strings.EqualFold(u.Host, r.Host)
}

// csrfToken returns the token forms carry, setting the cookie it is
// derived from when the browser has none yet.
func (c *Console) csrfToken(w http.ResponseWriter, r *http.Request) string {
	ck, err := r.Cookie(csrfCookie)
	v := ""
	if err == nil && len(ck.Value) == 64 {
		v = ck.Value
	} else {
		v = randomHex()
		http.SetCookie(w, &http.Cookie{Name: csrfCookie, Value: v, Path: local.ConsolePath,
			HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	}
	return c.sign(v)
}

func (c *Console) sign(v string) string {
	m := hmac.New(sha256.New, c.secret[:])
	m.Write([]byte(v))
	return hex.EncodeToString(m.Sum(nil))
}

// validCSRF checks the double submit: the form's token is the HMAC of the
// cookie under this process's secret.
func (c *Console) validCSRF(r *http.Request) bool {
	ck, err := r.Cookie(csrfCookie)
	if err != nil || ck.Value == "" {
		return false
	}
	got := r.PostFormValue(csrfField)
	return got != "" && hmac.Equal([]byte(got), []byte(c.sign(ck.Value)))
}

func randomHex() string {
	var b [32]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// signedIn returns the access key id of r's session ("" when none).
func (c *Console) signedIn(r *http.Request) string {
	ck, err := r.Cookie(sessionCookie)
	if err != nil {
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.sessions[ck.Value]
	if !ok || c.now().After(s.expires) {
		delete(c.sessions, ck.Value)
		return ""
	}
	return s.keyID
}

func (c *Console) loginPage(w http.ResponseWriter, r *http.Request) {
	c.render(w, r, http.StatusOK, "login", "Sign in", loginData{Next: r.URL.Query().Get("next")})
}

type loginData struct {
	Next, KeyID string
}

func (c *Console) login(w http.ResponseWriter, r *http.Request) {
	d := loginData{Next: r.PostFormValue("next"), KeyID: r.PostFormValue("key_id")}
	if !c.srv.RequiresCredentials() {
		http.Redirect(w, r, "/console/", http.StatusSeeOther)
		return
	}
	if !c.srv.CheckAccessKey(d.KeyID, r.PostFormValue("secret"), r.PostFormValue("session_token")) {
		c.renderError(w, r, http.StatusUnauthorized, "login", "Sign in", d, errors.New("the access key id, secret or session token is not one the server accepts"))
		return
	}
	id := randomHex()
	c.mu.Lock()
	for k, s := range c.sessions { // forget the expired ones
		if c.now().After(s.expires) {
			delete(c.sessions, k)
		}
	}
	c.sessions[id] = session{keyID: d.KeyID, expires: c.now().Add(sessionLife)}
	c.mu.Unlock()
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: id, Path: local.ConsolePath,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil, MaxAge: int(sessionLife / time.Second)})
	next := d.Next
	if !strings.HasPrefix(next, local.ConsolePath) { // only the console's own pages: no open redirect
		next = local.ConsolePath
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

func (c *Console) logout(w http.ResponseWriter, r *http.Request) {
	if ck, err := r.Cookie(sessionCookie); err == nil {
		c.mu.Lock()
		delete(c.sessions, ck.Value)
		c.mu.Unlock()
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: local.ConsolePath, MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, "/console/login", http.StatusSeeOther)
}

// call runs action in-process with in as its JSON body, decoding the answer
// into out (when not nil). Its errors are the API's (*local.Error).
func (c *Console) call(action string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	resp, err := c.srv.Invoke(action, body)
	if err != nil {
		return err
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(resp, out)
}

// notices are the messages a page shows after a change redirected to it
// (by code: nothing the request chose is echoed).
var notices = map[string]string{
	"created":       "Item created.",
	"saved":         "Item saved.",
	"deleted":       "Item deleted.",
	"table-created": "Table created.",
	"table-deleted": "Table deleted.",
	"gsi-created":   "Index created (backfilled).",
	"gsi-deleted":   "Index deleted.",
}

// page is what every template gets.
type page struct {
	Title    string
	CSRF     string
	SignedIn string // the access key id signed in, when credentials are required
	Notice   string
	Error    string
	Data     any
}

func (c *Console) render(w http.ResponseWriter, r *http.Request, status int, name, title string, data any) {
	c.renderError(w, r, status, name, title, data, nil)
}

// renderError renders page name with err (an API error or the console's
// own) shown above it.
func (c *Console) renderError(w http.ResponseWriter, r *http.Request, status int, name, title string, data any, err error) {
	p := page{Title: title, CSRF: c.csrfToken(w, r), SignedIn: c.signedIn(r), Notice: notices[r.URL.Query().Get("done")], Data: data}
	if err != nil {
		p.Error = errorText(err)
		if status == http.StatusOK {
			status = http.StatusBadRequest
		}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	if err := c.pages[name].ExecuteTemplate(w, "layout", p); err != nil {
		// The header is sent: all that can be done is to say so in the page.
		w.Write([]byte("<p>console: the page failed to render</p>"))
	}
}

// errorText is how an error reads in a page: an API error as its type and
// message, as an SDK would report it.
func errorText(err error) string {
	var le *local.Error
	if errors.As(err, &le) {
		return le.Type + ": " + le.Message
	}
	return err.Error()
}

// statusOf is the HTTP status a page answers an API error with.
func statusOf(err error) int {
	var le *local.Error
	if errors.As(err, &le) && le.Status != 0 {
		return le.Status
	}
	if errors.As(err, &le) && le.Type == "ResourceNotFoundException" {
		return http.StatusNotFound
	}
	return http.StatusBadRequest
}

// redirect answers a change with a redirect to a page of the console, which
// shows notice.
func redirect(w http.ResponseWriter, r *http.Request, path, notice string) {
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	http.Redirect(w, r, path+sep+"done="+notice, http.StatusSeeOther)
}

func tablePath(name string) string { return "/console/t/" + url.PathEscape(name) }
