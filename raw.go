package dynamo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// Request sends any DynamoDB action with a JSON-shaped payload (no schema
// encoding: attribute values are written in DynamoDB JSON, {"S": "x"}) and
// returns the decoded JSON response. JSON numbers come back as json.Number so
// that nothing is rounded. The call goes through the same signing, endpoint
// rules, retries, telemetry and error mapping as every typed operation.
//
// payload may be a map or struct (encoded with encoding/json), a
// json.RawMessage or []byte holding JSON, or nil for "{}".
//
// It needs the *dynamodb.Client the repo built (or one passed to FromClient).
func (r *Repo) Request(ctx context.Context, action string, payload any) (map[string]any, error) {
	if action == "" {
		return nil, invalidf("Request", "empty action")
	}
	var probe struct {
		TableName string
		IndexName string
	}
	body, bodyErr := rawBody(payload)
	if bodyErr == nil {
		_ = json.Unmarshal(body, &probe) // only for routing and telemetry; the server validates
	}
	ra := rawAction{action: action, table: probe.TableName}
	var out map[string]any
	err := r.run(ctx, action, ra.tables(), func(ctx context.Context) error {
		if r.client == nil {
			return invalidf(action, "Request needs a *dynamodb.Client; FromClient was given %T", r.api)
		}
		if bodyErr != nil {
			return invalidf(action, "Request payload: %v", bodyErr)
		}
		var err error
		out, err = r.request(ctx, ra, body)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (r *Repo) request(ctx context.Context, ra rawAction, body []byte) (map[string]any, error) {
	action := ra.action
	call := &rawCall{action: action, body: body}
	ra.body = body
	ctx = context.WithValue(ctx, rawActionKey{}, ra)
	opts := append(append(make([]func(*dynamodb.Options), 0, len(r.callOpts)+2), r.callOpts...), call.install)

	// The request travels on a carrier operation: the SDK runs its whole
	// stack (endpoint rules, signing, retries, checksums), and the protocol
	// swap below writes our body and reads the raw response. SearchVectors
	// uses its own operation so the endpoint rules route it to the search
	// host; everything else rides on DescribeLimits, which has no input.
	var err error
	if action == "SearchVectors" {
		var probe struct{ IndexName string }
		_ = json.Unmarshal(body, &probe)
		opts = append(opts, r.searchOpts[len(r.callOpts):]...)
		_, err = r.client.SearchVectors(ctx, &dynamodb.SearchVectorsInput{TableName: &ra.table, IndexName: &probe.IndexName}, opts...)
	} else {
		_, err = r.client.DescribeLimits(ctx, &dynamodb.DescribeLimitsInput{}, opts...)
	}
	if err != nil {
		return nil, mapError(action, ra.table, err)
	}
	out := map[string]any{}
	if len(bytes.TrimSpace(call.resp)) == 0 {
		return out, nil
	}
	dec := json.NewDecoder(bytes.NewReader(call.resp))
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		return nil, &Error{Type: ErrDecode, Op: action, Table: ra.table, Message: "response is not a JSON object: " + err.Error(), cause: err}
	}
	return out, nil
}

func rawBody(payload any) ([]byte, error) {
	switch p := payload.(type) {
	case nil:
		return []byte("{}"), nil
	case json.RawMessage:
		if !json.Valid(p) {
			return nil, fmt.Errorf("not valid JSON")
		}
		return p, nil
	case []byte:
		if !json.Valid(p) {
			return nil, fmt.Errorf("not valid JSON")
		}
		return p, nil
	}
	return json.Marshal(payload)
}

type rawAction struct {
	action, table string
	body          []byte // the payload, read only to tell whether a retry is safe
}

func (a rawAction) tables() []string {
	if a.table == "" {
		return nil
	}
	return []string{a.table}
}

// rawCall holds one raw request's body and, after the call, its response.
type rawCall struct {
	action string
	body   []byte
	resp   []byte
}

func (c *rawCall) install(o *dynamodb.Options) {
	o.Protocol = &rawProtocol{ClientProtocol: o.Protocol, call: c}
	// The carrier's input validation would reject the empty SearchVectors input.
	o.APIOptions = append(o.APIOptions, func(s *middleware.Stack) error {
		_, _ = s.Initialize.Remove("OperationInputValidation") // DescribeLimits has none
		return nil
	})
}

// rawProtocol is the SDK's awsJson1.0 protocol with the body and target
// replaced; error responses are still decoded by the SDK protocol, so typed
// exceptions (cancellation reasons included) come out as for any operation.
type rawProtocol struct {
	smithyhttp.ClientProtocol
	call *rawCall
}

func (p *rawProtocol) SerializeRequest(ctx context.Context, _ *smithy.OperationSchema, _ smithy.Serializable, req *smithyhttp.Request) error {
	req.Method = http.MethodPost
	if req.URL.Path == "" {
		req.URL.Path = "/"
	}
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+p.call.action)
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	sreq, err := req.SetStream(bytes.NewReader(p.call.body))
	if err != nil {
		return err
	}
	*req = *sreq
	return nil
}

func (p *rawProtocol) DeserializeResponse(ctx context.Context, schema *smithy.OperationSchema, types *smithy.TypeRegistry, resp *smithyhttp.Response, out smithy.Deserializable) error {
	if resp.StatusCode < 200 || resp.StatusCode >= 300 {
		return p.ClientProtocol.DeserializeResponse(ctx, schema, types, resp, out)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return &smithy.DeserializationError{Err: err}
	}
	p.call.resp = b
	return nil
}
