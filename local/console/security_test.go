package console_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/dynamogo/dynamo/dynamotest"
)

// Every change needs the page's CSRF token and the console's own origin;
// a refused change changes nothing.
func TestChangesNeedTokenAndOrigin(t *testing.T) {
	srv, c, b := startConsole(t)
	createTable(t, srv, "tbl")
	item := func() url.Values {
		return url.Values{"mode": {"create"}, "item": {`{"pk": {"S": "u1"}, "sk": {"S": "a"}}`}}
	}
	good := b.token()
	for name, tc := range map[string]struct {
		token  string
		header []string
	}{
		"no token":                 {token: "", header: nil},
		"wrong token":              {token: strings.Repeat("0", 64)},
		"foreign origin":           {token: good, header: []string{"Origin", "http://evil.example"}},
		"origin null":              {token: good, header: []string{"Origin", "null"}},
		"other port":               {token: good, header: []string{"Origin", "http://127.0.0.1:1"}},
		"https origin":             {token: good, header: []string{"Origin", strings.Replace(b.base, "http:", "https:", 1)}},
		"cross-site fetch":         {token: good, header: []string{"Sec-Fetch-Site", "cross-site"}},
		"same-site (other origin)": {token: good, header: []string{"Sec-Fetch-Site", "same-site"}},
	} {
		f := item()
		f.Set("csrf", tc.token)
		if a := b.post("/console/t/tbl/item", f, tc.header...); a.status != http.StatusForbidden {
			t.Errorf("%s: %d, want 403", name, a.status)
		}
		if get(t, c, "tbl", "u1", "a") != nil {
			t.Fatalf("%s: the refused change was stored", name)
		}
	}
	// A token is bound to its cookie: another browser's token fails.
	other := newBrowser(t, srv)
	f := item()
	f.Set("csrf", other.token())
	if a := b.post("/console/t/tbl/item", f); a.status != http.StatusForbidden {
		t.Errorf("another browser's token: %d, want 403", a.status)
	}
	// Without Origin and Sec-Fetch-Site (not a browser), the token suffices.
	req, _ := http.NewRequest(http.MethodPost, b.base+"/console/t/tbl/item", strings.NewReader(func() string { f := item(); f.Set("csrf", good); return f.Encode() }()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if a := b.do(req); a.status != http.StatusSeeOther {
		t.Errorf("with the token alone: %d, want 303\n%s", a.status, a.body)
	}
	if get(t, c, "tbl", "u1", "a") == nil {
		t.Error("the valid change was not stored")
	}
}

// The CSRF cookie is HttpOnly and SameSite=Strict, scoped to the console,
// and pages carry the headers that keep them out of frames and other
// origins' scripts.
func TestCookiesAndHeaders(t *testing.T) {
	_, _, b := startConsole(t)
	a := b.get("/console/new-table")
	ck := a.header.Get("Set-Cookie")
	for _, want := range []string{"dynamo_console_csrf=", "Path=/console/", "HttpOnly", "SameSite=Strict"} {
		if !strings.Contains(ck, want) {
			t.Errorf("Set-Cookie %q lacks %s", ck, want)
		}
	}
	for h, want := range map[string]string{"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"} {
		if got := a.header.Get(h); got != want {
			t.Errorf("%s: %q, want %q", h, got, want)
		}
	}
	if csp := a.header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("Content-Security-Policy: %q", csp)
	}
	if a := b.get("/console/static/console.js"); a.status != http.StatusOK || !strings.Contains(a.body, "ddbError") {
		t.Errorf("the script: %d", a.status)
	}
}

// The server's Host check covers the console (DNS rebinding).
func TestHostChecked(t *testing.T) {
	_, _, b := startConsole(t)
	req, _ := http.NewRequest(http.MethodGet, b.base+"/console/", nil)
	req.Host = "rebound.example"
	if a := b.do(req); a.status != http.StatusForbidden {
		t.Errorf("foreign Host: %d, want 403", a.status)
	}
}

// When the server requires signed requests, the console requires a sign-in
// with one of its keys: pages redirect to it, changes answer 401.
func TestSignInRequired(t *testing.T) {
	srv, c, b := startConsole(t, dynamotest.WithAccessKey("AKIDCONSOLE", "s3cret", ""))
	createTable(t, srv, "tbl")
	a := b.get("/console/t/tbl")
	if a.status != http.StatusSeeOther || a.header.Get("Location") != "/console/login?next=%2Fconsole%2Ft%2Ftbl" {
		t.Fatalf("page before sign-in: %d to %q", a.status, a.header.Get("Location"))
	}
	csrf := regexpFind(t, b.page("/console/login"), `name="csrf" value="([0-9a-f]+)"`)
	post := func(path string, f url.Values) answer {
		f.Set("csrf", csrf)
		return b.post(path, f)
	}
	if a := post("/console/t/tbl/item", url.Values{"mode": {"create"}, "item": {`{"pk": {"S": "u1"}, "sk": {"S": "a"}}`}}); a.status != http.StatusUnauthorized {
		t.Errorf("change before sign-in: %d, want 401", a.status)
	}
	if get(t, c, "tbl", "u1", "a") != nil {
		t.Fatal("the unauthenticated change was stored")
	}
	for name, f := range map[string]url.Values{
		"wrong secret":   {"key_id": {"AKIDCONSOLE"}, "secret": {"s3cret!"}},
		"unknown key":    {"key_id": {"AKIDOTHER"}, "secret": {"s3cret"}},
		"stray token":    {"key_id": {"AKIDCONSOLE"}, "secret": {"s3cret"}, "session_token": {"x"}},
		"empty key id":   {"key_id": {""}, "secret": {""}},
		"key id no case": {"key_id": {"akidconsole"}, "secret": {"s3cret"}},
	} {
		a := post("/console/login", f)
		if a.status != http.StatusUnauthorized {
			t.Errorf("%s: %d, want 401", name, a.status)
		}
		if strings.Contains(a.body, "s3cret") {
			t.Errorf("%s: the page shows the secret", name)
		}
	}
	a = post("/console/login", url.Values{"key_id": {"AKIDCONSOLE"}, "secret": {"s3cret"}, "next": {"/console/t/tbl"}})
	if a.status != http.StatusSeeOther || a.header.Get("Location") != "/console/t/tbl" {
		t.Fatalf("sign-in: %d to %q", a.status, a.header.Get("Location"))
	}
	ck := a.header.Get("Set-Cookie")
	for _, want := range []string{"dynamo_console_session=", "HttpOnly", "SameSite=Strict", "Path=/console/"} {
		if !strings.Contains(ck, want) {
			t.Errorf("session cookie %q lacks %s", ck, want)
		}
	}
	mustContain(t, "the table page after sign-in", b.page("/console/t/tbl"), "AKIDCONSOLE", "Sign out")
	if a := post("/console/t/tbl/item", url.Values{"mode": {"create"}, "item": {`{"pk": {"S": "u1"}, "sk": {"S": "a"}}`}}); a.status != http.StatusSeeOther {
		t.Errorf("change after sign-in: %d\n%s", a.status, a.body)
	}
	if get(t, c, "tbl", "u1", "a") == nil {
		t.Error("the signed-in change was not stored")
	}
	// No open redirect: next is only ever a console page.
	a = post("/console/login", url.Values{"key_id": {"AKIDCONSOLE"}, "secret": {"s3cret"}, "next": {"//evil.example/"}})
	if loc := a.header.Get("Location"); loc != "/console/" {
		t.Errorf("sign-in with a foreign next: to %q", loc)
	}
	// Signing out ends the session.
	if a := post("/console/logout", url.Values{}); a.status != http.StatusSeeOther {
		t.Fatalf("sign out: %d", a.status)
	}
	if a := b.get("/console/t/tbl"); a.status != http.StatusSeeOther {
		t.Errorf("page after sign-out: %d, want a redirect to sign in", a.status)
	}
}
