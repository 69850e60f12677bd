// Package sdkhttp works around a race between aws-sdk-go-v2 (smithy-go) and
// net/http that closes a connection while its response is still being read.
//
// smithy-go hands net/http a request body that implements io.WriterTo and
// answers io.EOF to WriteTo once the SDK has closed it. The SDK closes it as
// soon as RoundTrip returns, but net/http's write loop may still be copying
// the body's tail after the server has answered (its final check that the
// body holds no more than ContentLength bytes). That copy then fails with
// io.EOF, net/http treats the write as failed and closes the connection, and
// the response being read dies with "use of closed network connection"
// after a 200. Large responses from a fast server (the local server) hit it
// often. Upstream: aws/aws-sdk-go-v2 issues #1825, #2737 and #2935.
//
// Body hides the WriterTo, so net/http reads the body with Read, which
// answers a plain io.EOF after Close: the end of the body, not an error.
package sdkhttp
