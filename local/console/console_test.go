package console_test

import (
	"context"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamogo/dynamo/dynamotest"
)

// browser is a client of the console keeping cookies, as a browser does;
// it does not follow redirects, so tests see them.
type browser struct {
	t    *testing.T
	base string // the server's URL
	c    *http.Client
}

func newBrowser(t *testing.T, srv *dynamotest.Server) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, base: srv.URL, c: &http.Client{Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// startConsole starts a server with its console and a browser of it.
func startConsole(t *testing.T, opts ...dynamotest.Option) (*dynamotest.Server, *dynamodb.Client, *browser) {
	t.Helper()
	srv := dynamotest.NewServer(t, append([]dynamotest.Option{dynamotest.WithConsole()}, opts...)...)
	return srv, srv.Client(), newBrowser(t, srv)
}

type answer struct {
	status int
	body   string
	header http.Header
}

func (b *browser) do(req *http.Request) answer {
	b.t.Helper()
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, string(body), resp.Header}
}

func (b *browser) get(path string) answer {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, b.base+path, nil)
	return b.do(req)
}

// page GETs path and fails the test unless it answers 200.
func (b *browser) page(path string) string {
	b.t.Helper()
	a := b.get(path)
	if a.status != http.StatusOK {
		b.t.Fatalf("GET %s: %d\n%s", path, a.status, a.body)
	}
	return a.body
}

var csrfRE = regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`)

// token returns the CSRF token of a page of the console.
func (b *browser) token() string {
	b.t.Helper()
	m := csrfRE.FindStringSubmatch(b.page("/console/new-table"))
	if m == nil {
		b.t.Fatal("no CSRF token in the page")
	}
	return m[1]
}

// post sends a form as the console's own page does (with its token and
// origin, unless form sets "csrf" or header sets Origin).
func (b *browser) post(path string, form url.Values, header ...string) answer {
	b.t.Helper()
	if _, ok := form["csrf"]; !ok {
		form.Set("csrf", b.token())
	}
	req, _ := http.NewRequest(http.MethodPost, b.base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", b.base)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return b.do(req)
}

// text is a page with its HTML entities resolved, for assertions on what
// the reader sees.
func text(page string) string { return html.UnescapeString(page) }

var ctx = context.Background()

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func n(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

// createTable creates table "t" (pk S, sk S) with a GSI "byStatus", a
// NEW_AND_OLD_IMAGES stream and TTL on "expires".
func createTable(t *testing.T, srv *dynamotest.Server, name string) {
	t.Helper()
	srv.CreateTable(t, &dynamodb.CreateTableInput{
		TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("status"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
		},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("byStatus"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("status"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}},
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
	})
	_, err := srv.Client().UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(name),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("expires"), Enabled: aws.Bool(true)}})
	if err != nil {
		t.Fatal(err)
	}
}

func put(t *testing.T, c *dynamodb.Client, table string, item map[string]types.AttributeValue) {
	t.Helper()
	if _, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item}); err != nil {
		t.Fatal(err)
	}
}

func get(t *testing.T, c *dynamodb.Client, table, pk, sk string) map[string]types.AttributeValue {
	t.Helper()
	out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"pk": s(pk), "sk": s(sk)}})
	if err != nil {
		t.Fatal(err)
	}
	return out.Item
}

func mustContain(t *testing.T, what, page string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(page, w) {
			t.Errorf("%s does not show %q", what, w)
		}
	}
}

const digits38 = "12345678901234567890123456789012345678"

func regexpMust(p string) *regexp.Regexp { return regexp.MustCompile(p) }

// regexpFind returns the first group of p in page, failing the test when
// it is not there.
func regexpFind(t *testing.T, page, p string) string {
	t.Helper()
	m := regexp.MustCompile(p).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("%s: not in the page", p)
	}
	return m[1]
}
