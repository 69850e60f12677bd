package local_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/local"
)

func corsCall(t *testing.T, srv *dynamotest.Server, method, origin string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(method, srv.URL, strings.NewReader(`{}`))
	req.Header.Set("Origin", origin)
	if method == "OPTIONS" {
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "content-type,x-amz-target,x-amz-date,authorization,x-amz-user-agent")
	} else {
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res
}

// CORS is off by default: no Access-Control headers, and a preflight is not
// answered, so browsers keep other origins' pages out.
func TestCORSOffByDefault(t *testing.T) {
	srv, _ := newServer(t)
	for _, m := range []string{"OPTIONS", "POST"} {
		res := corsCall(t, srv, m, "https://tool.example")
		if v := res.Header.Get("Access-Control-Allow-Origin"); v != "" {
			t.Errorf("%s: Access-Control-Allow-Origin %q", m, v)
		}
		if m == "OPTIONS" && res.StatusCode == 200 {
			t.Errorf("preflight answered 200 without WithCORS")
		}
	}
}

// WithCORS answers preflights from the allowed origins with DynamoDB's
// Access-Control headers, and exposes the response headers the SDKs read.
func TestCORSAllowedOrigins(t *testing.T) {
	srv := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithCORS("https://tool.example")))
	pre := corsCall(t, srv, "OPTIONS", "https://tool.example")
	allow := strings.ToLower(pre.Header.Get("Access-Control-Allow-Headers"))
	if pre.StatusCode != 200 || pre.Header.Get("Access-Control-Allow-Origin") != "https://tool.example" ||
		!strings.Contains(pre.Header.Get("Access-Control-Allow-Methods"), "POST") || pre.Header.Get("Access-Control-Max-Age") == "" {
		t.Fatalf("preflight: %d %v", pre.StatusCode, pre.Header)
	}
	for _, h := range []string{"content-type", "x-amz-target", "x-amz-date", "authorization", "x-amz-user-agent", "x-amz-security-token"} {
		if !strings.Contains(allow, h) {
			t.Errorf("Access-Control-Allow-Headers %q lacks %s", allow, h)
		}
	}
	res := corsCall(t, srv, "POST", "https://tool.example")
	expose := strings.ToLower(res.Header.Get("Access-Control-Expose-Headers"))
	if res.StatusCode != 200 || res.Header.Get("Access-Control-Allow-Origin") != "https://tool.example" ||
		!strings.Contains(expose, "x-amzn-requestid") || !strings.Contains(expose, "x-amz-crc32") {
		t.Fatalf("call: %d %v", res.StatusCode, res.Header)
	}
	other := corsCall(t, srv, "OPTIONS", "https://attacker.example")
	if other.StatusCode == 200 || other.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("preflight from another origin: %d %v", other.StatusCode, other.Header)
	}

	any := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithCORS("*")))
	if got := corsCall(t, any, "OPTIONS", "https://whatever.example").Header.Get("Access-Control-Allow-Origin"); got != "*" {
		t.Fatalf("WithCORS(\"*\"): Access-Control-Allow-Origin %q", got)
	}
}
