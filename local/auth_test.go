package local_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/local"
)

const (
	authKeyID  = "AKIDLOCALTEST"
	authSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
)

// authServer starts a server that requires signatures by authKeyID, with
// its clock at *now when now is not nil.
func authServer(t *testing.T, now *atomic.Pointer[time.Time], opts ...local.Option) *dynamotest.Server {
	t.Helper()
	if now != nil {
		opts = append(opts, local.WithClock(func() time.Time { return *now.Load() }))
	}
	return dynamotest.NewServer(t, dynamotest.WithAccessKey(authKeyID, authSecret, ""), dynamotest.WithLocalOptions(opts...))
}

// clientAs is a client of srv signing with the given credentials that does
// not retry.
func clientAs(srv *dynamotest.Server, id, secret, token string) *dynamodb.Client {
	return srv.Client(func(o *dynamodb.Options) {
		o.Credentials = credentials.NewStaticCredentialsProvider(id, secret, token)
		o.Retryer = aws.NopRetryer{}
	})
}

func TestAuthAcceptsTheConfiguredKey(t *testing.T) {
	srv := authServer(t, nil)
	hashTable(t, srv, "things") // through srv.Client, which signs with the key
	c := clientAs(srv, authKeyID, authSecret, "")
	put(t, c, "things", item{"pk": S("a"), "n": N("1")})
	out, err := c.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil || len(out.TableNames) != 1 {
		t.Fatalf("ListTables = %v, %v", out, err)
	}
	// The repo of dynamotest signs with the key too.
	if _, err := srv.Repo(t).DescribeTable(ctx, "things"); err != nil {
		t.Fatal(err)
	}
}

func TestAuthRefusesAnUnknownKey(t *testing.T) {
	srv := authServer(t, nil)
	_, err := clientAs(srv, "AKIDSOMEONEELSE", authSecret, "").ListTables(ctx, &dynamodb.ListTablesInput{})
	wantErr(t, err, "UnrecognizedClientException", "The security token included in the request is invalid.")
	wantStatus(t, err, 400)
}

func TestAuthRefusesAWrongSecret(t *testing.T) {
	srv := authServer(t, nil)
	_, err := clientAs(srv, authKeyID, authSecret+"x", "").ListTables(ctx, &dynamodb.ListTablesInput{})
	wantErr(t, err, "InvalidSignatureException", "The request signature we calculated does not match the signature you provided. "+
		"Check your AWS Secret Access Key and signing method. Consult the service documentation for details.")
	wantStatus(t, err, 400)
}

func TestAuthRefusesAMissingAuthorization(t *testing.T) {
	srv := authServer(t, nil)
	// Anonymous credentials: the SDK sends the request unsigned.
	c := srv.Client(func(o *dynamodb.Options) { o.Credentials = aws.AnonymousCredentials{}; o.Retryer = aws.NopRetryer{} })
	_, err := c.ListTables(ctx, &dynamodb.ListTablesInput{})
	wantErr(t, err, "MissingAuthenticationTokenException", "Request is missing Authentication Token")
	wantStatus(t, err, 400)

	// Without WithAccessKeys nothing is checked, as before.
	open := dynamotest.NewServer(t)
	c = open.Client(func(o *dynamodb.Options) { o.Credentials = aws.AnonymousCredentials{} })
	if _, err := c.ListTables(ctx, &dynamodb.ListTablesInput{}); err != nil {
		t.Fatalf("open server, unsigned request: %v", err)
	}
}

// A signed request whose Authorization header is then mangled (after the
// SDK's signer ran).
func TestAuthRefusesAMalformedAuthorization(t *testing.T) {
	srv := authServer(t, nil)
	mangle := func(f func(string) string) *dynamodb.Client {
		return srv.Client(func(o *dynamodb.Options) {
			o.Retryer = aws.NopRetryer{}
			o.APIOptions = append(o.APIOptions, func(st *middleware.Stack) error {
				return st.Finalize.Add(middleware.FinalizeMiddlewareFunc("mangle", func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
					req := in.Request.(*smithyhttp.Request)
					req.Header.Set("Authorization", f(req.Header.Get("Authorization")))
					return next.HandleFinalize(ctx, in)
				}), middleware.After)
			})
		})
	}
	dropSignature := regexp.MustCompile(`, Signature=[0-9a-f]+`)
	_, err := mangle(func(h string) string { return dropSignature.ReplaceAllString(h, "") }).ListTables(ctx, &dynamodb.ListTablesInput{})
	wantErr(t, err, "IncompleteSignatureException", "Authorization header requires 'Signature' parameter.")
	wantStatus(t, err, 400)

	flipped := regexp.MustCompile(`Signature=.`)
	_, err = mangle(func(h string) string {
		return flipped.ReplaceAllStringFunc(h, func(s string) string {
			if s[len(s)-1] == '0' {
				return "Signature=1"
			}
			return "Signature=0"
		})
	}).ListTables(ctx, &dynamodb.ListTablesInput{})
	wantErrContains(t, err, "InvalidSignatureException", "The request signature we calculated does not match")
}

// rawRequest is a ListTables request signed by the SDK's own signer at
// signed, which edit may then change.
func rawRequest(t *testing.T, srv *dynamotest.Server, signed time.Time, body string, edit func(*http.Request)) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, srv.URL+"/", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
	sum := sha256.Sum256([]byte(body))
	creds := aws.Credentials{AccessKeyID: authKeyID, SecretAccessKey: authSecret}
	if err := v4.NewSigner().SignHTTP(ctx, creds, req, hex.EncodeToString(sum[:]), "dynamodb", "us-east-1", signed); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(req)
	}
	return req
}

// send posts req and returns the status and the error's __type suffix and
// message.
func send(t *testing.T, req *http.Request) (int, string, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var e struct {
		Type    string `json:"__type"`
		Message string `json:"message"`
	}
	json.Unmarshal(b, &e)
	_, typ, _ := strings.Cut(e.Type, "#")
	return resp.StatusCode, typ, e.Message
}

// Raw requests: signed by the SDK's signer, then broken one way each.
func TestAuthRawMalformedHeaders(t *testing.T) {
	srv := authServer(t, nil)
	now := time.Now()
	setAuth := func(v string) func(*http.Request) {
		return func(r *http.Request) { r.Header.Set("Authorization", v) }
	}
	cases := []struct {
		name, body    string
		edit          func(*http.Request)
		status        int
		typ, message  string
		prefixMessage bool
	}{
		{"well signed", "{}", nil, 200, "", "", false},
		{"not SigV4", "{}", setAuth("Basic dXNlcjpwYXNz"), 400, "IncompleteSignatureException",
			"Authorization header requires 'Credential' parameter. Authorization header requires 'Signature' parameter. " +
				"Authorization header requires 'SignedHeaders' parameter.", false},
		{"SigV4a", "{}", setAuth("AWS4-ECDSA-P256-SHA256 Credential=x"), 400, "IncompleteSignatureException", "Unsupported AWS 'algorithm'", true},
		{"no equal sign", "{}", setAuth("AWS4-HMAC-SHA256 Credential"), 400, "IncompleteSignatureException",
			"Invalid key=value pair (missing equal-sign) in Authorization header", false},
		{"short credential", "{}", setAuth("AWS4-HMAC-SHA256 Credential=" + authKeyID + "/us-east-1, SignedHeaders=host, Signature=00"), 400,
			"IncompleteSignatureException", "Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term", false},
		{"no date", "{}", func(r *http.Request) { r.Header.Del("X-Amz-Date") }, 400, "IncompleteSignatureException",
			"Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.", false},
		{"bad date", "{}", func(r *http.Request) { r.Header.Set("X-Amz-Date", "yesterday") }, 400, "IncompleteSignatureException", "Date must be in ISO-8601 'basic format'", true},
		{"host not signed", "{}", func(r *http.Request) {
			r.Header.Set("Authorization", strings.Replace(r.Header.Get("Authorization"), "SignedHeaders=", "SignedHeaders=x;", 1))
			r.Header.Set("Authorization", strings.Replace(r.Header.Get("Authorization"), ";host;", ";", 1))
		}, 400, "IncompleteSignatureException", "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.", false},
		{"other service", "{}", func(r *http.Request) {
			r.Header.Set("Authorization", strings.Replace(r.Header.Get("Authorization"), "/dynamodb/", "/s3/", 1))
		}, 400, "InvalidSignatureException", "Credential should be scoped to correct service: 'dynamodb'. ", false},
		{"scope of another day", "{}", func(r *http.Request) {
			r.Header.Set("X-Amz-Date", now.Add(-24*time.Hour).UTC().Format("20060102T150405Z"))
		}, 400, "InvalidSignatureException", "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP", true},
		{"body changed after signing", "{}", func(r *http.Request) {
			r.Body = io.NopCloser(strings.NewReader(`{"Limit":1}`))
			r.ContentLength = int64(len(`{"Limit":1}`))
		}, 400, "InvalidSignatureException", "The request signature we calculated does not match", true},
		{"signed header changed", "{}", func(r *http.Request) { r.Header.Set("X-Amz-Target", "DynamoDB_20120810.DescribeLimits") },
			400, "InvalidSignatureException", "The request signature we calculated does not match", true},
		{"payload hash header of another body", "{}", func(r *http.Request) {
			sum := sha256.Sum256([]byte(`{"Limit":1}`))
			r.Header.Set("X-Amz-Content-Sha256", hex.EncodeToString(sum[:]))
		}, 400, "InvalidSignatureException", "The request signature we calculated does not match", true},
		{"signature not hex", "{}", func(r *http.Request) {
			h := r.Header.Get("Authorization")
			r.Header.Set("Authorization", h[:strings.Index(h, "Signature=")]+"Signature=zz")
		}, 400, "InvalidSignatureException", "The request signature we calculated does not match", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status, typ, msg := send(t, rawRequest(t, srv, now, tc.body, tc.edit))
			if status != tc.status || typ != tc.typ {
				t.Fatalf("got %d %s %q, want %d %s", status, typ, msg, tc.status, tc.typ)
			}
			if tc.prefixMessage && !strings.HasPrefix(msg, tc.message) || !tc.prefixMessage && msg != tc.message {
				t.Fatalf("message = %q\nwant      %q", msg, tc.message)
			}
			if strings.Contains(msg, authSecret) || strings.Contains(msg, "Signature=") {
				t.Fatalf("message quotes the request's credentials: %q", msg)
			}
		})
	}
	// The health check of GET / needs no signature, as on DynamoDB.
	resp, err := http.Get(srv.URL + "/")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET / = %v, %v", resp, err)
	}
	resp.Body.Close()
}

// The server's clock is moved 30 minutes either way: a request signed now
// is answered DynamoDB's clock-skew error (with the server's time in Date),
// and the SDK, retrying as it does, corrects its clock from Date and
// succeeds. 10 minutes off is within the 15 allowed.
func TestAuthClockSkew(t *testing.T) {
	var now atomic.Pointer[time.Time]
	setClock := func(d time.Duration) time.Time {
		t := time.Now().Add(d).UTC().Truncate(time.Second)
		now.Store(&t)
		return t
	}
	setClock(0) // the server reads its clock as it starts
	srv := authServer(t, &now)
	f := func(t time.Time) string { return t.UTC().Format("20060102T150405Z") }
	for _, tc := range []struct {
		skew time.Duration
		want string // the message, %s for the request's time
	}{
		{30 * time.Minute, "Signature expired: %s is now earlier than %s (%s - 15 min.)"},
		{-30 * time.Minute, "Signature not yet current: %s is still later than %s (%s + 15 min.)"},
	} {
		server := setClock(tc.skew)
		bound := server.Add(-15 * time.Minute)
		if tc.skew < 0 {
			bound = server.Add(15 * time.Minute)
		}
		_, err := clientAs(srv, authKeyID, authSecret, "").ListTables(ctx, &dynamodb.ListTablesInput{})
		wantErrContains(t, err, "InvalidSignatureException", "")
		wantStatus(t, err, 400)
		var re = regexp.MustCompile("^" + regexp.QuoteMeta(fmt.Sprintf(tc.want, "@", f(bound), f(server))) + "$")
		re = regexp.MustCompile(strings.Replace(re.String(), "@", `\d{8}T\d{6}Z`, 1))
		if msg := apiMessage(err); !re.MatchString(msg) {
			t.Fatalf("skew %v: message %q, want %q", tc.skew, msg, re)
		}

		// The SDK's standard retryer: one refused attempt, then success.
		out, err := srv.Client().ListTables(ctx, &dynamodb.ListTablesInput{})
		if err != nil {
			t.Fatalf("skew %v, SDK with clock correction: %v", tc.skew, err)
		}
		if res, _ := retry.GetAttemptResults(out.ResultMetadata); len(res.Results) != 2 {
			n := len(res.Results)
			t.Fatalf("skew %v: %d attempts, want 2 (refused, then corrected)", tc.skew, n)
		}
		// So does the repo of the library.
		if _, err := srv.Repo(t).Request(ctx, "ListTables", map[string]any{}); err != nil {
			t.Fatalf("skew %v, repo: %v", tc.skew, err)
		}
	}
	setClock(10 * time.Minute)
	if _, err := clientAs(srv, authKeyID, authSecret, "").ListTables(ctx, &dynamodb.ListTablesInput{}); err != nil {
		t.Fatalf("10 minutes of skew: %v", err)
	}
}

func TestAuthSessionToken(t *testing.T) {
	srv := dynamotest.NewServer(t, dynamotest.WithAccessKey("ASIATEMPORARY", "tempsecret", "the-session-token"),
		dynamotest.WithLocalOptions(local.WithAccessKeys(local.AccessKey{ID: "AKIDLONGTERM", Secret: "longsecret"})))
	if _, err := srv.Client().ListTables(ctx, &dynamodb.ListTablesInput{}); err != nil {
		t.Fatalf("the key with its token: %v", err)
	}
	for _, tc := range []struct{ id, secret, token string }{
		{"ASIATEMPORARY", "tempsecret", ""},
		{"ASIATEMPORARY", "tempsecret", "another-token"},
		{"AKIDLONGTERM", "longsecret", "the-session-token"},
	} {
		_, err := clientAs(srv, tc.id, tc.secret, tc.token).ListTables(ctx, &dynamodb.ListTablesInput{})
		wantErr(t, err, "UnrecognizedClientException", "The security token included in the request is invalid.")
	}
	if _, err := clientAs(srv, "AKIDLONGTERM", "longsecret", "").ListTables(ctx, &dynamodb.ListTablesInput{}); err != nil {
		t.Fatalf("a second key, without token: %v", err)
	}
}

func TestAuthConfiguration(t *testing.T) {
	for _, keys := range [][]local.AccessKey{
		{},
		{{ID: "", Secret: "s"}},
		{{ID: "has-dash", Secret: "s"}},
		{{ID: "AKID", Secret: ""}},
		{{ID: "AKID", Secret: "a"}, {ID: "AKID", Secret: "b"}},
	} {
		if _, err := local.New(local.WithAccessKeys(keys...)); err == nil {
			t.Errorf("New(WithAccessKeys(%v)) succeeded", keys)
		} else if strings.Contains(err.Error(), `"s"`) || strings.Contains(err.Error(), `"a"`) {
			t.Errorf("error quotes a secret: %v", err)
		}
	}
	k := local.AccessKey{ID: "AKID", Secret: "topsecret", SessionToken: "tok"}
	for _, s := range []string{fmt.Sprint(k), fmt.Sprintf("%+v %#v", k, k)} {
		if strings.Contains(s, "topsecret") || strings.Contains(s, "tok)") {
			t.Errorf("formatted key shows its secret: %s", s)
		}
	}

	keys, err := local.ReadAccessKeys(strings.NewReader("# team keys\n\nAKIDONE secret1\n\tAKIDTWO  secret2  token2 \n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []local.AccessKey{{ID: "AKIDONE", Secret: "secret1"}, {ID: "AKIDTWO", Secret: "secret2", SessionToken: "token2"}}
	if len(keys) != 2 || keys[0] != want[0] || keys[1] != want[1] {
		t.Fatalf("ReadAccessKeys = %#v", keys)
	}
	for in, msg := range map[string]string{
		"AKIDONE\n":                "line 1: want ACCESS_KEY_ID SECRET [SESSION_TOKEN], got 1 fields",
		"# x\nA B C D\n":           "line 2: want ACCESS_KEY_ID SECRET [SESSION_TOKEN], got 4 fields",
		"key-id secretvalue\n":     "line 1: access key id: want 1 to 128 letters and digits",
		"# only a comment\n\n  \n": "no access keys",
	} {
		if _, err := local.ReadAccessKeys(strings.NewReader(in)); err == nil || err.Error() != msg {
			t.Errorf("ReadAccessKeys(%q) = %v, want %q", in, err, msg)
		}
	}
}

func wantStatus(t *testing.T, err error, status int) {
	t.Helper()
	var re interface{ HTTPStatusCode() int }
	if !errors.As(err, &re) || re.HTTPStatusCode() != status {
		t.Fatalf("HTTP status of %v: want %d", err, status)
	}
}

func apiMessage(err error) string {
	var ae interface{ ErrorMessage() string }
	if errors.As(err, &ae) {
		return ae.ErrorMessage()
	}
	return ""
}

// A compressed body is signed as sent: the signature is checked over the
// gzip bytes, before the server decompresses them.
func TestAuthSignedCompressedBody(t *testing.T) {
	srv := authServer(t, nil)
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write([]byte(`{"Limit": 5}`))
	zw.Close()
	req := rawRequest(t, srv, time.Now(), zipped.String(), func(r *http.Request) { r.Header.Set("Content-Encoding", "gzip") })
	if status, typ, msg := send(t, req); status != http.StatusOK {
		t.Fatalf("signed gzip body: %d %s %s", status, typ, msg)
	}
}
