package cli

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
)

// Listening beyond loopback without credential checks prints a warning;
// on loopback it does not.
func TestLocalWarnsBeyondLoopback(t *testing.T) {
	for host, warn := range map[string]bool{"127.0.0.1": false, "0.0.0.0": true} {
		var stderr bytes.Buffer
		_, stop := serveLocal(t, &stderr, "--host", host)
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(stderr.String(), "does not check credentials"); got != warn {
			t.Errorf("--host %s: warning printed = %v, want %v (stderr %q)", host, got, warn, stderr.String())
		}
	}
}

func send(t *testing.T, method, url, host, origin string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(`{}`))
	req.Host = host
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
	if origin != "" {
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res
}

// dynamo local answers only Hosts naming it (plus --allow-host names), and
// CORS preflights only from --cors origins.
func TestLocalHostsAndCORS(t *testing.T) {
	endpoint, _ := serveLocal(t, &bytes.Buffer{}, "--allow-host", "dynamo.test", "--cors", "http://localhost:3000")
	port := endpoint[strings.LastIndex(endpoint, ":")+1:]
	for host, want := range map[string]int{
		"127.0.0.1:" + port: 200, "localhost:" + port: 200, "dynamo.test:9999": 200,
		"attacker.example:" + port: 403, "localhost:1": 403,
	} {
		if got := send(t, "POST", endpoint, host, "").StatusCode; got != want {
			t.Errorf("Host %s: %d, want %d", host, got, want)
		}
	}
	pre := send(t, "OPTIONS", endpoint, "localhost:"+port, "http://localhost:3000")
	if pre.StatusCode != 200 || pre.Header.Get("Access-Control-Allow-Origin") != "http://localhost:3000" {
		t.Errorf("preflight from an allowed origin: %d %v", pre.StatusCode, pre.Header)
	}
	if other := send(t, "OPTIONS", endpoint, "localhost:"+port, "http://attacker.example"); other.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("preflight from another origin answered with %v", other.Header)
	}
}
