package dynamolambda_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/codec/ddbjson"
	"github.com/dynamogo/dynamo/dynamolambda"
	"github.com/dynamogo/dynamo/schema"
)

type Reading struct {
	Sensor string   `dynamo:"sensor,pk"`
	Seq    int      `dynamo:"seq,sk"`
	Value  float64  `dynamo:"value"`
	Tags   []string `dynamo:"tags,set"`
	Raw    []byte   `dynamo:"raw"`
	Note   *string  `dynamo:"note"`
}

// Readings and Sensors share one table (single-table design).
var (
	Readings = schema.Must[Reading]("metrics", schema.Stream(types.StreamViewTypeNewAndOldImages))
	Sensors  = schema.Must[Sensor]("metrics")
)

type Sensor struct {
	Name string `dynamo:"name,pk"`
	Room string `dynamo:"room,sk"`
}

// dump is an item of s in DynamoDB JSON, as a stream record carries it.
func dump[T any](t *testing.T, s *schema.Schema[T], v T) string {
	t.Helper()
	item, err := s.Dump(v)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ddbjson.MarshalItem(item)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func keyOf[T any](t *testing.T, s *schema.Schema[T], v T) string {
	t.Helper()
	item, err := s.Dump(v)
	if err != nil {
		t.Fatal(err)
	}
	pk, sk := s.KeyNames()
	b, err := ddbjson.MarshalItem(map[string]types.AttributeValue{pk: item[pk], sk: item[sk]})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// record is one record of a Lambda event as DynamoDB Streams delivers it.
func record(name, seq, keys, oldImage, newImage, extra string) string {
	images := ""
	if oldImage != "" {
		images += `,"OldImage":` + oldImage
	}
	if newImage != "" {
		images += `,"NewImage":` + newImage
	}
	return `{"eventID":"` + seq + `0f","eventName":"` + name + `","eventVersion":"1.1","eventSource":"aws:dynamodb",` +
		`"awsRegion":"eu-west-1",` + extra + `"dynamodb":{"ApproximateCreationDateTime":1764633600.0,"Keys":` + keys + images +
		`,"SequenceNumber":"` + seq + `","SizeBytes":120,"StreamViewType":"NEW_AND_OLD_IMAGES"},` +
		`"eventSourceARN":"arn:aws:dynamodb:eu-west-1:123456789012:table/metrics/stream/2026-12-01T00:00:00.000"}`
}

func event(t *testing.T, records ...string) dynamolambda.Event {
	t.Helper()
	var e dynamolambda.Event
	if err := json.Unmarshal([]byte(`{"Records":[`+strings.Join(records, ",")+`]}`), &e); err != nil {
		t.Fatal(err)
	}
	return e
}

func TestChanges(t *testing.T) {
	note := "calibrated"
	a := Reading{Sensor: "s1", Seq: 7, Value: 1.5, Tags: []string{"hot"}, Raw: []byte{1, 2}}
	b := a
	b.Value, b.Note = 2.25, &note
	key := Reading{Sensor: "s1", Seq: 7}
	sensor := Sensor{Name: "s1", Room: "lab"}
	e := event(t,
		record("INSERT", "100", keyOf(t, Readings, a), "", dump(t, Readings, a), ""),
		record("INSERT", "101", keyOf(t, Sensors, sensor), "", dump(t, Sensors, sensor), ""),
		record("MODIFY", "102", keyOf(t, Readings, a), dump(t, Readings, a), dump(t, Readings, b), ""),
		record("REMOVE", "103", keyOf(t, Readings, a), dump(t, Readings, b), "",
			`"userIdentity":{"type":"Service","principalId":"dynamodb.amazonaws.com"},`),
	)
	got, err := dynamolambda.Changes(Readings, e)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("got %d changes, want 3 (the sensor skipped): %+v", len(got), got)
	}
	when := time.Date(2025, 12, 2, 0, 0, 0, 0, time.UTC)
	want := []struct {
		kind           dynamo.ChangeKind
		seq            string
		hasOld, hasNew bool
	}{
		{dynamo.ChangeInsert, "100", false, true},
		{dynamo.ChangeModify, "102", true, true},
		{dynamo.ChangeRemove, "103", true, false},
	}
	for i, w := range want {
		c := got[i]
		if c.Kind != w.kind || c.SequenceNumber != w.seq || c.HasOld != w.hasOld || c.HasNew != w.hasNew {
			t.Errorf("change %d = %s %s old %v new %v, want %+v", i, c.Kind, c.SequenceNumber, c.HasOld, c.HasNew, w)
		}
		if c.Key.Sensor != key.Sensor || c.Key.Seq != key.Seq || c.Key.Value != 0 || !c.Time.Equal(when) || c.Position != "" {
			t.Errorf("change %d: key %+v, time %v, position %q", i, c.Key, c.Time, c.Position)
		}
	}
	if m := got[1]; m.Old.Value != 1.5 || m.New.Value != 2.25 || m.New.Note == nil || *m.New.Note != note ||
		m.New.Tags[0] != "hot" || string(m.New.Raw) != "\x01\x02" || m.Old.Note != nil {
		t.Errorf("modify = old %+v new %+v", m.Old, m.New)
	}
	if r := e.Records[3].StreamRecord(); r.UserIdentity == nil || *r.UserIdentity.PrincipalId != "dynamodb.amazonaws.com" {
		t.Errorf("TTL removal's identity = %+v", r.UserIdentity)
	}
}

func TestChangesDecodeError(t *testing.T) {
	e := event(t, record("INSERT", "100", `{"pk":{"S":"reading#s1"},"sk":{"S":"7"}}`, "",
		`{"pk":{"S":"reading#s1"},"sk":{"S":"7"},"value":{"S":"not a number"}}`, ""))
	_, err := dynamolambda.Changes(Readings, e)
	var de *dynamo.Error
	if !errors.As(err, &de) || de.Type != dynamo.ErrDecode || !strings.Contains(err.Error(), "value") ||
		strings.Contains(err.Error(), "not a number") {
		t.Fatalf("err = %v, want a decode error naming the field, not quoting its value", err)
	}
}

// TestHandle: the batch stops at the first failed record and reports it, so
// Lambda retries from there; records of other entities are not handed on.
func TestHandle(t *testing.T) {
	r := func(seq int) Reading { return Reading{Sensor: "s1", Seq: seq} }
	sensor := Sensor{Name: "s1", Room: "lab"}
	e := event(t,
		record("INSERT", "100", keyOf(t, Readings, r(1)), "", dump(t, Readings, r(1)), ""),
		record("INSERT", "101", keyOf(t, Sensors, sensor), "", dump(t, Sensors, sensor), ""),
		record("INSERT", "102", keyOf(t, Readings, r(2)), "", dump(t, Readings, r(2)), ""),
		record("INSERT", "103", keyOf(t, Readings, r(3)), "", dump(t, Readings, r(3)), ""),
	)
	ctx := context.Background()
	var seen []int
	resp := dynamolambda.Handle(ctx, Readings, e, func(_ context.Context, c dynamo.Change[Reading]) error {
		seen = append(seen, c.New.Seq)
		if c.New.Seq == 2 {
			return fmt.Errorf("index down")
		}
		return nil
	})
	out, _ := json.Marshal(resp)
	if string(out) != `{"batchItemFailures":[{"itemIdentifier":"102"}]}` || resp.Err == nil || resp.Err.Error() != "index down" {
		t.Fatalf("response = %s (err %v), want record 102 reported", out, resp.Err)
	}
	if fmt.Sprint(seen) != "[1 2]" {
		t.Fatalf("handled %v, want [1 2] (stopped at the failure)", seen)
	}

	resp = dynamolambda.Handle(ctx, Readings, e, func(context.Context, dynamo.Change[Reading]) error { return nil })
	if out, _ := json.Marshal(resp); string(out) != `{"batchItemFailures":[]}` || resp.Err != nil {
		t.Fatalf("all handled: response = %s (err %v), want no failures", out, resp.Err)
	}

	bad := event(t, record("INSERT", "200", `{"pk":{"S":"reading#s1"},"sk":{"S":"7"}}`, "",
		`{"pk":{"S":"reading#s1"},"sk":{"S":"7"},"value":{"S":"x"}}`, ""))
	resp = dynamolambda.Handle(ctx, Readings, bad, func(context.Context, dynamo.Change[Reading]) error {
		t.Fatal("called with a record that does not decode")
		return nil
	})
	if !errors.Is(resp.Err, dynamo.ErrDecode) || len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != "200" {
		t.Fatalf("undecodable record: response = %+v, want it reported with a decode error", resp)
	}
}

func TestEventJSONErrors(t *testing.T) {
	var e dynamolambda.Event
	err := json.Unmarshal([]byte(`{"Records":[{"eventName":"INSERT","dynamodb":{"Keys":{"id":{"Q":"x"}}}}]}`), &e)
	if err == nil {
		t.Fatal("an attribute value of no known type decoded")
	}
}
