// Package console is the web console of the local server: a browser view
// of its tables, served by the server itself under /console/ (local.ConsolePath)
// on the same listener, when it is turned on:
//
//	ln, _ := net.Listen("tcp", "127.0.0.1:8000")
//	srv, _ := local.New(local.WithHostCheck(ln.Addr()), console.Enable())
//	http.Serve(ln, srv) // the console: http://127.0.0.1:8000/console/
//
// `dynamo local --console` and dynamotest.WithConsole turn it on too. It
// lists the tables (item count, size, key schema, indexes, stream, TTL),
// pages through a table's items (one column per attribute, and as DynamoDB
// JSON, every type exact: sets stay sets, numbers keep their digits, binary
// is base64, the entity marker "_entity" is shown as the entity), builds
// queries and scans (showing the equivalent AWS CLI command and
// aws-sdk-go-v2 code), creates, edits, duplicates and deletes items,
// creates and deletes tables and global secondary indexes, runs PartiQL,
// shows a table's stream live, searches vector indexes, and lists the
// recent API calls to the server (action, tables, status, latency,
// consumed capacity; never an item value or a credential).
//
// # One path to the data
//
// Every read and write is an API action run in-process by
// (*local.Server).Invoke: the same handlers as HTTP clients get, so the
// same validation, conditions, streams and capacity. The console can do
// nothing the API forbids, and what it writes is what an SDK would have
// written (a string set stays a string set).
//
// # Security
//
// The console is reached only where the API is: the server's listener
// (loopback by default) and its Host check (local.WithHostCheck, which
// dynamo local and dynamotest set: without it a page on a domain rebound to
// the server's address would be the console's own origin). Every change is a POST carrying
// a CSRF token — an HMAC, under a per-process secret, of a random cookie
// (double submit) — from the console's own origin: a request whose Origin
// is another, or whose Sec-Fetch-Site is cross-site or same-site, is
// refused with 403 before anything runs. When the server requires signed
// requests (local.WithAccessKeys), the console requires a sign-in with one
// of those access keys (its id and secret), and keeps the session in an
// HttpOnly, SameSite=Strict cookie; pages redirect to the sign-in, other
// requests answer 401.
//
// # Built without a build step
//
// Pages are html/template, embedded with the stylesheet and one small
// hand-written script (embed): no framework, no package manager and no
// network at build or run time, and nothing third-party to audit. Every
// reading page works without JavaScript (links and plain forms); the
// script only adds conveniences: it checks DynamoDB JSON before a form is
// sent and refreshes the stream view.
package console
