package local

import (
	"net/http"
	"strings"
)

// WithCORS lets web pages from the given origins ("https://tool.example",
// or "*" for any) call the server from a browser, answering the preflight
// OPTIONS requests as DynamoDB does. Without it the server sends no CORS
// headers, and browsers keep other origins' pages from reading its answers.
func WithCORS(origins ...string) Option {
	return func(s *Server) {
		if s.cors == nil {
			s.cors = &corsPolicy{origins: map[string]bool{}}
		}
		for _, o := range origins {
			o = strings.TrimSuffix(strings.TrimSpace(o), "/")
			s.cors.any = s.cors.any || o == "*"
			s.cors.origins[strings.ToLower(o)] = true
		}
	}
}

type corsPolicy struct {
	origins map[string]bool // lower case, no trailing slash
	any     bool
}

// The headers the SDKs send and the ones their browser builds read, as
// DynamoDB allows and exposes them; a preflight result is cached for two
// days, as DynamoDB answers.
const (
	corsAllowHeaders  = "authorization, content-type, content-encoding, x-amz-target, x-amz-date, x-amz-security-token, x-amz-user-agent, x-amz-content-sha256, amz-sdk-invocation-id, amz-sdk-request"
	corsExposeHeaders = "x-amzn-RequestId, x-amzn-ErrorType, x-amzn-ErrorMessage, x-amz-crc32, Date"
	corsMaxAge        = "172800"
)

// apply adds the CORS headers for an allowed Origin and reports whether r
// was a preflight, now answered.
func (p *corsPolicy) apply(w http.ResponseWriter, r *http.Request) (answered bool) {
	if p == nil {
		return false
	}
	origin := r.Header.Get("Origin")
	if origin == "" || !(p.any || p.origins[strings.ToLower(origin)]) {
		return false
	}
	h := w.Header()
	if p.any {
		h.Set("Access-Control-Allow-Origin", "*")
	} else {
		h.Set("Access-Control-Allow-Origin", origin)
		h.Add("Vary", "Origin")
	}
	if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
		h.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
		h.Set("Access-Control-Allow-Headers", corsAllowHeaders)
		h.Set("Access-Control-Max-Age", corsMaxAge)
		h.Set("Content-Length", "0")
		w.WriteHeader(http.StatusOK)
		return true
	}
	h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
	return false
}
