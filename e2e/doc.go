// Package e2e holds the end-to-end tests that drive a real browser
// (Chromium, through github.com/chromedp/chromedp) against the local
// server's web console. It is a module of its own so that the browser
// driver is never a dependency of the library or the server; the tests
// are skipped unless DYNAMO_BROWSER_TESTS=1:
//
//	cd e2e && DYNAMO_BROWSER_TESTS=1 go test -v ./...
//
// They need /usr/bin/chromium (Debian's chromium package; DYNAMO_CHROMIUM
// names another binary), and no network: the browser is started with its
// background networking off.
package e2e
