package dynamolambda

import (
	"context"
	"math"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	stypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/codec/ddbjson"
	"github.com/dynamogo/dynamo/schema"
)

// Event is the payload of a Lambda function that a DynamoDB stream
// triggers, in the JSON form Lambda sends (services-dynamodb-eventsourcemapping
// in the AWS Lambda developer guide).
type Event struct {
	Records []Record `json:"Records"`
}

// Record is one stream record of an Event.
type Record struct {
	EventID        string `json:"eventID"`
	EventName      string `json:"eventName"` // INSERT, MODIFY or REMOVE
	EventVersion   string `json:"eventVersion,omitempty"`
	EventSource    string `json:"eventSource,omitempty"` // aws:dynamodb
	AWSRegion      string `json:"awsRegion,omitempty"`
	EventSourceARN string `json:"eventSourceARN,omitempty"`
	// UserIdentity is set on the removals of items that TTL expired
	// (Type "Service", PrincipalID "dynamodb.amazonaws.com").
	UserIdentity *UserIdentity `json:"userIdentity,omitempty"`
	DynamoDB     StreamRecord  `json:"dynamodb"`
}

// UserIdentity says who made a change, when DynamoDB says it.
type UserIdentity struct {
	Type        string `json:"type"`
	PrincipalID string `json:"principalId"`
}

// StreamRecord is the DynamoDB part of a Record: the item's key and images
// in DynamoDB JSON, as far as the stream's view type holds them.
type StreamRecord struct {
	// ApproximateCreationDateTime is in seconds since the epoch.
	ApproximateCreationDateTime float64      `json:"ApproximateCreationDateTime,omitempty"`
	Keys                        ddbjson.Item `json:"Keys"`
	NewImage                    ddbjson.Item `json:"NewImage,omitempty"`
	OldImage                    ddbjson.Item `json:"OldImage,omitempty"`
	SequenceNumber              string       `json:"SequenceNumber"`
	SizeBytes                   int64        `json:"SizeBytes,omitempty"`
	StreamViewType              string       `json:"StreamViewType,omitempty"`
}

// StreamRecord returns r as the DynamoDB Streams client's record type, for
// code written against it ([dynamo.ChangeFromRecord] decodes it).
func (r Record) StreamRecord() stypes.Record {
	d := r.DynamoDB
	out := stypes.Record{
		EventID:      aws.String(r.EventID),
		EventName:    stypes.OperationType(r.EventName),
		EventVersion: aws.String(r.EventVersion),
		EventSource:  aws.String(r.EventSource),
		AwsRegion:    aws.String(r.AWSRegion),
		Dynamodb: &stypes.StreamRecord{
			Keys:           streamItem(d.Keys),
			NewImage:       streamItem(d.NewImage),
			OldImage:       streamItem(d.OldImage),
			SequenceNumber: aws.String(d.SequenceNumber),
			SizeBytes:      aws.Int64(d.SizeBytes),
			StreamViewType: stypes.StreamViewType(d.StreamViewType),
		},
	}
	if d.ApproximateCreationDateTime > 0 {
		sec, frac := math.Modf(d.ApproximateCreationDateTime)
		out.Dynamodb.ApproximateCreationDateTime = aws.Time(time.Unix(int64(sec), int64(frac*1e9)).UTC())
	}
	if u := r.UserIdentity; u != nil {
		out.UserIdentity = &stypes.Identity{Type: aws.String(u.Type), PrincipalId: aws.String(u.PrincipalID)}
	}
	return out
}

// Changes decodes the records of e that hold items of s's entity, in the
// event's order; the records of other entities are skipped. A record that
// does not decode into T is an error (*dynamo.Error, ErrDecode).
func Changes[T any](s *schema.Schema[T], e Event) ([]dynamo.Change[T], error) {
	var out []dynamo.Change[T]
	for _, r := range e.Records {
		c, ok, err := dynamo.ChangeFromRecord(s, r.StreamRecord())
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, c)
		}
	}
	return out, nil
}

// Response is Lambda's partial batch response for a stream
// (services-ddb-batchfailurereporting in the AWS Lambda developer guide):
// return it, with a nil error, from a function whose event source mapping
// has ReportBatchItemFailures on.
type Response struct {
	BatchItemFailures []BatchItemFailure `json:"batchItemFailures"`
	// Err is why the batch stopped (nil when every record was handled),
	// for the function to log; Lambda does not see it.
	Err error `json:"-"`
}

// BatchItemFailure names a record that failed by its sequence number.
type BatchItemFailure struct {
	ItemIdentifier string `json:"itemIdentifier"`
}

// Handle calls fn with each change of s's entity in e, in order, skipping
// the records of other entities. At the first record that does not decode
// or that fn fails, it stops and reports that record as the batch's
// failure: Lambda checkpoints before it and retries from it, so the
// changes of an item are never handled out of order. The context of each
// call is ctx.
func Handle[T any](ctx context.Context, s *schema.Schema[T], e Event, fn func(context.Context, dynamo.Change[T]) error) Response {
	for _, r := range e.Records {
		c, ok, err := dynamo.ChangeFromRecord(s, r.StreamRecord())
		if err == nil && ok {
			err = fn(ctx, c)
		}
		if err != nil {
			return Response{BatchItemFailures: []BatchItemFailure{{ItemIdentifier: r.DynamoDB.SequenceNumber}}, Err: err}
		}
	}
	return Response{BatchItemFailures: []BatchItemFailure{}}
}

// streamItem converts an item to the Streams client's type (the two SDK
// packages declare the same union apart).
func streamItem(m map[string]types.AttributeValue) map[string]stypes.AttributeValue {
	if m == nil {
		return nil
	}
	out := make(map[string]stypes.AttributeValue, len(m))
	for k, v := range m {
		out[k] = streamValue(v)
	}
	return out
}

func streamValue(v types.AttributeValue) stypes.AttributeValue {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return &stypes.AttributeValueMemberS{Value: v.Value}
	case *types.AttributeValueMemberN:
		return &stypes.AttributeValueMemberN{Value: v.Value}
	case *types.AttributeValueMemberB:
		return &stypes.AttributeValueMemberB{Value: v.Value}
	case *types.AttributeValueMemberBOOL:
		return &stypes.AttributeValueMemberBOOL{Value: v.Value}
	case *types.AttributeValueMemberNULL:
		return &stypes.AttributeValueMemberNULL{Value: v.Value}
	case *types.AttributeValueMemberSS:
		return &stypes.AttributeValueMemberSS{Value: v.Value}
	case *types.AttributeValueMemberNS:
		return &stypes.AttributeValueMemberNS{Value: v.Value}
	case *types.AttributeValueMemberBS:
		return &stypes.AttributeValueMemberBS{Value: v.Value}
	case *types.AttributeValueMemberL:
		l := make([]stypes.AttributeValue, len(v.Value))
		for i, e := range v.Value {
			l[i] = streamValue(e)
		}
		return &stypes.AttributeValueMemberL{Value: l}
	case *types.AttributeValueMemberM:
		return &stypes.AttributeValueMemberM{Value: streamItem(v.Value)}
	}
	return nil
}
