package dynamoslog_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/dynamoslog"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/expr"
	"github.com/dynamogo/dynamo/schema"
)

type Order struct {
	UserID  string `dynamo:"user_id,pk"`
	OrderID string `dynamo:"order_id,sk"`
	Secret  string `dynamo:"secret"`
}

var Orders = schema.Must[Order]("app")

func TestLogsOperationsAndAttempts(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv := dynamotest.NewServer(t)
	in, err := schema.CreateTableInput(Orders)
	if err != nil {
		t.Fatal(err)
	}
	srv.CreateTable(t, in)
	repo := srv.Repo(t, dynamo.WithTracer(dynamoslog.New(log)))
	orders := dynamo.Bind(repo, Orders)
	ctx := context.Background()

	srv.Fail("PutItem", 1, dynamotest.Throttling)
	if err := orders.Put(ctx, Order{UserID: "u", OrderID: "o", Secret: "hunter2"}); err != nil {
		t.Fatal(err)
	}
	_ = orders.Put(ctx, Order{UserID: "u", OrderID: "o"}, dynamo.If(expr.NotExists("pk")))
	_ = orders.Put(ctx, Order{}) // a validation failure: no attempt

	var records []map[string]any
	for line := range strings.Lines(buf.String()) {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		records = append(records, r)
	}
	// throttled attempt, attempt, operation; attempt, failed operation; failed operation
	want := []struct{ msg, level, errType string }{
		{"dynamo attempt", "DEBUG", "throttled"},
		{"dynamo attempt", "DEBUG", ""},
		{"dynamo operation", "DEBUG", ""},
		{"dynamo attempt", "DEBUG", "conditional_check_failed"},
		{"dynamo operation", "WARN", "conditional_check_failed"},
		{"dynamo operation", "WARN", "validation_error"},
	}
	if len(records) != len(want) {
		t.Fatalf("%d records:\n%s", len(records), buf.String())
	}
	for i, w := range want {
		r := records[i]
		et, _ := r["error.type"].(string)
		if r["msg"] != w.msg || r["level"] != w.level || et != w.errType {
			t.Errorf("record %d = %v, want %+v", i, r, w)
		}
	}
	if strings.Contains(buf.String(), "hunter2") {
		t.Error("an item value reached the log")
	}
}
