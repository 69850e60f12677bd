package dynamo_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynamogo/dynamo"
	"github.com/dynamogo/dynamo/codec"
	"github.com/dynamogo/dynamo/dynamotest"
	"github.com/dynamogo/dynamo/schema"
)

// However a repo is printed, its secret key and session token are not.
func TestRepoFormattingHidesSecrets(t *testing.T) {
	const secret, token = "PLANTED-SECRET-KEY", "PLANTED-SESSION-TOKEN"
	repo, err := dynamo.New(aws.Config{}, dynamo.WithRegion("eu-west-1"), dynamo.WithEndpoint("http://127.0.0.1:1"),
		dynamo.WithCredentials("AKIDPLANTED", secret, token))
	if err != nil {
		t.Fatal(err)
	}
	isolateEnv(t)
	opened, err := dynamo.Open(context.Background(), dynamo.WithRegion("eu-west-1"), dynamo.WithEndpoint("http://127.0.0.1:1"),
		dynamo.WithCredentials("AKIDPLANTED", secret, token))
	if err != nil {
		t.Fatal(err)
	}
	subjects := map[string]any{
		"*Repo":                   repo,
		"Repo":                    *repo,
		"Client()":                repo.Client(),
		"Client().Options()":      repo.Client().(*dynamodb.Client).Options(),
		"Open":                    opened,
		"Open Client()":           opened.Client(),
		"Open Client().Options()": opened.Client().(*dynamodb.Client).Options(),
	}
	for name, v := range subjects {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%T", "%p"} {
			if verb == "%p" && name == "Repo" {
				continue
			}
			out := fmt.Sprintf(verb, v)
			if strings.Contains(out, secret) || strings.Contains(out, token) {
				t.Errorf("%s with %s prints a secret: %s", name, verb, out)
			}
		}
		for _, out := range []string{fmt.Sprint(v), fmt.Sprintln(v)} {
			if strings.Contains(out, secret) || strings.Contains(out, token) {
				t.Errorf("%s printed with Sprint shows a secret: %s", name, out)
			}
		}
	}
	if s := fmt.Sprint(repo); !strings.Contains(s, "eu-west-1") || !strings.Contains(s, "http://127.0.0.1:1") {
		t.Errorf("a repo prints as %q; want its region and endpoint", s)
	}
}

// Error messages name the field and the problem, never the value.
func TestErrorMessagesKeepValuesOut(t *testing.T) {
	const plant = "987654321"
	type Rec struct {
		ID    string                  `dynamo:"id,pk"`
		Num   codec.Number            `dynamo:"num"`
		Nums  codec.Set[codec.Number] `dynamo:"nums"`
		Small int8                    `dynamo:"small"`
		When  time.Time               `dynamo:"when,precision=s"`
		Day   codec.Date              `dynamo:"day"`
		Clock codec.TimeOfDay         `dynamo:"clock,precision=s"`
		Local codec.DateTime          `dynamo:"local,precision=s"`
		Score float64                 `dynamo:"score"`
		Ints  map[int]string          `dynamo:"ints"`
		Vals  map[string]codec.Number `dynamo:"vals"`
	}
	recs := schema.Must[Rec]("recs")
	ctx := context.Background()
	repo, _ := dynamotest.NewRepo(t, recs)
	table := dynamo.Bind(repo, recs)

	var msgs []string
	add := func(err error) {
		t.Helper()
		if err == nil {
			t.Fatal("no error")
		}
		msgs = append(msgs, err.Error(), fmt.Sprintf("%+v", err))
	}
	// Writes: bad values are refused before sending.
	for _, r := range []Rec{
		{ID: "a", Num: codec.Number(plant + "x")},
		{ID: "a", Nums: codec.NewSet[codec.Number](plant, plant+".0")},
		{ID: "a", When: time.Date(1987, 6, 5, 4, 3, 2, 987654321, time.UTC)},
		{ID: "a", Clock: codec.TimeOfDay{Hour: 1, Nanosecond: 987654321}},
		{ID: "a", Day: codec.Date{Year: 9876, Month: 2, Day: 30}},
		{ID: "a", Score: 9.87654321e200},
		{ID: plant + "#x"}, // the key separator inside a key value
	} {
		err := table.Put(ctx, r)
		add(err)
	}
	// Reads: stored values that do not load.
	for _, attr := range []map[string]any{
		{"small": map[string]string{"N": plant}},
		{"when": map[string]string{"S": "x" + plant}},
		{"day": map[string]string{"S": plant}},
		{"clock": map[string]string{"S": plant}},
		{"local": map[string]string{"S": plant}},
		{"ints": map[string]any{"M": map[string]any{"k" + plant: map[string]string{"S": "v"}}}},
		{"num": map[string]string{"S": plant}},
	} {
		item := map[string]any{"pk": map[string]string{"S": "rec#b"}}
		for k, v := range attr {
			item[k] = v
		}
		if _, err := repo.Request(ctx, "PutItem", map[string]any{"TableName": "recs", "Item": item}); err != nil {
			t.Fatal(err)
		}
		_, err := table.Get(ctx, Rec{ID: "b"})
		add(err)
	}
	for _, m := range msgs {
		if strings.Contains(m, plant) {
			t.Errorf("message quotes the value: %s", m)
		}
	}
}
