package local_test

import (
	"bytes"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/local"
)

func tcpAddr(t *testing.T, s string) net.Addr {
	a, err := net.ResolveTCPAddr("tcp", s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// hostStatus is the status of a ListTables sent with Host host.
func hostStatus(t *testing.T, h http.Handler, host string) int {
	req := httptest.NewRequest("POST", "/", strings.NewReader(`{}`))
	req.Host = host
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code == 403 && !strings.Contains(w.Body.String(), "AccessDeniedException") {
		t.Errorf("403 answer %s", w.Body)
	}
	return w.Code
}

// The Host header must name the server: its listening address, loopback
// names on loopback, or a name allowed explicitly; a DNS-rebound page's
// domain is refused.
func TestHostCheckRules(t *testing.T) {
	for _, tc := range []struct {
		listen  string
		names   []string
		allowed []string
		refused []string
	}{
		{listen: "127.0.0.1:8000",
			allowed: []string{"127.0.0.1:8000", "localhost:8000", "LocalHost:8000", "localhost.:8000", "[::1]:8000"},
			refused: []string{"attacker.example:8000", "attacker.example", "localhost:8001", "localhost", "10.0.0.1:8000", "", "127.0.0.1:x", "localhost.attacker.example:8000"}},
		{listen: "[::1]:8000",
			allowed: []string{"[::1]:8000", "localhost:8000", "127.0.0.1:8000"},
			refused: []string{"attacker.example:8000"}},
		{listen: "0.0.0.0:8000",
			allowed: []string{"localhost:8000", "192.168.1.5:8000", "192.168.1.5:9000", "[fe80::1]:8000", "10.0.0.1"},
			refused: []string{"attacker.example:8000", "localhost:9000", "host.docker.internal:8000"}},
		{listen: "192.168.1.5:8000",
			allowed: []string{"192.168.1.5:8000"},
			refused: []string{"localhost:8000", "127.0.0.1:8000", "192.168.1.6:8000"}},
		{listen: "127.0.0.1:8000", names: []string{"dynamo.internal", "box:9000", "[fd00::2]"},
			allowed: []string{"dynamo.internal:1234", "DYNAMO.internal", "box:9000", "[fd00::2]:1", "localhost:8000"},
			refused: []string{"box:9001", "box", "attacker.example:8000"}},
		{listen: "127.0.0.1:8000", names: []string{"*"},
			allowed: []string{"attacker.example:8000", "anything"}},
	} {
		srv, err := local.New(local.WithHostCheck(tcpAddr(t, tc.listen), tc.names...))
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range tc.allowed {
			if got := hostStatus(t, srv, h); got != 200 {
				t.Errorf("listen %s %v: Host %q got %d, want 200", tc.listen, tc.names, h, got)
			}
		}
		for _, h := range tc.refused {
			if got := hostStatus(t, srv, h); got != 403 {
				t.Errorf("listen %s %v: Host %q got %d, want 403", tc.listen, tc.names, h, got)
			}
		}
		srv.Close()
	}
}

// dynamotest checks the Host: the SDK works, a request naming another host
// (as a DNS-rebound page sends it) is refused, and DescribeEndpoints
// answers only a checked Host.
func TestHostCheckOnDynamotest(t *testing.T) {
	srv := dynamotest.NewServer(t, dynamotest.WithLocalOptions(local.WithHostCheck(nil, "dynamo.test"))) // adds a name
	c := srv.Client()
	if _, err := c.ListTables(ctx, &dynamodb.ListTablesInput{}); err != nil {
		t.Fatal(err)
	}
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	for host, want := range map[string]int{"attacker.example:" + port: 403, "localhost:" + port: 200, "dynamo.test:1": 200} {
		req, _ := http.NewRequest("POST", srv.URL, strings.NewReader(`{}`))
		req.Host = host
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810.DescribeEndpoints")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body bytes.Buffer
		if _, err := body.ReadFrom(res.Body); err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Fatalf("Host %s: %d %s, want %d", host, res.StatusCode, body.String(), want)
		}
		if want == 200 && !strings.Contains(body.String(), `"Address":"`+host+`"`) {
			t.Fatalf("DescribeEndpoints with Host %s: %s", host, body.String())
		}
	}
}

// Without WithHostCheck the Host is not vouched for, so DescribeEndpoints
// answers the region's public endpoint instead of echoing it.
func TestDescribeEndpointsUncheckedHost(t *testing.T) {
	srv, err := local.New()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv)
	defer hs.Close()
	c := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(hs.URL),
		Credentials: credentials.NewStaticCredentialsProvider("x", "y", "")})
	out, err := c.DescribeEndpoints(ctx, &dynamodb.DescribeEndpointsInput{})
	if err != nil || aws.ToString(out.Endpoints[0].Address) != "dynamodb.us-east-1.amazonaws.com" {
		t.Fatalf("%v %v", out, err)
	}
}
