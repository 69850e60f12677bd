package local

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"io"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxRequestBytes bounds a request body, as sent and once decompressed.
// DynamoDB's largest requests (a BatchWriteItem of 25 items of 400 KB, a
// TransactWriteItems of 4 MB) stay below its 16 MB HTTP request limit, and
// so does every request this server can accept
// (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html).
const MaxRequestBytes = 16 << 20

// errTooLarge answers a body over MaxRequestBytes: 413, in DynamoDB's
// error shape, before the rest of the body is read.
var errTooLarge = &Error{Type: "RequestEntityTooLargeException", Status: http.StatusRequestEntityTooLarge,
	Message: "Request body must not exceed " + strconv.Itoa(MaxRequestBytes) + " bytes"}

// readBody reads the request body as sent into buf (reused between
// requests), bounded by MaxRequestBytes. The signature covers these bytes,
// so authentication sees them before decodeBody.
func readBody(r *http.Request, buf []byte) ([]byte, *Error) {
	if r.ContentLength > MaxRequestBytes {
		return buf, errTooLarge
	}
	if r.Body == nil {
		return buf, nil
	}
	if n := r.ContentLength; n > 0 && int64(cap(buf)) < n {
		buf = make([]byte, 0, n)
	}
	return readAtMost(r.Body, buf, MaxRequestBytes)
}

// decodeBody decompresses a gzip or deflate Content-Encoding of the body
// read by readBody within the same bound, reusing its buffer, and rejects
// invalid UTF-8.
func decodeBody(r *http.Request, buf []byte) ([]byte, *Error) {
	if enc := r.Header.Get("Content-Encoding"); enc != "" {
		body, err := decompress(enc, buf)
		if err != nil {
			return buf, err
		}
		buf = append(buf[:0], body...)
	}
	// encoding/json and the item decoder would turn each invalid byte, and
	// each unpaired surrogate escape, into U+FFFD, so two different keys
	// could name one item; DynamoDB rejects a body it cannot read as a
	// SerializationException.
	if !utf8.Valid(buf) || hasLoneSurrogate(buf) {
		return buf, serialization("Request body is not valid UTF-8")
	}
	return buf, nil
}

// hasLoneSurrogate reports whether a JSON text has a \uD800-\uDFFF escape
// that is not half of a surrogate pair. Backslashes only occur in strings
// (elsewhere the JSON is malformed anyway), so a scan from one to the next
// sees every escape.
func hasLoneSurrogate(b []byte) bool {
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], '\\')
		if j < 0 {
			return false
		}
		i += j
		r, ok := escapedRune(b[i:])
		switch {
		case !ok:
			i += 2 // some other escape, \\ included
		case r >= 0xDC00 && r <= 0xDFFF:
			return true // a low half first
		case r >= 0xD800 && r <= 0xDBFF:
			if lo, ok := escapedRune(b[i+6:]); !ok || lo < 0xDC00 || lo > 0xDFFF {
				return true
			}
			i += 12
		default:
			i += 6
		}
		if i >= len(b) {
			return false
		}
	}
}

// escapedRune decodes a \uXXXX escape at the start of b.
func escapedRune(b []byte) (rune, bool) {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return 0, false
	}
	var r rune
	for _, c := range b[2:6] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// readAtMost appends r to buf; more than limit bytes is errTooLarge.
func readAtMost(r io.Reader, buf []byte, limit int) ([]byte, *Error) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		room := min(cap(buf), limit+1)
		n, err := r.Read(buf[len(buf):room])
		buf = buf[:len(buf)+n]
		switch {
		case len(buf) > limit:
			return buf, errTooLarge
		case err == io.EOF:
			return buf, nil
		case err != nil:
			return buf, serialization("Unable to read request body")
		}
	}
}

// decompress decodes a body sent with Content-Encoding gzip or deflate (the
// encodings DynamoDB accepts). DynamoDB answers a body it cannot decode,
// and an encoding it does not know, with a 500 InternalServerError; the
// message here says which.
func decompress(encoding string, body []byte) ([]byte, *Error) {
	var (
		zr  io.ReadCloser
		err error
	)
	enc := strings.ToLower(strings.TrimSpace(encoding))
	switch enc {
	case "identity":
		return body, nil
	case "gzip", "x-gzip":
		zr, err = gzip.NewReader(bytes.NewReader(body)) // concatenated members are read as one
	case "deflate":
		zr, err = zlib.NewReader(bytes.NewReader(body))
	default:
		return nil, &Error{Type: "InternalServerError", Status: http.StatusInternalServerError,
			Message: "Unsupported Content-Encoding; use gzip or deflate"}
	}
	if err == nil {
		var out []byte
		var e *Error
		out, e = readAtMost(zr, make([]byte, 0, min(4*len(body)+512, MaxRequestBytes+1)), MaxRequestBytes)
		zr.Close()
		if e == errTooLarge {
			return nil, e
		}
		if e == nil {
			return out, nil
		}
	}
	return nil, &Error{Type: "InternalServerError", Status: http.StatusInternalServerError,
		Message: "Request body could not be decompressed as " + enc}
}
