package e2e

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/chromedp/chromedp"
	"github.com/dynamogo/dynamo/dynamotest"
)

const digits38 = "12345678901234567890123456789012345678"

// browser starts headless Chromium for the test, with a fresh profile and
// nothing that would reach the network.
func browser(t *testing.T) context.Context {
	t.Helper()
	if os.Getenv("DYNAMO_BROWSER_TESTS") != "1" {
		t.Skip("browser tests run with DYNAMO_BROWSER_TESTS=1 (and /usr/bin/chromium)")
	}
	exe := os.Getenv("DYNAMO_CHROMIUM")
	if exe == "" {
		exe = "/usr/bin/chromium"
	}
	if _, err := os.Stat(exe); err != nil {
		t.Fatalf("DYNAMO_BROWSER_TESTS=1 but no browser: %v (apt-get install -y chromium)", err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1560, 640),
	}
	// A bound on the whole test, not a wait: every step below waits for
	// its page event.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	return bctx
}

// do runs a step's actions, in order.
func do(t *testing.T, ctx context.Context, step string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", step, err)
	}
}

// text returns the text of the element sel.
func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(sel))
	if err != nil {
		t.Fatalf("text of %s: %v", sel, err)
	}
	return s
}

// notice waits for the page's notice to say text (the page after a change).
func notice(text string) chromedp.Action[chromedp.Void] {
	return chromedp.WaitVisible(`//p[@class="notice" and contains(., "` + text + `")]`)
}

// The console in a real browser: browse a table, run a query, create, edit
// and delete an item with a string set and a 38-digit number, each checked
// through the API, watch the stream refresh; a screenshot is saved as an
// artifact.
func TestConsoleInBrowser(t *testing.T) {
	ctx := browser(t)
	srv := dynamotest.NewServer(t, dynamotest.WithConsole())
	c := srv.Client()
	seed(t, srv, c)

	// Browse: the table list, then the table.
	do(t, ctx, "browse",
		chromedp.Navigate(srv.URL+"/console/"),
		chromedp.WaitVisible(`a[href="/console/t/orders"]`),
		chromedp.Click(`a[href="/console/t/orders"]`),
		chromedp.WaitVisible(`table.items`),
	)
	grid := text(t, ctx, `table.items`)
	for _, want := range []string{`{"gift", "rush"}`, digits38, "order"} {
		if !strings.Contains(grid, want) {
			t.Errorf("the table's grid does not show %q:\n%s", want, grid)
		}
	}

	// Query: the builder's form, its result and the CLI command.
	do(t, ctx, "query",
		chromedp.Click(`//a[contains(., "Query or scan")]`),
		chromedp.WaitVisible(`input[name="k.pk"]`),
		chromedp.SetValue(`input[name="k.pk"]`, "user#1"),
		chromedp.SetValue(`select[name="op"]`, "begins_with"),
		chromedp.SetValue(`input[name="k.sk"]`, "2026-"),
		chromedp.Click(`#run`),
		chromedp.WaitVisible(`#count`),
	)
	count, cli := text(t, ctx, `#count`), text(t, ctx, `#cli`)
	if count != "2" || !strings.Contains(cli, "begins_with(#k1, :k1)") {
		t.Errorf("query: %s items, CLI:\n%s", count, cli)
	}

	// Create an item with a string set and a 38-digit number.
	created := `{"pk": {"S": "user#9"}, "sk": {"S": "2026-12-02#9"}, "tags": {"SS": ["a", "b"]}, "total": {"N": "` + digits38 + `"}}`
	do(t, ctx, "create",
		chromedp.Navigate(srv.URL+"/console/t/orders"),
		chromedp.Click(`//a[contains(., "New item")]`),
		chromedp.WaitVisible(`#item`),
		chromedp.SetValue(`#item`, created),
		chromedp.Click(`#save`),
		notice("Item created."),
	)
	got := get(t, c, "user#9", "2026-12-02#9")
	if ss, ok := got["tags"].(*types.AttributeValueMemberSS); !ok || !slices.Equal(ss.Value, []string{"a", "b"}) {
		t.Errorf("created tags: %#v, want SS [a b]", got["tags"])
	}
	if n, ok := got["total"].(*types.AttributeValueMemberN); !ok || n.Value != digits38 {
		t.Errorf("created total: %#v, want N %s", got["total"], digits38)
	}

	// The script refuses what is not DynamoDB JSON before it is sent.
	do(t, ctx, "check in the page",
		chromedp.SetValue(`#item`, `{"pk": {"S": "user#9"}, "sk": {"S": "2026-12-02#9"}, "tags": {"SS": [1]}}`),
		chromedp.Click(`#save`),
		chromedp.WaitVisible(`#item-error`),
	)
	msg := text(t, ctx, `#item-error`)
	if !strings.Contains(msg, "tags: SS takes a list of strings") {
		t.Errorf("the page's check: %q", msg)
	}

	// Edit: another set and the number negated, every digit kept.
	edited := `{"pk": {"S": "user#9"}, "sk": {"S": "2026-12-02#9"}, "tags": {"SS": ["a", "b", "c"]}, "total": {"N": "-` + digits38 + `"}}`
	do(t, ctx, "edit",
		chromedp.SetValue(`#item`, edited),
		chromedp.Click(`#save`),
		notice("Item saved."),
	)
	got = get(t, c, "user#9", "2026-12-02#9")
	if ss, ok := got["tags"].(*types.AttributeValueMemberSS); !ok || !slices.Equal(ss.Value, []string{"a", "b", "c"}) {
		t.Errorf("edited tags: %#v, want SS [a b c]", got["tags"])
	}
	if n, ok := got["total"].(*types.AttributeValueMemberN); !ok || n.Value != "-"+digits38 {
		t.Errorf("edited total: %#v", got["total"])
	}

	// Delete, confirmed.
	do(t, ctx, "delete",
		chromedp.Click(`input[name="confirm"]`),
		chromedp.Click(`#delete`),
		notice("Item deleted."),
	)
	if got := get(t, c, "user#9", "2026-12-02#9"); got != nil {
		t.Errorf("the item is still there: %v", got)
	}

	screenshot(t, ctx, srv.URL)

	// The stream view refreshes itself: a write made while it is open
	// appears without a reload.
	do(t, ctx, "stream",
		chromedp.Navigate(srv.URL+"/console/t/orders/stream"),
		chromedp.WaitVisible(`#records table`),
	)
	if _, err := c.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: "user#live"}, "sk": &types.AttributeValueMemberS{Value: "1"}}}); err != nil {
		t.Fatal(err)
	}
	do(t, ctx, "stream refresh", chromedp.WaitVisible(`//div[@id="records"]//code[contains(., "user#live")]`))
}

// seed creates table "orders" with an index and a stream, and a few items.
func seed(t *testing.T, srv *dynamotest.Server, c *dynamodb.Client) {
	t.Helper()
	srv.CreateTable(t, &dynamodb.CreateTableInput{
		TableName: aws.String("orders"), BillingMode: types.BillingModePayPerRequest,
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
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	for _, it := range []map[string]types.AttributeValue{
		{"pk": s("user#1"), "sk": s("2026-11-30#1"), "_entity": s("order"), "status": s("shipped"), "total": n(digits38),
			"tags": &types.AttributeValueMemberSS{Value: []string{"gift", "rush"}}},
		{"pk": s("user#1"), "sk": s("2026-12-01#2"), "_entity": s("order"), "status": s("open"), "total": n("19.99"),
			"lines": &types.AttributeValueMemberL{Value: []types.AttributeValue{s("book"), n("2")}}},
		{"pk": s("user#1"), "sk": s("profile"), "_entity": s("user"), "name": s("Ada"), "avatar": &types.AttributeValueMemberB{Value: []byte("\x89PNG")}},
		{"pk": s("user#2"), "sk": s("2026-12-02#3"), "_entity": s("order"), "status": s("open"), "total": n("0.5"),
			"sizes": &types.AttributeValueMemberNS{Value: []string{"38", "39"}}},
	} {
		if _, err := c.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
}

func get(t *testing.T, c *dynamodb.Client, pk, sk string) map[string]types.AttributeValue {
	t.Helper()
	out, err := c.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("orders"), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}, "sk": &types.AttributeValueMemberS{Value: sk}}})
	if err != nil {
		t.Fatal(err)
	}
	return out.Item
}

// screenshot saves the table's page as a PNG artifact (its path is
// logged), and with DYNAMO_UPDATE_SCREENSHOT=1 also as docs/console.png,
// the picture in the README.
func screenshot(t *testing.T, ctx context.Context, base string) {
	t.Helper()
	do(t, ctx, "screenshot",
		chromedp.Navigate(base+"/console/t/orders"),
		chromedp.WaitVisible(`table.items`),
	)
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	small := compress(t, shot)
	dir := os.Getenv("DYNAMO_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "dynamo-e2e")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "console.png")
	if err := os.WriteFile(path, small, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", path, len(small))
	if os.Getenv("DYNAMO_UPDATE_SCREENSHOT") == "1" {
		if len(small) > 200<<10 {
			t.Fatalf("the screenshot is %d bytes: keep docs/console.png under 200 KB", len(small))
		}
		if err := os.WriteFile(filepath.Join("..", "docs", "console.png"), small, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Log("updated docs/console.png")
	}
}

// compress re-encodes a PNG at the best compression.
func compress(t *testing.T, shot []byte) []byte {
	t.Helper()
	img, _, err := image.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
