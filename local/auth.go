package local

import (
	"bufio"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Authentication (WithAccessKeys): the server verifies the AWS Signature
// Version 4 of every request itself, as DynamoDB does, and answers its
// errors. The types, HTTP status (400 for all of them) and messages are
// DynamoDB's: "Error handling with DynamoDB" in the developer guide
// (Programming.Errors.html) lists them; the clock-skew texts are the
// service's answers. The signing process is "Create a signed AWS API
// request" in the IAM user guide (create-signed-request.html).

// AccessKey is a credential the server accepts (WithAccessKeys).
type AccessKey struct {
	ID     string // the access key id, e.g. AKIAIOSFODNN7EXAMPLE: letters and digits
	Secret string // the secret access key
	// SessionToken, when set, must come with every request signed by this
	// key (X-Amz-Security-Token), as with temporary credentials; a key
	// without one refuses requests that carry a token.
	SessionToken string
}

// String shows the key id only: a key printed by mistake (%v in a log)
// does not leak its secret.
func (k AccessKey) String() string { return "AccessKey(" + k.ID + ")" }

// GoString is String for %#v.
func (k AccessKey) GoString() string { return k.String() }

// WithAccessKeys turns authentication on: every request must be signed
// with AWS Signature Version 4 by one of keys (with its session token if it
// has one), within 15 minutes of the server's clock (WithClock); anything
// else is answered with DynamoDB's authentication errors. The region of the
// signature is not checked against WithRegion (it selects the account with
// WithTenancy). Without this option credentials are not checked at all.
// New reports no keys, an empty id or secret, an id that is not letters and
// digits, and a duplicate id.
func WithAccessKeys(keys ...AccessKey) Option {
	return func(s *Server) {
		if s.auth.keys == nil {
			s.auth.keys = map[string]AccessKey{}
		}
		if len(keys) == 0 && s.auth.err == nil {
			s.auth.err = errors.New("local: WithAccessKeys without access keys")
		}
		for _, k := range keys {
			switch {
			case s.auth.err != nil:
			case !validKeyID(k.ID):
				s.auth.err = fmt.Errorf("local: access key id %q: want 1 to %d letters and digits", k.ID, maxKeyIDLen)
			case k.Secret == "":
				s.auth.err = fmt.Errorf("local: access key %s: empty secret", k.ID)
			case s.auth.keys[k.ID] != (AccessKey{}):
				s.auth.err = fmt.Errorf("local: access key %s: listed twice", k.ID)
			default:
				s.auth.keys[k.ID] = k
			}
		}
	}
}

// ReadAccessKeys reads access keys in the credentials file format of
// `dynamo local --credentials`: one key per line, its id, its secret and
// optionally its session token, separated by spaces or tabs; blank lines
// and lines starting with # are ignored. Errors name the line, never a
// secret.
func ReadAccessKeys(r io.Reader) ([]AccessKey, error) {
	var keys []AccessKey
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 2 || len(f) > 3 {
			return nil, fmt.Errorf("line %d: want ACCESS_KEY_ID SECRET [SESSION_TOKEN], got %d fields", n, len(f))
		}
		if !validKeyID(f[0]) {
			return nil, fmt.Errorf("line %d: access key id: want 1 to %d letters and digits", n, maxKeyIDLen)
		}
		k := AccessKey{ID: f[0], Secret: f[1]}
		if len(f) == 3 {
			k.SessionToken = f[2]
		}
		keys = append(keys, k)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(keys) == 0 {
		return nil, errors.New("no access keys")
	}
	return keys, nil
}

// maxKeyIDLen bounds an access key id (IAM's are 16 to 128 characters).
const maxKeyIDLen = 128

// validKeyID reports whether id is 1 to 128 letters and digits, the
// characters of IAM access key ids (and all DynamoDB Local accepts, since it
// names a file after the id; here it names the account's tables in the
// engine, WithTenancy).
func validKeyID(id string) bool {
	if id == "" || len(id) > maxKeyIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// authConfig is the server's authentication: the accepted keys by id (nil:
// authentication off) and a configuration error for New.
type authConfig struct {
	keys map[string]AccessKey
	err  error

	mu      sync.Mutex
	derived map[string][]byte // signing keys by "<key id>/<date>/<region>"
}

const (
	sigAlgorithm  = "AWS4-HMAC-SHA256"
	sigService    = "dynamodb"
	sigTerminator = "aws4_request"
	amzDateFormat = "20060102T150405Z"
	// maxSkew is how far a request's X-Amz-Date may be from the server's
	// clock, either way.
	maxSkew = 15 * time.Minute
)

// The errors of authentication, all HTTP 400 on DynamoDB.

func missingAuthToken() *Error {
	return &Error{Type: "MissingAuthenticationTokenException", Message: "Request is missing Authentication Token"}
}

func incompleteSignature(msg string) *Error {
	return &Error{Type: "IncompleteSignatureException", Message: msg}
}

func invalidSignature(msg string) *Error {
	return &Error{Type: "InvalidSignatureException", Message: msg}
}

// unrecognizedClient answers an unknown access key id or a wrong session
// token: DynamoDB does not say which.
func unrecognizedClient() *Error {
	return &Error{Type: "UnrecognizedClientException", Message: "The security token included in the request is invalid."}
}

// invalidKeyID answers a key id that is not letters and digits under
// WithTenancy without authentication, in DynamoDB Local's words (nothing
// else here lets such an id through: WithAccessKeys refuses it).
func invalidKeyID() *Error {
	return &Error{Type: "UnrecognizedClientException", Message: "The Access Key ID or security token is invalid."}
}

const signatureMismatch = "The request signature we calculated does not match the signature you provided. " +
	"Check your AWS Secret Access Key and signing method. Consult the service documentation for details."

// credential is what an Authorization header says: the signer's access key
// id and the scope, signed headers and signature.
type credential struct {
	keyID, date, region, service, terminator string
	signedHeaders                            string // as sent: lower case, sorted, ';'-separated
	signature                                string // hex
	when                                     time.Time
	amzDate                                  string // the request's time as signed (ISO 8601 basic)
}

// parseCredential reads the Authorization and X-Amz-Date (or Date) headers.
// Messages never quote the header: it is the client's, and may hold
// anything.
func parseCredential(r *http.Request) (*credential, *Error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return nil, missingAuthToken()
	}
	alg, rest, _ := strings.Cut(strings.TrimSpace(h), " ")
	if strings.HasPrefix(alg, "AWS4-") && alg != sigAlgorithm {
		return nil, incompleteSignature("Unsupported AWS 'algorithm': only '" + sigAlgorithm + "' is accepted")
	}
	var c credential
	var cred string
	if alg == sigAlgorithm {
		for part := range strings.SplitSeq(rest, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			k, v, ok := strings.Cut(part, "=")
			if !ok {
				return nil, incompleteSignature("Invalid key=value pair (missing equal-sign) in Authorization header")
			}
			switch k {
			case "Credential":
				cred = v
			case "SignedHeaders":
				c.signedHeaders = v
			case "Signature":
				c.signature = v
			}
		}
	}
	var missing []string
	if cred == "" {
		missing = append(missing, "Authorization header requires 'Credential' parameter.")
	}
	if c.signature == "" {
		missing = append(missing, "Authorization header requires 'Signature' parameter.")
	}
	if c.signedHeaders == "" {
		missing = append(missing, "Authorization header requires 'SignedHeaders' parameter.")
	}
	amzDate := r.Header.Get("X-Amz-Date")
	if amzDate == "" && r.Header.Get("Date") == "" {
		missing = append(missing, "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.")
	}
	if len(missing) > 0 {
		return nil, incompleteSignature(strings.Join(missing, " "))
	}
	var err error
	if amzDate != "" {
		c.when, err = time.Parse(amzDateFormat, amzDate)
	} else {
		c.when, err = http.ParseTime(r.Header.Get("Date"))
	}
	if err != nil {
		return nil, incompleteSignature("Date must be in ISO-8601 'basic format', e.g. 20150830T123600Z")
	}
	c.amzDate = c.when.UTC().Format(amzDateFormat)
	parts := strings.Split(cred, "/")
	if len(parts) != 5 {
		return nil, incompleteSignature("Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term")
	}
	c.keyID, c.date, c.region, c.service, c.terminator = parts[0], parts[1], parts[2], parts[3], parts[4]
	return &c, nil
}

// verify checks r's signature against the configured keys; body is the
// payload as sent. The checks run in the order DynamoDB's answers imply:
// the header's form, the scope, the key, the clock, the signature.
func (a *authConfig) verify(r *http.Request, body []byte, now time.Time) (*credential, *Error) {
	c, e := parseCredential(r)
	if e != nil {
		return nil, e
	}
	if !strings.Contains(";"+c.signedHeaders+";", ";host;") {
		return nil, incompleteSignature("'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.")
	}
	if c.date != c.amzDate[:8] {
		return nil, invalidSignature("Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '" + c.amzDate[:8] + "'.")
	}
	if c.service != sigService {
		return nil, invalidSignature("Credential should be scoped to correct service: '" + sigService + "'. ")
	}
	if c.terminator != sigTerminator {
		return nil, invalidSignature("Credential should be scoped with a valid terminator: '" + sigTerminator + "'.")
	}
	key, ok := a.keys[c.keyID]
	if !ok {
		return nil, unrecognizedClient()
	}
	token := r.Header.Get("X-Amz-Security-Token")
	if (key.SessionToken == "") != (token == "") || subtle.ConstantTimeCompare([]byte(token), []byte(key.SessionToken)) != 1 {
		return nil, unrecognizedClient()
	}
	if e := checkSkew(c.when, now); e != nil {
		return nil, e
	}
	// The payload hash is always the body's own: a client's
	// X-Amz-Content-Sha256 (signed with its value) must agree with it.
	sum := sha256.Sum256(body)
	payloadHash := hex.EncodeToString(sum[:])
	if h := r.Header.Get("X-Amz-Content-Sha256"); h != "" && h != payloadHash {
		return nil, invalidSignature(signatureMismatch)
	}
	canonical := canonicalRequest(r, c.signedHeaders, payloadHash)
	creq := sha256.Sum256([]byte(canonical))
	scope := c.date + "/" + c.region + "/" + c.service + "/" + c.terminator
	toSign := sigAlgorithm + "\n" + c.amzDate + "\n" + scope + "\n" + hex.EncodeToString(creq[:])
	want := hmacSHA256(a.signingKey(key, c.date, c.region), toSign)
	got, err := hex.DecodeString(c.signature)
	if err != nil || !hmac.Equal(got, want) {
		return nil, invalidSignature(signatureMismatch)
	}
	return c, nil
}

// checkSkew refuses a request signed more than 15 minutes before or after
// now, with the service's messages (the SDKs recognise the error and, from
// the response's Date header, correct their clock and retry).
func checkSkew(when, now time.Time) *Error {
	f := func(t time.Time) string { return t.UTC().Format(amzDateFormat) }
	if early := now.Add(-maxSkew); when.Before(early) {
		return invalidSignature("Signature expired: " + f(when) + " is now earlier than " + f(early) + " (" + f(now) + " - 15 min.)")
	}
	if late := now.Add(maxSkew); when.After(late) {
		return invalidSignature("Signature not yet current: " + f(when) + " is still later than " + f(late) + " (" + f(now) + " + 15 min.)")
	}
	return nil
}

// maxDerived bounds the cache of signing keys (regions are the client's
// choice).
const maxDerived = 1024

// signingKey is the key SigV4 derives from the secret, the day and the
// region. A client signs a day's requests with the same one, so it is
// derived once (four HMACs) and cached.
func (a *authConfig) signingKey(key AccessKey, date, region string) []byte {
	id := key.ID + "/" + date + "/" + region
	a.mu.Lock()
	k, ok := a.derived[id]
	a.mu.Unlock()
	if ok {
		return k
	}
	k = hmacSHA256([]byte("AWS4"+key.Secret), date)
	k = hmacSHA256(k, region)
	k = hmacSHA256(k, sigService)
	k = hmacSHA256(k, sigTerminator)
	a.mu.Lock()
	if a.derived == nil || len(a.derived) >= maxDerived {
		a.derived = map[string][]byte{}
	}
	a.derived[id] = k
	a.mu.Unlock()
	return k
}

func hmacSHA256(key []byte, data string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(data))
	return h.Sum(nil)
}

// canonicalRequest is SigV4's canonical request of r: method, URI (encoded
// twice, as for every service but S3), query, the signed headers with their
// values trimmed and inner runs of spaces collapsed, the signed header list
// and the payload hash.
func canonicalRequest(r *http.Request, signedHeaders, payloadHash string) string {
	var b strings.Builder
	b.WriteString(r.Method)
	b.WriteByte('\n')
	path := r.URL.EscapedPath()
	if path == "" {
		path = "/"
	}
	b.WriteString(uriEncode(path, false))
	b.WriteByte('\n')
	b.WriteString(canonicalQuery(r.URL.RawQuery))
	b.WriteByte('\n')
	for name := range strings.SplitSeq(signedHeaders, ";") {
		b.WriteString(name)
		b.WriteByte(':')
		var vals []string
		switch name {
		case "host":
			vals = []string{r.Host}
		case "content-length":
			if vals = r.Header.Values(name); len(vals) == 0 && r.ContentLength >= 0 {
				vals = []string{strconv.FormatInt(r.ContentLength, 10)}
			}
		default:
			vals = r.Header.Values(name)
		}
		for i, v := range vals {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(trimSpaces(v))
		}
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	b.WriteString(signedHeaders)
	b.WriteByte('\n')
	b.WriteString(payloadHash)
	return b.String()
}

// trimSpaces trims a header value's leading and trailing spaces and
// collapses each inner run of spaces into one.
func trimSpaces(v string) string {
	v = strings.Trim(v, " ")
	if !strings.Contains(v, "  ") {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == ' ' && v[i-1] == ' ' {
			continue
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

// canonicalQuery encodes each name and value, then sorts the pairs.
func canonicalQuery(raw string) string {
	if raw == "" {
		return ""
	}
	q, _ := url.ParseQuery(raw)
	var pairs [][2]string
	for k, vs := range q {
		for _, v := range vs {
			pairs = append(pairs, [2]string{uriEncode(k, true), uriEncode(v, true)})
		}
	}
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i][0] != pairs[j][0] {
			return pairs[i][0] < pairs[j][0]
		}
		return pairs[i][1] < pairs[j][1]
	})
	var b strings.Builder
	for i, p := range pairs {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(p[0] + "=" + p[1])
	}
	return b.String()
}

// uriEncode percent-encodes every byte but the unreserved characters of
// RFC 3986 (and '/', unless encodeSlash), in upper-case hex.
func uriEncode(s string, encodeSlash bool) string {
	const hexDigits = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' ||
			c == '-' || c == '_' || c == '.' || c == '~' || c == '/' && !encodeSlash {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hexDigits[c>>4])
		b.WriteByte(hexDigits[c&15])
	}
	return b.String()
}
