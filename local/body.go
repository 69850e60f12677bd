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

// readBody reads the request body into buf (reused between requests),
// bounded by MaxRequestBytes, decompresses a gzip or deflate
// Content-Encoding within the same bound, and rejects invalid UTF-8.
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
	buf, err := readAtMost(r.Body, buf, MaxRequestBytes)
	if err != nil {
		return buf, err
	}
	if enc := r.Header.Get("Content-Encoding"); enc != "" {
		body, err := decompress(enc, buf)
		if err != nil {
			return buf, err
		}
		buf = append(buf[:0], body...)
	}
	// encoding/json and the item decoder would turn each invalid byte into
	// U+FFFD, so two different keys could name one item; DynamoDB rejects
	// a body that is not UTF-8 as it cannot be read.
	if !utf8.Valid(buf) {
		return buf, serialization("Request body is not valid UTF-8")
	}
	return buf, nil
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
